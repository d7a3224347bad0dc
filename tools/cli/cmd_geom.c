/* plumbob geom dump / skin / export / import, and GEOM support for info
 * and check. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/bytes.h"
#include "util/files.h"
#include "util/names.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_geom.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "tool_pairing.h"

/* scratch for skin jobs (PLUMBOB_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_SKIN_WORK_SIZE];

/* tool_geom_decode, saying why on failure; 0 then. */
static int decode(const tool_input *in, plumbob_geom *g, unsigned char **mem) {
    plumbob_result r = tool_geom_decode(in, g, mem);
    if (r != PLUMBOB_OK) tool_error(in->name, "not a valid GEOM: %s", tool_why(in, r));
    return r == PLUMBOB_OK;
}

int geom_info(const tool_input *in, FILE *out) {
    plumbob_geom g;
    unsigned char *mem;
    if (!decode(in, &g, &mem)) return 1;
    fprintf(out, "%s: Sims 3 GEOM, version %u, %u vertices, %u triangles, %u elements, %u bones, %u TGIs, "
                 "material %u bytes, %zu bytes\n",
            in->name, (unsigned)g.version, (unsigned)g.vertex_count, (unsigned)(g.index_count / 3u),
            (unsigned)g.element_count, (unsigned)g.bone_count, (unsigned)g.tgi_count, (unsigned)g.material_size,
            in->size);
    free(mem);
    return 0;
}

plumbob_result geom_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    plumbob_geom g;
    unsigned char *mem;
    plumbob_result r = tool_geom_decode(in, &g, &mem);
    if (r == PLUMBOB_OK) {
        size_t ws = plumbob_geom_write_size(&g);
        *out = (unsigned char *)malloc(ws != SIZE_MAX && ws ? ws : 1);
        r = ws == SIZE_MAX ? PLUMBOB_ERR_INVALID_ARGUMENT : plumbob_geom_write(&g, *out, ws, out_size);
    }
    free(mem);
    return r;
}

/* The element usages by the GEOM page's names. */
static const char *usage_name(uint32_t usage) {
    switch (usage) {
    case PLUMBOB_GEOM_POSITION: return "position";
    case PLUMBOB_GEOM_NORMAL: return "normal";
    case PLUMBOB_GEOM_UV: return "uv";
    case PLUMBOB_GEOM_ASSIGNMENT: return "assignment";
    case PLUMBOB_GEOM_WEIGHTS: return "weights";
    case PLUMBOB_GEOM_TANGENT: return "tangent";
    case PLUMBOB_GEOM_TAG: return "tag";
    case PLUMBOB_GEOM_VERTEX_ID: return "vertex_id";
    }
    return "other";
}

/* The rig bone (file order) of a hash, or -1. */
static int32_t rig_bone(const plumbob_rig *rig, uint32_t hash) {
    uint32_t f;
    for (f = 0; rig && f < rig->bone_count; f++)
        if (rig->bones[f].hash == hash) return (int32_t)f;
    return -1;
}

