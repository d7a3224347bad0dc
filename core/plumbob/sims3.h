/* plumbob/sims3.h: the Sims 3 formats of plumbob.h (docs/ARCHITECTURE.md):
 * clip names and keys, CLIP animations, jazz state
 * machines, rigs: decode, validate, write.
 * A game includes plumbob.h, which includes every layer; this file may be
 * included alone and brings the layers it builds on. */
#ifndef PLUMBOB_SIMS3_H
#define PLUMBOB_SIMS3_H

#include "package.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Chapter 14 Sims 3 CLIP animations (type 0x6B20C4F3)                   */
/* ===================================================================== */

/* A CLIP holds one animation for one actor: tracks of quantized keys (bone
 * rotations and translations, morph weights), the IK slot table and timed
 * events.  Decoding builds small tables in the arena; key data stays in the
 * caller's buffer (zero copy), which must outlive the clip.
 *
 * Time units: every clip call takes and gives seconds (parameters named
 * `seconds`, `from_seconds`, ...; event times and plumbob_clip_duration
 * too).  Ticks (frame_duration seconds each, 1/30) appear only where the
 * format stores them: key ticks (`ticks`, `tick`) and tick_count.  The
 * Sims 2 ANIM calls (Chapter 12) take ticks of 1 ms instead. */

/* --- Clip names and package keys --- */

/* Sims 3 age and species codes, the prefix letters of clip names
 * ("t2c_..." is a toddler acting on a child).  0 means generic ("a" or "o"). */
enum {
    PLUMBOB_AGE_GENERIC = 0x00, /* a, o   */
    PLUMBOB_AGE_BABY = 0x01,    /* b      */
    PLUMBOB_AGE_TODDLER = 0x02, /* p      */
    PLUMBOB_AGE_CHILD = 0x03,   /* c      */
    PLUMBOB_AGE_TEEN = 0x04,    /* t      */
    PLUMBOB_AGE_ADULT = 0x05,   /* h      */
    PLUMBOB_AGE_ELDER = 0x06,   /* e      */
    PLUMBOB_AGE_DOG = 0x08,     /* ad     */
    PLUMBOB_AGE_PUPPY = 0x09,   /* cd     */
    PLUMBOB_AGE_SMALL_DOG = 0x0A, /* al   */
    PLUMBOB_AGE_CAT = 0x0D,     /* ac     */
    PLUMBOB_AGE_KITTEN = 0x0E,  /* cc     */
    PLUMBOB_AGE_HORSE = 0x10,   /* ah     */
    PLUMBOB_AGE_FOAL = 0x11,    /* ch     */
    PLUMBOB_AGE_AB = 0x12,      /* ab (species not confirmed) */
    PLUMBOB_AGE_AR = 0x13       /* ar (species not confirmed) */
};

/* Resource group of pet clips (any code above 6 in the name). */
#define PLUMBOB_CLIP_GROUP_PETS 0x48000000u

/* Where a CLIP lives in a package. */
typedef struct plumbob_clip_key {
    uint64_t instance;
    uint32_t group;
} plumbob_clip_key;

/* The code for a prefix letter group ("t", "ad", ...; case-insensitive), or
 * -1 when it is not a code.  "a" and "o" give PLUMBOB_AGE_GENERIC. */
PLUMBOB_API int plumbob_age_code(const char *code, size_t len);

/* The instance id and group of the clip called name[0..len), by the rule in
 * docs/API.md: the prefix before the first '_' (at most 5 characters) is read
 * as actor[2target] codes, rewritten with generic codes, FNV-64 hashed with
 * the top bit cleared, and non-generic codes are xored into the top 16 bits.
 * A name without such a prefix is hashed as it is, top bit cleared.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (out NULL, or name NULL with len > 0). */
PLUMBOB_API plumbob_result plumbob_clip_key_from_name(const char *name, size_t len,
                                                      plumbob_clip_key *out);

/* Most entries plumbob_clip_fallbacks writes. */
#define PLUMBOB_CLIP_MAX_FALLBACKS 2

/* The ordered keys to try for a requested clip: the name with its actor and
 * target codes replaced by `actor` and `target` where those are not
 * PLUMBOB_AGE_GENERIC (an "o" slot is never replaced), then the fully generic
 * name ("t2c_x" -> own key, then "a2a_x").  Duplicates are dropped.  Writes at
 * most PLUMBOB_CLIP_MAX_FALLBACKS keys to out and stores how many in *count.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL out/count, or a code that is not
 * one of the PLUMBOB_AGE_* values). */
PLUMBOB_API plumbob_result plumbob_clip_fallbacks(const char *name, size_t len, int actor,
                                                  int target,
                                                  plumbob_clip_key out[PLUMBOB_CLIP_MAX_FALLBACKS],
                                                  size_t *count);

/* Who a clip is for, and who wears a rig (plumbob_clip_binding_report
 * compares them): the body a clip name's actor prefix names (the letters
 * before the first '2' or '_', at most 4: "al2a_..." is a small dog's clip;
 * a, t, y, h, e are all adult-sized humans, o an object) and the body a Sim
 * rig's name names (two letters, age then species, and "Rig": auRig,
 * cuRig, puRig, buRig, adRig, cdRig, alRig, acRig, ccRig, ahRig, chRig).
 * Any other non-empty rig name is taken for an object's rig.  The codes
 * "ab" and "ar", whose species is not confirmed, name no body. */
enum {
    PLUMBOB_BODY_UNKNOWN = 0,   /* no prefix, an unknown one, or no rig name */
    PLUMBOB_BODY_OBJECT = 1,    /* o; a rig not named as a Sim's */
    PLUMBOB_BODY_HUMAN = 2,     /* a t y h e; auRig (teen to elder) */
    PLUMBOB_BODY_CHILD = 3,     /* c; cuRig */
    PLUMBOB_BODY_TODDLER = 4,   /* p; puRig */
    PLUMBOB_BODY_BABY = 5,      /* b; buRig */
    PLUMBOB_BODY_DOG = 6,       /* ad; adRig */
    PLUMBOB_BODY_PUPPY = 7,     /* cd; cdRig */
    PLUMBOB_BODY_SMALL_DOG = 8, /* al; alRig */
    PLUMBOB_BODY_CAT = 9,       /* ac; acRig */
    PLUMBOB_BODY_KITTEN = 10,   /* cc; ccRig */
    PLUMBOB_BODY_HORSE = 11,    /* ah; ahRig */
    PLUMBOB_BODY_FOAL = 12      /* ch; chRig */
};

