/* plumbob/runtime.h: the runtime of plumbob.h (docs/ARCHITECTURE.md):
 * the per-frame jobs over prepared objects: skeleton
 * rest pose and model space, CLIP playback (bind, schedule, sampler),
 * ANIM playback (bind, sampler),
 * skinning (the format-neutral job, GMDC's and GEOM's preparers), the jazz runtime.
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

/* --- What a binding found ----------------------------------------------
 * Binding never fails for tracks the rig lacks: they are skipped when
 * sampling.  The report says how many, which hashes, and whether the clip
 * was made for this rig at all: an EWBreastfeed clip on auRig leaves its
 * prop's tracks unbound (expected), a dog's clip on auRig binds a third of
 * its bones (the wrong rig). */

/* PLUMBOB_FIT_* bits of plumbob_clip_bind_report's `fit`; 0: nothing
 * looks wrong.  A prefix bit is set only when both bodies are known and
 * differ; on a rig taken for an object's (its name is not a Sim rig's),
 * only when PLUMBOB_FIT_FEW_BONES is set too (a modder's rig may carry any
 * name). */
#define PLUMBOB_FIT_FEW_BONES 0x1u     /* fewer than half the clip's animated bones bound */
#define PLUMBOB_FIT_OTHER_SPECIES 0x2u /* the clip's prefix names another species than the rig */
#define PLUMBOB_FIT_OTHER_AGE 0x4u     /* the same species, another age's body (c_ on auRig) */

typedef struct plumbob_clip_bind_report {
    uint32_t track_count;        /* the clip's tracks */
    uint32_t bound_tracks;       /* tracks mapped to a bone or morph slot */
    uint32_t unbound_tracks;     /* tracks sampling skips: track_count - bound_tracks */
    uint32_t bone_count;         /* distinct bones the rotation, translation and scale tracks animate */
    uint32_t bound_bones;        /* of those, the ones the binding found */
    uint32_t unbound_hash_count; /* distinct hashes of the unbound tracks (bones, morphs, others) */
    uint32_t fit;                /* PLUMBOB_FIT_* bits */
    int32_t clip_body;           /* plumbob_clip_name_body of the clip's name */
    int32_t rig_body;            /* plumbob_rig_name_body of rig_name */
} plumbob_clip_bind_report;

/* Arena bytes plumbob_clip_binding_report borrows (8 per track, given back
 * before it returns); SIZE_MAX for NULL. */
PLUMBOB_API size_t plumbob_clip_binding_report_size(const plumbob_clip_binding *binding);
#define PLUMBOB_CLIP_BIND_REPORT_SIZE(tracks) PLUMBOB_ARENA_NEED((tracks), 2u * sizeof(uint32_t))

/* Fills *report for a binding (plumbob_clip_bind or plumbob_rig_bind):
 * the counts, the fit of the clip's name against rig_name[0..len) (the
 * rig's skeleton_name; NULL or empty: no name, the prefix is not checked)
 * and, when unbound_hashes is not NULL, the distinct unbound hashes in
 * ascending order.  Call it with unbound_hashes NULL to learn
 * unbound_hash_count.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL binding,
 * report or arena, a binding without its clip or of another track count,
 * rig_name NULL with a length), PLUMBOB_ERR_OUT_OF_MEMORY (see
 * plumbob_clip_binding_report_size; *report untouched),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (unbound_cap below unbound_hash_count:
 * *report is filled, unbound_hashes untouched). */
PLUMBOB_API plumbob_result plumbob_clip_binding_report(const plumbob_clip_binding *binding, const char *rig_name,
                                                       size_t rig_name_len, plumbob_arena *arena,
                                                       uint32_t *unbound_hashes, uint32_t unbound_cap,
                                                       plumbob_clip_bind_report *report);

/* A name for a track hash, to print an unbound one: a bone of `rig` whose
 * hash it is, else an entry of the KEY table `names` whose name hashes to
 * it (FNV-32 as bone tracks carry, or the low 32 bits of FNV-64 as morph
 * tracks carry).  Either may be NULL.  The name stays in the rig's or the
 * table's bytes.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL name),
 * PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_clip_track_name(uint32_t hash, const plumbob_rig *rig,
                                                   const plumbob_key_table *names, plumbob_string *name);


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
 * constant: its value is computed once and copied each frame.  Costs 48
 * arena bytes per scheduled rotation track and 40 per translation (a
 * group's bytes over its four lanes), 20 per constant rotation and 16 per
 * constant translation (plumbob_clip_sampler_size); the plain cursor
 * costs 2.  The schedule is optional: a sampler made without
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

/* Events with time in the half-open window [from_seconds, to_seconds)
 * (seconds, as every clip call; events keep their time in seconds too):
 * indices into clip->events, in event order, at most `max` of them (never
 * more than events_decoded match), *count how many were written.  With
 * `looping` and to_seconds < from_seconds the window wraps around the end
 * of the clip ([from, duration) then [0, to)), so each event fires once
 * per loop.
 * Returns PLUMBOB_ERR_LIMIT_EXCEEDED when more than `max` matched (the first
 * `max` are written). */
PLUMBOB_API plumbob_result plumbob_clip_events_between(const plumbob_clip *clip, float from_seconds,
                                                       float to_seconds, bool looping, uint32_t *indices,
                                                       uint32_t max, uint32_t *count);


/* ===================================================================== */
/* Chapter 18b ANIM playback (Chapter 12's ANIMs on a CRES skeleton)     */
/* ===================================================================== */

