/* plumbob/runtime.h: the runtime of plumbob.h (docs/ARCHITECTURE.md):
 * the per-frame jobs over prepared objects: skeleton
 * rest pose and model space, CLIP playback (bind, schedule, sampler),
 * skinning (the format-neutral job, GMDC's preparer), the jazz runtime.
 * A game includes plumbob.h, which includes every layer; this file may be
 * included alone and brings the layers it builds on. */
#ifndef PLUMBOB_RUNTIME_H
#define PLUMBOB_RUNTIME_H

#include "sims2.h"
#include "sims3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Chapter 17 Skeletons: rest pose and model space                       */
/* ===================================================================== */

/* Rest-pose fill: copies the rest transforms of bones [first, first + count)
 * into poses[first ...].  Run it before sampling a clip into the same poses:
 * samplers write only what a clip animates, so every bone and channel the
 * clip leaves alone keeps its rest value.  pose_count: how many poses the
 * array holds (at least first + count).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, or a range past bone_count),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (pose_count below first + count); nothing
 * is written then. */
PLUMBOB_API plumbob_result plumbob_skeleton_rest_pose(const plumbob_skeleton *skeleton, uint32_t first,
                                                      uint32_t count, plumbob_bone_pose *poses,
                                                      uint32_t pose_count);

/* Local -> model: model[i] = model[parent[i]] * T(translation) * R(rotation)
 * * S(scale) of local[i] (roots: the local transform alone), as 3x4
 * matrices ready for a skinning palette.  local NULL means the rest pose.
 * Rotations are used as given (normalize them first if they may not be
 * unit; sampler output always is).  Parents are read from model[], so
 * model must not alias local; local holds bone_count poses.  model_count:
 * how many matrices model holds (at least bone_count).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL skeleton or model),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (model_count below bone_count),
 * PLUMBOB_ERR_BAD_INDEX (parents out of order, as
 * plumbob_skeleton_validate); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skeleton_model(const plumbob_skeleton *skeleton,
                                                  const plumbob_bone_pose *local, plumbob_mat34 *model,
                                                  uint32_t model_count);

/* Local -> model for rotations alone: rotations[i] = normalize(
 * rotations[parent[i]] * normalize(local[i].rotation)) (roots: the
 * normalized local rotation), the model-space orientation of every bone as a
 * unit quaternion, for exporters and tools that write rotations rather than
 * matrices (a glTF joint's world rotation, a bind pose).  local NULL means
 * the rest pose; local holds bone_count poses.  rotation_count: how many
 * quaternions rotations holds (at least bone_count).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL skeleton or rotations),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (rotation_count below bone_count),
 * PLUMBOB_ERR_BAD_INDEX (parents out of order); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skeleton_model_rotations(const plumbob_skeleton *skeleton,
                                                            const plumbob_bone_pose *local, plumbob_quat *rotations,
                                                            uint32_t rotation_count);

/* One bone's local transform as a matrix: T(translation) * R(rotation) *
 * S(scale). */
PLUMBOB_API plumbob_mat34 plumbob_mat34_from_pose(const plumbob_bone_pose *pose);


/* ===================================================================== */
/* Chapter 18 CLIP playback (Chapter 14's clips on a rig)                */
/* ===================================================================== */

/* --- Playback: what a game uses ---------------------------------------
 * decode -> plumbob_clip_bind (to a rig's bone hashes) ->
 * plumbob_clip_schedule_build (once per clip) -> plumbob_clip_sampler_init
 * (once per playing instance) -> plumbob_clip_sampler_sample every frame,
 * between plumbob_skeleton_rest_pose and plumbob_skeleton_model (Chapter
 * 17).  docs/ARCHITECTURE.md walks the whole path with its memory. */

/* A rig map: where each track's value goes in the engine's own arrays.  It
 * knows the clip it was made for by address: every call that takes a
 * binding with a clip (or a schedule) refuses one made for another clip,
 * even of the same track count.  So keep the plumbob_clip where it was
 * decoded (a copy of the struct is another clip). */
typedef struct plumbob_clip_binding {
    const plumbob_clip *clip; /* the clip it was made for */
    int32_t *bone_of_track;   /* per track: output bone slot, or -1 when not in the rig */
    int32_t *morph_of_track;  /* per track: output morph slot, or -1 */
    uint32_t track_count;
    uint32_t bone_count;      /* the bone list bound to: every pose array holds this many */
    uint32_t morph_count;     /* the morph list bound to: every weight array holds this many */
} plumbob_clip_binding;

/* Arena bytes plumbob_clip_bind needs: PLUMBOB_CLIP_BIND_SIZE(track_count)
 * (8 per track); SIZE_MAX for NULL. */
PLUMBOB_API size_t plumbob_clip_bind_size(const plumbob_clip *clip);
#define PLUMBOB_CLIP_BIND_SIZE(tracks) (2u * PLUMBOB_ARENA_NEED((tracks), sizeof(int32_t)))

/* Maps tracks to the caller's bones (by bone-name hash) and morphs (by
 * morph hash), and records `clip`, bone_count and morph_count in the
 * binding (the sizes its pose and weight arrays must have).  Tracks whose hash is not
 * listed are skipped when sampling; the first match wins.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL clip, arena or binding; NULL hashes
 * with a count), PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_clip_bind_size). */
PLUMBOB_API plumbob_result plumbob_clip_bind(const plumbob_clip *clip, const uint32_t *bone_hashes,
                                             uint32_t bone_count, const uint32_t *morph_hashes,
                                             uint32_t morph_count, plumbob_arena *arena,
                                             plumbob_clip_binding *binding);

/* Arena bytes plumbob_rig_bind needs (plumbob_clip_bind_size of the clip);
 * SIZE_MAX for NULL arguments or a rig without name hashes. */
PLUMBOB_API size_t plumbob_rig_bind_size(const plumbob_clip *clip, const plumbob_rig *rig);

/* Binds a clip to a rig in one call: bone tracks (rotation, translation,
 * scale) to the skeleton view's bones by name hash, so sampled poses land
 * in skeleton order; morph tracks only to morph_hashes (may be NULL with
 * morph_count 0), never to bones.  Errors: as plumbob_clip_bind (also
 * PLUMBOB_ERR_INVALID_ARGUMENT for a NULL rig or one without name hashes). */
PLUMBOB_API plumbob_result plumbob_rig_bind(const plumbob_clip *clip, const plumbob_rig *rig,
                                            const uint32_t *morph_hashes, uint32_t morph_count,
                                            plumbob_arena *arena, plumbob_clip_binding *binding);


/* The schedule: a clip's 12-bit rotation and 10-bit translation keys
 * (nearly every key of a real clip) dequantized once and laid out in the
 * order forward playback needs them, so a sampler's per-frame key updates
 * read one stream front to back instead of searching each track.  It
 * depends on the clip alone: build it once, next to the decoded clip, and
 * share it read-only between every sampler of that clip (any rig, any
 * thread).  Costs 24 arena bytes per rotation key and 20 per translation
 * key after each track's first, plus 4 per track of two keys or more
 * (plumbob_clip_schedule_size; the 19 sample clips need 0.1 to 1.1 MB). */
