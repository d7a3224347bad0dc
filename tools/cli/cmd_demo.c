/* plumbob demo: a first look at plumbob on built-in data (no files needed). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <math.h>
#include "plumbob.h"
#include "plot/plot.h"
#include "util/demo_data.h"
#include "util/dirs.h"
#include "util/files.h"
#include "util/rig.h"
#include "commands.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "util/names.h"
#include "gltf/gltf_export.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

/* The demo rig: the cylinder's three joints, named as the clip's tracks. */
static const char demo_rig[] = "# plumbob demo rig: NAME [PARENT], in the mesh's joint order\n"
                               "b__ROOT__\n"
                               "b__Spine0__ b__ROOT__\n"
                               "b__Spine1__ b__Spine0__\n";

/* mkdir -p */
static int make_dirs(const char *dir) {
    char path[1024];
    size_t i, n = strlen(dir);
    if (n >= sizeof path) {
        tool_error(dir, "path too long");
        return 0;
    }
    memcpy(path, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            tool_error(path, "cannot create: %s", strerror(errno));
            return 0;
        }
        path[i] = i < n ? '/' : '\0';
    }
    return 1;
}

/* The built-in sample files, for trying the tool's other commands. */
static int write_sample(const char *dir, const char *name, size_t (*build)(unsigned char **)) {
    unsigned char *bytes;
    size_t n = build(&bytes);
    char path[1024];
    int ok;
    if (!n) {
        tool_error("demo", "could not build %s", name);
        return 0;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ok = tool_write_file(path, bytes, n);
    if (ok) printf("wrote %s (%zu bytes)\n", path, n);
    free(bytes);
    return ok;
}

static int write_samples(const char *dir) {
    char path[1024];
    if (!write_sample(dir, "6B20C4F3_00000000_00F0E1D2C3B4A596.clip", demo_clip)) return 0;
    if (!write_sample(dir, "AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc", demo_gmdc)) return 0;
    /* the body-shaped mesh (sparse elements) in a folder of its own, so
     * DIR/\*.gmdc stays the cylinder */
    snprintf(path, sizeof path, "%s/body", dir);
    if (!make_dirs(path) || !write_sample(path, "AC4F8687_1C0532FA_00F0E1D2C3B4A599.gmdc", demo_body_gmdc)) return 0;
    if (!write_sample(dir, "FB00791E_1C0532FA_00F0E1D2C3B4A598.anim", demo_anim)) return 0;
    if (!write_sample(dir, "02D5DF13_00000000_ECE52D7E1B5E7C09.jazz", demo_jazz)) return 0;
    if (!write_sample(dir, "8EAF13DE_00000000_00F0E1D2C3B4A599.rig", demo_rig_resource)) return 0;
    if (!write_sample(dir, "body.package", demo_skel_package)) return 0;
    snprintf(path, sizeof path, "%s/rig.txt", dir);
    if (!tool_write_file(path, demo_rig, sizeof demo_rig - 1)) return 0;
    printf("wrote %s (the joint names of the cylinder)\n", path);
    return 1;
}

/* A model transform from Y-up to the mesh's Z-up: x stays, Y-up's y is
 * Z-up's z and its z is -y (gltf_y_up_to_z_up), on both sides of the
 * rotation and on the translation; every entry moves or changes sign. */
static plumbob_mat34 model_y_up_to_z_up(const plumbob_mat34 *m) {
    static const int from[3] = {0, 2, 1};
    static const float sign[3] = {1.0f, -1.0f, 1.0f};
    plumbob_mat34 r;
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) r.m[i][j] = sign[i] * sign[j] * m->m[from[i]][from[j]];
        r.m[i][3] = sign[i] * m->m[from[i]][3];
    }
    return r;
}

/* Samples the clip onto the rig, skins the cylinder with it, and prints
 * where the top ring goes and how wide the middle ring swells. */
