/* The prepared skinning mesh's kernels (core/runtime/skin_prepared.c
 * prepares the mesh and calls them): one scalar reference and its SIMD
 * twins, which give the reference's bits on every port (ARMv7 NEON:
 * subnormals flushed, as kernels.h says).
 *
 * A span's vertices come in groups of PB_SKINP_GROUP: positions and
 * normals as x, y, z rows of eight floats (96 bytes a group), the stored
 * weights as rows of eight (weight k of the group's vertices), the
 * influences' slot table entries as rows of eight 16-bit offsets (in
 * floats: 32 x the slot, so an address is one scaled index; the table
 * is pb_skin_put_entry's layout, kernels.h, entry 255 all zeros, the
 * entry of padding).  Per vertex, with E_k the entry of influence k:
 *   PB_SKINP_RIGID   R = E_0 (one influence of weight 1: no weights stored)
 *   PB_SKINP_STORED  w_k stored for k < influences
 *   PB_SKINP_IMPLIED w_k stored for k < influences - 1, the last
 *                    1 - ((w0 + w1) + w2) over the others
 * and R = ((w0 E0 + w1 E1) + w2 E2) + w3 E3 over the span's influences;
 * p'j = ((Rj.a x + Rj.b y) + Rj.c z) + Rj.t, n'j = (Rj.a x + Rj.b y) + Rj.c z,
 * times pb_normal_scale_clamped((n'x n'x + n'y n'y) + n'z n'z) when
 * normalizing (pb_math.h: len2 clamped into [FLT_MIN, FLT_MAX], not
 * plumbob_skin's pb_normal_scale, whose masks cost five more operations).
 *
 * Shared spans (`shared` 1): the four vertices of each half group use one
 * set of entries (their influences' slots are the same, in the same
 * order), stored once per half: `influences` offsets for lanes 0..3, then
 * `influences` for lanes 4..7, each an offset into the splatted table
 * `splat` (pb_skinp_put_splat: element j of a 3x4 entry in four lanes,
 * 48 floats an entry, so 48 x the slot); rigid spans' offsets are the
 * table's (32 x the slot: its columns for the one-vertex path, and
 * offset + offset / 2 into `splat`).  Per lane the same blend and
 * transform as above, so the reference's operations and order; the SIMD
 * kernels then need no transposes: the blend runs with one vertex per
 * lane on the splatted elements, which are the transform's rows.  Without
 * normals (r->normals NULL) a weighted shared span transforms first:
 *   P_kj = ((E_k.aj x + E_k.bj y) + E_k.cj z) + E_k.tj,
 *   p'j = ((w0 P_0j + w1 P_1j) + w2 P_2j) + w3 P_3j
 * (12 multiplies per influence and four vertices against 12 per
 * influence and 9 more); rigid spans are as above either way. */
#ifndef PLUMBOB_SKIN_PREPARED_KERNELS_H
#define PLUMBOB_SKIN_PREPARED_KERNELS_H

#include "kernels.h"

#define PB_SKINP_GROUP 8u
#define PB_SKINP_RIGID 0u
#define PB_SKINP_STORED 1u
#define PB_SKINP_IMPLIED 2u

/* Whole groups of one span, into outputs at vertex 0 of the first group
 * (vertex i to out + i * stride).  Packed triples (stride 3) and
 * positions with normals interleaved (strides 6, normals 3 floats in)
 * may be written with 16-byte stores that spill one float onto the next
 * vertex: `last_safe` 0 says the range's last vertex must not spill
 * (the output ends there). */
typedef struct pb_skinp_range {
    uint32_t groups;
    uint32_t influences;            /* 1..4 */
    uint32_t kind;                  /* PB_SKINP_RIGID, _STORED, _IMPLIED */
    const float *positions;         /* 24 floats a group */
    const float *normals;           /* 24 floats a group; NULL: no normal output */
    const float *weights;           /* 8 * stored floats a group */
    const uint16_t *entries;        /* 8 * influences a group: float offsets into table */
    const float *table;             /* 256 entries of PB_SKIN_ENTRY floats, 64-byte aligned */
    float *out_positions;
    size_t position_stride;         /* floats */
    float *out_normals;
    size_t normal_stride;
    uint32_t normalize;             /* 1: renormalize normals */
    uint32_t last_safe;             /* 1: the last vertex may spill too */
    uint32_t shared;                /* 1: entries per half group (2 * influences a group) */
    const float *splat;             /* shared: 256 entries of PB_SKINP_SPLAT floats, 64-byte aligned */
} pb_skinp_range;

/* Floats of a splatted entry: 12 elements, four lanes each. */
#define PB_SKINP_SPLAT 48u

/* Writes the splatted entry of the 3x4 row-major matrix at m (12 floats,
 * row-major; NULL: zeros), its elements as pb_skin_put_entry stores them
 * (-0 as +0, every NaN the quiet 0x7FC00000), so the rows table and the
 * splats hold the same bits. */
static inline void pb_skinp_put_splat(float *e, const float *m) {
    uint32_t j, i;
    for (j = 0; j < 12u; j++) {
        float x = m ? m[j] : 0.0f;
        if (x != x) x = pb_f32_from_bits(0x7FC00000u);
        else if (x == 0.0f) x = 0.0f;
        for (i = 0; i < 4u; i++) e[4u * j + i] = x;
    }
}

/* A job's slot tables: entry k of `table` (pb_skin_put_entry) and, with
 * `splat` not NULL, of `splat` (pb_skinp_put_splat) from the matrix
 * palette[joint ? joint[k] : k], for k < count; the zero entries are the
 * caller's.  Loads, integer masks and stores only: the SIMD twins give
 * the scalar loop's bits, NaN payloads and signed zeros included. */
#define pb_skin_put_entries_scalar plumbob_pb_skin_put_entries_scalar
#define pb_skin_put_entries_sse2 plumbob_pb_skin_put_entries_sse2
#define pb_skin_put_entries_neon plumbob_pb_skin_put_entries_neon
void pb_skin_put_entries_scalar(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                                uint32_t count);
#if defined(PLUMBOB_PORT_SSE2)
void pb_skin_put_entries_sse2(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                              uint32_t count);
#  define PB_SKIN_PUT_ENTRIES pb_skin_put_entries_sse2
#elif defined(PLUMBOB_PORT_NEON)
void pb_skin_put_entries_neon(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                              uint32_t count);
#  define PB_SKIN_PUT_ENTRIES pb_skin_put_entries_neon
#else
#  define PB_SKIN_PUT_ENTRIES pb_skin_put_entries_scalar
#endif

#define pb_skinp_scalar plumbob_pb_skinp_scalar
#define pb_skinp_sse2 plumbob_pb_skinp_sse2
#define pb_skinp_neon plumbob_pb_skinp_neon

void pb_skinp_scalar(const pb_skinp_range *r);
#if defined(PLUMBOB_PORT_SSE2)
void pb_skinp_sse2(const pb_skinp_range *r);
#  define PB_SKINP pb_skinp_sse2
#elif defined(PLUMBOB_PORT_NEON)
void pb_skinp_neon(const pb_skinp_range *r);
#  define PB_SKINP pb_skinp_neon
#else
#  define PB_SKINP pb_skinp_scalar
#endif

/* The stored weights a span of `kind` and `influences` keeps per vertex. */
static inline uint32_t pb_skinp_stored(uint32_t kind, uint32_t influences) {
    return kind == PB_SKINP_RIGID ? 0u : kind == PB_SKINP_IMPLIED ? influences - 1u : influences;
}

#endif
