/* RefPack compression: hash-chain match finding with one-step lazy
 * evaluation, in caller-supplied work memory (no allocation).
 * The three copy commands reach different offsets and lengths:
 *   2 bytes: len 3..10,   off <= 1024
 *   3 bytes: len 4..67,   off <= 16384
 *   4 bytes: len 5..1028, off <= 131072
 * so a match is only usable when its length reaches the minimum for its
 * offset; among usable matches the longest (then nearest) wins. */
#include "plumbob/package.h"

#define RP_WINDOW 131072u
#define RP_MAX_LEN 1028u
#define RP_HASH_BITS 16
#define RP_HASH_SIZE (1u << RP_HASH_BITS)
#define RP_MAX_CHAIN 192
#define RP_NONE 0xFFFFFFFFu

size_t plumbob_refpack_bound(size_t n) {
    /* header (at most 2 + 4) + every byte as a literal (one command byte per
     * 112) + stop command; saturates instead of wrapping */
    size_t extra = 8u + n / 112u + 1u;
    return n > SIZE_MAX - extra ? SIZE_MAX : n + extra;
}

/* The header publishes the work size as a constant: the tables below,
 * plus 3 bytes to align them to 4 in memory of any alignment. */
typedef char pb_work_size_published[PLUMBOB_REFPACK_COMPRESS_WORK_SIZE ==
                                            (RP_HASH_SIZE + RP_WINDOW) * sizeof(uint32_t) + sizeof(uint32_t) - 1u
                                        ? 1
                                        : -1];

size_t plumbob_refpack_compress_work_size(void) {
    return PLUMBOB_REFPACK_COMPRESS_WORK_SIZE;
}

typedef struct rp_out {
    unsigned char *p, *end;
    int full;
} rp_out;

static void put(rp_out *o, unsigned v) {
    if (o->p < o->end) *o->p++ = (unsigned char)v;
    else o->full = 1;
}

static void put_bytes(rp_out *o, const unsigned char *s, size_t n) {
    size_t i;
    if ((size_t)(o->end - o->p) < n) {
        o->full = 1;
        return;
    }
    for (i = 0; i < n; i++) o->p[i] = s[i];
    o->p += n;
}

/* Emits literal runs until fewer than 4 literals remain; returns the rest. */
static size_t flush_literals(rp_out *o, const unsigned char *lit, size_t n) {
    while (n >= 4) {
        size_t run = n & ~(size_t)3;
        if (run > 112) run = 112;
        put(o, 0xE0u | (unsigned)((run - 4u) >> 2));
        put_bytes(o, lit, run);
        lit += run;
        n -= run;
    }
    return n;
}

static size_t min_len_for(size_t off) {
    return off <= 1024u ? 3u : off <= 16384u ? 4u : 5u;
}

/* Emits pending literals and one copy command (len usable at off). */
static void emit_match(rp_out *o, const unsigned char *lit, size_t nlit, size_t len, size_t off) {
    size_t rest = flush_literals(o, lit, nlit);
    unsigned l = (unsigned)rest;
    size_t d = off - 1u;
    lit += nlit - rest;
    if (off <= 1024u && len <= 10u) {
        put(o, (unsigned)((d >> 3) & 0x60u) | (unsigned)((len - 3u) << 2) | l);
        put(o, (unsigned)(d & 0xFFu));
    } else if (off <= 16384u && len <= 67u) {
        put(o, 0x80u | (unsigned)(len - 4u));
        put(o, (l << 6) | (unsigned)(d >> 8));
        put(o, (unsigned)(d & 0xFFu));
    } else {
        size_t m = len - 5u;
        put(o, 0xC0u | (unsigned)(((d >> 16) & 1u) << 4) | (unsigned)(((m >> 8) & 3u) << 2) | l);
        put(o, (unsigned)((d >> 8) & 0xFFu));
        put(o, (unsigned)(d & 0xFFu));
        put(o, (unsigned)(m & 0xFFu));
    }
    put_bytes(o, lit, rest);
}

static uint32_t hash3(const unsigned char *p) {
    uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    return (v * 2654435761u) >> (32 - RP_HASH_BITS);
}

typedef struct rp_state {
    const unsigned char *src;
    size_t n;
    uint32_t *head, *prev;
} rp_state;

