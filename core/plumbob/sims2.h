/* plumbob/sims2.h: the Sims 2 formats of plumbob.h (docs/ARCHITECTURE.md):
 * GMDC meshes, ANIM animations, CRES resource nodes:
 * decode, validate, write.
 * A game includes plumbob.h, which includes every layer; this file may be
 * included alone and brings the layers it builds on. */
#ifndef PLUMBOB_SIMS2_H
#define PLUMBOB_SIMS2_H

#include "package.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Chapter 11 Sims 2 GMDC meshes (block 0xAC4F8687 in a Sims 2 RCOL)     */
/* ===================================================================== */

/* Element identities. */
#define PLUMBOB_GMDC_BLEND_INDICES 0x1C4AFC56u
#define PLUMBOB_GMDC_BLEND_WEIGHTS 0x5C4AFC5Cu
#define PLUMBOB_GMDC_TARGET_INDICES 0x7C4DEE82u
#define PLUMBOB_GMDC_MORPH_NORMAL_DELTAS 0xCB6F3A6Au
#define PLUMBOB_GMDC_COLOUR 0xCB7206A1u
#define PLUMBOB_GMDC_COLOUR_DELTAS 0xEB720693u
#define PLUMBOB_GMDC_NORMALS 0x3B83078Bu
#define PLUMBOB_GMDC_VERTICES 0x5B830781u
#define PLUMBOB_GMDC_UVS 0xBB8307ABu
#define PLUMBOB_GMDC_UV_DELTAS 0xDB830795u
#define PLUMBOB_GMDC_BINORMALS 0x9BB38AFBu
#define PLUMBOB_GMDC_BONE_WEIGHTS 0x3BD70105u
#define PLUMBOB_GMDC_BONE_ASSIGNMENTS 0xFBD70111u
#define PLUMBOB_GMDC_BUMP_NORMALS 0x89D92BA0u
#define PLUMBOB_GMDC_BUMP_NORMAL_DELTAS 0x69D92B93u
#define PLUMBOB_GMDC_MORPH_VERTEX_DELTAS 0x5CF2CFE1u
#define PLUMBOB_GMDC_MORPH_VERTEX_MAP 0xDCF2CFDCu
#define PLUMBOB_GMDC_VERTEX_ID 0x114113C3u
#define PLUMBOB_GMDC_REGION_MASK 0x114113CDu

/* Limits that bound the work a hostile mesh can ask for. */
#define PLUMBOB_GMDC_MAX_ELEMENTS 4096u
#define PLUMBOB_GMDC_MAX_LINKAGES 4096u
#define PLUMBOB_GMDC_MAX_GROUPS 4096u
#define PLUMBOB_GMDC_MAX_MORPHS 256u
#define PLUMBOB_GMDC_MAX_JOINTS 65536u
/* Most vertices a sparse element may span (its count): a sparse element's
 * count is not backed by bytes, so it is bounded here (version 4 linkages
 * hold at most 65535 vertices anyway). */
#define PLUMBOB_GMDC_MAX_SPARSE_COUNT 1048576u

/* Group primitive types.  The GMDC page lists one: 2, a triangle list (three
 * face indices per triangle).  Others decode and round-trip, but
 * plumbob_gmdc_skin and the tool's export refuse them (PLUMBOB_ERR_UNSUPPORTED). */
#define PLUMBOB_GMDC_PRIMITIVE_TRIANGLES 2u

/* plumbob_gmdc_item's answer for a vertex an element holds no item for. */
#define PLUMBOB_GMDC_NO_ITEM 0xFFFFFFFFu

/* Index arrays are u16 in version 4 and u32 in versions 1 and 2; they stay
 * in the caller's buffer.  Read entry i with plumbob_gmdc_index. */
typedef struct plumbob_gmdc_indices {
    const unsigned char *data;
    uint32_t count;
} plumbob_gmdc_indices;

/* An element is dense when its item list is empty: data holds `count`
 * items, item v for vertex v.  It is sparse when the item list is not empty
 * (as the GMDC page says of Target Indices): data holds one item per list
 * entry, item k for vertex items[k], and count is the number of vertices
 * the element spans (every items[k] < count); a vertex the list does not
 * name has no item, and when the list names a vertex more than once its
 * first entry counts.  plumbob_gmdc_item reads both forms. */
