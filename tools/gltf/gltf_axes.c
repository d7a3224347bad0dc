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

/* A rotation matrix (column-major 4x4, upper 3x3) as a quaternion. */
plumbob_quat gltf_matrix_quat(const float *m) {
    double r00 = m[0], r11 = m[5], r22 = m[10], tr = r00 + r11 + r22, s;
    plumbob_quat q;
    if (tr > 0) {
        s = sqrt(tr + 1.0) * 2;
        q.w = (float)(0.25 * s); q.x = (float)((m[6] - m[9]) / s); q.y = (float)((m[8] - m[2]) / s); q.z = (float)((m[1] - m[4]) / s);
    } else if (r00 > r11 && r00 > r22) {
        s = sqrt(1.0 + r00 - r11 - r22) * 2;
        q.w = (float)((m[6] - m[9]) / s); q.x = (float)(0.25 * s); q.y = (float)((m[4] + m[1]) / s); q.z = (float)((m[8] + m[2]) / s);
    } else if (r11 > r22) {
        s = sqrt(1.0 + r11 - r00 - r22) * 2;
        q.w = (float)((m[8] - m[2]) / s); q.x = (float)((m[4] + m[1]) / s); q.y = (float)(0.25 * s); q.z = (float)((m[9] + m[6]) / s);
    } else {
        s = sqrt(1.0 + r22 - r00 - r11) * 2;
        q.w = (float)((m[1] - m[4]) / s); q.x = (float)((m[8] + m[2]) / s); q.y = (float)((m[9] + m[6]) / s); q.z = (float)(0.25 * s);
    }
    return plumbob_quat_normalize(q);
}
