/* Sims 3 GEOM meshes for the commands: loading, the rig, the bones a rig
 * lacks, and the glTF export geom export and clip export --geom share. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/namelist.h"
#include "util/rig.h"
#include "gltf_output.h"
#include "tool_decode.h"
#include "tool_geom.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_pairing.h"
#include "gltf/gltf_export.h"

int tool_geom_load(const char *path, const char *opt, tool_geom *tg) {
    plumbob_result r;
    memset(tg, 0, sizeof *tg);
    if (!tool_load_kind(path, PLUMBOB_TYPE_GEOM, opt, &tg->in)) return 0;
    r = tool_geom_decode(&tg->in, &tg->geom, &tg->mem);
    if (r != PLUMBOB_OK) {
        tool_error(tg->in.name, "not a valid GEOM: %s", tool_why(&tg->in, r));
        tool_free(&tg->in);
        return 0;
    }
    return 1;
}

void tool_geom_free(tool_geom *tg) {
    free(tg->mem);
    tg->mem = NULL;
    tool_free(&tg->in);
}

int tool_geom_rig_load(const char *path, tool_input *in, tool_rig_res *tr) {
    if (!tool_load_kind(path, PLUMBOB_TYPE_RIG, "--rig", in)) return 0;
    if (!tool_rig_decode_or_say(in, tr)) {
        tool_free(in);
        return 0;
    }
    return 1;
}

void tool_geom_warn_unbound(const char *where, const plumbob_geom *g, const plumbob_rig *rig) {
    char list[160] = "", hex[16];
    uint32_t k, f, n = 0;
    for (k = 0; k < g->bone_count; k++) {
        for (f = 0; f < rig->bone_count && rig->bones[f].hash != g->bone_hashes[k]; f++) {}
        if (f < rig->bone_count) continue;
        snprintf(hex, sizeof hex, "0x%08X", (unsigned)g->bone_hashes[k]);
        tool_namelist_add(list, sizeof list, hex, 3);
        n++;
    }
    if (n)
        tool_warning(where, "%u of the mesh's %u bone hashes %s not in the rig (their vertices keep their rest place): "
                     "%s%s", (unsigned)n, (unsigned)g->bone_count, n == 1 ? "is" : "are", list, n > 3 ? ", ..." : "");
}

int tool_geom_export(const char *const *meshes, int mesh_count, const char *rig_path, const plumbob_clip *clip,
                     const char *clip_name, const tool_dict *names, const char *out_path) {
    tool_geom *tg = (tool_geom *)calloc((size_t)mesh_count + 1u, sizeof *tg);
    const plumbob_geom **geoms = (const plumbob_geom **)calloc((size_t)mesh_count + 1u, sizeof *geoms);
    const char **geom_names = (const char **)calloc((size_t)mesh_count + 1u, sizeof *geom_names);
    tool_input rin;
    tool_rig_res tr;
    tool_rig rig;
    gltf_export_src src;
    int loaded = 0, have_rig = 0, rc = 1, i;
    memset(&rig, 0, sizeof rig);
    memset(&src, 0, sizeof src);
    if (!tg || !geoms || !geom_names) {
        tool_error(out_path, "out of memory");
        goto done;
    }
    if (!tool_geom_rig_load(rig_path, &rin, &tr)) goto done;
    have_rig = 1;
    if (!tool_rig_from_skeleton(&tr.rig.skeleton, &rig)) {
        tool_error(rin.name, "out of memory");
        goto done;
    }
    snprintf(rig.name, sizeof rig.name, "%.*s", (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
    for (loaded = 0; loaded < mesh_count; loaded++) {
        if (!tool_geom_load(meshes[loaded], NULL, &tg[loaded])) goto done;
        geoms[loaded] = &tg[loaded].geom;
        { /* the mesh node's name: the file's, without its folders */
            const char *nm = tg[loaded].in.name, *slash = strrchr(nm, '/'), *bslash = strrchr(nm, '\\');
            if (bslash && (!slash || bslash > slash)) slash = bslash;
            geom_names[loaded] = slash ? slash + 1 : nm;
        }
        tool_geom_warn_unbound(tg[loaded].in.name, &tg[loaded].geom, &tr.rig);
    }
    if (clip) tool_warn_pairing(clip, clip_name, rig.hash, rig.count, rig.name);
    src.rig = &rig;
    src.clip = clip;
    src.names = names;
    src.geoms = geoms;
    src.geom_names = geom_names;
    src.geom_count = (uint32_t)mesh_count;
    rc = tool_write_gltf(out_path, &src, clip ? clip_name : NULL);
done:
    for (i = 0; i < loaded; i++) tool_geom_free(&tg[i]);
    if (have_rig) {
        tool_rig_res_free(&tr);
        tool_free(&rin);
    }
    tool_rig_free(&rig);
    free(tg);
    free(geoms);
    free(geom_names);
    return rc;
}
