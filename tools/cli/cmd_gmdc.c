/* plumbob gmdc dump / skin / export, and GMDC support for info and check. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/rig.h"
#include "commands.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_batch.h"
#include "tool_cres.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "tool_package.h"
#include "gltf/gltf_export.h"
#include "gltf/gltf_import.h"
#include "util/pose_json.h"
#include "util/bytes.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

/* decode_quiet, saying why on failure; returns 0 then. */
static int decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem) {
    plumbob_result r = tool_gmdc_decode(in, g, mem);
    if (r != PLUMBOB_OK)
        tool_error(in->name, "not a valid GMDC: %s", in->why_text[0] ? in->why_text : plumbob_result_str(r));
    return r == PLUMBOB_OK;
}

int gmdc_info(const tool_input *in, FILE *out) {
    plumbob_gmdc g;
    unsigned char *mem;
    uint32_t i, faces = 0, verts = 0;
    if (!decode(in, &g, &mem)) return 1;
    for (i = 0; i < g.group_count; i++) faces += g.groups[i].faces.count / 3u;
    for (i = 0; i < g.linkage_count; i++) verts += g.linkages[i].vertex_count;
    fprintf(out, "%s: Sims 2 GMDC %.*s, version %u, %u groups, %u vertices, %u triangles, %u joints, %u morphs, %zu bytes\n",
            in->name, (int)g.head.resource_name.len, g.head.resource_name.ptr, (unsigned)g.version,
            (unsigned)g.group_count, (unsigned)verts, (unsigned)faces, (unsigned)g.joint_count,
            (unsigned)g.morph_count, in->size);
    free(mem);
    return 0;
}

plumbob_result gmdc_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    plumbob_gmdc g;
    unsigned char *mem;
    plumbob_result r = tool_gmdc_decode(in, &g, &mem);
    if (r == PLUMBOB_OK) {
        size_t ws = plumbob_gmdc_write_size(&g);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_gmdc_write(&g, *out, ws, out_size);
    }
    free(mem);
    return r;
}

/* Every identity the GMDC page lists, by the page's names. */
static const char *identity_name(uint32_t id) {
    switch (id) {
    case PLUMBOB_GMDC_BLEND_INDICES: return "blend_indices";
    case PLUMBOB_GMDC_BLEND_WEIGHTS: return "blend_weights";
    case PLUMBOB_GMDC_TARGET_INDICES: return "target_indices";
    case PLUMBOB_GMDC_MORPH_NORMAL_DELTAS: return "morph_normal_deltas";
    case PLUMBOB_GMDC_COLOUR: return "colour";
    case PLUMBOB_GMDC_COLOUR_DELTAS: return "colour_deltas";
    case PLUMBOB_GMDC_NORMALS: return "normals";
    case PLUMBOB_GMDC_VERTICES: return "vertices";
    case PLUMBOB_GMDC_UVS: return "uvs";
    case PLUMBOB_GMDC_UV_DELTAS: return "uv_deltas";
    case PLUMBOB_GMDC_BINORMALS: return "binormals";
    case PLUMBOB_GMDC_BONE_WEIGHTS: return "bone_weights";
    case PLUMBOB_GMDC_BONE_ASSIGNMENTS: return "bone_assignments";
    case PLUMBOB_GMDC_BUMP_NORMALS: return "bump_normals";
    case PLUMBOB_GMDC_BUMP_NORMAL_DELTAS: return "bump_normal_deltas";
    case PLUMBOB_GMDC_MORPH_VERTEX_DELTAS: return "morph_vertex_deltas";
    case PLUMBOB_GMDC_MORPH_VERTEX_MAP: return "morph_vertex_map";
    case PLUMBOB_GMDC_VERTEX_ID: return "vertex_id";
    case PLUMBOB_GMDC_REGION_MASK: return "region_mask";
    }
    return "other";
}

static void index_list(FILE *out, const plumbob_gmdc *g, const plumbob_gmdc_indices *v) {
    uint32_t i;
    fputc('[', out);
    for (i = 0; i < v->count; i++) fprintf(out, "%s%u", i ? ", " : "", (unsigned)plumbob_gmdc_index(g, v, i));
    fputc(']', out);
}

