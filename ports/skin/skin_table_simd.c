/* The SIMD twins of pb_skin_put_entries_scalar (pb_skin_put_entries_sse2
 * or _neon): a matrix's three rows loaded once, made canonical with
 * integer masks (pb_v4_canonical), stored as the entry's rows, splatted
 * element by element, and transposed (a zero fourth row) into the
 * entry's columns.  A job builds these for every slot, so on a mesh of a
 * few thousand vertices the scalar loop's compares and branches were a
 * fifth of the job. */
#include "skin_prepared.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_skin_put_entries_sse2(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                              uint32_t count)
#else
void pb_skin_put_entries_neon(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                              uint32_t count)
#endif
{
    uint32_t k;
    pb_v4 zero = pb_v4_set1(0.0f);
    for (k = 0; k < count; k++) {
        const float *m = &palette[joint ? joint[k] : k].m[0][0];
        float *e = table + PB_SKIN_ENTRY * k;
        pb_v4 x = pb_v4_canonical(pb_v4_loadu(m)), y = pb_v4_canonical(pb_v4_loadu(m + 4));
        pb_v4 z = pb_v4_canonical(pb_v4_loadu(m + 8)), w = zero;
        pb_v4_store(e, x);
        pb_v4_store(e + 4, y);
        pb_v4_store(e + 8, z);
        pb_v4_store(e + 12, zero);
        if (splat) {
            float *s = splat + PB_SKINP_SPLAT * k;
            pb_v4_store(s, pb_v4_splat(x, 0));
            pb_v4_store(s + 4, pb_v4_splat(x, 1));
            pb_v4_store(s + 8, pb_v4_splat(x, 2));
            pb_v4_store(s + 12, pb_v4_splat(x, 3));
            pb_v4_store(s + 16, pb_v4_splat(y, 0));
            pb_v4_store(s + 20, pb_v4_splat(y, 1));
            pb_v4_store(s + 24, pb_v4_splat(y, 2));
            pb_v4_store(s + 28, pb_v4_splat(y, 3));
            pb_v4_store(s + 32, pb_v4_splat(z, 0));
            pb_v4_store(s + 36, pb_v4_splat(z, 1));
            pb_v4_store(s + 40, pb_v4_splat(z, 2));
            pb_v4_store(s + 44, pb_v4_splat(z, 3));
        }
        pb_v4_transpose(&x, &y, &z, &w); /* columns a b c t, each x y z 0 */
        pb_v4_store(e + PB_SKIN_COLUMNS, x);
        pb_v4_store(e + PB_SKIN_COLUMNS + 4, y);
        pb_v4_store(e + PB_SKIN_COLUMNS + 8, z);
        pb_v4_store(e + PB_SKIN_COLUMNS + 12, w);
    }
}
#endif
