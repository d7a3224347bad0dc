/* KEY name tables in `info` and `check` (the format registry's entry; no
 * command family of their own): the core reads and writes them. */
#include <stdlib.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_input.h"
#include "tool_types.h"

/* A KEY name table (the core reads and writes those). */
int key_info(const tool_input *in, FILE *out) {
    plumbob_key_table kt;
    plumbob_error err;
    plumbob_result r = plumbob_key_table_open_ex(&kt, in->data, in->size, &err);
    char label[64];
    if (r != PLUMBOB_OK) {
        tool_error(in->name, "not a valid KEY name table: %s at byte %zu, %s: %s", plumbob_result_str(r), err.offset,
                   err.table, err.reason);
        return 1;
    }
    tool_type_label(PLUMBOB_TYPE_KEY, label, sizeof label);
    fprintf(out, "%s: %s name table, version %u, %u names, %zu bytes\n", in->name, label, (unsigned)kt.version,
            (unsigned)kt.count, in->size);
    return 0;
}

plumbob_result key_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    plumbob_key_table kt;
    plumbob_result r = plumbob_key_table_open(&kt, in->data, in->size);
    size_t ws;
    if (r != PLUMBOB_OK) return r;
    ws = plumbob_key_table_write_size(&kt);
    *out = (unsigned char *)malloc(ws ? ws : 1);
    if (!*out) return PLUMBOB_ERR_OUT_OF_MEMORY;
    return plumbob_key_table_write(&kt, *out, ws, out_size);
}
