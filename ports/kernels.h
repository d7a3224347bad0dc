/* The kernel interface: the hot loops (GMDC skinning, CLIP track sampling
 * and the skeleton's local -> model job) as one scalar reference and SIMD
 * twins.  The core calls
 * the PB_* names at the bottom; ports.h decides which twin they mean.
 *
 * Every SIMD twin performs the scalar reference's float operations in the
 * same order, lane by lane, or skips one only where it is exact (a weight
 * of 1 on a skinning table entry), so it gives the same bits (tests compare
 * with ==); ARMv7 NEON flushes subnormals, so there tests allow 1 ulp.  A
 * NaN comes out NaN on every port, but which NaN's payload survives where
 * two meet depends on operand order, so NaN bits may differ. */
#ifndef PLUMBOB_KERNELS_H
#define PLUMBOB_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "ports.h"
#include "plumbob/base.h"
#include "pb_bytes.h"
#include "pb_math.h"

/* Linear blend skinning of `count` vertices.  Inputs are the mesh's own
 * little-endian byte streams (or a morphed copy in the same layout); the
 * slot table holds the group's palette entries, PB_SKIN_ENTRY floats per
 * slot, 256 entries of which entry 255 is all zeros, written by
 * pb_skin_put_entry.  Per
 * vertex (pb_skin_influences): slot k is byte k of the assignment; 0xFF is
 * unused and weighs 0; stored weight k < weight_count, and with implied
 * weights (explicit_weights 0) the weight right after the stored ones is
 * 1 - the sum of the used ones, later ones 0; a
 * slot >= slot_count reads the zero entry (slot_offset, from
 * pb_skin_slot_offsets, maps each byte to its entry, so the kernels test no
 * bound per influence).  With terms t_k = w_k M_k, the blended rows are
 * R = t0, t0 + t1, (t0 + t1) + t2 or (t0 + t1) + (t2 + t3) for 1..4
 * influences (influences = weight_count + 1 with implied weights, at most
 * 4; weight_count itself with explicit ones, where no sum is taken and
 * every weight is a stored one, the same order); output component
 * j is p'j = ((Rj.a x + Rj.b y) + Rj.c z) + Rj.t and n'j = (Rj.a x + Rj.b y)
 * + Rj.c z times pb_normal_scale((n'x n'x + n'y n'y) + n'z n'z). */
typedef struct pb_skin_range {
    uint32_t count;
    const unsigned char *positions;   /* float3 per vertex */
    const unsigned char *normals;     /* float3 per vertex; NULL: no normal output */
    const unsigned char *assignments; /* u32 per vertex */
    const unsigned char *weights;     /* weight_count floats per vertex */
    uint32_t weight_count;            /* 0..3 implied, 1..4 explicit: the kernels specialize on it */
    uint32_t explicit_weights;        /* 1: every influence's weight stored (GEOM); 0: the last implied */
    uint32_t slot_count;              /* <= 255 */
    const float *slot_table;          /* 256 * PB_SKIN_ENTRY floats, 16-byte aligned */
    const uint16_t *slot_offset;      /* 256: slot byte -> float offset of its entry in slot_table */
    float *out_positions;
    size_t position_stride;           /* floats */
    float *out_normals;
    size_t normal_stride;
    uint32_t normalize;               /* 1: renormalize normals; 0: as the blend gives them */
} pb_skin_range;

#define PB_SKIN_ZERO_SLOT 255u

/* Kernels specialize on constants (the influence count) by inlining. */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_FORCE_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#  define PB_FORCE_INLINE static __forceinline
#else
#  define PB_FORCE_INLINE static inline
#endif
/* Rare paths stay out of line, so the hot loop keeps its values in registers. */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#  define PB_NOINLINE __declspec(noinline)
#else
#  define PB_NOINLINE
#endif
/* A hint to start loading the cache line at p (for writing when w is 1);
 * nothing where the compiler has no such builtin.  It never faults. */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_PREFETCH(p, w) __builtin_prefetch((p), (w))
#else
#  define PB_PREFETCH(p, w) ((void)(p))
#endif

/* A slot table entry holds its matrix twice: as rows x, y, z (each a b c
 * t) and four unused floats, which the kernels that skin four vertices at
 * a time read, then from PB_SKIN_COLUMNS as columns a, b, c, t (each x y z
 * 0), which the kernels that skin a vertex at a time read. */