/* The PLUMBOB_BODY_* of the clip called name[0..len) (ASCII case-insensitive),
 * PLUMBOB_BODY_UNKNOWN for a name without a known prefix or NULL. */
PLUMBOB_API int plumbob_clip_name_body(const char *name, size_t len);

/* The PLUMBOB_BODY_* of the rig whose skeleton is called name[0..len)
 * (plumbob_rig's skeleton_name): a Sim rig's body, PLUMBOB_BODY_OBJECT for
 * any other name, PLUMBOB_BODY_UNKNOWN for an empty or NULL name. */
PLUMBOB_API int plumbob_rig_name_body(const char *name, size_t len);

/* The species of a body: its adult body (PLUMBOB_BODY_HUMAN for a child,
 * toddler or baby, PLUMBOB_BODY_DOG for a puppy, PLUMBOB_BODY_CAT for a
 * kitten, PLUMBOB_BODY_HORSE for a foal), the body itself for the small
 * dog and objects, PLUMBOB_BODY_UNKNOWN for anything else. */
PLUMBOB_API int plumbob_body_species(int body);

/* --- Decoding --- */

#define PLUMBOB_CLIP_TARGET_TRANSLATION 1
#define PLUMBOB_CLIP_TARGET_ROTATION 2
#define PLUMBOB_CLIP_TARGET_SCALE 3
#define PLUMBOB_CLIP_TARGET_MORPH 7

/* Limits that bound the work a hostile clip can ask for. */
#define PLUMBOB_CLIP_MAX_TRACKS 65536u
#define PLUMBOB_CLIP_MAX_EVENTS 65536u
#define PLUMBOB_CLIP_MAX_SLOTS 65536u

typedef struct plumbob_clip_track {
    uint32_t hash;            /* FNV-32 of the bone name; low 32 bits of FNV-64 for morphs */
    float offset, scale;      /* dequantized value = v * scale + offset */
    uint32_t data_offset;     /* key data, counted from the S3Clip section start */
    uint16_t key_count;
    uint8_t curve;            /* low 3 bits data type, bit 3 static, high nibble format */
    uint8_t target;           /* PLUMBOB_CLIP_TARGET_* (others are kept, not sampled) */
    uint16_t type;            /* target << 8 | curve: 0x214, 0x112, 0x103, 0x705, ... */
    uint8_t components;       /* values per sample: 4 rotation, 3 vector, 1 morph */
    uint8_t key_size;         /* bytes per key, 0 for keyless tracks */
    const unsigned char *keys; /* key_count * key_size bytes inside the input */
} plumbob_clip_track;

/* One IK slot entry: an actor and the slot it targets, in chain `chain`. */
typedef struct plumbob_clip_slot {
    uint32_t chain;
    uint32_t index;
    plumbob_string actor, slot;         /* up to the NUL */
    const unsigned char *actor_raw;     /* the full 512-byte fields (padding kept) */
    const unsigned char *slot_raw;
} plumbob_clip_slot;

#define PLUMBOB_CLIP_EVENT_ATTACH 1
#define PLUMBOB_CLIP_EVENT_UNPARENT 2
#define PLUMBOB_CLIP_EVENT_SOUND 3
#define PLUMBOB_CLIP_EVENT_SCRIPT 4
#define PLUMBOB_CLIP_EVENT_EFFECT 5
#define PLUMBOB_CLIP_EVENT_VISIBILITY 6
#define PLUMBOB_CLIP_EVENT_DESTROY_PROP 9
#define PLUMBOB_CLIP_EVENT_STOP_EFFECT 10

typedef struct plumbob_clip_event {
    uint16_t type;            /* PLUMBOB_CLIP_EVENT_* */
    uint16_t marker;          /* 0xC1E4 in every known clip; kept */
    uint32_t id;
    float time;               /* seconds */
    float unknown[2];         /* 0,0 in EA clips; -1,-1 in community ones */
    uint32_t unknown3;
    plumbob_string name;
    /* type-specific fields, decoded: */
    uint32_t hash[5];         /* attach: prop, object, slot, 0; unparent/destroy: actor;
                                 effect: u, u, effect, actor, bone; stop effect: effect, 0 */
    float visibility;         /* visibility events */
    plumbob_string sound;     /* sound events: the name up to its NUL */
    const unsigned char *payload; /* the raw type-specific bytes (attach: + 16 floats) */
    uint32_t payload_size;
} plumbob_clip_event;

typedef struct plumbob_clip {
    const unsigned char *data;
    size_t size;
    /* outer header (offsets made absolute; 0 = absent) */
    uint32_t linked_offset;   /* the first offset field, 0 in every known clip */
    uint32_t header_unknown[2]; /* the two u32 before the end offset (0 or 2; 0 or 1) */
    size_t s3clip_pos, s3clip_size, slot_pos, actor_pos, event_pos, end_pos;
    /* S3Clip header */
    uint32_t version, flags;
    float frame_duration;     /* seconds per tick, 1/30 */
    uint16_t tick_count, tick_pad; /* tick_pad: leftover bytes, kept for round trips */
    plumbob_string name, source, actor;
    uint32_t palette_count;
    const unsigned char *palette; /* palette_count little-endian floats */
    uint32_t track_count;
    plumbob_clip_track *tracks;
    /* IK slot table */
    uint32_t chain_count, slot_count;
    plumbob_clip_slot *slots;
    /* events */
    uint32_t event_version, event_count; /* declared count */
    uint32_t events_decoded;             /* may be less when an event type is unknown */
    bool events_complete;
    plumbob_clip_event *events;
    const unsigned char *end_block;      /* the 16 bytes at end_pos */
} plumbob_clip;

/* Arena bytes plumbob_clip_decode needs for this input (reads only counts):
 * PLUMBOB_CLIP_DECODE_SIZE of its track, slot and event counts.  On error
 * *arena_bytes is SIZE_MAX.  Errors: as plumbob_clip_decode for the
 * header and counts. */
PLUMBOB_API plumbob_result plumbob_clip_measure(const void *data, size_t size, size_t *arena_bytes);
#define PLUMBOB_CLIP_DECODE_SIZE(tracks, slots, events)              \
    (PLUMBOB_ARENA_NEED((tracks), sizeof(plumbob_clip_track)) +      \
     PLUMBOB_ARENA_NEED((slots), sizeof(plumbob_clip_slot)) +        \
     PLUMBOB_ARENA_NEED((events), sizeof(plumbob_clip_event)))

