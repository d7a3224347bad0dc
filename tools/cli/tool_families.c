/* The subcommands of each command family: main() uses them to record the
 * command as typed ("clip export"), and messages that suggest another
 * command use them to keep the subcommand when the family has it.  Kept out
 * of plumbob.c so that programs linking the tool's code without its main()
 * (tests/hosted/gltf_tests.c) have them too. */
#include <string.h>
#include "plumbob.h"
#include "tool_families.h"

static const struct {
    const char *family;
    const char *subcommands; /* space-separated */
} families[] = {
    {"clip", "dump sample plot export import diff blend"},
    {"rig", "dump ik"},
    {"gmdc", "dump skin export import"},
    {"anim", "dump sample plot export"},
    {"cres", "dump"},
    {"geom", "dump skin export import"},
    {"jazz", "dump run decompile compile"},
};

int tool_family_has(const char *family, const char *sub) {
    size_t i, n = strlen(sub);
    const char *w;
    for (i = 0; n && i < sizeof families / sizeof families[0]; i++) {
        if (strcmp(families[i].family, family) != 0) continue;
        for (w = families[i].subcommands; w; w = strchr(w, ' ') ? strchr(w, ' ') + 1 : NULL)
            if (strncmp(w, sub, n) == 0 && (w[n] == ' ' || w[n] == 0)) return 1;
    }
    return 0;
}
