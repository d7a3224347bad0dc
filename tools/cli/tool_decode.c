/* Decoding a loaded input into the tool's own structs (CLIP, rig, GMDC,
 * ANIM with malloc'd arenas), and the words for a decode that failed. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "tool_decode.h"
#include "tool_input.h"

void tool_error_detail(const plumbob_error *e, char *out, size_t cap) {
    if (e->index != PLUMBOB_ERROR_NO_INDEX)
        snprintf(out, cap, "%s at byte %zu (0x%zx), %s %u: %s", plumbob_result_str(e->result), e->offset, e->offset,
                 e->table, (unsigned)e->index, e->reason);
    else
        snprintf(out, cap, "%s at byte %zu (0x%zx), %s: %s", plumbob_result_str(e->result), e->offset, e->offset,
                 e->table, e->reason);
}

int tool_gmdc_drawable(const plumbob_gmdc *g, const char *where) {
    uint32_t i;
    for (i = 0; i < g->group_count; i++)
        if (g->groups[i].primitive != PLUMBOB_GMDC_PRIMITIVE_TRIANGLES) {
            tool_error(where, "group %u (%.*s): primitive type %u is not a triangle list (the GMDC page lists only 2): "
                       "unsupported", (unsigned)i, (int)g->groups[i].name.len, g->groups[i].name.ptr,
                       (unsigned)g->groups[i].primitive);
            return 0;
        }
    return 1;
}

plumbob_result tool_gmdc_decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem) {
    size_t need;
    plumbob_arena a;
    plumbob_error err;
    plumbob_result r = plumbob_gmdc_measure_ex(in->data, in->size, &need, &err);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, *mem, need);
        r = plumbob_gmdc_decode_ex(in->data, in->size, &a, g, &err);
    }
    if (r != PLUMBOB_OK) {
        free(*mem);
        *mem = NULL;
        /* only into this input's own buffer (a struct copy keeps the old pointer) */
        if (in->why && in->why == in->why_text) tool_error_detail(&err, in->why, sizeof in->why_text);
    }
    return r;
}

void tool_say_where(const tool_input *in, const plumbob_error *err) {
    if (in->why && in->why == in->why_text && err->result != PLUMBOB_OK)
        tool_error_detail(err, in->why, sizeof in->why_text);
}

const char *tool_package_why(const void *data, size_t size, plumbob_result r, char *buf, size_t cap) {
    plumbob_package pkg;
    plumbob_error err;
    if (data && plumbob_package_open_ex(&pkg, data, size, &err) == r && r != PLUMBOB_OK) {
        tool_error_detail(&err, buf, cap);
        return buf;
    }
    return plumbob_result_str(r);
}

const char *tool_why(const tool_input *in, plumbob_result r) {
    return in->why && in->why == in->why_text && in->why_text[0] ? in->why_text : plumbob_result_str(r);
}

plumbob_result tool_geom_decode(const tool_input *in, plumbob_geom *g, unsigned char **mem) {
    size_t need;
    plumbob_arena arena;
    plumbob_error err;
    plumbob_result r = plumbob_geom_measure_ex(in->data, in->size, &need, &err);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&arena, *mem, need);
        r = plumbob_geom_decode_ex(in->data, in->size, &arena, g, &err);
    }
    if (r != PLUMBOB_OK) {
        free(*mem);
        *mem = NULL;
        tool_say_where(in, &err);
    }
    return r;
}

plumbob_result tool_anim_decode(const tool_input *in, plumbob_anim *a, unsigned char **mem) {
    size_t need;
    plumbob_arena arena;
    plumbob_error err;
    plumbob_result r = plumbob_anim_measure_ex(in->data, in->size, &need, &err);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&arena, *mem, need);
        r = plumbob_anim_decode_ex(in->data, in->size, &arena, a, &err);
    }
    if (r != PLUMBOB_OK) {
        free(*mem);
        *mem = NULL;
        tool_say_where(in, &err);
    }
    return r;
}

const char *tool_clip_target_name(uint8_t t) {
    switch (t) {
    case PLUMBOB_CLIP_TARGET_TRANSLATION: return "translation";
    case PLUMBOB_CLIP_TARGET_ROTATION: return "rotation";
    case PLUMBOB_CLIP_TARGET_SCALE: return "scale";
    case PLUMBOB_CLIP_TARGET_MORPH: return "morph";
    }
    return "unknown";
}