#define PB_SKIN_ENTRY 32u
#define PB_SKIN_COLUMNS 16u

/* slot_offset for a table of slot_count entries: byte k -> entry k below
 * slot_count, the zero entry 255 from there on. */
static inline void pb_skin_slot_offsets(uint16_t offset[256], uint32_t slot_count) {
    uint32_t k;
    for (k = 0; k < 256u; k++) offset[k] = (uint16_t)(PB_SKIN_ENTRY * (k < slot_count ? k : PB_SKIN_ZERO_SLOT));
}

/* Writes the slot table entry of the 3x4 row-major matrix at m (12 floats;
 * NULL: the zero entry).  A -0 element is stored as +0 and every NaN as
 * the quiet NaN 0x7FC00000, so that 1 * e and e + 0 are e itself, bit for
 * bit, on the SIMD ports' CPUs (ARMv7 NEON flushes a subnormal e, as it
 * does everywhere): their kernels rely on it to skip the multiply of a run
 * of one-weight vertices whose weights are exactly 1. */
static inline void pb_skin_put_entry(float *e, const float *m) {
    uint32_t j, i;
    for (i = 0; i < PB_SKIN_ENTRY; i++) e[i] = 0.0f;
    if (!m) return;
    for (j = 0; j < 3u; j++)
        for (i = 0; i < 4u; i++) {
            float x = m[4u * j + i];
            if (x != x) x = pb_f32_from_bits(0x7FC00000u);
            else if (x == 0.0f) x = 0.0f;
            e[4u * j + i] = x;
            e[PB_SKIN_COLUMNS + 4u * i + j] = x;
        }
}

/* The table entry slot byte `slot` names (the zero entry past the table). */
PB_FORCE_INLINE const float *pb_skin_matrix(const pb_skin_range *r, uint32_t slot) {
    return r->slot_table + r->slot_offset[slot];
}

/* Influence k of a vertex whose assignment bytes are at ab (k and the
 * stored weight count constants after inlining, so the tests fold). */
PB_FORCE_INLINE void pb_skin_influence(const pb_skin_range *r, const unsigned char *ab, const unsigned char *wp,
                                       uint32_t k, uint32_t stored, float *sum, float *w, const float **m) {
    uint32_t slot = ab[k]; /* byte k of the little-endian word, on any host */
    if (slot == 0xFFu) {
        *w = 0.0f;
    } else {
        *w = k < stored ? pb_f32le(wp + 4u * k) : 1.0f - *sum;
        *sum += *w;
    }
    *m = pb_skin_matrix(r, slot);
}

/* Weights and matrices of the influences of the vertex whose assignment
 * bytes are at ab and stored weights at wp (shared by every port so all
 * of them see the same numbers); stored is the weight count: influences -
 * 1 with the last implied, influences with explicit weights (then the
 * sum is never used). */
PB_FORCE_INLINE void pb_skin_influences_at(const pb_skin_range *r, const unsigned char *ab, const unsigned char *wp,
                                           uint32_t influences, uint32_t stored, float w[4], const float *m[4]) {
    float sum = 0.0f;
    pb_skin_influence(r, ab, wp, 0, stored, &sum, &w[0], &m[0]);
    if (influences > 1) pb_skin_influence(r, ab, wp, 1, stored, &sum, &w[1], &m[1]);
    if (influences > 2) pb_skin_influence(r, ab, wp, 2, stored, &sum, &w[2], &m[2]);
    if (influences > 3) pb_skin_influence(r, ab, wp, 3, stored, &sum, &w[3], &m[3]);
}

/* Those of vertex v of the range's streams. */
PB_FORCE_INLINE void pb_skin_influences(const pb_skin_range *r, uint32_t v, uint32_t influences, uint32_t stored,
                                        float w[4], const float *m[4]) {
    /* no stored weights: the stream may be NULL, and NULL + 0 is undefined */
    pb_skin_influences_at(r, r->assignments + 4u * v, stored ? r->weights + 4u * stored * v : r->weights,
                          influences, stored, w, m);
}

