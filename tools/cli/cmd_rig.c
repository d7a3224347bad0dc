/* plumbob rig dump, and Sims 3 rig support for info and check. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"

static void json_index_list(FILE *out, const int32_t *v, uint32_t n) {
    uint32_t i;
    fputc('[', out);
    for (i = 0; i < n; i++) fprintf(out, i ? ", %d" : "%d", (int)v[i]);
    fputc(']', out);
}

static void dump_json(FILE *out, const plumbob_rig *rig, const plumbob_mat34 *model, const plumbob_quat *mq) {
    uint32_t f, i;
    fprintf(out, "{\"version\": [%u, %u], \"skeleton_name\": ", (unsigned)rig->major, (unsigned)rig->minor);
    json_string(out, rig->skeleton_name.ptr, rig->skeleton_name.len);
    fprintf(out, ", \"reordered\": %s,\n \"bones\": [", rig->reordered ? "true" : "false");
    for (f = 0; f < rig->bone_count; f++) { /* file order; parent and opposite are file indices */
        const plumbob_rig_bone *b = &rig->bones[f];
        uint32_t k = rig->skeleton_index[f];
        fprintf(out, "%s\n  {\"index\": %u, \"name\": ", f ? "," : "", (unsigned)f);
        json_string(out, b->name.ptr, b->name.len);
        fprintf(out, ", \"hash\": \"0x%08X\", \"parent\": %d, \"opposite\": %d, \"flags\": \"0x%08X\", ",
                (unsigned)b->hash, (int)b->parent, (int)b->opposite, (unsigned)b->flags);
        json_bone_pose(out, &rig->skeleton.rest[k], &model[k], &mq[k]);
        fputc('}', out);
    }
    fputs("],\n \"ik_chains\": [", out);
    for (i = 0; i < rig->ik_chain_count; i++) {
        const plumbob_rig_ik_chain *c = &rig->ik_chains[i];
        fprintf(out, "%s\n  {\"bones\": ", i ? "," : "");
        json_index_list(out, c->bones, c->bone_count);
        fputs(", \"info_nodes\": ", out);
        json_index_list(out, c->info_nodes, PLUMBOB_RIG_IK_INFO_NODES);
        fprintf(out, ", \"pole_vector\": %d, \"slot_info\": %d, \"slot_offset\": %d, \"root\": %d}",
                (int)c->pole_vector, (int)c->slot_info, (int)c->slot_offset, (int)c->root);
    }
    fputs("]}\n", out);
}

static void dump_text(FILE *out, const tool_input *in, const plumbob_rig *rig, const plumbob_mat34 *model) {
    uint32_t f, i, k;
    fprintf(out, "%s\n", in->name);
    fprintf(out, "  rig      %.*s (version %u.%u), %u bones, %u IK chains%s\n", (int)rig->skeleton_name.len,
            rig->skeleton_name.ptr, (unsigned)rig->major, (unsigned)rig->minor, (unsigned)rig->bone_count,
            (unsigned)rig->ik_chain_count, rig->reordered ? " (children listed before parents: reordered)" : "");
    fprintf(out, "  %4s %-28s %-10s %6s %6s %-10s %s\n", "bone", "name", "hash", "parent", "mirror", "flags",
            "rest translation / rotation (x y z w) / model translation");
    for (f = 0; f < rig->bone_count; f++) {
        const plumbob_rig_bone *b = &rig->bones[f];
        const plumbob_mat34 *m = &model[rig->skeleton_index[f]];
        fprintf(out, "  %4u %-28.*s 0x%08X %6d %6d 0x%08X (%.4f %.4f %.4f) (%.4f %.4f %.4f %.4f) (%.4f %.4f %.4f)\n",
                (unsigned)f, (int)b->name.len, b->name.ptr, (unsigned)b->hash, (int)b->parent, (int)b->opposite,
                (unsigned)b->flags, (double)b->position.x, (double)b->position.y, (double)b->position.z,
                (double)b->orientation.x, (double)b->orientation.y, (double)b->orientation.z,
                (double)b->orientation.w, (double)m->m[0][3], (double)m->m[1][3], (double)m->m[2][3]);
    }
    for (i = 0; i < rig->ik_chain_count; i++) {
        const plumbob_rig_ik_chain *c = &rig->ik_chains[i];
        fprintf(out, "  IK chain %u: bones", (unsigned)i);
        for (k = 0; k < c->bone_count; k++) fprintf(out, " %d", (int)c->bones[k]);
        fprintf(out, "; pole %d, slot info %d, slot offset %d, root %d\n", (int)c->pole_vector, (int)c->slot_info,
                (int)c->slot_offset, (int)c->root);
    }
}