/* --- Playback: what a game uses ---------------------------------------
 * decode the ANIM (Chapter 12) and the CRES skeleton (Chapter 13) ->
 * plumbob_anim_bind (once per ANIM and skeleton, with the mesh whose morphs
 * it drives) -> plumbob_anim_sampler_init (once per playing instance) ->
 * plumbob_anim_sampler_sample every frame, which writes the whole local
 * pose, then plumbob_skeleton_model (Chapter 17).  Time is in ANIM ticks:
 * 1 tick = 1 ms, 1000 ticks a second (a clip's sampler takes seconds).
 *
 * The channel rules (docs/API.md "Sims 2 ANIM on a CRES skeleton"), the one
 * place they are made:
 * - A rotation channel (attribute 0) of Euler type (value type 3) with
 *   exactly 3 components, and a translation channel (attribute 1) with 3
 *   components or more (the first 3 used), drive the bone named like the
 *   channel (ASCII case-insensitive, plumbob_cres_find_bone), or failing
 *   that the bone named like it without a "_rot" or "_trans" suffix
 *   ("root_rot" drives "root" when no bone is called "root_rot").  It
 *   replaces that bone's rest rotation (the angles' quaternion, as
 *   plumbob_anim_sample_channel gives it) or rest translation (metres).
 * - The first channel per bone and attribute wins; a later one is unbound
 *   (PLUMBOB_ANIM_CHANNEL_SECOND).
 * - A morph channel (attribute 2) with a component drives the mesh's morph
 *   pair whose second name (GMDC morph_names[2 * pair + 1]) is the
 *   channel's name, ASCII case-insensitive; the first channel per pair
 *   wins, and a name the mesh lists twice gets its first pair.
 * - Every other attribute (3 and up: IK blend weights such as
 *   "l_handcontrol0_a", eye channels "l_eyestretch", "eyedirection") is not
 *   played: unbound (PLUMBOB_ANIM_CHANNEL_OTHER).
 * - The IK chain field (PLUMBOB_ANIM_IK_CHAIN) does not matter to binding.
 *   A channel in an IK chain (field 0-14, e.g. "l_upperarm" to "l_hand" in
 *   chain 3) holds the chain's bones as the animator left them, and is
 *   played like any other (issue 47: dropping them put an arm 0.79 m off
 *   on a real body).  The IK goals ("l_handcontrol0", "r_foot_ikctr",
 *   "l_hand_ikpole") are plain rotation and translation channels, bound
 *   only where the skeleton has a bone of that name.  plumbob runs no IK
 *   solver: the game's solver would move chain bones toward goals placed
 *   by the object the Sim uses, which the ANIM does not hold. */

/* Why a channel is bound or not (plumbob_anim_binding.status). */
#define PLUMBOB_ANIM_CHANNEL_BONE 1u     /* drives a bone's rotation or translation */
#define PLUMBOB_ANIM_CHANNEL_MORPH 2u    /* drives a morph weight */
#define PLUMBOB_ANIM_CHANNEL_NO_BONE 3u  /* rotation or translation naming no bone */
#define PLUMBOB_ANIM_CHANNEL_NO_MORPH 4u /* morph naming no morph of the mesh (or no mesh given) */
#define PLUMBOB_ANIM_CHANNEL_SECOND 5u   /* a later channel for a bone and attribute, or morph, already driven */
#define PLUMBOB_ANIM_CHANNEL_OTHER 6u    /* attribute 3 and up (IK weights, eyes): not played */
#define PLUMBOB_ANIM_CHANNEL_SHAPE 7u    /* rotation not Euler with 3 components, translation with
                                          * fewer than 3, morph with none */

/* An ANIM bound to a CRES skeleton (and a mesh's morphs), with its report.
 * It knows its ANIM and skeleton by address: keep them where they were
 * decoded and built.  The report's names point into the ANIM's bytes. */
typedef struct plumbob_anim_binding {
    const plumbob_anim *anim;               /* the ANIM it was made for */
    const plumbob_cres_skeleton *skeleton;  /* the skeleton: poses hold bone_count bones in its order */
    int32_t *slot;            /* per channel: its bone (status BONE) or morph pair (MORPH), else -1 */
    uint8_t *status;          /* per channel: PLUMBOB_ANIM_CHANNEL_* */
    uint32_t channel_count;
    uint32_t bone_count;      /* the skeleton's bones: every pose array holds this many */
    uint32_t morph_count;     /* the mesh's morph pairs (0 without a mesh): weight arrays hold this many */
    /* the report */
    uint32_t bone_channel_count;   /* channels bound to a bone */
    uint32_t morph_channel_count;  /* channels bound to a morph */
    uint32_t unbound_count;        /* the others: channel_count - the two above */
    const uint32_t *unbound_channels;    /* unbound_count channel indices, in channel order */
    const plumbob_string *unbound_names; /* their names (pointing into the ANIM's bytes) */
    uint32_t unanimated_bone_count;      /* bones no channel drives (they keep their rest pose) */
} plumbob_anim_binding;

/* Arena bytes plumbob_anim_bind needs:
 * PLUMBOB_ANIM_BIND_SIZE(channel_count); SIZE_MAX for a NULL anim. */
PLUMBOB_API size_t plumbob_anim_bind_size(const plumbob_anim *anim);
#define PLUMBOB_ANIM_BIND_SIZE(channels)                                                     \
    (PLUMBOB_ARENA_NEED((channels), 4u) + PLUMBOB_ARENA_NEED((channels), 1u) +             \
     PLUMBOB_ARENA_NEED((channels), 4u) + PLUMBOB_ARENA_NEED((channels), sizeof(plumbob_string)))

/* Binds every channel of a decoded ANIM by the rules above to the bones of
 * `skeleton` and the morph pairs of `mesh` (NULL: no morphs; morph
 * channels are then unbound), and fills the report.  Linear in channels
 * times bones.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL anim, skeleton,
 * arena or binding; a skeleton without names, a mesh with morphs but no
 * names),
 * PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_anim_bind_size). */
PLUMBOB_API plumbob_result plumbob_anim_bind(const plumbob_anim *anim, const plumbob_cres_skeleton *skeleton,
                                             const plumbob_gmdc *mesh, plumbob_arena *arena,
                                             plumbob_anim_binding *binding);

/* The sampler: playback of one bound ANIM.  Built once per playing
 * instance, it keeps per animated component the pair of keys around the
 * current time already decoded (a cursor), so a frame of forward playback
 * evaluates each curve without searching or decoding keys; components of
 * one key or none, and rotations whose three angles are all constant, are
 * computed once at init.  Any time order works: a time outside a
 * component's span steps to the next key or searches.  The values are
 * plumbob_anim_sample_channel's, bit for bit. */
typedef struct plumbob_anim_sampler {
    const plumbob_anim_binding *binding; /* for checking only: what it was made from */
    const plumbob_anim *anim;
    const plumbob_bone_pose *rest;       /* the skeleton's rest poses */
    void *curves;             /* animated components (internal) */
    uint32_t curve_count;
    void *outputs;            /* bound channels (internal) */
    uint32_t output_count;
    float *values;            /* the components' current values (internal) */
    uint32_t bone_count;      /* poses a sample writes: the binding's bone_count */
    uint32_t morph_count;     /* morph weights likewise */
    const uint32_t *rotation_slots; /* bones of the rotations whose angles move (internal) */
    uint32_t rotation_count;  /* how many (their angles are the first 3 * rotation_count values) */
    /* with a schedule (plumbob_anim_sampler_init_scheduled; else NULL and 0) */
    const struct plumbob_anim_schedule *schedule;
    float *lanes;             /* per value: the curve's current pair, 6 rows of lane_count (internal) */
    uint32_t lane_count;      /* the values, rounded up to 4 */
    uint32_t cursor;          /* the next record to apply */
    float played;             /* the last time sampled */
} plumbob_anim_sampler;