typedef struct plumbob_clip_schedule {
    const plumbob_clip *clip;
    const uint32_t *lane_track[2]; /* track of each rotation lane [0] and vector lane [1]: the
                                    * tracks of those kinds with two keys or more, in track order */
    uint32_t lane_count[2];
    const void *key_records[2];    /* the key streams: one record a key (internal layout) */
    uint32_t key_record_count[2];
} plumbob_clip_schedule;

/* Arena bytes plumbob_clip_schedule_build needs, alignment and its
 * temporary tick table included; SIZE_MAX for NULL.  Never above
 * PLUMBOB_CLIP_SCHEDULE_SIZE(track_count, keys, ticks), where keys counts
 * the keys of all tracks and ticks is one more than the largest key tick
 * (the clip's tick_count in game files; 65536 always holds). */
PLUMBOB_API size_t plumbob_clip_schedule_size(const plumbob_clip *clip);
#define PLUMBOB_CLIP_SCHEDULE_SIZE(tracks, keys, ticks)                              \
    (PLUMBOB_ARENA_NEED((tracks), 4u) + 7u + PLUMBOB_ARENA_NEED((keys), 24u) + 7u + \
     PLUMBOB_ARENA_NEED((ticks), 4u))

/* Builds the schedule of a decoded clip (the clip and its key bytes must
 * outlive it).  Linear in the clip's keys plus its last tick.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_OUT_OF_MEMORY
 * (see plumbob_clip_schedule_size). */
PLUMBOB_API plumbob_result plumbob_clip_schedule_build(const plumbob_clip *clip, plumbob_arena *arena,
                                                       plumbob_clip_schedule *schedule);

/* The sampler: fast playback of one clip on one rig.  It keeps, per
 * scheduled track, the current pair of keys already dequantized, and runs
 * the port's SIMD kernel over four tracks at a time (docs/API.md), so a
 * frame of forward playback interpolates and then applies the schedule's
 * keys whose time has come.  Any time order works: stepping back re-seeks
 * the tracks whose span it leaves, a far jump re-seeks every track.  A
 * track of one key or none (43-68% of a sample clip's tracks) is a
 * constant: its value is computed once and copied each frame.  Costs 52
 * arena bytes per scheduled track and 20 per constant
 * (plumbob_clip_sampler_size); the plain cursor costs 2.  The schedule is optional: a sampler made without
 * one (schedule NULL) walks the clip's keys itself, checking each track's
 * span every frame, so it needs no memory per key (the schedule costs 24
 * per key) and gives the same bits, at some time per frame (docs/API.md,
 * docs/BENCHMARKS.md measure both).  The results equal plumbob_clip_sample_pose's within
 * float rounding (the weight between keys is a multiply by a stored
 * reciprocal instead of a divide): within 2e-6 for rotations. */
typedef struct plumbob_clip_sampler {
    const plumbob_clip *clip;
    const plumbob_clip_schedule *schedule;
    void *lanes;              /* rotation groups, then vector groups (internal) */
    uint32_t rotation_groups, vector_groups;
    void *constants;          /* tracks of one key or none: values to copy (internal) */
    uint32_t constant_count[2]; /* rotations, then translations (internal) */
    uint32_t constant_value_count[2]; /* their distinct values (internal) */
    void *others;             /* tracks sampled one by one (internal) */
    uint32_t other_count;
    uint32_t flags;
    uint32_t next_key_record[2];   /* schedule position of each stream */
    int32_t tick;             /* whole tick of the lanes' state; INT32_MIN before the first sample */
    uint32_t bone_count;      /* poses a sample writes into: the binding's bone_count (at least
                               * one past its highest bone slot) */
    uint32_t morph_count;     /* morph weights likewise */
} plumbob_clip_sampler;

/* plumbob_clip_sampler_init flag: run the scalar reference kernel instead
 * of the port's SIMD twin (for tests and benchmarks; same results). */
#define PLUMBOB_CLIP_SAMPLER_REFERENCE 1u

/* Arena bytes plumbob_clip_sampler_init needs (with alignment padding):
 * one group of PLUMBOB_CLIP_SAMPLER_GROUP_BYTES per four rotation tracks
 * with two keys or more and one of PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES
 * per four such translation tracks, 64 to align them,
 * PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES per bound rotation with one key or none
 * (PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES per translation),
 * PLUMBOB_CLIP_SAMPLER_OTHER_BYTES per track sampled one by one, and a
 * temporary sort init gives back (8 bytes per bound lane-kind track and a
 * bit per track: which constants a later track of their bone overwrites).
 * schedule may be NULL (the binding's clip is
 * then the sampler's).  SIZE_MAX for a NULL binding or a schedule
 * and a binding made for different clips.  Never above
 * PLUMBOB_CLIP_SAMPLER_SIZE(track_count), whatever the rig. */
PLUMBOB_API size_t plumbob_clip_sampler_size(const plumbob_clip_schedule *schedule,
                                             const plumbob_clip_binding *binding);
#define PLUMBOB_CLIP_SAMPLER_GROUP_BYTES 192u /* rotations: 160 of lane state, 32 beside it: tracks, keys, span ends */
#define PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES 160u /* translations: 128 of lane state, 32 beside it */
#define PLUMBOB_CLIP_SAMPLER_OTHER_BYTES 16u
#define PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES 20u
#define PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES 16u
#define PLUMBOB_CLIP_SAMPLER_SIZE(tracks)                                                  \
    (PLUMBOB_ARENA_NEED(((size_t)(tracks) + 6u) / 4u, PLUMBOB_CLIP_SAMPLER_GROUP_BYTES) + \
     64u + PLUMBOB_ARENA_NEED((tracks), PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES) +             \
     PLUMBOB_ARENA_NEED((tracks), PLUMBOB_CLIP_SAMPLER_OTHER_BYTES) +                      \
     PLUMBOB_ARENA_NEED((tracks), 8u) + PLUMBOB_ARENA_NEED((size_t)(tracks) / 32u + 1u, 4u))

/* Builds a sampler for the tracks `binding` maps (the schedule, or with
 * schedule NULL the binding's clip, must outlive it; it copies what it
 * needs of the binding).  flags: 0 or PLUMBOB_CLIP_SAMPLER_REFERENCE.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL binding, arena or sampler; a
 * binding made for another clip than the schedule's, compared by address,
 * not by track count; a schedule whose lanes are not the clip's lane
 * tracks in track order, as plumbob_clip_schedule_build makes them;
 * a schedule whose lane counts exceed the clip's tracks; unknown flags),
 * PLUMBOB_ERR_UNSUPPORTED (a rotation or translation track bound to a
 * bone past 32,767: the sampler keeps 16-bit slots, so a frame reads
 * fewer bytes; plumbob_clip_sample_pose plays any rig),
 * PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_clip_sampler_size).  A schedule
 * is plumbob_clip_schedule_build's output, not input data: its record
 * streams are not checked again. */