int rig_info(const tool_input *in, FILE *out) {
    tool_rig_res tr;
    size_t need;
    /* a Granny 2 rig is a known format this build has no decoder for: said
     * as such, exit 0 (docs/TOOL.md, "info") */
    if (plumbob_rig_measure(in->data, in->size, &need) == PLUMBOB_ERR_UNSUPPORTED) {
        fprintf(out, "%s: Sims 3 rig in the Granny 2 format, %zu bytes (this build has no decoder for it)\n",
                in->name, in->size);
        return 0;
    }
    if (!tool_rig_decode_or_say(in, &tr)) return 1;
    fprintf(out, "%s: Sims 3 rig %.*s (version %u.%u), %u bones, %u IK chains, %zu bytes\n", in->name,
            (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr, (unsigned)tr.rig.major, (unsigned)tr.rig.minor,
            (unsigned)tr.rig.bone_count, (unsigned)tr.rig.ik_chain_count, in->size);
    tool_rig_res_free(&tr);
    return 0;
}

plumbob_result rig_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    tool_rig_res tr;
    plumbob_result r = tool_rig_decode(in, &tr);
    size_t ws;
    if (r != PLUMBOB_OK) return r;
    ws = plumbob_rig_write_size(&tr.rig);
    *out = (unsigned char *)malloc(ws ? ws : 1);
    r = plumbob_rig_write(&tr.rig, *out, ws, out_size);
    tool_rig_res_free(&tr);
    return r;
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob rig dump FILE [--json]\n"
               "       plumbob rig ik RIG (--chain N | --bones A,B,C | --aim BONE) --target X,Y,Z ... (rig ik --help)\n"
               "  dump: a Sims 3 rig (0x8EAF13DE): per bone its name, hash, parent, mirror bone,\n"
               "        flags, local rest transform (translation, rotation x y z w, scale) and\n"
               "        model-space rest transform (model_translation, model_rotation); then the\n"
               "        IK chains.  Indices are the file's; bones are listed in file order.\n"
               "  ik: one IK solve (two-bone or aim) on the rig at rest or in a clip's pose,\n"
               "        targets on the command line; rig ik --help says how.\n"
               "  FILE is a rig resource or PACKAGE@INSTANCE.  Granny 2 rigs are refused.\n"
               "  example: plumbob rig dump EWWheatAndFlour.package@005F379F3E61683B --json\n");
    return rc;
}

int cmd_rig(int argc, char **argv) {
    const char *file = NULL;
    int json = 0, i, rc = 1;
    tool_input in;
    tool_rig_res tr;
    plumbob_mat34 *model;
    plumbob_quat *mq;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) return usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    if (strcmp(argv[1], "ik") == 0) return rig_ik(argc, argv);
    if (strcmp(argv[1], "dump") != 0) {
        tool_error("rig", "unknown subcommand '%s'", argv[1]);
        return usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file) {
        tool_error("rig", "which rig?");
        return usage(stderr, 2);
    }
    if (!tool_load_kind(file, PLUMBOB_TYPE_RIG, NULL, &in)) return 1;
    if (!tool_rig_decode_or_say(&in, &tr)) {
        tool_free(&in);
        return 1;
    }
    model = (plumbob_mat34 *)calloc(tr.rig.bone_count + 1u, sizeof *model);
    mq = (plumbob_quat *)calloc(tr.rig.bone_count + 1u, sizeof *mq);
    if (!model || !mq || !tool_skeleton_pose(&tr.rig.skeleton, NULL, model, mq)) {
        tool_error(in.name, "out of memory");
    } else {
        if (json) dump_json(stdout, &tr.rig, model, mq); else dump_text(stdout, &in, &tr.rig, model);
        rc = 0;
    }
    free(model);
    free(mq);
    tool_rig_res_free(&tr);
    tool_free(&in);
    return rc;
}
