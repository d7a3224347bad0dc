/* The skinning benchmark's mesh and palette, shared by bench_skin.c and the
 * comparison harness (bench/compare/), so both time the same vertices. */
#include <stdlib.h>
#include <string.h>
#include "bench_mesh.h"
#include "pb_bytes.h"

#define JOINTS BENCH_SKIN_JOINTS

/* Little-endian builders: the core's own byte helpers. */
#define put32 pb_put_le32
#define putf pb_put_f32le

/* A version-2 mesh of n vertices, each with `infl` influences over 32 joints
 * (drop: slots 1..infl-1 each unused at random, as a real mesh's vertices
 * use one to four), and triangles over all of them. */
static unsigned char *skin_mesh(uint32_t n, uint32_t infl, int drop, size_t *size) {
    uint32_t nw = infl > 1 ? infl - 1 : 1, i, k, s = 1;
    unsigned char *pos = (unsigned char *)malloc((size_t)n * 12), *nrm = (unsigned char *)malloc((size_t)n * 12);
    unsigned char *ba = (unsigned char *)malloc((size_t)n * 4), *bw = (unsigned char *)malloc((size_t)n * 4 * nw);
    unsigned char refs[16], *faces = (unsigned char *)malloc((size_t)n * 4), bones[JOINTS * 4], joints[JOINTS * 28], *out;
    plumbob_gmdc_element els[4];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc g;
    for (i = 0; i < n; i++) {
        uint32_t a = 0xFFFFFFFFu;
        for (k = 0; k < 3; k++) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            putf(pos + 12u * i + 4u * k, (float)(s % 1000u) / 500.0f - 1.0f);
            putf(nrm + 12u * i + 4u * k, k == 2 ? 1.0f : 0.0f);
        }
        for (k = 0; k < infl; k++) {
            uint32_t slot = (i + k * 7u) % JOINTS;
            if (drop && k > 0) {
                s ^= s << 13; s ^= s >> 17; s ^= s << 5;
                if (s & 0x100u) slot = 0xFFu;
            }
            a = (a & ~(0xFFu << (8 * k))) | (slot << (8 * k));
        }
        put32(ba + 4u * i, a);
        for (k = 0; k < nw; k++) putf(bw + 4u * (i * nw + k), infl == 1 ? 1.0f : 1.0f / (float)infl);
    }
    for (i = 0; i < 4; i++) put32(refs + 4 * i, i);
    /* triangles over every vertex, so decode validates each vertex's slots */
    for (i = 0; i < n / 3u * 3u; i++) put32(faces + 4 * i, i);
    for (i = 0; i < JOINTS; i++) {
        put32(bones + 4 * i, i);
        memset(joints + 28 * i, 0, 28);
        putf(joints + 28 * i + 12, 1.0f);
        putf(joints + 28 * i + 16, (float)i * 0.1f);
    }
    memset(els, 0, sizeof els);
    els[0].count = n; els[0].identity = PLUMBOB_GMDC_VERTICES; els[0].format = 2; els[0].byte_size = n * 12; els[0].data = pos;
    els[1].count = n; els[1].identity = PLUMBOB_GMDC_NORMALS; els[1].format = 2; els[1].byte_size = n * 12; els[1].data = nrm;
    els[2].count = n; els[2].identity = PLUMBOB_GMDC_BONE_ASSIGNMENTS; els[2].format = 4; els[2].byte_size = n * 4; els[2].data = ba;
    els[3].count = n; els[3].identity = PLUMBOB_GMDC_BONE_WEIGHTS; els[3].format = nw - 1; els[3].byte_size = n * 4 * nw; els[3].data = bw;
    memset(&link, 0, sizeof link);
    link.refs.data = refs; link.refs.count = 4; link.vertex_count = n; link.active_count = 4;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2; grp.name.ptr = "bench"; grp.name.len = 5;
    grp.faces.data = faces; grp.faces.count = n / 3u * 3u; grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones; grp.bones.count = JOINTS;
    memset(&g, 0, sizeof g);
    g.version = 2; g.index_size = 4;
    g.head.resource_name.ptr = "bench"; g.head.resource_name.len = 5;
    g.element_count = 4; g.elements = els; g.linkage_count = 1; g.linkages = &link;
    g.group_count = 1; g.groups = &grp; g.joint_count = JOINTS; g.joints = joints;
    *size = plumbob_gmdc_write_size(&g);
    out = (unsigned char *)malloc(*size);
    if (plumbob_gmdc_write(&g, out, *size, size) != PLUMBOB_OK) abort();
    free(pos); free(nrm); free(ba); free(bw); free(faces);
    return out;
}

unsigned char *bench_skin_mesh(uint32_t n, uint32_t infl, size_t *size) { return skin_mesh(n, infl, 0, size); }

unsigned char *bench_skin_mesh_drops(uint32_t n, size_t *size) { return skin_mesh(n, 4, 1, size); }

unsigned char *bench_skin_decode(const unsigned char *mesh, size_t size, plumbob_gmdc *g, size_t *need) {
    plumbob_arena a;
    unsigned char *mem;
    if (plumbob_gmdc_measure(mesh, size, need) != PLUMBOB_OK) abort();
    mem = (unsigned char *)malloc(*need);
    plumbob_arena_init(&a, mem, *need);
    if (plumbob_gmdc_decode(mesh, size, &a, g) != PLUMBOB_OK) abort();
    return mem;
}

void bench_skin_palette(const plumbob_gmdc *g, plumbob_mat34 palette[BENCH_SKIN_JOINTS]) {
    plumbob_mat34 model[BENCH_SKIN_JOINTS];
    uint32_t j;
    for (j = 0; j < JOINTS; j++) {
        plumbob_quat q = {0, 0, 0.0998334f, 0.9950042f};
        plumbob_vec3 t = {0.1f * (float)j, 0, 0};
        model[j] = plumbob_mat34_from_rt(q, t);
    }
    plumbob_gmdc_palette(g, model, palette, BENCH_SKIN_JOINTS);
}