/* Decodes and validates a CLIP resource: every offset and count inside the
 * buffer, key data inside the S3Clip section, keys in tick order, palette
 * indices in range.  An unknown event type stops the event list there
 * (events_complete false) without failing the clip.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_TRUNCATED,
 * PLUMBOB_ERR_BAD_MAGIC (type id or "_pilC3S_" wrong),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (S3Clip version not 2), PLUMBOB_ERR_BAD_OFFSET,
 * PLUMBOB_ERR_BAD_COUNT (counts beyond the limits or the bytes),
 * PLUMBOB_ERR_BAD_DATA (ticks out of order, frame duration not positive
 * and at most 1e6 (so NaN and infinity are refused), a palette index out
 * of range, a bad event or slot header; an infinite or NaN track offset or
 * scale, palette value or event time: the `_ex` location is that float's
 * offset, table "track", "palette" or "event", its index, reason
 * "non-finite ..."), PLUMBOB_ERR_UNSUPPORTED (keys of an unknown data type),
 * PLUMBOB_ERR_OUT_OF_MEMORY (arena too small: see plumbob_clip_measure). */
PLUMBOB_API plumbob_result plumbob_clip_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_clip *clip);

/* plumbob_clip_measure and plumbob_clip_decode that also say where they
 * failed, as plumbob_gmdc_measure_ex does: *err (may be NULL) is cleared,
 * then on failure filled with the byte offset in data, the table
 * ("header", "s3clip", "track", "slot", "event", "arena", "arguments") and
 * a short reason.  Same results as the plain calls. */
PLUMBOB_API plumbob_result plumbob_clip_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_clip_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_clip *clip, plumbob_error *err);

/* --- Duration and events --------------------------------------------- */

/* Length in seconds: tick_count * frame_duration. */
PLUMBOB_API float plumbob_clip_duration(const plumbob_clip *clip);

/* Bytes of the type-specific payload after an event's name: attach 80,
 * unparent 4, sound 128, script 0, effect 24, visibility 4, destroy prop 4,
 * stop effect 8; -1 for a type plumbob does not know (the writer refuses
 * those, as it cannot lay them out). */
PLUMBOB_API int32_t plumbob_clip_event_payload_size(uint16_t type);

/* --- Writing CLIPs --- */

/* Bytes plumbob_clip_write produces for `clip` (SIZE_MAX when invalid).
 * The writer takes a decoded clip, or one the caller filled in: every
 * track's `keys` must hold key_count keys of the size its curve implies
 * (make them with plumbob_clip_quantize), names are written up to their
 * length, and slot/event raw fields may be NULL (then names are padded the
 * game's way, and event payloads are built from the decoded fields). */
PLUMBOB_API size_t plumbob_clip_write_size(const plumbob_clip *clip);

/* Writes a CLIP resource laid out as the game lays them out, so that
 * decode -> write gives the original bytes.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a track without keys where it declares
 * some, an unknown curve with keys, an event type without payload size),
 * PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_clip_write(const plumbob_clip *clip, void *out, size_t out_cap,
                                              size_t *out_size);

/* Quantizes one track's keys from float values into key bytes (key_count *
 * key_size, written to `keys`): ticks[k] and values[k * components ...].
 * Rounds to nearest, so decoding gives each value back within half a
 * quantum (scale / 4095, / 1023 or / 65535).  The offset and scale of the
 * track must already be set (plumbob_clip_fit_range picks them).  Curves:
 * 0x14 (12-bit rotations), 0x12 (10-bit vectors), 0x05 (16-bit scalars).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (other curves, NULL, scale 0). */
PLUMBOB_API plumbob_result plumbob_clip_quantize(const plumbob_clip_track *track,
                                                 const uint16_t *ticks, const float *values,
                                                 unsigned char *keys);

/* One-call authoring of a keyed track from float values: sets hash, curve,
 * target and key_count, picks offset and scale with plumbob_clip_fit_range,
 * quantizes into `keys` (key_count * 12, 8 or 6 bytes for curves 0x14,
 * 0x12, 0x05) and points the track at them.  values hold key_count *
 * components floats (4, 3 or 1).  Errors: as plumbob_clip_quantize. */
PLUMBOB_API plumbob_result plumbob_clip_encode_track(plumbob_clip_track *track, uint32_t hash,
                                                     uint8_t curve, uint8_t target,
                                                     uint16_t key_count, const uint16_t *ticks,
                                                     const float *values, unsigned char *keys);

/* An offset and scale that cover values[0 .. count*components) for a curve
 * whose magnitudes run 0..1 with sign bits: offset is the midpoint, scale
 * the half range (1 when every value is equal); both finite when the values
 * are, however large (a clip decoder refuses non-finite ones). */
PLUMBOB_API void plumbob_clip_fit_range(const float *values, uint32_t count, uint32_t components,
                                        float *offset, float *scale);


/* ===================================================================== */
/* Chapter 15 Sims 3 Jazz state machines (type 0x02D5DF13)               */
/* ===================================================================== */

/* A jazz resource is a Sims 3 RCOL whose chunks describe one animation state
 * machine: actors, parameters, states with transitions, and per state a
 * decision graph of nodes (play, stop, random, select, next state, props,
 * actor operations).  plumbob decodes it into the model below (arrays in the
 * caller's arena, text zero-copy), writes the model back byte for byte, and
 * runs it (plumbob_jazz_instance).  Every chunk reference is resolved into a
 * typed index: actor a is jazz->actors[a], node n is jazz->nodes[n], and so
 * on, each kind numbered in file order.  PLUMBOB_JAZZ_NONE marks a null
 * reference.  Layout notes: docs/FORMATS.md. */

#define PLUMBOB_JAZZ_NONE 0xFFFFFFFFu
#define PLUMBOB_JAZZ_MAX_CHUNKS 65536u