/* Arena bytes plumbob_anim_sampler_init needs for this binding (at most
 * PLUMBOB_ANIM_SAMPLER_SIZE(channel_count, component_count)); SIZE_MAX for
 * NULL.  PLUMBOB_ANIM_SAMPLER_CURVE_BYTES per animated component of a bound
 * channel, PLUMBOB_ANIM_SAMPLER_OUTPUT_BYTES per bound channel (4 for a
 * rotation channel whose angles move), 4 per component of a bound
 * channel, and for plumbob_anim_sampler_init_scheduled
 * PLUMBOB_ANIM_SAMPLER_LANE_BYTES per component of a bound channel
 * (rounded up to 4): one size serves both inits. */
PLUMBOB_API size_t plumbob_anim_sampler_size(const plumbob_anim_binding *binding);
#define PLUMBOB_ANIM_SAMPLER_CURVE_BYTES 48u
#define PLUMBOB_ANIM_SAMPLER_OUTPUT_BYTES 28u
#define PLUMBOB_ANIM_SAMPLER_LANE_BYTES 28u
#define PLUMBOB_ANIM_SAMPLER_SIZE(channels, components)                                  \
    (PLUMBOB_ARENA_NEED((components), PLUMBOB_ANIM_SAMPLER_CURVE_BYTES) +               \
     PLUMBOB_ARENA_NEED((channels), PLUMBOB_ANIM_SAMPLER_OUTPUT_BYTES) +                 \
     PLUMBOB_ARENA_NEED((components), 4u) +                                               \
     PLUMBOB_ARENA_NEED((size_t)(components) + 3u, PLUMBOB_ANIM_SAMPLER_LANE_BYTES))

/* Builds a sampler for a binding (its ANIM and skeleton must outlive the
 * sampler; the binding need not).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL, a binding whose arrays do not fit its ANIM and skeleton),
 * PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_anim_sampler_size). */
PLUMBOB_API plumbob_result plumbob_anim_sampler_init(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                                     plumbob_anim_sampler *sampler);

/* The schedule: every timed curve of a binding (keys in time order) as its
 * key pairs, each pair's Hermite cubic and 1 / its gap made once, the
 * records sorted by the tick their pair starts, so a scheduled sampler's
 * frame of forward playback copies the pairs that start and evaluates
 * every curve in lanes (sims2/anim_sample.c's operations: the same bits).
 * Made once per binding, read only by any number of samplers; it knows its
 * binding by address.  Baked curves, and timed ones whose key times go
 * back, are not scheduled (the sampler plays them as without a schedule).
 * 32 bytes per key of a scheduled curve, 28 per value. */
typedef struct plumbob_anim_schedule {
    const plumbob_anim_binding *binding;
    const uint32_t *lane_component; /* per value (lane_count): its scheduled component, else UINT32_MAX */
    uint32_t lane_count;            /* the sampler's values, rounded up to 4 */
    const void *records;            /* record_count pair records, by start tick (internal) */
    uint32_t record_count;
    const float *start_lanes;       /* the lanes before the first key (6 rows of lane_count; internal) */
} plumbob_anim_schedule;

/* Arena bytes plumbob_anim_schedule_build needs, its temporary tick table
 * (4 bytes per tick up to the last scheduled key's) included; SIZE_MAX for
 * a NULL binding or one that does not fit its ANIM and skeleton. */
PLUMBOB_API size_t plumbob_anim_schedule_size(const plumbob_anim_binding *binding);

/* Builds the schedule of a binding (which must outlive it).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a binding that does not fit its ANIM
 * and skeleton), PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_anim_schedule_size). */
PLUMBOB_API plumbob_result plumbob_anim_schedule_build(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                                       plumbob_anim_schedule *schedule);

/* plumbob_anim_sampler_init for schedule->binding, playing the scheduled
 * curves from the schedule (which must outlive the sampler): the same
 * values, bit for bit; a time before the last one sampled seeks each
 * curve.  Memory: plumbob_anim_sampler_size(schedule->binding).  Errors as
 * plumbob_anim_sampler_init's (INVALID_ARGUMENT also for a NULL schedule or
 * one whose lane count does not fit its binding). */
PLUMBOB_API plumbob_result plumbob_anim_sampler_init_scheduled(const plumbob_anim_schedule *schedule,
                                                               plumbob_arena *arena, plumbob_anim_sampler *sampler);

/* The pose at `ticks` (1 ms each; any float: NaN plays tick 0, times before
 * the first key or after the last, the infinities too, hold it).
 *   poses, pose_count: the local pose of every bone in the skeleton's order
 *     (pose_count at least sampler->bone_count): the rest pose with every
 *     bound channel's value in place.  poses NULL skips bones.
 *   morph_weights, morph_count: per morph pair of the mesh (morph_count at
 *     least sampler->morph_count): bound pairs get their channel's value,
 *     the others are left as they were.  NULL skips morphs.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL sampler, or one
 * plumbob_anim_sampler_init did not make), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (pose_count or morph_count too small for a non-NULL array); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_anim_sampler_sample(plumbob_anim_sampler *sampler, float ticks,
                                                       plumbob_bone_pose *poses, uint32_t pose_count,
                                                       float *morph_weights, uint32_t morph_count);


/* ===================================================================== */
/* Chapter 19 Skinning: the format-neutral job, GMDC's preparer          */
/* ===================================================================== */

/* --- The format-neutral skinning job ------------------------------------
 * Linear blend skinning over vertex streams laid out by the caller or a
 * format's preparer (plumbob_gmdc_skin is one).  The blend is of matrices:
 * C = sum w_k palette[joint_k]; p' = C p; n' = C n (3x3), renormalized
 * unless PLUMBOB_SKIN_UNNORMALIZED; the port's kernel (ports/kernels.h)
 * does it, and every port gives the same bits.  The sum's order, for 1..4
 * influences with terms t_k = w_k palette[joint_k]: t0, t0 + t1,
 * (t0 + t1) + t2, (t0 + t1) + (t2 + t3), with either weight mode. */

/* How a vertex's weights are stored (plumbob_skin_mesh.weight_mode). */
#define PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST 0u /* weight_count (0..3) stored, the next implied:
                                              * 1 - the sum of the used ones (GMDC) */
