/* Result names and the library version. */
#include "plumbob/base.h"

unsigned plumbob_version_number(void) {
    return PLUMBOB_VERSION_NUMBER;
}

const char *plumbob_result_str(plumbob_result r) {
    switch (r) {
    case PLUMBOB_OK: return "ok";
    case PLUMBOB_ERR_TRUNCATED: return "truncated";
    case PLUMBOB_ERR_BAD_MAGIC: return "bad_magic";
    case PLUMBOB_ERR_UNSUPPORTED_VERSION: return "unsupported_version";
    case PLUMBOB_ERR_BAD_OFFSET: return "bad_offset";
    case PLUMBOB_ERR_BAD_COUNT: return "bad_count";
    case PLUMBOB_ERR_BAD_INDEX: return "bad_index";
    case PLUMBOB_ERR_OUT_OF_MEMORY: return "out_of_memory";
    case PLUMBOB_ERR_INVALID_ARGUMENT: return "invalid_argument";
    case PLUMBOB_ERR_LIMIT_EXCEEDED: return "limit_exceeded";
    case PLUMBOB_ERR_BAD_DATA: return "bad_data";
    case PLUMBOB_ERR_UNSUPPORTED: return "unsupported";
    case PLUMBOB_ERR_NOT_FOUND: return "not_found";
    case PLUMBOB_ERR_UNREACHABLE: return "unreachable";
    case PLUMBOB_ERR_OUTPUT_TOO_SMALL: return "output_too_small";
    }
    return "unknown_result";
}

void plumbob_error_clear(plumbob_error *e) {
    if (!e) return;
    e->result = PLUMBOB_OK;
    e->offset = 0;
    e->table = "";
    e->index = PLUMBOB_ERROR_NO_INDEX;
    e->reason = "";
}
