/*
 * plumbob: a freestanding, no-malloc decoder core for the animation and
 * geometry formats of The Sims 2 and The Sims 3.  MIT licence (see LICENSE).
 *
 * Read this header top to bottom once; it is the reference card.
 *
 *   Chapter 1  Version and build switches
 *   Chapter 2  Results                 plumbob_result, plumbob_result_str, plumbob_error
 *   Chapter 3  Arena (caller memory)   plumbob_arena_*
 *   Chapter 4  Bounded reader          plumbob_reader_*, plumbob_read_*
 *   Chapter 5  Names and hashes        plumbob_fnv32/64, plumbob_clip_key_*
 *   Chapter 6  Small math              plumbob_sqrtf, plumbob_quat_*, plumbob_mat34_*
 *   Chapter 7  Format identification   plumbob_identify, plumbob_format_name
 *   Chapter 8  RefPack compression     plumbob_refpack_*
 *   Chapter 9  Packages (DBPF)         plumbob_package_*
 *   Chapter 10 Shared containers       plumbob_key_table_*, plumbob_sims2_rcol_*
 *   Chapter 11 Sims 3 CLIP             plumbob_clip_*
 *   Chapter 12 Sims 2 GMDC             plumbob_gmdc_*
 *   Chapter 13 Sims 2 ANIM             plumbob_anim_*
 *   Chapter 14 Sims 3 Jazz             plumbob_jazz_*
 *   Chapter 15 Skeletons               plumbob_skeleton_*
 *   Chapter 16 Sims 3 rigs             plumbob_rig_*
 *   Chapter 17 Sims 2 CRES             plumbob_cres_*
 *
 * Two surfaces.  Everything here is the stable surface a game or tool
 * builds on (names, signatures and result codes change only with the major
 * version), except the parts fenced by #ifndef PLUMBOB_STABLE_ONLY: the
 * general reader (Chapter 4), arena arithmetic, the Sims 2 block readers
 * and single-track clip sampling with its cursor.  Those serve plumbob's
 * own tools and tests, as lz4's static-linking-only section does, and may
 * change in any release.  Define PLUMBOB_STABLE_ONLY before including this
 * header to see only the stable surface (tests/stable/game_loop.c, a
 * game's playback loop, is built that way).  Struct fields marked
 * "(internal)" belong to the core: read them for debugging, never write.
 *
 * Promises, for every function in this header:
 *   - no heap, no globals, no hidden statics: all state lives in memory the
 *     caller hands in, so any number of threads may use the core at once on
 *     distinct objects;
 *   - every input is untrusted: nothing reads outside [data, data + size),
 *     nothing writes outside the caller's buffers, nothing loops without bound;
 *     objects the core hands back (a decoded clip, a binding, ...) are
 *     trusted when passed back in, so hot loops need no per-key checks, but
 *     every index the caller passes with one (a track, a key, a component)
 *     is checked against it, or the function says plainly what it does
 *     with one out of range;
 *   - every call that takes memory has a query for how much, by one rule
 *     (Chapter 3), and every job that cannot run says so with a result;
 *   - multi-byte values are assembled byte by byte, so results are identical
 *     on little- and big-endian, aligned and strict-alignment CPUs;
 *   - the only headers needed are <stddef.h> <stdint.h> <stdbool.h>; the only
 *     external symbols the compiled core may need are memcpy, memmove, memset,
 *     memcmp and the compiler's own helper routines.
 */
#ifndef PLUMBOB_H
#define PLUMBOB_H

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
 * new codes are only ever appended. */
typedef enum plumbob_result {
    PLUMBOB_OK = 0,
    PLUMBOB_ERR_TRUNCATED = 1,           /* input ends before the data it declares */
    PLUMBOB_ERR_BAD_MAGIC = 2,           /* signature bytes are not the expected ones */
    PLUMBOB_ERR_UNSUPPORTED_VERSION = 3, /* a version field we do not decode */
    PLUMBOB_ERR_BAD_OFFSET = 4,          /* an offset points outside its section */
    PLUMBOB_ERR_BAD_COUNT = 5,           /* a count is impossible for the bytes present */
    PLUMBOB_ERR_BAD_INDEX = 6,           /* an index or reference is out of range */
    PLUMBOB_ERR_OUT_OF_MEMORY = 7,       /* the caller's arena or output is too small */
    PLUMBOB_ERR_INVALID_ARGUMENT = 8,    /* NULL pointer, zero size, bad option */
    PLUMBOB_ERR_LIMIT_EXCEEDED = 9,      /* a caller-set limit (steps, actions) was hit */
    PLUMBOB_ERR_BAD_DATA = 10,           /* a value breaks a rule of the format */
    PLUMBOB_ERR_UNSUPPORTED = 11,        /* valid input using a feature not implemented */
    PLUMBOB_ERR_NOT_FOUND = 12,          /* a lookup matched nothing */
    PLUMBOB_ERR_UNREACHABLE = 13         /* no route over declared transitions */
} plumbob_result;

