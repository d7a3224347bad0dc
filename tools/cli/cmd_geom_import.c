/* plumbob geom import: a skinned glTF mesh back to a Sims 3 GEOM, its
 * influences named by the rig's bone hashes; --like carries what glTF does
 * not hold (element table, material, TGIs, merge group, sort order, vertex
 * ids) from the original. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/ascii.h"
#include "util/bytes.h"
#include "util/files.h"
#include "commands.h"
#include "gltf_output.h"
#include "tool_args.h"
#include "tool_geom.h"
#include "tool_input.h"
#include "gltf/gltf_import.h"
#include "gltf/gltf_read.h"

/* The element table of a GEOM made without --like: what real files hold,
 * in their order (the data types as real files store them). */
static const plumbob_geom_element plain_elements[] = {
    {PLUMBOB_GEOM_POSITION, 1, 12, 0}, {PLUMBOB_GEOM_NORMAL, 1, 12, 0}, {PLUMBOB_GEOM_UV, 1, 8, 0},
    {PLUMBOB_GEOM_ASSIGNMENT, 2, 4, 0}, {PLUMBOB_GEOM_WEIGHTS, 1, 16, 0}, {PLUMBOB_GEOM_TANGENT, 1, 12, 0},
};

/* The bone hash of skin joint k: the rig bone of its name (ASCII case
 * ignored), else a 0xHASH name (how export names a bone the rig lacks),
 * else FNV-32 of the name, counted in *unknown. */
static uint32_t joint_hash(const plumbob_rig *rig, const char *name, uint32_t *unknown) {
    uint32_t f;
    uint64_t h;
    size_t len = strlen(name);
    for (f = 0; f < rig->bone_count; f++)
        if (tool_ascii_ieq(rig->bones[f].name.ptr, rig->bones[f].name.len, name) && len == rig->bones[f].name.len)
            return rig->bones[f].hash;
    if (len == 10 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X') && tool_parse_hex(name + 2, 8, &h))
        return (uint32_t)h;
    (*unknown)++;
    return plumbob_fnv32_str(name);
}

/* Slot of hash in the bone list, appending it (at most 255); -1 when full. */
static int32_t bone_slot(uint32_t *bones, uint32_t *count, uint32_t hash) {
    uint32_t k;
    for (k = 0; k < *count; k++)
        if (bones[k] == hash) return (int32_t)k;
    if (*count >= PLUMBOB_GEOM_MAX_BONES) return -1;
    bones[*count] = hash;
    return (int32_t)(*count)++;
}

/* Vertex v's bytes for element e: the imported stream of its usage (nth:
 * which UV), else the --like mesh's bytes when its vertex count matches,
 * else zeros. */
static void put_element(unsigned char *dst, const plumbob_geom_element *e, uint32_t nth, const geom_import *gi,
                        uint32_t v, const unsigned char *slots, const plumbob_geom *like, int same_count) {
    const float *src = NULL;
    uint32_t k, comps = 0;
    memset(dst, 0, e->size);
    switch (e->usage) {
    case PLUMBOB_GEOM_POSITION: src = gi->pos + 3u * v; comps = 3; break;
    case PLUMBOB_GEOM_NORMAL: src = gi->nrm ? gi->nrm + 3u * v : NULL; comps = 3; break;
    case PLUMBOB_GEOM_TANGENT: src = gi->tan ? gi->tan + 3u * v : NULL; comps = 3; break;
    case PLUMBOB_GEOM_UV: src = gi->uv && nth == 0 ? gi->uv + 2u * v : NULL; comps = 2; break;
    case PLUMBOB_GEOM_WEIGHTS: src = gi->w ? gi->w + 4u * v : NULL; comps = 4; break;
    case PLUMBOB_GEOM_ASSIGNMENT:
        if (gi->jnt) {
            memcpy(dst, slots + 4u * v, 4);
            return;
        }
        break;
    }
    if (src) {
        for (k = 0; k < comps && 4u * k + 4u <= e->size; k++) tool_put_f32le(dst + 4u * k, src[k]);
        return;
    }
    if (like && same_count) { /* another UV set, tags, vertex ids: the original's */
        const plumbob_geom_element *le = plumbob_geom_find_element(like, e->usage, nth);
        if (le && le->size == e->size) memcpy(dst, like->vertices + (size_t)v * like->vertex_stride + le->offset, e->size);
    }
}

static int import_usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob geom import IN.glb|IN.gltf -o OUT.simgeom --rig RIG [--like MESH]\n"
               "  The first glTF node with a mesh (every triangle primitive of it) as a GEOM:\n"
               "  positions, normals, TEXCOORD_0, tangents (xyz), and JOINTS_0/WEIGHTS_0 on the\n"
               "  node's skin: each joint the RIG bone of its name (0xHASH names as they are),\n"
               "  4 influences at most, renormalized to sum 1.  --like MESH (the original GEOM)\n"
               "  carries its element table, material block, TGI table, merge group and sort\n"
               "  order, keeps its bone list's order, and its vertex ids, tags and further UV\n"
               "  sets when the vertex count matches; without it a minimal GEOM (no material).\n"
               "  example: plumbob geom import edited.glb --rig auRig.rig --like body.simgeom -o body.simgeom\n");
    return rc;
}

