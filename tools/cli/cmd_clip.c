/* plumbob clip dump / clip sample, and CLIP support for info and check. */
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "gltf/gltf_export.h"

plumbob_result tool_clip_decode(const tool_input *in, tool_clip *tc) {
    size_t need;
    plumbob_arena a;
    plumbob_result r = plumbob_clip_measure(in->data, in->size, &need);
    memset(tc, 0, sizeof *tc);
    if (r == PLUMBOB_OK) {
        tc->arena_mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, tc->arena_mem, need);
        r = plumbob_clip_decode(in->data, in->size, &a, &tc->clip);
    }
    if (r != PLUMBOB_OK) {
        free(tc->arena_mem);
        tc->arena_mem = NULL;
    }
    return r;
}

/* tool_clip_decode, saying why on failure; returns 0 then. */
static int decode_or_say(const tool_input *in, tool_clip *tc) {
    plumbob_result r = tool_clip_decode(in, tc);
    if (r != PLUMBOB_OK) tool_error(in->name, "not a valid CLIP: %s", plumbob_result_str(r));
    return r == PLUMBOB_OK;
}

void tool_clip_free(tool_clip *tc) {
    free(tc->arena_mem);
    tc->arena_mem = NULL;
}

static const char *target_name(uint8_t t) {
    switch (t) {
    case PLUMBOB_CLIP_TARGET_TRANSLATION: return "translation";
    case PLUMBOB_CLIP_TARGET_ROTATION: return "rotation";
    case PLUMBOB_CLIP_TARGET_SCALE: return "scale";
    case PLUMBOB_CLIP_TARGET_MORPH: return "morph";
    }
    return "unknown";
}

static const char *event_name(uint16_t t) {
    switch (t) {
    case PLUMBOB_CLIP_EVENT_ATTACH: return "attach";
    case PLUMBOB_CLIP_EVENT_UNPARENT: return "unparent";
    case PLUMBOB_CLIP_EVENT_SOUND: return "sound";
    case PLUMBOB_CLIP_EVENT_SCRIPT: return "script";
    case PLUMBOB_CLIP_EVENT_EFFECT: return "effect";
    case PLUMBOB_CLIP_EVENT_VISIBILITY: return "visibility";
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP: return "destroy_prop";
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT: return "stop_effect";
    }
    return "unknown";
}