#define PLUMBOB_SKIN_WEIGHTS_EXPLICIT 1u     /* weight_count (1..4) stored, one per influence,
                                              * none implied (GEOM): C = sum over k below
                                              * weight_count of w_k palette[slot_k] */

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
    uint32_t weight_count;          /* stored weights: 0..3 with the last implied (1..4
                                     * influences), 1..4 explicit (as many influences) */
    uint32_t weight_mode;           /* PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST or _EXPLICIT */
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
 * its values; weight_count above 3 (implied) or outside 1..4 (explicit),
 * or NULL weights with some; slot_count above 255; a range past
 * vertex_count; unknown flags),
 * PLUMBOB_ERR_BAD_INDEX (a slot naming a matrix at or past palette_count),
 * PLUMBOB_ERR_UNSUPPORTED (weight_mode neither
 * PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST nor _EXPLICIT), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (position_count, or normal_count with normals, below the range's end);
 * nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skin(const plumbob_skin_job *job);

/* --- The prepared skinning mesh -----------------------------------------
 * plumbob_skin decodes the described streams every frame (slot bytes,
 * unused slots, the implied weight).  A prepared mesh does that once: it
 * is built from a plumbob_skin_mesh (either weight mode: GMDC through
 * plumbob_gmdc_skin's description, GEOM through plumbob_geom_skin_mesh's)
 * into caller memory, and skinned every frame by plumbob_skin_prepared.
 * Its layout (internal; the struct below points into the caller's memory):
 * the vertices stay in the mesh's order, in blocks of 32 that keep one
 * shape, runs of equal blocks forming spans of 1..4 influences; per vertex
 * only the influences that weigh something (slot below slot_count, not
 * 0xFF, weight not 0), weights as numbers (the implied one computed, a
 * span's last weight left out where it is 1 - the others' sum, a rigid
 * span's weights of exactly 1 left out), slots mapped through slot_joint
 * to palette indices, positions and normals as x, y, z rows of eight
 * vertices (what the kernels transform), so output needs no remap.
 * The blend: R = M0 for a rigid vertex (one influence of weight 1), else
 * ((w0 M0 + w1 M1) + w2 M2) + w3 M3 over the span's influences (a vertex
 * with fewer pads with weight 0), the implied last weight 1 - ((w0 + w1) +
 * w2) over the others; p' = R p, n' = R n as in plumbob_skin, renormalized
 * unless PLUMBOB_SKIN_UNNORMALIZED: n' times 1 / sqrt(len2) with len2 (its
 * squared length) clamped into [FLT_MIN, FLT_MAX] first, so a zero normal
 * stays zero and a degenerate one (squares that underflow or overflow)
 * comes out finite, not unit.  Tangents: prepare a second mesh from the
 * tangent description (plumbob_geom_skin_mesh with PLUMBOB_GEOM_TANGENT)
 * and skin it as normals.  Every port gives the scalar
 * reference's bits on one prepared mesh; against plumbob_skin the result
 * differs by float rounding (another order of the blend's sums). */

/* Prepare options: keep no normals (jobs on the mesh then skin positions
 * only; without it a mesh without normals gets (0, 0, 1) as plumbob_skin
 * makes them up). */
#define PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY 1u
/* Prepare option: lay the vertices out by shape (those without an
 * influence that weighs, rigid ones, then those with 1, 2, 3 and 4
 * influences that weigh, each class in mesh order), so blocks of one
 * shape are not padded to their largest vertex as a mesh whose influence
 * counts change every few vertices otherwise is (ozz's parts, in one
 * mesh).  Jobs on such a mesh take and write vertices in this prepared
 * order (first_vertex, vertex_count and the outputs count in it);
 * plumbob_skin_prepared_order gives it, to remap an index buffer once. */
#define PLUMBOB_SKIN_PREPARE_SORTED 2u
/* Prepare option: vertices whose influences name the same slots share
 * their matrices, four at a time (ozz has no such layout; the kernels
 * then blend the matrices with one vertex per lane and need no
 * transposes).  The prepared order: first every run of vertices with
 * one tuple (class as above, then the slots in slot order) cut to a
 * multiple of four, by class, tuple and mesh order; then the rest (each
 * run's last 0..3, and the vertices without influences) as
 * PLUMBOB_SKIN_PREPARE_SORTED orders them.  Blocks of 32 whose every
 * aligned four name one tuple are shared: the four's slots stored once,
 * their influences in slot order (so their sums run in that order, a
 * rounding apart from plumbob_skin's); a job without normals transforms
 * the point by each influence's matrix and blends the points (fewer
 * multiplies; with normals the matrices are blended first, so positions
 * differ by rounding between the two); other blocks as without the
 * option.  Jobs take and write vertices in this order
 * (plumbob_skin_prepared_order gives it; it sorts in place, O(n log n)).
 * plumbob_skin_prepared_size asks for a bound (the layout's largest,
 * plus 12 bytes per vertex of scratch to sort with); the mesh's `bytes`
 * says what stays in use.  vertex_count must be below 2^31. */
#define PLUMBOB_SKIN_PREPARE_SHARED 4u

typedef struct plumbob_skin_prepared_mesh {
    uint32_t vertex_count;
    uint32_t span_count;        /* runs of blocks of one shape */
    uint32_t slot_count;        /* the table entries a job builds from the palette */
    uint32_t palette_needed;    /* 1 + the largest palette index a slot maps to (0: none) */
    uint32_t has_normals;       /* 1: jobs may ask for normals */
    uint32_t skinned;           /* 0: the description had no joints (pass through) */
    const void *spans;          /* internal: span records */
    const uint16_t *slot_joint; /* slot -> palette index, slot_count of them */
    size_t bytes;               /* bytes of the caller's memory in use (from its start) */
    uint32_t shared_vertices;   /* vertices in shared blocks (PLUMBOB_SKIN_PREPARE_SHARED) */
} plumbob_skin_prepared_mesh;

/* Bytes plumbob_skin_prepare needs for `mesh` with `options` (any
 * alignment: the size holds 64 bytes of slack), in *bytes.  It reads and
 * checks the whole description (one pass).  Errors as plumbob_skin_prepare's. */
PLUMBOB_API plumbob_result plumbob_skin_prepared_size(const plumbob_skin_mesh *mesh, uint32_t options, size_t *bytes);

/* The prepared order of `mesh` with `options`: order[i] = the mesh vertex
 * at prepared position i (0, 1, 2, ... without PLUMBOB_SKIN_PREPARE_SORTED).
 * Reads the description as plumbob_skin_prepared_size does.  Errors as
 * plumbob_skin_prepared_size's, and PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * order), PLUMBOB_ERR_OUTPUT_TOO_SMALL (order_count below vertex_count). */
PLUMBOB_API plumbob_result plumbob_skin_prepared_order(const plumbob_skin_mesh *mesh, uint32_t options,
                                                       uint32_t *order, uint32_t order_count);

/* Prepares `mesh` (checked once here: streams, strides, weight mode and
 * counts, every weight and implied weight finite) into memory (bytes
 * long, any alignment), filling *out.  The prepared mesh owns no pointer
 * into the description: the description's streams may go after this.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL mesh or out, NULL memory,
 * NULL positions with vertices, a stream stride below its values,
 * weight_count above 3 (implied) or not 1..4 (explicit), NULL weights
 * with some, slot_count above 255, unknown options), PLUMBOB_ERR_UNSUPPORTED
 * (an unknown weight_mode), PLUMBOB_ERR_BAD_DATA (a weight or implied
 * weight that is not finite), PLUMBOB_ERR_OUT_OF_MEMORY (bytes below
 * plumbob_skin_prepared_size's); nothing is valid in *out then. */
PLUMBOB_API plumbob_result plumbob_skin_prepare(const plumbob_skin_mesh *mesh, uint32_t options, void *memory,
                                                size_t bytes, plumbob_skin_prepared_mesh *out);

/* One job on a prepared mesh: as plumbob_skin_job, vertex v (the mesh's
 * order) to positions + v * position_stride, also for a range, so jobs
 * for disjoint ranges (each with its own work) give one job's bits. */
typedef struct plumbob_skin_prepared_job {
    const plumbob_skin_prepared_mesh *mesh;
    const plumbob_mat34 *palette;   /* skinning matrices (model x inverse bind) */
    uint32_t palette_count;         /* at least mesh->palette_needed */
    float *positions;               /* out: x y z per vertex */
    size_t position_stride;         /* in floats, 3 or more */
    uint32_t position_count;        /* vertices the positions span holds (at least the range's end) */
    float *normals;                 /* out, or NULL to skip normals */
    size_t normal_stride;           /* in floats, 3 or more */
    uint32_t normal_count;          /* vertices the normals span holds (at least the range's end) */
    uint32_t flags;                 /* 0, PLUMBOB_SKIN_REFERENCE, PLUMBOB_SKIN_UNNORMALIZED */
    uint32_t first_vertex;          /* the range to skin: first_vertex .. */
    uint32_t vertex_count;          /* .. + vertex_count (0: to the mesh's end) */
    void *work;                     /* PLUMBOB_SKIN_PREPARED_WORK_SIZE bytes, any alignment;
                                       one per thread skinning at once */
} plumbob_skin_prepared_job;

/* Scratch a prepared job needs: the palette entries of the mesh's slots
 * as rows and columns (plumbob_skin's table, 256 x 128 bytes, aligned to
 * 64 inside), one group of eight vertices' output at a range's edges
 * (in 256 bytes) and, for shared blocks, each entry's 12 elements in four
 * lanes (256 x 192 bytes): 82,240 bytes. */
#define PLUMBOB_SKIN_PREPARED_WORK_SIZE (256u * 128u + 256u + 256u * 192u + 64u)

/* Skins job->mesh's vertices [first_vertex, first_vertex + vertex_count).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL job, mesh, positions or
 * work; NULL palette with slots; an output stride below 3; normals asked
 * of a mesh prepared without them; a range past vertex_count; unknown
 * flags), PLUMBOB_ERR_BAD_INDEX (palette_count below palette_needed),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (position_count, or normal_count with
 * normals, below the range's end); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skin_prepared(const plumbob_skin_prepared_job *job);

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

/* The skinning palette straight from a skeleton's model matrices (the
 * palette plumbob_gmdc_palette makes of joint_model[j] = model[
 * bone_of_joint[j]]): palette[j] = model[bone_of_joint[j]] * inverse_bind[j]
 * for each of the mesh's joints, bone_of_joint as plumbob_cres_joint_map
 * fills it (joint_count entries).  A joint no bone claims (-1, or j at or
 * past joint_count) keeps its bind pose: its entry is the identity, so its
 * vertices stay where the mesh stores them.  model NULL means the rest pose
 * (every entry the identity); otherwise it holds model_count matrices
 * (plumbob_skeleton_model's).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * gmdc or palette, bone_of_joint NULL with a joint_count),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (palette_count below the mesh's
 * joint_count), PLUMBOB_ERR_BAD_INDEX (a mapped bone at or past
 * model_count); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_gmdc_palette_mapped(const plumbob_gmdc *gmdc, const plumbob_mat34 *model,
                                                       uint32_t model_count, const int32_t *bone_of_joint,
                                                       uint32_t joint_count, plumbob_mat34 *palette,
                                                       uint32_t palette_count);

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

/* Arena bytes plumbob_geom_bind needs (SIZE_MAX for NULL arguments): the
 * binding's two arrays, and the rig's rest model matrices while binding
 * (given back before it returns). */
PLUMBOB_API size_t plumbob_geom_bind_size(const plumbob_geom *geom, const plumbob_rig *rig);

/* Binds a mesh's bone hashes to a rig's skeleton view and computes the
 * inverse rest transforms.  A hash the rig lacks is not an error: its
 * rig_bone is -1, counted in `unbound`, and its palette entry is the
 * identity (those influences keep the vertex's rest place); callers
 * report it (the tool warns with the hash).  The rest transforms are
 * plumbob_skeleton_model's with local NULL; each bound one is inverted
 * (adjugate over determinant), so scales are allowed.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, or NULL bone_hashes with bones),
 * PLUMBOB_ERR_OUT_OF_MEMORY, PLUMBOB_ERR_BAD_INDEX (the rig's parents out
 * of order, as plumbob_skeleton_model), PLUMBOB_ERR_BAD_DATA (a bound
 * bone's rest transform has no inverse: a zero scale, or not finite). */
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
 * PLUMBOB_GEOM_TANGENT.  Every stream points into geom->vertices (stride
 * vertex_stride; plumbob_skin stages them in blocks).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, `vectors` another usage, an element
 * smaller than its usage's bytes or past vertex_stride, weights not 4
 * floats, bone_count above 255: a hand-filled geom no decode gives),
 * PLUMBOB_ERR_NOT_FOUND (no position element, or no element of `vectors`). */