typedef struct plumbob_gmdc_element {
    uint32_t count;           /* vertices the element covers (dense: items of data) */
    uint32_t identity;        /* PLUMBOB_GMDC_* */
    uint32_t group;           /* RepeatCount in format write-ups: morph delta set number 0..3 */
    uint32_t format;          /* 0, 1, 2: 1, 2, 3 floats; 4: one u32 */
    uint32_t set;             /* 0 main, 1 norms, 2 UV, 3 secondary */
    uint32_t byte_size;
    const unsigned char *data; /* byte_size bytes, little-endian */
    plumbob_gmdc_indices items; /* empty: dense; else the vertex of each data item */
    /* Decoded sparse elements: items.count pairs {vertex, item position}
     * sorted by vertex then position, in the arena, for plumbob_gmdc_item's
     * binary search.  NULL for dense elements; a caller filling in a mesh
     * may leave it NULL (lookups then scan the item list). */
    const uint32_t *sparse;
} plumbob_gmdc_element;

typedef struct plumbob_gmdc_linkage {
    plumbob_gmdc_indices refs; /* element indices */
    uint32_t vertex_count;     /* referenced vertex count */
    uint32_t active_count;
    plumbob_gmdc_indices aliases[3];
} plumbob_gmdc_linkage;

typedef struct plumbob_gmdc_group {
    uint32_t primitive;       /* 2: triangle list */
    uint32_t link;            /* linkage index */
    plumbob_string name;
    plumbob_gmdc_indices faces; /* 3 per triangle, into the linkage's vertices */
    uint32_t opacity;
    plumbob_gmdc_indices bones; /* group bone list -> joint table (not in version 1) */
} plumbob_gmdc_group;

typedef struct plumbob_gmdc_mesh { /* bounding mesh or per-joint subset */
    uint32_t vertex_count;
    const unsigned char *vertices; /* float3 each */
    plumbob_gmdc_indices faces;
} plumbob_gmdc_mesh;

typedef struct plumbob_gmdc {
    const unsigned char *data;
    size_t size;
    plumbob_sims2_rcol rcol;
    plumbob_sims2_block_head head;
    uint32_t version;         /* 1, 2 or 4 */
    uint32_t index_size;      /* 4 (versions 1, 2) or 2 (version 4) */
    uint32_t element_count, linkage_count, group_count, joint_count, morph_count, subset_count;
    plumbob_gmdc_element *elements;
    plumbob_gmdc_linkage *linkages;
    plumbob_gmdc_group *groups;
    const unsigned char *joints;      /* joint_count * 7 floats: qx qy qz qw tx ty tz */
    plumbob_string *morph_names;      /* morph_count pairs: [2*i] blend group, [2*i+1] name */
    plumbob_gmdc_mesh bounding;
    plumbob_gmdc_mesh *subsets;       /* subset_count (one per joint) */
    size_t end_pos;                   /* bytes after the GMDC block: more RCOL blocks */
} plumbob_gmdc;

/* Arena bytes plumbob_gmdc_decode needs (walks the structure once; 8
 * bytes per sparse item list entry plus the tables).  On any error
 * *arena_bytes is SIZE_MAX (the sizing rule).
 * Errors: as plumbob_gmdc_decode. */
PLUMBOB_API plumbob_result plumbob_gmdc_measure(const void *data, size_t size, size_t *arena_bytes);

/* Decodes a Sims 2 RCOL resource whose first block is a GMDC (versions 1, 2
 * and 4) and validates every index: element references of linkages, group
 * links, face indices against the linkage's vertex count, bone lists
 * against the joint table, bone-assignment slots against each group's bone
 * list (version 1, which has no bone lists: against the joint table), morph-map ids against the morph name pairs, and element sizes
 * against their counts and formats (sparse elements: against their item
 * lists, whose entries must be below the element's count), and triangle-list
 * groups' face counts (a multiple of 3).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_MAGIC (first block not a GMDC),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (not 1, 2 or 4), PLUMBOB_ERR_BAD_COUNT
 * (counts beyond limits or the bytes, a sparse count above
 * PLUMBOB_GMDC_MAX_SPARSE_COUNT, a per-vertex element covering fewer
 * vertices than its linkage, a triangle list not in threes),
 * PLUMBOB_ERR_BAD_INDEX (any index out of range), PLUMBOB_ERR_BAD_DATA
 * (element size not matching its count or item list and format, unknown
 * format, a bone assignment or morph map element not of format 4, a bad
 * string prefix; an infinite or NaN float in a float element skinning
 * reads (vertices, normals, bone weights, morph vertex and normal deltas)
 * or in a joint's rotation or translation: the `_ex` location is that
 * float's offset, table "element" or "joint", its index, reason
 * "non-finite ..."; UVs, colours, the bounding mesh and the other elements
 * are kept unchecked), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_gmdc_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_gmdc *gmdc);

/* plumbob_gmdc_measure and plumbob_gmdc_decode that also say where they
 * failed: *err (may be NULL) is cleared, then on failure filled with the
 * byte offset in data, the table ("rcol", "head", "element", "linkage",
 * "group", "joints", "morphs", "bounding", "subset"), the entry's index and
 * a short reason.  Same results as the plain calls. */
