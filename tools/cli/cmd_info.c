/* plumbob info FILE: what the file is, in one short human summary. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "formats.h"
#include "gltf_output.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_types.h"

/* A package resource of a type the tool has no decoder for: named by the
 * index's type. */
static int resource_info(const tool_input *in) {
    char label[64];
    tool_type_label(in->entry.type, label, sizeof label);
    printf("%s: %s, %zu bytes (this build has no decoder for this type)\n", in->name, label, in->size);
    return 0;
}

int cmd_info(int argc, char **argv) {
    tool_input in;
    plumbob_format f;
    const tool_format *tf;
    int rc;
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(argc == 2 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: plumbob info FILE\n"
                "  Says what FILE is (package, CLIP, jazz, GMDC, ANIM, CRES, rig, KEY table,\n"
                "  RefPack stream) and summarises it in a few lines.  Exit 0 when it can say\n"
                "  what FILE is (also a known type with no decoder yet), 1 when the bytes are\n"
                "  no format it knows or do not decode.\n"
                "  example: plumbob info EWBreastfeed.package\n");
        return argc == 2 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    if (!tool_load(argv[1], &in)) return 1;
    if (tool_is_gltf(&in)) {
        rc = tool_check_gltf(&in, stdout);
        tool_free(&in);
        return rc;
    }
    tf = tool_format_of(&in, &f); /* a package resource: by the index's type */
    if (in.from_package && f == PLUMBOB_FORMAT_UNKNOWN) {
        rc = resource_info(&in);
    } else if (f == PLUMBOB_FORMAT_UNKNOWN) {
        tool_unknown_format(&in);
        rc = 1;
    } else if (!tf) {
        printf("%s: %s, %zu bytes (this build has no decoder for it yet)\n", in.name,
               plumbob_format_name(f), in.size);
        rc = 0;
    } else {
        rc = tf->info(&in, stdout);
    }
    tool_free(&in);
    return rc;
}
