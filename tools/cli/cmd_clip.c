/* plumbob clip dump / clip sample, and CLIP support for info and check. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "plot/plot.h"
#include "util/files.h"
#include "util/rig.h"
#include "commands.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_batch.h"
#include "tool_decode.h"
#include "tool_geom.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "tool_package.h"
#include "tool_pairing.h"
#include "gltf/gltf_export.h"
#include "gltf/gltf_import.h"
#include "util/names.h"

/* tool_clip_decode, saying why on failure; returns 0 then. */
static int decode_or_say(const tool_input *in, tool_clip *tc) {
    plumbob_result r = tool_clip_decode(in, tc);
    if (r != PLUMBOB_OK) tool_error(in->name, "not a valid CLIP: %s", tool_why(in, r));
    return r == PLUMBOB_OK;
}

static const char *event_name(uint16_t t) { return gltf_clip_event_kind(t); }

static void json_event(FILE *out, const plumbob_clip_event *e, const tool_dict *names) {
    tool_buf b = {0};
    gltf_clip_event_json(&b, e, names); /* the export's extras carry the same */
    fwrite(b.data, 1, b.size, out);
    tb_free(&b);
}

static void dump_json(FILE *out, const plumbob_clip *c, const tool_dict *names) {
    uint32_t i, k;
    fputs("{\"name\": ", out);
    json_string(out, c->name.ptr, c->name.len);
    fputs(", \"source\": ", out);
    json_string(out, c->source.ptr, c->source.len);
    fputs(", \"actor\": ", out);
    if (c->actor.ptr) json_string(out, c->actor.ptr, c->actor.len); else fputs("null", out);
    fputs(", \"frame_duration\": ", out);
    json_float(out, c->frame_duration);
    fprintf(out, ", \"ticks\": %u, \"duration\": ", (unsigned)c->tick_count);
    json_float(out, plumbob_clip_duration(c));
    fputs(",\n \"tracks\": [", out);
    for (i = 0; i < c->track_count; i++) {
        const plumbob_clip_track *t = &c->tracks[i];
        const char *nm = tool_dict_track(names, t->hash, t->target == PLUMBOB_CLIP_TARGET_MORPH);
        fprintf(out, "%s\n  {\"hash\": \"0x%08X\", ", i ? "," : "", (unsigned)t->hash);
        if (nm) {
            fputs("\"name\": ", out);
            json_string(out, nm, strlen(nm));
            fputs(", ", out);
        }
        fprintf(out, "\"target\": \"%s\", \"type\": \"0x%04X\", \"offset\": ", tool_clip_target_name(t->target), (unsigned)t->type);
        json_float(out, t->offset);
        fputs(", \"scale\": ", out);
        json_float(out, t->scale);
        fputs(", \"keys\": [", out);
        for (k = 0; k < t->key_count; k++) {
            float v[4];
            uint16_t tick = 0;
            if (plumbob_clip_key_value(c, i, k, &tick, v) != PLUMBOB_OK) break; /* k < key_count: never */
            fprintf(out, "%s{\"tick\": %u, \"value\": ", k ? ", " : "", (unsigned)tick);
            json_floats(out, v, t->components);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("],\n \"slots\": [", out);
    for (i = 0; i < c->slot_count; i++) {
        const plumbob_clip_slot *s = &c->slots[i];
        fprintf(out, "%s{\"chain\": %u, \"index\": %u, \"actor\": ", i ? ", " : "", (unsigned)s->chain,
                (unsigned)s->index);
        json_string(out, s->actor.ptr, s->actor.len);
        fputs(", \"slot\": ", out);
        json_string(out, s->slot.ptr, s->slot.len);
        fputc('}', out);
    }
    fputs("],\n \"events\": [", out);
    for (i = 0; i < c->events_decoded; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_event(out, &c->events[i], names);
    }
    fprintf(out, "],\n \"events_complete\": %s}\n", c->events_complete ? "true" : "false");
}

static void dump_text(FILE *out, const tool_input *in, const plumbob_clip *c, const tool_dict *names) {
    uint32_t i, keys = 0, by_target[8] = {0};
    for (i = 0; i < c->track_count; i++) {
        keys += c->tracks[i].key_count;
        by_target[c->tracks[i].target & 7u]++;
    }
    fprintf(out, "%s\n", in->name);
    fprintf(out, "  clip     %.*s\n", (int)c->name.len, c->name.ptr);
    fprintf(out, "  source   %.*s\n", (int)c->source.len, c->source.ptr);
    fprintf(out, "  actor    %.*s\n", c->actor.ptr ? (int)c->actor.len : 6, c->actor.ptr ? c->actor.ptr : "(none)");
    fprintf(out, "  length   %.3f s (%u ticks of %.4f s)\n", (double)plumbob_clip_duration(c),
            (unsigned)c->tick_count, (double)c->frame_duration);
    fprintf(out, "  tracks   %u (%u rotation, %u translation, %u scale, %u morph), %u keys\n",
            (unsigned)c->track_count, (unsigned)by_target[2], (unsigned)by_target[1],
            (unsigned)by_target[3], (unsigned)by_target[7], (unsigned)keys);
    for (i = 0; i < c->track_count; i++) {
        const plumbob_clip_track *t = &c->tracks[i];
        const char *nm = tool_dict_track(names, t->hash, t->target == PLUMBOB_CLIP_TARGET_MORPH);
        fprintf(out, "           %3u 0x%08X %-28s %-11s %u keys\n", (unsigned)i, (unsigned)t->hash, nm ? nm : "-",
                tool_clip_target_name(t->target), (unsigned)t->key_count);
    }
    fprintf(out, "  slots    %u in %u IK chains\n", (unsigned)c->slot_count, (unsigned)c->chain_count);
    for (i = 0; i < c->slot_count; i++)
        fprintf(out, "           chain %u: actor %.*s -> slot %.*s\n", (unsigned)c->slots[i].chain,
                (int)c->slots[i].actor.len, c->slots[i].actor.ptr, (int)c->slots[i].slot.len,
                c->slots[i].slot.ptr);
    fprintf(out, "  events   %u%s\n", (unsigned)c->events_decoded,
            c->events_complete ? "" : " (list incomplete: an event type plumbob does not know)");
    for (i = 0; i < c->events_decoded; i++) {
        const plumbob_clip_event *e = &c->events[i];
        fprintf(out, "           %7.3f s  %-12s %.*s", (double)e->time, event_name(e->type), (int)e->name.len,
                e->name.ptr);
        if (e->type == PLUMBOB_CLIP_EVENT_SOUND) fprintf(out, "  (sound %.*s)", (int)e->sound.len, e->sound.ptr);
        fputc('\n', out);
    }
}

int clip_info(const tool_input *in, FILE *out) {
    tool_clip tc;
    if (!decode_or_say(in, &tc)) return 1;
    fprintf(out, "%s: Sims 3 CLIP %.*s, %.3f s, %u tracks, %u events, %zu bytes\n", in->name,
            (int)tc.clip.name.len, tc.clip.name.ptr, (double)plumbob_clip_duration(&tc.clip),
            (unsigned)tc.clip.track_count, (unsigned)tc.clip.events_decoded, in->size);
    tool_clip_free(&tc);
    return 0;
}

plumbob_result clip_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    tool_clip tc;
    plumbob_result r = tool_clip_decode(in, &tc);
    if (r != PLUMBOB_OK) return r;
    if (!tc.clip.events_complete) {
        r = PLUMBOB_ERR_UNSUPPORTED; /* the unknown events are lost: cannot be identical */
    } else {
        size_t ws = plumbob_clip_write_size(&tc.clip);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_clip_write(&tc.clip, *out, ws, out_size);
    }
    tool_clip_free(&tc);
    return r;
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob clip dump FILE [--json] [--rig RIG ...]\n"
               "       plumbob clip sample FILE --time SECONDS|--frame N [--rig RIG] [--json]\n"
               "       plumbob clip plot FILE [--track HASH_OR_NAME ...] [--rig RIG ...] -o OUT.svg\n"
               "       plumbob clip export FILE -o OUT.gltf|OUT.glb [--rig RIG] [--rig MESH]\n"
               "       plumbob clip export --all FILE... -o DIR [--gltf] [--rig RIG] [--rig MESH]\n"
               "       plumbob clip export FILE --rig RIG --geom MESH... -o OUT.gltf|OUT.glb\n"
               "       plumbob clip import IN.glb|IN.gltf -o OUT.clip|--package PKG [--animation NAME|INDEX] [--fps N]\n"
               "              [--name NAME] [--like ORIGINAL | --no-carry] [--max-error-rotation DEG]\n"
               "              [--max-error-translation M] [--max-error-morph W] [--verbose]\n"
               "       plumbob clip diff A B [--json]\n"
               "       plumbob clip blend A B --rig RIG (--weight W | --fade SECONDS) ... (see clip blend --help)\n"
               "  dump: everything in the clip (with --json: name, source, actor, frame_duration,\n"
               "        ticks, tracks with every key, slots, events, events_complete).\n"
               "  sample: every track's value at SECONDS (0 to the clip's length; --frame N is\n"
               "        N frame durations, usually 1/30 s), after interpolation.  With --rig (a\n"
               "        Sims 3 rig resource or PACKAGE@INSTANCE), also every rig bone's posed local\n"
               "        and model-space transform (rest values where the clip has no track).\n"
               "  plot: the chosen tracks (all without --track) over time: rotations as Euler\n"
               "        angles in degrees, translations, morph weights; keys marked.\n"
               "  export: a glTF animation, one LINEAR channel per track.  RIG is a Sims 3 rig\n"
               "        resource (or PACKAGE@INSTANCE): its hierarchy, names and rest pose, and\n"
               "        bones without tracks stay at rest; or a list naming the bones (`NAME\n"
               "        [PARENT]` per line; tracks match FNV-32 of the name).  MESH, a GMDC, adds\n"
               "        the skinned mesh (its joints in list order) and drives its morph targets.\n"
               "        Tracks of bones the rig does not have get root nodes, named as below.\n"
               "        --geom MESH (Sims 3 GEOMs, with one --rig RIG resource): the meshes skinned\n"
               "        on the rig's skeleton, as geom export --clip writes them.\n"
               "        --all: every clip of every FILE (a package: each CLIP in it; a clip file:\n"
               "        itself) to DIR/NAME.glb (.gltf with --gltf), NAME the clip's KEY name or\n"
               "        instance; the same --rig for each; a summary at the end.\n"
               "  import: one glTF animation as a clip: each node's rotation and translation a\n"
               "        track named by FNV-32 of the node's name (or its 0xHASH name), morph\n"
               "        weights (mesh.extras.targetNames) and plumbob's extras morphTracks as morph\n"
               "        tracks; sampled at every tick (--fps, 30), keys dropped while the curve\n"
               "        stays within the bounds (0.01 degrees, 0.0001 m, 0.001); prints one\n"
               "        summary line (--verbose: each track's keys and worst error after\n"
               "        quantization too).  --package PKG puts\n"
               "        it into a Sims 3 package (made if missing) under the key its name gives,\n"
               "        named in the KEY table.  Events, IK slots and the clip's other fields come\n"
               "        from plumbob's extras; where the glTF lacks them (Blender keeps no extras)\n"
               "        they are carried from --like ORIGINAL (a clip or PACKAGE@KEY), and with\n"
               "        --package by default from the clip it replaces (one line says what);\n"
               "        --no-carry carries nothing, and a replaced clip's events or slots lost\n"
               "        are a warning.  Warned of: key times off the --fps grid (Blender at 24),\n"
               "        a root node's rotation or scale, scaled inverse binds, translations over\n"
               "        10 m; names with Blender's .001 suffix match their bone, with a note.\n"
               "  diff: per track (matched by hash and target), the largest difference of A\n"
               "        and B at every tick of either (degrees for rotations, metres for\n"
               "        translations, absolute for scale and morph), tracks in only one, duration,\n"
               "        events, IK slots and the other fields; exit 0 identical, 1 different, 2\n"
               "        trouble (as diff(1)); --json for all of it.\n"
               "  blend: B mixed into A on a rig (weight, cross-fade, additive, mask, mirror,\n"
               "        root motion) into a new clip or glTF; clip blend --help says how.\n"
               "  Names: hashes are printed with their names where known: built-in Sims 3 bone\n"
               "        and slot names, the KEY table and rigs of FILE's package, and --rig (a\n"
               "        rig resource or a `NAME [PARENT]` list; dump and plot take it for names).\n"
               "  FILE is a CLIP resource or PACKAGE@INSTANCE.\n"
               "  example: plumbob clip sample EWBreastfeed.package@3D40CC19DAAFD164 --time 1.5 --json\n"
               "  example: plumbob clip plot walk.clip --track b__Spine0__ -o walk.svg\n"
               "  example: plumbob clip export walk.clip --rig rig.txt --rig body.gmdc -o walk.glb\n"
               "  example: plumbob clip import edited.glb --package EWBreastfeed.package\n"
               "  example: plumbob clip diff EWBreastfeed.package@a2o_bassinet_feed_stop_x edited.clip\n");
    return rc;
}