PLUMBOB_API plumbob_result plumbob_gmdc_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_gmdc_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_gmdc *gmdc, plumbob_error *err);

/* The position in e->data of vertex v's item, or PLUMBOB_GMDC_NO_ITEM when
 * e holds none: dense elements answer v when v < count; sparse ones the
 * first k with items[k] == v (binary search over e->sparse when set, else
 * a scan of the item list).  Item k's bytes start at
 * e->data + k * (item size: 4 * (format + 1) for formats 0..2, 4 for 4). */
PLUMBOB_API uint32_t plumbob_gmdc_item(const plumbob_gmdc *gmdc, const plumbob_gmdc_element *e,
                                       uint32_t v);

/* Entry i of an index array, read byte by byte.  Out of range (i >=
 * idx->count) or NULL, it reads nothing and returns 0xFFFFFFFF, which no
 * validated index equals; decode has checked every index array it filled,
 * so loops over [0, count) need no check of their own. */
PLUMBOB_API uint32_t plumbob_gmdc_index(const plumbob_gmdc *gmdc, const plumbob_gmdc_indices *idx,
                                        uint32_t i);

/* The element of `identity` (and delta set `group`, 0 for others) that
 * linkage `link` references, or NULL. */
PLUMBOB_API const plumbob_gmdc_element *plumbob_gmdc_find_element(const plumbob_gmdc *gmdc,
                                                                  uint32_t link, uint32_t identity,
                                                                  uint32_t group);

/* Float k of item i of a float element (format 0..2), read byte by byte.
 * i is an item position (for sparse elements: plumbob_gmdc_item's answer).
 * An item or component outside the element's data (or a NULL or non-float
 * element) reads nothing and gives 0.0f. */
PLUMBOB_API float plumbob_gmdc_float(const plumbob_gmdc_element *e, uint32_t i, uint32_t k);

/* Joint j's inverse bind transform (model space -> bone space).  j past
 * the joint table (or a NULL mesh) gives the identity: rotation (0,0,0,1),
 * translation 0. */
PLUMBOB_API void plumbob_gmdc_joint(const plumbob_gmdc *gmdc, uint32_t j, plumbob_quat *rotation,
                                    plumbob_vec3 *translation);

/* Joint j's bind pose (bone space -> model space): the inverse of
 * plumbob_gmdc_joint's transform, its rotation normalized first, so
 * rotation = conj(normalize(q)) and translation = -(rotation applied to t).
 * Joints with no bone in a skeleton keep this pose when a mesh is posed;
 * j past the joint table gives the identity. */
PLUMBOB_API void plumbob_gmdc_joint_bind(const plumbob_gmdc *gmdc, uint32_t j, plumbob_quat *rotation,
                                         plumbob_vec3 *translation);

/* Vertex v's influences in group gr, slot by slot, by the rule
 * plumbob_gmdc_skin blends with: byte k of the vertex's Bone Assignments
 * item (format 4; no item: every slot unused) is slot k, 0xFF unused; a
 * slot names an entry of the group's bone list (version 2 and up; version
 * 1: a joint directly); its weight is stored weight k of the Bone Weights
 * item for k below the element's count (format + 1; 0 when the vertex has
 * no item), and 1 minus the stored weights of the used slots for the next
 * slot (the implied last weight), 0 after it.  joint[k] and weight[k] are
 * slot k's GMDC joint and weight, or 0 and 0.0f when the slot is unused,
 * names no joint (past the bone list or the joint table) or weighs not
 * above 0.  Two slots may name one joint.  Returns how many slots weigh;
 * 0 for NULL arguments (joint and weight zeroed when given). */
PLUMBOB_API uint32_t plumbob_gmdc_influences(const plumbob_gmdc *gmdc, const plumbob_gmdc_group *gr, uint32_t v,
                                             uint32_t joint[4], float weight[4]);

/* Bytes plumbob_gmdc_write produces (SIZE_MAX when the mesh cannot be
 * written).  The writer takes a decoded GMDC or one the caller filled in:
 * with `data` NULL it writes a fresh RCOL header (16-byte link form, no
 * links, one block); with `data` set it copies the source's RCOL header and
 * any blocks after the GMDC, so decode -> write gives the original bytes.
 * Index arrays are written with the version's index size (u16 for 4).
 * Sparse elements are written as they are: data, then the item list. */
PLUMBOB_API size_t plumbob_gmdc_write_size(const plumbob_gmdc *gmdc);

/* Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, version not 1/2/4, index size
 * not matching the version), PLUMBOB_ERR_LIMIT_EXCEEDED (version 4 with a
 * linkage of more than 65535 vertices), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_gmdc_write(const plumbob_gmdc *gmdc, void *out, size_t out_cap,
                                              size_t *out_size);


/* ===================================================================== */
/* Chapter 12 Sims 2 ANIM animations (block 0xFB00791E in a Sims 2 RCOL) */
/* ===================================================================== */

