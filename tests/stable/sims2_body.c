/* A Sims 2 body driven by an ANIM, built against the stable surface only:
 * package -> CRES -> skeleton -> GMDC -> ANIM -> bind -> sample -> model ->
 * palette -> skin.  The part between the API.md marks is docs/API.md's
 * example "Drive a Sims 2 body with an ANIM" word for word;
 * tests/build-tests.sh checks that, compiles this with
 * -DPLUMBOB_STABLE_ONLY -Werror and compares what it prints with
 * `plumbob gmdc skin --anim --time`.
 * Usage: sims2_body BODY.package SECONDS   (prints group 0's skinned
 * positions, one number a line) */
#include <stdio.h>
#include <stdlib.h>
#include "plumbob.h"

#define MAX_BONES 256
#define MAX_JOINTS 256
#define MAX_MORPHS 64
#define MAX_VERTICES 65536
#define ARENA_BYTES (16u << 20)

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) *size = (size_t)n;
    fclose(f);
    return buf;
}

/* The bytes of the package's first resource of `type` (RefPack-compressed
 * ones inflated into malloc'd memory). */
static plumbob_result first_of(const plumbob_package *pkg, uint32_t type, const unsigned char **bytes, size_t *size) {
    uint32_t i;
    for (i = 0; i < pkg->count; i++) {
        plumbob_package_entry e;
        size_t cap;
        if (plumbob_package_entry_at(pkg, i, &e) != PLUMBOB_OK || e.type != type) continue;
        if (plumbob_package_read_size(pkg, &e, &cap) != PLUMBOB_OK) return PLUMBOB_ERR_BAD_DATA;
        return plumbob_package_read(pkg, &e, cap ? malloc(cap) : NULL, cap, bytes, size);
    }
    return PLUMBOB_ERR_NOT_FOUND;
}

#define TRY(call)                                                                         \
    do {                                                                                  \
        plumbob_result r_ = (call);                                                       \
        if (r_ != PLUMBOB_OK) {                                                           \
            fprintf(stderr, "sims2_body: %s: %s\n", #call, plumbob_result_str(r_));       \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

static plumbob_bone_pose poses[MAX_BONES];
static plumbob_mat34 model[MAX_BONES], joint_model[MAX_JOINTS], palette[MAX_JOINTS];
static int32_t bone_of_joint[MAX_JOINTS];
static float weights[MAX_MORPHS], positions[3 * MAX_VERTICES];
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

int main(int argc, char **argv) {
    size_t file_size = 0, cres_size, gmdc_size, anim_size;
    unsigned char *file, *arena_mem = malloc(ARENA_BYTES);
    const unsigned char *cres_bytes, *gmdc_bytes, *anim_bytes;
    float ticks;
    uint32_t j, v, vertex_count;
    plumbob_arena arena;
    plumbob_package pkg;
    plumbob_cres cres;
    plumbob_cres_skeleton sk;
    plumbob_gmdc mesh;
    plumbob_anim anim;
    plumbob_anim_binding bind;
    plumbob_anim_sampler smp;
    plumbob_gmdc_skin_job job = {0};
    static const plumbob_mat34 unmoved = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    if (argc != 3 || !(file = slurp(argv[1], &file_size)) || !arena_mem) {
        fprintf(stderr, "usage: sims2_body BODY.package SECONDS\n");
        return 2;
    }
    ticks = (float)(atof(argv[2]) * 1000.0); /* ANIM time: 1 tick = 1 ms */
    plumbob_arena_init(&arena, arena_mem, ARENA_BYTES);
    /* API.md: begin */
    /* once: the package's CRES (the skeleton), GMDC (the mesh) and ANIM */
    TRY(plumbob_package_open(&pkg, file, file_size));
    TRY(first_of(&pkg, PLUMBOB_TYPE_CRES, &cres_bytes, &cres_size));
    TRY(first_of(&pkg, PLUMBOB_TYPE_GMDC, &gmdc_bytes, &gmdc_size));
    TRY(first_of(&pkg, PLUMBOB_TYPE_ANIM, &anim_bytes, &anim_size));
    TRY(plumbob_cres_decode(cres_bytes, cres_size, &arena, &cres));
    TRY(plumbob_cres_skeleton_build(&cres, &arena, &sk));
    TRY(plumbob_gmdc_decode(gmdc_bytes, gmdc_size, &arena, &mesh));
    TRY(plumbob_anim_decode(anim_bytes, anim_size, &arena, &anim));
    TRY(plumbob_anim_bind(&anim, &sk, &mesh, &arena, &bind)); /* bind.unbound_names: what plays nothing */
    TRY(plumbob_anim_sampler_init(&bind, &arena, &smp));
    plumbob_cres_joint_map(&sk, mesh.joint_count, bone_of_joint); /* -1: a joint no bone claims */
    /* every frame: local pose (ticks: ms) -> model space -> palette -> skin */
    TRY(plumbob_anim_sampler_sample(&smp, ticks, poses, MAX_BONES, weights, MAX_MORPHS));
    TRY(plumbob_skeleton_model(&sk.skeleton, poses, model, MAX_BONES));
    for (j = 0; j < mesh.joint_count; j++) /* an unclaimed joint keeps the stored vertices: identity */
        joint_model[j] = bone_of_joint[j] >= 0 ? model[bone_of_joint[j]] : unmoved;
    TRY(plumbob_gmdc_palette(&mesh, joint_model, palette, MAX_JOINTS));
    for (j = 0; j < mesh.joint_count; j++)
        if (bone_of_joint[j] < 0) palette[j] = unmoved;
    job.gmdc = &mesh;
    job.group = 0;
    job.palette = palette;
    job.palette_count = MAX_JOINTS;
    job.morph_weights = weights;
    job.morph_weight_count = MAX_MORPHS;
    job.positions = positions;
    job.position_stride = 3;
    job.position_count = MAX_VERTICES;
    job.work = skin_work;
    TRY(plumbob_gmdc_skin(&job));
    /* API.md: end */
    vertex_count = mesh.linkages[mesh.groups[0].link].vertex_count;
    for (v = 0; v < 3u * vertex_count && v < 3u * MAX_VERTICES; v++) printf("%.9g\n", (double)positions[v]);
    return 0; /* the process ends: no frees needed for a test */
}
