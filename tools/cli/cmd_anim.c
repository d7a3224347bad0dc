/* plumbob anim dump / sample, and Sims 2 ANIM support for info and check. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "plot/plot.h"
#include "util/files.h"
#include "commands.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_batch.h"
#include "tool_cres.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "gltf/gltf_export.h"

static int decode(const tool_input *in, plumbob_anim *a, unsigned char **mem) {
    plumbob_result r = tool_anim_decode(in, a, mem);
    if (r != PLUMBOB_OK) tool_error(in->name, "not a valid Sims 2 ANIM: %s", tool_why(in, r));
    return r == PLUMBOB_OK;
}

int anim_info(const tool_input *in, FILE *out) {
    plumbob_anim a;
    unsigned char *mem;
    if (!decode(in, &a, &mem)) return 1;
    fprintf(out, "%s: Sims 2 ANIM %.*s, %u ms, skeleton %.*s, %u targets, %u channels, %u components, %u events, %zu bytes\n",
            in->name, (int)a.head.resource_name.len, a.head.resource_name.ptr, (unsigned)a.duration,
            (int)a.skeleton.len, a.skeleton.ptr, (unsigned)a.target_count, (unsigned)a.channel_count,
            (unsigned)a.component_count, (unsigned)a.event_count, in->size);
    free(mem);
    return 0;
}

plumbob_result anim_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    plumbob_anim a;
    unsigned char *mem;
    plumbob_result r = tool_anim_decode(in, &a, &mem);
    if (r == PLUMBOB_OK) {
        size_t ws = plumbob_anim_write_size(&a);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_anim_write(&a, *out, ws, out_size);
    }
    free(mem);
    return r;
}

static const char *attribute_name(uint32_t attr) {
    switch (attr) {
    case PLUMBOB_ANIM_ATTR_ROTATION: return "rotation";
    case PLUMBOB_ANIM_ATTR_TRANSLATION: return "translation";
    case PLUMBOB_ANIM_ATTR_MORPH: return "morph";
    }
    return "other";
}

static const char *encoding_name(unsigned packed) {
    static const char *names[4] = {"baked", "continuous", "discontinuous", "invalid"};
    return names[packed & 3u];
}

static void dump_json(FILE *out, const plumbob_anim *a) {
    uint32_t i, c, k;
    fputs("{\"name\": ", out);
    json_string(out, a->head.resource_name.ptr, a->head.resource_name.len);
    fprintf(out, ", \"duration_ms\": %u, \"version\": %u, \"type\": %u, \"priority\": %u, \"locomotion\": %u, \"skeleton\": ",
            (unsigned)a->duration, (unsigned)a->version, (unsigned)a->type, (unsigned)a->priority,
            (unsigned)a->locomotion);
    json_string(out, a->skeleton.ptr, a->skeleton.len);
    fputs(", \"params\": ", out);
    json_floats(out, a->params, 9);
    fputs(",\n \"targets\": [", out);
    for (i = 0; i < a->target_count; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        json_string(out, a->targets[i].name.ptr, a->targets[i].name.len);
        fprintf(out, ", \"kind\": %u, \"channels\": %u, \"ik_chains\": %u}", (unsigned)a->targets[i].kind,
                (unsigned)a->targets[i].channel_count, (unsigned)a->targets[i].ik_chain_count);
    }
    fputs("],\n \"channels\": [", out);
    for (i = 0; i < a->channel_count; i++) {
        const plumbob_anim_channel *ch = &a->channels[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
        json_string(out, ch->name.ptr, ch->name.len);
        fprintf(out, ", \"crc\": \"0x%08X\", \"target\": %u, \"attribute\": \"%s\", \"value_type\": %u, \"duration\": %u, "
                     "\"ik_chain\": %u, \"components\": [",
                (unsigned)ch->crc, (unsigned)ch->target, attribute_name(PLUMBOB_ANIM_ATTRIBUTE(ch->flags)),
                (unsigned)PLUMBOB_ANIM_VALUE_TYPE(ch->flags), (unsigned)PLUMBOB_ANIM_DURATION(ch->flags),
                (unsigned)PLUMBOB_ANIM_IK_CHAIN(ch->flags));
        for (c = 0; c < PLUMBOB_ANIM_COMPONENTS(ch->flags); c++) {
            uint32_t ci = ch->first_component + c;
            const plumbob_anim_component *co = &a->components[ci];
            fprintf(out, "%s{\"encoding\": \"%s\", \"packed\": %u, \"keys\": [", c ? ", " : "", encoding_name(co->packed),
                    (unsigned)co->packed);
            for (k = 0; k < co->key_count; k++) {
                plumbob_anim_key key = plumbob_anim_key_at(a, ci, k);
                float v[4];
                v[0] = key.time;
                v[1] = key.value;
                v[2] = key.tangent_in;
                v[3] = key.tangent_out;
                if (k) fputs(", ", out);
                json_floats(out, v, (co->packed & 3u) == PLUMBOB_ANIM_BAKED ? 2u : 4u);
            }
            fputs("]}", out);
        }
        fputs("]}", out);
    }
    fputs("],\n \"events\": [", out);
    for (i = 0; i < a->event_count; i++) {
        fprintf(out, "%s{\"time_ms\": %u, \"type\": %u, \"text\": ", i ? ", " : "", (unsigned)a->events[i].time,
                (unsigned)a->events[i].type);
        json_string(out, a->events[i].text.ptr, a->events[i].text.len);
        fputc('}', out);
    }
    fprintf(out, "], \"ik_chains\": %u, \"ik_targets\": %u}\n", (unsigned)a->ik_chain_count, (unsigned)a->ik_target_count);
}

static void dump_text(FILE *out, const tool_input *in, const plumbob_anim *a) {
    uint32_t i;
    anim_info(in, out);
    for (i = 0; i < a->channel_count; i++) {
        const plumbob_anim_channel *ch = &a->channels[i];
        uint32_t c, n = PLUMBOB_ANIM_COMPONENTS(ch->flags);
        fprintf(out, "  channel %u %.*s: %s, target %.*s, %u components (keys", (unsigned)i, (int)ch->name.len,
                ch->name.ptr, attribute_name(PLUMBOB_ANIM_ATTRIBUTE(ch->flags)),
                (int)a->targets[ch->target].name.len, a->targets[ch->target].name.ptr, (unsigned)n);
        for (c = 0; c < n; c++) fprintf(out, " %u", (unsigned)a->components[ch->first_component + c].key_count);
        fputs(")\n", out);
    }
    for (i = 0; i < a->event_count; i++) { /* the first line of the event's text */
        const plumbob_anim_event *e = &a->events[i];
        const char *nl = (const char *)memchr(e->text.ptr, '\n', e->text.len);
        fprintf(out, "  event at %u ms, type %u: %.*s\n", (unsigned)e->time, (unsigned)e->type,
                (int)(nl ? (size_t)(nl - e->text.ptr) : e->text.len), e->text.ptr);
    }
}