static void insert(rp_state *s, size_t i) {
    uint32_t h;
    if (i + 3u > s->n) return;
    h = hash3(s->src + i);
    s->prev[i & (RP_WINDOW - 1u)] = s->head[h];
    s->head[h] = (uint32_t)i;
}

/* Longest usable match at i among earlier positions (not inserting i). */
static size_t find_match(const rp_state *s, size_t i, size_t *off_out) {
    const unsigned char *src = s->src, *cur = src + i;
    size_t best = 0, best_off = 0, max_len = s->n - i;
    uint32_t cand;
    int depth = RP_MAX_CHAIN;
    if (max_len > RP_MAX_LEN) max_len = RP_MAX_LEN;
    if (max_len < 3u) return 0;
    cand = s->head[hash3(cur)];
    while (cand != RP_NONE && depth-- > 0) {
        size_t off = i - cand, len;
        if (off > RP_WINDOW || off == 0) break;
        if (cur[best] == src[cand + best] || best == 0) {
            const unsigned char *m = src + cand;
            for (len = 0; len < max_len && m[len] == cur[len]; len++) {}
            if (len >= min_len_for(off) && len > best) {
                best = len;
                best_off = off;
                if (len == max_len) break;
            }
        }
        {
            /* Chains run strictly backwards; a slot overwritten by a newer
             * position (window wrap) ends the walk. */
            uint32_t next = s->prev[cand & (RP_WINDOW - 1u)];
            if (next == RP_NONE || next >= cand) break;
            cand = next;
        }
    }
    *off_out = best_off;
    return best;
}

plumbob_result plumbob_refpack_compress(const void *src_v, size_t src_size, void *dst,
                                        size_t dst_cap, void *work, size_t work_size,
                                        size_t *out_size) {
    const unsigned char *src = (const unsigned char *)src_v;
    unsigned char *w;
    rp_state s;
    rp_out o;
    size_t i = 0, lit_start = 0, k;
    if ((!src && src_size) || !dst || !work || !out_size) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (work_size < plumbob_refpack_compress_work_size()) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (src_size > 0xFFFFFFFFu) return PLUMBOB_ERR_LIMIT_EXCEEDED;
    *out_size = 0;
    w = (unsigned char *)work;
    w += (4u - ((uintptr_t)w & 3u)) & 3u; /* the tables are u32: align inside the work area */
    s.src = src;
    s.n = src_size;
    s.head = (uint32_t *)(void *)w;
    s.prev = s.head + RP_HASH_SIZE;
    for (k = 0; k < RP_HASH_SIZE; k++) s.head[k] = RP_NONE;

    o.p = (unsigned char *)dst;
    o.end = o.p + dst_cap;
    o.full = 0;
    if (src_size > 0xFFFFFFu) {
        put(&o, 0x90u);
        put(&o, 0xFBu);
        put(&o, (unsigned)(src_size >> 24));
    } else {
        put(&o, 0x10u);
        put(&o, 0xFBu);
    }
    put(&o, (unsigned)((src_size >> 16) & 0xFFu));
    put(&o, (unsigned)((src_size >> 8) & 0xFFu));
    put(&o, (unsigned)(src_size & 0xFFu));

    while (i < src_size && !o.full) {
        size_t off, len = find_match(&s, i, &off);
        if (len) {
            /* Lazy step: a longer match one byte later is worth a literal. */
            size_t off2, len2;
            insert(&s, i);
            len2 = find_match(&s, i + 1u, &off2);
            if (len2 > len + 1u) {
                i++;
                len = len2;
                off = off2;
            } else {
                /* i is already inserted; insert the rest of the match below */
                emit_match(&o, src + lit_start, i - lit_start, len, off);
                for (k = 1; k < len; k++) insert(&s, i + k);
                i += len;
                lit_start = i;
                continue;
            }
            emit_match(&o, src + lit_start, i - lit_start, len, off);
            for (k = 0; k < len; k++) insert(&s, i + k);
            i += len;
            lit_start = i;
        } else {
            insert(&s, i);
            i++;
        }
    }
    {
        size_t rest = flush_literals(&o, src + lit_start, src_size - lit_start);
        put(&o, 0xFCu | (unsigned)rest);
        put_bytes(&o, src + src_size - rest, rest);
    }
    if (o.full) return PLUMBOB_ERR_OUT_OF_MEMORY;
    *out_size = (size_t)(o.p - (unsigned char *)dst);
    return PLUMBOB_OK;
}