static int skin_frames(const plumbob_clip *clip, const plumbob_gmdc *g, const tool_rig *rig) {
    static unsigned char bind_mem[1024];
    plumbob_arena arena;
    plumbob_clip_binding binding;
    plumbob_bone_pose rest[3], pose[3];
    plumbob_skeleton sk;
    plumbob_mat34 model_y[3], model[3], palette[3];
    uint32_t morph_hash[8], j, v, f;
    float weights[8], pos[108 * 3];
    if (g->joint_count != 3 || rig->count != 3 || g->morph_count > 8 || g->linkages[0].vertex_count != 108) return 0;
    for (j = 0; j < g->morph_count; j++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)g->morph_names[2 * j + 1].len, g->morph_names[2 * j + 1].ptr);
        morph_hash[j] = (uint32_t)plumbob_fnv64_str(name);
    }
    for (j = 0; j < 3; j++) { /* rest pose: the joints' bind transforms, parent-relative */
        gltf_joint_bind(g, j, &rest[j].rotation, &rest[j].translation);
        rest[j].scale.x = rest[j].scale.y = rest[j].scale.z = 1.0f;
    }
    for (j = 3; j-- > 0;)
        if (rig->parent[j] >= 0)
            gltf_relative(rest[rig->parent[j]].rotation, rest[rig->parent[j]].translation, &rest[j].rotation,
                          &rest[j].translation);
    memset(&sk, 0, sizeof sk);
    sk.bone_count = 3;
    sk.parent = rig->parent;
    sk.rest = rest;
    plumbob_arena_init(&arena, bind_mem, sizeof bind_mem);
    if (plumbob_clip_bind(clip, rig->hash, 3, morph_hash, g->morph_count, &arena, &binding) != PLUMBOB_OK) return 0;
    printf("\nThe clip on the cylinder (rig: b__ROOT__ > b__Spine0__ > b__Spine1__), skinned:\n");
    for (f = 0; f <= 4; f++) {
        float t = plumbob_clip_duration(clip) * (float)f / 4.0f, top[3] = {0, 0, 0}, r2 = 0;
        plumbob_gmdc_skin_job job;
        memcpy(pose, rest, sizeof pose);
        memset(weights, 0, sizeof weights);
        if (plumbob_clip_sample_pose(clip, &binding, NULL, t, pose, weights) != PLUMBOB_OK) return 0;
        /* local (Y-up) -> model (the core's job) -> the mesh's Z-up */
        if (plumbob_skeleton_model(&sk, pose, model_y, (uint32_t)(sizeof model_y / sizeof model_y[0])) != PLUMBOB_OK) return 0;
        for (j = 0; j < 3; j++) model[j] = model_y_up_to_z_up(&model_y[j]);
        plumbob_gmdc_palette(g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0]));
        memset(&job, 0, sizeof job);
        job.work = skin_work;
        job.gmdc = g;
        job.palette = palette;
        job.palette_count = (uint32_t)(sizeof palette / sizeof palette[0]);
        job.morph_weights = weights;
        job.morph_weight_count = (uint32_t)(sizeof weights / sizeof weights[0]);
        job.positions = pos;
        job.position_stride = 3;
        job.position_count = (uint32_t)(sizeof pos / sizeof pos[0] / 3);
        if (plumbob_gmdc_skin(&job) != PLUMBOB_OK) return 0;
        for (v = 96; v < 108; v++) { top[0] += pos[3 * v] / 12; top[1] += pos[3 * v + 1] / 12; top[2] += pos[3 * v + 2] / 12; }
        for (v = 48; v < 60; v++) { /* ring 4, around the middle joint */
            float dx = pos[3 * v] - pos[3 * 54], dy = pos[3 * v + 1] - pos[3 * 54 + 1], dz = pos[3 * v + 2] - pos[3 * 54 + 2];
            if (dx * dx + dy * dy + dz * dz > r2) r2 = dx * dx + dy * dy + dz * dz;
        }
        printf("  t=%.2fs  spine bend %4.1f%%  bulge %.2f  top ring centre (%6.3f, %6.3f, %6.3f)  middle ring width %.3f\n",
               (double)t, (double)(100.0f * (1.0f - pose[1].rotation.w) / (1.0f - 0.70710678f)), (double)weights[1],
               (double)top[0], (double)top[1], (double)top[2], sqrt((double)r2));
    }
    return 1;
}