static void dump_json(FILE *out, const plumbob_gmdc *g) {
    uint32_t i, k;
    fprintf(out, "{\"version\": %u, \"name\": ", (unsigned)g->version);
    json_string(out, g->head.resource_name.ptr, g->head.resource_name.len);
    fputs(",\n \"elements\": [", out);
    for (i = 0; i < g->element_count; i++) {
        const plumbob_gmdc_element *e = &g->elements[i];
        fprintf(out, "%s\n  {\"identity\": \"0x%08X\", \"kind\": \"%s\", \"format\": %u, \"set\": %u, \"group\": %u, \"count\": %u",
                i ? "," : "", (unsigned)e->identity, identity_name(e->identity), (unsigned)e->format,
                (unsigned)e->set, (unsigned)e->group, (unsigned)e->count);
        /* sparse elements: one data item per entry of this list (its vertex) */
        if (e->items.count) {
            fprintf(out, ", \"sparse\": true, \"item_count\": %u, \"items\": ", (unsigned)e->items.count);
            index_list(out, g, &e->items);
        }
        fputc('}', out);
    }
    fputs("],\n \"linkages\": [", out);
    for (i = 0; i < g->linkage_count; i++) {
        const plumbob_gmdc_linkage *l = &g->linkages[i];
        fprintf(out, "%s\n  {\"elements\": ", i ? "," : "");
        index_list(out, g, &l->refs);
        fprintf(out, ", \"vertices\": %u, \"active\": %u, \"aliases\": [", (unsigned)l->vertex_count, (unsigned)l->active_count);
        for (k = 0; k < 3; k++) {
            if (k) fputs(", ", out);
            index_list(out, g, &l->aliases[k]);
        }
        fputs("]}", out);
    }
    fputs("],\n \"groups\": [", out);
    for (i = 0; i < g->group_count; i++) {
        const plumbob_gmdc_group *gr = &g->groups[i];
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        json_string(out, gr->name.ptr, gr->name.len);
        fprintf(out, ", \"link\": %u, \"primitive\": %u, \"faces\": %u, \"opacity\": \"0x%08X\", \"bones\": ",
                (unsigned)gr->link, (unsigned)gr->primitive, (unsigned)(gr->faces.count / 3u), (unsigned)gr->opacity);
        index_list(out, g, &gr->bones);
        fputc('}', out);
    }
    fputs("],\n \"joints\": [", out);
    for (i = 0; i < g->joint_count; i++) {
        plumbob_quat q;
        plumbob_vec3 t;
        plumbob_gmdc_joint(g, i, &q, &t);
        {
            float r[4], tr[3];
            r[0] = q.x; r[1] = q.y; r[2] = q.z; r[3] = q.w;
            tr[0] = t.x; tr[1] = t.y; tr[2] = t.z;
            fprintf(out, "%s\n  {\"rotation\": ", i ? "," : "");
            json_floats(out, r, 4);
            fputs(", \"translation\": ", out);
            json_floats(out, tr, 3);
            fputc('}', out);
        }
    }
    fputs("],\n \"morphs\": [", out);
    for (i = 0; i < g->morph_count; i++) {
        fputs(i ? ", [" : "[", out);
        json_string(out, g->morph_names[2 * i].ptr, g->morph_names[2 * i].len);
        fputs(", ", out);
        json_string(out, g->morph_names[2 * i + 1].ptr, g->morph_names[2 * i + 1].len);
        fputc(']', out);
    }
    {
        uint32_t sv = 0, sf = 0;
        for (i = 0; i < g->subset_count; i++) {
            sv += g->subsets[i].vertex_count;
            sf += g->subsets[i].faces.count / 3u;
        }
        fprintf(out, "],\n \"bounding_vertices\": %u, \"bounding_triangles\": %u, \"subsets\": %u, \"subset_vertices\": %u, "
                     "\"subset_triangles\": %u}\n",
                (unsigned)g->bounding.vertex_count, (unsigned)(g->bounding.faces.count / 3u), (unsigned)g->subset_count,
                (unsigned)sv, (unsigned)sf);
    }
}

/* Reads POSE.json (tools/util/pose_json.c) into model transforms. */
static int read_pose(const char *path, uint32_t joints, plumbob_mat34 *model) {
    unsigned char *text;
    size_t size;
    int ok;
    if (!tool_read_file(path, &text, &size)) return 0;
    ok = tool_pose_parse((const char *)text, size, path, joints, model);
    free(text);
    return ok;
}

/* Sets weights[pair] from NAME=WEIGHT (NAME: second name of a pair, or #N).
 * 0, or the exit status after printing why: 2 for a malformed argument, 1
 * for a morph the mesh does not have. */
static int parse_morph(const plumbob_gmdc *g, const char *arg, float *weights) {
    const char *eq = strrchr(arg, '=');
    uint32_t i;
    char *end;
    float w;
    double wd;
    if (!eq) {
        tool_error(NULL, "--morph needs NAME=WEIGHT, got '%s'", arg);
        return 2;
    }
    if (!tool_arg_number("--morph weight", eq + 1, -HUGE_VAL, HUGE_VAL, &wd)) return 2;
    w = (float)wd;
    if (arg[0] == '#') {
        unsigned long n = strtoul(arg + 1, &end, 10);
        if (end != eq || n >= g->morph_count) {
            tool_error(NULL, "no morph pair %.*s (the mesh has %u)", (int)(eq - arg), arg, (unsigned)g->morph_count);
            return 1;
        }
        weights[n] = w;
        return 0;
    }
    for (i = 0; i < g->morph_count; i++) {
        const plumbob_string *s = &g->morph_names[2 * i + 1];
        if (s->len == (size_t)(eq - arg) && memcmp(s->ptr, arg, s->len) == 0) {
            weights[i] = w;
            return 0;
        }
    }
    tool_error(NULL, "no morph named '%.*s' (gmdc dump lists them)", (int)(eq - arg), arg);
    return 1;
}

/* Skins every group into malloc'd arrays (positions[g], normals[g]) with
 * the palette (joint_count + 1 matrices); weights, when given, holds the
 * mesh's morph_count. */
static int skin_all(const char *where, const plumbob_gmdc *g, const plumbob_mat34 *palette, const float *weights,
                    float **pos, float **nrm) {
    uint32_t i;
    int ok = 1;
    for (i = 0; i < g->group_count; i++) {
        uint32_t n = g->linkages[g->groups[i].link].vertex_count;
        plumbob_gmdc_skin_job job;
        plumbob_result r;
        memset(&job, 0, sizeof job);
        job.work = skin_work;
        pos[i] = (float *)malloc(sizeof(float) * 3u * (n + 1u));
        nrm[i] = (float *)malloc(sizeof(float) * 3u * (n + 1u));
        job.gmdc = g;
        job.group = i;
        job.palette = palette;
        job.palette_count = g->joint_count + 1u;
        job.morph_weights = weights;
        job.morph_weight_count = g->morph_count;
        job.positions = pos[i];
        job.position_stride = 3;
        job.position_count = n + 1u;
        job.normals = nrm[i];
        job.normal_stride = 3;
        job.normal_count = n + 1u;
        r = plumbob_gmdc_skin(&job);
        if (r == PLUMBOB_ERR_UNSUPPORTED) {
            tool_error(where, "group %u (%.*s): primitive type %u is not a triangle list (the GMDC page lists "
                       "only 2): unsupported", (unsigned)i, (int)g->groups[i].name.len, g->groups[i].name.ptr,
                       (unsigned)g->groups[i].primitive);
            ok = 0;
        } else if (r != PLUMBOB_OK) {
            tool_error(where, "group %u: %s", (unsigned)i, plumbob_result_str(r));
            ok = 0;
        }
    }
    return ok;
}

/* The skeleton for a mesh: --cres FILE, else the best-fitting CRES of the
 * mesh's own package (only for a mesh with joints).  Returns 0 after
 * printing why when --cres does not load; *have says whether there is one.
 * note: where to say which skeleton was taken (NULL: nowhere). */