/* clip export: the clip with an optional rig list and mesh; warns of what
 * the file carries only in extras (clip_name names the input). */
static int export_clip(const plumbob_clip *clip, const char *clip_name, const char *const *rigs, int rig_count,
                       const char *out_path, const tool_dict *names) {
    tool_rig rig;
    plumbob_gmdc mesh;
    unsigned char *mesh_mem = NULL;
    tool_input mesh_in;
    gltf_export_src src;
    int have_rig = 0, i, rc = 1;
    memset(&rig, 0, sizeof rig);
    memset(&mesh_in, 0, sizeof mesh_in);
    memset(&src, 0, sizeof src);
    for (i = 0; i < rig_count; i++)
        if (!tool_load_rig_arg(rigs[i], &rig, &have_rig, &mesh, &mesh_mem, &mesh_in)) goto done;
    if (have_rig) tool_warn_pairing(clip, clip_name, rig.hash, rig.count, rig.name);
    src.clip = clip;
    src.rig = have_rig ? &rig : NULL;
    src.mesh = mesh_mem ? &mesh : NULL;
    src.names = names;
    rc = tool_write_gltf(out_path, &src, clip_name);
done:
    free(mesh_mem);
    tool_free(&mesh_in);
    tool_rig_free(&rig);
    return rc;
}