PLUMBOB_API plumbob_result plumbob_geom_skin_mesh(const plumbob_geom *geom, uint32_t vectors,
                                                  plumbob_skin_mesh *mesh);

/* Scratch bytes plumbob_geom_morph needs for this morph (its vertex
 * indices sorted by vertex id: 4 per vertex, plus 3 to align them inside
 * work); SIZE_MAX for NULL. */
PLUMBOB_API size_t plumbob_geom_morph_work_size(const plumbob_geom *morph);

/* Applies a morph mesh (position, normal, vertex id only) to its base.  A
 * morph GEOM's positions and normals are deltas from the base (the Sims 3
 * GEOM Blender add-on adds them to the base on import and writes morph -
 * base on export; docs/API.md).  Each base vertex gets weight x the deltas
 * of the morph vertex with its vertex id, added to positions and normals
 * (float spans in the base's vertex order, vertex v at v * stride, as
 * plumbob_skin's inputs and outputs; normals may be NULL, and a morph
 * without normals moves positions only): the morph vertex at the same
 * index when its id matches, else the first morph vertex with the id.
 * Several base vertices sharing an id (a seam) all get it; a base vertex
 * whose id the morph lacks is left as it is.  Run it on the rest-pose
 * streams (copied out of the base) before skinning them.  work: any
 * alignment, work_size at least plumbob_geom_morph_work_size(morph); the
 * lookup is a heap sort there and a binary search per base vertex, so
 * O((n + m) log m).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a base or
 * morph without vertex ids, a morph without positions, an element that
 * does not fit a vertex, a stride below 3, non-finite weight, work NULL
 * or short), PLUMBOB_ERR_OUTPUT_TOO_SMALL (count below the base's
 * vertex_count); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_geom_morph(const plumbob_geom *base, const plumbob_geom *morph, float weight,
                                              float *positions, size_t position_stride, float *normals,
                                              size_t normal_stride, uint32_t count, void *work, size_t work_size);

/* ===================================================================== */
/* Chapter 19c Root motion and IK (jobs on sampled and model poses)      */
/* ===================================================================== */

