/* bench_ik.c's chains, in a file of their own so bench/compare links them
 * without the bench harness: both time the same 1,024 solves. */
#include "plumbob.h"

void bench_ik_chains(plumbob_mat34 (*m)[3], plumbob_vec3 *target, plumbob_vec3 *pole, uint32_t n);

static float unit(uint32_t *st) {
    *st ^= *st << 13; *st ^= *st >> 17; *st ^= *st << 5;
    return (float)(*st % 20001u) / 10000.0f - 1.0f;
}

/* Chain k: three joints from random local rotations, bones 0.45 and 0.42 m
 * (a Sim's thigh and calf); exported for the compare harness. */
void bench_ik_chains(plumbob_mat34 (*m)[3], plumbob_vec3 *target, plumbob_vec3 *pole, uint32_t n) {
    uint32_t k, st = 0x51EDu;
    for (k = 0; k < n; k++) {
        plumbob_bone_pose p[3];
        plumbob_mat34 local;
        int i;
        for (i = 0; i < 3; i++) {
            plumbob_quat q;
            q.x = unit(&st) * 0.5f; q.y = unit(&st) * 0.5f; q.z = unit(&st) * 0.5f; q.w = 1.0f;
            p[i].rotation = plumbob_quat_normalize(q);
            p[i].translation.x = 0.0f; p[i].translation.y = i == 0 ? 1.0f : (i == 1 ? -0.45f : -0.42f);
            p[i].translation.z = 0.0f;
            p[i].scale.x = p[i].scale.y = p[i].scale.z = 1.0f;
        }
        m[k][0] = plumbob_mat34_from_pose(&p[0]);
        local = plumbob_mat34_from_pose(&p[1]);
        m[k][1] = plumbob_mat34_mul(&m[k][0], &local);
        local = plumbob_mat34_from_pose(&p[2]);
        m[k][2] = plumbob_mat34_mul(&m[k][1], &local);
        target[k].x = m[k][0].m[0][3] + 0.5f * unit(&st);
        target[k].y = m[k][0].m[1][3] - 0.5f + 0.3f * unit(&st);
        target[k].z = m[k][0].m[2][3] + 0.5f * unit(&st);
        pole[k].x = unit(&st) * 0.2f; pole[k].y = 0.0f; pole[k].z = 1.0f;
    }
}