/* Chunk kinds, in the order of the kind arrays of plumbob_jazz. */
typedef enum plumbob_jazz_kind {
    PLUMBOB_JAZZ_MACHINE = 0, /* S_SM  0x02D5DF13 (always chunk 0) */
    PLUMBOB_JAZZ_ACTOR = 1,   /* S_AD  0x02EEDB2F */
    PLUMBOB_JAZZ_PARAM = 2,   /* S_PD  0x02EEDB46 */
    PLUMBOB_JAZZ_STATE = 3,   /* S_St  0x02EEDAFE */
    PLUMBOB_JAZZ_GRAPH = 4,   /* S_DG  0x02EEDB18 */
    PLUMBOB_JAZZ_NODE = 5     /* any decision graph node below */
} plumbob_jazz_kind;

/* Decision graph node kinds. */
typedef enum plumbob_jazz_node_kind {
    PLUMBOB_JAZZ_PLAY = 0,         /* Play  0x02EEDB5F */
    PLUMBOB_JAZZ_STOP = 1,         /* Stop  0x0344D438 */
    PLUMBOB_JAZZ_RANDOM = 2,       /* Rand  0x02EEDB70 */
    PLUMBOB_JAZZ_SELECT_PARAM = 3, /* SoPn  0x02EEDB92 */
    PLUMBOB_JAZZ_SELECT_DEST = 4,  /* DG00  0x02EEDBA5 (select on destination) */
    PLUMBOB_JAZZ_NEXT_STATE = 5,   /* SNSN  0x02EEEBDC */
    PLUMBOB_JAZZ_PROP = 6,         /* Prop  0x02EEEBDD */
    PLUMBOB_JAZZ_ACTOR_OP = 7      /* AcOp  0x02EEEBDE */
} plumbob_jazz_node_kind;
#define PLUMBOB_JAZZ_NODE_KIND_COUNT 8

/* State flags (S_St). */
#define PLUMBOB_JAZZ_STATE_PUBLIC 0x0001u
#define PLUMBOB_JAZZ_STATE_ENTRY 0x0002u
#define PLUMBOB_JAZZ_STATE_EXIT 0x0004u
#define PLUMBOB_JAZZ_STATE_LOOP 0x0008u
#define PLUMBOB_JAZZ_STATE_ONE_SHOT 0x0010u
#define PLUMBOB_JAZZ_STATE_ONE_SHOT_HOLD 0x0020u
#define PLUMBOB_JAZZ_STATE_SYNCHRONIZED 0x0040u
#define PLUMBOB_JAZZ_STATE_JOIN 0x0080u
#define PLUMBOB_JAZZ_STATE_EXPLICIT 0x0100u

/* Random node flag. */
#define PLUMBOB_JAZZ_RANDOM_AVOID_REPEATS 0x0001u

/* A resource key as jazz stores it: u64 instance, u32 type, u32 group. */
typedef struct plumbob_jazz_key {
    uint64_t instance;
    uint32_t type, group;
} plumbob_jazz_key;

/* UTF-16LE text inside the input: `length` code units, no terminator. */
typedef struct plumbob_jazz_text {
    const unsigned char *units;
    uint32_t length;
} plumbob_jazz_text;

/* One entry of the chunk table: what chunk i is and its RCOL key. */
typedef struct plumbob_jazz_chunk {
    uint32_t kind;            /* plumbob_jazz_kind */
    uint32_t index;           /* index into that kind's array */
    plumbob_jazz_key key;     /* chunk 0: the resource's key; others: {0, type, 0} */
} plumbob_jazz_chunk;

/* An S_SM animation entry: FNV-32 of "clip.ma", of the clip's actor name,
 * of the jazz actor name. */
typedef struct plumbob_jazz_animation {
    uint32_t clip, clip_actor, jazz_actor;
} plumbob_jazz_animation;

typedef struct plumbob_jazz_machine {
    uint32_t version;         /* 0x202 */
    uint32_t name;            /* FNV-32 of the machine name */
    uint32_t actor_count, param_count, state_count, animation_count;
    const uint32_t *actors;   /* actor indices, as listed */
    const uint32_t *params;   /* parameter indices */
    const uint32_t *states;   /* state indices */
    const plumbob_jazz_animation *animations;
    uint32_t properties;      /* UnilateralActor 1, PinAllResources 2, ... */
    uint32_t priority;        /* automation priority */
    uint32_t awareness;       /* overlay level 0..6 */
    uint32_t unknown[4];
} plumbob_jazz_machine;

/* Every record below knows its chunk index (`chunk`), so the writer turns a
 * typed index back into a reference in one step. */
typedef struct plumbob_jazz_actor {
    uint32_t chunk, version, name, unknown;
} plumbob_jazz_actor;

typedef struct plumbob_jazz_param {
    uint32_t chunk, version, name, default_value; /* FNV-32 hashes */
} plumbob_jazz_param;

typedef struct plumbob_jazz_state {
    uint32_t chunk, version, name, flags;
    uint32_t graph;            /* graph index (never NONE after decode) */
    uint32_t transition_count;
    const uint32_t *transitions; /* state indices */
    uint32_t awareness;
} plumbob_jazz_state;

typedef struct plumbob_jazz_graph {
    uint32_t chunk, version, unknown;
    uint32_t node_count, root_count;
    const uint32_t *nodes;     /* every node of the graph */
    const uint32_t *roots;     /* the nodes evaluation starts from, in order */
} plumbob_jazz_graph;

/* A branch of Random (weight), Select on Parameter (value hash) or Select on
 * Destination (state index), with the nodes to run when it is taken. */
typedef struct plumbob_jazz_branch {
    uint32_t value;            /* SoPn: value hash; DG00: state index; Rand: 0 */
    float weight;              /* Rand only */
    uint32_t child_count;
    const uint32_t *children;
} plumbob_jazz_branch;

/* The animation fields a Play node ends with and a Stop node is made of. */
typedef struct plumbob_jazz_anim {
    uint32_t flags;            /* AtEnd 1, LoopAsNeeded 2, ... (docs/FORMATS.md) */
    uint32_t priority;
    float unknown1, blend_in, blend_out, unknown2, speed;
    uint32_t actor;            /* actor index or NONE */
    uint32_t timing_priority;
    uint32_t unknown[6];       /* the first is 16 in every sample */
} plumbob_jazz_anim;

typedef struct plumbob_jazz_slot {
    uint32_t chain, slot_id, actor, slot;
} plumbob_jazz_slot;

typedef struct plumbob_jazz_suffix {
    uint32_t actor, suffix;    /* actor name hash, parameter name hash */
} plumbob_jazz_suffix;

