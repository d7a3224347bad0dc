/* plumbob/base.h: the base layer of plumbob.h (docs/ARCHITECTURE.md):
 * results, the arena, the bounded reader, names and hashes,
 * small math with the types every layer shares (plumbob_bone_pose,
 * plumbob_mat34, plumbob_skeleton), format identification.
 * A game includes plumbob.h, which includes every layer; this file may be
 * included alone and brings the layers it builds on. */
#ifndef PLUMBOB_BASE_H
#define PLUMBOB_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Chapter 1  Version and build switches                                 */
/* ===================================================================== */

#define PLUMBOB_VERSION_MAJOR 0
#define PLUMBOB_VERSION_MINOR 1
#define PLUMBOB_VERSION_PATCH 0
/* One number that grows with every release: major*10000 + minor*100 + patch. */
#define PLUMBOB_VERSION_NUMBER \
    (PLUMBOB_VERSION_MAJOR * 10000 + PLUMBOB_VERSION_MINOR * 100 + PLUMBOB_VERSION_PATCH)
#define PLUMBOB_VERSION_STRING "0.1.0"

/* PLUMBOB_API decorates every public function.  Define it before including
 * this header to add an export attribute or a calling convention. */
#ifndef PLUMBOB_API
#define PLUMBOB_API
#endif

/* Build switches (define on the compiler command line when building the core):
 *   PLUMBOB_NO_SIMD   use the scalar reference kernels in ports/ even where
 *                     SSE2 or NEON is available. */

/* Returns PLUMBOB_VERSION_NUMBER of the compiled library (check it against
 * the header you compiled with). */
PLUMBOB_API unsigned plumbob_version_number(void);

/* Returns the name of the kernel port compiled in: "scalar", "sse2", "avx2"
 * (the SSE2 kernels built with -mavx2, VEX-encoded; the same bits) or
 * "neon". */
PLUMBOB_API const char *plumbob_port_name(void);


/* ===================================================================== */
/* Chapter 2  Results                                                    */
/* ===================================================================== */

/* Every fallible function returns one of these.  The numbers are stable:
 * new codes are only ever appended.  One rule per cause, in every decoder:
 * input that ends before the data it declares (a read, a count of records
 * or an offset past the end) is PLUMBOB_ERR_TRUNCATED, whatever field the
 * cut lands in; BAD_COUNT is a count above its limit or at odds with
 * another, BAD_OFFSET an offset inside the input but outside its section;
 * the wrong signature or kind of resource is PLUMBOB_ERR_BAD_MAGIC. */
typedef enum plumbob_result {
    PLUMBOB_OK = 0,
    PLUMBOB_ERR_TRUNCATED = 1,           /* input ends before the data it declares */
    PLUMBOB_ERR_BAD_MAGIC = 2,           /* signature bytes are not the expected ones */
    PLUMBOB_ERR_UNSUPPORTED_VERSION = 3, /* a version field we do not decode */
    PLUMBOB_ERR_BAD_OFFSET = 4,          /* an offset points outside its section */
    PLUMBOB_ERR_BAD_COUNT = 5,           /* a count above its limit or at odds with another */
    PLUMBOB_ERR_BAD_INDEX = 6,           /* an index or reference is out of range */
    PLUMBOB_ERR_OUT_OF_MEMORY = 7,       /* the caller's arena, or a decode's or write's
                                          * output, is too small */
    PLUMBOB_ERR_INVALID_ARGUMENT = 8,    /* NULL pointer, zero size, bad option */
    PLUMBOB_ERR_LIMIT_EXCEEDED = 9,      /* a caller-set limit (steps, actions) was hit */
    PLUMBOB_ERR_BAD_DATA = 10,           /* a value breaks a rule of the format */
    PLUMBOB_ERR_UNSUPPORTED = 11,        /* valid input using a feature not implemented */
    PLUMBOB_ERR_NOT_FOUND = 12,          /* a lookup matched nothing */
    PLUMBOB_ERR_UNREACHABLE = 13,        /* no route over declared transitions */
    PLUMBOB_ERR_OUTPUT_TOO_SMALL = 14    /* a per-frame job's output span holds fewer
                                          * elements than the job writes; nothing written */
} plumbob_result;

#define PLUMBOB_RESULT_COUNT 15

/* A short lowercase name for a result ("ok", "truncated", ...).  Never NULL;
 * unknown values give "unknown_result". */
PLUMBOB_API const char *plumbob_result_str(plumbob_result r);