#define PLUMBOB_RESULT_COUNT 14

/* A short lowercase name for a result ("ok", "truncated", ...).  Never NULL;
 * unknown values give "unknown_result". */
PLUMBOB_API const char *plumbob_result_str(plumbob_result r);

/* Where a decode failed, for the decoders that offer an `_ex` variant taking
 * one (GMDC today; any format may adopt it).  The decoder fills it on its
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
 * or a failed allocation, never an overrun.  (docs/API.md lists the few
 * queries of other chapters still being brought under this rule.)
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

#ifndef PLUMBOB_STABLE_ONLY /* arena arithmetic, for tools and tests */
/* Adds b to *acc unless that overflows; on overflow sets *acc to SIZE_MAX and
 * returns false.  Query calls use it to sum arena needs safely; every added
 * term already counts worst-case alignment padding. */
PLUMBOB_API bool plumbob_size_add(size_t *acc, size_t b);

/* Worst-case arena bytes for one allocation of count * elem_size bytes at
 * PLUMBOB_ARENA_ALIGN (includes padding); SIZE_MAX on overflow. */
PLUMBOB_API size_t plumbob_arena_need(size_t count, size_t elem_size);

#endif /* PLUMBOB_STABLE_ONLY */

/* The same at compile time, for counts that cannot overflow. */
#define PLUMBOB_ARENA_NEED(count, elem_size) \
    ((size_t)(count) * (size_t)(elem_size) + (PLUMBOB_ARENA_ALIGN - 1u))

#ifndef PLUMBOB_STABLE_ONLY /* Chapter 4 is for tools and tests */
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

#endif /* PLUMBOB_STABLE_ONLY */

/* ===================================================================== */
/* Chapter 5  Names and hashes                                           */
/* ===================================================================== */

/* FNV-1 (multiply, then xor) over the ASCII-lowercased bytes of name[0..len).
 * Bytes outside A-Z are hashed as they are.  name may be NULL when len is 0. */
PLUMBOB_API uint32_t plumbob_fnv32(const char *name, size_t len);
PLUMBOB_API uint64_t plumbob_fnv64(const char *name, size_t len);
/* The same over a NUL-terminated string (NULL hashes as ""). */
PLUMBOB_API uint32_t plumbob_fnv32_str(const char *name);
PLUMBOB_API uint64_t plumbob_fnv64_str(const char *name);

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

/* ===================================================================== */
/* Chapter 6  Small math (no libm)                                       */
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
    PLUMBOB_FORMAT_SIMS2_RCOL = 6, /* any other Sims 2 RCOL (CRES, GMND, SHPE, ...) */
    PLUMBOB_FORMAT_REFPACK = 7,    /* a bare RefPack-compressed stream */
    PLUMBOB_FORMAT_RIG = 8         /* Sims 3 rig (0x8EAF13DE): plain, or Granny (refused) */
} plumbob_format;

/* Guesses what data[0..size) is from its first bytes.  Cheap and never
 * fails: anything unrecognised is PLUMBOB_FORMAT_UNKNOWN.  It does not
 * validate; decode to be sure. */
PLUMBOB_API plumbob_format plumbob_identify(const void *data, size_t size);

/* "dbpf", "clip", "jazz", "gmdc", "anim", "sims2-rcol", "refpack", "rig" or
 * "unknown". */
PLUMBOB_API const char *plumbob_format_name(plumbob_format f);

/* ===================================================================== */
/* Chapter 8  RefPack compression                                        */
/* ===================================================================== */

/* RefPack (also called QFS) is the LZ77 scheme of both games' packages.  A
 * stream is a header (flags byte, 0xFB, optional compressed size, then the
 * decompressed size, big-endian, 3 or 4 bytes) and a command stream. */

/* Reads a stream's header: the decompressed size and the header length.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers), PLUMBOB_ERR_TRUNCATED
 * (fewer bytes than the header needs), PLUMBOB_ERR_BAD_MAGIC (second byte not
 * 0xFB, or flags without 0x10 or with bits other than 0x80/0x40/0x10/0x01;
 * 0x40, a "restricted window" some encoders set, is read as without it). */
PLUMBOB_API plumbob_result plumbob_refpack_header(const void *src, size_t src_size,
                                                  size_t *decompressed_size, size_t *header_size);

/* Decompresses src[0..src_size) into dst[0..dst_cap).  Never reads outside
 * src, never writes outside dst[0..decompressed size).  On success *out_size
 * is the decompressed size; on error dst holds unspecified bytes.
 * Errors: those of plumbob_refpack_header; PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap
 * below the declared size); PLUMBOB_ERR_TRUNCATED (commands or literals run
 * past the input, or no stop command); PLUMBOB_ERR_BAD_OFFSET (a copy from
 * before the start of the output); PLUMBOB_ERR_BAD_COUNT (output longer or
 * shorter than declared). */