PLUMBOB_API plumbob_result plumbob_clip_sampler_init(const plumbob_clip_schedule *schedule,
                                                     const plumbob_clip_binding *binding, uint32_t flags,
                                                     plumbob_arena *arena, plumbob_clip_sampler *sampler);

/* Samples every bound track at `seconds` into poses[bone slot] and
 * morph_weights[morph slot], as plumbob_clip_sample_pose does.
 *   poses, pose_count: the output poses and how many the array holds; at
 *     least sampler->bone_count (the bone_count given to plumbob_clip_bind:
 *     slots index that list).  poses NULL skips bones (pose_count ignored).
 *   morph_weights, morph_count: likewise, at least sampler->morph_count.
 * Only driven channels are written: run plumbob_skeleton_rest_pose first,
 * or write the rest pose where plumbob_clip_sampler_driven_mask says no
 * track drives a bone.  Any time is defined: NaN plays the first key, times
 * before the first key or after the last (the infinities too) hold it.
 * When two tracks drive the same value, 12-bit rotation and 10-bit
 * translation tracks are written before the others.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL sampler, or a sampler
 * plumbob_clip_sampler_init did not make), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (pose_count below sampler->bone_count with poses, or morph_count below
 * sampler->morph_count with morph_weights); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_clip_sampler_sample(plumbob_clip_sampler *sampler, float seconds,
                                                       plumbob_bone_pose *poses, uint32_t pose_count,
                                                       float *morph_weights, uint32_t morph_count);

/* Which bones the sampler's tracks drive: bit (b & 31) of mask[b / 32] is
 * set when some bound track writes a channel (rotation, translation or
 * scale) of bone b, clear otherwise; a blend job can rest-fill the clear
 * ones alone.  The mask holds word_count 32-bit words: at least
 * (sampler->bone_count + 31) / 32; bits past bone_count are cleared.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL sampler or mask, a sampler
 * plumbob_clip_sampler_init did not make), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (word_count too small); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_clip_sampler_driven_mask(const plumbob_clip_sampler *sampler,
                                                            uint32_t *mask, uint32_t word_count);

#if defined(PLUMBOB_TOOLS_API) && !defined(PLUMBOB_STABLE_ONLY) /* single-track sampling and the cursor */
/* --- Single-track sampling and the cursor: for tools and tests ---------
 * The same values as the sampler with less memory and more time per frame:
 * random access to one track, a 2-byte-per-track cursor, and a whole pose
 * without a schedule.  A game's update loop wants the sampler above. */

/* Key k of track `track`: its tick (*tick, may be NULL) and dequantized
 * values in out[0..components) (sign, then scale and offset; rotations are
 * returned as stored, not normalized).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL clip or out, track >= track_count, k >= the track's key_count);
 * nothing is written then. */
PLUMBOB_API plumbob_result plumbob_clip_key_value(const plumbob_clip *clip, uint32_t track, uint32_t k,
                                                  uint16_t *tick, float out[4]);

/* The value of track `track` at `seconds` by the rule in docs/FORMATS.md:
 * clamp to the first and last key (times before the first, after the
 * last and the infinities hold it; NaN plays the first key), lerp vectors
 * and morphs, shorter-arc nlerp for rotations (always unit), keyless
 * tracks constant (identity rotation; `offset` otherwise).  Fills
 * `components` floats of out.  Random access: a binary search per call.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, track >= track_count);
 * nothing is written then. */
PLUMBOB_API plumbob_result plumbob_clip_sample_track(const plumbob_clip *clip, uint32_t track, float seconds,
                                                     float out[4]);

/* Forward-playback cursor: the current key of every track, so a frame costs
 * O(tracks) rather than O(keys).  Any time order works (it falls back to a
 * search when time jumps backwards or far ahead).  Like a binding, it
 * knows its clip by address and is refused with any other. */
typedef struct plumbob_clip_cursor {
    const plumbob_clip *clip; /* the clip it was made for */
    uint16_t *key;            /* per track, in the arena */
    uint32_t track_count;
} plumbob_clip_cursor;

/* Arena bytes plumbob_clip_cursor_init needs:
 * PLUMBOB_CLIP_CURSOR_SIZE(track_count) (2 per track); SIZE_MAX for NULL. */
PLUMBOB_API size_t plumbob_clip_cursor_size(const plumbob_clip *clip);
#define PLUMBOB_CLIP_CURSOR_SIZE(tracks) PLUMBOB_ARENA_NEED((tracks), sizeof(uint16_t))

/* Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_OUT_OF_MEMORY
 * (see plumbob_clip_cursor_size). */
PLUMBOB_API plumbob_result plumbob_clip_cursor_init(const plumbob_clip *clip, plumbob_arena *arena,
                                                    plumbob_clip_cursor *cursor);

/* plumbob_clip_sample_track through the cursor: the same values.  Errors:
 * those of plumbob_clip_sample_track, and PLUMBOB_ERR_INVALID_ARGUMENT for a
 * cursor made for another clip. */
PLUMBOB_API plumbob_result plumbob_clip_sample_track_cursor(const plumbob_clip *clip,
                                                            plumbob_clip_cursor *cursor, uint32_t track,
                                                            float seconds, float out[4]);

/* Samples every bound track at `seconds` into poses[bone slot] and
 * morph_weights[morph slot].  Either may be NULL to skip that kind;
 * otherwise they hold the bone_count and morph_count entries given to
 * plumbob_clip_bind.  Bones the clip does not animate are left as they
 * were.  cursor may be NULL (random access).  Times as
 * plumbob_clip_sample_track.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * clip or binding, a binding or cursor made for another clip); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_clip_sample_pose(const plumbob_clip *clip,
                                                    const plumbob_clip_binding *binding,
                                                    plumbob_clip_cursor *cursor, float seconds,
                                                    plumbob_bone_pose *poses, float *morph_weights);

#endif /* PLUMBOB_TOOLS_API */

/* --- Events during playback ------------------------------------------ */

/* Events with time in the half-open window [t0, t1): indices into
 * clip->events, in event order, at most `max` of them (never more than
 * events_decoded match), *count how many were written.  With `looping`
 * and t1 < t0 the window wraps around the end of the clip ([t0, duration)
 * then [0, t1)), so each event fires once per loop.
 * Returns PLUMBOB_ERR_LIMIT_EXCEEDED when more than `max` matched (the first
 * `max` are written). */
PLUMBOB_API plumbob_result plumbob_clip_events_between(const plumbob_clip *clip, float t0, float t1,
                                                       bool looping, uint32_t *indices,
                                                       uint32_t max, uint32_t *count);


/* ===================================================================== */
/* Chapter 19 Skinning: the format-neutral job, GMDC's preparer          */
/* ===================================================================== */