typedef struct plumbob_jazz_play {
    plumbob_jazz_key clip;        /* instance 0 when `name` is used */
    plumbob_jazz_key track_mask;
    uint32_t slot_unknown[3];
    uint32_t slot_count, suffix_count;
    const plumbob_jazz_slot *slots;
    const plumbob_jazz_suffix *suffixes;
    plumbob_jazz_key additive_clip;
    plumbob_jazz_text name;       /* clip name with {parameter} substitutions */
    plumbob_jazz_text additive_name;
    plumbob_jazz_anim anim;
} plumbob_jazz_play;

typedef struct plumbob_jazz_node {
    uint32_t chunk;
    uint32_t kind;             /* plumbob_jazz_node_kind */
    uint32_t version;
    uint32_t child_count;      /* Play, Stop, Prop, AcOp: nodes run after it */
    const uint32_t *children;
    uint32_t branch_count;     /* Rand, SoPn, DG00 */
    const plumbob_jazz_branch *branches;
    union {
        plumbob_jazz_play play;
        plumbob_jazz_anim stop;
        struct { uint32_t flags; } random;
        struct { uint32_t param; } select;         /* parameter index */
        struct { uint32_t state; } next;           /* state index */
        struct {
            uint32_t actor, param;                  /* actor index; param index or NONE */
            plumbob_jazz_key object;                /* catalog key, type 0x139F7591 */
            uint32_t unknown[4];
        } prop;
        struct { uint32_t actor, op, operand, unknown[3]; } actor_op; /* op 1 SetMirror */
    } u;
} plumbob_jazz_node;

typedef struct plumbob_jazz {
    uint32_t rcol_version;     /* 3 */
    uint32_t public_count;     /* 1 */
    uint32_t rcol_unknown;     /* 0 */
    uint32_t chunk_count, external_count;
    const plumbob_jazz_chunk *chunks;
    const plumbob_jazz_key *externals;
    plumbob_jazz_machine machine;
    uint32_t actor_count, param_count, state_count, graph_count, node_count;
    const plumbob_jazz_actor *actors;
    const plumbob_jazz_param *params;
    const plumbob_jazz_state *states;
    const plumbob_jazz_graph *graphs;
    const plumbob_jazz_node *nodes;
} plumbob_jazz;

/* Arena bytes plumbob_jazz_decode needs for this input (SIZE_MAX on any
 * error).  Errors: as plumbob_jazz_decode, except those only reference
 * checks find. */
PLUMBOB_API plumbob_result plumbob_jazz_measure(const void *data, size_t size, size_t *arena_bytes);

/* Decodes and validates a jazz resource: the RCOL header and chunk table
 * (chunks contiguous in table order, 4-byte sizes, nothing after the last),
 * every chunk's tag, version, fillers (0xDEADBEEF, '/DGN'), counts, string
 * terminators and zero padding, and every reference: it must be null or
 * 0x10000000 | chunk index of a chunk of the right kind.  Then the graph:
 * every state has a decision graph, transitions name states, node children
 * name nodes.  Cycles are allowed.  Text stays in the input.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_TRUNCATED,
 * PLUMBOB_ERR_BAD_MAGIC (not an S_SM first, unknown chunk tag, key type not
 * matching the tag, an RCOL version other than 3: not a jazz resource),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (a chunk version plumbob does not know), PLUMBOB_ERR_BAD_OFFSET (a chunk not where the
 * table's layout puts it), PLUMBOB_ERR_BAD_COUNT (negative or impossible
 * counts, more than PLUMBOB_JAZZ_MAX_CHUNKS chunks), PLUMBOB_ERR_BAD_INDEX (a
 * reference out of range, of the wrong kind, or null where one is needed),
 * PLUMBOB_ERR_BAD_DATA (fillers, padding, chunk size not matching its
 * contents, bytes after the last chunk; an infinite or NaN blend-in or
 * blend-out time or speed of a Play or Stop node, or weight of a Random
 * branch: the `_ex` location is that float's offset, table "chunk", the
 * chunk's index, reason "non-finite ..."; the two unknown floats are kept
 * unchecked), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_jazz_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_jazz *jazz);

/* plumbob_jazz_measure and plumbob_jazz_decode that also say where they
 * failed, as plumbob_gmdc_measure_ex does: *err (may be NULL) is cleared,
 * then on failure filled with the byte offset in data, the table
 * ("header", "chunk" with the chunk's index, "arena", "arguments") and a
 * short reason.  Same results as the plain calls. */
PLUMBOB_API plumbob_result plumbob_jazz_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_jazz_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_jazz *jazz, plumbob_error *err);

/* Bytes plumbob_jazz_write produces for this model (SIZE_MAX when it cannot
 * be written). */
PLUMBOB_API size_t plumbob_jazz_write_size(const plumbob_jazz *jazz);

/* Writes the model: the chunk table in order, each chunk from its typed
 * record, references as 0x10000000 | chunk.  A decoded model writes back the
 * input byte for byte.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, a chunk
 * entry whose index is out of its array, a typed index that does not name a
 * chunk of the right kind), PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_jazz_write(const plumbob_jazz *jazz, void *out, size_t out_cap,
                                              size_t *out_size);

/* Index of the state / actor / parameter with this name hash, or
 * PLUMBOB_JAZZ_NONE. */
PLUMBOB_API uint32_t plumbob_jazz_find_state(const plumbob_jazz *jazz, uint32_t name);
PLUMBOB_API uint32_t plumbob_jazz_find_actor(const plumbob_jazz *jazz, uint32_t name);
PLUMBOB_API uint32_t plumbob_jazz_find_param(const plumbob_jazz *jazz, uint32_t name);


/* ===================================================================== */
/* Chapter 16 Sims 3 rigs (type 0x8EAF13DE)                              */
/* ===================================================================== */

/* A rig is the skeleton a Sims 3 clip animates: per bone a parent-relative
 * rest transform, a name and its FNV-32 hash (what clip tracks carry), the
 * mirror bone and flags; then the skeleton's name and, in version 4, the
 * IK chains.  plumbob reads the plain format of versions 3 and 4 (minor 1
 * or 2; layout in docs/FORMATS.md) and refuses the older Granny 2 rigs
 * (raw, or in their 0x8EAF13DE wrapper) with PLUMBOB_ERR_UNSUPPORTED.
 * Decoding also builds `skeleton`, a plumbob_skeleton view (Chapter 6) in
 * parent-before-child order: the file's own order when it already is one,
 * otherwise the bones sorted by depth (ties in file order), with both
 * mappings kept.  Names stay in the caller's buffer (zero copy). */