/* Time units: every ANIM call takes and gives ticks of 1 ms (1000 per
 * second; parameters named `ticks`, the duration and event and key times
 * too), as the format stores them, where the Sims 3 clip calls (Chapter
 * 14) take seconds: multiply seconds by 1000 to sample an ANIM. */

/* Channel flag fields (docs/FORMATS.md, "Sims 2 ANIM", item 4): duration ticks, animated attribute, value
 * type, IK chain, component count. */
#define PLUMBOB_ANIM_DURATION(flags) ((flags) & 0x7FFFu)
#define PLUMBOB_ANIM_ATTRIBUTE(flags) (((flags) >> 17) & 0x1Fu) /* 0 rotation, 1 translation, 2 morph */
#define PLUMBOB_ANIM_VALUE_TYPE(flags) (((flags) >> 22) & 7u)   /* 3 Euler angles, 4 XYZ */
#define PLUMBOB_ANIM_IK_CHAIN(flags) (((flags) >> 25) & 0xFu)   /* 15: none */
#define PLUMBOB_ANIM_COMPONENTS(flags) ((flags) >> 29)

#define PLUMBOB_ANIM_ATTR_ROTATION 0u
#define PLUMBOB_ANIM_ATTR_TRANSLATION 1u
#define PLUMBOB_ANIM_ATTR_MORPH 2u

/* Component key encodings: packed byte bits 0-1. */
#define PLUMBOB_ANIM_BAKED 0u         /* value only, evenly spaced over the duration */
#define PLUMBOB_ANIM_CONTINUOUS 1u    /* time, value, tangent */
#define PLUMBOB_ANIM_DISCONTINUOUS 2u /* time, value, in tangent, out tangent */
#define PLUMBOB_ANIM_F32 0x10u        /* packed bit 4: values are f32 */

#define PLUMBOB_ANIM_MAX_TARGETS 4096u
#define PLUMBOB_ANIM_RECORD_IK_CHAIN 70u  /* bytes of one IK chain record */
#define PLUMBOB_ANIM_RECORD_IK_TARGET 43u /* bytes of one IK target record */

typedef struct plumbob_anim_target {
    plumbob_string name;
    uint16_t kind;            /* 1 skeleton, 7 blend set, 9 ... (as stored) */
    uint16_t channel_count;
    uint8_t ik_chain_count;
    uint8_t unknown;          /* 1 in every sample */
    uint32_t first_channel;   /* channels of targets are stored in target order */
} plumbob_anim_target;

typedef struct plumbob_anim_channel {
    plumbob_string name;
    uint32_t crc;             /* CRC of the bone or morph name, as stored */
    uint32_t flags;           /* PLUMBOB_ANIM_* field macros */
    uint32_t first_component;
    uint32_t target;
} plumbob_anim_channel;

typedef struct plumbob_anim_component {
    uint16_t key_count;
    uint8_t packed;           /* encoding, fixed-point choice, PLUMBOB_ANIM_F32 */
    uint8_t reserved;         /* the byte after it, kept for the writer */
    uint32_t channel;
    uint32_t key_size;        /* bytes per key */
    const unsigned char *keys; /* key_count * key_size bytes in the input */
} plumbob_anim_component;

/* One decoded key: time in ticks (baked keys: their evenly spaced time),
 * value, and tangents as value change per tick (0 where not stored). */
typedef struct plumbob_anim_key {
    float time, value, tangent_in, tangent_out;
} plumbob_anim_key;

typedef struct plumbob_anim_ik_chain {
    uint8_t target_count;     /* IK target records that follow for it */
    const unsigned char *record; /* PLUMBOB_ANIM_RECORD_IK_CHAIN bytes */
} plumbob_anim_ik_chain;

typedef struct plumbob_anim_ik_target {
    uint16_t chain;           /* index of its IK chain */
    const unsigned char *record; /* PLUMBOB_ANIM_RECORD_IK_TARGET bytes */
} plumbob_anim_ik_target;

typedef struct plumbob_anim_event {
    uint16_t time;            /* ticks */
    uint16_t type;            /* 8 effect, 1005 behaviour, 1014 sound, ... */
    plumbob_string text;      /* "key=value\n" lines */
} plumbob_anim_event;