static int gmdc_skeleton(const tool_input *mesh_in, const plumbob_gmdc *g, const char *cres_path, tool_cres *tc, int *have,
                  FILE *note) {
    int32_t *map;
    uint32_t mapped;
    *have = 0;
    if (cres_path) {
        if (!tool_cres_load(cres_path, "--cres", tc)) return 0;
        *have = 1;
    } else if (g->joint_count && tool_cres_find(mesh_in, g->joint_count, NULL, tc)) {
        *have = 1;
    }
    if (!*have) return 1;
    map = (int32_t *)malloc(sizeof(int32_t) * (g->joint_count + 1u));
    mapped = plumbob_cres_joint_map(&tc->sk, g->joint_count, map);
    free(map);
    if (note) fprintf(note, "skeleton: %s, %u bones, %u of the mesh's %u joints%s\n", tc->in.name, (unsigned)tc->sk.skeleton.bone_count,
           (unsigned)mapped, (unsigned)g->joint_count, mapped < g->joint_count ? " (the rest are flat joint_N)" : "");
    return 1;
}

/* The skinning palette (joint_count + 1 matrices) from a CRES skeleton
 * posed by an ANIM at --time SECONDS (no ANIM: the rest pose), through the
 * joint map (plumbob_gmdc_palette_mapped: joints no bone claims keep their
 * bind pose).  Returns 0, or the exit status after printing why. */
static int skeleton_pose(const tool_input *mesh_in, const plumbob_gmdc *g, const char *cres_path,
                         const char *anim_path, const char *time_arg, plumbob_mat34 *palette, float *weights) {
    tool_cres tc;
    tool_input ain;
    plumbob_anim a;
    unsigned char *amem = NULL;
    plumbob_bone_pose *poses;
    plumbob_mat34 *model;
    int32_t *map;
    int have = 0, rc = 0;
    float ms = 0.0f;
    memset(&tc, 0, sizeof tc);
    if (anim_path) {
        plumbob_result r;
        if (!tool_load_kind(anim_path, PLUMBOB_TYPE_ANIM, "--anim", &ain)) return 1;
        r = tool_anim_decode(&ain, &a, &amem);
        if (r != PLUMBOB_OK) {
            tool_error(ain.name, "not a valid Sims 2 ANIM: %s", tool_why(&ain, r));
            tool_free(&ain);
            return 1;
        }
        if (time_arg) { /* seconds, as everywhere in the tool; the ANIM counts ms */
            double t;
            if (!tool_arg_time(time_arg, NULL, 0.001, (double)a.duration / 1000.0, &t)) {
                free(amem);
                tool_free(&ain);
                return 2;
            }
            ms = (float)(t * 1000.0);
        }
    }
    if (!gmdc_skeleton(mesh_in, g, cres_path, &tc, &have, stderr)) rc = 1;
    else if (!have && anim_path && tool_cres_find(&ain, 0, &a, &tc)) have = 1; /* the ANIM's own package */
    if (rc == 0 && !have) {
        tool_error(NULL, "an ANIM needs the skeleton: give --cres CRES (none found in the mesh's package)");
        rc = 2;
    }
    if (rc == 0) {
        poses = (plumbob_bone_pose *)calloc(tc.sk.skeleton.bone_count + 1u, sizeof *poses);
        model = (plumbob_mat34 *)calloc(tc.sk.skeleton.bone_count + 1u, sizeof *model);
        map = (int32_t *)calloc(g->joint_count + 1u, sizeof *map);
        if (anim_path) { /* the core's binding and sampler: the channel rules live there */
            plumbob_anim_binding bind;
            plumbob_anim_sampler smp;
            plumbob_arena arena;
            size_t need = plumbob_anim_bind_size(&a) + PLUMBOB_ANIM_SAMPLER_SIZE(a.channel_count, a.component_count);
            unsigned char *mem = (unsigned char *)malloc(need);
            plumbob_arena_init(&arena, mem, mem ? need : 0);
            if (plumbob_anim_bind(&a, &tc.sk, g, &arena, &bind) != PLUMBOB_OK ||
                plumbob_anim_sampler_init(&bind, &arena, &smp) != PLUMBOB_OK ||
                plumbob_anim_sampler_sample(&smp, ms, poses, tc.sk.skeleton.bone_count + 1u, weights,
                                            g->morph_count) != PLUMBOB_OK) {
                tool_error(ain.name, "out of memory");
                rc = 1;
            } else {
                fprintf(stderr, "pose: %s at %g s: %u of its %u channels drive bones, %u drive morphs\n", ain.name,
                        (double)ms / 1000.0, (unsigned)bind.bone_channel_count, (unsigned)a.channel_count,
                        (unsigned)bind.morph_channel_count);
            }
            free(mem);
        } else {
            plumbob_skeleton_rest_pose(&tc.sk.skeleton, 0, tc.sk.skeleton.bone_count, poses, tc.sk.skeleton.bone_count + 1u);
        }
        plumbob_skeleton_model(&tc.sk.skeleton, poses, model, tc.sk.skeleton.bone_count + 1u);
        plumbob_cres_joint_map(&tc.sk, g->joint_count, map);
        if (plumbob_gmdc_palette_mapped(g, model, tc.sk.skeleton.bone_count + 1u, map, g->joint_count, palette,
                                        g->joint_count + 1u) != PLUMBOB_OK) {
            tool_error(tc.in.name, "the skeleton's joint map is refused");
            rc = 1;
        }
        free(poses);
        free(model);
        free(map);
    }
    if (have) tool_cres_free(&tc);
    if (anim_path) {
        free(amem);
        tool_free(&ain);
    }
    return rc;
}