static int dict_add_rig_arg(tool_dict *d, const char *path);

/* One clip file or PACKAGE@KEY exported to out_path (clip export and each
 * clip of clip export --all): 0, or 1 after saying why. */
typedef struct export_job {
    const char *const *rigs;
    int rig_count;
    const char *const *geoms; /* --geom meshes: skinned on the one --rig (tool_geom_export) */
    int geom_count;
} export_job;

static int export_one(const char *file, const char *out_path, void *ctx) {
    const export_job *job = (const export_job *)ctx;
    tool_input in;
    tool_clip tc;
    tool_dict names;
    int i, rc = 0;
    if (!tool_load_kind(file, PLUMBOB_TYPE_CLIP, NULL, &in)) return 1;
    if (!decode_or_say(&in, &tc)) {
        tool_free(&in);
        return 1;
    }
    tool_dict_init(&names);
    if (in.package_data) tool_dict_add_package(&names, in.package_data, in.package_size);
    for (i = 0; i < job->rig_count && rc == 0; i++)
        if (!dict_add_rig_arg(&names, job->rigs[i])) rc = 1; /* said why; not again from the export */
    if (rc == 0 && job->geom_count)
        rc = tool_geom_export(job->geoms, job->geom_count, job->rigs[0], &tc.clip, in.name, &names, out_path);
    else if (rc == 0)
        rc = export_clip(&tc.clip, in.name, job->rigs, job->rig_count, out_path, &names);
    tool_dict_free(&names);
    tool_clip_free(&tc);
    tool_free(&in);
    return rc;
}

/* clip import --like / --package: the original clip whose events, IK slots
 * and other fields the imported one takes where the glTF lacks them. */
typedef struct carry_src {
    tool_input in;
    tool_clip tc;
    int have;
} carry_src;

static void carry_free(carry_src *c) {
    if (c->have) tool_clip_free(&c->tc);
    tool_free(&c->in);
    memset(c, 0, sizeof *c);
}

/* The clip a package holds under key, when the package exists and has one:
 * 1 loaded; 0 none (or one that does not decode, said in a warning: it is
 * replaced, nothing carried); -1 said why it cannot be read. */
static int load_replaced(const char *package, const plumbob_clip_key *key, carry_src *out) {
    unsigned char *data = NULL;
    size_t size = 0;
    plumbob_package pkg;
    plumbob_package_entry e;
    char spec[1200];
    FILE *f = fopen(package, "rb");
    int found;
    plumbob_result r;
    memset(out, 0, sizeof *out);
    if (!f) return 0; /* no package yet: it is made, nothing replaced */
    fclose(f);
    if (!tool_read_file(package, &data, &size)) return -1;
    found = plumbob_package_open(&pkg, data, size) == PLUMBOB_OK &&
            plumbob_package_find(&pkg, PLUMBOB_TYPE_CLIP, key->group, key->instance, &e, NULL) == PLUMBOB_OK;
    free(data);
    if (!found) return 0; /* not a package (the put says so), or no such clip: nothing replaced */
    snprintf(spec, sizeof spec, "%s@%08X:%08X:%016llX", package, (unsigned)PLUMBOB_TYPE_CLIP, (unsigned)key->group,
             (unsigned long long)key->instance);
    if (!tool_load(spec, &out->in)) return -1;
    r = tool_clip_decode(&out->in, &out->tc);
    if (r != PLUMBOB_OK) {
        tool_warning(out->in.name, "the clip this replaces does not decode (%s): nothing carried from it",
                     plumbob_result_str(r));
        tool_free(&out->in);
        return 0;
    }
    out->have = 1;
    return 1;
}

/* "1 event", "14 IK slots in 5 chains" into buf. */
static const char *count_words(char *buf, size_t cap, uint32_t n, const char *one, const char *many) {
    snprintf(buf, cap, "%u %s", (unsigned)n, n == 1 ? one : many);
    return buf;
}

/* Gives ci's clip what the glTF lacked from src: events (no
 * extras.plumbob.events), the IK slot table (no slots), the clip's other
 * fields (no extras.plumbob.clip).  Says what it carried in one line. */