/* Where a decode failed, for the `_ex` variants of the decoders (GMDC, CLIP,
 * rig, ANIM, CRES, jazz measure and decode).  The decoder fills it on its
 * first failure and leaves it as plumbob_error_clear made it on success:
 * result PLUMBOB_OK, offset 0, table "", index PLUMBOB_ERROR_NO_INDEX,
 * reason "".  The strings are static (never NULL, never freed).  offset is
 * the byte position in the caller's input (from its first byte) where the
 * fault was found: the field or record that breaks a rule, or where a read
 * ran past the end. */
#define PLUMBOB_ERROR_NO_INDEX 0xFFFFFFFFu

typedef struct plumbob_error {
    plumbob_result result; /* the code the call returned */
    size_t offset;         /* byte offset in the input */
    const char *table;     /* the part of the format: "rcol", "element", "linkage", "group", ... */
    uint32_t index;        /* entry of that table, or PLUMBOB_ERROR_NO_INDEX */
    const char *reason;    /* a short reason: "item index past the element's count" */
} plumbob_error;

/* Resets *e to the no-error state above (e may be NULL). */
PLUMBOB_API void plumbob_error_clear(plumbob_error *e);


/* ===================================================================== */
/* Chapter 3  Arena: the caller's memory                                 */
/* ===================================================================== */

/* A bump allocator over a buffer the caller owns.  Decoders take an arena
 * and place every table they build inside it; nothing is ever freed one by
 * one.  Sizes are checked for overflow, so a hostile count can only produce
 * PLUMBOB_ERR_OUT_OF_MEMORY, never a wrapped size.
 *
 * The sizing rule.  Every call that takes an arena, work memory or an
 * output buffer has a query that says how many bytes it needs, before the
 * call, in one of four forms:
 *
 *   size_t plumbob_X_size(objects)     arena bytes of the call it names
 *                                      (plumbob_clip_bind_size for
 *                                      plumbob_clip_bind; _init and _build
 *                                      calls drop the suffix), for objects
 *                                      the core made or the caller filled;
 *   size_t plumbob_X_write_size(obj)   bytes plumbob_X_write writes;
 *   plumbob_result plumbob_X_measure(data, size, size_t *bytes)
 *                                      arena bytes plumbob_X_decode needs
 *                                      for untrusted bytes: it has to parse
 *                                      their counts, so it returns the
 *                                      error decode would give for them;
 *   size_t plumbob_X_bound(n), plumbob_X_work_size()
 *                                      a compressor's largest output (the
 *                                      exact size is known only after the
 *                                      call) and its scratch memory.
 *
 * Two outputs are sized by the data itself: plumbob_refpack_decompress's
 * by the size plumbob_refpack_header reads, plumbob_package_read's by
 * plumbob_package_read_size (the entry's mem_size, checked).  Calls that fill an array of records
 * (plumbob_clip_events_between, plumbob_jazz_enter, plumbob_jazz_request)
 * take its capacity in records, fill it, and return
 * PLUMBOB_ERR_LIMIT_EXCEEDED when more were due.  Arrays of values (poses,
 * palettes, skinned vertices, a quantized track's keys) are sized by
 * counts the caller already holds; each call's comment names them.
 *
 * The answer is exact unless the query says it is a bound.  Arena answers
 * count worst-case alignment padding, so an arena with that many bytes
 * free (size - used, at any base address) always suffices.  A query never
 * answers 0 for bad input: when the call it sizes would refuse the
 * arguments (NULL, an object made for another clip, one that cannot be
 * written) or the size does not fit size_t, the answer is SIZE_MAX, and a
 * _measure also stores SIZE_MAX in *bytes.  No buffer holds SIZE_MAX
 * bytes, so a caller who forgets to check gets PLUMBOB_ERR_OUT_OF_MEMORY
 * or a failed allocation, never an overrun.  (docs/API.md, "The sizing
 * rule", lists every query.)
 *
 * Where the need is a formula of counts known in advance, a macro named
 * after the query in capitals gives it at compile time, so a game can size
 * static buffers: PLUMBOB_REFPACK_BOUND(n), PLUMBOB_REFPACK_COMPRESS_WORK_SIZE,
 * PLUMBOB_CLIP_DECODE_SIZE, PLUMBOB_ANIM_DECODE_SIZE, PLUMBOB_RIG_DECODE_SIZE
 * (of the counts the resource declares), PLUMBOB_CLIP_BIND_SIZE(tracks),
 * PLUMBOB_CLIP_CURSOR_SIZE(tracks), and the bounds
 * PLUMBOB_CLIP_SCHEDULE_SIZE(tracks, keys, ticks) and
 * PLUMBOB_CLIP_SAMPLER_SIZE(tracks).  The query returns the macro's value
 * (at most it, for a bound); the tests check that they agree.  Arguments
 * are counts within the format's limits, where nothing overflows.
 *
 * A call that fails after taking arena bytes gives them back: `used` is
 * what it was before the call. */