PLUMBOB_API plumbob_result plumbob_refpack_decompress(const void *src, size_t src_size, void *dst,
                                                      size_t dst_cap, size_t *out_size);

/* Largest compressed size of n input bytes (all literals, one command byte
 * per 112 of them, the longest header and the stop command); SIZE_MAX when
 * that does not fit size_t.  The macro is the same formula at compile time
 * (where it fits size_t: n up to 0x7FFFFFFF on 32-bit targets). */
PLUMBOB_API size_t plumbob_refpack_bound(size_t n);
#define PLUMBOB_REFPACK_BOUND(n) ((size_t)(n) + (size_t)(n) / 112u + 9u)

/* Work memory plumbob_refpack_compress needs, in bytes: always
 * PLUMBOB_REFPACK_COMPRESS_WORK_SIZE (hash-chain tables of 192 Ki u32,
 * plus 3 bytes to align them in memory of any alignment). */
PLUMBOB_API size_t plumbob_refpack_compress_work_size(void);
#define PLUMBOB_REFPACK_COMPRESS_WORK_SIZE ((size_t)(65536u + 131072u) * 4u + 3u)

/* Compresses src[0..src_size) into dst[0..dst_cap) with hash-chain matching
 * and one-step lazy evaluation, using `work` (at least
 * plumbob_refpack_compress_work_size() bytes, any alignment) as scratch.
 * Output decompresses with plumbob_refpack_decompress and with the games'.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers, work too small),
 * PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap too small: plumbob_refpack_bound always
 * suffices), PLUMBOB_ERR_LIMIT_EXCEEDED (src_size above 0xFFFFFFFF). */
PLUMBOB_API plumbob_result plumbob_refpack_compress(const void *src, size_t src_size, void *dst,
                                                    size_t dst_cap, void *work, size_t work_size,
                                                    size_t *out_size);

/* ===================================================================== */
/* Chapter 9  Packages (DBPF)                                            */
/* ===================================================================== */

/* A .package file: DBPF 2.0 (The Sims 3) or DBPF 1.x (The Sims 2).  Opening
 * one checks the header and every index entry against the file size, so
 * later calls cannot fail on bounds.  Nothing is copied: entries are decoded
 * from the caller's buffer on demand, which must outlive the package. */

#define PLUMBOB_COMPRESSION_NONE 0x0000u
#define PLUMBOB_COMPRESSION_REFPACK 0xFFFFu
#define PLUMBOB_COMPRESSION_ZLIB 0x5A42u    /* later games; rejected */
#define PLUMBOB_COMPRESSION_DELETED 0xFFE0u /* later games; rejected */

/* Resource types plumbob knows by name. */
#define PLUMBOB_TYPE_CLIP 0x6B20C4F3u
#define PLUMBOB_TYPE_JAZZ 0x02D5DF13u
#define PLUMBOB_TYPE_KEY 0x0166038Cu
#define PLUMBOB_TYPE_GMDC 0xAC4F8687u
#define PLUMBOB_TYPE_ANIM 0xFB00791Eu
#define PLUMBOB_TYPE_RIG 0x8EAF13DEu
#define PLUMBOB_TYPE_SIMS2_DIR 0xE86B1EEFu /* DBPF 1.x compression directory */

typedef struct plumbob_package_entry {
    uint32_t type;
    uint32_t group;
    uint64_t instance;     /* DBPF 1.x: instance-high << 32 | instance */
    uint32_t offset;       /* absolute offset of the stored bytes in the file */
    uint32_t file_size;    /* stored bytes (DBPF 2.0: with bit 31 cleared) */
    uint32_t mem_size;     /* bytes once decompressed */
    uint16_t compression;  /* PLUMBOB_COMPRESSION_* (DBPF 1.x: NONE or REFPACK) */
    uint16_t flags;        /* DBPF 2.0: the u16 after compression (1 = committed) */
} plumbob_package_entry;

/* Sorted lookup key, built in the arena by plumbob_package_sort. */
typedef struct plumbob_package_key {
    uint64_t instance;
    uint32_t type;
    uint32_t group;
    uint32_t index;
} plumbob_package_key;