static void carry_into(clip_import *ci, const plumbob_clip *src, const char *from) {
    plumbob_clip *c = &ci->clip;
    char what[3][120], ev[40], sl[60];
    int n = 0;
    if (!ci->has_events && src->events_decoded) {
        c->events = src->events;
        c->events_decoded = c->event_count = src->events_decoded;
        c->events_complete = true;
        c->event_pos = 1;
        snprintf(what[n++], sizeof what[0], "%s", count_words(ev, sizeof ev, src->events_decoded, "event", "events"));
    }
    if (!ci->has_events && !src->events_complete && src->event_count > src->events_decoded)
        tool_warning(from, "%u event%s cannot be carried: the list stops at one of a type plumbob does not know",
                     (unsigned)(src->event_count - src->events_decoded), src->event_count - src->events_decoded == 1 ? "" : "s");
    if (!ci->has_slots && (src->slot_pos || src->slot_count)) {
        c->slots = src->slots;
        c->slot_count = src->slot_count;
        c->chain_count = src->chain_count;
        c->slot_pos = 1;
        count_words(sl, sizeof sl, src->slot_count, "IK slot", "IK slots");
        snprintf(what[n++], sizeof what[0], "%s in %u chain%s", sl, (unsigned)src->chain_count, src->chain_count == 1 ? "" : "s");
    }
    if (!ci->has_header) {
        c->source = src->source;
        c->actor = src->actor;
        c->flags = src->flags;
        c->linked_offset = src->linked_offset;
        c->header_unknown[0] = src->header_unknown[0];
        c->header_unknown[1] = src->header_unknown[1];
        c->tick_pad = src->tick_pad;
        c->event_version = src->event_version;
        c->end_block = src->end_block;
        snprintf(what[n++], sizeof what[0], "the source, actor and header fields");
    }
    if (!n) {
        printf("carried nothing from %s: the glTF has its own events, IK slots and clip fields\n", from);
        return;
    }
    printf("carried %s%s%s%s%s from %s\n", what[0], n > 1 ? (n > 2 ? ", " : " and ") : "", n > 1 ? what[1] : "",
           n > 2 ? " and " : "", n > 2 ? what[2] : "", from);
}