/* --- The format-neutral skinning job ------------------------------------
 * Linear blend skinning over vertex streams laid out by the caller or a
 * format's preparer (plumbob_gmdc_skin is one).  The blend is of matrices:
 * C = sum w_k palette[joint_k]; p' = C p; n' = C n (3x3), renormalized
 * unless PLUMBOB_SKIN_UNNORMALIZED; the port's kernel (ports/kernels.h)
 * does it, and every port gives the same bits. */

/* How a vertex's weights are stored (plumbob_skin_mesh.weight_mode). */
#define PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST 0u /* weight_count (0..3) stored, the next implied:
                                              * 1 - the sum of the used ones (GMDC) */
#define PLUMBOB_SKIN_WEIGHTS_EXPLICIT 1u     /* one stored weight per influence (GEOM): reserved,
                                              * plumbob_skin refuses it as unsupported today */

/* The prepared input: where each stream's vertex v starts is
 * stream + v * stride (bytes); values are little-endian on every host.
 * Make it once per mesh part (it points into the mesh's bytes) and skin
 * it every frame. */
typedef struct plumbob_skin_mesh {
    uint32_t vertex_count;
    const unsigned char *positions; /* 3 floats (x y z) per vertex */
    size_t position_stride;         /* bytes, 12 or more */
    const unsigned char *normals;   /* 3 floats per vertex, or NULL: (0, 0, 1) for every vertex */
    size_t normal_stride;           /* bytes, 12 or more (ignored for NULL normals) */
    const unsigned char *joints;    /* 4 bytes per vertex: slot of influence k in byte k, 0xFF
                                     * none; or NULL: unskinned (positions pass through, normals
                                     * renormalized unless PLUMBOB_SKIN_UNNORMALIZED) */
    size_t joint_stride;            /* bytes, 4 or more */
    const unsigned char *weights;   /* weight_count floats per vertex (NULL when weight_count is 0) */
    size_t weight_stride;           /* bytes, 4 * weight_count or more */
    uint32_t weight_count;          /* stored weights: 0..3 (implied last: 1..4 influences) */
    uint32_t weight_mode;           /* PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST */
    uint32_t slot_count;            /* slots that name a matrix, 0..255; bytes from slot_count on
                                     * (and 0xFF) weigh a zero matrix */
    const uint16_t *slot_joint;     /* slot -> palette index (a GMDC group's bone list), or NULL:
                                     * slot k is palette[k] */
} plumbob_skin_mesh;

/* One skinning job: a vertex range of a prepared mesh into the caller's
 * spans.  Vertex v goes to positions + v * position_stride (floats), also
 * when skinning a range, so jobs for disjoint ranges (on other threads,
 * each with its own work memory) fill one output and give the same bits
 * as one job over the whole mesh. */
typedef struct plumbob_skin_job {
    const plumbob_skin_mesh *mesh;
    const plumbob_mat34 *palette;   /* skinning matrices (model x inverse bind) */
    uint32_t palette_count;         /* matrices palette holds */
    float *positions;               /* out: x y z per vertex */
    size_t position_stride;         /* in floats, 3 or more */
    uint32_t position_count;        /* vertices the positions span holds (at least the range's end) */
    float *normals;                 /* out, or NULL to skip normals */
    size_t normal_stride;           /* in floats, 3 or more */
    uint32_t normal_count;          /* vertices the normals span holds (at least the range's end) */
    uint32_t flags;                 /* 0, PLUMBOB_SKIN_REFERENCE, PLUMBOB_SKIN_UNNORMALIZED */
    uint32_t first_vertex;          /* the range to skin: first_vertex .. */
    uint32_t vertex_count;          /* .. + vertex_count (0: to the mesh's end) */
    void *work;                     /* PLUMBOB_SKIN_WORK_SIZE bytes of scratch, any alignment;
                                       one per thread skinning at once */
} plumbob_skin_job;

/* Scratch bytes a skin job needs (job.work): the slot matrices (256 x 128
 * bytes: each as rows and as columns, for the two shapes of kernel;
 * aligned inside to 64 bytes for SIMD loads), the slot bytes' offsets into
 * them (512) and staging for strided or made-up streams (64 vertices of
 * 40 bytes): 35,904 bytes.  Caller memory, so skinning needs no large
 * stack. */
#define PLUMBOB_SKIN_WORK_SIZE (256u * 128u + 512u + 64u * 40u + 64u)

/* Skins job->mesh's vertices [first_vertex, first_vertex + vertex_count)
 * with up to 4 influences each.  Packed streams (strides 12, 12, 4 and
 * 4 * weight_count) go to the kernel as they are; others are staged in
 * blocks through job->work.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * job, mesh, positions or work; NULL mesh positions with vertices; NULL
 * palette with slots; an output stride below 3 or a stream stride below
 * its values; weight_count above 3 or NULL weights with some; slot_count
 * above 255; a range past vertex_count; unknown flags),
 * PLUMBOB_ERR_BAD_INDEX (a slot naming a matrix at or past palette_count),
 * PLUMBOB_ERR_UNSUPPORTED (weight_mode other than
 * PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (position_count, or normal_count with normals, below the range's end);
 * nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skin(const plumbob_skin_job *job);

/* --- GMDC skinning --- */

/* The skinning palette: palette[j] = joint_model[j] * inverse_bind[j] for
 * each of the mesh's joints, where inverse_bind comes from the joint table
 * (rotation, then translation).  joint_model NULL means the bind pose
 * (every palette entry is then the identity); otherwise it holds joint_count
 * matrices.  palette_count: how many matrices palette holds (at least the
 * mesh's joint_count).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL gmdc or
 * palette), PLUMBOB_ERR_OUTPUT_TOO_SMALL (palette_count below joint_count);
 * nothing is written then. */
PLUMBOB_API plumbob_result plumbob_gmdc_palette(const plumbob_gmdc *gmdc,
                                                const plumbob_mat34 *joint_model,
                                                plumbob_mat34 *palette, uint32_t palette_count);

/* Everything plumbob_gmdc_skin needs for one group. */
typedef struct plumbob_gmdc_skin_job {
    const plumbob_gmdc *gmdc;
    uint32_t group;                 /* which group's linkage to skin */
    const plumbob_mat34 *palette;   /* joint_count entries (plumbob_gmdc_palette) */
    uint32_t palette_count;         /* matrices palette holds: at least joint_count */
    const float *morph_weights;     /* morph_count weights by pair index, or NULL */
    uint32_t morph_weight_count;    /* weights morph_weights holds: at least morph_count */
    float *positions;               /* out: x y z per vertex, at positions + i * stride */
    size_t position_stride;         /* in floats (3 for packed) */
    uint32_t position_count;        /* vertices the positions span holds (at least the range's end) */
    float *normals;                 /* out, or NULL to skip normals */
    size_t normal_stride;           /* in floats */
    uint32_t normal_count;          /* vertices the normals span holds (at least the range's end) */
    uint32_t flags;                 /* 0, PLUMBOB_SKIN_REFERENCE, PLUMBOB_SKIN_UNNORMALIZED */
    uint32_t first_vertex;          /* the range to skin: first_vertex .. */
    uint32_t vertex_count;          /* .. + vertex_count (0: to the linkage's end) */
    void *work;                     /* PLUMBOB_GMDC_SKIN_WORK_SIZE bytes of scratch, any
                                       alignment; one per thread skinning at once */
} plumbob_gmdc_skin_job;

