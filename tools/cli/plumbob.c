/* plumbob: the command-line tool.  `plumbob --help` lists every subcommand. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_families.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"info", cmd_info, "say what a file is, in a short summary"},
    {"check", cmd_check, "decode, validate and re-encode; report the first difference (glTF: validate)"},
    {"ls", cmd_ls, "list the resources of a package"},
    {"extract", cmd_extract, "write a package's resources to files, decompressed"},
    {"clip", cmd_clip, "Sims 3 CLIP animations: dump, sample, plot (SVG), export/import (glTF), diff, blend"},
    {"rig", cmd_rig, "Sims 3 rigs: dump bones, rest pose (local and model space), IK chains, an IK solve (ik)"},
    {"gmdc", cmd_gmdc, "Sims 2 GMDC meshes: dump, skin, export (glTF, GLB, OBJ)"},
    {"geom", cmd_geom, "Sims 3 GEOM body meshes: dump, skin, export (glTF on a rig, with a clip), import"},
    {"anim", cmd_anim, "Sims 2 ANIM animations: dump, sample, plot (SVG), export (glTF on a CRES skeleton)"},
    {"cres", cmd_cres, "Sims 2 CRES resource nodes: dump (blocks, the skeleton)"},
    {"jazz", cmd_jazz, "Sims 3 jazz state machines: dump, run, decompile, compile"},
    {"pack", cmd_pack, "build a package from TYPE_GROUP_INSTANCE.ext files"},
    {"add", cmd_add, "add resources to a package, in place (TYPE_GROUP_INSTANCE.ext files)"},
    {"replace", cmd_replace, "replace resources of a package, in place"},
    {"remove", cmd_remove, "remove resources from a package, in place"},
    {"demo", cmd_demo, "run plumbob on built-in sample data; writes demo.gltf and curves.svg"},
};

static void usage(FILE *out) {
    size_t i;
    fprintf(out, "plumbob %s: Sims 2 / Sims 3 animation and geometry tool\n\n", PLUMBOB_VERSION_STRING);
    fprintf(out, "usage: plumbob COMMAND [ARGS]   (plumbob COMMAND --help for details)\n\n");
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nA resource inside a package is named PACKAGE@INSTANCE or PACKAGE@TYPE:GROUP:INSTANCE.\n");
    fprintf(out, "Outputs never replace one of the command's inputs unless --force is given.\n");
    fprintf(out, "examples: plumbob info EWBreastfeed.package@6B20C4F3:00000000:3D40CC19DAAFD164\n");
    fprintf(out, "          plumbob clip export walk.clip --rig rig.txt -o walk.glb\n");
    fprintf(out, "          plumbob demo   (then open build/demo/demo.gltf and build/demo/curves.svg)\n");
}

/* Output that never arrived is a failure: a full disk or a closed pipe under
 * stdout turns a successful run into exit 1 with a message. */
static int finish(int rc) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
#ifdef EPIPE
        if (errno == EPIPE) return rc ? rc : 1; /* the reader left (| head): exit 1, nothing more to say */
#endif
        tool_error("standard output", "cannot write (disk full or pipe closed?)");
        return rc ? rc : 1;
    }
    return rc;
}

int main(int argc, char **argv) {
    size_t i;
    int a, kept = 1;
#ifdef SIGPIPE
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error (exit 1), not death by signal (141) */
#endif
    /* --force, anywhere on the line: allow an output to replace an input */
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--force") == 0) tool_set_force(1);
        else argv[kept++] = argv[a];
    }
    argc = kept;
    argv[argc] = NULL;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return finish(argc < 2 ? 2 : 0);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("plumbob %s\n", PLUMBOB_VERSION_STRING);
        return finish(0);
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            tool_set_command(commands[i].name,
                             argc > 2 && tool_family_has(commands[i].name, argv[2]) ? argv[2] : NULL);
            return finish(commands[i].run(argc - 1, argv + 1));
        }
    tool_error(NULL, "unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
