/* plumbob add / replace / remove: edit one package in place, as s3pe does
 * (the edit itself, all or nothing: tool_package.c). */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_input.h"
#include "tool_package.h"
#include "tool_types.h"

static int edit_usage(const char *cmd, FILE *f, int rc) {
    if (strcmp(cmd, "remove") == 0)
        fprintf(f, "usage: plumbob remove PACKAGE KEY...\n"
                   "  Removes resources from PACKAGE, in place.  KEY is TYPE:GROUP:INSTANCE (TYPE\n"
                   "  in hex or by name), INSTANCE in hex, or a name from the KEY table; one that\n"
                   "  matches several resources is refused, listing them.  The removed resources'\n"
                   "  names leave the KEY table when no other resource has that instance.\n"
                   "  example: plumbob remove my.package CLIP:0:3D40CC19DAAFD164\n");
    else
        fprintf(f, "usage: plumbob %s PACKAGE FILE... [--name NAME] [--store] [--force]\n"
                   "  %s resources in PACKAGE, in place, from files named\n"
                   "  TYPE_GROUP_INSTANCE.ext (as `plumbob extract` writes them).  %s\n"
                   "  New bytes are RefPack-compressed as the package has it (%s), or stored\n"
                   "  with --store.  --name NAME (one FILE, Sims 3) sets its name in the KEY table.\n"
                   "  The other game's resource types are refused unless --force.\n"
                   "  example: plumbob %s my.package 6B20C4F3_00000000_3D40CC19DAAFD164.clip\n",
                cmd, strcmp(cmd, "add") == 0 ? "Adds" : "Replaces",
                strcmp(cmd, "add") == 0 ? "A key the package already holds is refused (use replace)."
                                        : "Each key must be in the package (else use add).",
                strcmp(cmd, "add") == 0 ? "compressed when at least half its resources are"
                                        : "compressed when the resource replaced was",
                cmd);
    return rc;
}

/* add and replace */
static int put_files(int argc, char **argv, int replace) {
    const char *cmd = replace ? "replace" : "add", *pkg_path = NULL, *name = NULL;
    const char **files = (const char **)calloc((size_t)argc + 1u, sizeof *files);
    int nf = 0, i, rc = 1, stored_only = 0, compress_new;
    uint32_t *tt = NULL, *gg = NULL;
    uint64_t *ii = NULL;
    tool_edit ed;
    memset(&ed, 0, sizeof ed);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) { free(files); return edit_usage(cmd, stdout, 0); }
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) name = argv[++i];
        else if (strcmp(argv[i], "--store") == 0) stored_only = 1;
        else if (argv[i][0] == '-') { free(files); return tool_bad_argument(argc, argv, i); }
        else if (!pkg_path) pkg_path = argv[i];
        else files[nf++] = argv[i];
    }
    if (!pkg_path || nf == 0) {
        tool_error(NULL, "need a PACKAGE and at least one FILE (see plumbob %s --help)", cmd);
        free(files);
        return 2;
    }
    if (name && nf != 1) {
        tool_error(NULL, "--name names one resource: give one FILE with it");
        free(files);
        return 2;
    }
    tt = (uint32_t *)calloc((size_t)nf, sizeof *tt);
    gg = (uint32_t *)calloc((size_t)nf, sizeof *gg);
    ii = (uint64_t *)calloc((size_t)nf, sizeof *ii);
    if (!tt || !gg || !ii) { tool_error(NULL, "out of memory"); goto done; }
    for (i = 0; i < nf; i++) { /* names first: nothing is read before the list makes sense */
        int j;
        if (!tool_parse_tgi_name(files[i], &tt[i], &gg[i], &ii[i])) {
            tool_bad_tgi_name(files[i]);
            rc = 2;
            goto done;
        }
        if (tt[i] == PLUMBOB_TYPE_SIMS2_DIR) {
            tool_error(files[i], "a Sims 2 compression directory is index data: the package's own is rebuilt on write");
            rc = 2;
            goto done;
        }
        for (j = 0; j < i; j++)
            if (tt[j] == tt[i] && gg[j] == gg[i] && ii[j] == ii[i]) {
                tool_error(files[i], "the same resource key as %s", files[j]);
                rc = 2;
                goto done;
            }
    }
    if (!tool_edit_open(&ed, pkg_path)) goto done;
    if (name && ed.pkg.major != 2) {
        tool_error(pkg_path, "--name: a Sims 2 package has no KEY table (its resources carry their own names)");
        rc = 2;
        goto done;
    }
    if (name && ed.key_at == -2) {
        tool_error(pkg_path, "its KEY table does not read; not changing names");
        goto done;
    }
    for (i = 0; i < nf; i++) {
        int at = tool_edit_find(&ed, tt[i], gg[i], ii[i]), game = tool_type_game(tt[i]);
        char label[64];
        tool_key_label(label, sizeof label, tt[i], gg[i], ii[i]);
        if (!replace && at >= 0) {
            tool_error(pkg_path, "already holds %s; to change it use plumbob replace", label);
            goto done;
        }
        if (replace && at < 0) {
            tool_error(pkg_path, "has no %s to replace; to put it in use plumbob add", label);
            goto done;
        }
        if (game && game != (ed.pkg.major == 1 ? 2 : 3) && !tool_force()) {
            tool_error(files[i], "is a Sims %d resource; this Sims %d package cannot use it (--force puts it in anyway)",
                       game, ed.pkg.major == 1 ? 2 : 3);
            rc = 2;
            goto done;
        }
    }
    /* new resources are compressed when at least half of what is there is */
    compress_new = ed.n == 0 || ed.compressed * 2u >= ed.n;
    for (i = 0; i < nf; i++) {
        unsigned char *data;
        size_t size;
        int at = tool_edit_find(&ed, tt[i], gg[i], ii[i]), compress = compress_new;
        plumbob_package_write_entry *w;
        if (!tool_read_file(files[i], &data, &size)) goto done;
        if (replace) {
            w = &ed.w[at];
            compress = w->compression != PLUMBOB_COMPRESSION_NONE;
        } else {
            w = tool_edit_append(&ed);
            if (!w) { free(data); tool_error(NULL, "out of memory"); goto done; }
            w->type = tt[i];
            w->group = gg[i];
            w->instance = ii[i];
        }
        if (!tool_edit_store(&ed, w, data, size, compress && !stored_only, files[i])) goto done;
        if (replace && at == ed.key_at) { /* a new KEY table: its names are the names now */
            ed.key_at = -2;
            ed.names_changed = 0;
        }
    }
    if (name) {
        if (!tool_edit_set_name(&ed, ii[0], name, strlen(name))) { tool_error(NULL, "out of memory"); goto done; }
        ed.names_changed = 1;
    }
    if (!tool_edit_commit(&ed)) goto done;
    for (i = 0; i < nf; i++) /* each key said: a renamed file adds where a replace was meant */
        printf("%s %08X:%08X:%016llX\n", replace ? "replaced" : "added", (unsigned)tt[i], (unsigned)gg[i],
               (unsigned long long)ii[i]);
    printf("%s %d resource%s %s %s (%u resources now)\n", replace ? "replaced" : "added", nf, nf == 1 ? "" : "s",
           replace ? "in" : "to", pkg_path, (unsigned)ed.n);
    rc = 0;