/* --- Root motion ---------------------------------------------------------
 * Which bone moves a Sims 3 Sim: b__ROOT__ (hash 0xFEAE6981) is the rig's
 * root and stays at the origin (clips give it one key or none);
 * b__ROOT_bind__ (hash 0x57884BB9, b__ROOT__'s child at hip height, the
 * rig's one-bone IK chain 4) carries the whole body's motion in every
 * corpus clip: translation and rotation keys every tick.  Its ground-plane
 * part (x and z, Y being up in Sims 3 rigs and clips) and its yaw about Y
 * are the root motion; its height, pitch and roll stay in the pose.  A
 * root-motion value is a transform in the ground plane: a translation
 * (y = 0) and a yaw (a rotation about +Y, as a unit quaternion x = z = 0). */
#define PLUMBOB_ROOT_MOTION_BONE_SIMS3 0x57884BB9u /* FNV-32 of "b__ROOT_bind__" */

typedef struct plumbob_root_motion {
    plumbob_vec3 translation; /* ground plane: y is 0 */
    plumbob_quat yaw;         /* about +Y: x and z are 0, unit */
} plumbob_root_motion;

/* The ground frame of a root pose: (translation.x, 0, translation.z) and
 * the yaw of its rotation (the rotation's twist about Y: (0, y, 0, w)
 * normalized, w >= 0; identity when the rotation has no yaw part, as a
 * half turn about a horizontal axis).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL). */
PLUMBOB_API plumbob_result plumbob_root_motion_frame(const plumbob_bone_pose *root, plumbob_root_motion *frame);

/* The motion between two ground frames, in `from`'s own frame:
 * translation = inverse(from.yaw) (to.translation - from.translation),
 * yaw = inverse(from.yaw) to.yaw, so that accumulating it onto an object
 * that stood where `from` stands puts it where `to` stands.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL). */
PLUMBOB_API plumbob_result plumbob_root_motion_delta(const plumbob_root_motion *from, const plumbob_root_motion *to,
                                                     plumbob_root_motion *delta);

/* A clip's root motion from from_seconds (t0) to to_seconds (t1): the delta between the ground
 * frames of bone `root_hash`'s sampled pose (its rotation and translation
 * tracks, clamped to the clip's keys as plumbob_clip_sample_track does;
 * a channel without a track counts as identity / zero; a translation not
 * finite or beyond 1e15, which only a hostile track's scale gives, as
 * zero) at t0 and at t1.
 * With `looping` and t1 < t0 the span runs through the clip's end: the
 * motion from t0 to the end, then from the start to t1, so a looping walk
 * keeps going forward.  Times are clamped to [0, duration].  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a time NaN), PLUMBOB_ERR_NOT_FOUND (no
 * rotation or translation track of root_hash: *delta is the identity). */
PLUMBOB_API plumbob_result plumbob_root_motion_extract(const plumbob_clip *clip, uint32_t root_hash,
                                                       float from_seconds, float to_seconds, bool looping,
                                                       plumbob_root_motion *delta);

/* Moves an object by a delta given in its own frame: translation +=
 * yaw delta.translation, then yaw = yaw delta.yaw (renormalized, so a long
 * run of small steps stays unit).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL). */
PLUMBOB_API plumbob_result plumbob_root_motion_accumulate(plumbob_root_motion *object,
                                                          const plumbob_root_motion *delta);

/* Takes the extracted motion out of a sampled root pose, so the body stays
 * in place while the accumulated delta moves the object: with F the ground
 * frame of `root` and F0 `reference` (the root's ground frame at the
 * clip's start, or any frame the body should keep), root becomes F0
 * inverse(F) root.  The height, pitch and roll are kept.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL). */
PLUMBOB_API plumbob_result plumbob_root_motion_remove(const plumbob_root_motion *reference, plumbob_bone_pose *root);

/* Puts an object's motion on a bone that carries it, the counterpart of
 * plumbob_root_motion_remove for a skeleton that moves as a whole (an
 * export: b__ROOT__ carrying what was taken out of its child
 * b__ROOT_bind__): with M = object inverse(reference) (a yaw and an x, z
 * translation), carrier becomes carrier M (translation += carrier
 * rotation (carrier scale * M's translation), rotation = carrier rotation
 * M's yaw, normalized).  With `reference` the frame given to
 * plumbob_root_motion_remove and `object` the accumulated frame, carrier
 * M (removed root) = carrier (root) while object is the root's own frame.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL). */
PLUMBOB_API plumbob_result plumbob_root_motion_apply(const plumbob_root_motion *object,
                                                     const plumbob_root_motion *reference,
                                                     plumbob_bone_pose *carrier);

/* --- IK: two-bone and aim jobs -------------------------------------------
 * Both work on model-space transforms (plumbob_skeleton_model's output)
 * and return corrective local rotations: multiply them into the joints'
 * local rotations on the right (local.rotation = local.rotation *
 * correction), then run plumbob_skeleton_model again (the IK step of
 * docs/ARCHITECTURE.md's flow).  The joints' model transforms are read as
 * translation, rotation and a scale per axis (no shear: every Sims rig's
 * scales are 1); a mirrored joint (negative determinant) gets the mirrored
 * correction.  Square roots are correctly rounded (the port's instruction
 * or an integer one), so every port gives the same bits.  Every input is checked
 * once: non-finite numbers, or values beyond 1e15, are refused; every
 * finite input gives finite output (degenerate ones a fixed answer). */