/* CLIP sampling in lanes: four tracks of one kind (12-bit rotations or
 * 10-bit vectors) side by side, structure of arrays.  Each lane caches its
 * current key pair already dequantized; the core (core/clip_sampler.c)
 * moves the pairs before a frame, so the kernels only interpolate.  Per
 * lane, with t the time in ticks: alpha = min(max((t - ta) * |inv|, 0), 1);
 * rotations are pb_quat_nlerp4(a, b, alpha) (dot, sign, ta*a + tb*b, then
 * pb_quat_normalize4's rules), vectors a + (b - a) * alpha.  The
 * shorter-arc sign depends only on the two keys, so it is decided once per
 * span and b is stored negated when the dot product is negative (the
 * sign bit of inv says so; the kernels use |inv|): they then blend
 * (1 - alpha) a + alpha b with no dot product, and alpha * -b is exactly
 * -alpha * b, so the bits are nlerp4's.  Lanes with slot -1 (padding, or a
 * track outside the rig) are computed but not stored.  A group holds only
 * what the kernels and a schedule's records touch: 160 bytes for
 * rotations, 128 for translations (three rows a key), and groups lie back
 * to back, so a frame reads 2.5 or 2 cache lines per group (key ticks are
 * 16-bit in CLIP; the sampler plays rigs of up to 32,768 bones); which
 * track a lane plays, its key index and where its span ends (what searches
 * and the schedule-free walk need), the sampler keeps beside the groups.
 * Both kinds end in the same 32 bytes, their member tail (pb_clip_tail). */
#define PB_CLIP_ROTATION 4u /* components: the lane kind */
#define PB_CLIP_VECTOR 3u
#define PB_CLIP_SPAN_OPEN 0xFFFFu /* span end of a lane at its last key (or a padding lane) */
/* The last 32 bytes of a group of either kind: a member of both, so the
 * code that works on any group (key ticks, spans, slots) writes through a
 * pb_clip_tail that is really there, never through a cast over bytes. */
typedef struct pb_clip_tail {
    float inv[4];     /* +-1 / (tick of k + 1 - ta); +-0 holds key k; sign: b stored negated */
    uint16_t ta[4];   /* tick of key k */
    int16_t slot[4];  /* output slot, or -1 */
} pb_clip_tail;
typedef struct pb_clip_lanes { /* four rotation lanes */
    float a[4][4];    /* [component][lane]: key k, dequantized */
    float b[4][4];    /* key k + 1 (key k again at the last key), negated when inv's sign bit is set */
    pb_clip_tail tail;
} pb_clip_lanes;
typedef struct pb_clip_vlanes { /* four translation lanes: the same, three rows a key */
    float a[3][4];
    float b[3][4];
    pb_clip_tail tail;
} pb_clip_vlanes;
/* Bytes of a group of `components` rows a key: 160 or 128. */
#define PB_CLIP_GROUP_SIZE(components) (32u * (components) + (uint32_t)sizeof(pb_clip_tail))

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_clip_lanes_scalar plumbob_pb_clip_lanes_scalar
#define pb_skin_scalar plumbob_pb_skin_scalar
#define pb_skin_sse2 plumbob_pb_skin_sse2
#define pb_clip_lanes_sse2 plumbob_pb_clip_lanes_sse2
#define pb_skin_neon plumbob_pb_skin_neon
#define pb_clip_lanes_neon plumbob_pb_clip_lanes_neon
#define pb_skeleton_model_scalar plumbob_pb_skeleton_model_scalar
#define pb_skeleton_model_sse2 plumbob_pb_skeleton_model_sse2
#define pb_skeleton_model_neon plumbob_pb_skeleton_model_neon
#define pb_blend_layer_scalar plumbob_pb_blend_layer_scalar
#define pb_blend_layer_sse2 plumbob_pb_blend_layer_sse2
#define pb_blend_layer_neon plumbob_pb_blend_layer_neon
#define pb_blend_finish_scalar plumbob_pb_blend_finish_scalar
#define pb_blend_finish_sse2 plumbob_pb_blend_finish_sse2
#define pb_blend_finish_neon plumbob_pb_blend_finish_neon
#define pb_anim_euler_scalar plumbob_pb_anim_euler_scalar
#define pb_anim_euler_sse2 plumbob_pb_anim_euler_sse2
#define pb_anim_euler_neon plumbob_pb_anim_euler_neon
#define pb_blend_soa_scalar plumbob_pb_blend_soa_scalar
#define pb_blend_soa_sse2 plumbob_pb_blend_soa_sse2
#define pb_blend_soa_neon plumbob_pb_blend_soa_neon
#define pb_blend_aos_sse2 plumbob_pb_blend_aos_sse2
#define pb_blend_aos_neon plumbob_pb_blend_aos_neon
#define pb_additive_soa_scalar plumbob_pb_additive_soa_scalar
#define pb_additive_soa_sse2 plumbob_pb_additive_soa_sse2
#define pb_additive_soa_neon plumbob_pb_additive_soa_neon
#define pb_anim_curves_scalar plumbob_pb_anim_curves_scalar
#define pb_anim_curves_sse2 plumbob_pb_anim_curves_sse2
#define pb_anim_curves_neon plumbob_pb_anim_curves_neon
#define pb_pose_mirror_scalar plumbob_pb_pose_mirror_scalar
#define pb_pose_mirror_sse2 plumbob_pb_pose_mirror_sse2
#define pb_pose_mirror_neon plumbob_pb_pose_mirror_neon
#define pb_pose_to_soa_scalar plumbob_pb_pose_to_soa_scalar
#define pb_pose_to_soa_sse2 plumbob_pb_pose_to_soa_sse2
#define pb_pose_to_soa_neon plumbob_pb_pose_to_soa_neon
#define pb_pose_from_soa_scalar plumbob_pb_pose_from_soa_scalar
#define pb_pose_from_soa_sse2 plumbob_pb_pose_from_soa_sse2
#define pb_pose_from_soa_neon plumbob_pb_pose_from_soa_neon
#define pb_skeleton_model_soa_scalar plumbob_pb_skeleton_model_soa_scalar
#define pb_skeleton_model_soa_sse2 plumbob_pb_skeleton_model_soa_sse2
#define pb_skeleton_model_soa_neon plumbob_pb_skeleton_model_soa_neon

