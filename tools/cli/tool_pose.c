/* Poses on a Sims 3 rig as output: a keyed clip, CLIP or glTF, JSON. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/rig.h"
#include "gltf_output.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_output.h"
#include "tool_pose.h"
#include "gltf/gltf_export.h"

/* Track k's keys from frames: rotations kept in one hemisphere key to key
 * (what = 0), translations (1) or scales (2). */
static void track_values(const plumbob_bone_pose *frames, uint32_t n, uint32_t k, uint32_t ticks, int what, float *v) {
    plumbob_quat prev = {0, 0, 0, 1};
    uint32_t i;
    for (i = 0; i < ticks; i++) {
        const plumbob_bone_pose *p = &frames[(size_t)i * n + k];
        if (what == 0) {
            plumbob_quat q = p->rotation;
            if (prev.x * q.x + prev.y * q.y + prev.z * q.z + prev.w * q.w < 0) {
                q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w;
            }
            prev = q;
            v[i * 4] = q.x; v[i * 4 + 1] = q.y; v[i * 4 + 2] = q.z; v[i * 4 + 3] = q.w;
        } else {
            plumbob_vec3 t = what == 1 ? p->translation : p->scale;
            v[i * 3] = t.x; v[i * 3 + 1] = t.y; v[i * 3 + 2] = t.z;
        }
    }
}

int tool_pose_clip(const plumbob_rig *rig, const plumbob_bone_pose *frames, uint32_t ticks, float frame_seconds,
                   const char *name, const char *source, const plumbob_clip *like, unsigned char **bytes,
                   size_t *size) {
    uint32_t n = rig->skeleton.bone_count, i, k, tracks = 0;
    plumbob_clip_track *tr = (plumbob_clip_track *)calloc((size_t)n * 3u + 1u, sizeof *tr);
    unsigned char *keys = (unsigned char *)malloc((size_t)n * 3u * ticks * 12u + 1u);
    float *v = (float *)malloc((size_t)ticks * 4u * sizeof *v + 1u);
    uint16_t *tick = (uint16_t *)malloc((size_t)ticks * sizeof *tick + 1u);
    plumbob_clip c;
    int ok = 0, what;
    *bytes = NULL;
    if (!tr || !keys || !v || !tick) {
        tool_error(NULL, "out of memory");
        goto done;
    }
    if (ticks == 0 || ticks > 65535u || !rig->skeleton.name_hash) goto refused;
    for (i = 0; i < ticks; i++) tick[i] = (uint16_t)i;
    for (k = 0; k < n; k++) {
        for (what = 0; what < 3; what++) {
            static const uint8_t target[3] = {PLUMBOB_CLIP_TARGET_ROTATION, PLUMBOB_CLIP_TARGET_TRANSLATION,
                                              PLUMBOB_CLIP_TARGET_SCALE};
            if (what == 2) { /* a scale track only where a scale is not 1 */
                for (i = 0; i < ticks; i++) {
                    plumbob_vec3 s = frames[(size_t)i * n + k].scale;
                    if (s.x != 1.0f || s.y != 1.0f || s.z != 1.0f) break;
                }
                if (i == ticks) continue;
            }
            track_values(frames, n, k, ticks, what, v);
            if (plumbob_clip_encode_track(&tr[tracks], rig->skeleton.name_hash[k], what ? 0x12 : 0x14, target[what],
                                          (uint16_t)ticks, tick, v, keys + (size_t)tracks * ticks * 12u) != PLUMBOB_OK)
                goto refused;
            tracks++;
        }
    }
    memset(&c, 0, sizeof c);
    c.version = like && like->version ? like->version : 2;
    c.frame_duration = frame_seconds;
    c.tick_count = (uint16_t)ticks;
    c.name.ptr = name;
    c.name.len = strlen(name);
    c.source.ptr = source;
    c.source.len = strlen(source);
    if (like) c.actor = like->actor;
    c.track_count = tracks;
    c.tracks = tr;
    c.event_version = like && like->event_version ? like->event_version : 0x103;
    c.event_pos = 1; /* an (empty) event list is written, as the game's clips have one (clip import does the same) */
    c.events_complete = true;
    *size = plumbob_clip_write_size(&c);
    if (*size == SIZE_MAX || !(*bytes = (unsigned char *)malloc(*size)) ||
        plumbob_clip_write(&c, *bytes, *size, size) != PLUMBOB_OK) {
        free(*bytes);
        *bytes = NULL;
        goto refused;
    }
    ok = 1;
    goto done;
refused:
    tool_error(NULL, "internal error: the clip writer refused the poses");
done:
    free(tr); free(keys); free(v); free(tick);
    return ok;
}