done:
    tool_edit_free(&ed);
    free(tt);
    free(gg);
    free(ii);
    free(files);
    return rc;
}

int cmd_add(int argc, char **argv) { return put_files(argc, argv, 0); }
int cmd_replace(int argc, char **argv) { return put_files(argc, argv, 1); }

int cmd_remove(int argc, char **argv) {
    const char *pkg_path = NULL;
    const char **keys = (const char **)calloc((size_t)argc + 1u, sizeof *keys);
    int nk = 0, i, rc = 1;
    uint32_t removed = 0;
    tool_edit ed;
    memset(&ed, 0, sizeof ed);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) { free(keys); return edit_usage("remove", stdout, 0); }
        else if (argv[i][0] == '-') { free(keys); return tool_bad_argument(argc, argv, i); }
        else if (!pkg_path) pkg_path = argv[i];
        else keys[nk++] = argv[i];
    }
    if (!pkg_path || nk == 0) {
        tool_error(NULL, "need a PACKAGE and at least one KEY (see plumbob remove --help)");
        free(keys);
        return 2;
    }
    if (!tool_edit_open(&ed, pkg_path)) goto done;
    for (i = 0; i < nk; i++) {
        plumbob_package_entry e;
        int found = tool_find_resource(&ed.pkg, keys[i], pkg_path, 1, &e), at;
        uint32_t j;
        if (found == -1) {
            tool_error(NULL, "'%s' is not INSTANCE, TYPE:GROUP:INSTANCE or a name `plumbob ls` shows", keys[i]);
            rc = 2;
            goto done;
        }
        if (found == -2) goto done; /* the matches are listed */
        if (found == 1 && ed.pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR) {
            tool_error(pkg_path, "'%s' is the compression directory: index data, rebuilt on every write", keys[i]);
            rc = 2;
            goto done;
        }
        at = found == 1 ? tool_edit_find(&ed, e.type, e.group, e.instance) : -1;
        if (at < 0) {
            tool_error(pkg_path, "has no resource '%s'%s (see plumbob ls %s)", keys[i],
                       found == 1 ? " (given twice?)" : "", pkg_path);
            goto done;
        }
        if (at == ed.key_at) { /* the KEY table itself: no names to keep up */
            ed.key_at = -3;
            ed.names_changed = 0;
        } else if (ed.key_at > at) {
            ed.key_at--;
        }
        memmove(&ed.w[at], &ed.w[at + 1], (ed.n - (uint32_t)at - 1u) * sizeof ed.w[0]);
        ed.n--;
        removed++;
        for (j = 0; j < ed.n && !(ed.w[j].instance == e.instance && (int)j != ed.key_at); j++) {}
        if (j == ed.n && ed.key_at >= 0) tool_edit_drop_name(&ed, e.instance); /* no other resource goes by that name */
    }
    if (!tool_edit_commit(&ed)) goto done;
    printf("removed %u resource%s from %s (%u left)\n", (unsigned)removed, removed == 1 ? "" : "s", pkg_path,
           (unsigned)ed.n);
    rc = 0;
done:
    tool_edit_free(&ed);
    free(keys);
    return rc;
}