typedef struct plumbob_package {
    const unsigned char *data;
    size_t size;
    uint32_t major, minor;      /* 2.0 Sims 3; 1.0 / 1.1 Sims 2 */
    uint32_t count;             /* index entries */
    uint32_t index_offset;
    uint32_t index_size;
    uint32_t entry_size;        /* bytes per index entry */
    uint32_t entries_offset;    /* first entry (after 2.0 flags and constants) */
    uint32_t index_flags;       /* 2.0: bit 0 type, 1 group, 2 instance-high constant */
    uint32_t const_type, const_group, const_instance_hi;
    uint32_t index_minor;       /* 1.x: 2 means 24-byte entries */
    /* 1.x compression directory (zero-copy view), 0 entries when absent;
     * records of 16 or 20 bytes, whichever the directory holds (see
     * docs/FORMATS.md), not always the index's own layout */
    uint32_t dir_offset, dir_count, dir_entry_size;
    /* Optional sorted view for binary search (plumbob_package_sort). */
    const plumbob_package_key *sorted;
} plumbob_package;

/* Opens a package held in data[0..size).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_TRUNCATED (shorter
 * than the 96-byte header), PLUMBOB_ERR_BAD_MAGIC (not "DBPF"),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (major not 1 or 2), PLUMBOB_ERR_BAD_OFFSET
 * (index, an entry's data or the directory outside the file),
 * PLUMBOB_ERR_BAD_COUNT (entry count does not fit the index size),
 * PLUMBOB_ERR_UNSUPPORTED (2.0 index flag bits above bit 2),
 * PLUMBOB_ERR_BAD_DATA (a 1.x package with two compression directories: they
 * would disagree about which entries are compressed). */
PLUMBOB_API plumbob_result plumbob_package_open(plumbob_package *pkg, const void *data, size_t size);

/* Entry i (0 <= i < count).  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_package_entry_at(const plumbob_package *pkg, uint32_t i,
                                                    plumbob_package_entry *out);

/* Arena bytes plumbob_package_sort needs for this package (SIZE_MAX for
 * NULL). */
PLUMBOB_API size_t plumbob_package_sort_arena_size(const plumbob_package *pkg);

/* Builds a sorted key view in the arena so plumbob_package_find is a binary
 * search (worth it above a few dozen entries; without it find is a linear
 * scan).  Errors: PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_package_sort(plumbob_package *pkg, plumbob_arena *arena);

/* Finds the first entry with this type, group and instance; *index_out (may
 * be NULL) receives its position.  Errors: PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_package_find(const plumbob_package *pkg, uint32_t type,
                                                uint32_t group, uint64_t instance,
                                                plumbob_package_entry *out, uint32_t *index_out);

/* The stored bytes of an entry (zero copy, possibly compressed). */
PLUMBOB_API const unsigned char *plumbob_package_raw(const plumbob_package *pkg,
                                                     const plumbob_package_entry *e);

/* The resource's bytes, decompressed into dst[0..dst_cap) when compressed.
 * For stored entries *out points into the package (zero copy) and dst is
 * not touched; for compressed ones *out == dst.  e->mem_size bytes suffice.
 * Errors: PLUMBOB_ERR_UNSUPPORTED (zlib or deleted entries, unknown
 * compression), PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap < mem_size), the errors of
 * plumbob_refpack_decompress, PLUMBOB_ERR_BAD_COUNT (decompressed size differs
 * from the index's memory size). */
/* Bytes of dst plumbob_package_read needs for this entry, checked before
 * anyone allocates them: 0 for stored entries (read in place), else the
 * decompressed size, once the RefPack header agrees with the index's
 * memory size and the stored bytes could expand that far (RefPack gives at
 * most 257 bytes per stored byte).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL), PLUMBOB_ERR_BAD_OFFSET, PLUMBOB_ERR_UNSUPPORTED (zlib, deleted or
 * unknown compression), PLUMBOB_ERR_TRUNCATED and PLUMBOB_ERR_BAD_MAGIC
 * (no RefPack header), PLUMBOB_ERR_BAD_COUNT (the header's size differs
 * from the index's, or is more than the stored bytes can hold). */
PLUMBOB_API plumbob_result plumbob_package_read_size(const plumbob_package *pkg,
                                                     const plumbob_package_entry *e, size_t *dst_bytes);

PLUMBOB_API plumbob_result plumbob_package_read(const plumbob_package *pkg,
                                                const plumbob_package_entry *e, void *dst,
                                                size_t dst_cap, const unsigned char **out,
                                                size_t *out_size);

/* --- Writing packages (for tools and tests) --- */

/* One resource to write.  `data` holds `size` stored bytes: when
 * compression is PLUMBOB_COMPRESSION_REFPACK they are a RefPack stream (make
 * one with plumbob_refpack_compress) and mem_size is its decompressed size;
 * when NONE, mem_size must equal size.  Major 2 also takes
 * PLUMBOB_COMPRESSION_ZLIB: the stored bytes of an existing entry (from
 * plumbob_package_raw), carried as they are, so that editing a package made
 * by s3pe keeps them (plumbob does not decompress zlib). */
typedef struct plumbob_package_write_entry {
    uint32_t type, group;
    uint64_t instance;
    const void *data;
    uint32_t size;
    uint32_t mem_size;
    uint16_t compression;
} plumbob_package_write_entry;