void tool_pose_clip_name(const char *path, const char *name, char *out, size_t cap) {
    const char *base = path, *p;
    char *dot;
    for (p = path; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1; /* Windows paths too */
    snprintf(out, cap, "%s", name ? name : base);
    if (!name && (dot = strrchr(out, '.')) != NULL && dot != out) *dot = 0;
}

int tool_pose_write(const char *path, const plumbob_rig *rig, const unsigned char *bytes, size_t size) {
    tool_input cin;
    tool_clip oc;
    tool_rig grig;
    gltf_export_src src;
    int ok;
    if (tool_ends_with(path, ".clip")) {
        if (!tool_write_file(path, bytes, size)) return 0;
        if (!tool_quiet()) printf("wrote %s (%zu bytes)\n", path, size);
        return 1;
    }
    memset(&cin, 0, sizeof cin);
    memset(&src, 0, sizeof src);
    memset(&grig, 0, sizeof grig);
    cin.data = (unsigned char *)(uintptr_t)bytes; /* read only: tool_clip_decode does not write */
    cin.size = size;
    snprintf(cin.name, sizeof cin.name, "%s", path);
    if (tool_clip_decode(&cin, &oc) != PLUMBOB_OK) {
        tool_error(path, "internal error: the clip plumbob wrote does not decode");
        return 0;
    }
    if (!tool_rig_from_skeleton(&rig->skeleton, &grig)) {
        tool_clip_free(&oc);
        tool_error(path, "out of memory");
        return 0;
    }
    snprintf(grig.name, sizeof grig.name, "%.*s", (int)rig->skeleton_name.len, rig->skeleton_name.ptr);
    src.clip = &oc.clip;
    src.rig = &grig;
    ok = tool_write_gltf(path, &src, NULL) == 0;
    tool_rig_free(&grig);
    tool_clip_free(&oc);
    return ok;
}

void tool_pose_json_bones(const plumbob_rig *rig, const plumbob_bone_pose *local) {
    uint32_t n = rig->skeleton.bone_count, f, k;
    plumbob_mat34 *model = (plumbob_mat34 *)calloc(n + 1u, sizeof *model);
    plumbob_quat *mq = (plumbob_quat *)calloc(n + 1u, sizeof *mq);
    printf("[");
    if (model && mq && tool_skeleton_pose(&rig->skeleton, local, model, mq)) {
        for (f = 0; f < rig->bone_count; f++) { /* file order, as rig dump lists them */
            const plumbob_rig_bone *b = &rig->bones[f];
            k = rig->skeleton_index[f];
            printf("%s\n  {\"index\": %u, \"name\": ", f ? "," : "", (unsigned)f);
            json_string(stdout, b->name.ptr, b->name.len);
            printf(", \"hash\": \"0x%08X\", \"parent\": %d, ", (unsigned)b->hash, (int)b->parent);
            json_bone_pose(stdout, &local[k], &model[k], &mq[k]);
            printf("}");
        }
    }
    printf("]");
    free(model);
    free(mq);
}

int32_t tool_pose_find_bone(const plumbob_rig *rig, const char *name, size_t len) {
    uint32_t f;
    for (f = 0; f < rig->bone_count; f++) {
        const plumbob_rig_bone *b = &rig->bones[f];
        size_t i;
        if (b->name.len != len) continue;
        for (i = 0; i < len; i++) {
            char x = b->name.ptr[i], y = name[i];
            if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
            if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
            if (x != y) break;
        }
        if (i == len) return (int32_t)rig->skeleton_index[f];
    }
    if (len > 2 && len <= 10 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
        char buf[16], *end;
        unsigned long h;
        memcpy(buf, name, len);
        buf[len] = 0;
        h = strtoul(buf + 2, &end, 16);
        for (f = 0; *end == 0 && f < rig->bone_count; f++)
            if (rig->bones[f].hash == (uint32_t)h) return (int32_t)rig->skeleton_index[f];
    }
    return -1;
}

int tool_pose_vec3(const char *opt, const char *s, plumbob_vec3 *v) {
    double x[3];
    const char *p = s;
    int i;
    for (i = 0; i < 3; i++) {
        char *end;
        x[i] = strtod(p, &end);
        if (end == p || !(x[i] >= -1e6 && x[i] <= 1e6) || (i < 2 ? *end != ',' : *end != 0)) {
            tool_error(NULL, "%s needs X,Y,Z (three numbers within +-1e6, commas between), not '%s'", opt, s);
            return 0;
        }
        p = end + 1;
    }
    v->x = (float)x[0];
    v->y = (float)x[1];
    v->z = (float)x[2];
    return 1;
}