/* gmdc export to .gltf/.glb: the rest pose, skin and morph targets. */
static int export_gltf(const char *file, const char *rig_path, const char *cres_path, const char *out_path) {
    tool_input in;
    plumbob_gmdc g;
    unsigned char *mem;
    tool_rig rig;
    tool_cres tc;
    gltf_export_src src;
    int rc, have_cres = 0;
    memset(&src, 0, sizeof src);
    memset(&rig, 0, sizeof rig);
    memset(&tc, 0, sizeof tc);
    if (rig_path && !tool_rig_list_load(rig_path, "--rig", &rig)) return 1;
    if (!tool_load_kind(file, PLUMBOB_TYPE_GMDC, NULL, &in)) { tool_rig_free(&rig); return 1; }
    if (!decode(&in, &g, &mem)) { tool_free(&in); tool_rig_free(&rig); return 1; }
    if (!tool_gmdc_drawable(&g, in.name)) {
        free(mem);
        tool_free(&in);
        tool_rig_free(&rig);
        return 1;
    }
    if (!rig_path && !gmdc_skeleton(&in, &g, cres_path, &tc, &have_cres, tool_quiet() ? NULL : stdout)) {
        free(mem);
        tool_free(&in);
        return 1;
    }
    src.mesh = &g;
    src.rig = rig_path ? &rig : NULL;
    src.skeleton = have_cres ? &tc.sk : NULL;
    if (rig_path && rig.count < g.joint_count)
        tool_warning(rig_path, "names %u of the mesh's %u joints; the rest are joint_N", (unsigned)rig.count,
                     (unsigned)g.joint_count);
    rc = tool_write_gltf(out_path, &src, NULL);
    free(mem);
    tool_free(&in);
    tool_rig_free(&rig);
    if (have_cres) tool_cres_free(&tc);
    return rc;
}

/* gmdc export --all: each mesh with the same --rig / --cres. */
typedef struct gmdc_batch {
    const char *rig_path, *cres_path;
} gmdc_batch;

static int export_one(const char *input, const char *out_path, void *ctx) {
    const gmdc_batch *b = (const gmdc_batch *)ctx;
    return export_gltf(input, b->rig_path, b->cres_path, out_path);
}

static int gmdc_usage(FILE *f, int rc);
static int gmdc_usage_for_import(FILE *f) { return gmdc_usage(f, 0); }

/* The CRES name for a mesh named NAME: NAME_tslocator_gmdc -> NAME_cres. */
static void cres_name_for(const char *gmdc_name, char *out, size_t cap) {
    const char *suffix = "_tslocator_gmdc";
    size_t n = strlen(gmdc_name), sn = strlen(suffix);
    if (n > sn && strcmp(gmdc_name + n - sn, suffix) == 0) n -= sn;
    snprintf(out, cap, "%.*s_cres", (int)n, gmdc_name);
}

/* gmdc import: a glTF's meshes as one GMDC, its joints in the order of a
 * game skeleton (--cres) or written as a CRES of their own (--write-cres).
 * Both resources are built before either file is written, and a CRES that
 * cannot be written takes the GMDC written before it away again. */
