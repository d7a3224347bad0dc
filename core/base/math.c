/* Small math without libm: square roots from Newton steps, quaternions and
 * 3x4 affine matrices.  Only + - * / are used, so every IEEE-754 target
 * computes the same bits (the build turns off FMA contraction). */
#include <float.h>
#include "plumbob/base.h"
#include "pb_math.h"

float plumbob_rsqrtf(float x) {
    return pb_rsqrtf(x);
}

float plumbob_sqrtf(float x) {
    float s;
    if (!(x > 0.0f)) return 0.0f;
    if (x > FLT_MAX) return x; /* +inf */
    s = x * pb_rsqrtf(x);
    return 0.5f * (s + x / s); /* one Heron step: correctly rounded or 1 ulp off */
}

plumbob_quat plumbob_quat_identity(void) {
    plumbob_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    return q;
}

plumbob_quat plumbob_quat_normalize(plumbob_quat q) {
    float v[4];
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    pb_quat_normalize4(v);
    q.x = v[0]; q.y = v[1]; q.z = v[2]; q.w = v[3];
    return q;
}

plumbob_quat plumbob_quat_mul(plumbob_quat a, plumbob_quat b) {
    plumbob_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

plumbob_quat plumbob_quat_nlerp(plumbob_quat a, plumbob_quat b, float t) {
    float x[4], y[4], r[4];
    plumbob_quat q;
    x[0] = a.x; x[1] = a.y; x[2] = a.z; x[3] = a.w;
    y[0] = b.x; y[1] = b.y; y[2] = b.z; y[3] = b.w;
    pb_quat_nlerp4(x, y, t, r);
    q.x = r[0]; q.y = r[1]; q.z = r[2]; q.w = r[3];
    return q;
}

plumbob_vec3 plumbob_quat_rotate(plumbob_quat q, plumbob_vec3 v) {
    /* v' = v + w*t + u x t, with t = 2 (u x v) */
    plumbob_vec3 r;
    float tx = 2.0f * (q.y * v.z - q.z * v.y);
    float ty = 2.0f * (q.z * v.x - q.x * v.z);
    float tz = 2.0f * (q.x * v.y - q.y * v.x);
    r.x = v.x + q.w * tx + (q.y * tz - q.z * ty);
    r.y = v.y + q.w * ty + (q.z * tx - q.x * tz);
    r.z = v.z + q.w * tz + (q.x * ty - q.y * tx);
    return r;
}

plumbob_mat34 plumbob_mat34_identity(void) {
    plumbob_mat34 m = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    return m;
}

plumbob_mat34 plumbob_mat34_from_rt(plumbob_quat q, plumbob_vec3 t) {
    plumbob_mat34 m;
    float qa[4], ta[3], o[12];
    int r, c;
    qa[0] = q.x; qa[1] = q.y; qa[2] = q.z; qa[3] = q.w;
    ta[0] = t.x; ta[1] = t.y; ta[2] = t.z;
    pb_mat34_rt(qa, ta, o);
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) m.m[r][c] = o[4 * r + c];
    return m;
}

plumbob_mat34 plumbob_mat34_mul(const plumbob_mat34 *a, const plumbob_mat34 *b) {
    plumbob_mat34 m;
    float fa[12], fb[12], o[12];
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) {
            fa[4 * r + c] = a->m[r][c];
            fb[4 * r + c] = b->m[r][c];
        }
    pb_mat34_mul12(fa, fb, o);
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) m.m[r][c] = o[4 * r + c];
    return m;
}

plumbob_vec3 plumbob_mat34_transform_point(const plumbob_mat34 *m, plumbob_vec3 p) {
    plumbob_vec3 r;
    r.x = m->m[0][0] * p.x + m->m[0][1] * p.y + m->m[0][2] * p.z + m->m[0][3];
    r.y = m->m[1][0] * p.x + m->m[1][1] * p.y + m->m[1][2] * p.z + m->m[1][3];
    r.z = m->m[2][0] * p.x + m->m[2][1] * p.y + m->m[2][2] * p.z + m->m[2][3];
    return r;
}

plumbob_vec3 plumbob_mat34_transform_vector(const plumbob_mat34 *m, plumbob_vec3 v) {
    plumbob_vec3 r;
    r.x = m->m[0][0] * v.x + m->m[0][1] * v.y + m->m[0][2] * v.z;
    r.y = m->m[1][0] * v.x + m->m[1][1] * v.y + m->m[1][2] * v.z;
    r.z = m->m[2][0] * v.x + m->m[2][1] * v.y + m->m[2][2] * v.z;
    return r;
}
