/* plumbob cres dump, and CRES support for info and check. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_cres.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_output.h"

static const char *kind_name(uint32_t kind) {
    switch (kind) {
    case PLUMBOB_CRES_KIND_RESOURCE: return "resource";
    case PLUMBOB_CRES_KIND_TRANSFORM: return "transform";
    case PLUMBOB_CRES_KIND_SHAPE_REF: return "shape_ref";
    case PLUMBOB_CRES_KIND_DATA_LIST: return "data_list";
    case PLUMBOB_CRES_KIND_BONE_DATA: return "bone_data";
    }
    return "unknown";
}

static uint32_t joints_of(const plumbob_cres_skeleton *sk) {
    uint32_t i, n = 0;
    for (i = 0; i < sk->skeleton.bone_count; i++) n += sk->joint_of_bone[i] != PLUMBOB_CRES_NO_JOINT;
    return n;
}

int cres_info(const tool_input *in, FILE *out) {
    tool_cres tc;
    plumbob_result r = tool_cres_decode(in, &tc);
    const plumbob_cres_resource *res;
    if (r != PLUMBOB_OK) {
        tool_error(in->name, "not a valid CRES: %s", tool_why(in, r));
        return 1;
    }
    res = &tc.cres.blocks[0].u.resource;
    fprintf(out, "%s: Sims 2 CRES %.*s, %u blocks, %u links, skin type %u, skeleton of %u bones (%u joints), %zu bytes\n",
            in->name, (int)res->name.len, res->name.ptr, (unsigned)tc.cres.block_count,
            (unsigned)tc.cres.rcol.link_count, (unsigned)res->skin_type, (unsigned)tc.sk.skeleton.bone_count,
            (unsigned)joints_of(&tc.sk), in->size);
    free(tc.mem);
    free(tc.sk_mem);
    return 0;
}

plumbob_result cres_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    tool_cres tc;
    plumbob_result r = tool_cres_decode(in, &tc);
    if (r == PLUMBOB_OK) {
        size_t ws = plumbob_cres_write_size(&tc.cres);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_cres_write(&tc.cres, *out, ws, out_size);
        free(tc.mem);
        free(tc.sk_mem);
    }
    return r;
}

static const plumbob_cres_node *node_of(const plumbob_cres_block *b) {
    switch (b->kind) {
    case PLUMBOB_CRES_KIND_RESOURCE: return &b->u.resource.node;
    case PLUMBOB_CRES_KIND_TRANSFORM: return &b->u.transform.node;
    case PLUMBOB_CRES_KIND_SHAPE_REF: return &b->u.shape_ref.transform.node;
    }
    return NULL;
}

static void refs_json(FILE *out, const plumbob_cres_ref *v, uint32_t n) {
    uint32_t i;
    fputc('[', out);
    for (i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        if (!v[i].present) fputs("null", out);
        else fprintf(out, "{\"%s\": %u}", v[i].external ? "link" : "block", (unsigned)v[i].index);
    }
    fputc(']', out);
}

static void pose_json(FILE *out, const plumbob_bone_pose *p) {
    float r[4], t[3];
    r[0] = p->rotation.x; r[1] = p->rotation.y; r[2] = p->rotation.z; r[3] = p->rotation.w;
    t[0] = p->translation.x; t[1] = p->translation.y; t[2] = p->translation.z;
    fputs("\"translation\": ", out);
    json_floats(out, t, 3);
    fputs(", \"rotation\": ", out);
    json_floats(out, r, 4);
}

static void dump_json(FILE *out, const tool_cres *tc) {
    const plumbob_cres *c = &tc->cres;
    const plumbob_cres_skeleton *sk = &tc->sk;
    uint32_t i;
    fputs("{\"name\": ", out);
    json_string(out, c->blocks[0].u.resource.name.ptr, c->blocks[0].u.resource.name.len);
    fprintf(out, ", \"skin_type\": %u, \"links\": [", (unsigned)c->blocks[0].u.resource.skin_type);
    for (i = 0; i < c->rcol.link_count; i++) {
        plumbob_sims2_link l;
        plumbob_sims2_rcol_link(&c->rcol, i, &l);
        fprintf(out, "%s{\"type\": \"0x%08X\", \"group\": \"0x%08X\", \"instance\": \"0x%08X%08X\"}", i ? ", " : "",
                (unsigned)l.type, (unsigned)l.group, (unsigned)l.instance_hi, (unsigned)l.instance);
    }
    fputs("],\n \"blocks\": [", out);
    for (i = 0; i < c->block_count; i++) {
        const plumbob_cres_block *b = &c->blocks[i];
        const plumbob_cres_node *n = node_of(b);
        fprintf(out, "%s\n  {\"class\": ", i ? "," : "");
        json_string(out, b->head.name.ptr, b->head.name.len);
        fprintf(out, ", \"id\": \"0x%08X\", \"version\": %u, \"kind\": \"%s\"", (unsigned)b->head.id,
                (unsigned)b->head.version, kind_name(b->kind));
        if (n) {
            fputs(", \"tag\": ", out);
            json_string(out, n->tag.ptr, n->tag.len);
            fputs(", \"extensions\": ", out);
            refs_json(out, n->extensions, n->extension_count);
            fputs(", \"children\": ", out);
            refs_json(out, n->children, n->child_count);
        }
        if (b->kind == PLUMBOB_CRES_KIND_TRANSFORM || b->kind == PLUMBOB_CRES_KIND_SHAPE_REF) {
            const plumbob_cres_transform *t =
                b->kind == PLUMBOB_CRES_KIND_TRANSFORM ? &b->u.transform : &b->u.shape_ref.transform;
            plumbob_bone_pose p;
            p.rotation = t->rotation;
            p.translation = t->translation;
            fputs(", ", out);
            pose_json(out, &p);
            if (t->joint == PLUMBOB_CRES_NO_JOINT) fputs(", \"joint\": null", out);
            else fprintf(out, ", \"joint\": %u", (unsigned)t->joint);
        }
        if (b->kind == PLUMBOB_CRES_KIND_SHAPE_REF) {
            fputs(", \"shapes\": ", out);
            refs_json(out, b->u.shape_ref.shapes, b->u.shape_ref.shape_count);
        }
        if (b->kind == PLUMBOB_CRES_KIND_DATA_LIST) {
            fputs(", \"item\": ", out);
            json_string(out, b->u.data_list.item_name.ptr, b->u.data_list.item_name.len);
            fprintf(out, ", \"item_type\": %u, \"items\": %u", (unsigned)b->u.data_list.item_type,
                    (unsigned)b->u.data_list.item_count);
        }
        if (b->kind == PLUMBOB_CRES_KIND_UNKNOWN) fprintf(out, ", \"bytes\": %zu", b->u.raw.size);
        fputc('}', out);
    }
    fputs("],\n \"bones\": [", out);
    for (i = 0; i < sk->skeleton.bone_count; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        json_string(out, sk->skeleton.name[i].ptr, sk->skeleton.name[i].len);
        fprintf(out, ", \"parent\": %d, \"block\": %u, ", (int)sk->skeleton.parent[i], (unsigned)sk->block_of_bone[i]);
        if (sk->joint_of_bone[i] == PLUMBOB_CRES_NO_JOINT) fputs("\"joint\": null, ", out);
        else fprintf(out, "\"joint\": %u, ", (unsigned)sk->joint_of_bone[i]);
        pose_json(out, &sk->skeleton.rest[i]);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

static void dump_text(FILE *out, const tool_input *in, const tool_cres *tc) {
    const plumbob_cres_skeleton *sk = &tc->sk;
    uint32_t i;
    cres_info(in, out);
    for (i = 0; i < tc->cres.block_count; i++) {
        const plumbob_cres_block *b = &tc->cres.blocks[i];
        const plumbob_cres_node *n = node_of(b);
        fprintf(out, "  block %u %.*s (0x%08X, version %u)", (unsigned)i, (int)b->head.name.len, b->head.name.ptr,
                (unsigned)b->head.id, (unsigned)b->head.version);
        if (n && n->tag.len) fprintf(out, " %.*s", (int)n->tag.len, n->tag.ptr);
        if (n && n->child_count) fprintf(out, ", %u children", (unsigned)n->child_count);
        if (b->kind == PLUMBOB_CRES_KIND_DATA_LIST)
            fprintf(out, " %.*s", (int)b->u.data_list.item_name.len, b->u.data_list.item_name.ptr);
        if (b->kind == PLUMBOB_CRES_KIND_UNKNOWN) fprintf(out, ", not decoded (%zu bytes kept)", b->u.raw.size);
        fputc('\n', out);
    }
    for (i = 0; i < sk->skeleton.bone_count; i++) {
        uint32_t depth = 0;
        int32_t p = sk->skeleton.parent[i];
        const plumbob_bone_pose *r = &sk->skeleton.rest[i];
        while (p >= 0 && depth < 64) { depth++; p = sk->skeleton.parent[p]; }
        fprintf(out, "  bone %3u %*s%.*s", (unsigned)i, (int)(2 * depth), "", (int)sk->skeleton.name[i].len,
                sk->skeleton.name[i].ptr);
        if (sk->joint_of_bone[i] != PLUMBOB_CRES_NO_JOINT) fprintf(out, "  joint %u", (unsigned)sk->joint_of_bone[i]);
        fprintf(out, "  t (%.4g, %.4g, %.4g)  q (%.4g, %.4g, %.4g, %.4g)\n", (double)r->translation.x,
                (double)r->translation.y, (double)r->translation.z, (double)r->rotation.x, (double)r->rotation.y,
                (double)r->rotation.z, (double)r->rotation.w);
    }
}

static int cres_usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob cres dump FILE [--json]\n"
               "  The blocks of a Sims 2 CRES (resource node, transform nodes, shape reference\n"
               "  nodes, extensions) and the skeleton they make: every transform and shape\n"
               "  reference node as a bone, parents before children, with its name, the GMDC\n"
               "  joint it stands for, and its local rest translation and rotation (Z-up).\n"
               "  FILE is a CRES resource or PACKAGE@INSTANCE.\n"
               "  example: plumbob cres dump teapot_model.package@45BCF2F5FF59CF52 --json\n");
    return rc;
}

int cmd_cres(int argc, char **argv) {
    const char *file = NULL;
    int json = 0, i;
    tool_cres tc;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) return cres_usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    if (strcmp(argv[1], "dump") != 0) {
        tool_error("cres", "unknown subcommand '%s'", argv[1]);
        return cres_usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) return cres_usage(stdout, 0);
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file) {
        tool_error("cres", "which resource node? (see plumbob cres --help)");
        return 2;
    }
    if (!tool_cres_load(file, NULL, &tc)) return 1;
    if (json) dump_json(stdout, &tc);
    else dump_text(stdout, &tc.in, &tc);
    tool_cres_free(&tc);
    return 0;
}