static void sample(FILE *out, const plumbob_anim *a, float ms, int json) {
    uint32_t i;
    if (json) fprintf(out, "{\"time\": %.9g, \"time_ms\": %.9g, \"channels\": [", (double)ms / 1000.0, (double)ms);
    for (i = 0; i < a->channel_count; i++) {
        const plumbob_anim_channel *ch = &a->channels[i];
        float v[8];
        plumbob_quat q = {0, 0, 0, 1};
        uint32_t n = plumbob_anim_sample_channel(a, i, ms, v, &q);
        int rot = PLUMBOB_ANIM_ATTRIBUTE(ch->flags) == PLUMBOB_ANIM_ATTR_ROTATION && n == 3;
        if (json) {
            fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
            json_string(out, ch->name.ptr, ch->name.len);
            fprintf(out, ", \"attribute\": \"%s\", \"value\": ", attribute_name(PLUMBOB_ANIM_ATTRIBUTE(ch->flags)));
            json_floats(out, v, n);
            if (rot) {
                float qv[4];
                qv[0] = q.x; qv[1] = q.y; qv[2] = q.z; qv[3] = q.w;
                fputs(", \"quaternion\": ", out);
                json_floats(out, qv, 4);
            }
            fputc('}', out);
        } else {
            uint32_t c;
            fprintf(out, "%-24.*s %-11s", (int)ch->name.len, ch->name.ptr, attribute_name(PLUMBOB_ANIM_ATTRIBUTE(ch->flags)));
            for (c = 0; c < n; c++) fprintf(out, " %10.4f", (double)v[c]);
            if (rot) fprintf(out, "   q = (%.4f %.4f %.4f %.4f)", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
            fputc('\n', out);
        }
    }
    if (json) fputs("]}\n", out);
}

/* anim export: the ANIM on its CRES skeleton (and a mesh) as glTF. */
static int export_gltf(const tool_input *in, const plumbob_anim *a, const char *cres_path, const char *mesh_path,
                       const char *out_path) {
    tool_cres tc;
    tool_input min;
    plumbob_gmdc g;
    unsigned char *gmem = NULL;
    gltf_export_src src;
    int rc = 1, have = 0;
    uint32_t driven = 0;
    memset(&src, 0, sizeof src);
    memset(&min, 0, sizeof min);
    if (mesh_path) {
        plumbob_result r;
        if (!tool_load_kind(mesh_path, PLUMBOB_TYPE_GMDC, "--mesh", &min)) return 1;
        r = tool_gmdc_decode(&min, &g, &gmem);
        if (r != PLUMBOB_OK) {
            tool_error(min.name, "not a valid GMDC: %s", plumbob_result_str(r));
            tool_free(&min);
            return 1;
        }
    }
    if (cres_path) have = tool_cres_load(cres_path, "--cres", &tc);
    else if (tool_cres_find(in, mesh_path ? g.joint_count : 0u, a, &tc)) have = 1;
    else if (mesh_path && tool_cres_find(&min, g.joint_count, a, &tc)) have = 1;
    else tool_error(in->name, "anim export needs the skeleton: give --cres CRES (none found in the animation's package)");
    if (have) {
        driven = tool_cres_anim_bones(&tc, a);
        if (!tool_quiet())
            printf("skeleton: %s, %u bones; %u of the animation's %u channels drive a bone\n", tc.in.name,
                   (unsigned)tc.sk.skeleton.bone_count, (unsigned)driven, (unsigned)a->channel_count);
        if (a->channel_count && driven == 0) { /* a glTF with no animation is no export */
            tool_error(in->name, "none of the animation's %u channels drives a bone of %s: the wrong skeleton? "
                       "(nothing written)", (unsigned)a->channel_count, tc.in.name);
            tool_cres_free(&tc);
            free(gmem);
            if (mesh_path) tool_free(&min);
            return 1;
        }
        if (driven * 2 < a->channel_count)
            tool_warning(in->name, "only %u of the animation's %u channels drive a bone of %s: the wrong skeleton?",
                         (unsigned)driven, (unsigned)a->channel_count, tc.in.name);
        src.skeleton = &tc.sk;
        src.anim = a;
        src.mesh = mesh_path ? &g : NULL;
        rc = tool_write_gltf(out_path, &src, in->name);
        tool_cres_free(&tc);
    }
    free(gmem);
    if (mesh_path) tool_free(&min);
    return rc;
}

/* anim export --all: each ANIM with the same --cres / --mesh (else the CRES
 * of its own package). */
typedef struct anim_batch {
    const char *cres_path, *mesh_path;
} anim_batch;

static int export_one(const char *input, const char *out_path, void *ctx) {
    const anim_batch *b = (const anim_batch *)ctx;
    tool_input in;
    plumbob_anim a;
    unsigned char *mem;
    int rc;
    if (!tool_load_kind(input, PLUMBOB_TYPE_ANIM, NULL, &in)) return 1;
    if (!decode(&in, &a, &mem)) {
        tool_free(&in);
        return 1;
    }
    rc = export_gltf(&in, &a, b->cres_path, b->mesh_path, out_path);
    free(mem);
    tool_free(&in);
    return rc;
}

static int anim_usage(FILE *out, int rc) {
    fputs("usage: plumbob anim dump FILE [--json]\n"
          "       plumbob anim sample FILE --time SECONDS|--frame N [--json]\n"
          "  FILE is a Sims 2 ANIM resource or PACKAGE@INSTANCE.\n"
          "  dump    targets, channels with names, components with decoded keys\n"
          "          ([time, value] baked; [time, value, in, out] timed; tangents per ms), events\n"
          "  sample  every channel's value at SECONDS (0 to the animation's length), or at\n"
          "          frame N: the ANIM's tick, 1 ms (rotations: Euler degrees and the\n"
          "          quaternion, X applied first)\n"
          "       plumbob anim plot FILE [--channel NAME ...] -o OUT.svg\n"
          "  plot    the chosen channels (all without --channel) over time, keys marked\n"
          "       plumbob anim export FILE [--cres CRES] [--mesh GMDC] -o OUT.gltf|OUT.glb\n"
          "  export  the animation on its CRES skeleton (and mesh): bones named and parented\n"
          "          by the CRES at their rest pose, each channel that names a bone sampled\n"
          "          30 times a second (without --cres: the best-fitting CRES of the\n"
          "          animation's package, then of the mesh's)\n"
          "       plumbob anim export --all FILE... -o DIR [--gltf] [--cres CRES] [--mesh GMDC]\n"
          "          every ANIM of every FILE (a package: each in it) to DIR/NAME.glb (.gltf\n"
          "          with --gltf), NAME its resource name or instance; a summary at the end\n"
          "example: plumbob anim sample animation.package@0xFED15CBCFF6BE5EA --time 0.112 --json\n"
          "example: plumbob anim export body.package@00F0E1D2C3B4A5A2 --mesh body.package@00F0E1D2C3B4A5A1 -o body.glb\n"
          "example: plumbob anim plot animation.package@0xFED15CBCFF6BE5EA --channel spine0 -o spine.svg\n",
          out);
    return rc;
}

int cmd_anim(int argc, char **argv) {
    const char *file = NULL, *sub, *time_arg = NULL, *frame_arg = NULL, *out_path = NULL, *cres_path = NULL, *mesh_path = NULL;
    const char **picked = (const char **)calloc((size_t)argc + 1u, sizeof *picked);
    const char **files = (const char **)calloc((size_t)argc + 1u, sizeof *files); /* export --all inputs */
    int json = 0, i, rc = 0, np = 0, all = 0, gltf_text = 0, nf = 0;
    tool_input in;
    plumbob_anim a;
    unsigned char *mem;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        free(picked); free(files);
        return anim_usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    }
    sub = argv[1];
    if (strcmp(sub, "dump") != 0 && strcmp(sub, "sample") != 0 && strcmp(sub, "plot") != 0 &&
        strcmp(sub, "export") != 0) {
        tool_error("anim", "unknown subcommand '%s'", sub);
        free(picked); free(files);
        return anim_usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && strcmp(sub, "plot") != 0) json = 1;
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && strcmp(sub, "sample") == 0) time_arg = argv[++i];
        else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc && strcmp(sub, "sample") == 0) frame_arg = argv[++i];
        else if (strcmp(argv[i], "--channel") == 0 && i + 1 < argc && strcmp(sub, "plot") == 0) picked[np++] = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && (strcmp(sub, "plot") == 0 || strcmp(sub, "export") == 0))
            out_path = argv[++i];
        else if (strcmp(argv[i], "--cres") == 0 && i + 1 < argc && strcmp(sub, "export") == 0) cres_path = argv[++i];
        else if (strcmp(argv[i], "--mesh") == 0 && i + 1 < argc && strcmp(sub, "export") == 0) mesh_path = argv[++i];
        else if (strcmp(argv[i], "--all") == 0 && strcmp(sub, "export") == 0) all = 1;
        else if (strcmp(argv[i], "--gltf") == 0 && strcmp(sub, "export") == 0) gltf_text = 1;
        else if (strcmp(argv[i], "--help") == 0) { free(picked); free(files); return anim_usage(stdout, 0); }
        else if (argv[i][0] != '-' && strcmp(sub, "export") == 0) { files[nf++] = argv[i]; if (!file) file = argv[i]; }
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            free(picked); free(files);
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file || ((strcmp(sub, "plot") == 0 || strcmp(sub, "export") == 0) && !out_path)) {
        tool_error(NULL, !file ? "which animation? (FILE comes after the subcommand; see plumbob anim --help)"
                         : strcmp(sub, "plot") == 0 ? "-o OUT.svg is required" : "-o OUT.gltf or OUT.glb is required");
        free(picked); free(files);
        return 2;
    }
    if (strcmp(sub, "sample") == 0 && !time_arg && !frame_arg) {
        tool_error(NULL, "--time SECONDS or --frame N is required");
        free(picked); free(files);
        return 2;
    }
    if (strcmp(sub, "export") == 0 && (all || nf > 1 || gltf_text)) { /* batch: --all FILE... -o DIR */
        anim_batch b;
        b.cres_path = cres_path;
        b.mesh_path = mesh_path;
        rc = tool_batch_export(PLUMBOB_TYPE_ANIM, "animation", "animations", files, nf, all, gltf_text, out_path, export_one, &b);
        free(picked); free(files);
        return rc;
    }
    if (strcmp(sub, "export") == 0 && !tool_arg_extension(out_path, ".gltf", ".glb", NULL)) {
        free(picked); free(files);
        return 2;
    }
    if (!tool_load_kind(file, PLUMBOB_TYPE_ANIM, NULL, &in)) { free(picked); free(files); return 1; }
    if (!decode(&in, &a, &mem)) {
        tool_free(&in);
        free(picked); free(files);
        return 1;
    }
    if (strcmp(sub, "plot") == 0) {
        rc = anim_plot_svg(&a, in.name, picked, np, out_path);
    } else if (strcmp(sub, "export") == 0) {
        rc = export_gltf(&in, &a, cres_path, mesh_path, out_path);
    } else if (strcmp(sub, "dump") == 0) {
        if (json) dump_json(stdout, &a);
        else dump_text(stdout, &in, &a);
    } else {
        double t; /* a tick is 1 ms: that is the ANIM's frame */
        if (tool_arg_time(time_arg, frame_arg, 0.001, (double)a.duration / 1000.0, &t))
            sample(stdout, &a, (float)(t * 1000.0), json);
        else
            rc = 2;
    }
    free(mem);
    tool_free(&in);
    free(picked); free(files);
    return rc;
}