/* Scratch bytes a GMDC skin job needs: plumbob_skin's (the slot matrices,
 * their offsets and staging for morphed or sparse vertices): 35,904 bytes. */
#define PLUMBOB_GMDC_SKIN_WORK_SIZE PLUMBOB_SKIN_WORK_SIZE

/* Run the scalar reference kernel even where a SIMD port was compiled in
 * (for comparing ports; every port gives the same bits). */
#define PLUMBOB_SKIN_REFERENCE 1u
/* Write normals as the blended matrix gives them, without renormalizing
 * (what ozz-animation's SkinningJob does): faster, and exact for rigid
 * palettes, but a blend of differently rotated joints shortens them, so a
 * shader must normalize.  Unskinned vertices keep their normals as stored. */
#define PLUMBOB_SKIN_UNNORMALIZED 2u

/* Skins the linkage of job->group: for each of its vertices, morph deltas
 * (the morph map's ids, weighted by morph_weights, from the delta set of
 * the same byte) are added first, then linear blend skinning with up to 4
 * influences (the weight after the stored ones is implied as 1 - their
 * sum; group bone lists map slots to joints; version 1 slots are joints).
 * Normals are renormalized (unless PLUMBOB_SKIN_UNNORMALIZED).  A linkage without bone assignments passes
 * through unskinned (with morphs).  Output is in the linkage's vertex order,
 * at the vertex's own index: vertex v goes to positions + v * stride, also
 * when skinning a range, so jobs for disjoint ranges of one group (on other
 * threads, each with its own work memory) fill one output and give the same
 * bits as one job over the whole group.
 * Sparse elements are read through their item lists (plumbob_gmdc_item); a
 * vertex a sparse element holds no item for reads as: position (0,0,0),
 * normal (0,0,1) (as for a mesh without normals), assignment 0xFFFFFFFF
 * (no influence), weights 0, morph map 0 (no morph), deltas 0.  Target
 * Indices and the other kinds are not read.
 * The GMDC job is a preparer over plumbob_skin: it finds the group's
 * elements, describes them as a plumbob_skin_mesh (staging morphed or
 * sparse vertices in blocks) and runs the same kernel, so the bits are
 * plumbob_skin's.
 * Stack: a few hundred bytes (docs/API.md's table); the large tables live in
 * job->work.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers or work, group out
 * of range, stride below 3, a vertex range past the linkage's end, flags
 * other than the two above, palette_count below joint_count for a skinned
 * group, morph_weight_count below morph_count with morph_weights),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (position_count, or normal_count with
 * normals, below the range's end; nothing is written then),
 * PLUMBOB_ERR_BAD_DATA (no float3 vertex element, where the range has
 * vertices: an empty group skins to nothing),
 * PLUMBOB_ERR_UNSUPPORTED (the group's primitive type is not
 * PLUMBOB_GMDC_PRIMITIVE_TRIANGLES). */
PLUMBOB_API plumbob_result plumbob_gmdc_skin(const plumbob_gmdc_skin_job *job);

/* Vertices in all per-joint subset meshes together (the bounding mesh an
 * IK-animated model uses for picking). */
PLUMBOB_API uint32_t plumbob_gmdc_subset_vertex_count(const plumbob_gmdc *gmdc);

/* Poses the per-joint subset meshes with the same palette as
 * plumbob_gmdc_skin: subset j's vertices are stored in joint j's bone space,
 * so each goes through palette[j] times joint j's bind transform (that is,
 * the joint's model transform).  Output: plumbob_gmdc_subset_vertex_count
 * points, subsets in joint order, at positions + i * stride; position_count:
 * the points the span holds.  Subsets beyond the joint table pass through.
 * The model-space bounding mesh (gmdc->bounding) needs no posing.  palette
 * NULL is allowed only when the mesh has no joints.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (position_count below plumbob_gmdc_subset_vertex_count; nothing is
 * written then). */
PLUMBOB_API plumbob_result plumbob_gmdc_skin_subsets(const plumbob_gmdc *gmdc,
                                                     const plumbob_mat34 *palette,
                                                     float *positions, size_t stride,
                                                     uint32_t position_count);



/* --- GEOM skinning (Sims 3 bodies on their rig) ---
 * A GEOM's vertices lie at the rig's rest pose, so a bone's skinning
 * matrix is its posed model transform times the inverse of its rest model
 * transform.  Bind once (mesh bones to rig bones by hash), build the
 * palette each frame from plumbob_skeleton_model's matrices, and skin with
 * plumbob_skin on the mesh plumbob_geom_skin_mesh describes (explicit
 * weights: one runtime for both games). */

typedef struct plumbob_geom_binding {
    uint32_t bone_count;          /* the mesh's bone list */
    int32_t *rig_bone;            /* per mesh bone: its bone in rig->skeleton (view order), -1
                                     when the rig lacks the hash */
    plumbob_mat34 *inverse_rest;  /* per mesh bone: inverse of its rest model transform
                                     (identity when unbound) */
    uint32_t bound, unbound;      /* how many mesh bones found a rig bone, how many did not */
} plumbob_geom_binding;

/* Arena bytes plumbob_geom_bind needs (SIZE_MAX for NULL arguments). */
PLUMBOB_API size_t plumbob_geom_bind_size(const plumbob_geom *geom, const plumbob_rig *rig);

/* Binds a mesh's bone hashes to a rig's skeleton view and computes the
 * inverse rest transforms.  A hash the rig lacks is not an error: its
 * rig_bone is -1, counted in `unbound`, and its palette entry is the
 * identity (those influences keep the vertex's rest place); callers
 * report it (the tool warns with the hash).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_geom_bind(const plumbob_geom *geom, const plumbob_rig *rig,
                                             plumbob_arena *arena, plumbob_geom_binding *binding);

/* palette[k] = model[rig_bone[k]] * inverse_rest[k] for each mesh bone
 * (identity for unbound ones); model holds model_count matrices in the rig
 * skeleton view's order (plumbob_skeleton_model), or NULL for the rest
 * pose (every entry the identity).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL binding or palette), PLUMBOB_ERR_OUTPUT_TOO_SMALL (palette_count
 * below bone_count, model_count not covering a bound bone); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_geom_palette(const plumbob_geom_binding *binding, const plumbob_mat34 *model,
                                                uint32_t model_count, plumbob_mat34 *palette,
                                                uint32_t palette_count);

/* Describes a decoded GEOM for plumbob_skin: positions, the vector stream
 * `vectors` names (PLUMBOB_GEOM_NORMAL, PLUMBOB_GEOM_TANGENT, or 0 for
 * none) in the skin mesh's normals, assignment bytes as joints, the four
 * stored weights (PLUMBOB_SKIN_WEIGHTS_EXPLICIT), slot k = palette[k] (the
 * mesh's bone list order).  A mesh without assignment or weights is
 * unskinned (joints NULL).  Skin tangents by a second job with
 * PLUMBOB_GEOM_TANGENT.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL),
 * PLUMBOB_ERR_NOT_FOUND (no position element, or no element of `vectors`). */