#define PLUMBOB_RIG_MAX_BONES 65536u
#define PLUMBOB_RIG_MAX_IK_CHAINS 4096u
#define PLUMBOB_RIG_IK_INFO_NODES 11

typedef struct plumbob_rig_bone {
    plumbob_vec3 position;      /* rest translation, parent-relative */
    plumbob_quat orientation;   /* rest rotation, x y z w as stored (not renormalized) */
    plumbob_vec3 scale;         /* rest scale */
    plumbob_string name;        /* e.g. "b__ROOT__" */
    int32_t opposite;           /* the mirror bone's file index (the bone itself when none); kept
                                   as stored, not checked (a sample rig has one past the end) */
    int32_t parent;             /* the parent's file index, -1 for a root */
    uint32_t hash;              /* FNV-32 of the name, as stored */
    uint32_t flags;             /* 0x23 in every sample rig; kept */
} plumbob_rig_bone;

/* Version 4 IK chain; every index is a file index (-1 allowed except in
 * `bones`).  Meanings follow the public readers' field names. */
typedef struct plumbob_rig_ik_chain {
    uint32_t bone_count;
    int32_t *bones;                               /* the chain's bones, in the arena */
    int32_t info_nodes[PLUMBOB_RIG_IK_INFO_NODES];
    int32_t pole_vector, slot_info, slot_offset, root;
} plumbob_rig_ik_chain;

typedef struct plumbob_rig {
    const unsigned char *data;
    size_t size;
    uint32_t major, minor;      /* 3 or 4; 1 or 2 */
    uint32_t bone_count;
    plumbob_rig_bone *bones;    /* file order */
    plumbob_string skeleton_name;
    uint32_t ik_chain_count;    /* 0 in version 3 */
    plumbob_rig_ik_chain *ik_chains;
    /* The skeleton view (filled by plumbob_rig_decode; the writer ignores it):
     * bone k of the view is bones[file_index[k]], bone f of the file is
     * bone skeleton_index[f] of the view; identity unless `reordered`. */
    plumbob_skeleton skeleton;
    const uint32_t *file_index;
    const uint32_t *skeleton_index;
    bool reordered;
} plumbob_rig;

/* Arena bytes plumbob_rig_decode needs: PLUMBOB_RIG_DECODE_SIZE of the
 * counts the resource declares (bones, IK chains, the chains' bones in
 * all) and whether it lists a child before its parent (then the depth
 * sort's temporaries are counted too).  On an error *arena_bytes is
 * SIZE_MAX.  Errors: as plumbob_rig_decode, except a parent cycle, which
 * only the decode's sort finds. */
#define PLUMBOB_RIG_DECODE_SIZE(bones, chains, chain_bones, reordered)                          \
    (PLUMBOB_ARENA_NEED((bones), sizeof(plumbob_rig_bone)) +                                    \
     PLUMBOB_ARENA_NEED((chains), sizeof(plumbob_rig_ik_chain)) +                               \
     PLUMBOB_ARENA_NEED((chain_bones), sizeof(int32_t)) + PLUMBOB_ARENA_NEED((bones), sizeof(int32_t)) + \
     PLUMBOB_ARENA_NEED((bones), sizeof(plumbob_bone_pose)) + PLUMBOB_ARENA_NEED((bones), sizeof(uint32_t)) + \
     PLUMBOB_ARENA_NEED((bones), sizeof(plumbob_string)) + 2u * PLUMBOB_ARENA_NEED((bones), sizeof(uint32_t)) + \
     ((reordered) ? PLUMBOB_ARENA_NEED((bones), sizeof(uint32_t)) +                              \
                        PLUMBOB_ARENA_NEED((size_t)(bones) + 1u, sizeof(uint32_t))               \
                  : 0u))
PLUMBOB_API plumbob_result plumbob_rig_measure(const void *data, size_t size, size_t *arena_bytes);

/* Decodes and validates a plain rig: version, counts against the bytes and
 * the limits, every name inside the input, parents and mirror bones in
 * range (a bone may not be its own parent; parent cycles are refused), IK
 * chain indices in range (mirror indices are kept, not checked), nothing after the last chain.  Then builds the
 * skeleton view.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL),
 * PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_UNSUPPORTED (a Granny 2 rig, raw or
 * wrapped), PLUMBOB_ERR_BAD_MAGIC (major or minor above 255: not a rig),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (major not 3 or 4, minor not 1 or 2),
 * PLUMBOB_ERR_BAD_COUNT (more bones or chains than the limits allow; more
 * than the bytes hold is PLUMBOB_ERR_TRUNCATED), PLUMBOB_ERR_BAD_INDEX (a parent or chain index out of
 * range, a bone its own parent, a parent cycle), PLUMBOB_ERR_BAD_DATA
 * (bytes after the last chain; an infinite or NaN position, orientation or
 * scale: the `_ex` location is that float's offset, table "bone", the
 * bone's file index, reason "non-finite ..."), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_rig_decode(const void *data, size_t size, plumbob_arena *arena,
                                              plumbob_rig *rig);

/* plumbob_rig_measure and plumbob_rig_decode that also say where they
 * failed, as plumbob_gmdc_measure_ex does: *err (may be NULL) is cleared,
 * then on failure filled with the byte offset in data (where the failing
 * read or check stood), the table ("rig", "bone", "arena", "arguments")
 * and a short reason.  Same results as the plain calls. */
PLUMBOB_API plumbob_result plumbob_rig_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                  plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_rig_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                 plumbob_rig *rig, plumbob_error *err);

/* Bytes plumbob_rig_write produces (SIZE_MAX when the rig cannot be
 * written).  The writer takes a decoded rig or one the caller filled in
 * (major, minor, bones, skeleton_name, IK chains; indices are written as
 * given, so the decoder is the one that checks them). */
PLUMBOB_API size_t plumbob_rig_write_size(const plumbob_rig *rig);

/* Writes the plain format: decode -> write gives the input byte for byte.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, major not 3 or 4, bones or a
 * chain's bones NULL where counted, IK chains in version 3, a name longer
 * than 0x7FFFFFFF bytes), PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_rig_write(const plumbob_rig *rig, void *out, size_t out_cap,
                                             size_t *out_size);


/* ===================================================================== */
/* Chapter 16b Sims 3 GEOM body meshes (type 0x015A1849)                 */
/* ===================================================================== */