typedef struct plumbob_arena {
    unsigned char *base; /* start of the caller's buffer */
    size_t size;         /* bytes in the buffer */
    size_t used;         /* bytes handed out, including alignment padding */
    size_t peak;         /* largest `used` seen since init (for sizing) */
} plumbob_arena;

/* Alignment every allocation gets at least (enough for float, u32, u64, pointers). */
#define PLUMBOB_ARENA_ALIGN 8

/* Starts an arena over mem[0..size).  mem may be NULL only when size is 0. */
PLUMBOB_API void plumbob_arena_init(plumbob_arena *a, void *mem, size_t size);

/* Returns `size` bytes aligned to `align` (a power of two; 0 means
 * PLUMBOB_ARENA_ALIGN), or NULL when they do not fit or align is not a power
 * of two.  A zero-size request returns a valid, unique-enough pointer. */
PLUMBOB_API void *plumbob_arena_alloc(plumbob_arena *a, size_t size, size_t align);

/* Returns count * elem_size bytes aligned to `align`, or NULL when the
 * product overflows size_t or does not fit. */
PLUMBOB_API void *plumbob_arena_alloc_array(plumbob_arena *a, size_t count, size_t elem_size,
                                            size_t align);

/* Mark and reset: take a mark, decode something, reset to the mark to give
 * the bytes back.  Reset to a mark above the current use is ignored. */
PLUMBOB_API size_t plumbob_arena_mark(const plumbob_arena *a);
PLUMBOB_API void plumbob_arena_reset(plumbob_arena *a, size_t mark);

/* Bytes still free if the next request asks for `align` (0: default). */
PLUMBOB_API size_t plumbob_arena_remaining(const plumbob_arena *a, size_t align);

#if defined(PLUMBOB_TOOLS_API) && !defined(PLUMBOB_STABLE_ONLY) /* arena arithmetic, for tools and tests */
/* Adds b to *acc unless that overflows; on overflow sets *acc to SIZE_MAX and
 * returns false.  Query calls use it to sum arena needs safely; every added
 * term already counts worst-case alignment padding. */
PLUMBOB_API bool plumbob_size_add(size_t *acc, size_t b);

/* Worst-case arena bytes for one allocation of count * elem_size bytes at
 * PLUMBOB_ARENA_ALIGN (includes padding); SIZE_MAX on overflow. */
PLUMBOB_API size_t plumbob_arena_need(size_t count, size_t elem_size);

#endif /* PLUMBOB_TOOLS_API */

/* The same at compile time, for counts that cannot overflow. */
#define PLUMBOB_ARENA_NEED(count, elem_size) \
    ((size_t)(count) * (size_t)(elem_size) + (PLUMBOB_ARENA_ALIGN - 1u))

#if defined(PLUMBOB_TOOLS_API) && !defined(PLUMBOB_STABLE_ONLY) /* Chapter 4 is for tools and tests */


/* ===================================================================== */
/* Chapter 4  Bounded reader                                             */
/* ===================================================================== */

/* A cursor over an untrusted byte range.  Every read checks the end; the
 * first failure is recorded in `error` and sticks: later reads return 0,
 * move nothing and keep the first error, so a decoder can read a whole
 * record and check once.  Values are assembled from bytes (no pointer casts
 * into the input), so any alignment and any host byte order is fine.
 *
 * Errors a reader records:
 *   PLUMBOB_ERR_TRUNCATED   a read or skip past the end;
 *   PLUMBOB_ERR_BAD_OFFSET  a seek or sub-range outside the data;
 *   anything a decoder passes to plumbob_reader_fail. */
typedef struct plumbob_reader {
    const unsigned char *data; /* first byte of the range */
    size_t size;               /* bytes in the range */
    size_t pos;                /* next byte to read, 0 <= pos <= size */
    plumbob_result error;      /* first error, PLUMBOB_OK while none */
} plumbob_reader;

