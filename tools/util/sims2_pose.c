/* Sims 2 ANIM channels onto CRES bones. */
#include <string.h>
#include "util/sims2_pose.h"
#include "util/ascii.h"

static int suffix(plumbob_string s, const char *suf, size_t *stem) {
    size_t n = strlen(suf);
    if (s.len <= n || !tool_ascii_ncaseeq(s.ptr + s.len - n, suf, n)) return 0;
    *stem = s.len - n;
    return 1;
}

int32_t sims2_channel_bone(const plumbob_cres_skeleton *sk, const plumbob_anim *a, uint32_t ch) {
    plumbob_string n;
    uint32_t attr;
    size_t stem;
    int32_t b;
    if (!sk || !a || ch >= a->channel_count) return -1;
    attr = PLUMBOB_ANIM_ATTRIBUTE(a->channels[ch].flags);
    if (attr != PLUMBOB_ANIM_ATTR_ROTATION && attr != PLUMBOB_ANIM_ATTR_TRANSLATION) return -1;
    n = a->channels[ch].name;
    b = plumbob_cres_find_bone(sk, n.ptr, n.len);
    if (b >= 0) return b;
    if (suffix(n, "_rot", &stem) || suffix(n, "_trans", &stem)) return plumbob_cres_find_bone(sk, n.ptr, stem);
    return -1;
}

uint32_t sims2_anim_pose(const plumbob_cres_skeleton *sk, const plumbob_anim *a, float ticks,
                         plumbob_bone_pose *poses) {
    uint32_t ch, driven = 0;
    plumbob_skeleton_rest_pose(&sk->skeleton, 0, sk->skeleton.bone_count, poses, sk->skeleton.bone_count);
    for (ch = 0; a && ch < a->channel_count; ch++) {
        int32_t b = sims2_channel_bone(sk, a, ch);
        float v[8];
        plumbob_quat q;
        uint32_t n;
        if (b < 0) continue;
        q = plumbob_quat_identity();
        n = plumbob_anim_sample_channel(a, ch, ticks, v, &q);
        if (PLUMBOB_ANIM_ATTRIBUTE(a->channels[ch].flags) == PLUMBOB_ANIM_ATTR_ROTATION) {
            if (PLUMBOB_ANIM_VALUE_TYPE(a->channels[ch].flags) != 3 || n < 3) continue;
            poses[b].rotation = q;
        } else {
            if (n < 3) continue;
            poses[b].translation.x = v[0];
            poses[b].translation.y = v[1];
            poses[b].translation.z = v[2];
        }
        driven++;
    }
    return driven;
}

static int same_name(plumbob_string a, const char *b, size_t len) {
    return a.len == len && tool_ascii_ncaseeq(a.ptr, b, len);
}

int32_t sims2_morph_channel(const plumbob_anim *a, const char *name, size_t len) {
    uint32_t ch;
    if (!a || !len) return -1;
    for (ch = 0; ch < a->channel_count; ch++)
        if (PLUMBOB_ANIM_ATTRIBUTE(a->channels[ch].flags) == PLUMBOB_ANIM_ATTR_MORPH &&
            same_name(a->channels[ch].name, name, len))
            return (int32_t)ch;
    return -1;
}

uint32_t sims2_anim_morphs(const plumbob_gmdc *g, const plumbob_anim *a, float ticks, float *weights) {
    uint32_t i, n = 0;
    for (i = 0; g && i < g->morph_count; i++) {
        const plumbob_string *nm = &g->morph_names[2 * i + 1];
        int32_t ch = sims2_morph_channel(a, nm->ptr, nm->len);
        float v[8];
        if (ch < 0 || plumbob_anim_sample_channel(a, (uint32_t)ch, ticks, v, NULL) < 1) continue;
        weights[i] = v[0];
        n++;
    }
    return n;
}