/* clip import: a glTF animation into a CLIP file. */
static int import_clip(int argc, char **argv) {
    const char *in_path = NULL, *out_path = NULL, *package = NULL, *like = NULL, *v;
    carry_src orig, replaced;
    int no_carry = 0;
    clip_import_opts o;
    tool_input in;
    gltf_doc doc;
    clip_import ci;
    char why[300];
    unsigned char *bytes = NULL;
    size_t need, got;
    double worst[3] = {0, 0, 0};
    uint32_t i, kept = 0, samples = 0;
    int rc = 1, verbose = 0;
    memset(&o, 0, sizeof o);
    memset(&orig, 0, sizeof orig);
    memset(&replaced, 0, sizeof replaced);
    o.fps = 30;
    o.max_rotation_deg = 0.01;
    o.max_translation = 0.0001;
    o.max_morph = 0.001;
    for (i = 2; i < (uint32_t)argc; i++) {
        const char *a = argv[i];
        double *num = strcmp(a, "--fps") == 0 ? &o.fps : strcmp(a, "--max-error-rotation") == 0 ? &o.max_rotation_deg
                    : strcmp(a, "--max-error-translation") == 0 ? &o.max_translation
                    : strcmp(a, "--max-error-morph") == 0 ? &o.max_morph : NULL;
        if (strcmp(a, "--help") == 0) return usage(stdout, 0);
        if ((num || !strcmp(a, "-o") || !strcmp(a, "--animation") || !strcmp(a, "--name") || !strcmp(a, "--package") ||
             !strcmp(a, "--like")) &&
            i + 1 >= (uint32_t)argc) {
            tool_error(NULL, "%s needs a value", a);
            return 2;
        }
        if (num) {
            char *end;
            v = argv[++i];
            *num = strtod(v, &end);
            if (end == v || *end || !(*num >= 0) || *num > 1e6 || (num == &o.fps && !(*num >= 1 && *num <= 1000))) {
                tool_error(NULL, "%s needs a number%s, got '%s'", a, num == &o.fps ? " from 1 to 1000" : " of 0 or more", v);
                return 2;
            }
        } else if (strcmp(a, "-o") == 0) out_path = argv[++i];
        else if (strcmp(a, "--animation") == 0) o.animation = argv[++i];
        else if (strcmp(a, "--name") == 0) o.name = argv[++i];
        else if (strcmp(a, "--package") == 0) package = argv[++i];
        else if (strcmp(a, "--like") == 0) like = argv[++i];
        else if (strcmp(a, "--no-carry") == 0) no_carry = 1;
        else if (strcmp(a, "--verbose") == 0) verbose = 1; /* a line per track; else the summary alone */
        else if (a[0] != '-' && !in_path) in_path = a;
        else return tool_bad_argument(argc, argv, (int)i);
    }
    if ((rc = tool_load_gltf(in_path, out_path, package, ".clip", &in, &doc)) != 0) return rc;
    rc = 1;
    {
        const char *b = strrchr(in_path, '/');
        o.source = b ? b + 1 : in_path;
    }
    if (!gltf_import_clip(&doc, &o, &ci, why, sizeof why)) {
        tool_error(in.name, "%s", why);
        gltf_doc_free(&doc);
        tool_free(&in);
        return 1;
    }
    if (ci.clip.track_count == 0) {
        tool_error(in.name, "the animation has no rotation, translation or morph weights channel plumbob can carry");
        goto done;
    }
    if (like && no_carry) {
        tool_error(NULL, "--like and --no-carry contradict each other: carry from --like, or carry nothing");
        rc = 2;
        goto done;
    }
    if (like) {
        if (!tool_load_kind(like, PLUMBOB_TYPE_CLIP, "--like", &orig.in)) goto done;
        if (!decode_or_say(&orig.in, &orig.tc)) goto done;
        orig.have = 1;
    }
    if (package && !tool_edit_check(package)) goto done; /* read-only, hard-linked...: said before -o OUT is written */
    if (package) { /* the clip this one replaces: carried from by default, and never lost unsaid */
        plumbob_clip_key key;
        (void)plumbob_clip_key_from_name(ci.clip.name.ptr, ci.clip.name.len, &key); /* out set: never fails */
        if (load_replaced(package, &key, &replaced) < 0) goto done;
    }
    if (orig.have) {
        char from[1200];
        snprintf(from, sizeof from, "%s", orig.in.name);
        carry_into(&ci, &orig.tc.clip, from);
        if (orig.tc.clip.name.len != ci.clip.name.len || memcmp(orig.tc.clip.name.ptr, ci.clip.name.ptr, ci.clip.name.len) != 0)
            printf("note: the clip is named %s (the glTF's animation), the original %.*s: --name %.*s gives it the original's "
                   "name and key\n", ci.name, (int)orig.tc.clip.name.len, orig.tc.clip.name.ptr, (int)orig.tc.clip.name.len,
                   orig.tc.clip.name.ptr);
    } else if (replaced.have && !no_carry) {
        carry_into(&ci, &replaced.tc.clip, "the replaced clip");
    }
    if (replaced.have) {
        const plumbob_clip *r = &replaced.tc.clip;
        int lost_events = r->events_decoded && !ci.clip.events_decoded, lost_slots = r->slot_count && !ci.clip.slot_count;
        char ev[40], sl[40];
        if (lost_events || lost_slots)
            tool_warning(replaced.in.name, "REPLACED BY A CLIP WITHOUT %s%s%s: it had %s%s%s the game needs, the new clip has "
                         "none%s", lost_events ? "EVENTS" : "", lost_events && lost_slots ? " AND " : "",
                         lost_slots ? "IK SLOTS" : "", lost_events ? count_words(ev, sizeof ev, r->events_decoded, "event", "events") : "",
                         lost_events && lost_slots ? " and " : "",
                         lost_slots ? count_words(sl, sizeof sl, r->slot_count, "IK slot", "IK slots") : "",
                         no_carry ? " (--no-carry; without it they are carried from the replaced clip)"
                                  : " (the glTF's extras list none: delete the empty lists, or --like the original)");
    }
    if (!ci.has_events && !ci.has_slots && !orig.have && !(replaced.have && !no_carry))
        printf("note: the glTF has no plumbob extras (Blender keeps none), so the clip has no events or IK slots; "
               "--like ORIGINAL carries them from the original clip\n");
    need = plumbob_clip_write_size(&ci.clip);
    bytes = need != SIZE_MAX ? (unsigned char *)malloc(need) : NULL;
    if (!bytes || plumbob_clip_write(&ci.clip, bytes, need, &got) != PLUMBOB_OK) {
        tool_error(out_path, "cannot build the clip");
        goto done;
    }
    if (out_path && !tool_write_file(out_path, bytes, got)) goto done;
    if (package) { /* keyed by the clip's name, as the game finds clips, and named in the KEY table */
        plumbob_clip_key key;
        (void)plumbob_clip_key_from_name(ci.clip.name.ptr, ci.clip.name.len, &key); /* out set: never fails */
        if (tool_package_put(package, PLUMBOB_TYPE_CLIP, key.group, key.instance, bytes, got, ci.name) != 0) goto done;
    }
    for (i = 0; i < ci.clip.track_count; i++) {
        const clip_import_track *r = &ci.report[i];
        int kind = r->target == PLUMBOB_CLIP_TARGET_ROTATION ? 0 : r->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? 1 : 2;
        static const char *const label[3] = {"rotation", "translation", "morph"};
        if (verbose)
            printf("  %-32s %-11s %5u of %5u keys, worst %.4g %s\n", r->name, label[kind], (unsigned)r->kept,
               (unsigned)r->samples, r->worst, kind == 0 ? "deg" : kind == 1 ? "m" : "");
        if (r->worst > worst[kind]) worst[kind] = r->worst;
        kept += r->kept;
        samples += r->samples;
    }
    printf("wrote %s (%zu bytes): %u tracks, %u events, %u ticks (%.3f s), %u of %u sampled keys kept; worst %.4g deg, %.4g m, %.4g\n",
           out_path ? out_path : ci.name, got, (unsigned)ci.clip.track_count, (unsigned)ci.clip.events_decoded, (unsigned)ci.clip.tick_count,
           (double)plumbob_clip_duration(&ci.clip), (unsigned)kept, (unsigned)samples, worst[0], worst[1], worst[2]);
    if (ci.skipped_channels)
        tool_warning(in.name, "%u channel%s not carried (a clip animates rotation, translation and morphs of named nodes): %s%s",
                     (unsigned)ci.skipped_channels, ci.skipped_channels == 1 ? "" : "s", ci.skipped_names,
                     ci.skipped_channels > 3 ? ", ..." : "");
    if (ci.events_skipped)
        tool_warning(in.name, "%u event%s in extras not imported (a kind plumbob cannot lay out, or no type and time)",
                     (unsigned)ci.events_skipped, ci.events_skipped == 1 ? " is" : "s are");
    if (ci.slots_skipped)
        tool_warning(in.name, "%u IK slot%s in extras not imported (no chain, index, actor or slot)",
                     (unsigned)ci.slots_skipped, ci.slots_skipped == 1 ? "" : "s");
    fflush(stdout); /* the warnings after the report, also when both go to one pipe */
    /* what the import would otherwise guess silently */
    if (ci.renamed)
        printf("note: %u node name%s Blender's duplicate suffix, matched to the bone without it: %s%s\n",
               (unsigned)ci.renamed, ci.renamed == 1 ? " carries" : "s carry", ci.renamed_names, ci.renamed > 2 ? ", ..." : "");
    if (ci.off_grid_keys) {
        char on[80], keep[40] = "";
        if (ci.grid_fps > 0) {
            snprintf(on, sizeof on, "they sit on a %g fps grid%s", ci.grid_fps,
                     ci.grid_fps == 24 ? ", Blender's default frame rate" : "");
            snprintf(keep, sizeof keep, ", or import with --fps %g", ci.grid_fps);
        } else {
            snprintf(on, sizeof on, "on no common frame rate");
        }
        tool_warning(in.name, "%u of %u key times are off the clip's %g fps frame grid (%s): every channel is resampled at "
                     "%g fps, so bones move between their keys where they did not; set the scene's frame rate to %g in "
                     "Blender (Output Properties > Format) before exporting%s",
                     (unsigned)ci.off_grid_keys, (unsigned)ci.keys_checked, o.fps, on, o.fps, o.fps, keep);
    }
    if (ci.root_name[0])
        tool_warning(in.name, "node %s above the animated bones has a rotation of %.1f deg and a scale of %.4g that no "
                     "channel animates: a clip holds the bones only, so the game plays it without them (an armature "
                     "object rotated or scaled in Blender?); clear the armature's rotation and scale before exporting",
                     ci.root_name, ci.root_angle, ci.root_scale);
    if (ci.scaled_binds)
        tool_warn_scaled_binds(in.name, ci.scaled_binds, "a clip holds no scale, so the bone translations may carry it "
                               "(a scale of 100 makes them 100 times too long)");
    if (ci.far_translations)
        tool_warning(in.name, "%u translation track%s a bone more than 10 m from its parent (%s: %.4g m): no Sim is that "
                     "big; a scale baked into the armature (centimetres as metres?)", (unsigned)ci.far_translations,
                     ci.far_translations == 1 ? " moves" : "s move", ci.far_name, ci.far_max);
    rc = 0;
done:
    free(bytes);
    carry_free(&orig);
    carry_free(&replaced);
    clip_import_free(&ci);
    gltf_doc_free(&doc);
    tool_free(&in);
    return rc;
}