/* Starts a reader over data[0..size).  data may be NULL only when size is 0. */
PLUMBOB_API void plumbob_reader_init(plumbob_reader *r, const void *data, size_t size);

PLUMBOB_API uint8_t plumbob_read_u8(plumbob_reader *r);
PLUMBOB_API uint16_t plumbob_read_u16le(plumbob_reader *r);
PLUMBOB_API uint16_t plumbob_read_u16be(plumbob_reader *r);
PLUMBOB_API uint32_t plumbob_read_u32le(plumbob_reader *r);
PLUMBOB_API uint32_t plumbob_read_u32be(plumbob_reader *r);
PLUMBOB_API uint64_t plumbob_read_u64le(plumbob_reader *r);
PLUMBOB_API uint64_t plumbob_read_u64be(plumbob_reader *r);
/* IEEE-754 binary32 from its little-/big-endian bit pattern. */
PLUMBOB_API float plumbob_read_f32le(plumbob_reader *r);
PLUMBOB_API float plumbob_read_f32be(plumbob_reader *r);

/* Returns a pointer to the next n bytes and moves past them (zero copy), or
 * NULL with PLUMBOB_ERR_TRUNCATED when fewer remain. */
PLUMBOB_API const unsigned char *plumbob_read_bytes(plumbob_reader *r, size_t n);

/* Moves past n bytes (PLUMBOB_ERR_TRUNCATED if fewer remain). */
PLUMBOB_API void plumbob_reader_skip(plumbob_reader *r, size_t n);

/* Moves forward to the next multiple of 4 counted from the range's start
 * (PLUMBOB_ERR_TRUNCATED if that is past the end). */
PLUMBOB_API void plumbob_reader_align4(plumbob_reader *r);

/* Moves to absolute position pos (PLUMBOB_ERR_BAD_OFFSET if pos > size). */
PLUMBOB_API void plumbob_reader_seek(plumbob_reader *r, size_t pos);

/* A new reader over [offset, offset + size) of r's range, for offset tables
 * and sections.  Out of range: the new reader is empty and carries
 * PLUMBOB_ERR_BAD_OFFSET.  A sticky error in r is carried over.  r itself
 * does not move. */
PLUMBOB_API plumbob_reader plumbob_reader_sub(const plumbob_reader *r, size_t offset, size_t size);

/* Bytes left between pos and the end (0 after an error). */
PLUMBOB_API size_t plumbob_reader_remaining(const plumbob_reader *r);

/* Records err as the reader's error unless one is already recorded. */
PLUMBOB_API void plumbob_reader_fail(plumbob_reader *r, plumbob_result err);

/* True while no error has been recorded. */
PLUMBOB_API bool plumbob_reader_ok(const plumbob_reader *r);

#endif /* PLUMBOB_TOOLS_API */


/* ===================================================================== */
/* Chapter 5  Names and hashes                                           */
/* ===================================================================== */

/* A string inside the caller's buffer: not NUL-terminated, never copied. */
typedef struct plumbob_string {
    const char *ptr;
    size_t len;
} plumbob_string;

/* FNV-1 (multiply, then xor) over the ASCII-lowercased bytes of name[0..len).
 * Bytes outside A-Z are hashed as they are.  name may be NULL when len is 0. */
PLUMBOB_API uint32_t plumbob_fnv32(const char *name, size_t len);
PLUMBOB_API uint64_t plumbob_fnv64(const char *name, size_t len);
/* The same over a NUL-terminated string (NULL hashes as ""). */
PLUMBOB_API uint32_t plumbob_fnv32_str(const char *name);
PLUMBOB_API uint64_t plumbob_fnv64_str(const char *name);

/* True when a[0..a_len) and b[0..b_len) are the same name but for ASCII
 * case: only A-Z and a-z fold, as the hashes above lowercase, every other
 * byte is itself.  The one way plumbob compares names (ANIM channels with
 * CRES bones, clip name prefixes, the tool's names).  A pointer may be NULL
 * when its length is 0. */
PLUMBOB_API bool plumbob_name_equal(const char *a, size_t a_len, const char *b, size_t b_len);

/* The group Sims 2 packages file their own resources under (the "local"
 * group: meshes, skeletons and animations a package brings along). */
#define PLUMBOB_SIMS2_LOCAL_GROUP 0x1C0532FAu

