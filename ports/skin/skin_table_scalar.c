/* Scalar reference of a skinning job's slot tables (ports/skin_prepared.h:
 * pb_skin_put_entries), entry by entry. */
#include "skin_prepared.h"

void pb_skin_put_entries_scalar(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                                uint32_t count) {
    uint32_t k;
    for (k = 0; k < count; k++) {
        const float *m = &palette[joint ? joint[k] : k].m[0][0];
        pb_skin_put_entry(table + PB_SKIN_ENTRY * k, m);
        if (splat) pb_skinp_put_splat(splat + PB_SKINP_SPLAT * k, m);
    }
}
