/* Track masks (type 0x033260E3, "TkMk"): no real one is in the corpus, so
 * masks built with our writer, both versions: decode -> write gives the
 * bytes back; every prefix is refused as truncated, located; every bit
 * flip is refused with a code or decodes to something that writes back to
 * the flipped bytes. */
#include <string.h>
#include "test.h"

static size_t tm_build(uint32_t version, uint32_t count, unsigned char *out, size_t cap) {
    plumbob_track_mask m;
    float w[64];
    size_t n = 0;
    uint32_t i;
    memset(&m, 0, sizeof m);
    m.version = version;
    for (i = 0; i < 48u; i++) m.header[i] = (unsigned char)(version == 0x201u && i < 16u ? 0xA0u + i : 0u);
    m.facial_weight = 0.75f;
    for (i = 0; i < count; i++) w[i] = i % 3u == 0 ? 0.0f : (i % 3u == 1 ? 1.0f : 0.5f);
    CHECK_OK(plumbob_track_mask_write(&m, w, count, out, cap, &n));
    CHECK_EQ(n, plumbob_track_mask_write_size(count));
    return n;
}

void test_track_mask_round_trip(void) {
    static unsigned char a[400], b[400];
    static float w[64];
    uint32_t v;
    for (v = 0x200u; v <= 0x201u; v++) {
        size_t n = tm_build(v, 57, a, sizeof a), m = 0;
        plumbob_track_mask mask;
        plumbob_error err;
        CHECK_EQ(n, 60 + 4 * 57);
        CHECK_EQ(plumbob_identify(a, n), PLUMBOB_FORMAT_TRACK_MASK); /* by its magic, whole or cut */
        CHECK_EQ(plumbob_identify(a, 4), PLUMBOB_FORMAT_TRACK_MASK);
        CHECK(plumbob_identify(a, 3) != PLUMBOB_FORMAT_TRACK_MASK);
        CHECK_OK(plumbob_track_mask_decode_ex(a, n, &mask, &err));
        CHECK_EQ(mask.version, v);
        CHECK_EQ(mask.weight_count, 57);
        CHECK_NEAR(mask.facial_weight, v == 0x201u ? 0.75 : 0.0, 0);
        CHECK_EQ(plumbob_track_mask_weights(&mask, w, 56), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_OK(plumbob_track_mask_weights(&mask, w, 64));
        CHECK_NEAR(w[1], 1.0, 0);
        CHECK_NEAR(w[2], 0.5, 0);
        CHECK_OK(plumbob_track_mask_write(&mask, w, mask.weight_count, b, sizeof b, &m));
        CHECK(m == n && memcmp(a, b, n) == 0);
        t_digest_bytes(a, n);
        CHECK_EQ(plumbob_track_mask_write(&mask, w, mask.weight_count, b, n - 1, &m), PLUMBOB_ERR_OUT_OF_MEMORY);
    }
}

void test_track_mask_errors(void) {
    static unsigned char a[400], c[400];
    plumbob_track_mask mask;
    plumbob_error err;
    size_t n = tm_build(0x201u, 20, a, sizeof a), k;
    uint32_t bit;
    for (k = 0; k < n; k++) { /* every prefix: truncated, located inside it */
        CHECK_EQ(plumbob_track_mask_decode_ex(a, k, &mask, &err), PLUMBOB_ERR_TRUNCATED);
        CHECK(err.result == PLUMBOB_ERR_TRUNCATED && err.offset <= k);
        t_digest_u32((uint32_t)err.offset);
    }
    memcpy(c, a, n);
    c[n] = 0;
    CHECK_EQ(plumbob_track_mask_decode_ex(c, n + 1, &mask, &err), PLUMBOB_ERR_BAD_DATA);
    CHECK_EQ(err.offset, n);
    c[56] = 0xFF; c[57] = 0xFF; c[58] = 0xFF; c[59] = 0xFF; /* count -1 */
    CHECK_EQ(plumbob_track_mask_decode_ex(c, n, &mask, &err), PLUMBOB_ERR_BAD_COUNT);
    CHECK_EQ(err.offset, 56);
    memcpy(c, a, n);
    c[1] = 'K';
    CHECK_EQ(plumbob_track_mask_decode(c, n, &mask), PLUMBOB_ERR_BAD_MAGIC);
    memcpy(c, a, n);
    c[4] = 0x02;
    CHECK_EQ(plumbob_track_mask_decode(c, n, &mask), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    CHECK_EQ(plumbob_track_mask_decode(NULL, 4, &mask), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_track_mask_decode(a, n, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    mask.version = 0x202u;
    CHECK_EQ(plumbob_track_mask_write(&mask, NULL, 0, c, sizeof c, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    for (bit = 0; bit < 8u * n; bit++) { /* every bit flip: a code, or a mask that writes back the same bytes */
        static float w[64];
        plumbob_result r;
        size_t m = 0;
        memcpy(c, a, n);
        c[bit / 8u] ^= (unsigned char)(1u << (bit % 8u));
        r = plumbob_track_mask_decode_ex(c, n, &mask, &err);
        CHECK_EQ(err.result, r);
        t_digest_u32((uint32_t)r);
        if (r != PLUMBOB_OK) continue;
        CHECK_OK(plumbob_track_mask_weights(&mask, w, 64));
        CHECK_OK(plumbob_track_mask_write(&mask, w, mask.weight_count, c + 200, 200, &m));
        CHECK(m == n && memcmp(c, c + 200, n) == 0);
    }
}
