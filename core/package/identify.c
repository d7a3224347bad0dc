/* Format sniffing from the first bytes: cheap, never fails, never trusted. */
#include "plumbob/package.h"
#include "plumbob/sims3.h" /* PLUMBOB_RIG_MAX_BONES (docs/ARCHITECTURE.md: an exception) */
#include "pb_bytes.h"

#define TYPE_CLIP 0x6B20C4F3u
#define TYPE_JAZZ 0x02D5DF13u
#define BLOCK_GMDC 0xAC4F8687u
#define BLOCK_ANIM 0xFB00791Eu
#define BLOCK_CRES 0xE519C933u /* cResourceNode */

/* A plain Sims 3 rig: version 3 or 4, minor 1 or 2, a bone count within the
 * decoder's limit and, when the bytes reach it, a first bone name shorter
 * than 256 bytes (a cut rig is still named a rig, so check says why).  Or a Granny 2 rig:
 * the 0x8EAF13DE wrapper, or a little-endian Granny signature's first bytes. */
/* A Sims 3 RCOL (version 3) whose first internal chunk, found through the
 * chunk table after the keys, starts with "GEOM" (real files' keys are all
 * zero, so the type cannot be read from them). */
static bool looks_like_geom(const unsigned char *p, size_t n) {
    uint32_t internal, external;
    size_t table, at;
    if (n < 24 || pb_le32(p) != 3) return false;
    external = pb_le32(p + 12);
    internal = pb_le32(p + 16);
    if (internal == 0 || internal > 4096u || external > 4096u) return false;
    table = 20u + 16u * ((size_t)internal + external);
    if (table + 8u > n) return false;
    at = pb_le32(p + table);
    return at <= n - 4u && p[at] == 'G' && p[at + 1] == 'E' && p[at + 2] == 'O' && p[at + 3] == 'M';
}

/* A KEY table: version 1, then its count of {u64, u32 length, chars}
 * entries ending exactly at the end (a Sims 2 RCOL of one link starts with
 * 1 too, but its bytes do not walk that way). */
static bool looks_like_key(const unsigned char *p, size_t n) {
    uint32_t count, i;
    size_t at = 8;
    if (n < 8 || pb_le32(p) != PLUMBOB_KEY_TABLE_VERSION) return false;
    count = pb_le32(p + 4);
    if (count > (n - 8u) / 12u) return false;
    for (i = 0; i < count; i++) {
        uint32_t len;
        if (n - at < 12u) return false;
        len = pb_le32(p + at + 8);
        at += 12u;
        if (len > n - at) return false;
        at += len;
    }
    return at == n;
}

static bool looks_like_rig(const unsigned char *p, size_t n) {
    uint32_t major, minor, bones;
    if (n >= 8 && pb_le32(p) == PLUMBOB_TYPE_RIG && pb_le32(p + 4) == 0) return true;
    if (n >= 16 && ((p[0] == 0xB8 && p[1] == 0x67 && p[2] == 0xB0 && p[3] == 0xCA) ||
                    (p[0] == 0x29 && p[1] == 0xDE && p[2] == 0x6C && p[3] == 0xC0) ||
                    (p[0] == 0xE5 && p[1] == 0x9B && p[2] == 0x49 && p[3] == 0x5E)))
        return true;
    if (n < 12) return false;
    major = pb_le32(p);
    minor = pb_le32(p + 4);
    bones = pb_le32(p + 8);
    if ((major != 3 && major != 4) || (minor != 1 && minor != 2) || bones > PLUMBOB_RIG_MAX_BONES) return false;
    return bones == 0 || n < 56 || pb_le32(p + 52) < 256u;
}

/* Sims 2 RCOL: the first block id, or 0 when the bytes are not that shape. */
static uint32_t sims2_rcol_first_block(const unsigned char *p, size_t n) {
    plumbob_sims2_rcol rc;
    if (plumbob_sims2_rcol_open(&rc, p, n) != PLUMBOB_OK) return 0;
    return plumbob_sims2_rcol_block_id(&rc, 0);
}

plumbob_format plumbob_identify(const void *data, size_t size) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t block;
    if (!p || size < 2) return PLUMBOB_FORMAT_UNKNOWN;
    if (size >= 4 && p[0] == 'D' && p[1] == 'B' && p[2] == 'P' && p[3] == 'F')
        return PLUMBOB_FORMAT_DBPF;
    if (size >= 4 && pb_le32(p) == TYPE_CLIP) return PLUMBOB_FORMAT_CLIP;
    if (size >= 4 && p[0] == 'T' && p[1] == 'k' && p[2] == 'M' && p[3] == 'k') return PLUMBOB_FORMAT_TRACK_MASK;
    if (size >= 36 && pb_le32(p) == 3 && pb_le32(p + 28) == TYPE_JAZZ) return PLUMBOB_FORMAT_JAZZ;
    if (looks_like_geom(p, size)) return PLUMBOB_FORMAT_GEOM;
    if (looks_like_rig(p, size)) return PLUMBOB_FORMAT_RIG;
    if (looks_like_key(p, size)) return PLUMBOB_FORMAT_KEY;
    block = sims2_rcol_first_block(p, size);
    if (block == BLOCK_GMDC) return PLUMBOB_FORMAT_GMDC;
    if (block == BLOCK_ANIM) return PLUMBOB_FORMAT_ANIM;
    if (block == BLOCK_CRES) return PLUMBOB_FORMAT_CRES;
    if (block != 0) return PLUMBOB_FORMAT_SIMS2_RCOL;
    if ((p[0] & 0x3Eu) == 0x10u && p[1] == 0xFBu) return PLUMBOB_FORMAT_REFPACK;
    return PLUMBOB_FORMAT_UNKNOWN;
}

const char *plumbob_format_name(plumbob_format f) {
    switch (f) {
    case PLUMBOB_FORMAT_DBPF: return "dbpf";
    case PLUMBOB_FORMAT_CLIP: return "clip";
    case PLUMBOB_FORMAT_JAZZ: return "jazz";
    case PLUMBOB_FORMAT_GMDC: return "gmdc";
    case PLUMBOB_FORMAT_ANIM: return "anim";
    case PLUMBOB_FORMAT_SIMS2_RCOL: return "sims2-rcol";
    case PLUMBOB_FORMAT_REFPACK: return "refpack";
    case PLUMBOB_FORMAT_RIG: return "rig";
    case PLUMBOB_FORMAT_CRES: return "cres";
    case PLUMBOB_FORMAT_GEOM: return "geom";
    case PLUMBOB_FORMAT_KEY: return "key";
    case PLUMBOB_FORMAT_TRACK_MASK: return "track-mask";
    case PLUMBOB_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}
