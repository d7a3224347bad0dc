/* Result names and the version number. */
#include <string.h>
#include "test.h"

void test_result_names(void) {
    static const char *const want[PLUMBOB_RESULT_COUNT] = {
        "ok", "truncated", "bad_magic", "unsupported_version", "bad_offset", "bad_count",
        "bad_index", "out_of_memory", "invalid_argument", "limit_exceeded", "bad_data",
        "unsupported", "not_found", "unreachable", "output_too_small"};
    int i;
    for (i = 0; i < PLUMBOB_RESULT_COUNT; i++) {
        CHECK(strcmp(plumbob_result_str((plumbob_result)i), want[i]) == 0);
        /* the names the run digest has always hashed; later codes are checked, not digested */
        if (i <= PLUMBOB_ERR_UNREACHABLE) t_digest_bytes(want[i], strlen(want[i]));
    }
    CHECK(strcmp(plumbob_result_str((plumbob_result)PLUMBOB_RESULT_COUNT), "unknown_result") == 0);
    CHECK(strcmp(plumbob_result_str((plumbob_result)-1), "unknown_result") == 0);
}

void test_version(void) {
    CHECK_EQ(plumbob_version_number(), PLUMBOB_VERSION_NUMBER);
    CHECK_EQ(PLUMBOB_VERSION_NUMBER, 100);
    CHECK(strcmp(PLUMBOB_VERSION_STRING, "0.1.0") == 0);
    CHECK(strcmp(plumbob_port_name(), "scalar") == 0 || strcmp(plumbob_port_name(), "sse2") == 0 ||
          strcmp(plumbob_port_name(), "avx2") == 0 || strcmp(plumbob_port_name(), "neon") == 0);
}
