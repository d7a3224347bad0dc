/* plumbob pack: build a package from files named TYPE_GROUP_INSTANCE.ext
 * (the names `plumbob extract` writes), RefPack-compressing each resource
 * unless --store is given.  extract then pack gives the same resources back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

static const char *base_name(const char *path) {
    const char *base = strrchr(path, '/');
#ifdef _WIN32
    { /* Windows paths: C:\mods\clips\TYPE_GROUP_INSTANCE.clip */
        const char *bs = strrchr(path, '\\');
        if (bs && (!base || bs > base)) base = bs;
    }
#endif
    return base ? base + 1 : path;
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The key of the first 34 characters of a file name; 0 when they are no key. */
static int key_prefix(const char *base, uint32_t *t, uint32_t *g, uint64_t *i) {
    uint64_t v[3] = {0, 0, 0};
    static const int start[3] = {0, 9, 18}, len[3] = {8, 8, 16};
    int k, j;
    if (strlen(base) < 34 || base[8] != '_' || base[17] != '_') return 0;
    for (k = 0; k < 3; k++)
        for (j = 0; j < len[k]; j++) {
            int d = hex_digit(base[start[k] + j]);
            if (d < 0) return 0;
            v[k] = v[k] << 4 | (uint64_t)d;
        }
    *t = (uint32_t)v[0];
    *g = (uint32_t)v[1];
    *i = v[2];
    return 1;
}

/* What may follow the key: nothing, ".ext" or ".N.ext" (extract's name for
 * a key the index holds more than once), ext 1 to 8 letters and digits and
 * not one an editor or a backup tool gives its copies. */
static int good_suffix(const char *s) {
    static const char *const backups[] = {"bak", "old", "orig", "tmp", "swp", "backup"};
    const char *ext;
    size_t n, k;
    if (!*s) return 1;
    if (*s++ != '.') return 0;
    ext = s;
    while (*s >= '0' && *s <= '9') s++;
    if (s > ext && *s == '.') ext = ++s; /* .N.ext */
    else s = ext;
    for (n = 0; (ext[n] >= '0' && ext[n] <= '9') || (ext[n] >= 'a' && ext[n] <= 'z') || (ext[n] >= 'A' && ext[n] <= 'Z'); n++) {}
    if (n == 0 || n > 8 || ext[n]) return 0;
    for (k = 0; k < sizeof backups / sizeof backups[0]; k++) {
        size_t j;
        if (strlen(backups[k]) != n) continue;
        for (j = 0; j < n && (ext[j] | 0x20) == backups[k][j]; j++) {}
        if (j == n) return 0;
    }
    return 1;
}

int tool_parse_tgi_name(const char *path, uint32_t *t, uint32_t *g, uint64_t *i) {
    const char *base = base_name(path);
    uint32_t tt, gg;
    uint64_t ii;
    if (!key_prefix(base, &tt, &gg, &ii) || !good_suffix(base + 34)) return 0;
    *t = tt;
    *g = gg;
    *i = ii;
    return 1;
}

void tool_bad_tgi_name(const char *path) {
    const char *base = base_name(path);
    uint32_t t, g;
    uint64_t i;
    if (!key_prefix(base, &t, &g, &i))
        tool_error(path, "name is not TYPE_GROUP_INSTANCE.ext (8, 8 and 16 hex digits)");
    else
        tool_error(path,
                   "name is not TYPE_GROUP_INSTANCE.ext: '%s' after the key is no resource file's (a backup, a "
                   "temporary file or a copy?); rename it to TYPE_GROUP_INSTANCE.ext to use it",
                   base + 34);
}

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