static int import_gmdc(int argc, char **argv) {
    const char *in_path = NULL, *out_path = NULL, *name = NULL, *cres_path = NULL, *match_path = NULL, *package = NULL;
    tool_input in;
    gltf_doc doc;
    gmdc_import gi;
    cres_import ci;
    tool_cres tc;
    gmdc_import_joints jm;
    char why[300], cres_name[300];
    unsigned char *bytes = NULL, *cbytes = NULL;
    size_t need, got, cneed, cgot = 0;
    int i, rc = 1, have_cres = 0, have_match = 0;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) return gmdc_usage_for_import(stdout);
        else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--name") == 0 || strcmp(argv[i], "--write-cres") == 0 ||
             strcmp(argv[i], "--cres") == 0 || strcmp(argv[i], "--package") == 0) &&
                 i + 1 >= argc) {
            tool_error(NULL, "%s needs a value", argv[i]);
            return 2;
        } else if (strcmp(argv[i], "-o") == 0) out_path = argv[++i];
        else if (strcmp(argv[i], "--name") == 0) name = argv[++i];
        else if (strcmp(argv[i], "--write-cres") == 0) cres_path = argv[++i];
        else if (strcmp(argv[i], "--cres") == 0) match_path = argv[++i];
        else if (strcmp(argv[i], "--package") == 0) package = argv[++i];
        else if (argv[i][0] != '-' && !in_path) in_path = argv[i];
        else return tool_bad_argument(argc, argv, i);
    }
    if (cres_path && match_path) {
        tool_error(NULL, "give --cres (the game's skeleton) or --write-cres (a new one), not both");
        return 2;
    }
    if (cres_path && out_path && strcmp(cres_path, out_path) == 0) {
        tool_error(NULL, "--write-cres and -o name the same file");
        return 2;
    }
    if ((rc = tool_load_gltf(in_path, out_path, package, ".gmdc", &in, &doc)) != 0) return rc;
    rc = 1;
    if (match_path) {
        memset(&tc, 0, sizeof tc);
        if (!tool_cres_load(match_path, "--cres", &tc)) {
            gltf_doc_free(&doc);
            tool_free(&in);
            return 1;
        }
        if (!gltf_match_cres(&doc, &tc.sk, &jm, why, sizeof why)) {
            tool_error(in.name, "--cres %s: %s", tc.in.name, why);
            tool_cres_free(&tc);
            gltf_doc_free(&doc);
            tool_free(&in);
            return 1;
        }
        have_match = 1;
    }
    if (!gltf_import_gmdc(&doc, name, have_match ? &jm : NULL, &gi, why, sizeof why)) {
        tool_error(in.name, "%s", why);
        if (have_match) {
            gmdc_import_joints_free(&jm);
            tool_cres_free(&tc);
        }
        gltf_doc_free(&doc);
        tool_free(&in);
        return 1;
    }
    if (cres_path) {
        cres_name_for(gi.name, cres_name, sizeof cres_name);
        if (!gltf_import_cres(&doc, cres_name, &ci, why, sizeof why)) {
            tool_error(in.name, "--write-cres: %s", why);
            goto done;
        }
        have_cres = 1;
        cneed = plumbob_cres_write_size(&ci.cres);
        cbytes = cneed != SIZE_MAX ? (unsigned char *)malloc(cneed) : NULL;
        if (!cbytes || plumbob_cres_write(&ci.cres, cbytes, cneed, &cgot) != PLUMBOB_OK) {
            tool_error(cres_path, "cannot build the CRES");
            goto done;
        }
    }
    need = plumbob_gmdc_write_size(&gi.gmdc);
    bytes = need != SIZE_MAX ? (unsigned char *)malloc(need) : NULL;
    if (!bytes || plumbob_gmdc_write(&gi.gmdc, bytes, need, &got) != PLUMBOB_OK) {
        tool_error(out_path, "cannot build the GMDC");
    } else {
        if (package) { /* first: the step a wrong or unreadable package stops */
            tool_put items[2];
            memset(items, 0, sizeof items);
            items[0].type = PLUMBOB_TYPE_GMDC;
            items[0].group = PLUMBOB_SIMS2_LOCAL_GROUP;
            items[0].instance = plumbob_sims2_instance(gi.name, strlen(gi.name));
            items[0].data = bytes;
            items[0].size = got;
            items[1].type = PLUMBOB_TYPE_CRES;
            items[1].group = PLUMBOB_SIMS2_LOCAL_GROUP;
            items[1].instance = plumbob_sims2_instance(ci.name, strlen(ci.name));
            items[1].data = cbytes;
            items[1].size = cgot;
            if (tool_package_put_all(package, 1, items, cres_path ? 2u : 1u) != 0) goto done;
        }
        if (out_path && !tool_write_file(out_path, bytes, got)) goto done;
        if (cres_path && !tool_write_file(cres_path, cbytes, cgot)) {
            if (out_path) remove(out_path); /* both or neither */
            goto done;
        }
        printf("%s %s (%zu bytes): %u groups, %u vertices, %u triangles, %u joints, %u morphs\n",
               out_path ? "wrote" : "GMDC", out_path ? out_path : gi.name, got,
               (unsigned)gi.gmdc.group_count, (unsigned)gi.vertices, (unsigned)gi.triangles, (unsigned)gi.gmdc.joint_count,
               (unsigned)(gi.gmdc.morph_count - 1u));
        if (have_match)
            printf("joints: the skin's %u matched by name to %s, a table of %u\n", (unsigned)jm.skin_count, tc.in.name,
                   (unsigned)jm.table_count);
        if (cres_path)
            printf("wrote %s (%zu bytes): skeleton %s, %u bones, %u of them joints\n", cres_path, cgot, ci.name,
                   (unsigned)ci.bones, (unsigned)ci.joints);
        if (gi.skipped)
            tool_warning(in.name, "%u primitive%s not carried (a GMDC holds triangle lists): %s%s", (unsigned)gi.skipped,
                         gi.skipped == 1 ? "" : "s", gi.skipped_names, gi.skipped > 3 ? ", ..." : "");
        if (gi.dropped_influences)
            tool_warning(in.name, "%u vertices had more than 4 influences: the lightest dropped, the rest weighed to sum 1",
                         (unsigned)gi.dropped_influences);
        if (gi.scaled_binds)
            tool_warn_scaled_binds(in.name, gi.scaled_binds, "the joints keep their rotation, the scale is not carried "
                                   "(a GMDC joint has none), so the mesh skins misplaced");
        if (gi.unweighted)
            tool_warning(in.name, "%u skinned vertices have no weight above 0: written with no bone assigned (they skin to "
                         "the origin)", (unsigned)gi.unweighted);
        if (gi.dropped_targets)
            tool_warning(in.name, "%u morph target%s past the fourth of a primitive not carried (a vertex map holds four)",
                         (unsigned)gi.dropped_targets, gi.dropped_targets == 1 ? "" : "s");
        if (gi.bounding_too_big)
            tool_warning(in.name, "%u bounding mesh%s left empty: more than 65535 positions (16-bit faces)",
                         (unsigned)gi.bounding_too_big, gi.bounding_too_big == 1 ? "" : "es");
        if (have_cres && ci.scaled)
            tool_warning(in.name, "%u bone%s of the skeleton had a scale other than 1, not carried (a CRES bone has none)",
                         (unsigned)ci.scaled, ci.scaled == 1 ? "" : "s");
        rc = 0;
    }
done:
    free(bytes);
    free(cbytes);
    if (have_cres) cres_import_free(&ci);
    if (have_match) {
        gmdc_import_joints_free(&jm);
        tool_cres_free(&tc);
    }
    gmdc_import_free(&gi);
    gltf_doc_free(&doc);
    tool_free(&in);
    return rc;
}