PLUMBOB_API plumbob_result plumbob_geom_skin_mesh(const plumbob_geom *geom, uint32_t vectors,
                                                  plumbob_skin_mesh *mesh);

/* Applies a morph mesh (position, normal, vertex id only) to its base:
 * for each morph vertex, the base vertices with the same vertex id get
 * weight x the morph's position and normal deltas added to positions and
 * normals (float spans in the base's vertex order, as plumbob_skin's
 * outputs; normals may be NULL).  Run it on the rest-pose streams before
 * skinning.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a base or morph
 * without vertex ids, non-finite weight), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (count below the base's vertex_count). */
PLUMBOB_API plumbob_result plumbob_geom_morph(const plumbob_geom *base, const plumbob_geom *morph, float weight,
                                              float *positions, size_t position_stride, float *normals,
                                              size_t normal_stride, uint32_t count);

/* ===================================================================== */
/* Chapter 19b Poses: blending layers, additive clips, mirroring         */
/* ===================================================================== */

/* --- Pose jobs: what runs between the sampler and the model job --------
 * clip(s) -> plumbob_clip_sampler_sample into local poses (one array per
 * playing clip) -> plumbob_pose_blend (layers, masks) ->
 * plumbob_pose_additive_apply (additive clips) -> plumbob_pose_mirror
 * (when the play mirrors) -> plumbob_skeleton_model.  Every pose array is
 * in skeleton order (a rig's skeleton view) and holds bone_count poses;
 * the jobs validate their arguments once, write nothing on an error, and
 * are linear in bone_count x layers.  Quaternions are x y z w. */

/* One layer of a blend: a local pose, its weight, and an optional mask. */
typedef struct plumbob_blend_layer {
    const plumbob_bone_pose *poses; /* bone_count local poses */
    float weight;                   /* the layer's weight, clamped to [0, 1] (NaN: 0) */
    const float *bone_weights;      /* per bone, or NULL for 1 everywhere: the mask (a track
                                       mask's weights, plumbob_bone_weights_*); clamped to [0, 1] */
} plumbob_blend_layer;

/* The rest-pose fallback threshold ozz-animation uses by default, and ours:
 * see plumbob_pose_blend. */
#define PLUMBOB_BLEND_THRESHOLD 0.1f

/* Blends layer_count layers into out.  Per bone b, with w_k =
 * clamp(layer k weight) * clamp(bone_weights_k[b]) and W = sum w_k:
 *   - when W < threshold the rest pose joins as one more layer of weight
 *     threshold - W (so W reaches threshold; with no weight at all the
 *     bone is its rest pose exactly, and weights fading out fade into it
 *     with no jump);
 *   - rotation = normalize(sum s_k w_k q_k), s_k = -1 when dot(q_0, q_k)
 *     < 0 (layer 0's rotation at that bone is the hemisphere every other
 *     layer, and the rest pose, is flipped against): the normalized lerp
 *     along the shorter arc, which for two layers is plumbob_quat_nlerp;
 *   - translation = (sum w_k t_k) * (1 / W), scale likewise (weighted
 *     means), each clamped to +-FLT_MAX.
 * Cross-fade of clips A and B over a fade: sample each into its own pose
 * array (rest-filled first), then blend layers {A, 1 - f} and {B, f} with
 * f going 0 -> 1.  Finite inputs give finite outputs; a rotation whose
 * sum is zero or not finite comes out the identity.  out may not be one
 * of the layers' arrays (it may alias rest only when no bone falls back:
 * do not).  The port's kernel does the work (every port gives the scalar
 * reference's bits).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL layers
 * with a count, a layer with NULL poses, NULL rest or out with bones,
 * threshold not in (0, 1], out equal to a layer's poses or rest),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_count below bone_count); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_pose_blend(const plumbob_blend_layer *layers, uint32_t layer_count,
                                              const plumbob_bone_pose *rest, uint32_t bone_count,
                                              float threshold, plumbob_bone_pose *out, uint32_t out_count);

/* An additive clip's difference from a reference pose, bone by bone:
 *   delta rotation    = conj(normalize(ref q)) * normalize(pose q), normalized
 *                       (inverse(ref) * pose: apply the pose, then undo the reference);
 *   delta translation = pose t - ref t;
 *   delta scale       = pose s / ref s per axis (1 where ref s is 0 or the quotient
 *                       is not finite).
 * The reference is the clip's first frame (sample it at time 0 into one
 * array, once) or any pose the caller gives (the rig's rest pose).
 * Sample the clip at t into pose, then make the delta for that frame.
 * delta may alias pose (bone by bone, in place).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL arrays with bones; delta equal to
 * ref), PLUMBOB_ERR_OUTPUT_TOO_SMALL (delta_count below bone_count). */
PLUMBOB_API plumbob_result plumbob_pose_additive_delta(const plumbob_bone_pose *ref, const plumbob_bone_pose *pose,
                                                       uint32_t bone_count, plumbob_bone_pose *delta,
                                                       uint32_t delta_count);

/* Applies an additive delta on a base pose with weight w = clamp(weight)
 * * clamp(bone_weights[b]) (both clamped to [0, 1]; bone_weights NULL for
 * 1), bone by bone:
 *   rotation    = normalize(base q * nlerp(identity, delta q, w)) (delta q
 *                 taken on the shorter arc from identity: negated when its w < 0);
 *   translation = base t + w * delta t;
 *   scale       = base s * (1 + w * (delta s - 1));
 * translation and scale clamped to +-FLT_MAX.  At w = 1 the clip plays on
 * top of the base as authored; at w = 0 out is the base (rotation
 * normalized).  The jazz `additive` play flag names a clip played this
 * way.  out may alias base (in place).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL arrays with bones, out equal to
 * delta), PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_count below bone_count). */
PLUMBOB_API plumbob_result plumbob_pose_additive_apply(const plumbob_bone_pose *base, const plumbob_bone_pose *delta,
                                                       float weight, const float *bone_weights,
                                                       uint32_t bone_count, plumbob_bone_pose *out,
                                                       uint32_t out_count);

/* A mask for plumbob_pose_blend or plumbob_pose_additive_apply: weights[k]
 * = inside for every bone listed in bone_hashes (FNV-32 of the bone's
 * name, plumbob_fnv32_str: "b__L_UpperArm__") and every bone below one,
 * outside for the rest.  "A bone and its children" is a list of one; an
 * upper-body layer lists the spine bone.  Linear in bones x hashes.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL skeleton or weights, NULL
 * hashes with a count, a skeleton without name hashes when hashes are
 * given, inside or outside not in [0, 1]), the errors of
 * plumbob_skeleton_validate, PLUMBOB_ERR_NOT_FOUND (a hash no bone has),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (weight_count below bone_count); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_bone_weights_subtrees(const plumbob_skeleton *skeleton,
                                                         const uint32_t *bone_hashes, uint32_t hash_count,
                                                         float inside, float outside, float *weights,
                                                         uint32_t weight_count);

/* The mirror table of a rig's skeleton view: opposite[k] is the view
 * index of bone k's mirror bone (plumbob_rig_bone.opposite mapped through
 * skeleton_index); a bone whose stored opposite is out of range (a sample
 * rig has one) is its own.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * rig or opposite, a rig without a skeleton view),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (opposite_count below bone_count). */
