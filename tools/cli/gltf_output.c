/* Shared by the export commands: --rig arguments, writing and checking glTF. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/rig.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "gltf/gltf_check.h"
#include "gltf/gltf_export.h"
#include "gltf/gltf_read.h"

/* "1 event" or "2 events" into out. */
static const char *count_of(char *out, size_t cap, uint32_t n, const char *one, const char *many) {
    snprintf(out, cap, "%u %s", (unsigned)n, n == 1 ? one : many);
    return out;
}

/* One warning line for what a clip export put in extras rather than glTF
 * proper, one for what it could not carry at all. */
static void warn_not_carried(const char *source, const gltf_export_src *src, const gltf_export_stats *st) {
    char a[48], b[48], c[48], list[160] = "";
    const char *part[3];
    int n = 0, i;
    if (st->extras_morph_tracks) part[n++] = count_of(a, sizeof a, st->extras_morph_tracks, "morph track", "morph tracks");
    if (st->extras_events) part[n++] = count_of(b, sizeof b, st->extras_events, "event", "events");
    if (st->extras_slots) part[n++] = count_of(c, sizeof c, st->extras_slots, "IK slot", "IK slots");
    for (i = 0; i < n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", part[i]);
    }
    if (n)
        tool_warning(source, "%s %s in the %s extras, not animated (%s%s%s)", list,
                     n == 1 && (st->extras_morph_tracks + st->extras_events + st->extras_slots) == 1 ? "is" : "are",
                     st->extras_on_scene ? "scene's (no channel, so no animation)" : "animation's",
                     st->extras_morph_tracks ? (src->mesh ? "glTF animates morph weights only on a mesh target of the same name"
                                                          : "glTF animates morph weights only on a mesh")
                                             : "",
                     st->extras_morph_tracks && (st->extras_events || st->extras_slots) ? "; " : "",
                     st->extras_events || st->extras_slots ? "glTF has no events or IK slots" : "");
    if (st->events_lost)
        tool_warning(source, "%s after one of a type plumbob does not know %s not carried",
                     count_of(a, sizeof a, st->events_lost, "event", "events"), st->events_lost == 1 ? "is" : "are");
    if (st->anim_unplayed)
        tool_warning(source, "%s of the animation %s nothing in the file (no bone of that name, IK, a second one for a bone, or a morph with no mesh target of its name): %s%s",
                     count_of(a, sizeof a, st->anim_unplayed, "channel", "channels"),
                     st->anim_unplayed == 1 ? "plays" : "play", st->dropped_names, st->anim_unplayed > 3 ? ", ..." : "");
    if (st->anim_events)
        tool_warning(source, "%s of the animation %s not carried (glTF has no events)",
                     count_of(a, sizeof a, st->anim_events, "event", "events"), st->anim_events == 1 ? "is" : "are");
    if (st->dropped_tracks)
        tool_warning(source, "%s left out (%u a second track for a bone and path already animated, %u of an unknown target): %s%s",
                     count_of(a, sizeof a, st->dropped_tracks, "track", "tracks"),
                     (unsigned)(st->dropped_tracks - st->dropped_unknown_target), (unsigned)st->dropped_unknown_target,
                     st->dropped_names, st->dropped_tracks > 3 ? ", ..." : "");
}

int tool_write_gltf(const char *path, const gltf_export_src *src, const char *source) {
    tool_buf out = {0};
    gltf_export_stats st;
    gltf_check_report rep;
    char why[256];
    int binary = tool_ends_with(path, ".glb"), ok;
    if (!binary && !tool_ends_with(path, ".gltf")) {
        tool_error(path, "the output name must end in .gltf or .glb");
        return 1;
    }
    if (!gltf_export_build(src, binary, &out, &st)) {
        tool_error(path, "out of memory while building the glTF");
        tb_free(&out);
        return 1;
    }
    /* every file we write passes our own checker, or we say so and fail */
    if (!gltf_check(out.data, out.size, &rep, why, sizeof why)) {
        tool_error(path, "internal error: the glTF plumbob built fails its own check: %s", why);
        tb_free(&out);
        return 1;
    }
    ok = tool_write_file(path, out.data, out.size);
    if (ok && !tool_quiet()) {
        printf("wrote %s (%zu bytes): %u nodes", path, out.size, (unsigned)rep.nodes);
        if (rep.meshes)
            printf(", %u primitives with %u vertices and %u morph targets, %u joints", (unsigned)rep.primitives,
                   (unsigned)rep.vertices, (unsigned)rep.targets, (unsigned)rep.joints);
        if (rep.animations) printf(", %u animation channels", (unsigned)rep.channels);
        printf("\n");
        if (st.unmatched_tracks)
            printf("  %u animated bones are not in the rig: root nodes, %u named from the name dictionary, %u named 0xHASH (%s%s)\n",
                   (unsigned)st.unmatched_tracks, (unsigned)st.unmatched_named,
                   (unsigned)(st.unmatched_tracks - st.unmatched_named), st.unmatched_names,
                   st.unmatched_tracks > 3 ? ", ..." : "");
        if (source) warn_not_carried(source, src, &st);
    }
    tb_free(&out);
    return ok ? 0 : 1;
}