static void json_event(FILE *out, const plumbob_clip_event *e) {
    fprintf(out, "{\"type\": %u, \"kind\": \"%s\", \"id\": %u, \"time\": ", (unsigned)e->type,
            event_name(e->type), (unsigned)e->id);
    json_float(out, e->time);
    fputs(", \"name\": ", out);
    json_string(out, e->name.ptr, e->name.len);
    switch (e->type) {
    case PLUMBOB_CLIP_EVENT_ATTACH:
        fprintf(out, ", \"prop\": \"0x%08X\", \"object\": \"0x%08X\", \"slot\": \"0x%08X\"",
                (unsigned)e->hash[0], (unsigned)e->hash[1], (unsigned)e->hash[2]);
        break;
    case PLUMBOB_CLIP_EVENT_UNPARENT:
        fprintf(out, ", \"object\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP:
        fprintf(out, ", \"prop\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    case PLUMBOB_CLIP_EVENT_SOUND:
        fputs(", \"sound\": ", out);
        json_string(out, e->sound.ptr, e->sound.len);
        break;
    case PLUMBOB_CLIP_EVENT_EFFECT:
        fprintf(out, ", \"effect\": \"0x%08X\", \"actor\": \"0x%08X\", \"bone\": \"0x%08X\"",
                (unsigned)e->hash[2], (unsigned)e->hash[3], (unsigned)e->hash[4]);
        break;
    case PLUMBOB_CLIP_EVENT_VISIBILITY:
        fputs(", \"visibility\": ", out);
        json_float(out, e->visibility);
        break;
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT:
        fprintf(out, ", \"effect\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    default:
        break;
    }
    fputc('}', out);
}

static void dump_json(FILE *out, const plumbob_clip *c) {
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
        fprintf(out, "%s\n  {\"hash\": \"0x%08X\", \"target\": \"%s\", \"type\": \"0x%04X\", \"offset\": ",
                i ? "," : "", (unsigned)t->hash, target_name(t->target), (unsigned)t->type);
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
        json_event(out, &c->events[i]);
    }
    fprintf(out, "],\n \"events_complete\": %s}\n", c->events_complete ? "true" : "false");
}

static void dump_text(FILE *out, const tool_input *in, const plumbob_clip *c) {
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
    fprintf(f, "usage: plumbob clip dump FILE [--json]\n"
               "       plumbob clip sample FILE --time SECONDS [--json]\n"
               "       plumbob clip plot FILE [--track HASH_OR_NAME ...] -o OUT.svg\n"
               "       plumbob clip export FILE -o OUT.gltf|OUT.glb [--rig RIG.txt] [--rig MESH]\n"
               "  dump: everything in the clip (with --json: name, source, actor, frame_duration,\n"
               "        ticks, tracks with every key, slots, events, events_complete).\n"
               "  sample: every track's value at SECONDS, after interpolation.\n"
               "  plot: the chosen tracks (all without --track) over time: rotations as Euler\n"
               "        angles in degrees, translations, morph weights; keys marked.\n"
               "  export: a glTF animation, one LINEAR channel per track.  RIG.txt names the\n"
               "        bones (`NAME [PARENT]` per line; tracks match FNV-32 of the name);\n"
               "        MESH, a GMDC, adds the skinned mesh (its joints in RIG.txt order) and\n"
               "        drives its morph targets.  Tracks of unnamed bones get nodes named 0xHASH.\n"
               "  FILE is a CLIP resource or PACKAGE@INSTANCE.\n"
               "  example: plumbob clip sample EWBreastfeed.package@3D40CC19DAAFD164 --time 1.5 --json\n"
               "  example: plumbob clip plot walk.clip --track b__Spine0__ -o walk.svg\n"
               "  example: plumbob clip export walk.clip --rig rig.txt --rig body.gmdc -o walk.glb\n");
    return rc;
}

/* clip export: the clip with an optional rig list and mesh. */
static int export_clip(const plumbob_clip *clip, const char *const *rigs, int rig_count, const char *out_path) {
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
    src.clip = clip;
    src.rig = have_rig ? &rig : NULL;
    src.mesh = mesh_mem ? &mesh : NULL;
    rc = tool_write_gltf(out_path, &src);
done:
    free(mesh_mem);
    tool_free(&mesh_in);
    tool_rig_free(&rig);
    return rc;
}

int cmd_clip(int argc, char **argv) {
    const char *file = NULL, *time_arg = NULL, *out_path = NULL, *sub;
    const char **lists = (const char **)calloc((size_t)argc + 1u, sizeof *lists); /* --track or --rig values */
    int json = 0, i, rc = 0, nl = 0;
    tool_input in;
    tool_clip tc;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        free(lists);
        return usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    }
    sub = argv[1];
    if (strcmp(sub, "dump") != 0 && strcmp(sub, "sample") != 0 && strcmp(sub, "plot") != 0 && strcmp(sub, "export") != 0) {
        tool_error("clip", "unknown subcommand '%s'", sub);
        free(lists);
        return usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && (!strcmp(sub, "dump") || !strcmp(sub, "sample"))) json = 1;
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && !strcmp(sub, "sample")) time_arg = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && (!strcmp(sub, "plot") || !strcmp(sub, "export"))) out_path = argv[++i];
        else if (strcmp(argv[i], "--track") == 0 && i + 1 < argc && !strcmp(sub, "plot")) lists[nl++] = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && !strcmp(sub, "export")) lists[nl++] = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) { free(lists); return usage(stdout, 0); }
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            tool_error("clip", "unexpected argument '%s' for clip %s", argv[i], sub);
            free(lists);
            return usage(stderr, 2);
        }
    }
    if (!file) {
        tool_error("clip", "which clip?");
        free(lists);
        return usage(stderr, 2);
    }
    if (strcmp(sub, "sample") == 0 && !time_arg) {
        tool_error("clip sample", "--time SECONDS is required");
        free(lists);
        return 2;
    }
    if ((strcmp(sub, "plot") == 0 || strcmp(sub, "export") == 0) && !out_path) {
        tool_error("clip", strcmp(sub, "plot") == 0 ? "plot needs -o OUT.svg" : "export needs -o OUT.gltf or OUT.glb");
        free(lists);
        return 2;
    }
    if (!tool_load(file, &in)) { free(lists); return 1; }
    if (!decode_or_say(&in, &tc)) {
        tool_free(&in);
        free(lists);
        return 1;
    }
    if (strcmp(sub, "plot") == 0) {
        rc = clip_plot_svg(&tc.clip, in.name, lists, nl, out_path);
    } else if (strcmp(sub, "export") == 0) {
        rc = export_clip(&tc.clip, lists, nl, out_path);
    } else if (strcmp(sub, "dump") == 0) {
        if (json) dump_json(stdout, &tc.clip); else dump_text(stdout, &in, &tc.clip);
    } else {
        char *end;
        double t = strtod(time_arg, &end);
        uint32_t k;
        if (*end || end == time_arg) {
            tool_error("clip sample", "--time needs a number of seconds, got '%s'", time_arg);
            rc = 2;
        } else if (json) {
            printf("{\"time\": ");
            json_float(stdout, (float)t);
            printf(", \"tracks\": [");
            for (k = 0; k < tc.clip.track_count; k++) {
                float v[4] = {0, 0, 0, 0};
                (void)plumbob_clip_sample_track(&tc.clip, k, (float)t, v); /* k < track_count: never fails */
                printf("%s\n  {\"hash\": \"0x%08X\", \"target\": \"%s\", \"value\": ", k ? "," : "",
                       (unsigned)tc.clip.tracks[k].hash, target_name(tc.clip.tracks[k].target));
                json_floats(stdout, v, tc.clip.tracks[k].components);
                printf("}");
            }
            printf("]}\n");
        } else {
            printf("%s at %.4f s:\n", in.name, t);
            for (k = 0; k < tc.clip.track_count; k++) {
                float v[4] = {0, 0, 0, 0};
                unsigned j;
                (void)plumbob_clip_sample_track(&tc.clip, k, (float)t, v); /* k < track_count: never fails */
                printf("  0x%08X %-11s", (unsigned)tc.clip.tracks[k].hash, target_name(tc.clip.tracks[k].target));
                for (j = 0; j < tc.clip.tracks[k].components; j++) printf(" %10.6f", (double)v[j]);
                printf("\n");
            }
        }
    }
    tool_clip_free(&tc);
    tool_free(&in);
    free(lists);
    return rc;
}