/* A GEOM is one LOD of a Sim's body, clothing or hair part: a Sims 3 RCOL
 * (as jazz resources are) holding one GEOM chunk: an MTNF material block
 * (kept as bytes), interleaved vertices described by an element table,
 * triangle indices, the list of bone hashes the vertices' assignment bytes
 * index (FNV-32 of the rig's lower-cased bone names, as clip tracks carry)
 * and a TGI table.  Vertices are stored in model space at the rig's rest
 * pose.  Version 5 is The Sims 3's; 12 and up are The Sims 4's and are
 * refused (PLUMBOB_ERR_UNSUPPORTED_VERSION).  Vertex and index bytes stay
 * in the caller's buffer (zero copy); layout in docs/FORMATS.md. */

#define PLUMBOB_GEOM_MAX_VERTICES 16777216u
#define PLUMBOB_GEOM_MAX_ELEMENTS 64u
#define PLUMBOB_GEOM_MAX_BONES 255u      /* assignment bytes index the bone list */
#define PLUMBOB_GEOM_MAX_TGIS 65536u
#define PLUMBOB_GEOM_EMBEDDED_SIMSKIN 0x548394B9u /* FNV-32 of "SimSkin" */
#define PLUMBOB_GEOM_TYPE_SKIN_CONTROLLER 0x00AE6C67u

/* Element usages (plumbob_geom_element.usage) and the bytes each takes
 * (the resource type, PLUMBOB_TYPE_GEOM, is listed in Chapter 9). */
#define PLUMBOB_GEOM_POSITION 1u   /* 3 floats */
#define PLUMBOB_GEOM_NORMAL 2u     /* 3 floats */
#define PLUMBOB_GEOM_UV 3u         /* 2 floats; may repeat */
#define PLUMBOB_GEOM_ASSIGNMENT 4u /* 4 bytes: slots in the bone list */
#define PLUMBOB_GEOM_WEIGHTS 5u    /* 4 floats, paired with the assignment bytes; 0 = unused */
#define PLUMBOB_GEOM_TANGENT 6u    /* 3 floats */
#define PLUMBOB_GEOM_TAG 7u        /* 4 bytes: tag value / colour */
#define PLUMBOB_GEOM_VERTEX_ID 10u /* u32: what morph meshes match on */

typedef struct plumbob_geom_element {
    uint32_t usage;     /* PLUMBOB_GEOM_POSITION ... (others kept and skipped) */
    uint32_t data_type; /* as stored */
    uint32_t size;      /* bytes per vertex, as stored (one byte in the file) */
    uint32_t offset;    /* where it starts inside a vertex (sum of the sizes before it) */
} plumbob_geom_element;

typedef struct plumbob_geom_tgi {
    uint32_t type, group;
    uint64_t instance;
} plumbob_geom_tgi;

/* The RCOL wrapper's keys (all zero in real files), kept for the writer. */
typedef struct plumbob_geom_rcol_key {
    uint64_t instance;
    uint32_t type, group;
} plumbob_geom_rcol_key;

typedef struct plumbob_geom {
    const unsigned char *data;
    size_t size;
    /* RCOL wrapper */
    uint32_t rcol_version;          /* 3 */
    uint32_t rcol_public_count;     /* 0 in real files */
    uint32_t rcol_unused;           /* 0 in real files */
    uint32_t rcol_external_count;   /* 0 in real files */
    plumbob_geom_rcol_key internal_key; /* the one internal chunk's key */
    plumbob_geom_rcol_key *external_keys; /* rcol_external_count, in the arena */
    uint32_t chunk_offset, chunk_size; /* where the GEOM chunk lies in data */
    /* GEOM chunk */
    uint32_t version;               /* 5 */
    uint32_t embedded_id;           /* 0 or PLUMBOB_GEOM_EMBEDDED_SIMSKIN */
    const unsigned char *material;  /* the MTNF block's bytes (NULL when embedded_id is 0) */
    uint32_t material_size;
    uint32_t merge_group, sort_order;
    uint32_t vertex_count;
    uint32_t element_count;
    plumbob_geom_element *elements; /* file order, in the arena */
    uint32_t vertex_stride;         /* bytes per vertex: the sum of the element sizes */
    const unsigned char *vertices;  /* vertex_count * vertex_stride bytes, in data */
    uint32_t item_count;            /* index groups: 1 */
    uint32_t index_size;            /* bytes per index: 2 or 4 */
    uint32_t index_count;           /* a multiple of 3 (triangles) */
    const unsigned char *indices;   /* index_count * index_size bytes, in data */
    uint32_t skin_controller;       /* index into tgis */
    uint32_t bone_count;
    uint32_t *bone_hashes;          /* bone_count, in the arena */
    uint32_t tgi_count;
    plumbob_geom_tgi *tgis;         /* tgi_count, in the arena */
} plumbob_geom;

/* Arena bytes plumbob_geom_decode needs for this resource (SIZE_MAX on an
 * error).  Errors: as plumbob_geom_decode. */
PLUMBOB_API plumbob_result plumbob_geom_measure(const void *data, size_t size, size_t *arena_bytes);

/* Decodes and validates a GEOM resource: the RCOL wrapper (version 3, one
 * internal chunk starting right after the chunk table and ending where the
 * input ends), the chunk's tag and version, the TGI offset and size
 * against where the table really lies, the material block (present only
 * when embedded_id is not 0), the element table (any order and subset;
 * known usages must have their sizes above, other usages any size),
 * every vertex, index and table inside the chunk, every index below
 * vertex_count, position, normal, UV, weight and tangent floats finite,
 * every assignment byte whose weight (the first assignment and weights
 * elements pair up) is not zero below bone_count, the skin controller
 * inside the TGI table (0 when the table is empty), nothing after the TGI
 * table.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL),
 * PLUMBOB_ERR_TRUNCATED (the input, or the chunk, ends early),
 * PLUMBOB_ERR_BAD_MAGIC (an RCOL version other than 3 (the wrapper's only
 * signature, as for jazz), a chunk tag other than GEOM),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (a GEOM version other than 5; The Sims
 * 4's 12 and up say so in err.reason), PLUMBOB_ERR_BAD_COUNT (an internal
 * chunk count other than 1, counts past the limits, an index count not a
 * multiple of 3), PLUMBOB_ERR_BAD_OFFSET (the chunk not right after the
 * chunk table; the TGI offset or size disagreeing with the table),
 * PLUMBOB_ERR_BAD_INDEX (an index, weighted bone slot or the skin
 * controller out of range), PLUMBOB_ERR_BAD_DATA (an element size wrong
 * for its usage, bytes per index other than 2 and 4, a non-finite
 * position, normal, UV, weight or tangent (err.offset: the vertex), bytes
 * after the TGI table or after the chunk), PLUMBOB_ERR_OUT_OF_MEMORY.
 * item_count is kept as stored (readers take one index group whatever it
 * says; real files say 1). */