static void dump_json(FILE *out, const plumbob_geom *g, const plumbob_rig *rig) {
    uint32_t i;
    fprintf(out, "{\"version\": %u, \"embedded_id\": \"0x%08X\", \"material_size\": %u, \"merge_group\": %u, "
                 "\"sort_order\": %u,\n \"vertex_count\": %u, \"vertex_stride\": %u, \"index_size\": %u, "
                 "\"index_count\": %u, \"triangles\": %u, \"skin_controller\": %u,\n \"elements\": [",
            (unsigned)g->version, (unsigned)g->embedded_id, (unsigned)g->material_size, (unsigned)g->merge_group,
            (unsigned)g->sort_order, (unsigned)g->vertex_count, (unsigned)g->vertex_stride, (unsigned)g->index_size,
            (unsigned)g->index_count, (unsigned)(g->index_count / 3u), (unsigned)g->skin_controller);
    for (i = 0; i < g->element_count; i++) {
        const plumbob_geom_element *e = &g->elements[i];
        fprintf(out, "%s\n  {\"usage\": %u, \"name\": \"%s\", \"data_type\": %u, \"size\": %u, \"offset\": %u}",
                i ? "," : "", (unsigned)e->usage, usage_name(e->usage), (unsigned)e->data_type, (unsigned)e->size,
                (unsigned)e->offset);
    }
    fputs("],\n \"bones\": [", out);
    for (i = 0; i < g->bone_count; i++) {
        int32_t b = rig_bone(rig, g->bone_hashes[i]);
        fprintf(out, "%s\n  {\"hash\": \"0x%08X\"", i ? "," : "", (unsigned)g->bone_hashes[i]);
        if (rig) {
            fputs(", \"name\": ", out);
            if (b >= 0) json_string(out, rig->bones[b].name.ptr, rig->bones[b].name.len);
            else fputs("null", out);
            fprintf(out, ", \"bound\": %s", b >= 0 ? "true" : "false");
        }
        fputc('}', out);
    }
    fputs("],\n \"tgis\": [", out);
    for (i = 0; i < g->tgi_count; i++)
        fprintf(out, "%s\n  {\"type\": \"0x%08X\", \"group\": \"0x%08X\", \"instance\": \"0x%016llX\"}", i ? "," : "",
                (unsigned)g->tgis[i].type, (unsigned)g->tgis[i].group, (unsigned long long)g->tgis[i].instance);
    fputs("]}\n", out);
}

static void dump_text(const tool_input *in, const plumbob_geom *g, const plumbob_rig *rig) {
    uint32_t i, unbound = 0;
    geom_info(in, stdout);
    printf("  merge group %u, sort order %u, embedded 0x%08X, vertex stride %u, %u-byte indices (%u), skin "
           "controller TGI %u\n",
           (unsigned)g->merge_group, (unsigned)g->sort_order, (unsigned)g->embedded_id, (unsigned)g->vertex_stride,
           (unsigned)g->index_size, (unsigned)g->index_count, (unsigned)g->skin_controller);
    for (i = 0; i < g->element_count; i++) {
        const plumbob_geom_element *e = &g->elements[i];
        printf("  element %2u %-10s usage %u, type %u, %u bytes at offset %u\n", (unsigned)i, usage_name(e->usage),
               (unsigned)e->usage, (unsigned)e->data_type, (unsigned)e->size, (unsigned)e->offset);
    }
    for (i = 0; i < g->bone_count; i++) {
        int32_t b = rig_bone(rig, g->bone_hashes[i]);
        printf("  bone %3u 0x%08X", (unsigned)i, (unsigned)g->bone_hashes[i]);
        if (rig && b >= 0) printf(" %.*s", (int)rig->bones[b].name.len, rig->bones[b].name.ptr);
        else if (rig) printf(" (not in the rig)");
        unbound += rig && b < 0;
        putchar('\n');
    }
    for (i = 0; i < g->tgi_count; i++)
        printf("  tgi %3u %08X:%08X:%016llX\n", (unsigned)i, (unsigned)g->tgis[i].type, (unsigned)g->tgis[i].group,
               (unsigned long long)g->tgis[i].instance);
    if (rig) printf("  %u of %u bones in the rig, %u not\n", (unsigned)(g->bone_count - unbound), (unsigned)g->bone_count,
                    (unsigned)unbound);
}

/* The rest-pose stream of a float3 element, as floats (zero without it). */
static void rest_stream(const plumbob_geom *g, uint32_t usage, float *out) {
    const plumbob_geom_element *e = plumbob_geom_find_element(g, usage, 0);
    uint32_t v, k;
    for (v = 0; v < g->vertex_count; v++)
        for (k = 0; k < 3; k++) out[3 * v + k] = plumbob_geom_float(g, e, v, k);
}