/* Bytes plumbob_package_write produces for these entries (SIZE_MAX when the
 * result would exceed 4 GiB).  major is 2 (Sims 3) or 1 (Sims 2, written as
 * 1.1 with 24-byte entries, plus a compression directory when any entry is
 * compressed; its compressed entries get the 4-byte size prefix). */
PLUMBOB_API size_t plumbob_package_write_size(const plumbob_package_write_entry *entries,
                                              uint32_t count, uint32_t major);

/* Writes a package: header, resource data in entry order, then the index.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, major not 1 or 2, NONE entry
 * with mem_size != size, unknown compression or zlib with major 1, an entry of type
 * PLUMBOB_TYPE_SIMS2_DIR with major 1: the writer builds that directory from
 * the entries' compression itself), PLUMBOB_ERR_OUT_OF_MEMORY
 * (out_cap too small), PLUMBOB_ERR_LIMIT_EXCEEDED (over 4 GiB). */
PLUMBOB_API plumbob_result plumbob_package_write(const plumbob_package_write_entry *entries,
                                                 uint32_t count, uint32_t major, void *out,
                                                 size_t out_cap, size_t *out_size);

/* ===================================================================== */
/* Chapter 10 Shared containers: KEY name tables, Sims 2 RCOL            */
/* ===================================================================== */

/* A string inside the caller's buffer: not NUL-terminated, never copied. */
typedef struct plumbob_string {
    const char *ptr;
    size_t len;
} plumbob_string;

/* Sims 3 KEY resource (PLUMBOB_TYPE_KEY): instance id -> name, as
 * u32 version, u32 count, then {u64 instance, u32 length, chars}. */
typedef struct plumbob_key_table {
    const unsigned char *data;
    size_t size;
    uint32_t version;
    uint32_t count;
} plumbob_key_table;

/* Validates every entry.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED (an entry runs past the end), PLUMBOB_ERR_BAD_COUNT
 * (more entries than bytes could hold). */
PLUMBOB_API plumbob_result plumbob_key_table_open(plumbob_key_table *kt, const void *data, size_t size);
/* The name of `instance` (first match, linear scan).  Errors: PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_key_table_find(const plumbob_key_table *kt, uint64_t instance,
                                                  plumbob_string *name);
/* Entry i in file order.  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_key_table_entry(const plumbob_key_table *kt, uint32_t i,
                                                   uint64_t *instance, plumbob_string *name);

#ifndef PLUMBOB_STABLE_ONLY /* the general reader's string helper */
/* Reads a string with a 7-bit-encoded length prefix (1 to 5 bytes, low
 * groups first), as Sims 2 resources store them.  Records
 * PLUMBOB_ERR_BAD_DATA in the reader for an over-long or padded
 * (non-canonical) prefix, so every accepted string re-encodes identically. */
PLUMBOB_API plumbob_string plumbob_read_string7(plumbob_reader *r);

#endif /* PLUMBOB_STABLE_ONLY */

/* Sims 2 RCOL ("scenegraph") wrapper around GMDC, ANIM, CRES, ... blocks. */
typedef struct plumbob_sims2_link {
    uint32_t group, instance, instance_hi, type;
} plumbob_sims2_link;

typedef struct plumbob_sims2_rcol {
    const unsigned char *data;
    size_t size;
    bool long_links;          /* 0xFFFF0001 form: 16-byte links with instance-high */
    uint32_t link_count;
    size_t links_offset;
    uint32_t block_count;
    size_t block_ids_offset;
    size_t first_block_offset; /* where block 0 starts (blocks have no size field) */
} plumbob_sims2_rcol;

/* Limits that keep a hostile header cheap to reject. */
#define PLUMBOB_SIMS2_MAX_LINKS 65536u
#define PLUMBOB_SIMS2_MAX_BLOCKS 4096u

/* Reads the link list and block id list.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_COUNT (no blocks, or counts above the
 * limits or beyond the bytes present). */
PLUMBOB_API plumbob_result plumbob_sims2_rcol_open(plumbob_sims2_rcol *rc, const void *data, size_t size);
/* Link i.  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_sims2_rcol_link(const plumbob_sims2_rcol *rc, uint32_t i,
                                                   plumbob_sims2_link *out);
/* Block id i (0 when out of range). */
PLUMBOB_API uint32_t plumbob_sims2_rcol_block_id(const plumbob_sims2_rcol *rc, uint32_t i);

/* The common head of every Sims 2 block: class name, block id, version,
 * then the cSGResource header with the resource's own name. */
typedef struct plumbob_sims2_block_head {
    plumbob_string class_name; /* "cGeometryDataContainer", "cAnimResourceConst", ... */
    uint32_t block_id;
    uint32_t version;
    plumbob_string sg_name;    /* "cSGResource" */
    uint32_t sg_id, sg_version;
    plumbob_string resource_name;
} plumbob_sims2_block_head;