plumbob_result tool_clip_decode(const tool_input *in, tool_clip *tc) {
    size_t need;
    plumbob_arena a;
    plumbob_error err;
    plumbob_result r = plumbob_clip_measure_ex(in->data, in->size, &need, &err);
    memset(tc, 0, sizeof *tc);
    if (r == PLUMBOB_OK) {
        tc->arena_mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, tc->arena_mem, need);
        r = plumbob_clip_decode_ex(in->data, in->size, &a, &tc->clip, &err);
    }
    if (r != PLUMBOB_OK) {
        free(tc->arena_mem);
        tc->arena_mem = NULL;
        tool_say_where(in, &err);
    }
    return r;
}

void tool_clip_free(tool_clip *tc) {
    free(tc->arena_mem);
    tc->arena_mem = NULL;
}

plumbob_result tool_rig_decode(const tool_input *in, tool_rig_res *tr) {
    size_t need;
    plumbob_arena a;
    plumbob_error err;
    plumbob_result r = plumbob_rig_measure_ex(in->data, in->size, &need, &err);
    memset(tr, 0, sizeof *tr);
    if (r == PLUMBOB_OK) {
        tr->arena_mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, tr->arena_mem, need);
        r = plumbob_rig_decode_ex(in->data, in->size, &a, &tr->rig, &err);
    }
    if (r != PLUMBOB_OK) {
        free(tr->arena_mem);
        tr->arena_mem = NULL;
        tool_say_where(in, &err);
    }
    return r;
}

void tool_rig_res_free(tool_rig_res *tr) {
    free(tr->arena_mem);
    tr->arena_mem = NULL;
}

int tool_rig_decode_or_say(const tool_input *in, tool_rig_res *tr) {
    plumbob_result r = tool_rig_decode(in, tr);
    if (r == PLUMBOB_ERR_UNSUPPORTED)
        tool_error(in->name, "a Granny 2 rig (the old format): not supported, only the plain rig format");
    else if (r != PLUMBOB_OK)
        tool_error(in->name, "not a valid rig: %s", tool_why(in, r));
    return r == PLUMBOB_OK;
}

int tool_skeleton_pose(const plumbob_skeleton *sk, const plumbob_bone_pose *local, plumbob_mat34 *model,
                       plumbob_quat *model_rotation) {
    return plumbob_skeleton_model(sk, local, model, sk->bone_count) == PLUMBOB_OK &&
           plumbob_skeleton_model_rotations(sk, local, model_rotation, sk->bone_count) == PLUMBOB_OK;
}

int tool_rig_sample(const plumbob_clip *clip, const plumbob_rig *rig, float t, plumbob_bone_pose *poses,
                    plumbob_mat34 *model, plumbob_quat *model_rotation, unsigned char *tracked) {
    uint32_t n = rig->skeleton.bone_count, k;
    size_t need = plumbob_rig_bind_size(clip, rig);
    unsigned char *mem = need != SIZE_MAX ? (unsigned char *)malloc(need ? need : 1) : NULL;
    plumbob_clip_binding bind;
    plumbob_arena a;
    int ok;
    if (!mem) return 0;
    plumbob_arena_init(&a, mem, need);
    ok = plumbob_rig_bind(clip, rig, NULL, 0, &a, &bind) == PLUMBOB_OK &&
         plumbob_skeleton_rest_pose(&rig->skeleton, 0, n, poses, n + 1u) == PLUMBOB_OK;
    if (ok && tracked) {
        memset(tracked, 0, n);
        for (k = 0; k < clip->track_count; k++)
            if (bind.bone_of_track[k] >= 0) tracked[bind.bone_of_track[k]] = 1;
    }
    if (ok) plumbob_clip_sample_pose(clip, &bind, NULL, t, poses, NULL);
    free(mem);
    if (!ok) return 0;
    if (model_rotation ? !tool_skeleton_pose(&rig->skeleton, poses, model, model_rotation)
                       : plumbob_skeleton_model(&rig->skeleton, poses, model, n) != PLUMBOB_OK)
        return -1;
    return 1;
}

void tool_warn_scaled_binds(const char *where, uint32_t n, const char *effect) {
    tool_warning(where, "%u inverse bind %s a scale (an armature scale not applied?): %s; apply the scale in the "
                 "modelling program", (unsigned)n, n == 1 ? "matrix carries" : "matrices carry", effect);
}