typedef struct plumbob_anim {
    const unsigned char *data;
    size_t size;
    plumbob_sims2_rcol rcol;
    plumbob_sims2_block_head head;
    uint16_t duration;        /* ticks (1 ms) */
    uint8_t version;          /* 6 or 7 */
    uint8_t type;             /* 4 object overlay, 5 object, 6 body overlay, 7 body */
    uint8_t priority, locomotion;
    float params[9];          /* directions, step data, skeleton scale, height */
    plumbob_string skeleton;  /* skeleton tag */
    plumbob_string data_string;
    uint32_t target_count, channel_count, component_count, ik_chain_count, ik_target_count, event_count;
    plumbob_anim_target *targets;
    plumbob_anim_channel *channels;
    plumbob_anim_component *components;
    plumbob_anim_ik_chain *ik_chains;
    plumbob_anim_ik_target *ik_targets;
    plumbob_anim_event *events;
    size_t end_pos;           /* bytes after the ANIM block: more RCOL blocks */
} plumbob_anim;

/* Arena bytes plumbob_anim_decode needs: PLUMBOB_ANIM_DECODE_SIZE of the
 * counts the resource declares (SIZE_MAX on error).  Errors: as
 * plumbob_anim_decode. */
PLUMBOB_API plumbob_result plumbob_anim_measure(const void *data, size_t size, size_t *arena_bytes);
#define PLUMBOB_ANIM_DECODE_SIZE(targets, channels, components, ik_chains, ik_targets, events) \
    (PLUMBOB_ARENA_NEED((targets), sizeof(plumbob_anim_target)) +                           \
     PLUMBOB_ARENA_NEED((channels), sizeof(plumbob_anim_channel)) +                         \
     PLUMBOB_ARENA_NEED((components), sizeof(plumbob_anim_component)) +                     \
     PLUMBOB_ARENA_NEED((ik_chains), sizeof(plumbob_anim_ik_chain)) +                       \
     PLUMBOB_ARENA_NEED((ik_targets), sizeof(plumbob_anim_ik_target)) +                     \
     PLUMBOB_ARENA_NEED((events), sizeof(plumbob_anim_event)))

/* Decodes a Sims 2 RCOL resource whose first block is a cAnimResourceConst
 * and validates it: the size field, every string against its stored length
 * and terminator, the section paddings, channel and component counts
 * against the bytes, key encodings, key times in order, IK target chain
 * indices.  Keys stay in the input.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_MAGIC (first block not an ANIM),
 * PLUMBOB_ERR_BAD_COUNT (counts beyond limits or bytes, size field wrong),
 * PLUMBOB_ERR_BAD_DATA (string without terminator or with the wrong length,
 * bad padding, a filler word other than 0x11BA05F0, key encoding 3, keys
 * out of order; an infinite or NaN f32 key value or half-float tangent:
 * the `_ex` location is its offset, table "component", the component's
 * index, reason "non-finite ..."; fixed-point values cannot be
 * non-finite, and the header's nine floats and the IK records, which no
 * call uses, are kept unchecked), PLUMBOB_ERR_BAD_INDEX
 * (IK target naming a missing chain), PLUMBOB_ERR_UNSUPPORTED (fixed-point
 * choice 2, which no known file uses), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_anim_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_anim *anim);

/* plumbob_anim_measure and plumbob_anim_decode that also say where they
 * failed, as plumbob_gmdc_measure_ex does: *err (may be NULL) is cleared,
 * then on failure filled with the byte offset in data (where the failing
 * read or check stood), the table ("anim", "arena", "arguments") and a
 * short reason.  Same results as the plain calls. */
PLUMBOB_API plumbob_result plumbob_anim_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_anim_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_anim *anim, plumbob_error *err);

/* Key k of component c.  Out of range (anim NULL, c >= component_count,
 * k >= the component's key_count) it reads nothing and returns the zero
 * key {0, 0, 0, 0}: check the counts first when that matters. */
PLUMBOB_API plumbob_anim_key plumbob_anim_key_at(const plumbob_anim *anim, uint32_t c, uint32_t k);

/* Component c at `ticks` (1 ms each, not seconds): baked keys linear
 * between their evenly spaced times, continuous and discontinuous keys
 * cubic Hermite with the stored tangents; held outside the keys.  Components of rotation channels are
 * angles in degrees and interpolate the shorter way round.  Any time is
 * defined: NaN plays the first key, the infinities hold the end keys.  0
 * when c is out of range or has no keys. */
PLUMBOB_API float plumbob_anim_sample_component(const plumbob_anim *anim, uint32_t c, float ticks);

/* Channel ch at `ticks` (1 ms each, not seconds): out[0..components-1]
 * raw component values;
 * returns the component count (0 for a bad index).  For rotation channels
 * of Euler type, *rotation (if not NULL) gets the unit quaternion of the
 * angles (degrees, applied X then Y then Z: q = qz * qy * qx). */
PLUMBOB_API uint32_t plumbob_anim_sample_channel(const plumbob_anim *anim, uint32_t ch, float ticks,
                                                 float out[8], plumbob_quat *rotation);

/* Euler angles in degrees (X first, then Y, then Z) to a unit quaternion.
 * Half-angle sine and cosine by polynomials (no libm), within 2e-7 of exact
 * for every angle; NaN and angles beyond +-1e7 degrees read as 0. */