#ifndef PLUMBOB_STABLE_ONLY /* takes the general reader */
/* Reads a block head at r's position and leaves r after it.  Errors (also
 * recorded in r): PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_MAGIC (the second
 * string is not "cSGResource"), PLUMBOB_ERR_BAD_DATA (bad string prefix). */
PLUMBOB_API plumbob_result plumbob_sims2_block_head_read(plumbob_reader *r,
                                                         plumbob_sims2_block_head *out);
#endif /* PLUMBOB_STABLE_ONLY */

/* ===================================================================== */
/* Chapter 11 Sims 3 CLIP animations (type 0x6B20C4F3)                   */
/* ===================================================================== */

/* A CLIP holds one animation for one actor: tracks of quantized keys (bone
 * rotations and translations, morph weights), the IK slot table and timed
 * events.  Decoding builds small tables in the arena; key data stays in the
 * caller's buffer (zero copy), which must outlive the clip. */

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
 * PLUMBOB_ERR_BAD_DATA (ticks out of order, frame duration not positive,
 * a palette index out of range, a bad event or slot header),
 * PLUMBOB_ERR_UNSUPPORTED (keys of an unknown data type),
 * PLUMBOB_ERR_OUT_OF_MEMORY (arena too small: see plumbob_clip_measure). */
PLUMBOB_API plumbob_result plumbob_clip_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_clip *clip);

/* --- Playback: what a game uses ---------------------------------------
 * decode -> plumbob_clip_bind (to a rig's bone hashes) ->
 * plumbob_clip_schedule_build (once per clip) -> plumbob_clip_sampler_init
 * (once per playing instance) -> plumbob_clip_sampler_sample every frame,
 * between plumbob_skeleton_rest_pose and plumbob_skeleton_model (Chapter
 * 15).  docs/ARCHITECTURE.md walks the whole path with its memory. */

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
} plumbob_clip_binding;

/* Local transform of one bone, parent-relative, in the game's Y-up space. */
typedef struct plumbob_bone_pose {
    plumbob_quat rotation;
    plumbob_vec3 translation;
    plumbob_vec3 scale;
} plumbob_bone_pose;

/* Arena bytes plumbob_clip_bind needs: PLUMBOB_CLIP_BIND_SIZE(track_count)
 * (8 per track); SIZE_MAX for NULL. */
PLUMBOB_API size_t plumbob_clip_bind_size(const plumbob_clip *clip);
#define PLUMBOB_CLIP_BIND_SIZE(tracks) (2u * PLUMBOB_ARENA_NEED((tracks), sizeof(int32_t)))

/* Maps tracks to the caller's bones (by bone-name hash) and morphs (by
 * morph hash), and records `clip` in the binding.  Tracks whose hash is not
 * listed are skipped when sampling; the first match wins.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL clip, arena or binding; NULL hashes
 * with a count), PLUMBOB_ERR_OUT_OF_MEMORY (see plumbob_clip_bind_size). */
PLUMBOB_API plumbob_result plumbob_clip_bind(const plumbob_clip *clip, const uint32_t *bone_hashes,
                                             uint32_t bone_count, const uint32_t *morph_hashes,
                                             uint32_t morph_count, plumbob_arena *arena,
                                             plumbob_clip_binding *binding);


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
 * morph_weights[morph slot], as plumbob_clip_sample_pose does.  Either may
 * be NULL to skip that kind; otherwise they hold the bone_count and
 * morph_count entries given to plumbob_clip_bind (slots index those
 * lists).  Any time is defined: NaN plays the first key, times before the
 * first key or after the last (the infinities too) hold it.  When two
 * tracks drive the same value, 12-bit rotation and 10-bit translation
 * tracks are written before the others.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, or a sampler plumbob_clip_sampler_init
 * did not make); nothing is written then. */
PLUMBOB_API plumbob_result plumbob_clip_sampler_sample(plumbob_clip_sampler *sampler, float seconds,
                                                       plumbob_bone_pose *poses, float *morph_weights);

#ifndef PLUMBOB_STABLE_ONLY /* single-track sampling and the cursor */
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

#endif /* PLUMBOB_STABLE_ONLY */

/* --- Duration and events --------------------------------------------- */

/* Length in seconds: tick_count * frame_duration. */
PLUMBOB_API float plumbob_clip_duration(const plumbob_clip *clip);

/* Bytes of the type-specific payload after an event's name: attach 80,
 * unparent 4, sound 128, script 0, effect 24, visibility 4, destroy prop 4,
 * stop effect 8; -1 for a type plumbob does not know (the writer refuses
 * those, as it cannot lay them out). */
PLUMBOB_API int32_t plumbob_clip_event_payload_size(uint16_t type);

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
 * the half range (1 when every value is equal). */
