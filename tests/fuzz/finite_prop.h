/* The fuzz targets' finite-output property (issue 47): decoders refuse
 * every infinite or NaN float they hand on, so for any input that decoded,
 * what the samplers, the skeleton job and skinning compute from it holds no
 * NaN and no infinity, as long as the arithmetic cannot overflow.  Finite
 * floats can still be as large as 3.4e38, and a product or a sum of two
 * of them overflows (and inf - inf or 0 * inf then makes NaN), so each
 * check first bounds, in double precision, the largest magnitude any
 * intermediate of the computation can reach, from the decoded values;
 * below FP_SAFE every output must be finite, or the target aborts.  Above
 * it, overflow is the documented caller's risk (docs/RELIABILITY.md,
 * "Finite inputs, finite outputs"); no real file comes near (the corpus'
 * largest value is in the hundreds). */
#ifndef PLUMBOB_FUZZ_FINITE_PROP_H
#define PLUMBOB_FUZZ_FINITE_PROP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "plumbob.h"

/* Far below FLT_MAX (3.4e38): rounding differences between the double bound
 * and the float arithmetic are a few ulps, this is 8 decimal orders. */
#define FP_SAFE 1e30

static inline int fp_finite(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return (u & 0x7F800000u) != 0x7F800000u;
}

/* Aborts unless all n floats are finite. */
static inline void fp_require_finite(const float *v, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (!fp_finite(v[i])) __builtin_trap();
}

static inline double fp_abs(double x) { return x < 0 ? -x : x; }

/* A bound kept finite in double: anything past 1e300 stays 1e300, so no
 * inf * 0 can make a NaN of the bound itself. */
static inline double fp_cap(double x) { return x > 1e300 || x != x ? 1e300 : x; }

/* The largest magnitude any intermediate of plumbob_skeleton_model can reach
 * for local poses `local` (NULL: the rest pose): each bone's local matrix
 * has rotation entries within 1 + 4 |q|^2 (q as given, not normalized)
 * times its largest scale, and translation within its largest component;
 * a model matrix's 3x3 entries are sums of three products of its parent's
 * and its own, its translation its parent's plus such a sum. */
static inline double fp_model_bound(const plumbob_skeleton *s, const plumbob_bone_pose *local, double *lin,
                                    double *tra) {
    uint32_t k;
    double worst = 0;
    if (!local) local = s->rest;
    for (k = 0; k < s->bone_count; k++) {
        const plumbob_bone_pose *p = &local[k];
        double q2 = (double)p->rotation.x * p->rotation.x + (double)p->rotation.y * p->rotation.y +
                    (double)p->rotation.z * p->rotation.z + (double)p->rotation.w * p->rotation.w;
        double sc = fp_abs(p->scale.x), t = fp_abs(p->translation.x), l;
        if (fp_abs(p->scale.y) > sc) sc = fp_abs(p->scale.y);
        if (fp_abs(p->scale.z) > sc) sc = fp_abs(p->scale.z);
        if (fp_abs(p->translation.y) > t) t = fp_abs(p->translation.y);
        if (fp_abs(p->translation.z) > t) t = fp_abs(p->translation.z);
        l = fp_cap((1.0 + 4.0 * q2) * (sc > 1.0 ? sc : 1.0));
        if (s->parent[k] < 0) {
            lin[k] = l;
            tra[k] = t;
        } else {
            double pl = lin[s->parent[k]];
            lin[k] = fp_cap(3.0 * pl * l);
            tra[k] = fp_cap(3.0 * pl * t + tra[s->parent[k]]);
        }
        if (lin[k] > worst) worst = lin[k];
        if (tra[k] > worst) worst = tra[k];
        if (q2 > worst) worst = q2;
    }
    return worst;
}

/* The poses `local` (NULL: rest) must be finite: the caller passes decoded
 * rest poses or samples of finite-bounded input.  Then
 * plumbob_skeleton_model on them, and the property: every model value
 * finite when fp_model_bound is below FP_SAFE.  s must be valid (parents
 * first). */
static inline void fp_check_model(const plumbob_skeleton *s, const plumbob_bone_pose *local) {
    uint32_t n = s->bone_count ? s->bone_count : 1u;
    plumbob_mat34 *model = (plumbob_mat34 *)malloc(n * sizeof *model);
    double *lin = (double *)malloc(n * sizeof(double)), *tra = (double *)malloc(n * sizeof(double));
    if (!model || !lin || !tra) __builtin_trap();
    if (s->bone_count) fp_require_finite(local ? &local[0].rotation.x : &s->rest[0].rotation.x, (size_t)s->bone_count * 10u);
    if (plumbob_skeleton_model(s, local, model, n) != PLUMBOB_OK) __builtin_trap();
    if (fp_model_bound(s, local, lin, tra) < FP_SAFE) fp_require_finite(&model[0].m[0][0], (size_t)s->bone_count * 12u);
    free(model);
    free(lin);
    free(tra);
}

/* The largest magnitude among n floats (0 for none; NaN or inf: 1e300). */
static inline double fp_max_abs(const float *v, size_t n) {
    size_t i;
    double m = 0;
    for (i = 0; i < n; i++) {
        if (!fp_finite(v[i])) return 1e300;
        if (fp_abs(v[i]) > m) m = fp_abs(v[i]);
    }
    return m;
}

/* The largest magnitude among a GMDC's floats that skinning reads
 * (vertices, normals, bone weights, morph deltas) and its joints'. */
static inline double fp_gmdc_max(const plumbob_gmdc *g) {
    uint32_t i;
    double m = 0;
    for (i = 0; i < g->element_count; i++) {
        const plumbob_gmdc_element *e = &g->elements[i];
        uint32_t k, id = e->identity;
        if (e->format > 2 || !e->data) continue;
        if (id != PLUMBOB_GMDC_VERTICES && id != PLUMBOB_GMDC_NORMALS && id != PLUMBOB_GMDC_BONE_WEIGHTS &&
            id != PLUMBOB_GMDC_MORPH_VERTEX_DELTAS && id != PLUMBOB_GMDC_MORPH_NORMAL_DELTAS)
            continue;
        for (k = 0; k + 4 <= e->byte_size; k += 4) {
            float f;
            memcpy(&f, e->data + k, 4);
            if (!fp_finite(f)) return 1e300;
            if (fp_abs(f) > m) m = fp_abs(f);
        }
    }
    for (i = 0; g->joints && i < g->joint_count * 7u; i++) {
        float f;
        memcpy(&f, g->joints + 4u * i, 4);
        if (!fp_finite(f)) return 1e300;
        if (fp_abs(f) > m) m = fp_abs(f);
    }
    return m;
}

/* A bound on every intermediate of skinning one vertex: four weights (an
 * implied last one is 1 minus the others) blend palette matrices of entries
 * within pmax, applied to a position or normal within vmax plus up to four
 * morph deltas at weights within mw each. */
static inline double fp_skin_bound(double vmax, double pmax, double mw) {
    double w = 4.0 * (1.0 + 3.0 * vmax), p = vmax * (1.0 + 4.0 * (mw > 1.0 ? mw : 1.0));
    return fp_cap(w * (pmax > 1.0 ? pmax : 1.0) * (3.0 * p + 1.0) + w * p);
}

#endif
