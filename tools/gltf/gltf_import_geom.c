/* glTF in, Sims 3 GEOM streams out: the first mesh node's triangles,
 * attributes and skin influences (geom import builds the GEOM from them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_import.h"
#include "gltf_read.h"

/* Appends src (n items of comps floats, or NULL: zeros) to *dst, which
 * holds `have` items; 0 when memory ran out. */
static int append(float **dst, uint32_t have, const float *src, uint32_t n, uint32_t comps) {
    float *p = (float *)realloc(*dst, sizeof(float) * comps * ((size_t)have + n + 1u));
    if (!p) return 0;
    *dst = p;
    if (src) memcpy(p + (size_t)comps * have, src, sizeof(float) * comps * n);
    else memset(p + (size_t)comps * have, 0, sizeof(float) * comps * n);
    return 1;
}

/* Influences of one vertex: weights at or below 0 dropped, a joint named
 * twice counted once, renormalized to sum 1 (all zero: unweighted). */
static int normalize(uint32_t *j, float *w) {
    float total = 0.0f;
    uint32_t k, m;
    for (k = 0; k < 4; k++) {
        if (!(w[k] > 0.0f)) {
            w[k] = 0.0f;
            j[k] = 0;
            continue;
        }
        for (m = 0; m < k; m++)
            if (w[m] > 0.0f && j[m] == j[k]) break;
        if (m < k) {
            w[m] += w[k];
            w[k] = 0.0f;
            j[k] = 0;
        }
    }
    for (k = 0; k < 4; k++) total += w[k];
    if (!(total > 0.0f)) return 0;
    for (k = 0; k < 4; k++) w[k] /= total;
    return 1;
}