PLUMBOB_API void plumbob_clip_fit_range(const float *values, uint32_t count, uint32_t components,
                                        float *offset, float *scale);

/* ===================================================================== */
/* Chapter 12 Sims 2 GMDC meshes (block 0xAC4F8687 in a Sims 2 RCOL)     */
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
 * string prefix), PLUMBOB_ERR_OUT_OF_MEMORY. */
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

/* --- Skinning --- */

/* The skinning palette: palette[j] = joint_model[j] * inverse_bind[j] for
 * each of the mesh's joints, where inverse_bind comes from the joint table
 * (rotation, then translation).  joint_model NULL means the bind pose
 * (every palette entry is then the identity).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT. */
PLUMBOB_API plumbob_result plumbob_gmdc_palette(const plumbob_gmdc *gmdc,
                                                const plumbob_mat34 *joint_model,
                                                plumbob_mat34 *palette);

/* Everything plumbob_gmdc_skin needs for one group. */
typedef struct plumbob_gmdc_skin_job {
    const plumbob_gmdc *gmdc;
    uint32_t group;                 /* which group's linkage to skin */
    const plumbob_mat34 *palette;   /* joint_count entries (plumbob_gmdc_palette) */
    const float *morph_weights;     /* morph_count weights by pair index, or NULL */
    float *positions;               /* out: x y z per vertex, at positions + i * stride */
    size_t position_stride;         /* in floats (3 for packed) */
    float *normals;                 /* out, or NULL to skip normals */
    size_t normal_stride;           /* in floats */
    uint32_t flags;                 /* 0, PLUMBOB_SKIN_REFERENCE, PLUMBOB_SKIN_UNNORMALIZED */
    uint32_t first_vertex;          /* the range to skin: first_vertex .. */
    uint32_t vertex_count;          /* .. + vertex_count (0: to the linkage's end) */
    void *work;                     /* PLUMBOB_GMDC_SKIN_WORK_SIZE bytes of scratch, any
                                       alignment; one per thread skinning at once */
} plumbob_gmdc_skin_job;

/* Scratch bytes a skin job needs (job.work): the group's slot matrices
 * (256 x 128 bytes: each as rows and as columns, for the two shapes of
 * kernel; aligned inside to 64 bytes for SIMD loads), the slot bytes'
 * offsets into them (512) and staging for morphed or sparse vertices:
 * 35,904 bytes.  Caller memory, so skinning needs no large stack. */
#define PLUMBOB_GMDC_SKIN_WORK_SIZE (256u * 128u + 512u + 64u * 40u + 64u)

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
 * The blend is of matrices (C = sum w_k palette[slot_k]; p' = C p), done by
 * the port's kernel (ports/kernels.h); every port gives the same bits.
 * Stack: a few hundred bytes (docs/API.md's table); the large tables live in
 * job->work.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers or work, group out
 * of range, stride below 3, a vertex range past the linkage's end, flags
 * other than the two above),
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
 * points, subsets in joint order, at positions + i * stride.  Subsets
 * beyond the joint table pass through.  The model-space bounding mesh
 * (gmdc->bounding) needs no posing.  palette NULL is allowed only when the
 * mesh has no joints.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT. */
PLUMBOB_API plumbob_result plumbob_gmdc_skin_subsets(const plumbob_gmdc *gmdc,
                                                     const plumbob_mat34 *palette,
                                                     float *positions, size_t stride);


/* ===================================================================== */
/* Chapter 13 Sims 2 ANIM animations (block 0xFB00791E in a Sims 2 RCOL) */
/* ===================================================================== */

/* Channel flag fields (NOTES.md): duration ticks, animated attribute, value
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
 * out of order), PLUMBOB_ERR_BAD_INDEX
 * (IK target naming a missing chain), PLUMBOB_ERR_UNSUPPORTED (fixed-point
 * choice 2, which no known file uses), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_anim_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_anim *anim);

/* Key k of component c.  Out of range (anim NULL, c >= component_count,
 * k >= the component's key_count) it reads nothing and returns the zero
 * key {0, 0, 0, 0}: check the counts first when that matters. */
PLUMBOB_API plumbob_anim_key plumbob_anim_key_at(const plumbob_anim *anim, uint32_t c, uint32_t k);

/* Component c at `ticks`: baked keys linear between their evenly spaced
 * times, continuous and discontinuous keys cubic Hermite with the stored
 * tangents; held outside the keys.  Components of rotation channels are
 * angles in degrees and interpolate the shorter way round.  Any time is
 * defined: NaN plays the first key, the infinities hold the end keys.  0
 * when c is out of range or has no keys. */
PLUMBOB_API float plumbob_anim_sample_component(const plumbob_anim *anim, uint32_t c, float ticks);

/* Channel ch at `ticks`: out[0..components-1] raw component values;
 * returns the component count (0 for a bad index).  For rotation channels
 * of Euler type, *rotation (if not NULL) gets the unit quaternion of the
 * angles (degrees, applied X then Y then Z: q = qz * qy * qx). */
PLUMBOB_API uint32_t plumbob_anim_sample_channel(const plumbob_anim *anim, uint32_t ch, float ticks,
                                                 float out[8], plumbob_quat *rotation);

/* Euler angles in degrees (X first, then Y, then Z) to a unit quaternion. */
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
/* Chapter 14 Sims 3 Jazz state machines (type 0x02D5DF13)               */
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
 * matching the tag), PLUMBOB_ERR_UNSUPPORTED_VERSION (RCOL or chunk version
 * plumbob does not know), PLUMBOB_ERR_BAD_OFFSET (a chunk not where the
 * table's layout puts it), PLUMBOB_ERR_BAD_COUNT (negative or impossible
 * counts, more than PLUMBOB_JAZZ_MAX_CHUNKS chunks), PLUMBOB_ERR_BAD_INDEX (a
 * reference out of range, of the wrong kind, or null where one is needed),
 * PLUMBOB_ERR_BAD_DATA (fillers, padding, chunk size not matching its
 * contents, bytes after the last chunk), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_jazz_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_jazz *jazz);

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