/* Writes demo.gltf (mesh, skin, rig, animation) and curves.svg. */
static int write_outputs(const char *dir, const tool_input *clip_in, const plumbob_clip *clip, const plumbob_gmdc *g,
                         const tool_rig *rig) {
    char path[1024];
    gltf_export_src src;
    memset(&src, 0, sizeof src);
    src.mesh = g;
    src.rig = rig;
    src.clip = clip;
    printf("\n");
    snprintf(path, sizeof path, "%s/demo.gltf", dir);
    if (tool_write_gltf(path, &src, NULL) != 0) return 0; /* the demo says what it holds */
    snprintf(path, sizeof path, "%s/curves.svg", dir);
    {
        tool_dict names; /* the built-in names title the panels */
        int rc;
        tool_dict_init(&names);
        rc = clip_plot_svg(clip, clip_in->name, NULL, 0, path, &names);
        tool_dict_free(&names);
        if (rc != 0) return 0;
    }
    printf("\nOpen %s/demo.gltf in a glTF viewer (Blender: File > Import > glTF 2.0, or drag it\n"
           "onto https://gltf-viewer.donmccurdy.com/) and play the animation a_demo_bend_x;\n"
           "open %s/curves.svg in a web browser to see the clip's curves.\n", dir, dir);
    return 1;
}

/* The clip and the mesh: decoded, sampled, skinned, written out. */
static int demo_clip_and_mesh(const char *dir) {
    static unsigned char clip_arena[4096];
    unsigned char *clip_bytes = NULL;
    size_t clip_size = demo_clip(&clip_bytes), need = 0;
    tool_input clip_in, mesh_in;
    plumbob_clip c;
    plumbob_arena ca;
    plumbob_gmdc g;
    unsigned char *mesh_mem = NULL;
    tool_rig rig;
    int ok = 0;
    uint32_t i;
    memset(&clip_in, 0, sizeof clip_in);
    memset(&mesh_in, 0, sizeof mesh_in);
    memset(&rig, 0, sizeof rig);
    snprintf(clip_in.name, sizeof clip_in.name, "a_demo_bend_x (the demo clip)");
    snprintf(mesh_in.name, sizeof mesh_in.name, "the demo cylinder");
    mesh_in.size = demo_gmdc(&mesh_in.data);
    plumbob_arena_init(&ca, clip_arena, sizeof clip_arena);
    if (!clip_size || plumbob_clip_measure(clip_bytes, clip_size, &need) != PLUMBOB_OK || need > sizeof clip_arena ||
        plumbob_clip_decode(clip_bytes, clip_size, &ca, &c) != PLUMBOB_OK || !mesh_in.size ||
        tool_gmdc_decode(&mesh_in, &g, &mesh_mem) != PLUMBOB_OK ||
        !tool_rig_parse(demo_rig, sizeof demo_rig - 1, "demo rig", &rig)) {
        tool_error("demo", "the built-in data does not decode (a bug: please report it)");
        goto done;
    }
    printf("\nA CLIP written by plumbob: %.*s, %zu bytes, %zu arena bytes, %.3f s, %u tracks:\n", (int)c.name.len,
           c.name.ptr, clip_size, need, (double)plumbob_clip_duration(&c), (unsigned)c.track_count);
    for (i = 0; i <= 4; i++) {
        float t = plumbob_clip_duration(&c) * (float)i / 4.0f, v[4], w[4];
        if (plumbob_clip_sample_track(&c, 0, t, v) != PLUMBOB_OK || plumbob_clip_sample_track(&c, 1, t, w) != PLUMBOB_OK) {
            tool_error("demo", "the demo clip has fewer than two tracks (a bug: please report it)");
            goto done;
        }
        printf("  t=%.2fs  spine rotation z=%.4f w=%.4f  root y=%.3f\n", (double)t, (double)v[2], (double)v[3],
               (double)w[1]);
    }
    printf("\nA GMDC written by plumbob: %.*s, %zu bytes: %u vertices, %u triangles, %u joints, morphs",
           (int)g.head.resource_name.len, g.head.resource_name.ptr, mesh_in.size, (unsigned)g.linkages[0].vertex_count,
           (unsigned)(g.groups[0].faces.count / 3), (unsigned)g.joint_count);
    for (i = 0; i < g.morph_count; i++)
        if (g.morph_names[2 * i + 1].len) printf(" %.*s", (int)g.morph_names[2 * i + 1].len, g.morph_names[2 * i + 1].ptr);
    printf("\n");
    if (!skin_frames(&c, &g, &rig)) {
        tool_error("demo", "skinning the built-in data failed (a bug: please report it)");
        goto done;
    }
    printf("\n");
    if (!make_dirs(dir) || !write_samples(dir) || !write_outputs(dir, &clip_in, &c, &g, &rig)) goto done;
    printf("\nTry: build/plumbob clip dump %s/*.clip\n", dir);
    printf("     build/plumbob gmdc export %s/*.gmdc --rig %s/rig.txt -o %s/cylinder.glb\n", dir, dir, dir);
    printf("     build/plumbob jazz run %s/*.jazz --param side=back --enter Enter --request Exit\n", dir);
    ok = 1;
done:
    free(clip_bytes);
    free(mesh_mem);
    tool_free(&mesh_in);
    tool_rig_free(&rig);
    return ok ? 0 : 1;
}