static int gmdc_usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob gmdc dump FILE [--json]\n"
               "       plumbob gmdc skin FILE [--pose POSE.json] [--morph NAME=WEIGHT ...] --json\n"
               "       plumbob gmdc export FILE -o OUT.obj [--pose POSE.json] [--morph NAME=WEIGHT ...]\n"
               "       plumbob gmdc skin FILE [--cres CRES] [--anim ANIM --time SECONDS] [--morph ...] --json\n"
               "       plumbob gmdc export FILE -o OUT.gltf|OUT.glb [--rig RIG.txt | --cres CRES]\n"
               "       plumbob gmdc export --all FILE... -o DIR [--gltf] [--rig RIG.txt | --cres CRES]\n"
               "       plumbob gmdc import IN.glb|IN.gltf -o OUT.gmdc|--package PKG [--name NAME] [--cres CRES | --write-cres OUT.cres]\n"
               "  import: every triangle primitive a group (Y-up back to Z-up), the first skin's\n"
               "  joints the joint table, JOINTS_0/WEIGHTS_0 the bone lists and weights (4 at\n"
               "  most), up to 4 morph targets a primitive named from mesh.extras.targetNames.\n"
               "  --cres: the joints matched by name to the game's skeleton, each at the index\n"
               "  of its bone's joint field (as the game will skin the mesh with that CRES).\n"
               "  --write-cres: that skin's skeleton (its joints and their ancestor nodes: names,\n"
               "  hierarchy, rest pose, joint fields) as a CRES named like the mesh (NAME_cres).\n"
               "  --package PKG puts the GMDC (and that CRES) into a Sims 2 package (made if\n"
               "  missing) in the local group 1C0532FA, under the instance its name gives.\n"
               "  --all: every GMDC of every FILE (a package: each mesh in it) to DIR/NAME.glb\n"
               "  (.gltf with --gltf), NAME the mesh's name or instance; a summary at the end.\n"
               "  .obj: the skinned, morphed mesh (Z-up) with UVs (V flipped for OBJ) when the\n"
               "  group has them.  .gltf/.glb: every group as a primitive with\n"
               "  normals, tangents (bump-map normals), UVs, vertex colours, joints and weights,\n"
               "  morph targets (position and normal deltas) named after the morph pairs, a skin\n"
               "  with the inverse bind matrices, converted from Z-up to Y-up.\n"
               "  dump lists every element (sparse ones with their item lists), linkage and group.\n"
               "  Groups must be triangle lists (primitive type 2) to be skinned or exported.\n"
               "  CRES: the model's resource node (FILE or PACKAGE@INSTANCE): joint names, the\n"
               "  hierarchy and the rest pose.  Without --cres or --rig, a mesh with joints that\n"
               "  came from a package uses that package's best-fitting CRES.\n"
               "  RIG.txt: one joint per line, `NAME [PARENT]`, in joint-table order (without a\n"
               "  CRES or a rig: joint_N, flat).\n"
               "  ANIM: a Sims 2 animation, sampled at SECONDS onto the CRES skeleton\n"
               "  (channels name their bones, morph channels their morphs; --morph still wins);\n"
               "  --cres alone skins at the CRES rest pose.\n"
               "  POSE.json: {\"joints\": [{\"rotation\": [x,y,z,w], \"translation\": [x,y,z]}, ...]},\n"
               "  one model-space transform per joint in joint-table order (none: bind pose).\n"
               "  NAME is the second name of a morph pair, or #N for pair N.\n"
               "  FILE is a GMDC resource or PACKAGE@INSTANCE.\n"
               "  example: plumbob gmdc export teapot_model.package@3AFDFD2CFF515126 -o teapot.obj\n"
               "  example: plumbob gmdc export teapot_model.package@3AFDFD2CFF515126 -o teapot.glb\n"
               "  example: plumbob gmdc skin body.package@00F0E1D2C3B4A5A1 --anim body.package@00F0E1D2C3B4A5A2 --time 0.5 --json\n");
    return rc;
}

/* Vertices of a skinned group's triangles with no bone assigned (all four
 * slots 0xFF, or no assignment item): skinning puts them at the origin (a
 * modder's mesh with unassigned vertices), so the tool says how many. */
static uint32_t unboned_vertices(const plumbob_gmdc *g, const plumbob_gmdc_group *gr) {
    const plumbob_gmdc_element *ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
    uint32_t n = g->linkages[gr->link].vertex_count, i, count = 0;
    unsigned char *seen;
    if (!ba || !g->joint_count || gr->primitive != PLUMBOB_GMDC_PRIMITIVE_TRIANGLES) return 0;
    seen = (unsigned char *)calloc((size_t)n + 1u, 1);
    if (!seen) return 0;
    for (i = 0; i < gr->faces.count; i++) {
        uint32_t v = plumbob_gmdc_index(g, &gr->faces, i), it;
        if (v >= n || seen[v]) continue;
        seen[v] = 1;
        it = plumbob_gmdc_item(g, ba, v);
        if (it == PLUMBOB_GMDC_NO_ITEM || tool_le32(ba->data + 4u * (size_t)it) == 0xFFFFFFFFu) count++;
    }
    free(seen);
    return count;
}