/* Adds the bone names of a --rig argument to the dictionary: a Sims 3 rig
 * resource or a rig list (a GMDC mesh has no names).  0 after saying why. */
static int dict_add_rig_arg(tool_dict *d, const char *path) {
    tool_input rin;
    plumbob_format f;
    int ok = 1;
    if (!tool_load(path, &rin)) return 0;
    f = plumbob_identify(rin.data, rin.size);
    if (f == PLUMBOB_FORMAT_RIG) {
        tool_rig_res tr;
        ok = tool_rig_decode_or_say(&rin, &tr);
        if (ok) {
            tool_dict_add_skeleton(d, &tr.rig.skeleton);
            tool_rig_res_free(&tr);
        }
    } else if (f != PLUMBOB_FORMAT_GMDC) {
        tool_rig list;
        uint32_t b;
        ok = tool_text_not_binary(&rin, "--rig", RIG_ARG_WANTS) && tool_rig_parse((const char *)rin.data, rin.size, rin.name, &list);
        for (b = 0; ok && b < list.count; b++) tool_dict_add(d, list.names[b], strlen(list.names[b]), 0);
        if (ok) tool_rig_free(&list);
    }
    if (rin.package_data) tool_dict_add_package(d, rin.package_data, rin.package_size);
    tool_free(&rin);
    return ok;
}

/* clip sample --rig: the rig's rest pose, the clip sampled over it (bone
 * tracks bound by the rig's name hashes), then model space. */
/* A name for an unbound hash: the dictionary's bone name, else its morph name. */
static const char *unbound_name(const tool_dict *names, uint32_t hash) {
    const char *s = tool_dict_bone(names, hash);
    return s ? s : tool_dict_morph(names, hash);
}

/* What the binding found (plumbob_clip_binding_report), as a "binding" JSON
 * member or a text line after the header: counts, the fit bits, the unbound
 * hashes with names where the dictionary knows them (text: the first 8). */
static void print_binding(const plumbob_clip_bind_report *rep, const uint32_t *unbound, const tool_dict *names,
                          int json) {
    uint32_t i;
    if (json) {
        printf(", \"binding\": {\"tracks\": %u, \"bound_tracks\": %u, \"bones\": %u, \"bound_bones\": %u, "
               "\"few_bones\": %s, \"other_species\": %s, \"other_age\": %s, \"unbound\": [",
               (unsigned)rep->track_count, (unsigned)rep->bound_tracks, (unsigned)rep->bone_count,
               (unsigned)rep->bound_bones, rep->fit & PLUMBOB_FIT_FEW_BONES ? "true" : "false",
               rep->fit & PLUMBOB_FIT_OTHER_SPECIES ? "true" : "false",
               rep->fit & PLUMBOB_FIT_OTHER_AGE ? "true" : "false");
        for (i = 0; unbound && i < rep->unbound_hash_count; i++) {
            const char *nm = unbound_name(names, unbound[i]);
            printf("%s{\"hash\": \"0x%08X\", \"name\": ", i ? ", " : "", (unsigned)unbound[i]);
            if (nm) json_string(stdout, nm, strlen(nm)); else printf("null");
            printf("}");
        }
        printf("]}");
        return;
    }
    printf("  binding: %u of %u tracks bound, %u of %u animated bones", (unsigned)rep->bound_tracks,
           (unsigned)rep->track_count, (unsigned)rep->bound_bones, (unsigned)rep->bone_count);
    if (rep->unbound_hash_count)
        printf("; %u %s unbound:", (unsigned)rep->unbound_hash_count, rep->unbound_hash_count == 1 ? "hash" : "hashes");
    for (i = 0; unbound && i < rep->unbound_hash_count && i < 8; i++) {
        const char *nm = unbound_name(names, unbound[i]);
        printf("%s 0x%08X%s%s", i ? "," : "", (unsigned)unbound[i], nm ? " " : "", nm ? nm : "");
    }
    if (rep->unbound_hash_count > 8) printf(", ... (--json lists all)");
    printf("\n");
}