/* The instance a Sims 2 resource is filed under by its name, as the game's
 * packages key GMDC, CRES, SHPE, ANIM and the other named resources: over
 * the ASCII-lowercased bytes of name[0..len), instance-high is CRC-32/MPEG-2
 * (polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final
 * xor) and instance is CRC-24/OpenPGP (polynomial 0x864CFB, initial value
 * 0xB704CE) with 0xFF in its top byte; returned as one DBPF 1.x instance,
 * instance-high << 32 | instance.  The name is the resource's own, as
 * stored (no trimming).  name may be NULL when len is 0. */
PLUMBOB_API uint64_t plumbob_sims2_instance(const char *name, size_t len);


/* ===================================================================== */
/* Chapter 6  Small math (no libm), poses and skeletons                  */
/* ===================================================================== */

typedef struct plumbob_vec3 {
    float x, y, z;
} plumbob_vec3;

/* Rotation quaternion, x y z vector part, w scalar part. */
typedef struct plumbob_quat {
    float x, y, z, w;
} plumbob_quat;

/* Affine transform: 3 rows of [rotation/scale | translation], row-major.
 * Applied to column vectors: p' = M * (p, 1). */
typedef struct plumbob_mat34 {
    float m[3][4];
} plumbob_mat34;

/* Local transform of one bone, parent-relative, in the game's Y-up space. */
typedef struct plumbob_bone_pose {
    plumbob_quat rotation;
    plumbob_vec3 translation;
    plumbob_vec3 scale;
} plumbob_bone_pose;

/* Bone poses four at a time, component by component (a structure of
 * arrays): block k holds bones 4k .. 4k + 3, lane l of every row bone 4k
 * + l.  The pose jobs of runtime.h Chapter 19b with the _soa suffix take
 * it: a layer's products are then a few 4-wide multiply-adds per block,
 * with no shuffles.  A pose of n bones takes plumbob_pose_soa_blocks(n)
 * blocks (160 bytes each; 16-byte aligned memory is best for SIMD loads
 * but not required); the lanes past bone n - 1 in the last block are
 * padding bones, which plumbob_pose_to_soa fills with the identity. */
typedef struct plumbob_pose_soa {
    float rx[4], ry[4], rz[4], rw[4]; /* rotation x y z w */
    float tx[4], ty[4], tz[4];        /* translation */
    float sx[4], sy[4], sz[4];        /* scale */
} plumbob_pose_soa;

/* One layer of plumbob_pose_blend_soa (runtime.h): plumbob_blend_layer's
 * fields with the pose in blocks. */
typedef struct plumbob_blend_layer_soa {
    const plumbob_pose_soa *poses; /* plumbob_pose_soa_blocks(bone_count) blocks */
    float weight;                  /* clamped to [0, 1] (NaN: 0) */
    const float *bone_weights;     /* bone_count floats (one per real bone), or NULL for 1 */
} plumbob_blend_layer_soa;

/* A skeleton as both games' rigs describe one (a Sims 3 rig resource, a
 * Sims 2 CRES): bones in parent-before-child order, each with a local rest
 * transform relative to its parent.  It is a view: the arrays live wherever
 * the decoder that filled it (or the caller) put them, and must outlive it.
 * The two jobs below are what an engine runs after sampling a clip: fill the
 * bones the clip does not drive with their rest values, then turn local
 * transforms into model-space matrices for a skinning palette. */
typedef struct plumbob_skeleton {
    uint32_t bone_count;
    const int32_t *parent;            /* per bone: parent index, below the bone's own; -1 for a root */
    const plumbob_bone_pose *rest;    /* per bone: local rest transform (parent-relative) */
    const uint32_t *name_hash;        /* per bone: FNV-32 of the bone name (the games' bone
                                         hash, as clip tracks carry it); may be NULL */
    const plumbob_string *name;       /* per bone: the name; may be NULL when only hashes are known */
} plumbob_skeleton;

/* Checks a skeleton the caller filled in: arrays present (rest and parent),
 * every parent -1 or below the bone's own index.  Decoders that build
 * skeletons check this themselves.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL skeleton, NULL parent or rest with bones), PLUMBOB_ERR_BAD_INDEX (a
 * parent at or after its child: not parent-before-child order). */
PLUMBOB_API plumbob_result plumbob_skeleton_validate(const plumbob_skeleton *skeleton);

/* The bone whose name_hash is `hash`, or -1 (also when name_hash is NULL).
 * Linear in the bone count. */
PLUMBOB_API int32_t plumbob_skeleton_find(const plumbob_skeleton *skeleton, uint32_t hash);

