/* The game's axes and glTF's: Sims 2 meshes are Z-up, glTF is Y-up. */
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