PLUMBOB_API plumbob_quat plumbob_anim_euler_to_quat(float x_degrees, float y_degrees, float z_degrees);

/* Writer: decode -> write gives the original bytes (data set: the RCOL
 * header and any later blocks are copied); a caller-filled anim (data
 * NULL) gets a fresh RCOL header.  Filler words are written as the games
 * write them (0x11BA05F0; the decoder accepts no other value).  SIZE_MAX when the anim cannot be written. */
PLUMBOB_API size_t plumbob_anim_write_size(const plumbob_anim *anim);

/* Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, counts not matching the
 * targets and channels, strings longer than 255 bytes),
 * PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_anim_write(const plumbob_anim *anim, void *out, size_t out_cap,
                                              size_t *out_size);


/* ===================================================================== */
/* Chapter 13 Sims 2 CRES resource nodes (type 0xE519C933)               */
/* ===================================================================== */

/* A CRES is the scenegraph of a Sims 2 model: a Sims 2 RCOL (Chapter 10)
 * whose first block is a cResourceNode.  Its blocks form a tree by
 * references: the resource node lists its children, each cTransformNode
 * lists its own, and a transform node that stands for a mesh joint carries
 * that joint's index in the GMDC joint table.  The transform nodes are the
 * skeleton: the node's name (its cObjectGraphNode tag) is the bone name,
 * its translation and rotation the local rest transform.  plumbob decodes
 * the block kinds below into typed records (arrays in the arena, strings
 * zero-copy), writes them back byte for byte, and builds a plumbob_skeleton
 * from them.  Blocks have no size field, so a block of a kind plumbob does
 * not know can only be kept when it is the last one (its size is what is
 * left of the resource); anywhere else it stops the decode with
 * PLUMBOB_ERR_UNSUPPORTED (docs/FORMATS.md). */

/* Block ids (the u32 after the class name) of the kinds plumbob decodes. */
#define PLUMBOB_CRES_RESOURCE_NODE 0xE519C933u       /* cResourceNode */
#define PLUMBOB_CRES_TRANSFORM_NODE 0x65246462u      /* cTransformNode */
#define PLUMBOB_CRES_SHAPE_REF_NODE 0x65245517u      /* cShapeRefNode */
#define PLUMBOB_CRES_DATA_LIST_EXTENSION 0x6A836D56u /* cDataListExtension */
#define PLUMBOB_CRES_BONE_DATA_EXTENSION 0xE9075BC5u /* cBoneDataExtension */

/* Block kinds (plumbob_cres_block.kind). */
typedef enum plumbob_cres_kind {
    PLUMBOB_CRES_KIND_RESOURCE = 0,
    PLUMBOB_CRES_KIND_TRANSFORM = 1,
    PLUMBOB_CRES_KIND_SHAPE_REF = 2,
    PLUMBOB_CRES_KIND_DATA_LIST = 3,
    PLUMBOB_CRES_KIND_BONE_DATA = 4,
    PLUMBOB_CRES_KIND_UNKNOWN = 5      /* last block only, kept as raw bytes */
} plumbob_cres_kind;

/* Joint field of a transform node that stands for no mesh joint. */
#define PLUMBOB_CRES_NO_JOINT 0x7FFFFFFFu

/* Limits that bound the work a hostile resource can ask for. */
#define PLUMBOB_CRES_MAX_REFS 65536u       /* references in one list */
#define PLUMBOB_CRES_MAX_LIST_DEPTH 16u    /* nesting of data list items */

/* A persisted class head: 7-bit-length class name, u32 id, u32 version. */
typedef struct plumbob_cres_head {
    plumbob_string name;
    uint32_t id, version;
} plumbob_cres_head;

/* An object reference: on disk one byte `present`; when it is not 0, a byte
 * `external` and a u32 index follow.  External 0: index is a block of this
 * resource; otherwise it is a link of the RCOL header. */
typedef struct plumbob_cres_ref {
    uint8_t present, external;
    uint32_t index;
} plumbob_cres_ref;

/* A cCompositionTreeNode with its cObjectGraphNode: extension references,
 * the node's tag (its name; graph version 4 and up) and child references.
 * A graph-only node (resource node form 0) has no tree head and no children. */
typedef struct plumbob_cres_node {
    plumbob_cres_head tree;        /* cCompositionTreeNode (name.ptr NULL: none) */
    plumbob_cres_head graph;       /* cObjectGraphNode */
    uint32_t extension_count;
    const plumbob_cres_ref *extensions;
    plumbob_string tag;
    uint32_t child_count;
    const plumbob_cres_ref *children;
} plumbob_cres_node;

