/* The game's axes and glTF's (hosted, no dependencies): Sims 2 meshes and
 * skeletons are Z-up, glTF is Y-up; Sims 3 clips are Y-up already. */
#ifndef PLUMBOB_GLTF_AXES_H
#define PLUMBOB_GLTF_AXES_H

#include "plumbob.h"

/* Z-up (Sims 2 meshes) to glTF's Y-up: (x, y, z) -> (x, z, -y), and back. */
plumbob_vec3 gltf_z_up_to_y_up(plumbob_vec3 v);
plumbob_vec3 gltf_y_up_to_z_up(plumbob_vec3 v);
/* The same rotation applied to a quaternion's axis (w unchanged). */
plumbob_quat gltf_quat_z_up_to_y_up(plumbob_quat q);
plumbob_quat gltf_quat_y_up_to_z_up(plumbob_quat q);
/* The rotation of a column-major 4x4 matrix's upper 3x3 as a unit
 * quaternion, any scale taken out (the orthogonal factor of its polar
 * decomposition: right for a node's T R S and an inverse bind (T R S)^-1,
 * non-uniform scales too). */
plumbob_quat gltf_matrix_quat(const float *m);
/* The same, telling how far the matrix's 3x3 was from a rotation (its
 * scale: 0 for none; -1 for a singular or mirroring one, read as it is). */
plumbob_quat gltf_matrix_quat_scaled(const float *m, double *scale_off);
/* 1 when that 3x3 carries a scale (or a mirror) beyond 1e-4: an armature
 * scale not applied, in an inverse bind (gmdc import, clip import). */
int gltf_matrix_scaled(const float *m);

#endif