int cmd_gmdc(int argc, char **argv) {
    const char *file = NULL, *pose = NULL, *out_path = NULL, *rig_path = NULL, *cres_path = NULL, *anim_path = NULL,
               *time_arg = NULL, *sub;
    const char **morph_args = (const char **)calloc((size_t)argc + 1u, sizeof *morph_args);
    const char **files = (const char **)calloc((size_t)argc + 1u, sizeof *files); /* export --all inputs */
    int json = 0, i, nm = 0, rc = 0, all = 0, gltf_text = 0, nf = 0;
    tool_input in;
    plumbob_gmdc g;
    unsigned char *mem;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        free(morph_args); free(files);
        return gmdc_usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    }
    sub = argv[1];
    if (strcmp(sub, "import") == 0) {
        free(morph_args); free(files);
        return import_gmdc(argc, argv);
    }
    if (strcmp(sub, "dump") != 0 && strcmp(sub, "skin") != 0 && strcmp(sub, "export") != 0) {
        tool_error("gmdc", "unknown subcommand '%s'", sub);
        free(morph_args); free(files);
        return gmdc_usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--pose") == 0 && i + 1 < argc) pose = argv[++i];
        else if (strcmp(argv[i], "--morph") == 0 && i + 1 < argc) morph_args[nm++] = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc) rig_path = argv[++i];
        else if (strcmp(argv[i], "--cres") == 0 && i + 1 < argc) cres_path = argv[++i];
        else if (strcmp(argv[i], "--anim") == 0 && i + 1 < argc) anim_path = argv[++i];
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) time_arg = argv[++i];
        else if (strcmp(argv[i], "--all") == 0 && strcmp(sub, "export") == 0) all = 1;
        else if (strcmp(argv[i], "--gltf") == 0 && strcmp(sub, "export") == 0) gltf_text = 1;
        else if (strcmp(argv[i], "--help") == 0) { free(morph_args); free(files); return gmdc_usage(stdout, 0); }
        else if (argv[i][0] != '-' && strcmp(sub, "export") == 0) { files[nf++] = argv[i]; if (!file) file = argv[i]; }
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            free(morph_args); free(files);
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file || (strcmp(sub, "export") == 0 && !out_path)) {
        tool_error(NULL, strcmp(sub, "export") == 0 && file ? "-o OUT.obj, OUT.gltf or OUT.glb is required"
                                                             : "which mesh? (FILE comes after the subcommand; see plumbob gmdc --help)");
        free(morph_args); free(files);
        return 2;
    }
    if (strcmp(sub, "export") == 0 && (all || nf > 1 || gltf_text)) { /* batch: --all FILE... -o DIR */
        gmdc_batch b;
        const char *why = NULL;
        if (pose || nm || anim_path || time_arg)
            why = "--all exports glTF: --pose, --morph, --anim and --time apply to one .obj";
        else if (rig_path && cres_path)
            why = "give --rig or --cres, not both";
        if (why) {
            tool_error(NULL, "%s", why);
            free(morph_args); free(files);
            return 2;
        }
        b.rig_path = rig_path;
        b.cres_path = cres_path;
        rc = tool_batch_export(PLUMBOB_TYPE_GMDC, "mesh", "meshes", files, nf, all, gltf_text, out_path, export_one, &b);
        free(morph_args); free(files);
        return rc;
    }
    if (strcmp(sub, "export") == 0 && !tool_arg_extension(out_path, ".obj", ".gltf", ".glb")) {
        free(morph_args); free(files);
        return 2;
    }
    if (strcmp(sub, "export") == 0 && out_path && !tool_ends_with(out_path, ".obj")) {
        free(morph_args); free(files);
        if (pose || nm) {
            tool_error("gmdc export", "--pose and --morph apply to .obj; glTF keeps the bind pose and the morph targets");
            return 2;
        }
        if (rig_path && cres_path) {
            tool_error("gmdc export", "give --rig or --cres, not both");
            return 2;
        }
        if (anim_path || time_arg) {
            tool_error("gmdc export", "--anim and --time apply to gmdc skin and .obj; for a glTF animation use anim export");
            return 2;
        }
        return export_gltf(file, rig_path, cres_path, out_path);
    }
    if (rig_path) {
        tool_error("gmdc", "--rig applies to glTF export");
        free(morph_args); free(files);
        return 2;
    }
    if (strcmp(sub, "dump") == 0 && (cres_path || anim_path || time_arg)) {
        tool_error("gmdc", "--cres, --anim and --time apply to skin and export");
        free(morph_args); free(files);
        return 2;
    }
    if ((time_arg && !anim_path) || (anim_path && pose)) {
        tool_error("gmdc", time_arg && !anim_path ? "--time needs --anim" : "give --pose or --anim, not both");
        free(morph_args); free(files);
        return 2;
    }
    if (!tool_load_kind(file, PLUMBOB_TYPE_GMDC, NULL, &in)) { free(morph_args); free(files); return 1; }
    if (!decode(&in, &g, &mem)) { tool_free(&in); free(morph_args); free(files); return 1; }
    if (g.rcol.block_count > 1) /* the GMDC page: "1 (or larger if more than one GMDC)" */
        tool_warning(file, "the RCOL holds %u blocks; only the first (this GMDC) is read, the others are kept as "
                     "bytes when it is written", (unsigned)g.rcol.block_count);
    if (strcmp(sub, "dump") == 0) {
        if (json) {
            dump_json(stdout, &g);
        } else {
            uint32_t k;
            gmdc_info(&in, stdout);
            for (k = 0; k < g.element_count; k++) {
                const plumbob_gmdc_element *e = &g.elements[k];
                printf("  element %2u %-20s format %u set %u group %u count %u", (unsigned)k,
                       identity_name(e->identity), (unsigned)e->format, (unsigned)e->set, (unsigned)e->group,
                       (unsigned)e->count);
                if (e->items.count) {
                    uint32_t j;
                    printf(", sparse: %u items, for vertices", (unsigned)e->items.count);
                    for (j = 0; j < e->items.count && j < 8; j++)
                        printf(" %u", (unsigned)plumbob_gmdc_index(&g, &e->items, j));
                    if (e->items.count > 8) printf(" ...");
                }
                if (identity_name(e->identity)[0] == 'o') printf(" (identity 0x%08X)", (unsigned)e->identity);
                putchar('\n');
            }
            for (k = 0; k < g.group_count; k++) {
                const plumbob_gmdc_group *gr = &g.groups[k];
                uint32_t unboned;
                if (gr->primitive == PLUMBOB_GMDC_PRIMITIVE_TRIANGLES)
                    printf("  group %u %.*s: linkage %u, %u triangles, %u bones\n", (unsigned)k, (int)gr->name.len,
                           gr->name.ptr, (unsigned)gr->link, (unsigned)(gr->faces.count / 3u), (unsigned)gr->bones.count);
                else
                    printf("  group %u %.*s: linkage %u, primitive type %u (not a triangle list), %u indices, %u bones\n",
                           (unsigned)k, (int)gr->name.len, gr->name.ptr, (unsigned)gr->link, (unsigned)gr->primitive,
                           (unsigned)gr->faces.count, (unsigned)gr->bones.count);
                unboned = unboned_vertices(&g, gr);
                if (unboned)
                    printf("    %u vertices of its triangles have no bone assigned (all four slots 0xFF): skinning puts "
                           "them at the origin\n", (unsigned)unboned);
            }
            {
                uint32_t sv = 0, sf = 0, used = 0;
                for (k = 0; k < g.subset_count; k++) {
                    sv += g.subsets[k].vertex_count;
                    sf += g.subsets[k].faces.count / 3u;
                    used += g.subsets[k].vertex_count > 0;
                }
                printf("  bounding mesh: %u vertices, %u triangles; subsets: %u of %u with vertices, %u vertices, %u triangles\n",
                       (unsigned)g.bounding.vertex_count, (unsigned)(g.bounding.faces.count / 3u), (unsigned)used,
                       (unsigned)g.subset_count, (unsigned)sv, (unsigned)sf);
            }
        }
    } else {
        plumbob_mat34 *model = NULL, *palette = (plumbob_mat34 *)calloc(g.joint_count + 1u, sizeof *palette);
        float *weights = (float *)calloc(g.morph_count + 1u, sizeof(float));
        float **pos = (float **)calloc(g.group_count + 1u, sizeof(float *));
        float **nrm = (float **)calloc(g.group_count + 1u, sizeof(float *));
        uint32_t k, v;
        if (pose) { /* joint model transforms as given */
            model = (plumbob_mat34 *)calloc(g.joint_count + 1u, sizeof *model);
            if (!read_pose(pose, g.joint_count, model)) rc = 1;
            else plumbob_gmdc_palette(&g, model, palette, g.joint_count + 1u);
        } else if (anim_path || cres_path) {
            rc = skeleton_pose(&in, &g, cres_path, anim_path, time_arg, palette, weights);
        } else {
            plumbob_gmdc_palette(&g, NULL, palette, g.joint_count + 1u);
        }
        for (i = 0; i < nm && rc == 0; i++)
            rc = parse_morph(&g, morph_args[i], weights);
        if (rc == 0 && !skin_all(in.name, &g, palette, weights, pos, nrm)) rc = 1;
        if (rc == 0 && strcmp(sub, "skin") == 0) {
            printf("{\"groups\": [");
            for (k = 0; k < g.group_count; k++) {
                uint32_t n = g.linkages[g.groups[k].link].vertex_count;
                printf("%s\n {\"name\": ", k ? "," : "");
                json_string(stdout, g.groups[k].name.ptr, g.groups[k].name.len);
                printf(", \"positions\": [");
                for (v = 0; v < n; v++) {
                    if (v) printf(", ");
                    json_floats(stdout, pos[k] + 3 * v, 3);
                }
                printf("],\n  \"normals\": [");
                for (v = 0; v < n; v++) {
                    if (v) printf(", ");
                    json_floats(stdout, nrm[k] + 3 * v, 3);
                }
                printf("]}");
            }
            /* the bounding mesh as the game poses it for picking: the
             * per-joint subsets through the same palette when they hold
             * vertices, else the model-space mesh as it is (a mesh may
             * carry one empty subset per joint beside a model mesh) */
            printf("],\n \"bounding\": [");
            if (plumbob_gmdc_subset_vertex_count(&g)) {
                uint32_t bn = plumbob_gmdc_subset_vertex_count(&g);
                float *bp = (float *)malloc(sizeof(float) * 3u * (bn + 1u));
                if (bp && plumbob_gmdc_skin_subsets(&g, palette, bp, 3, bn + 1u) == PLUMBOB_OK)
                    for (v = 0; v < bn; v++) {
                        if (v) printf(", ");
                        json_floats(stdout, bp + 3 * v, 3);
                    }
                free(bp);
            } else {
                for (v = 0; v < g.bounding.vertex_count; v++) {
                    float b[3];
                    b[0] = tool_f32le(g.bounding.vertices + 12u * v);
                    b[1] = tool_f32le(g.bounding.vertices + 12u * v + 4u);
                    b[2] = tool_f32le(g.bounding.vertices + 12u * v + 8u);
                    if (v) printf(", ");
                    json_floats(stdout, b, 3);
                }
            }
            printf("]}\n");
        } else if (rc == 0) {
            tool_out out;
            FILE *f;
            uint32_t base = 1, vt_base = 1;
            if (!tool_out_open(&out, out_path)) {
                rc = 1;
            } else {
                f = out.f;
                fprintf(f, "# %.*s, written by plumbob %s (Sims 2 Z-up coordinates)\n",
                        (int)g.head.resource_name.len, g.head.resource_name.ptr, PLUMBOB_VERSION_STRING);
                for (k = 0; k < g.group_count; k++) {
                    const plumbob_gmdc_group *gr = &g.groups[k];
                    uint32_t n = g.linkages[gr->link].vertex_count;
                    /* the first UV set (float2), as glTF's TEXCOORD_0 has it but
                     * with V flipped (1 - v): OBJ's origin is the image's
                     * bottom left, Direct3D's and glTF's its top left */
                    const plumbob_gmdc_element *uv = plumbob_gmdc_find_element(&g, gr->link, PLUMBOB_GMDC_UVS, 0);
                    if (uv && uv->format != 1) uv = NULL;
                    fprintf(f, "o %.*s\n", (int)gr->name.len, gr->name.ptr);
                    for (v = 0; v < n; v++)
                        fprintf(f, "v %.9g %.9g %.9g\n", (double)pos[k][3 * v], (double)pos[k][3 * v + 1], (double)pos[k][3 * v + 2]);
                    for (v = 0; v < n; v++)
                        fprintf(f, "vn %.9g %.9g %.9g\n", (double)nrm[k][3 * v], (double)nrm[k][3 * v + 1], (double)nrm[k][3 * v + 2]);
                    for (v = 0; uv && v < n; v++) {
                        uint32_t item = plumbob_gmdc_item(&g, uv, v); /* no item (sparse): UV 0, as in glTF */
                        float tu = item != PLUMBOB_GMDC_NO_ITEM ? plumbob_gmdc_float(uv, item, 0) : 0.0f;
                        float tv = item != PLUMBOB_GMDC_NO_ITEM ? plumbob_gmdc_float(uv, item, 1) : 0.0f;
                        fprintf(f, "vt %.9g %.9g\n", (double)tu, (double)(1.0f - tv));
                    }
                    for (v = 0; v + 2 < gr->faces.count; v += 3) {
                        uint32_t a = plumbob_gmdc_index(&g, &gr->faces, v);
                        uint32_t b = plumbob_gmdc_index(&g, &gr->faces, v + 1);
                        uint32_t c = plumbob_gmdc_index(&g, &gr->faces, v + 2);
                        if (uv)
                            fprintf(f, "f %u/%u/%u %u/%u/%u %u/%u/%u\n", a + base, a + vt_base, a + base, b + base,
                                    b + vt_base, b + base, c + base, c + vt_base, c + base);
                        else
                            fprintf(f, "f %u//%u %u//%u %u//%u\n", a + base, a + base, b + base, b + base, c + base, c + base);
                    }
                    base += n;
                    if (uv) vt_base += n;
                }
                if (tool_out_commit(&out)) printf("wrote %s\n", out_path);
                else rc = 1;
            }
        }
        for (k = 0; k < g.group_count; k++) { free(pos[k]); free(nrm[k]); }
        free(pos); free(nrm); free(weights); free(model); free(palette);
    }
    free(mem);
    tool_free(&in);
    free(morph_args); free(files);
    return rc;
}