static int sample_on_rig(const plumbob_clip *clip, const char *clip_where, const char *rig_path, float t, int json,
                         const tool_dict *names) {
    tool_input rin;
    tool_rig_res tr;
    plumbob_bone_pose *poses = NULL;
    plumbob_mat34 *model = NULL;
    plumbob_quat *mq = NULL;
    unsigned char *tracked = NULL, *mem = NULL;
    plumbob_arena a;
    plumbob_clip_binding bind;
    uint32_t *hashes = NULL, *unbound = NULL, n, f, k;
    plumbob_clip_bind_report rep;
    size_t mem_size;
    int rc = 1, sampled;
    if (!tool_load_kind(rig_path, PLUMBOB_TYPE_RIG, "--rig", &rin)) return 1;
    if (!tool_rig_decode_or_say(&rin, &tr)) {
        tool_free(&rin);
        return 1;
    }
    n = tr.rig.bone_count;
    mem_size = plumbob_rig_bind_size(clip, &tr.rig) + PLUMBOB_CLIP_BIND_REPORT_SIZE(clip->track_count);
    mem = (unsigned char *)malloc(mem_size);
    poses = (plumbob_bone_pose *)calloc(n + 1u, sizeof *poses);
    model = (plumbob_mat34 *)calloc(n + 1u, sizeof *model);
    mq = (plumbob_quat *)calloc(n + 1u, sizeof *mq);
    tracked = (unsigned char *)calloc(n + 1u, 1);
    hashes = (uint32_t *)calloc(n + 1u, sizeof *hashes);
    if (!poses || !model || !mq || !tracked || !hashes) {
        tool_error(rin.name, "out of memory");
        goto done;
    }
    plumbob_arena_init(&a, mem, mem_size);
    if (plumbob_rig_bind(clip, &tr.rig, NULL, 0, &a, &bind) != PLUMBOB_OK ||
        plumbob_clip_binding_report(&bind, tr.rig.skeleton_name.ptr, tr.rig.skeleton_name.len, &a, NULL, 0, &rep) !=
            PLUMBOB_OK ||
        !(unbound = (uint32_t *)calloc(rep.unbound_hash_count + 1u, sizeof *unbound)) ||
        plumbob_clip_binding_report(&bind, tr.rig.skeleton_name.ptr, tr.rig.skeleton_name.len, &a, unbound,
                                    rep.unbound_hash_count, &rep) != PLUMBOB_OK) {
        tool_error(rin.name, "cannot bind the clip to this rig");
        goto done;
    }
    for (k = 0; k < n; k++) hashes[k] = tr.rig.bones[k].hash;
    {
        char rn[64];
        snprintf(rn, sizeof rn, "%.*s", (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
        tool_warn_pairing(clip, clip_where, hashes, n, rn);
    }
    sampled = tool_rig_sample(clip, &tr.rig, t, poses, model, mq, tracked);
    if (sampled != 1) {
        tool_error(rin.name, sampled == 0 ? "cannot bind the clip to this rig" : "the rig's skeleton is refused");
        goto done;
    }
    if (json) {
        printf("{\"time\": ");
        json_float(stdout, t);
        printf(", \"rig\": ");
        json_string(stdout, tr.rig.skeleton_name.ptr, tr.rig.skeleton_name.len);
        print_binding(&rep, unbound, names, 1);
        printf(", \"bones\": [");
        for (f = 0; f < n; f++) { /* file order, as rig dump lists them */
            const plumbob_rig_bone *b = &tr.rig.bones[f];
            k = tr.rig.skeleton_index[f];
            printf("%s\n  {\"index\": %u, \"name\": ", f ? "," : "", (unsigned)f);
            json_string(stdout, b->name.ptr, b->name.len);
            printf(", \"hash\": \"0x%08X\", \"parent\": %d, \"tracked\": %s, ", (unsigned)b->hash, (int)b->parent,
                   tracked[k] ? "true" : "false");
            json_bone_pose(stdout, &poses[k], &model[k], &mq[k]);
            printf("}");
        }
        printf("]}\n");
    } else {
        printf("%.*s at %.4f s on rig %.*s:\n", (int)clip->name.len, clip->name.ptr, (double)t,
               (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
        print_binding(&rep, unbound, names, 0);
        for (f = 0; f < n; f++) {
            const plumbob_rig_bone *b = &tr.rig.bones[f];
            k = tr.rig.skeleton_index[f];
            printf("  %-28.*s %-7s model (%10.6f %10.6f %10.6f) rotation (%9.6f %9.6f %9.6f %9.6f)\n",
                   (int)b->name.len, b->name.ptr, tracked[k] ? "tracked" : "rest", (double)model[k].m[0][3],
                   (double)model[k].m[1][3], (double)model[k].m[2][3], (double)mq[k].x, (double)mq[k].y,
                   (double)mq[k].z, (double)mq[k].w);
        }
    }
    rc = 0;
done:
    free(mem); free(poses); free(model); free(mq); free(tracked); free(hashes); free(unbound);
    tool_rig_res_free(&tr);
    tool_free(&rin);
    return rc;
}

int cmd_clip(int argc, char **argv) {
    const char *file = NULL, *time_arg = NULL, *frame_arg = NULL, *out_path = NULL, *rig_arg = NULL, *sub;
    const char **lists = (const char **)calloc((size_t)argc + 1u, sizeof *lists); /* --track or --rig values */
    const char **name_rigs = (const char **)calloc((size_t)argc + 1u, sizeof *name_rigs); /* dump/plot --rig */
    const char **files = (const char **)calloc((size_t)argc + 1u, sizeof *files); /* export --all inputs */
    const char **geoms = (const char **)calloc((size_t)argc + 1u, sizeof *geoms); /* export --geom meshes */
    int json = 0, i, rc = 0, nl = 0, nr = 0, all = 0, gltf_text = 0, nf = 0, ng = 0;
    tool_dict names;
    tool_input in;
    tool_clip tc;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        free(lists); free(name_rigs); free(files); free(geoms);
        return usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    }
    sub = argv[1];
    if (strcmp(sub, "import") == 0) {
        free(lists); free(name_rigs); free(files); free(geoms);
        return import_clip(argc, argv);
    }
    if (strcmp(sub, "diff") == 0) {
        free(lists); free(name_rigs); free(files); free(geoms);
        return clip_diff(argc, argv);
    }
    if (strcmp(sub, "blend") == 0) {
        free(lists); free(name_rigs); free(files); free(geoms);
        return clip_blend(argc, argv);
    }
    if (strcmp(sub, "dump") != 0 && strcmp(sub, "sample") != 0 && strcmp(sub, "plot") != 0 && strcmp(sub, "export") != 0) {
        tool_error("clip", "unknown subcommand '%s'", sub);
        free(lists); free(name_rigs); free(files); free(geoms);
        return usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && (!strcmp(sub, "dump") || !strcmp(sub, "sample"))) json = 1;
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && !strcmp(sub, "sample")) time_arg = argv[++i];
        else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc && !strcmp(sub, "sample")) frame_arg = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && (!strcmp(sub, "plot") || !strcmp(sub, "export"))) out_path = argv[++i];
        else if (strcmp(argv[i], "--track") == 0 && i + 1 < argc && !strcmp(sub, "plot")) lists[nl++] = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && !strcmp(sub, "export")) lists[nl++] = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && !strcmp(sub, "sample") && !rig_arg) rig_arg = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && (!strcmp(sub, "dump") || !strcmp(sub, "plot")))
            name_rigs[nr++] = argv[++i];
        else if (strcmp(argv[i], "--geom") == 0 && i + 1 < argc && !strcmp(sub, "export")) geoms[ng++] = argv[++i];
        else if (strcmp(argv[i], "--all") == 0 && !strcmp(sub, "export")) all = 1;
        else if (strcmp(argv[i], "--gltf") == 0 && !strcmp(sub, "export")) gltf_text = 1;
        else if (strcmp(argv[i], "--help") == 0) { free(lists); free(name_rigs); free(files); free(geoms); return usage(stdout, 0); }
        else if (argv[i][0] != '-' && !strcmp(sub, "export")) { files[nf++] = argv[i]; if (!file) file = argv[i]; }
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            free(lists); free(name_rigs); free(files); free(geoms);
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file) {
        tool_error(NULL, "which clip? (plumbob clip %s FILE ...)", sub);
        free(lists); free(name_rigs); free(files); free(geoms);
        return usage(stderr, 2);
    }
    if (strcmp(sub, "sample") == 0 && !time_arg && !frame_arg) {
        tool_error(NULL, "--time SECONDS or --frame N is required");
        free(lists); free(name_rigs); free(files); free(geoms);
        return 2;
    }
    if ((strcmp(sub, "plot") == 0 || strcmp(sub, "export") == 0) && !out_path) {
        tool_error(NULL, strcmp(sub, "plot") == 0 ? "-o OUT.svg is required" : "-o OUT.gltf or OUT.glb is required");
        free(lists); free(name_rigs); free(files); free(geoms);
        return 2;
    }
    if (ng && (all || nf > 1 || gltf_text || nl != 1)) {
        tool_error(NULL, nl != 1 ? "--geom needs one --rig RIG (the Sims 3 rig resource the meshes skin on)"
                                 : "--geom exports one clip: no --all, --gltf or several clips");
        free(lists); free(name_rigs); free(files); free(geoms);
        return 2;
    }
    if (strcmp(sub, "export") == 0 && (all || nf > 1 || gltf_text)) { /* batch: --all FILE... -o DIR */
        export_job job;
        memset(&job, 0, sizeof job);
        job.rigs = lists;
        job.rig_count = nl;
        rc = tool_batch_export(PLUMBOB_TYPE_CLIP, "clip", "clips", files, nf, all, gltf_text, out_path, export_one, &job);
        free(lists); free(name_rigs); free(files); free(geoms);
        return rc;
    }
    if (strcmp(sub, "export") == 0) {
        export_job job;
        job.rigs = lists;
        job.rig_count = nl;
        job.geoms = geoms;
        job.geom_count = ng;
        rc = tool_arg_extension(out_path, ".gltf", ".glb", NULL) ? export_one(file, out_path, &job) : 2;
        free(lists); free(name_rigs); free(files); free(geoms);
        return rc;
    }
    if (!tool_load_kind(file, PLUMBOB_TYPE_CLIP, NULL, &in)) { free(lists); free(name_rigs); free(files); free(geoms); return 1; }
    if (!decode_or_say(&in, &tc)) {
        tool_free(&in);
        free(lists); free(name_rigs); free(files); free(geoms);
        return 1;
    }
    /* names: the built-in list, the clip's own package (KEY table, rigs), rigs given with --rig */
    tool_dict_init(&names);
    if (in.package_data) tool_dict_add_package(&names, in.package_data, in.package_size);
    for (i = 0; i < nr && rc == 0; i++)
        if (!dict_add_rig_arg(&names, name_rigs[i])) rc = 1;
    if (rig_arg && rc == 0) dict_add_rig_arg(&names, rig_arg);
    if (rc != 0) {
        /* a --rig that could not be read: said why already */
    } else if (strcmp(sub, "plot") == 0) {
        rc = clip_plot_svg(&tc.clip, in.name, lists, nl, out_path, &names);
    } else if (strcmp(sub, "dump") == 0) {
        if (json) dump_json(stdout, &tc.clip, &names); else dump_text(stdout, &in, &tc.clip, &names);
    } else {
        double t = 0;
        uint32_t k;
        if (!tool_arg_time(time_arg, frame_arg, (double)tc.clip.frame_duration,
                           (double)plumbob_clip_duration(&tc.clip), &t)) {
            rc = 2;
        } else if (rig_arg) {
            rc = sample_on_rig(&tc.clip, in.name, rig_arg, (float)t, json, &names);
        } else if (json) {
            printf("{\"time\": ");
            json_float(stdout, (float)t);
            printf(", \"tracks\": [");
            for (k = 0; k < tc.clip.track_count; k++) {
                float v[4] = {0, 0, 0, 0};
                const plumbob_clip_track *tk = &tc.clip.tracks[k];
                const char *nm = tool_dict_track(&names, tk->hash, tk->target == PLUMBOB_CLIP_TARGET_MORPH);
                (void)plumbob_clip_sample_track(&tc.clip, k, (float)t, v); /* k < track_count: never fails */
                printf("%s\n  {\"hash\": \"0x%08X\", ", k ? "," : "", (unsigned)tk->hash);
                if (nm) {
                    printf("\"name\": ");
                    json_string(stdout, nm, strlen(nm));
                    printf(", ");
                }
                printf("\"target\": \"%s\", \"value\": ", tool_clip_target_name(tk->target));
                json_floats(stdout, v, tc.clip.tracks[k].components);
                printf("}");
            }
            printf("]}\n");
        } else {
            printf("%s at %.4f s:\n", in.name, t);
            for (k = 0; k < tc.clip.track_count; k++) {
                float v[4] = {0, 0, 0, 0};
                unsigned j;
                const char *nm = tool_dict_track(&names, tc.clip.tracks[k].hash,
                                                 tc.clip.tracks[k].target == PLUMBOB_CLIP_TARGET_MORPH);
                (void)plumbob_clip_sample_track(&tc.clip, k, (float)t, v); /* k < track_count: never fails */
                printf("  0x%08X %-11s", (unsigned)tc.clip.tracks[k].hash, tool_clip_target_name(tc.clip.tracks[k].target));
                if (nm) printf(" %-24s", nm);
                for (j = 0; j < tc.clip.tracks[k].components; j++) printf(" %10.6f", (double)v[j]);
                printf("\n");
            }
        }
    }
    tool_dict_free(&names);
    tool_clip_free(&tc);
    tool_free(&in);
    free(lists); free(name_rigs); free(files); free(geoms);
    return rc;
}