/* Applies --morph MESH=WEIGHT to the rest streams.  0, or the exit status
 * after saying why. */
static int apply_morph(const plumbob_geom *base, const char *arg, float *pos, float *nrm) {
    const char *eq = strrchr(arg, '=');
    char path[4096];
    double w;
    tool_geom m;
    plumbob_result r;
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof path) {
        tool_error(NULL, "--morph needs MORPH=WEIGHT (a morph GEOM and its weight), got '%s'", arg);
        return 2;
    }
    if (!tool_arg_number("--morph weight", eq + 1, -HUGE_VAL, HUGE_VAL, &w)) return 2;
    snprintf(path, sizeof path, "%.*s", (int)(eq - arg), arg);
    if (!tool_geom_load(path, "--morph", &m)) return 1;
    {
        size_t ws = plumbob_geom_morph_work_size(&m.geom);
        void *work = ws != SIZE_MAX ? malloc(ws ? ws : 1) : NULL;
        r = work ? plumbob_geom_morph(base, &m.geom, (float)w, pos, 3, nrm, 3, base->vertex_count, work, ws)
                 : PLUMBOB_ERR_OUT_OF_MEMORY;
        free(work);
    }
    if (r != PLUMBOB_OK)
        tool_error(m.in.name, "cannot apply this morph: %s%s", plumbob_result_str(r),
                   r == PLUMBOB_ERR_INVALID_ARGUMENT ? " (the mesh or the morph has no vertex ids?)" : "");
    tool_geom_free(&m);
    return r == PLUMBOB_OK ? 0 : 1;
}

/* geom skin: the rest streams (morphed), skinned on the rig at its rest
 * pose or posed by a clip; JSON on stdout.  0, 1 or 2. */