/* cTransformNode body: node, local translation, rotation (x y z w), joint. */
typedef struct plumbob_cres_transform {
    plumbob_cres_node node;
    plumbob_vec3 translation;
    plumbob_quat rotation;
    uint32_t joint;                /* GMDC joint index or PLUMBOB_CRES_NO_JOINT */
} plumbob_cres_transform;

/* cResourceNode: form 1 carries the cSGResource name and a composition
 * tree; form 0 only an object graph node. */
typedef struct plumbob_cres_resource {
    uint8_t form;                  /* 1 or 0 (the byte after the version) */
    plumbob_cres_head sg;          /* cSGResource (form 1) */
    plumbob_string name;           /* the resource name (form 1) */
    plumbob_cres_node node;
    plumbob_cres_ref location;
    uint32_t skin_type;            /* 12 object, 2 skeleton, 3 full body, ... (docs/FORMATS.md) */
} plumbob_cres_resource;

/* cShapeRefNode: a renderable, bounded transform node with shape links. */
typedef struct plumbob_cres_shape_ref {
    plumbob_cres_head renderable, bounded, transform_head;
    plumbob_cres_transform transform;
    uint8_t bounded_flag;          /* the byte after the transform */
    uint8_t all_groups;            /* part of all render groups */
    uint32_t group_count;
    const plumbob_string *groups;  /* render group names ("Practical", ...) */
    uint32_t group_id;
    uint8_t display;               /* add to display list */
    uint32_t shape_count;
    const plumbob_cres_ref *shapes;
    uint32_t display_flags;
    uint32_t morph_count;
    const unsigned char *morph_weights; /* morph_count little-endian f32 */
    const plumbob_string *morph_names;  /* version 21 and up, else NULL */
    uint32_t data_size;
    const unsigned char *data;     /* material floats */
    uint32_t colour;               /* version 20 and up */
} plumbob_cres_shape_ref;

/* cBoneDataExtension (after its cExtension head). */
typedef struct plumbob_cres_bone_data {
    plumbob_cres_head extension;
    int32_t heading_axis, mirror_axis, stretch_axis;
    float stretch;
    plumbob_quat orientation;      /* version 4 and up */
} plumbob_cres_bone_data;

/* cDataListExtension: one typed item (often a list) after its cExtension
 * head, validated and kept as bytes.  Item types: 1 bool, 2 i32, 3 f32,
 * 4 vec2, 5 vec3, 6 string, 7 list, 8 quaternion, 9 bytes. */
typedef struct plumbob_cres_data_list {
    plumbob_cres_head extension;
    uint8_t item_type;             /* of the top item */
    plumbob_string item_name;
    uint32_t item_count;           /* list items of the top item (type 7) */
    const unsigned char *items;    /* the item bytes, from its type byte */
    size_t items_size;
} plumbob_cres_data_list;

typedef struct plumbob_cres_block {
    uint32_t kind;                 /* plumbob_cres_kind */
    plumbob_cres_head head;        /* class name, block id, version */
    union {                        /* the record of `kind` */
        plumbob_cres_resource resource;      /* KIND_RESOURCE */
        plumbob_cres_transform transform;    /* KIND_TRANSFORM */
        plumbob_cres_shape_ref shape_ref;    /* KIND_SHAPE_REF */
        plumbob_cres_bone_data bone_data;    /* KIND_BONE_DATA */
        plumbob_cres_data_list data_list;    /* KIND_DATA_LIST */
        struct {                             /* KIND_UNKNOWN: the bytes after the head */
            const unsigned char *bytes;
            size_t size;
        } raw;
    } u;
} plumbob_cres_block;

typedef struct plumbob_cres {
    const unsigned char *data;
    size_t size;
    plumbob_sims2_rcol rcol;
    uint32_t block_count;
    plumbob_cres_block *blocks;
    const plumbob_sims2_link *links; /* writer input when data is NULL: rcol.link_count links */
} plumbob_cres;

/* Arena bytes plumbob_cres_decode needs (exact, alignment padding
 * included); on any error *arena_bytes is SIZE_MAX.  Errors: as
 * plumbob_cres_decode, except those only reference checks find. */
PLUMBOB_API plumbob_result plumbob_cres_measure(const void *data, size_t size, size_t *arena_bytes);