int cmd_demo(int argc, char **argv) {
    static unsigned char arena_mem[4096];
    plumbob_arena arena;
    plumbob_clip_key keys[PLUMBOB_CLIP_MAX_FALLBACKS];
    size_t n = 0, i;
    const char *clip = "t2c_soc_hug_x";
    plumbob_quat a = {0, 0, 0, 1}, b = {0, 0, 0.70710678f, 0.70710678f}, q;
    const char *dir = "build/demo";
    if (argc == 3 && (strcmp(argv[1], "--out") == 0 || strcmp(argv[1], "--write") == 0)) {
        dir = argv[2];
    } else if (argc > 1 && strcmp(argv[1], "--help") != 0) {
        return tool_bad_argument(argc, argv, argc == 2 || argv[1][0] != '-' ? 1 : 3);
    } else if (argc > 1) {
        printf("usage: plumbob demo [--out DIR]\n"
               "  Runs plumbob on built-in data made by its own writers (a skinned, morphing\n"
               "  cylinder and a clip that bends it), prints what it decoded, samples and skins\n"
               "  a few frames, and writes DIR/demo.gltf, DIR/curves.svg and the sample files\n"
               "  (default DIR: build/demo).  Needs no game files.\n"
               "  example: plumbob demo --out /tmp/plumbob-demo\n");
        return 0;
    }
    printf("plumbob %s demo (kernel port: %s)\n\n", PLUMBOB_VERSION_STRING, plumbob_port_name());
    plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
    printf("Arena: %zu bytes of caller memory, nothing from malloc.\n", arena.size);

    printf("\nNames -> hashes (FNV-1, lowercased):\n");
    printf("  bone b__ROOT__      -> 0x%08X\n", plumbob_fnv32_str("b__ROOT__"));
    printf("  bone b__Pelvis__    -> 0x%08X\n", plumbob_fnv32_str("b__Pelvis__"));
    printf("\nClip %s: keys a game tries, in order:\n", clip);
    if (plumbob_clip_fallbacks(clip, strlen(clip), 0, 0, keys, &n) == PLUMBOB_OK)
        for (i = 0; i < n; i++)
            printf("  %zu. instance 0x%016llX group 0x%08X\n", i + 1,
                   (unsigned long long)keys[i].instance, (unsigned)keys[i].group);

    printf("\nRotation 0 -> 90 degrees about Z, shorter-arc nlerp:\n");
    for (i = 0; i <= 4; i++) {
        q = plumbob_quat_nlerp(a, b, (float)i / 4.0f);
        printf("  t=%.2f  q = (%.4f, %.4f, %.4f, %.4f)\n", (double)i / 4.0, (double)q.x,
               (double)q.y, (double)q.z, (double)q.w);
    }
    return demo_clip_and_mesh(dir);
}