/* Skeleton local -> model (plumbob_skeleton_model's loop, parents already
 * checked to come before their children): bone i's pose is 10 floats at
 * local + 10 i (rotation x y z w, translation, scale), its model matrix 12
 * floats at model + 12 i (3x4 row-major).  model_i = model_parent[i] *
 * M_i, roots M_i, with M = pb_mat34_trs and the product pb_mat34_mul12
 * (core/pb_math.h). */
void pb_skeleton_model_scalar(const int32_t *parent, const float *local, uint32_t count, float *model);
/* The same over blocked poses (plumbob_skeleton_model_soa): bone i's pose
 * is lane i % 4 of local[i / 4], the bits bone for bone those of
 * pb_skeleton_model_scalar; padding lanes are never read into the output. */
void pb_skeleton_model_soa_scalar(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model);

/* A blend weight clamped to [0, 1]; NaN gives 0. */
static inline float pb_weight01(float x) {
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

/* w, negated when dot < 0: the sign bit flipped without a branch (the
 * dot's sign is a coin toss for unrelated poses, which a branch
 * mispredicts); the same bits as -w. */
static inline float pb_blend_signed(float w, float dot) {
    return pb_f32_from_bits(pb_bits_from_f32(w) ^ ((uint32_t)(dot < 0.0f) << 31));
}

/* One layer of a pose blend (plumbob_pose_blend) over `count` bones:
 * poses are 10 floats (rotation x y z w, translation, scale) at pose + 10
 * b, accumulated into acc + 10 b, the weight into wsum[b].  Per bone, w =
 * lw * pb_weight01(bw[b]) (lw alone when bw is NULL; lw already clamped);
 * rotation weight ws = w, or -w when not `first` and ((r0 p0 + r1 p1) + r2
 * p2) + r3 p3 < 0 with r the rotation at ref + 10 b (layer 0's: the
 * hemisphere).  first: acc = ws * rotation, w * translation and scale,
 * wsum = w; else acc += those products, wsum += w. */
void pb_blend_layer_scalar(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                           int first, float *acc, float *wsum);

/* The rest-pose fallback of one bone whose products are at a (10 floats)
 * and weight sum w < threshold: the rest pose at rest (10 floats) joins
 * with weight threshold - w (its rotation's sign against ref's, as a
 * layer's); returns the new sum, threshold.  A bone no layer weighs takes
 * the rest products alone (what a layer weighing 0 left may be NaN). */
static inline float pb_blend_fallback(float *a, float w, const float *rest, const float *ref, float threshold) {
    uint32_t i;
    float rw = threshold - w, rs = rw;
    if (((ref[0] * rest[0] + ref[1] * rest[1]) + ref[2] * rest[2]) + ref[3] * rest[3] < 0.0f) rs = -rw;
    if (w > 0.0f) {
        for (i = 0; i < 4u; i++) a[i] = a[i] + rs * rest[i];
        for (i = 4u; i < 10u; i++) a[i] = a[i] + rw * rest[i];
    } else {
        for (i = 0; i < 4u; i++) a[i] = rs * rest[i];
        for (i = 4u; i < 10u; i++) a[i] = rw * rest[i];
    }
    return threshold;
}

/* x clamped to [-FLT_MAX, FLT_MAX], NaN left as it is. */
static inline float pb_clamp_finite(float x) {
    return x > FLT_MAX ? FLT_MAX : (x < -FLT_MAX ? -FLT_MAX : x);
}

/* a * b for quaternions as 4 floats (x y z w): apply b, then a. */
static inline void pb_quat_mul4(const float a[4], const float b[4], float o[4]) {
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    o[0] = x;
    o[1] = y;
    o[2] = z;
    o[3] = w;
}

/* One bone of plumbob_pose_additive_apply (runtime.h gives the formulas):
 * base s and delta d (10 floats each), weight w in [0, 1], into o (may
 * not be s or d).  The rotation is normalized once, after the product:
 * normalize(s * p) is normalize(s * normalize(p)) up to rounding, since p
 * only scales the product, and |p|^2 >= (1 - w)^2 + w^2 >= 1/2 for a unit
 * delta.  The square root and division are correctly rounded, so every
 * port's vector twin gives these bits with its own instructions. */
static inline void pb_additive_bone(const float s[10], const float d[10], float w, float o[10]) {
    float p[4], om = 1.0f - w, sw = d[3] < 0.0f ? -w : w, len2, inv;
    uint32_t i;
    /* (1 - w) (0 0 0 1) + w (+-delta): nlerp(identity, delta, w) before its
     * normalization, on the shorter arc */
    p[0] = sw * d[0];
    p[1] = sw * d[1];
    p[2] = sw * d[2];
    p[3] = om + sw * d[3];
    pb_quat_mul4(s, p, o);
    len2 = ((o[0] * o[0] + o[1] * o[1]) + o[2] * o[2]) + o[3] * o[3];
    if (!(len2 > 0.0f) || len2 > FLT_MAX) { /* zero or not finite: identity */
        o[0] = o[1] = o[2] = 0.0f;
        o[3] = 1.0f;
    } else {
        inv = 1.0f / pb_sqrtf_rn(len2);
        for (i = 0; i < 4u; i++) o[i] = o[i] * inv;
    }
    for (i = 4u; i < 7u; i++) o[i] = pb_clamp_finite(s[i] + w * d[i]);
    for (i = 7u; i < 10u; i++) o[i] = pb_clamp_finite(s[i] * (om + w * d[i]));
}

/* plumbob_pose_additive_apply_soa after its checks: pb_additive_bone per
 * bone of every block (padding lanes weigh lw, as a mask of 1), lw the
 * clamped weight, bw the mask or NULL. */
void pb_additive_soa_scalar(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                            uint32_t bone_count, plumbob_pose_soa *out);

/* The end of a pose blend over `count` bones (after every layer's
 * pb_blend_layer): per bone, w = wsum[b] (through pb_blend_fallback when
 * below threshold; rest and ref as there, 10 floats per bone); the
 * rotation at acc + 10 b divided by its length, 1 / sqrt(len2) with both
 * steps correctly rounded, len2 = ((x x + y y) + z z) + w w (identity when
 * len2 is 0, infinite or NaN); translation and scale times 1 / w, each
 * then clamped to [-FLT_MAX, FLT_MAX] (NaN stays NaN). */
void pb_blend_finish_scalar(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                            uint32_t count);

/* The Sims 2 ANIM sampler's Euler step (core/runtime/anim_sampler.c):
 * `count` rotations whose angles in degrees are rows of angles (X at
 * angles[i], Y at angles[count + i], Z at angles[2 count + i]), each
 * plumbob_anim_euler_to_quat's quaternion (pb_half_angle_sin_cos of each
 * angle, q = qz qy qx, pb_quat_normalize4; the same bits) into out +
 * stride * slot[i] (floats: x y z w). */
void pb_anim_euler_scalar(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride);
/* The whole of plumbob_pose_blend_soa after its checks (layers' poses,
 * rest and out hold blocks for bone_count bones; threshold in (0, 1]):
 * per bone, plumbob_pose_blend's operations in its order (pb_blend_layer
 * for each layer, then pb_blend_finish), so every bone gets the AoS job's
 * bits; a padding lane weighs as if its mask said 1.  Block by block, all
 * layers at once: the accumulator is written once. */
void pb_blend_soa_scalar(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                         uint32_t bone_count, float threshold, plumbob_pose_soa *out);

/* The scheduled ANIM sampler's curves (core/runtime/anim_sampler.c):
 * `count` lanes (a multiple of 4) in 6 rows of `count` floats at lanes
 * (t0, 1 / dt, c0, c1, c2, c3); value i = c0 when ticks <= t0, else the
 * cubic by Horner's rule at u = (ticks - t0) * (1 / dt), at most 1 (the
 * operations of plumbob_anim_sample_component: the same bits). */
void pb_anim_curves_scalar(const float *lanes, uint32_t count, float ticks, float *values);
/* plumbob_pose_mirror's loop after its checks (every opposite[k] in
 * [0, count), out not overlapping in): bone k's ten floats (rotation x y
 * z w, translation, scale) at out + 10 k are bone opposite[k]'s with
 * rotation y, z and translation x negated. */
void pb_pose_mirror_scalar(const int32_t *opposite, const float *in, uint32_t count, float *out);

/* plumbob_pose_to_soa / _from_soa on whole blocks: `blocks` groups of four
 * bone poses (10 floats each, 40 a group) into as many plumbob_pose_soa
 * blocks (rows of four), and back.  Copies only, so every port gives the
 * same bits, NaN payloads included; in and out do not overlap. */
void pb_pose_to_soa_scalar(const float *in, uint32_t blocks, float *out);
void pb_pose_from_soa_scalar(const float *in, uint32_t blocks, float *out);

/* Samples `count` lane groups of one kind (components: PB_CLIP_ROTATION,
 * g an array of pb_clip_lanes, or PB_CLIP_VECTOR, of pb_clip_vlanes) at t
 * (ticks, finite) into out + stride * slot (floats): 4 floats per
 * rotation, 3 per vector. */
void pb_clip_lanes_scalar(const void *g, uint32_t count, uint32_t components, float t, float *out,
                          size_t stride);

void pb_skin_scalar(const pb_skin_range *r);
#if defined(PLUMBOB_PORT_SSE2)
void pb_skin_sse2(const pb_skin_range *r);
void pb_clip_lanes_sse2(const void *g, uint32_t count, uint32_t components, float t, float *out,
                        size_t stride);
void pb_skeleton_model_sse2(const int32_t *parent, const float *local, uint32_t count, float *model);
#  define PB_SKIN pb_skin_sse2
#  define PB_CLIP_LANES pb_clip_lanes_sse2
#  define PB_SKELETON_MODEL pb_skeleton_model_sse2
void pb_blend_layer_sse2(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                         int first, float *acc, float *wsum);
#  define PB_BLEND_LAYER pb_blend_layer_sse2
void pb_blend_finish_sse2(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                          uint32_t count);
#  define PB_BLEND_FINISH pb_blend_finish_sse2
void pb_anim_euler_sse2(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride);
#  define PB_ANIM_EULER pb_anim_euler_sse2
void pb_blend_soa_sse2(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out);
#  define PB_BLEND_SOA pb_blend_soa_sse2
/* plumbob_pose_blend's whole groups of four bones (vector ports only; the
 * scalar port keeps the layer passes): `whole` groups from bone 0, 1 to
 * PB_BLEND_AOS_LAYERS layers (poses: each layer's bone poses as floats,
 * masks: its bone weights or NULL, weights: its weight, unclamped), rest
 * and out as bone poses' floats; the bits of pb_blend_layer +
 * pb_blend_finish. */
#  define PB_BLEND_AOS_LAYERS 8u
void pb_blend_aos_sse2(const float *const *poses, const float *const *masks, const float *weights,
                       uint32_t layer_count, const float *rest, uint32_t whole, float threshold, float *out);
#  define PB_BLEND_AOS pb_blend_aos_sse2
void pb_additive_soa_sse2(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out);
#  define PB_ADDITIVE_SOA pb_additive_soa_sse2
void pb_anim_curves_sse2(const float *lanes, uint32_t count, float ticks, float *values);
#  define PB_ANIM_CURVES pb_anim_curves_sse2
void pb_pose_mirror_sse2(const int32_t *opposite, const float *in, uint32_t count, float *out);
#  define PB_POSE_MIRROR pb_pose_mirror_sse2
void pb_pose_to_soa_sse2(const float *in, uint32_t blocks, float *out);
void pb_pose_from_soa_sse2(const float *in, uint32_t blocks, float *out);
#  define PB_POSE_TO_SOA pb_pose_to_soa_sse2
#  define PB_POSE_FROM_SOA pb_pose_from_soa_sse2
void pb_skeleton_model_soa_sse2(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model);
#  define PB_SKELETON_MODEL_SOA pb_skeleton_model_soa_sse2
#elif defined(PLUMBOB_PORT_NEON)
void pb_skin_neon(const pb_skin_range *r);
void pb_clip_lanes_neon(const void *g, uint32_t count, uint32_t components, float t, float *out,
                        size_t stride);
void pb_skeleton_model_neon(const int32_t *parent, const float *local, uint32_t count, float *model);
#  define PB_SKIN pb_skin_neon
#  define PB_CLIP_LANES pb_clip_lanes_neon
#  define PB_SKELETON_MODEL pb_skeleton_model_neon
void pb_blend_layer_neon(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                         int first, float *acc, float *wsum);
#  define PB_BLEND_LAYER pb_blend_layer_neon
void pb_blend_finish_neon(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                          uint32_t count);
#  define PB_BLEND_FINISH pb_blend_finish_neon
void pb_anim_euler_neon(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride);
#  define PB_ANIM_EULER pb_anim_euler_neon
void pb_blend_soa_neon(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out);
#  define PB_BLEND_SOA pb_blend_soa_neon
#  define PB_BLEND_AOS_LAYERS 8u
void pb_blend_aos_neon(const float *const *poses, const float *const *masks, const float *weights,
                       uint32_t layer_count, const float *rest, uint32_t whole, float threshold, float *out);
#  define PB_BLEND_AOS pb_blend_aos_neon
void pb_additive_soa_neon(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out);
#  define PB_ADDITIVE_SOA pb_additive_soa_neon
void pb_anim_curves_neon(const float *lanes, uint32_t count, float ticks, float *values);
#  define PB_ANIM_CURVES pb_anim_curves_neon
void pb_pose_mirror_neon(const int32_t *opposite, const float *in, uint32_t count, float *out);
#  define PB_POSE_MIRROR pb_pose_mirror_neon
void pb_pose_to_soa_neon(const float *in, uint32_t blocks, float *out);
void pb_pose_from_soa_neon(const float *in, uint32_t blocks, float *out);
#  define PB_POSE_TO_SOA pb_pose_to_soa_neon
#  define PB_POSE_FROM_SOA pb_pose_from_soa_neon
void pb_skeleton_model_soa_neon(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model);
#  define PB_SKELETON_MODEL_SOA pb_skeleton_model_soa_neon
#else
#  define PB_SKIN pb_skin_scalar
#  define PB_CLIP_LANES pb_clip_lanes_scalar
#  define PB_SKELETON_MODEL pb_skeleton_model_scalar
#  define PB_BLEND_LAYER pb_blend_layer_scalar
#  define PB_BLEND_FINISH pb_blend_finish_scalar
#  define PB_ANIM_EULER pb_anim_euler_scalar
#  define PB_BLEND_SOA pb_blend_soa_scalar
#  define PB_ADDITIVE_SOA pb_additive_soa_scalar
#  define PB_ANIM_CURVES pb_anim_curves_scalar
#  define PB_POSE_MIRROR pb_pose_mirror_scalar
#  define PB_POSE_TO_SOA pb_pose_to_soa_scalar
#  define PB_POSE_FROM_SOA pb_pose_from_soa_scalar
#  define PB_SKELETON_MODEL_SOA pb_skeleton_model_soa_scalar
#endif

#endif