PLUMBOB_API plumbob_result plumbob_geom_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_geom *geom);

/* plumbob_geom_measure and plumbob_geom_decode that also say where they
 * failed (byte offset in data, table: "rcol", "geom", "material",
 * "element", "vertex", "index", "bone", "tgi", "arena", "arguments";
 * index; reason), as plumbob_gmdc_measure_ex does. */
PLUMBOB_API plumbob_result plumbob_geom_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_geom_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_geom *geom, plumbob_error *err);

/* The nth element (0 first) of a usage, or NULL. */
PLUMBOB_API const plumbob_geom_element *plumbob_geom_find_element(const plumbob_geom *geom, uint32_t usage,
                                                                 uint32_t nth);

/* Float k of element e of vertex v (0 when e is NULL or v, k out of range). */
PLUMBOB_API float plumbob_geom_float(const plumbob_geom *geom, const plumbob_geom_element *e, uint32_t v,
                                     uint32_t k);

/* Index i of the triangle list (0 when out of range). */
PLUMBOB_API uint32_t plumbob_geom_index(const plumbob_geom *geom, uint32_t i);

/* Bytes plumbob_geom_write produces (SIZE_MAX when it cannot be written).
 * The writer takes a decoded GEOM or one the caller filled in: the RCOL
 * fields (rcol_version 3), version (5), embedded_id and material (the
 * material block is written only when embedded_id is not 0), merge group,
 * sort order, the element table (offsets are recomputed from the sizes),
 * vertices (vertex_count * vertex_stride bytes), item_count, indices, skin
 * controller, bone hashes, TGIs; data, size, chunk_offset and chunk_size
 * are ignored: the chunk goes right after the chunk table, and its size
 * and the TGI offset and size are computed.  Contents (indices, floats,
 * bone slots) are written as given. */
PLUMBOB_API size_t plumbob_geom_write_size(const plumbob_geom *geom);

/* Writes the GEOM: decode -> write gives the input byte for byte.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, or a geom that cannot be written:
 * an RCOL version other than 3 or a version other than 5, counts past the
 * decoder's limits, a known usage with another size, an element size above
 * 255, vertex_stride not the sum of the element sizes, an index_size other
 * than 2 or 4, an index count not a multiple of 3, a material with
 * embedded_id 0, NULL arrays where counted, a chunk past 4 GiB),
 * PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_geom_write(const plumbob_geom *geom, void *out, size_t out_cap,
                                              size_t *out_size);


/* --- Track masks (jazz: a play's per-bone weights) ---------------------
 * Type 0x033260E3: "TkMk", u32 version, 48 header bytes, i32 count, count
 * f32 weights, one per rig bone index (1.0: unmasked).  Version 0x200:
 * the 48 bytes are unused; 0x201: the rig's key (16 bytes), the f32 weight
 * of pet facial animation, 28 unused bytes (../shared/specs/NOTES.md,
 * "Sims 3 jazz at run time").  Little-endian. */
#define PLUMBOB_TYPE_TRACK_MASK 0x033260E3u

typedef struct plumbob_track_mask {
    uint32_t version;               /* 0x200 or 0x201 */
    unsigned char header[48];       /* the 48 bytes after the version, as stored */
    float facial_weight;            /* 0x201: header bytes 16..19 as a float (0 for 0x200) */
    uint32_t weight_count;          /* weights, one per rig bone index */
    const unsigned char *weights;   /* into the input: weight_count little-endian f32 */
} plumbob_track_mask;

/* Decodes a track mask (zero copy: weights point into data).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL data with a size, NULL mask),
 * PLUMBOB_ERR_TRUNCATED (the bytes end before the header or the weights),
 * PLUMBOB_ERR_BAD_MAGIC (not "TkMk"), PLUMBOB_ERR_UNSUPPORTED_VERSION (a
 * version other than 0x200 and 0x201), PLUMBOB_ERR_BAD_COUNT (a negative
 * count or one above 65,536), PLUMBOB_ERR_BAD_DATA (bytes after the last
 * weight). */
PLUMBOB_API plumbob_result plumbob_track_mask_decode(const void *data, size_t size, plumbob_track_mask *mask);
/* The same, also saying where it failed (table "track_mask", "weights" or
 * "arguments"), as the other _ex decoders. */
PLUMBOB_API plumbob_result plumbob_track_mask_decode_ex(const void *data, size_t size, plumbob_track_mask *mask,
                                                        plumbob_error *err);

/* The weights as floats, for plumbob_pose_blend's bone_weights: out[i] =
 * weight i (file bone index i; map to the skeleton view with the rig's
 * skeleton_index when it is reordered).  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_OUTPUT_TOO_SMALL
 * (out_count below weight_count). */
PLUMBOB_API plumbob_result plumbob_track_mask_weights(const plumbob_track_mask *mask, float *out,
                                                      uint32_t out_count);

/* Bytes plumbob_track_mask_write produces: 60 + 4 * weight_count. */
PLUMBOB_API size_t plumbob_track_mask_write_size(uint32_t weight_count);

/* Writes a track mask: "TkMk", mask->version, mask->header (for 0x201
 * with bytes 16..19 replaced by facial_weight), the count and weights
 * (weight_count floats).  decode -> plumbob_track_mask_weights -> write
 * gives the input byte for byte.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL mask or out, NULL weights with a count, a version other than 0x200
 * and 0x201, a count above 65,536), PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too
 * small). */
PLUMBOB_API plumbob_result plumbob_track_mask_write(const plumbob_track_mask *mask, const float *weights,
                                                    uint32_t weight_count, void *out, size_t out_cap,
                                                    size_t *out_size);


#ifdef __cplusplus
}
#endif

#endif /* PLUMBOB_SIMS3_H */