typedef struct plumbob_ik_two_bone_job {
    const plumbob_mat34 *start;  /* model transform of the chain's first joint (thigh, upper arm) */
    const plumbob_mat34 *mid;    /* the middle joint (calf, forearm), a descendant of start */
    const plumbob_mat34 *end;    /* the end joint (foot, hand), a descendant of mid */
    plumbob_vec3 target;         /* model-space point the end joint should reach */
    plumbob_vec3 pole;           /* model-space direction the middle joint bends toward, from the
                                  * start joint (for a rig's pole bone: its position - start's);
                                  * zero keeps the chain's current bend plane */
    float weight;                /* 0..1 (clamped): 0 changes nothing, 1 the full solve */
    float soften;                /* 0..1 (clamped): 1 none; below 1, from soften * (chain length)
                                  * on the reach eases out smoothly (no knee snap), so a target
                                  * near full stretch is approached but not reached */
    float twist_angle;           /* radians about the start -> target axis, after the pole (|x| <= 1e6) */
} plumbob_ik_two_bone_job;

typedef struct plumbob_ik_two_bone_result {
    plumbob_quat start_correction; /* local correction of the start joint */
    plumbob_quat mid_correction;   /* local correction of the middle joint */
    bool reached;                  /* the full solve puts the end on the target (the target is
                                    * within [|a - b|, a + b] of the start, a and b the bone
                                    * lengths, and soften left it alone) */
} plumbob_ik_two_bone_result;

/* The two-bone solve: the middle joint turns in the chain's bend plane
 * until the start-to-end distance is the target's (law of cosines; clamped
 * to [|a - b|, a + b], so an unreachable target stretches the chain fully
 * along the start -> target direction, reached false), then the start
 * joint turns the end onto the start -> target line, then about that line
 * so the middle joint lies on the pole's side, then by twist_angle.  Bone
 * lengths are kept (rotations only).  A straight or folded chain bends
 * toward the pole (without one, in a fixed plane).  Degenerate input gives
 * identity parts: a zero-length bone (no bend), a target on the start
 * joint (no aim), a pole along the start -> target line (no pole turn).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL job, joint or result; a
 * number not finite or beyond 1e15; |twist_angle| above 1e6); nothing is
 * written then. */
PLUMBOB_API plumbob_result plumbob_ik_two_bone(const plumbob_ik_two_bone_job *job,
                                               plumbob_ik_two_bone_result *result);

typedef struct plumbob_ik_aim_job {
    const plumbob_mat34 *joint;  /* model transform of the aiming joint (head, eye) */
    plumbob_vec3 target;         /* model-space point to aim at */
    plumbob_vec3 forward;        /* joint-local axis to aim (normalized by the job; not zero) */
    plumbob_vec3 up;             /* joint-local axis turned toward `pole` about the aim line;
                                  * zero: no up constraint */
    plumbob_vec3 pole;           /* model-space direction for `up`; zero: none */
    plumbob_vec3 offset;         /* joint-local point the aimed ray starts from (eyes in a
                                  * head); the ray offset + s forward passes through the target */
    float weight;                /* 0..1 (clamped) */
    float twist_angle;           /* radians about the aim line, after the up constraint */
} plumbob_ik_aim_job;

typedef struct plumbob_ik_aim_result {
    plumbob_quat correction;     /* local correction of the joint */
    bool reached;                /* the ray passes through the target (false when the target is
                                  * on the joint or nearer than the offset's distance from the
                                  * forward line through the joint: then the offset is ignored) */
} plumbob_ik_aim_result;

/* The aim solve, in the joint's own frame: the shortest rotation taking
 * the offset ray's point at the target's distance onto the target, then
 * one about the aim line bringing `up` into the plane of the line and
 * `pole`, then twist_angle about the line.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a zero forward, a number not finite
 * or beyond 1e15, |twist_angle| above 1e6); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_ik_aim(const plumbob_ik_aim_job *job, plumbob_ik_aim_result *result);

/* --- The rigs' IK chains ------------------------------------------------
 * A Sims 3 rig's chain lists its bones root-first (auRig: thigh, calf,
 * foot for the legs, upper arm, forearm, hand for the arms) and names a
 * pole bone (L_legExportPole ...: a point in front of the knee, behind
 * the elbow), info and slot bones, and its root (b__ROOT__); chain 4 of
 * the human rigs is the single bone b__ROOT_bind__.  Chains are numbered
 * as the clips' IK slot tables number them. */
typedef struct plumbob_ik_chain_bones {
    uint32_t start, mid, end; /* skeleton-view indices (rig->skeleton order) */
    int32_t pole;             /* skeleton-view index of the pole bone, -1 none */
} plumbob_ik_chain_bones;

/* The two-bone chain of rig chain `chain`: its first, second and last
 * bones (a chain of more than three bones: the first, the second and the
 * last, the bones between counted as the lower limb) and its pole bone,
 * mapped to skeleton-view indices.  Set the two-bone job's pole to the
 * pole bone's model position minus the start's.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_BAD_INDEX (chain past
 * ik_chain_count, a bone index outside the rig),
 * PLUMBOB_ERR_UNSUPPORTED (a chain of fewer than three bones, such as the
 * root chain). */
PLUMBOB_API plumbob_result plumbob_rig_ik_chain_bones(const plumbob_rig *rig, uint32_t chain,
                                                      plumbob_ik_chain_bones *bones);

/* --- IK slot chains of a clip -------------------------------------------
 * A clip's slot table (plumbob_clip.slots) says, per IK chain, which
 * actor's slot bone the chain's end follows ("chain 0: actor baby -> slot
 * IKtarget_baby").  Which entry of a chain is active at a time is animated
 * by the clip through the rig's slot info bones and is not decoded here:
 * the job solves every entry naming the given actor, and the caller keeps
 * the one it wants (or the last of a chain, as the job's corrections are
 * independent: they are never applied in between). */
typedef struct plumbob_ik_slot_job {
    const plumbob_clip *clip;          /* its slot table */
    const plumbob_rig *rig;            /* the clip's actor's rig (chains, skeleton view) */
    const plumbob_mat34 *model;        /* the actor's model pose, in skeleton-view order */
    uint32_t model_count;              /* matrices model holds (at least the rig's bone_count) */
    plumbob_string actor;              /* the other actor's name in the clip's table ("baby") */
    const plumbob_skeleton *other;     /* the other actor's skeleton (name hashes needed) */
    const plumbob_mat34 *other_model;  /* its model pose */
    uint32_t other_model_count;        /* at least other->bone_count */
    const plumbob_mat34 *other_to_model; /* the other's model space in the actor's (NULL: the same) */
    float weight, soften;              /* as plumbob_ik_two_bone_job; twist 0 */
} plumbob_ik_slot_job;