int gltf_import_geom(const gltf_doc *doc, geom_import *gi, char *why, size_t cap) {
    const json_value *nodes = json_get(&doc->root, "nodes"), *node = NULL, *mesh, *prims, *skin = NULL, *js;
    uint32_t i, m = 0, pi, k, s;
    char what[64];
    memset(gi, 0, sizeof *gi);
    for (i = 0; nodes && nodes->kind == JSON_ARRAY && i < nodes->count && !node; i++)
        if (gltf_uint(&nodes->items[i], "mesh", &m)) node = &nodes->items[i];
    mesh = node ? gltf_at(&doc->root, "meshes", m) : NULL;
    if (!mesh) {
        snprintf(why, cap, "the glTF has no node with a mesh");
        return 0;
    }
    {
        const json_value *nm = json_get(node, "name");
        if (!nm || nm->kind != JSON_STRING) nm = json_get(mesh, "name");
        snprintf(gi->name, sizeof gi->name, "%s", nm && nm->kind == JSON_STRING ? nm->str : "mesh");
    }
    if (gltf_uint(node, "skin", &s)) skin = gltf_at(&doc->root, "skins", s);
    js = skin ? json_get(skin, "joints") : NULL;
    if (js && js->kind == JSON_ARRAY) {
        gi->joint_count = (uint32_t)js->count;
        gi->joint_name = calloc(gi->joint_count + 1u, sizeof *gi->joint_name);
        if (!gi->joint_name) goto oom;
        for (k = 0; k < gi->joint_count; k++) {
            const json_value *jn = js->items[k].kind == JSON_NUMBER && js->items[k].number >= 0 && nodes &&
                                           js->items[k].number < (double)nodes->count
                                       ? json_get(&nodes->items[(uint32_t)js->items[k].number], "name")
                                       : NULL;
            if (jn && jn->kind == JSON_STRING) snprintf(gi->joint_name[k], sizeof gi->joint_name[k], "%s", jn->str);
        }
    }
    prims = json_get(mesh, "primitives");
    for (pi = 0; prims && prims->kind == JSON_ARRAY && pi < prims->count; pi++) {
        const json_value *p = &prims->items[pi], *attrs = json_get(p, "attributes");
        float *pos = NULL, *nrm = NULL, *uv = NULL, *tan = NULL, *w = NULL;
        uint32_t *idx = NULL, *jnt = NULL, n = 0, ni = 0, a, count, mode = 4, v;
        int ok = 0;
        snprintf(what, sizeof what, "meshes[%u].primitives[%u]", (unsigned)m, (unsigned)pi);
        if ((gltf_uint(p, "mode", &mode) && mode != 4) || !gltf_uint(attrs, "POSITION", &a)) {
            gi->skipped++;
            continue;
        }
        if (!gltf_read_floats(doc, a, 3, &pos, &n, why, cap) ||
            !gltf_attribute(doc, attrs, "NORMAL", 3, n, &nrm, what, why, cap) ||
            !gltf_attribute(doc, attrs, "TEXCOORD_0", 2, n, &uv, what, why, cap) ||
            !gltf_attribute(doc, attrs, "TANGENT", 4, n, &tan, what, why, cap) ||
            !gltf_attribute(doc, attrs, "WEIGHTS_0", 4, n, &w, what, why, cap))
            goto prim_done;
        if (gltf_uint(p, "indices", &a)) {
            if (!gltf_read_uints(doc, a, 1, &idx, &ni, why, cap)) goto prim_done;
        } else {
            ni = n;
            idx = (uint32_t *)malloc(sizeof(uint32_t) * (n + 1u));
            if (!idx) goto prim_oom;
            for (v = 0; v < n; v++) idx[v] = v;
        }
        if (ni % 3u) {
            snprintf(why, cap, "%s: %u indices is not whole triangles", what, (unsigned)ni);
            goto prim_done;
        }
        for (v = 0; v < ni; v++)
            if (idx[v] >= n) {
                snprintf(why, cap, "%s: index %u of %u vertices", what, (unsigned)idx[v], (unsigned)n);
                goto prim_done;
            }
        if (gltf_uint(attrs, "JOINTS_0", &a)) {
            if (!skin || !w) {
                snprintf(why, cap, "%s: JOINTS_0 without %s", what, skin ? "WEIGHTS_0" : "a skin on its node");
                goto prim_done;
            }
            if (!gltf_read_uints(doc, a, 4, &jnt, &count, why, cap)) goto prim_done;
            if (count != n) {
                snprintf(why, cap, "%s: JOINTS_0 has %u items for %u positions", what, (unsigned)count, (unsigned)n);
                goto prim_done;
            }
            if (gltf_uint(attrs, "JOINTS_1", &a)) { /* 8 influences (Blender writes them): the 4 heaviest */
                uint32_t *j1 = NULL, c1 = 0;
                float *w1 = NULL;
                if (!gltf_attribute(doc, attrs, "WEIGHTS_1", 4, n, &w1, what, why, cap) || !w1 ||
                    !gltf_read_uints(doc, a, 4, &j1, &c1, why, cap) || c1 != n) {
                    if (!w1 || c1 != n) snprintf(why, cap, "%s: JOINTS_1 without WEIGHTS_1 of the same count", what);
                    free(j1); free(w1);
                    goto prim_done;
                }
                gi->dropped_influences += gltf_heaviest_four(jnt, w, j1, w1, n);
                free(j1);
                free(w1);
            }
            for (v = 0; v < 4u * n; v++)
                if (jnt[v] >= gi->joint_count && w[v] > 0.0f) {
                    snprintf(why, cap, "%s: JOINTS_0 of vertex %u names joint %u of %u", what, (unsigned)(v / 4u),
                             (unsigned)jnt[v], (unsigned)gi->joint_count);
                    goto prim_done;
                }
            for (v = 0; v < n; v++) gi->unweighted += !normalize(jnt + 4u * v, w + 4u * v);
        }
        if (tan) /* xyz of each vec4 */
            for (v = 0; v < n; v++) {
                tan[3u * v] = tan[4u * v];
                tan[3u * v + 1] = tan[4u * v + 1];
                tan[3u * v + 2] = tan[4u * v + 2];
            }
        /* a stream one primitive has and an earlier lacked: zeros for those before */
        if ((nrm && !gi->nrm && gi->n && !append(&gi->nrm, 0, NULL, gi->n, 3)) ||
            (uv && !gi->uv && gi->n && !append(&gi->uv, 0, NULL, gi->n, 2)) ||
            (tan && !gi->tan && gi->n && !append(&gi->tan, 0, NULL, gi->n, 3)))
            goto prim_oom;
        if (jnt && !gi->jnt && gi->n) {
            gi->jnt = (uint32_t *)calloc(4u * (size_t)gi->n + 1u, sizeof(uint32_t));
            if (!gi->jnt || !append(&gi->w, 0, NULL, gi->n, 4)) goto prim_oom;
        }
        if (!append(&gi->pos, gi->n, pos, n, 3) || ((nrm || gi->nrm) && !append(&gi->nrm, gi->n, nrm, n, 3)) ||
            ((uv || gi->uv) && !append(&gi->uv, gi->n, uv, n, 2)) ||
            ((tan || gi->tan) && !append(&gi->tan, gi->n, tan, n, 3)) ||
            ((jnt || gi->jnt) && !append(&gi->w, gi->n, jnt ? w : NULL, n, 4)))
            goto prim_oom;
        if (jnt || gi->jnt) {
            uint32_t *pj = (uint32_t *)realloc(gi->jnt, sizeof(uint32_t) * (4u * ((size_t)gi->n + n) + 1u));
            if (!pj) goto prim_oom;
            gi->jnt = pj;
            if (jnt) memcpy(pj + 4u * (size_t)gi->n, jnt, sizeof(uint32_t) * 4u * n);
            else memset(pj + 4u * (size_t)gi->n, 0, sizeof(uint32_t) * 4u * n);
        }
        {
            uint32_t *pidx = (uint32_t *)realloc(gi->idx, sizeof(uint32_t) * ((size_t)gi->ni + ni + 1u));
            if (!pidx) goto prim_oom;
            gi->idx = pidx;
            for (v = 0; v < ni; v++) pidx[gi->ni + v] = idx[v] + gi->n;
        }
        gi->n += n;
        gi->ni += ni;
        ok = 1;
        goto prim_done;
    prim_oom:
        snprintf(why, cap, "out of memory");
    prim_done:
        free(pos); free(nrm); free(uv); free(tan); free(w); free(idx); free(jnt);
        if (!ok) {
            geom_import_free(gi);
            return 0;
        }
    }
    if (!gi->n || !gi->ni) {
        snprintf(why, cap, "the mesh %s has no triangles to carry", gi->name);
        geom_import_free(gi);
        return 0;
    }
    return 1;
oom:
    snprintf(why, cap, "out of memory");
    geom_import_free(gi);
    return 0;
}

void geom_import_free(geom_import *gi) {
    free(gi->pos); free(gi->nrm); free(gi->uv); free(gi->tan); free(gi->idx); free(gi->jnt); free(gi->w);
    free(gi->joint_name);
    memset(gi, 0, sizeof *gi);
}