int import_geom(int argc, char **argv) {
    const char *in_path = NULL, *out_path = NULL, *rig_path = NULL, *like_path = NULL;
    tool_input in, rin;
    tool_rig_res tr;
    tool_geom like;
    gltf_doc doc;
    geom_import gi;
    plumbob_geom g, check;
    plumbob_geom_element *elements = NULL;
    plumbob_geom_tgi plain_tgi = {PLUMBOB_GEOM_TYPE_SKIN_CONTROLLER, 0, 0};
    uint32_t *bones = NULL, *joint_of = NULL, unknown = 0, k, v, nth[16], stride = 0;
    unsigned char *slots = NULL, *verts = NULL, *idx = NULL, *bytes = NULL, *check_mem = NULL;
    int i, rc, have_like = 0, same_count = 0;
    char why[300];
    size_t need, got;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) return import_usage(stdout, 0);
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--rig") == 0 || strcmp(argv[i], "--like") == 0) &&
            i + 1 >= argc) {
            tool_error(NULL, "%s needs a value", argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "-o") == 0 && !out_path) out_path = argv[++i];
        else if (strcmp(argv[i], "--rig") == 0 && !rig_path) rig_path = argv[++i];
        else if (strcmp(argv[i], "--like") == 0 && !like_path) like_path = argv[++i];
        else if (argv[i][0] != '-' && !in_path) in_path = argv[i];
        else return tool_bad_argument(argc, argv, i);
    }
    if (in_path && out_path && !rig_path) {
        tool_error(NULL, "--rig RIG is required (the Sims 3 rig whose bone hashes the mesh's joints become)");
        return 2;
    }
    if ((rc = tool_load_gltf(in_path, out_path, NULL, ".simgeom", &in, &doc)) != 0) return rc;
    rc = 1;
    memset(&gi, 0, sizeof gi);
    if (!tool_geom_rig_load(rig_path, &rin, &tr)) {
        gltf_doc_free(&doc);
        tool_free(&in);
        return 1;
    }
    if (like_path) {
        if (!tool_geom_load(like_path, "--like", &like)) goto done;
        have_like = 1;
    }
    if (!gltf_import_geom(&doc, &gi, why, sizeof why)) {
        tool_error(in.name, "%s", why);
        goto done;
    }
    same_count = have_like && like.geom.vertex_count == gi.n;
    /* the bone list: the original's order first, then the hashes only the glTF uses */
    bones = (uint32_t *)calloc(PLUMBOB_GEOM_MAX_BONES + 1u, sizeof *bones);
    joint_of = (uint32_t *)calloc(gi.joint_count + 1u, sizeof *joint_of);
    slots = (unsigned char *)calloc(4u * (size_t)gi.n + 4u, 1);
    if (!bones || !joint_of || !slots) goto oom;
    memset(&g, 0, sizeof g);
    if (have_like) {
        for (k = 0; k < like.geom.bone_count; k++) bones[k] = like.geom.bone_hashes[k];
        g.bone_count = like.geom.bone_count;
    }
    for (k = 0; k < gi.joint_count; k++) joint_of[k] = joint_hash(&tr.rig, gi.joint_name[k], &unknown);
    for (v = 0; gi.jnt && v < 4u * gi.n; v++) {
        int32_t s = 0;
        if (gi.w[v] > 0.0f && (s = bone_slot(bones, &g.bone_count, joint_of[gi.jnt[v]])) < 0) {
            tool_error(in.name, "the mesh's influences name more than %u bones (a GEOM's bone list holds %u)",
                       (unsigned)PLUMBOB_GEOM_MAX_BONES, (unsigned)PLUMBOB_GEOM_MAX_BONES);
            goto done;
        }
        slots[v] = (unsigned char)s;
    }
    /* the element table: the original's, or the plain one (streams the glTF lacks left out) */
    if (have_like) {
        g.element_count = like.geom.element_count;
        elements = (plumbob_geom_element *)calloc(g.element_count + 1u, sizeof *elements);
        if (!elements) goto oom;
        memcpy(elements, like.geom.elements, sizeof *elements * g.element_count);
    } else {
        elements = (plumbob_geom_element *)calloc(sizeof plain_elements / sizeof plain_elements[0], sizeof *elements);
        if (!elements) goto oom;
        for (k = 0; k < sizeof plain_elements / sizeof plain_elements[0]; k++) {
            uint32_t u = plain_elements[k].usage;
            if ((u == PLUMBOB_GEOM_NORMAL && !gi.nrm) || (u == PLUMBOB_GEOM_UV && !gi.uv) ||
                (u == PLUMBOB_GEOM_TANGENT && !gi.tan) || ((u == PLUMBOB_GEOM_ASSIGNMENT || u == PLUMBOB_GEOM_WEIGHTS) && !gi.jnt))
                continue;
            elements[g.element_count++] = plain_elements[k];
        }
    }
    for (k = 0; k < g.element_count; k++) {
        elements[k].offset = stride;
        stride += elements[k].size;
    }
    verts = (unsigned char *)malloc((size_t)stride * gi.n + 1u);
    idx = (unsigned char *)malloc(4u * (size_t)gi.ni + 1u);
    if (!verts || !idx) goto oom;
    for (v = 0; v < gi.n; v++) {
        memset(nth, 0, sizeof nth);
        for (k = 0; k < g.element_count; k++) {
            uint32_t u = elements[k].usage < 16u ? elements[k].usage : 15u;
            put_element(verts + (size_t)v * stride + elements[k].offset, &elements[k], nth[u]++, &gi, v, slots,
                        have_like ? &like.geom : NULL, same_count);
        }
    }
    if (have_like) { /* the RCOL wrapper, version, material, TGIs and the rest as the original has them */
        g.rcol_version = like.geom.rcol_version;
        g.rcol_public_count = like.geom.rcol_public_count;
        g.rcol_unused = like.geom.rcol_unused;
        g.rcol_external_count = like.geom.rcol_external_count;
        g.internal_key = like.geom.internal_key;
        g.external_keys = like.geom.external_keys;
        g.version = like.geom.version;
        g.embedded_id = like.geom.embedded_id;
        g.material = like.geom.material;
        g.material_size = like.geom.material_size;
        g.merge_group = like.geom.merge_group;
        g.sort_order = like.geom.sort_order;
        g.item_count = like.geom.item_count;
        g.skin_controller = like.geom.skin_controller;
        g.tgi_count = like.geom.tgi_count;
        g.tgis = like.geom.tgis;
    } else {
        g.rcol_version = 3;
        g.version = 5;
        g.item_count = 1;
        g.tgi_count = 1;
        g.tgis = &plain_tgi;
    }
    g.index_size = gi.n <= 65536u && (!have_like || like.geom.index_size == 2) ? 2u : 4u;
    for (k = 0; k < gi.ni; k++) {
        if (g.index_size == 2) tool_put_le16(idx + 2u * k, (uint16_t)gi.idx[k]);
        else tool_put_le32(idx + 4u * k, gi.idx[k]);
    }
    g.vertex_count = gi.n;
    g.elements = elements;
    g.vertex_stride = stride;
    g.vertices = verts;
    g.index_count = gi.ni;
    g.indices = idx;
    g.bone_hashes = bones;
    need = plumbob_geom_write_size(&g);
    bytes = need != SIZE_MAX ? (unsigned char *)malloc(need ? need : 1) : NULL;
    if (!bytes || plumbob_geom_write(&g, bytes, need, &got) != PLUMBOB_OK) {
        tool_error(out_path, "cannot build the GEOM");
        goto done;
    }
    { /* what we write decodes: the decoder's checks on the writer's bytes */
        tool_input tmp;
        plumbob_result r;
        memset(&tmp, 0, sizeof tmp);
        tmp.data = bytes;
        tmp.size = got;
        snprintf(tmp.name, sizeof tmp.name, "%s", out_path);
        tmp.why = tmp.why_text;
        r = tool_geom_decode(&tmp, &check, &check_mem);
        if (r != PLUMBOB_OK) {
            tool_error(out_path, "internal error: the GEOM built does not decode: %s", tool_why(&tmp, r));
            goto done;
        }
    }
    if (!tool_write_file(out_path, bytes, got)) goto done;
    printf("wrote %s (%zu bytes): %u vertices, %u triangles, %u elements, %u bones%s\n", out_path, got, (unsigned)gi.n,
           (unsigned)(gi.ni / 3u), (unsigned)g.element_count, (unsigned)g.bone_count,
           have_like ? (same_count ? ", the rest as the original" : ", the rest as the original (other vertex count: "
                                                                     "no vertex ids, tags or further UV sets carried)")
                     : " (no material: give --like for the original's)");
    if (unknown)
        tool_warning(in.name, "%u joint name%s not in the rig %s: hashed as the names are (FNV-32)", (unsigned)unknown,
                     unknown == 1 ? " is" : "s are", rin.name);
    if (gi.skipped)
        tool_warning(in.name, "%u primitive%s not carried (not triangles, or no POSITION)", (unsigned)gi.skipped,
                     gi.skipped == 1 ? "" : "s");
    if (gi.dropped_influences)
        tool_warning(in.name, "%u vertices had more than 4 influences: the lightest dropped, the rest weighed to sum 1",
                     (unsigned)gi.dropped_influences);
    if (gi.unweighted)
        tool_warning(in.name, "%u skinned vertices have no weight above 0: they keep their rest place",
                     (unsigned)gi.unweighted);
    rc = 0;
    goto done;
oom:
    tool_error(in.name, "out of memory");
done:
    free(bones); free(joint_of); free(slots); free(elements); free(verts); free(idx); free(bytes); free(check_mem);
    geom_import_free(&gi);
    if (have_like) tool_geom_free(&like);
    tool_rig_res_free(&tr);
    tool_free(&rin);
    gltf_doc_free(&doc);
    tool_free(&in);
    return rc;
}
