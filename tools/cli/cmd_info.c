/* plumbob info FILE: what the file is, in one short human summary. */
#include <string.h>
#include "tool.h"

int cmd_info(int argc, char **argv) {
    tool_input in;
    plumbob_format f;
    const tool_format *tf;
    int rc;
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(argc == 2 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: plumbob info FILE\n"
                "  Says what FILE is (package, CLIP, jazz, GMDC, ANIM, CRES, RefPack stream)\n"
                "  and summarises it in a few lines.\n"
                "  example: plumbob info EWBreastfeed.package\n");
        return argc == 2 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    if (!tool_load(argv[1], &in)) return 1;
    if (tool_is_gltf(&in)) {
        rc = tool_check_gltf(&in, stdout);
        tool_free(&in);
        return rc;
    }
    tf = tool_format_of(&in, &f);
    if (f == PLUMBOB_FORMAT_UNKNOWN) {
        printf("%s: unknown format (%zu bytes)\n", in.name, in.size);
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
