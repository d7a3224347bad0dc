/* libFuzzer target: the glTF reader, clip import, GMDC import and the
 * skeleton's CRES on arbitrary bytes.  Every input is refused with a reason
 * or imported into a clip, mesh or CRES that plumbob's writers write and its
 * decoders read back; the mesh's joints are then matched to that CRES. */
#include <stdlib.h>
#include "gltf/gltf_import.h"

/* The skeleton as a CRES written and decoded back, then the skin matched
 * to it by name (which may refuse: unnamed or repeated names). */
static void cres_round_trip(const gltf_doc *doc) {
    cres_import ci;
    char why[300];
    size_t need, got = 0, arena_bytes = 0;
    unsigned char *out, *mem, *sk_mem;
    plumbob_arena arena, sk_arena;
    plumbob_cres back;
    plumbob_cres_skeleton sk;
    gmdc_import_joints jm;
    if (!gltf_import_cres(doc, "fuzz_cres", &ci, why, sizeof why)) return;
    need = plumbob_cres_write_size(&ci.cres);
    out = (unsigned char *)malloc(need != SIZE_MAX ? need : 1);
    if (need == SIZE_MAX || !out || plumbob_cres_write(&ci.cres, out, need, &got) != PLUMBOB_OK) abort();
    if (plumbob_cres_measure(out, got, &arena_bytes) != PLUMBOB_OK) abort();
    mem = (unsigned char *)malloc(arena_bytes ? arena_bytes : 1);
    plumbob_arena_init(&arena, mem, arena_bytes);
    if (plumbob_cres_decode(out, got, &arena, &back) != PLUMBOB_OK) abort();
    need = plumbob_cres_skeleton_size(&back);
    sk_mem = (unsigned char *)malloc(need != SIZE_MAX && need ? need : 1);
    plumbob_arena_init(&sk_arena, sk_mem, need);
    if (need == SIZE_MAX || plumbob_cres_skeleton_build(&back, &sk_arena, &sk) != PLUMBOB_OK) abort();
    if (sk.skeleton.bone_count != ci.bones) abort();
    if (gltf_match_cres(doc, &sk, &jm, why, sizeof why)) {
        gmdc_import gi;
        if (jm.skin_count != ci.joints) abort();
        if (gltf_import_gmdc(doc, NULL, &jm, &gi, why, sizeof why)) gmdc_import_free(&gi);
        gmdc_import_joints_free(&jm);
    }
    free(sk_mem);
    free(mem);
    free(out);
    cres_import_free(&ci);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    static unsigned char out[1u << 20];
    static unsigned char arena_mem[1u << 16];
    gltf_doc doc;
    clip_import ci;
    clip_import_opts o = {0};
    char why[300];
    o.fps = 30;
    o.max_rotation_deg = 0.01;
    o.max_translation = 0.0001;
    o.max_morph = 0.001;
    o.max_samples = 200000; /* keep one input quick */
    int parsed = gltf_read(data, size, "/nonexistent/fuzz.gltf", &doc, why, sizeof why);
    if (parsed && gltf_import_clip(&doc, &o, &ci, why, sizeof why)) {
        size_t need = plumbob_clip_write_size(&ci.clip), got = 0;
        if (need != SIZE_MAX && need <= sizeof out) {
            plumbob_clip back;
            plumbob_arena arena;
            if (plumbob_clip_write(&ci.clip, out, need, &got) != PLUMBOB_OK) abort();
            plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
            {
                plumbob_result r = plumbob_clip_decode(out, got, &arena, &back);
                if (r != PLUMBOB_OK && r != PLUMBOB_ERR_OUT_OF_MEMORY) abort();
            }
        }
        clip_import_free(&ci);
    }
    if (parsed) {
        gmdc_import gi;
        if (gltf_import_gmdc(&doc, NULL, NULL, &gi, why, sizeof why)) {
            size_t need = plumbob_gmdc_write_size(&gi.gmdc), got = 0, arena_bytes = 0;
            if (need != SIZE_MAX && need <= sizeof out) {
                if (plumbob_gmdc_write(&gi.gmdc, out, need, &got) != PLUMBOB_OK) abort();
                if (plumbob_gmdc_measure(out, got, &arena_bytes) != PLUMBOB_OK) abort();
                {
                    void *mem = malloc(arena_bytes ? arena_bytes : 1);
                    plumbob_arena arena;
                    plumbob_gmdc back;
                    plumbob_arena_init(&arena, mem, arena_bytes);
                    if (!mem || plumbob_gmdc_decode(out, got, &arena, &back) != PLUMBOB_OK) abort();
                    free(mem);
                }
            }
            gmdc_import_free(&gi);
        }
    }
    if (parsed) { /* geom import's streams: indices inside, influences on the skin's joints, weights summing to 1 or 0 */
        geom_import gg;
        if (gltf_import_geom(&doc, &gg, why, sizeof why)) {
            uint32_t v, k;
            for (v = 0; v < gg.ni; v++)
                if (gg.idx[v] >= gg.n) abort();
            for (v = 0; gg.jnt && v < gg.n; v++) {
                float total = 0.0f;
                for (k = 0; k < 4; k++) {
                    if (gg.w[4 * v + k] > 0.0f && gg.jnt[4 * v + k] >= gg.joint_count) abort();
                    total += gg.w[4 * v + k];
                }
                if (total != 0.0f && (total < 0.999f || total > 1.001f)) abort();
            }
            geom_import_free(&gg);
        }
    }
    if (parsed) cres_round_trip(&doc);
    gltf_doc_free(&doc);
    return 0;
}
