/* Loading a CRES for the tool: from FILE or PACKAGE@KEY, or found in the
 * package a mesh or animation came from.  Not a command file: the export
 * commands and gltf_output.c use it. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "tool_cres.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_kind.h"

void tool_cres_free(tool_cres *tc) {
    free(tc->mem);
    free(tc->sk_mem);
    tool_free(&tc->in);
    memset(tc, 0, sizeof *tc);
}

plumbob_result tool_cres_decode(const tool_input *in, tool_cres *tc) {
    size_t need, sk_need;
    plumbob_arena a;
    plumbob_result r;
    plumbob_error err;
    tc->mem = tc->sk_mem = NULL;
    r = plumbob_cres_measure_ex(in->data, in->size, &need, &err);
    if (r != PLUMBOB_OK) {
        tool_say_where(in, &err);
        return r;
    }
    tc->mem = (unsigned char *)malloc(need + 1u);
    if (!tc->mem) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, tc->mem, need);
    r = plumbob_cres_decode_ex(in->data, in->size, &a, &tc->cres, &err);
    if (r != PLUMBOB_OK) tool_say_where(in, &err);
    if (r == PLUMBOB_OK) {
        sk_need = plumbob_cres_skeleton_size(&tc->cres);
        tc->sk_mem = (unsigned char *)malloc(sk_need + 1u);
        if (!tc->sk_mem) {
            r = PLUMBOB_ERR_OUT_OF_MEMORY;
        } else {
            plumbob_arena_init(&a, tc->sk_mem, sk_need);
            r = plumbob_cres_skeleton_build(&tc->cres, &a, &tc->sk);
        }
    }
    if (r != PLUMBOB_OK) {
        free(tc->mem);
        free(tc->sk_mem);
        tc->mem = tc->sk_mem = NULL;
    }
    return r;
}

int tool_cres_load(const char *path, const char *opt, tool_cres *tc) {
    plumbob_result r;
    memset(tc, 0, sizeof *tc);
    if (!tool_load_kind(path, PLUMBOB_TYPE_CRES, opt, &tc->in)) return 0;
    r = tool_cres_decode(&tc->in, tc);
    if (r != PLUMBOB_OK) {
        tool_error(tc->in.name, "not a valid CRES: %s", tool_why(&tc->in, r));
        tool_free(&tc->in);
        return 0;
    }
    return 1;
}

/* How well a skeleton fits: mesh joints it maps, or channels it drives. */
static uint32_t fit(const tool_cres *tc, uint32_t joint_count, const plumbob_anim *anim) {
    uint32_t n = 0;
    if (joint_count) {
        int32_t *map = (int32_t *)malloc(sizeof(int32_t) * joint_count);
        n = plumbob_cres_joint_map(&tc->sk, joint_count, map);
        free(map);
    }
    if (anim) n += tool_cres_anim_bones(tc, anim);
    return n;
}

uint32_t tool_cres_anim_bones(const tool_cres *tc, const plumbob_anim *anim) {
    size_t need = plumbob_anim_bind_size(anim);
    unsigned char *mem = need == SIZE_MAX ? NULL : (unsigned char *)malloc(need + 1u);
    plumbob_arena arena;
    plumbob_anim_binding bind;
    uint32_t n = 0;
    plumbob_arena_init(&arena, mem, mem ? need + 1u : 0);
    if (mem && plumbob_anim_bind(anim, &tc->sk, NULL, &arena, &bind) == PLUMBOB_OK) n = bind.bone_channel_count;
    free(mem);
    return n;
}

int tool_cres_find(const tool_input *from, uint32_t joint_count, const plumbob_anim *anim, tool_cres *tc) {
    plumbob_package pkg;
    plumbob_package_entry e;
    uint32_t i, best_fit = 0;
    int found = 0;
    memset(tc, 0, sizeof *tc);
    if (!from->from_package || plumbob_package_open(&pkg, from->package_data, from->package_size) != PLUMBOB_OK)
        return 0;
    for (i = 0; plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_CRES, &i, &e) == PLUMBOB_OK;) {
        tool_cres cand;
        const unsigned char *res;
        size_t rs;
        uint32_t f;
        memset(&cand, 0, sizeof cand);
        cand.in.data = tool_entry_buffer(&pkg, &e, NULL);
        if (!cand.in.data || plumbob_package_read(&pkg, &e, cand.in.data, e.mem_size, &res, &rs) != PLUMBOB_OK) {
            free(cand.in.data);
            continue;
        }
        if (res != cand.in.data) memcpy(cand.in.data, res, rs);
        cand.in.size = rs;
        cand.in.entry = e;
        cand.in.from_package = 1;
        snprintf(cand.in.name, sizeof cand.in.name, "%.*s@%08X:%08X:%016llX",
                 (int)(strchr(from->name, '@') ? strchr(from->name, '@') - from->name : (long)strlen(from->name)),
                 from->name, (unsigned)e.type, (unsigned)e.group, (unsigned long long)e.instance);
        if (tool_cres_decode(&cand.in, &cand) != PLUMBOB_OK) {
            free(cand.in.data);
            continue;
        }
        f = fit(&cand, joint_count, anim);
        if (f > best_fit) {
            if (found) tool_cres_free(tc);
            *tc = cand;
            best_fit = f;
            found = 1;
        } else {
            tool_cres_free(&cand);
        }
    }
    return found;
}