int tool_load_rig_arg(const char *path, tool_rig *rig, int *have_rig, plumbob_gmdc *mesh, unsigned char **mesh_mem,
                      tool_input *mesh_in) {
    tool_input in;
    plumbob_result r;
    if (!tool_load(path, &in)) return 0;
    if (plumbob_identify(in.data, in.size) == PLUMBOB_FORMAT_RIG) { /* a Sims 3 rig resource */
        tool_rig_res tr;
        int ok;
        if (*have_rig) {
            tool_error(path, "a second rig (give one rig and at most one mesh)");
            tool_free(&in);
            return 0;
        }
        ok = tool_rig_decode_or_say(&in, &tr);
        if (!ok) {
            tool_free(&in);
            return 0;
        }
        ok = tool_rig_from_skeleton(&tr.rig.skeleton, rig); /* the names point into the input: freed after */
        if (ok)
            snprintf(rig->name, sizeof rig->name, "%.*s", (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
        tool_rig_res_free(&tr);
        tool_free(&in);
        if (!ok) tool_error(path, "out of memory");
        *have_rig = ok;
        return ok;
    }
    if (plumbob_identify(in.data, in.size) != PLUMBOB_FORMAT_GMDC) {
        int ok;
        if (!tool_text_not_binary(&in, "--rig", RIG_ARG_WANTS)) {
            tool_free(&in);
            return 0;
        }
        tool_free(&in);
        if (*have_rig) {
            tool_error(path, "a second rig list (give one list and at most one mesh)");
            return 0;
        }
        ok = tool_rig_load(path, rig);
        *have_rig = ok;
        return ok;
    }
    if (*mesh_mem) {
        tool_error(path, "a second mesh (give one list and at most one mesh)");
        tool_free(&in);
        return 0;
    }
    r = tool_gmdc_decode(&in, mesh, mesh_mem);
    if (r != PLUMBOB_OK) {
        tool_error(in.name, "not a valid GMDC: %s", in.why_text[0] ? in.why_text : plumbob_result_str(r));
        tool_free(&in);
        return 0;
    }
    if (!tool_gmdc_drawable(mesh, in.name)) {
        free(*mesh_mem);
        *mesh_mem = NULL;
        tool_free(&in);
        return 0;
    }
    *mesh_in = in;
    mesh_in->why = mesh_in->why_text;
    return 1;
}

int tool_load_gltf(const char *in_path, const char *out_path, const char *package, const char *ext, tool_input *in,
                   gltf_doc *doc) {
    char why[300];
    if (!in_path || (!out_path && !package)) {
        tool_error(NULL, "need IN.glb or IN.gltf and -o OUT%s%s (see plumbob %s --help)", ext, package || (strcmp(ext, ".clip") && strcmp(ext, ".gmdc")) ? "" : " or --package PKG",
                   tool_command());
        return 2;
    }
    if (out_path && !tool_arg_extension(out_path, ext, NULL, NULL)) return 2;
    if (!tool_load(in_path, in)) return 1;
    if (!tool_is_gltf(in)) {
        const char *kind = tool_kind_name(in->data, in->size);
        tool_error(in->name, "is %s%s, not a glTF (.glb or .gltf)", kind ? "a " : "not a file plumbob knows", kind ? kind : "");
        tool_free(in);
        return 1;
    }
    if (!gltf_read(in->data, in->size, in_path, doc, why, sizeof why)) {
        tool_error(in->name, "%s", why);
        gltf_doc_free(doc);
        tool_free(in);
        return 1;
    }
    return 0;
}
/* glTF files (what `gmdc export` and `clip export` write): .glb by its
 * magic, .gltf by its name. */
int tool_is_gltf(const tool_input *in) {
    return (in->size >= 4 && memcmp(in->data, "glTF", 4) == 0) || tool_ends_with(in->name, ".gltf");
}

int tool_check_gltf(const tool_input *in, FILE *out) {
    gltf_check_report rep;
    char why[256];
    if (!gltf_check(in->data, in->size, &rep, why, sizeof why)) {
        tool_error(in->name, "not a valid glTF 2.0 file: %s", why);
        return 1;
    }
    fprintf(out, "ok: valid glTF 2.0 (%s, %zu bytes): %u nodes, %u meshes (%u primitives, %u vertices, %u morph targets), "
                 "%u skins (%u joints), %u animations (%u channels), %u accessors\n",
            rep.binary ? "GLB" : "JSON", in->size, (unsigned)rep.nodes, (unsigned)rep.meshes, (unsigned)rep.primitives,
            (unsigned)rep.vertices, (unsigned)rep.targets, (unsigned)rep.skins, (unsigned)rep.joints,
            (unsigned)rep.animations, (unsigned)rep.channels, (unsigned)rep.accessors);
    return 0;
}