/* Decodes a Sims 2 RCOL whose first block is a cResourceNode: every block
 * of a known kind, each block's class name and id against the RCOL block
 * list, reference lists against PLUMBOB_CRES_MAX_REFS and the bytes, data
 * list items to PLUMBOB_CRES_MAX_LIST_DEPTH, and every internal reference
 * (children, extensions) against the block count.  Nothing may follow the
 * last block.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_TRUNCATED,
 * PLUMBOB_ERR_BAD_MAGIC (first block not a cResourceNode, a block whose id
 * differs from the block list, a sub-head with the wrong class name),
 * PLUMBOB_ERR_BAD_COUNT (counts beyond limits or bytes),
 * PLUMBOB_ERR_BAD_INDEX (an internal reference past the last block),
 * PLUMBOB_ERR_BAD_DATA (resource form not 0 or 1, data list item type
 * unknown or nested too deep, bad string prefix, bytes after the last
 * block; an infinite or NaN translation or rotation of a transform or
 * shape reference node, or stretch or orientation of a bone data
 * extension: the `_ex` location is that float's offset, table "block",
 * the block's index, reason "non-finite ..."), PLUMBOB_ERR_UNSUPPORTED (a
 * block of unknown kind before the last), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_cres_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_cres *cres);

/* plumbob_cres_measure and plumbob_cres_decode that also say where they
 * failed, as plumbob_gmdc_measure_ex does: *err (may be NULL) is cleared,
 * then on failure filled with the byte offset in data, the table ("rcol",
 * "cres", "arena", "arguments") and a short reason.  Same results as the
 * plain calls. */
PLUMBOB_API plumbob_result plumbob_cres_measure_ex(const void *data, size_t size, size_t *arena_bytes,
                                                   plumbob_error *err);
PLUMBOB_API plumbob_result plumbob_cres_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                                  plumbob_cres *cres, plumbob_error *err);

/* Bytes plumbob_cres_write produces (SIZE_MAX when it cannot be written).
 * The writer takes a decoded CRES or one the caller filled in: with `data`
 * NULL it writes a fresh RCOL header (16-byte link form with the
 * rcol.link_count entries of `links`, then the block list from the blocks'
 * head ids); with `data` set it copies the source's RCOL header.  Every block is written from its typed record (unknown ones
 * from raw). */
PLUMBOB_API size_t plumbob_cres_write_size(const plumbob_cres *cres);

/* Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, no blocks, an unknown kind,
 * an array NULL where its count is not 0, a string longer than 2^28,
 * resource form not 0 or 1),
 * PLUMBOB_ERR_OUT_OF_MEMORY (out_cap too small). */
PLUMBOB_API plumbob_result plumbob_cres_write(const plumbob_cres *cres, void *out, size_t out_cap,
                                              size_t *out_size);

/* The skeleton of a CRES: every cTransformNode and cShapeRefNode block is a
 * bone, named by its tag, with its translation and rotation as the local
 * rest transform (scale 1; a rotation off unit length by more than 1e-5 in
 * squared length is normalized, a zero one is the identity, one whose
 * squared length overflows keeps its direction; a non-finite translation or
 * rotation is refused, see plumbob_cres_skeleton_build).  Parents follow child references, starting at
 * the resource node (whose children are roots), depth first in listed
 * order, so bones come parent before child whatever the block order is; a
 * block reached twice keeps its first parent (so cycles end).  Node blocks
 * the resource node does not reach (a form-0 resource node lists nothing)
 * hang under the unreached nodes that list them, whatever the block order;
 * those no such node lists become roots, in block order. */
typedef struct plumbob_cres_skeleton {
    plumbob_skeleton skeleton;     /* parent, rest, name_hash (FNV-32 of the tag), name */
    const uint32_t *block_of_bone; /* bone -> block index */
    const int32_t *bone_of_block;  /* block -> bone, -1 for other kinds */
    const uint32_t *joint_of_bone; /* transform nodes: their joint; shape refs: NO_JOINT */
} plumbob_cres_skeleton;

/* Arena bytes plumbob_cres_skeleton_build needs, its scratch stack
 * included (SIZE_MAX for NULL or on overflow). */
PLUMBOB_API size_t plumbob_cres_skeleton_size(const plumbob_cres *cres);

/* Builds the skeleton of a decoded CRES (the CRES and its input must outlive
 * it).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_BAD_DATA (a
 * transform or shape reference node with an infinite or NaN translation or
 * rotation: the decoder never gives one, a CRES built by the caller may;
 * nothing is replaced), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_cres_skeleton_build(const plumbob_cres *cres, plumbob_arena *arena,
                                                       plumbob_cres_skeleton *skeleton);

/* The map from GMDC joint index to bone: bone_of_joint[j] for j <
 * joint_count is the bone whose joint field is j (the first one when several
 * claim it), or -1.  Joint fields at or above joint_count are ignored.
 * Returns how many joints found a bone.  0 for NULL arguments. */
PLUMBOB_API uint32_t plumbob_cres_joint_map(const plumbob_cres_skeleton *skeleton, uint32_t joint_count,
                                            int32_t *bone_of_joint);

/* The bone named name[0..len) (ASCII case-insensitive, as ANIM channel
 * names are matched), or -1. */
PLUMBOB_API int32_t plumbob_cres_find_bone(const plumbob_cres_skeleton *skeleton, const char *name,
                                           size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PLUMBOB_SIMS2_H */