PLUMBOB_API plumbob_result plumbob_rig_mirror_table(const plumbob_rig *rig, int32_t *opposite,
                                                    uint32_t opposite_count);

/* Mirrors a local pose across the rig's plane: out[k] = M(in[opposite[k]])
 * with M the Sims 3 rig convention (bones are built mirror-symmetric
 * across the model's YZ plane, X pointing to the Sim's left: auRig's
 * b__L_Clavicle__ is b__R_Clavicle__ with x translation and y, z rotation
 * parts negated): translation (x, y, z) -> (-x, y, z), rotation (x, y, z,
 * w) -> (x, -y, -z, w), scale unchanged.  M is its own inverse and only
 * flips signs, so mirroring twice gives the input bit for bit when the
 * table pairs bones both ways (every real rig's does).  out must not be in
 * (each bone reads another).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * arrays with bones, out equal to in), PLUMBOB_ERR_BAD_INDEX (an opposite
 * outside [0, bone_count)), PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_count below
 * bone_count). */
PLUMBOB_API plumbob_result plumbob_pose_mirror(const int32_t *opposite, const plumbob_bone_pose *in,
                                               uint32_t bone_count, plumbob_bone_pose *out, uint32_t out_count);


/* ===================================================================== */
/* Chapter 20 Jazz runtime (Chapter 15's machines)                       */
/* ===================================================================== */

/* ---- Runtime ---------------------------------------------------------- */

/* The runtime model in short (the full list of rules: docs/API.md).  An
 * instance has one current state.  `enter` puts it in an entry state;
 * `request` walks the shortest route of declared transitions to a state,
 * entering each state on the way; `tick` moves along a pending Next State or
 * plays a Loop state's graph again.  Entering a state runs its decision
 * graph, which emits actions.  A Next State node never moves the machine
 * within the call that ran it: at the end of a request's route or after
 * `enter`/`tick` it is left pending for the next `tick`; in a state a
 * request passes through it is ignored (the request keeps its route).  Only
 * a Next State along a declared transition of its state is ever taken. */

/* What a run emits, in order. */
typedef enum plumbob_jazz_action_kind {
    PLUMBOB_JAZZ_ACTION_ENTER = 0,    /* the machine entered `state` */
    PLUMBOB_JAZZ_ACTION_PLAY = 1,
    PLUMBOB_JAZZ_ACTION_STOP = 2,
    PLUMBOB_JAZZ_ACTION_PROP = 3,     /* create prop `prop` as `actor` */
    PLUMBOB_JAZZ_ACTION_ACTOR_OP = 4, /* op (1 SetMirror) with operand on `actor` */
    PLUMBOB_JAZZ_ACTION_NEXT_STATE = 5, /* a Next State node: `next`, `next_status` */
    PLUMBOB_JAZZ_ACTION_LOOP = 6      /* tick: Loop state `state` runs its graph again */
} plumbob_jazz_action_kind;

/* What became of a Next State node (action field next_status). */
typedef enum plumbob_jazz_next_status {
    PLUMBOB_JAZZ_NEXT_PENDING = 0,    /* taken by the next plumbob_jazz_tick */
    PLUMBOB_JAZZ_NEXT_ON_ROUTE = 1,   /* a request passes through: its route goes there anyway */
    PLUMBOB_JAZZ_NEXT_IGNORED = 2,    /* a request passes through on another route: not diverted */
    PLUMBOB_JAZZ_NEXT_NO_TRANSITION = 3, /* the state declares no transition there: refused */
    PLUMBOB_JAZZ_NEXT_SUPERSEDED = 4  /* an earlier Next State of the same graph decided */
} plumbob_jazz_next_status;

#define PLUMBOB_JAZZ_MAX_CLIP_NAME 128

typedef struct plumbob_jazz_action {
    uint32_t kind;            /* plumbob_jazz_action_kind */
    uint32_t state;           /* state whose graph emitted it (ENTER, LOOP: the state) */
    uint32_t node;            /* node index, NONE for ENTER and LOOP */
    uint32_t after;           /* index (in this call's output) of the play or
                                 other action it is sequenced after, or NONE */
    uint32_t actor;           /* actor index or NONE */
    uint32_t handle;          /* the caller's handle bound to that actor, 0 if none */
    /* PLAY */
    plumbob_clip_key clips[PLUMBOB_CLIP_MAX_FALLBACKS]; /* keys to try, in order */
    uint32_t clip_count;
    char clip_name[PLUMBOB_JAZZ_MAX_CLIP_NAME]; /* after substitution, or the stored
                                 key's name from the KEY table (NUL-ended; "" if none) */
    plumbob_result clip_result; /* OK, or why the name could not be formed */
    const plumbob_jazz_play *play; /* the node's fields (slots, masks, ...) */
    /* PLAY and STOP */
    const plumbob_jazz_anim *anim;
    /* PROP */
    plumbob_jazz_key prop;
    /* ACTOR_OP */
    uint32_t op, operand;
    /* NEXT_STATE */
    uint32_t next;            /* the state the node names */
    uint32_t next_status;     /* plumbob_jazz_next_status */
} plumbob_jazz_action;

/* Limits a call stops at with PLUMBOB_ERR_LIMIT_EXCEEDED. */
typedef struct plumbob_jazz_limits {
    uint32_t max_steps;       /* state entries, node visits and route-search
                                 visits per call; 1..PLUMBOB_JAZZ_MAX_STEPS */
    uint32_t max_actions;     /* entries one call may write (also out_cap); > 0 */
} plumbob_jazz_limits;

#define PLUMBOB_JAZZ_MAX_STEPS (1u << 24)

/* Which limit ended the last call (plumbob_jazz_report.limit). */
typedef enum plumbob_jazz_limit_kind {
    PLUMBOB_JAZZ_LIMIT_NONE = 0,
    PLUMBOB_JAZZ_LIMIT_STEPS = 1,     /* max_steps */
    PLUMBOB_JAZZ_LIMIT_ACTIONS = 2,   /* max_actions */
    PLUMBOB_JAZZ_LIMIT_OUTPUT = 3     /* out_cap */
} plumbob_jazz_limit_kind;

/* What the last enter/request/tick did (read it from inst->report). */
typedef struct plumbob_jazz_report {
    uint32_t steps;           /* steps it used */
    uint32_t traced;          /* steps written to the trace buffer (the first ones) */
    uint32_t limit;           /* plumbob_jazz_limit_kind: which limit ended it */
    uint32_t state;           /* UNREACHABLE: the state no route leads from; else NONE */
} plumbob_jazz_report;

