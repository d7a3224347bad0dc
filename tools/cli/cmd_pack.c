/* plumbob pack: build a package from files named TYPE_GROUP_INSTANCE.ext
 * (the names `plumbob extract` writes), RefPack-compressing each resource
 * unless --store is given.  extract then pack gives the same resources back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_package.h"
#include "tool_types.h"

int cmd_pack(int argc, char **argv) {
    const char *out_path = NULL;
    int store = 0, i, rc = 1;
    uint32_t major = 2, n = 0, k;
    plumbob_package_write_entry *entries = (plumbob_package_write_entry *)calloc((size_t)argc, sizeof *entries);
    unsigned char **bufs = (unsigned char **)calloc((size_t)argc, sizeof *bufs);
    const char **names = (const char **)calloc((size_t)argc, sizeof *names);
    const char *wrong_game = NULL; /* the first file of the other game's types */
    void *work = malloc(plumbob_refpack_compress_work_size());
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            printf("usage: plumbob pack -o OUT.package [--sims2] [--store] FILE...\n"
                   "  Builds a package from files named TYPE_GROUP_INSTANCE.ext (hex, as\n"
                   "  `plumbob extract` writes them).  Resources are RefPack-compressed unless\n"
                   "  --store; --sims2 writes DBPF 1.1 instead of 2.0 (with a compression\n"
                   "  directory built from what is compressed; a directory file is skipped).\n"
                   "  The package is written to a temporary file and renamed into place when\n"
                   "  complete: on any error an existing OUT.package is left untouched.\n"
                   "  Refused (exit 2): a key given twice, the other game's resource types\n"
                   "  (Sims 2 meshes without --sims2, Sims 3 clips with it; --force packs them\n"
                   "  anyway), an empty list, and names with more than the key and .ext\n"
                   "  (backups and copies: X.clip~, X.clip.bak, \"X - Copy.clip\").\n"
                   "  example: plumbob pack -o my.package clips/*.clip\n");
            rc = 0;
            goto done;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(a, "--sims2") == 0) {
            major = 1;
        } else if (strcmp(a, "--store") == 0) {
            store = 1;
        } else if (a[0] == '-') {
            rc = tool_bad_argument(argc, argv, i);
            goto done;
        } else {
            plumbob_package_write_entry *e = &entries[n];
            unsigned char *raw;
            size_t size;
            if (!tool_parse_tgi_name(a, &e->type, &e->group, &e->instance)) {
                tool_bad_tgi_name(a);
                rc = 2;
                goto done;
            }
            if (e->type == PLUMBOB_TYPE_SIMS2_DIR) {
                /* a directory from an older extract: packed, it would stand
                 * beside (and contradict) the one the writer builds */
                tool_error(a, "skipped: a Sims 2 compression directory is index data; pack writes its own");
                memset(e, 0, sizeof *e);
                continue;
            }
            for (k = 0; k < n; k++)
                if (entries[k].type == e->type && entries[k].group == e->group && entries[k].instance == e->instance) {
                    tool_error(a, "the same resource key as %s: a package holds each key once", names[k]);
                    rc = 2;
                    goto done;
                }
            names[n] = a;
            if (!tool_read_file(a, &raw, &size)) goto done;
            if (size > 0xFFFFFFu && !store) {
                free(raw);
                tool_error(a, "too large to compress; use --store");
                goto done;
            }
            e->mem_size = (uint32_t)size;
            if (store) {
                e->data = bufs[n] = raw;
                e->size = (uint32_t)size;
                e->compression = PLUMBOB_COMPRESSION_NONE;
            } else {
                size_t cap = plumbob_refpack_bound(size), cn;
                bufs[n] = (unsigned char *)malloc(cap);
                if (plumbob_refpack_compress(raw, size, bufs[n], cap, work,
                                             plumbob_refpack_compress_work_size(), &cn) != PLUMBOB_OK) {
                    free(raw);
                    tool_error(a, "compression failed");
                    goto done;
                }
                free(raw);
                e->data = bufs[n];
                e->size = (uint32_t)cn;
                e->compression = PLUMBOB_COMPRESSION_REFPACK;
            }
            n++;
        }
    }
    if (!out_path) {
        tool_error("pack", "need -o OUT.package (see plumbob pack --help)");
        rc = 2;
        goto done;
    }
    if (n == 0) {
        tool_error("pack", "no resources to pack (see plumbob pack --help)");
        rc = 2;
        goto done;
    }
    for (k = 0; k < n && !wrong_game; k++) /* after the loop: --sims2 may come last */
        if (tool_type_game(entries[k].type) != 0 && tool_type_game(entries[k].type) != (major == 1 ? 2 : 3))
            wrong_game = names[k];
    if (wrong_game && !tool_force()) {
        /* --sims2 forgotten (or given by mistake): the game would not read them */
        tool_error(wrong_game, "is a %s resource; a %s package cannot use it (%s, or --force to pack it anyway)",
                   major == 1 ? "Sims 3" : "Sims 2", major == 1 ? "Sims 2 (--sims2)" : "Sims 3",
                   major == 1 ? "leave out --sims2" : "add --sims2");
        rc = 2;
        goto done;
    }
    {
        size_t need = plumbob_package_write_size(entries, n, major), got;
        unsigned char *out;
        plumbob_result r;
        if (need == SIZE_MAX) {
            tool_error(out_path, "package would exceed 4 GiB");
            goto done;
        }
        out = (unsigned char *)malloc(need);
        r = plumbob_package_write(entries, n, major, out, need, &got);
        if (r != PLUMBOB_OK) {
            tool_error(out_path, "cannot write the package: %s", plumbob_result_str(r));
            free(out);
            goto done;
        }
        if (!tool_write_file(out_path, out, got)) {
            free(out);
            goto done;
        }
        free(out);
        printf("packed %u resources into %s (DBPF %s, %zu bytes)\n", (unsigned)n, out_path,
               major == 2 ? "2.0" : "1.1", got);
        rc = 0;
    }
done:
    for (k = 0; k < (uint32_t)argc; k++) free(bufs[k]);
    free(bufs);
    free((void *)names);
    free(entries);
    free(work);
    return rc;
}
