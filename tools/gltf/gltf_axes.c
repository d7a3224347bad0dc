/* The game's axes and glTF's: Sims 2 meshes are Z-up, glTF is Y-up. */
#include <math.h>
#include "gltf_axes.h"

plumbob_vec3 gltf_z_up_to_y_up(plumbob_vec3 v) {
    plumbob_vec3 r;
    r.x = v.x;
    r.y = v.z;
    r.z = -v.y;
    return r;
}

plumbob_vec3 gltf_y_up_to_z_up(plumbob_vec3 v) {
    plumbob_vec3 r;
    r.x = v.x;
    r.y = -v.z;
    r.z = v.y;
    return r;
}

static plumbob_quat with_axis(plumbob_quat q, plumbob_vec3 v) {
    q.x = v.x; q.y = v.y; q.z = v.z;
    return q;
}

plumbob_quat gltf_quat_z_up_to_y_up(plumbob_quat q) {
    plumbob_vec3 v;
    v.x = q.x; v.y = q.y; v.z = q.z;
    return with_axis(q, gltf_z_up_to_y_up(v));
}

plumbob_quat gltf_quat_y_up_to_z_up(plumbob_quat q) {
    plumbob_vec3 v;
    v.x = q.x; v.y = q.y; v.z = q.z;
    return with_axis(q, gltf_y_up_to_z_up(v));
}

/* The rotation of a 3x3 matrix a (column-major, a[3 * col + row]) with
 * its scale taken out: the orthogonal factor of its polar decomposition,
 * by the averaged-inverse iteration Q <- (Q + Q^-T) / 2, which finds it
 * whether the scale stands on the right (a node's T R S) or on the left (an
 * inverse bind matrix, (T R S)^-1).  Returns how far a was from it (0 for a
 * rotation), or -1 when a is singular or mirrors (a left as it was). */
static double polar_rotation(double a[9]) {
    double q[9], far = 0;
    int it, k;
    for (k = 0; k < 9; k++) q[k] = a[k];
    for (it = 0; it < 40; it++) {
        double c[9], det, step = 0;
        /* cofactors: Q^-T = cofactor(Q) / det(Q) */
        c[0] = q[4] * q[8] - q[5] * q[7]; c[1] = q[5] * q[6] - q[3] * q[8]; c[2] = q[3] * q[7] - q[4] * q[6];
        c[3] = q[2] * q[7] - q[1] * q[8]; c[4] = q[0] * q[8] - q[2] * q[6]; c[5] = q[1] * q[6] - q[0] * q[7];
        c[6] = q[1] * q[5] - q[2] * q[4]; c[7] = q[2] * q[3] - q[0] * q[5]; c[8] = q[0] * q[4] - q[1] * q[3];
        det = q[0] * c[0] + q[1] * c[1] + q[2] * c[2];
        if (!(det > 1e-30)) return -1;
        for (k = 0; k < 9; k++) {
            double n = 0.5 * (q[k] + c[k] / det);
            step = fmax(step, fabs(n - q[k]));
            q[k] = n;
        }
        if (step < 1e-12) break;
    }
    for (k = 0; k < 9; k++) {
        far = fmax(far, fabs(a[k] - q[k]));
        a[k] = q[k];
    }
    return far;
}

/* The rotation of a matrix (column-major 4x4, upper 3x3) as a quaternion,
 * any scale in it taken out; *scale_off (may be NULL): how far the 3x3 was
 * from a rotation (0 for one; -1 singular or mirroring, then the 3x3 is
 * read as it is). */
plumbob_quat gltf_matrix_quat_scaled(const float *src, double *scale_off) {
    double m[9], r00, r11, r22, tr, s, off;
    plumbob_quat q;
    int k;
    for (k = 0; k < 3; k++) {
        m[3 * k] = src[4 * k];
        m[3 * k + 1] = src[4 * k + 1];
        m[3 * k + 2] = src[4 * k + 2];
    }
    off = polar_rotation(m);
    if (scale_off) *scale_off = off;
    r00 = m[0]; r11 = m[4]; r22 = m[8]; tr = r00 + r11 + r22;
    if (tr > 0) {
        s = sqrt(tr + 1.0) * 2;
        q.w = (float)(0.25 * s); q.x = (float)((m[5] - m[7]) / s); q.y = (float)((m[6] - m[2]) / s); q.z = (float)((m[1] - m[3]) / s);
    } else if (r00 > r11 && r00 > r22) {
        s = sqrt(1.0 + r00 - r11 - r22) * 2;
        q.w = (float)((m[5] - m[7]) / s); q.x = (float)(0.25 * s); q.y = (float)((m[3] + m[1]) / s); q.z = (float)((m[6] + m[2]) / s);
    } else if (r11 > r22) {
        s = sqrt(1.0 + r11 - r00 - r22) * 2;
        q.w = (float)((m[6] - m[2]) / s); q.x = (float)((m[3] + m[1]) / s); q.y = (float)(0.25 * s); q.z = (float)((m[7] + m[5]) / s);
    } else {
        s = sqrt(1.0 + r22 - r00 - r11) * 2;
        q.w = (float)((m[1] - m[3]) / s); q.x = (float)((m[6] + m[2]) / s); q.y = (float)((m[7] + m[5]) / s); q.z = (float)(0.25 * s);
    }
    return plumbob_quat_normalize(q);
}

plumbob_quat gltf_matrix_quat(const float *m) { return gltf_matrix_quat_scaled(m, NULL); }

int gltf_matrix_scaled(const float *m) {
    double off;
    (void)gltf_matrix_quat_scaled(m, &off);
    return off > 1e-4 || off < 0;
}