/* ===================================================================== */
/* Chapter 15 Skeletons: rest pose and model space                        */
/* ===================================================================== */

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

/* Rest-pose fill: copies the rest transforms of bones [first, first + count)
 * into poses[first ...].  Run it before sampling a clip into the same poses:
 * samplers write only what a clip animates, so every bone and channel the
 * clip leaves alone keeps its rest value.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT (NULL, or a range past bone_count). */
PLUMBOB_API plumbob_result plumbob_skeleton_rest_pose(const plumbob_skeleton *skeleton, uint32_t first,
                                                      uint32_t count, plumbob_bone_pose *poses);

/* Local -> model: model[i] = model[parent[i]] * T(translation) * R(rotation)
 * * S(scale) of local[i] (roots: the local transform alone), as 3x4
 * matrices ready for a skinning palette.  local NULL means the rest pose.
 * Rotations are used as given (normalize them first if they may not be
 * unit; sampler output always is).  Parents are read from model[], so
 * model must not alias local.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL
 * skeleton or model), PLUMBOB_ERR_BAD_INDEX (parents out of order, as
 * plumbob_skeleton_validate). */
PLUMBOB_API plumbob_result plumbob_skeleton_model(const plumbob_skeleton *skeleton,
                                                  const plumbob_bone_pose *local, plumbob_mat34 *model);

/* One bone's local transform as a matrix: T(translation) * R(rotation) *
 * S(scale). */
PLUMBOB_API plumbob_mat34 plumbob_mat34_from_pose(const plumbob_bone_pose *pose);

/* ===================================================================== */
/* Chapter 16 Sims 3 rigs (type 0x8EAF13DE)                              */
/* ===================================================================== */

/* A rig is the skeleton a Sims 3 clip animates: per bone a parent-relative
 * rest transform, a name and its FNV-32 hash (what clip tracks carry), the
 * mirror bone and flags; then the skeleton's name and, in version 4, the
 * IK chains.  plumbob reads the plain format of versions 3 and 4 (minor 1
 * or 2; layout in docs/FORMATS.md) and refuses the older Granny 2 rigs
 * (raw, or in their 0x8EAF13DE wrapper) with PLUMBOB_ERR_UNSUPPORTED.
 * Decoding also builds `skeleton`, a plumbob_skeleton view (Chapter 15) in
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
 * wrapped), PLUMBOB_ERR_UNSUPPORTED_VERSION (major not 3 or 4, minor not 1
 * or 2), PLUMBOB_ERR_BAD_COUNT (more bones or chains than the limits or
 * the bytes allow), PLUMBOB_ERR_BAD_INDEX (a parent or chain index out of
 * range, a bone its own parent, a parent cycle), PLUMBOB_ERR_BAD_DATA
 * (bytes after the last chain), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_rig_decode(const void *data, size_t size, plumbob_arena *arena,
                                              plumbob_rig *rig);

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

/* ===================================================================== */
/* Chapter 17 Sims 2 CRES resource nodes (type 0xE519C933)               */
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

#define PLUMBOB_TYPE_CRES 0xE519C933u

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
 * block), PLUMBOB_ERR_UNSUPPORTED (a block of unknown kind before the
 * last), PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_cres_decode(const void *data, size_t size, plumbob_arena *arena,
                                               plumbob_cres *cres);

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
 * squared length is normalized, a zero or non-finite one is the identity).  Parents follow child references, starting at
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
 * it).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_OUT_OF_MEMORY. */
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

#endif /* PLUMBOB_H */