/* One step of a call, as the trace buffer records it. */
typedef enum plumbob_jazz_why {
    PLUMBOB_JAZZ_WHY_ENTER = 0,       /* enter: the entry state */
    PLUMBOB_JAZZ_WHY_ROUTE = 1,       /* request: the next state of its route */
    PLUMBOB_JAZZ_WHY_NEXT_STATE = 2,  /* tick: the pending Next State */
    PLUMBOB_JAZZ_WHY_LOOP = 3,        /* tick: the Loop state's graph again */
    PLUMBOB_JAZZ_WHY_SEARCH = 4,      /* request: the route search visited `state` */
    PLUMBOB_JAZZ_WHY_ROOT = 5,        /* node: a root of the state's graph */
    PLUMBOB_JAZZ_WHY_CHILD = 6,       /* node: runs after its parent's action */
    PLUMBOB_JAZZ_WHY_BRANCH = 7       /* node: in the branch its parent chose */
} plumbob_jazz_why;

typedef struct plumbob_jazz_step {
    uint32_t why;             /* plumbob_jazz_why */
    uint32_t state;           /* the current state (SEARCH: the state visited) */
    uint32_t node;            /* the node visited, NONE for state steps */
    uint32_t branch;          /* random and select nodes: the branch taken, or NONE */
} plumbob_jazz_step;

/* An instance: all state lives in caller memory sized by
 * plumbob_jazz_instance_size.  Fields are private except `state`,
 * `pending` and `report`, which may be read; an instance is not shared
 * between threads while a call runs. */
typedef struct plumbob_jazz_instance {
    const plumbob_jazz *jazz;
    const plumbob_key_table *names; /* value and clip names */
    plumbob_jazz_limits limits;
    uint32_t state;           /* current state or NONE */
    uint32_t pending;         /* Next State the next tick takes, or NONE */
    plumbob_jazz_report report;
    uint64_t rng;             /* xorshift64* state */
    uint32_t *param_values;   /* per parameter: value hash */
    const char **param_text;  /* per parameter: value name or NULL */
    size_t *param_text_len;
    uint32_t *actor_handles;  /* per actor */
    int *actor_ages;          /* per actor: PLUMBOB_AGE_* */
    uint32_t *random_first;   /* per node: first AvoidRepeats bit */
    uint32_t *random_used;    /* one bit per Random branch */
    uint32_t *search;         /* route search: 4 words per state */
    uint32_t search_epoch;
    uint32_t *stack;          /* pending nodes: 2 words each, max_steps of them */
    plumbob_jazz_step *trace; /* the caller's trace buffer or NULL */
    size_t trace_cap;
} plumbob_jazz_instance;

/* Arena bytes an instance of `jazz` with these limits needs (SIZE_MAX for
 * NULL or limits out of range). */
PLUMBOB_API size_t plumbob_jazz_instance_size(const plumbob_jazz *jazz, const plumbob_jazz_limits *limits);

/* Starts an instance: no current state, parameters at their S_PD defaults,
 * no actors bound, the PRNG seeded with `seed`.  `names` (may be NULL) names
 * default values for substitution and stored clip keys.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, max_steps 0 or above
 * PLUMBOB_JAZZ_MAX_STEPS, max_actions 0), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_jazz_instance_init(plumbob_jazz_instance *inst, const plumbob_jazz *jazz,
                                                      const plumbob_jazz_limits *limits,
                                                      const plumbob_key_table *names, uint64_t seed,
                                                      plumbob_arena *arena);

/* Binds the actor called `name` (FNV-32) to the caller's handle, with its
 * age/species code (PLUMBOB_AGE_*) for clip fallbacks.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_NOT_FOUND (no such actor). */
PLUMBOB_API plumbob_result plumbob_jazz_bind_actor(plumbob_jazz_instance *inst, uint32_t name,
                                                   uint32_t handle, int age);

/* Sets parameter `name` to value hash `value`; `text` (may be NULL; must
 * outlive the instance) is the value's name for {parameter} substitution.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_jazz_set_param(plumbob_jazz_instance *inst, uint32_t name, uint32_t value,
                                                  const char *text, size_t text_len);

/* Records the steps of each later call, in order, into steps[0..cap) (the
 * caller's memory; NULL or 0: no trace).  After a call, report.traced says
 * how many were written: the first min(report.steps, cap). */
PLUMBOB_API void plumbob_jazz_set_trace(plumbob_jazz_instance *inst, plumbob_jazz_step *steps, size_t cap);

/* Enters state `name` (it must carry PLUMBOB_JAZZ_STATE_ENTRY) and runs its
 * graph; a Next State found there is left pending.  Writes actions to out
 * and their number to *count (also on error: what was written).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, not an entry state),
 * PLUMBOB_ERR_NOT_FOUND (no such state), PLUMBOB_ERR_LIMIT_EXCEEDED (steps,
 * actions or out_cap, see inst->report.limit; the machine stays in the last
 * state it entered). */
PLUMBOB_API plumbob_result plumbob_jazz_enter(plumbob_jazz_instance *inst, uint32_t name,
                                              plumbob_jazz_action *out, size_t out_cap, size_t *count);

/* Moves to state `name` along declared transitions only, by the shortest
 * route (ties: the transition listed first), entering each state on it and
 * running its graph.  The request ends when `name` has been entered; Next
 * State nodes of the states it passes through do not divert it, and one in
 * `name`'s graph is left pending.  A request that finds a route drops an
 * earlier pending Next State; requesting the current state does nothing
 * (what is pending stays).  The route search
 * counts one step per state it visits.  Errors: as plumbob_jazz_enter
 * (INVALID_ARGUMENT also when no state is current), plus
 * PLUMBOB_ERR_UNREACHABLE (no route from the current state, named in
 * inst->report.state; nothing is emitted). */
PLUMBOB_API plumbob_result plumbob_jazz_request(plumbob_jazz_instance *inst, uint32_t name,
                                                plumbob_jazz_action *out, size_t out_cap, size_t *count);

/* One idle step, for when the current state's animations have finished:
 * follows the pending Next State (entering it and running its graph), or
 * else runs a Loop state's graph again (a LOOP action first), or else does
 * nothing (*count 0).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, no state
 * is current), PLUMBOB_ERR_LIMIT_EXCEEDED as plumbob_jazz_enter. */
PLUMBOB_API plumbob_result plumbob_jazz_tick(plumbob_jazz_instance *inst, plumbob_jazz_action *out,
                                             size_t out_cap, size_t *count);

/* True when the current state carries PLUMBOB_JAZZ_STATE_EXIT: the machine
 * has finished (false for NULL or no current state). */
PLUMBOB_API bool plumbob_jazz_finished(const plumbob_jazz_instance *inst);

#ifdef __cplusplus
}
#endif

#endif /* PLUMBOB_RUNTIME_H */