typedef struct plumbob_ik_slot_solve {
    uint32_t slot_entry;               /* index into clip->slots */
    uint32_t chain;                    /* the entry's chain (= rig chain) */
    plumbob_ik_chain_bones bones;      /* resolved chain bones (when status is PLUMBOB_OK) */
    int32_t slot_bone;                 /* the other skeleton's slot bone, -1 unresolved */
    plumbob_vec3 target;               /* its model position in the actor's model space */
    plumbob_ik_two_bone_result ik;     /* the solve (when status is PLUMBOB_OK) */
    plumbob_result status;             /* PLUMBOB_OK; PLUMBOB_ERR_NOT_FOUND: the slot name is not
                                        * a bone of `other` (by FNV-32 hash);
                                        * PLUMBOB_ERR_BAD_INDEX / PLUMBOB_ERR_UNSUPPORTED: the
                                        * chain is not a two-bone chain of the rig;
                                        * PLUMBOB_ERR_INVALID_ARGUMENT: plumbob_ik_two_bone refused
                                        * the chain's matrices or the target (not finite) */
} plumbob_ik_slot_solve;

/* Solves every slot entry of the clip naming `actor` (compared without
 * case): per entry, the chain's bones (plumbob_rig_ik_chain_bones, pole
 * bone when it has one), the target (the other skeleton's slot bone model
 * position, mapped by other_to_model) and plumbob_ik_two_bone's result.
 * Entries are written in table order to solves[0 .. *solve_count);
 * *unresolved counts those whose status is not PLUMBOB_OK (may be NULL).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL job, clip, rig, model, other,
 * other_model, solves or solve_count; an `other` without name hashes; a
 * non-finite other_to_model), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (model_count or other_model_count below the bone counts, or more
 * matching entries than solve_capacity; *solve_count is then the number
 * needed), PLUMBOB_ERR_BAD_INDEX (an invalid skeleton); nothing is
 * written to solves then. */
PLUMBOB_API plumbob_result plumbob_ik_slots_solve(const plumbob_ik_slot_job *job, plumbob_ik_slot_solve *solves,
                                                  uint32_t solve_capacity, uint32_t *solve_count,
                                                  uint32_t *unresolved);


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
 *   rotation    = normalize(base q * p), p = (1 - w) (0 0 0 1) + w (+-delta q):
 *                 nlerp(identity, delta q, w) on the shorter arc (delta q
 *                 negated when its w < 0), normalized once, after the
 *                 product, with a correctly rounded square root and
 *                 division; the identity where that product is zero or not
 *                 finite (a zero delta at w = 1; a NaN or infinite input);
 *   translation = base t + w * delta t;
 *   scale       = base s * ((1 - w) + w * delta s);
 * translation and scale clamped to +-FLT_MAX.  At w = 1 the clip plays on
 * top of the base as authored; at w = 0 out is the base (rotation
 * normalized) for a finite delta.  The jazz `additive` play flag names a clip played this
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

/* --- The blocked pose form (plumbob_pose_soa, base.h) -------------------
 * The same poses four bones a block, component by component, which is
 * what a 4-wide vector unit wants: the _soa jobs below give, bone for
 * bone, the bits of their bone_pose twins (the same operations in the
 * same order) at a fraction of the time.  A frame keeps its poses in
 * blocks from the sampler's output to the model job, or converts at the
 * ends with the two functions here. */

/* The blocks a pose of bone_count bones takes: ceil(bone_count / 4). */
PLUMBOB_API uint32_t plumbob_pose_soa_blocks(uint32_t bone_count);

/* bone_count poses into blocks; the padding lanes of the last block get
 * the identity (rotation 0 0 0 1, translation 0, scale 1).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL in or out with bones),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_blocks below
 * plumbob_pose_soa_blocks(bone_count)); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_pose_to_soa(const plumbob_bone_pose *in, uint32_t bone_count,
                                               plumbob_pose_soa *out, uint32_t out_blocks);

/* The first bone_count bones of blocks back into poses (padding lanes
 * dropped).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL in or out with
 * bones), PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_count below bone_count). */
PLUMBOB_API plumbob_result plumbob_pose_from_soa(const plumbob_pose_soa *in, uint32_t bone_count,
                                                 plumbob_bone_pose *out, uint32_t out_count);

/* plumbob_pose_blend over blocks: the same rules (weights and masks
 * clamped, the rest pose joining below threshold, the shorter-arc sign
 * against layer 0, normalization with a correctly rounded square root and
 * division, translation and scale clamped to +-FLT_MAX) and, bone for
 * bone, the same bits.  Each layer's bone_weights holds bone_count floats
 * (a mask made for the bone_pose job serves); a padding lane weighs as if
 * its mask said 1, so padding bones come out the blend of the layers'
 * padding (the identity when plumbob_pose_to_soa filled them) and never
 * NaN from finite inputs.  Every layer is read once per block and out
 * written once (no pass per layer).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL layers with a count, a layer with
 * NULL poses, NULL rest or out with bones, threshold not in (0, 1] or
 * NaN, out equal to a layer's poses or rest),
 * PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_blocks below
 * plumbob_pose_soa_blocks(bone_count)); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_pose_blend_soa(const plumbob_blend_layer_soa *layers, uint32_t layer_count,
                                                  const plumbob_pose_soa *rest, uint32_t bone_count,
                                                  float threshold, plumbob_pose_soa *out, uint32_t out_blocks);

/* plumbob_pose_additive_apply over blocks: the same formulas and, bone for
 * bone, the same bits (bone_weights: bone_count floats or NULL; padding
 * lanes weigh as a mask of 1).  out may alias base (block by block, in
 * place).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL arrays with bones,
 * out equal to delta), PLUMBOB_ERR_OUTPUT_TOO_SMALL (out_blocks below
 * plumbob_pose_soa_blocks(bone_count)); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_pose_additive_apply_soa(const plumbob_pose_soa *base, const plumbob_pose_soa *delta,
                                                           float weight, const float *bone_weights, uint32_t bone_count,
                                                           plumbob_pose_soa *out, uint32_t out_blocks);

/* plumbob_skeleton_model over blocks: bone i's local pose is lane i % 4 of
 * local[i / 4], and model[i] gets, bone for bone, the bits
 * plumbob_skeleton_model gives for the same poses (so a blocked frame
 * needs no plumbob_pose_from_soa before it).  Padding lanes are read but
 * never reach model (any values do).  local holds at least
 * plumbob_pose_soa_blocks(bone_count) blocks; model at least bone_count
 * matrices and must not overlap local.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL skeleton or model, NULL local with
 * bones, local_blocks below plumbob_pose_soa_blocks(bone_count), model
 * equal to local), PLUMBOB_ERR_OUTPUT_TOO_SMALL (model_count below
 * bone_count), PLUMBOB_ERR_BAD_INDEX (parents out of order, as
 * plumbob_skeleton_validate); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_skeleton_model_soa(const plumbob_skeleton *skeleton, const plumbob_pose_soa *local,
                                                      uint32_t local_blocks, plumbob_mat34 *model,
                                                      uint32_t model_count);


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