static int skin(const char *file, const char *rig_path, const char *clip_path, const char *time_arg,
                const char *const *morphs, int nm) {
    tool_geom tg;
    tool_input rin, cin;
    tool_rig_res tr;
    tool_clip tc;
    const plumbob_geom *g;
    plumbob_geom_binding binding;
    plumbob_skin_mesh mesh;
    plumbob_skin_job job;
    plumbob_arena a;
    plumbob_mat34 *model = NULL, *palette = NULL;
    plumbob_bone_pose *poses = NULL;
    unsigned char *bind_mem = NULL, *pb = NULL, *nb = NULL;
    float *pos = NULL, *nrm = NULL, *out_pos = NULL, *out_nrm = NULL;
    uint32_t n, v, k, bones;
    int rc = 1, i, have_clip = 0, has_nrm;
    size_t need;
    plumbob_result r;
    if (!tool_geom_load(file, NULL, &tg)) return 1;
    if (!tool_geom_rig_load(rig_path, &rin, &tr)) {
        tool_geom_free(&tg);
        return 1;
    }
    g = &tg.geom;
    n = g->vertex_count;
    bones = tr.rig.skeleton.bone_count;
    has_nrm = plumbob_geom_find_element(g, PLUMBOB_GEOM_NORMAL, 0) != NULL;
    if (clip_path) {
        double t = 0.0;
        if (!tool_load_kind(clip_path, PLUMBOB_TYPE_CLIP, "--clip", &cin)) goto done;
        r = tool_clip_decode(&cin, &tc);
        if (r != PLUMBOB_OK) {
            tool_error(cin.name, "not a valid CLIP: %s", tool_why(&cin, r));
            tool_free(&cin);
            goto done;
        }
        have_clip = 1;
        if (time_arg && !tool_arg_time(time_arg, NULL, (double)tc.clip.frame_duration,
                                       (double)plumbob_clip_duration(&tc.clip), &t)) {
            rc = 2;
            goto done;
        }
        {
            uint32_t *hashes = (uint32_t *)calloc(tr.rig.bone_count + 1u, sizeof *hashes);
            char rn[64];
            if (!hashes) goto done;
            for (k = 0; k < tr.rig.bone_count; k++) hashes[k] = tr.rig.bones[k].hash;
            snprintf(rn, sizeof rn, "%.*s", (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
            tool_warn_pairing(&tc.clip, cin.name, hashes, tr.rig.bone_count, rn);
            free(hashes);
        }
        poses = (plumbob_bone_pose *)calloc(bones + 1u, sizeof *poses);
        model = (plumbob_mat34 *)calloc(bones + 1u, sizeof *model);
        if (!poses || !model) goto oom;
        k = (uint32_t)tool_rig_sample(&tc.clip, &tr.rig, (float)t, poses, model, NULL, NULL);
        if (k != 1) {
            tool_error(rin.name, k == 0 ? "cannot bind the clip to this rig" : "the rig's skeleton is refused");
            goto done;
        }
    }
    tool_geom_warn_unbound(tg.in.name, g, &tr.rig);
    pos = (float *)malloc(sizeof(float) * 3u * (n + 1u));
    nrm = (float *)malloc(sizeof(float) * 3u * (n + 1u));
    out_pos = (float *)malloc(sizeof(float) * 3u * (n + 1u));
    out_nrm = (float *)malloc(sizeof(float) * 3u * (n + 1u));
    pb = (unsigned char *)malloc(12u * (n + 1u));
    nb = (unsigned char *)malloc(12u * (n + 1u));
    palette = (plumbob_mat34 *)calloc(g->bone_count + 1u, sizeof *palette);
    need = plumbob_geom_bind_size(g, &tr.rig);
    bind_mem = need != SIZE_MAX ? (unsigned char *)malloc(need ? need : 1) : NULL;
    if (!pos || !nrm || !out_pos || !out_nrm || !pb || !nb || !palette || !bind_mem) goto oom;
    rest_stream(g, PLUMBOB_GEOM_POSITION, pos);
    rest_stream(g, PLUMBOB_GEOM_NORMAL, nrm);
    for (i = 0; i < nm; i++) {
        int m = apply_morph(g, morphs[i], pos, has_nrm ? nrm : NULL);
        if (m) {
            rc = m;
            goto done;
        }
    }
    /* the morphed rest streams, as the little-endian bytes a skin mesh reads */
    for (v = 0; v < 3u * n; v++) {
        tool_put_f32le(pb + 4u * v, pos[v]);
        tool_put_f32le(nb + 4u * v, nrm[v]);
    }
    plumbob_arena_init(&a, bind_mem, need);
    if ((r = plumbob_geom_bind(g, &tr.rig, &a, &binding)) != PLUMBOB_OK ||
        (r = plumbob_geom_palette(&binding, model, model ? bones : 0u, palette, g->bone_count + 1u)) != PLUMBOB_OK ||
        (r = plumbob_geom_skin_mesh(g, has_nrm ? PLUMBOB_GEOM_NORMAL : 0u, &mesh)) != PLUMBOB_OK) {
        tool_error(tg.in.name, "cannot skin this mesh on %s: %s", rin.name, plumbob_result_str(r));
        goto done;
    }
    mesh.positions = pb;
    mesh.position_stride = 12;
    mesh.normals = has_nrm ? nb : NULL;
    mesh.normal_stride = 12;
    memset(&job, 0, sizeof job);
    job.mesh = &mesh;
    job.palette = palette;
    job.palette_count = g->bone_count + 1u;
    job.positions = out_pos;
    job.position_stride = 3;
    job.position_count = n;
    job.normals = out_nrm;
    job.normal_stride = 3;
    job.normal_count = n;
    job.work = skin_work;
    if (n && (r = plumbob_skin(&job)) != PLUMBOB_OK) {
        tool_error(tg.in.name, "skinning failed: %s", plumbob_result_str(r));
        goto done;
    }
    printf("{\"positions\": [");
    for (v = 0; v < n; v++) {
        if (v) printf(", ");
        json_floats(stdout, out_pos + 3 * v, 3);
    }
    printf("],\n \"normals\": [");
    for (v = 0; has_nrm && v < n; v++) {
        if (v) printf(", ");
        json_floats(stdout, out_nrm + 3 * v, 3);
    }
    printf("]}\n");
    rc = 0;
    goto done;
oom:
    tool_error(tg.in.name, "out of memory");
done:
    free(model); free(palette); free(poses); free(bind_mem); free(pb); free(nb);
    free(pos); free(nrm); free(out_pos); free(out_nrm);
    if (have_clip) {
        tool_clip_free(&tc);
        tool_free(&cin);
    }
    tool_rig_res_free(&tr);
    tool_free(&rin);
    tool_geom_free(&tg);
    return rc;
}

/* geom export: the meshes on the rig, with --clip as the animation. */
static int export(const char *const *files, int nf, const char *rig_path, const char *clip_path, const char *out_path) {
    tool_input cin;
    tool_clip tc;
    tool_dict names;
    plumbob_result r;
    int rc;
    if (!clip_path) return tool_geom_export(files, nf, rig_path, NULL, NULL, NULL, out_path);
    if (!tool_load_kind(clip_path, PLUMBOB_TYPE_CLIP, "--clip", &cin)) return 1;
    r = tool_clip_decode(&cin, &tc);
    if (r != PLUMBOB_OK) {
        tool_error(cin.name, "not a valid CLIP: %s", tool_why(&cin, r));
        tool_free(&cin);
        return 1;
    }
    tool_dict_init(&names);
    if (cin.package_data) tool_dict_add_package(&names, cin.package_data, cin.package_size);
    rc = tool_geom_export(files, nf, rig_path, &tc.clip, cin.name, &names, out_path);
    tool_dict_free(&names);
    tool_clip_free(&tc);
    tool_free(&cin);
    return rc;
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob geom dump MESH [--rig RIG] [--json]\n"
               "       plumbob geom skin MESH --rig RIG [--clip CLIP [--time SECONDS]] [--morph MORPH=WEIGHT ...] --json\n"
               "       plumbob geom export MESH... --rig RIG [--clip CLIP] -o OUT.glb|OUT.gltf\n"
               "       plumbob geom import IN.glb|IN.gltf -o OUT.simgeom --rig RIG [--like MESH]\n"
               "  MESH: a Sims 3 GEOM (type 0x015A1849: FILE.simgeom or PACKAGE@INSTANCE), one LOD of a\n"
               "  body, clothing or hair part; RIG: a Sims 3 rig resource (auRig, ...); CLIP: a Sims 3 CLIP.\n"
               "  dump: version, elements (usage, type, size, offset), vertex and index counts,\n"
               "        bone hashes (with --rig their names; hashes the rig lacks are flagged), TGIs,\n"
               "        the material block's size.\n"
               "  skin: the vertices in file order skinned on the rig at its rest pose, or posed by\n"
               "        CLIP at SECONDS (0 without --time): {\"positions\": [[x,y,z],...], \"normals\": [...]}.\n"
               "        --morph applies a morph GEOM (matched by vertex id) at WEIGHT to the rest\n"
               "        pose first.  Bone hashes the rig lacks keep their vertices' rest place (a warning).\n"
               "  export: each mesh a skinned glTF mesh (normals, tangents, UVs, joints and weights)\n"
               "        on the rig's skeleton (bone names, hierarchy, rest pose); --clip adds the\n"
               "        clip as the animation (as clip export --rig RIG --geom MESH does).\n"
               "  import: a skinned glTF mesh back to a GEOM: positions, normals, UVs, tangents,\n"
               "        weights to the rig's bone hashes by joint name (4 at most, renormalized);\n"
               "        --like MESH carries the elements, material, TGIs, merge group and sort order\n"
               "        (and vertex ids when the vertex counts match) from the original.\n"
               "  example: plumbob geom dump afTopBlouseOffShoulder_lod1.simgeom --rig auRig.rig\n"
               "  example: plumbob geom skin body.simgeom --rig auRig.rig --clip walk.clip --time 0.5 --json\n"
               "  example: plumbob geom export body.simgeom --rig auRig.rig --clip walk.clip -o body.glb\n");
    return rc;
}

int cmd_geom(int argc, char **argv) {
    const char *rig_path = NULL, *clip_path = NULL, *time_arg = NULL, *out_path = NULL, *sub;
    const char **files = (const char **)calloc((size_t)argc + 1u, sizeof *files);
    const char **morphs = (const char **)calloc((size_t)argc + 1u, sizeof *morphs);
    int json = 0, i, nf = 0, nm = 0, rc = 0, is_dump, is_skin, is_export;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        free(files); free(morphs);
        return usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    }
    sub = argv[1];
    if (strcmp(sub, "import") == 0) {
        free(files); free(morphs);
        return import_geom(argc, argv);
    }
    is_dump = strcmp(sub, "dump") == 0;
    is_skin = strcmp(sub, "skin") == 0;
    is_export = strcmp(sub, "export") == 0;
    if (!is_dump && !is_skin && !is_export) {
        tool_error("geom", "unknown subcommand '%s'", sub);
        free(files); free(morphs);
        return usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) { free(files); free(morphs); return usage(stdout, 0); }
        else if (strcmp(argv[i], "--json") == 0 && !is_export) json = 1;
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && !rig_path) rig_path = argv[++i];
        else if (strcmp(argv[i], "--clip") == 0 && i + 1 < argc && !is_dump && !clip_path) clip_path = argv[++i];
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && is_skin && !time_arg) time_arg = argv[++i];
        else if (strcmp(argv[i], "--morph") == 0 && i + 1 < argc && is_skin) morphs[nm++] = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && is_export && !out_path) out_path = argv[++i];
        else if (argv[i][0] != '-' && (is_export || nf == 0)) files[nf++] = argv[i];
        else {
            free(files); free(morphs);
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!nf) {
        tool_error(NULL, "which mesh? (MESH comes after the subcommand; see plumbob geom --help)");
        rc = 2;
    } else if ((is_skin || is_export) && !rig_path) {
        tool_error(NULL, "--rig RIG is required (the Sims 3 rig the mesh skins on)");
        rc = 2;
    } else if (is_skin && !json) {
        tool_error(NULL, "skin writes JSON: give --json");
        rc = 2;
    } else if (time_arg && !clip_path) {
        tool_error(NULL, "--time needs --clip");
        rc = 2;
    } else if (is_export && !out_path) {
        tool_error(NULL, "-o OUT.glb or OUT.gltf is required");
        rc = 2;
    } else if (is_export && !tool_arg_extension(out_path, ".glb", ".gltf", NULL)) {
        rc = 2;
    }
    if (rc) {
        free(files); free(morphs);
        return rc;
    }
    if (is_skin) {
        rc = skin(files[0], rig_path, clip_path, time_arg, morphs, nm);
    } else if (is_export) {
        rc = export(files, nf, rig_path, clip_path, out_path);
    } else {
        tool_geom tg;
        tool_input rin;
        tool_rig_res tr;
        int have_rig = 0;
        if (rig_path) {
            if (!tool_geom_rig_load(rig_path, &rin, &tr)) { free(files); free(morphs); return 1; }
            have_rig = 1;
        }
        if (tool_geom_load(files[0], NULL, &tg)) {
            if (json) dump_json(stdout, &tg.geom, have_rig ? &tr.rig : NULL);
            else dump_text(&tg.in, &tg.geom, have_rig ? &tr.rig : NULL);
            tool_geom_free(&tg);
        } else {
            rc = 1;
        }
        if (have_rig) {
            tool_rig_res_free(&tr);
            tool_free(&rin);
        }
    }
    free(files); free(morphs);
    return rc;
}