/* Square root and reciprocal square root built from + - * / only, so they
 * need no libm and give the same bits on every IEEE-754 target.  sqrtf of a
 * negative or NaN input is 0; rsqrtf of 0 or less is 0. */
PLUMBOB_API float plumbob_sqrtf(float x);
PLUMBOB_API float plumbob_rsqrtf(float x);

PLUMBOB_API plumbob_quat plumbob_quat_identity(void);
/* Unit quaternion in q's direction; a zero or non-finite q gives identity. */
PLUMBOB_API plumbob_quat plumbob_quat_normalize(plumbob_quat q);
/* a * b (apply b first, then a). */
PLUMBOB_API plumbob_quat plumbob_quat_mul(plumbob_quat a, plumbob_quat b);
/* Normalized lerp along the shorter arc: b is negated when dot(a, b) < 0.
 * t = 0 gives a normalized, t = 1 gives +-b normalized. */
PLUMBOB_API plumbob_quat plumbob_quat_nlerp(plumbob_quat a, plumbob_quat b, float t);
/* q applied to v (q assumed unit). */
PLUMBOB_API plumbob_vec3 plumbob_quat_rotate(plumbob_quat q, plumbob_vec3 v);

PLUMBOB_API plumbob_mat34 plumbob_mat34_identity(void);
/* Rotation by unit q, then translation by t (M = T * R). */
PLUMBOB_API plumbob_mat34 plumbob_mat34_from_rt(plumbob_quat q, plumbob_vec3 t);
/* a * b: apply b first, then a. */
PLUMBOB_API plumbob_mat34 plumbob_mat34_mul(const plumbob_mat34 *a, const plumbob_mat34 *b);
PLUMBOB_API plumbob_vec3 plumbob_mat34_transform_point(const plumbob_mat34 *m, plumbob_vec3 p);
/* Rotation/scale part only (for directions and normals of rigid transforms). */
PLUMBOB_API plumbob_vec3 plumbob_mat34_transform_vector(const plumbob_mat34 *m, plumbob_vec3 v);


/* ===================================================================== */
/* Chapter 7  Format identification                                      */
/* ===================================================================== */

typedef enum plumbob_format {
    PLUMBOB_FORMAT_UNKNOWN = 0,
    PLUMBOB_FORMAT_DBPF = 1,       /* .package, Sims 2 (1.x) or Sims 3 (2.0) */
    PLUMBOB_FORMAT_CLIP = 2,       /* Sims 3 CLIP resource (0x6B20C4F3) */
    PLUMBOB_FORMAT_JAZZ = 3,       /* Sims 3 RCOL holding an S_SM chunk (0x02D5DF13) */
    PLUMBOB_FORMAT_GMDC = 4,       /* Sims 2 RCOL holding cGeometryDataContainer */
    PLUMBOB_FORMAT_ANIM = 5,       /* Sims 2 RCOL holding cAnimResourceConst */
    PLUMBOB_FORMAT_SIMS2_RCOL = 6, /* any other Sims 2 RCOL (GMND, SHPE, TXMT, ...) */
    PLUMBOB_FORMAT_REFPACK = 7,    /* a bare RefPack-compressed stream */
    PLUMBOB_FORMAT_RIG = 8,        /* Sims 3 rig (0x8EAF13DE): plain, or Granny (refused) */
    PLUMBOB_FORMAT_CRES = 9,       /* Sims 2 RCOL whose first block is a cResourceNode (0xE519C933) */
    PLUMBOB_FORMAT_GEOM = 10,      /* Sims 3 RCOL holding a GEOM chunk (0x015A1849) */
    PLUMBOB_FORMAT_KEY = 11,       /* Sims 3 KEY name table (0x0166038C): version 1,
                                    * entries filling the bytes exactly */
    PLUMBOB_FORMAT_TRACK_MASK = 12 /* Sims 3 jazz track mask (0x033260E3): "TkMk" */
} plumbob_format;

/* Guesses what data[0..size) is from its first bytes.  Cheap and never
 * fails: anything unrecognised is PLUMBOB_FORMAT_UNKNOWN.  It does not
 * validate; decode to be sure. */
PLUMBOB_API plumbob_format plumbob_identify(const void *data, size_t size);

/* "dbpf", "clip", "jazz", "gmdc", "anim", "sims2-rcol", "refpack", "rig",
 * "cres", "geom", "key", "track-mask" or "unknown". */
PLUMBOB_API const char *plumbob_format_name(plumbob_format f);

#ifdef __cplusplus
}
#endif

#endif /* PLUMBOB_BASE_H */
