/* plumbob add / replace / remove: edit one package in place, as s3pe does.
 * The package is read whole and every entry carried as it is stored (the
 * same bytes, compression and memory size; zlib entries too; a Sims 2
 * package's compression directory is rebuilt by the writer), the edit is
 * applied, the KEY names follow it, and the result replaces the package
 * through a temporary file: on any refusal or failure the package is left
 * byte for byte as it was. */
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "util/bytes.h"
#include "util/tool_buf.h"

typedef struct key_name {
    uint64_t instance;
    char *text;
    size_t len;
} key_name;

typedef struct edit {
    const char *path;
    unsigned char *bytes;
    size_t size;
    plumbob_package pkg;
    plumbob_package_write_entry *w; /* what will be written, in package order */
    uint32_t n, cap;
    unsigned char **owned; /* buffers the entries point into, freed at the end */
    uint32_t owned_n, owned_cap;
    int key_at;            /* index in w of the KEY table; -1 none; -2 one that does not read; -3 removed */
    uint16_t key_compression;
    uint32_t key_version;
    key_name *names;
    uint32_t names_n, names_cap;
    int names_changed;
    uint32_t compressed, dropped_deleted;
    void *work; /* the RefPack compressor's work area */
} edit;

static int own(edit *ed, unsigned char *buf) {
    if (ed->owned_n == ed->owned_cap) {
        uint32_t cap = ed->owned_cap ? ed->owned_cap * 2u : 16u;
        unsigned char **o = (unsigned char **)realloc(ed->owned, cap * sizeof *o);
        if (!o) return 0;
        ed->owned = o;
        ed->owned_cap = cap;
    }
    ed->owned[ed->owned_n++] = buf;
    return 1;
}

static plumbob_package_write_entry *append(edit *ed) {
    if (ed->n == ed->cap) {
        uint32_t cap = ed->cap ? ed->cap * 2u : 64u;
        plumbob_package_write_entry *w = (plumbob_package_write_entry *)realloc(ed->w, cap * sizeof *w);
        if (!w) return NULL;
        ed->w = w;
        ed->cap = cap;
    }
    memset(&ed->w[ed->n], 0, sizeof ed->w[ed->n]);
    return &ed->w[ed->n++];
}

static int find(const edit *ed, uint32_t type, uint32_t group, uint64_t instance) {
    uint32_t i;
    for (i = 0; i < ed->n; i++)
        if (ed->w[i].type == type && ed->w[i].group == group && ed->w[i].instance == instance) return (int)i;
    return -1;
}

static key_name *name_of(edit *ed, uint64_t instance) {
    uint32_t i;
    for (i = 0; i < ed->names_n; i++)
        if (ed->names[i].instance == instance) return &ed->names[i];
    return NULL;
}

static int set_name(edit *ed, uint64_t instance, const char *text, size_t len) {
    key_name *k = name_of(ed, instance);
    char *copy = (char *)malloc(len + 1u);
    if (!copy) return 0;
    memcpy(copy, text, len);
    copy[len] = 0;
    if (!k) {
        if (ed->names_n == ed->names_cap) {
            uint32_t cap = ed->names_cap ? ed->names_cap * 2u : 32u;
            key_name *v = (key_name *)realloc(ed->names, cap * sizeof *v);
            if (!v) { free(copy); return 0; }
            ed->names = v;
            ed->names_cap = cap;
        }
        k = &ed->names[ed->names_n++];
        k->instance = instance;
    } else {
        free(k->text);
    }
    k->text = copy;
    k->len = len;
    return 1;
}

static void drop_name(edit *ed, uint64_t instance) {
    key_name *k = name_of(ed, instance);
    if (!k) return;
    free(k->text);
    memmove(k, k + 1, (size_t)(ed->names + ed->names_n - (k + 1)) * sizeof *k); /* the others keep their order */
    ed->names_n--;
    ed->names_changed = 1;
}

static void edit_free(edit *ed) {
    uint32_t i;
    for (i = 0; i < ed->owned_n; i++) free(ed->owned[i]);
    for (i = 0; i < ed->names_n; i++) free(ed->names[i].text);
    free(ed->owned);
    free(ed->names);
    free(ed->w);
    free(ed->bytes);
    free(ed->work);
}

static void key_label(char *out, size_t cap, uint32_t t, uint32_t g, uint64_t i) {
    const char *tn = tool_type_name(t);
    snprintf(out, cap, "%08X:%08X:%016llX%s%s%s", (unsigned)t, (unsigned)g, (unsigned long long)i, tn ? " (" : "",
             tn ? tn : "", tn ? ")" : "");
}

/* Reads the package and lays out its entries as stored.  0 after saying why. */
static int edit_open(edit *ed, const char *path) {
    uint32_t k;
    plumbob_result r;
    memset(ed, 0, sizeof *ed);
    ed->path = path;
    ed->key_at = -1;
    ed->work = malloc(plumbob_refpack_compress_work_size());
    if (!ed->work) {
        tool_error(path, "out of memory");
        return 0;
    }
    if (!tool_read_file(path, &ed->bytes, &ed->size)) return 0;
    if (!tool_edit_check(path)) return 0; /* read-only, hard-linked...: said before any work */
    r = plumbob_package_open(&ed->pkg, ed->bytes, ed->size);
    if (r != PLUMBOB_OK) {
        const char *kind = tool_kind_name(ed->bytes, ed->size);
        if (kind && plumbob_identify(ed->bytes, ed->size) != PLUMBOB_FORMAT_DBPF)
            tool_error(path, "is a %s, not a package", kind);
        else
            tool_error(path, "not a readable package: %s; not editing it", plumbob_result_str(r));
        return 0;
    }
    for (k = 0; k < ed->pkg.count; k++) {
        plumbob_package_entry e;
        plumbob_package_write_entry *w;
        const unsigned char *raw;
        char label[64];
        if (plumbob_package_entry_at(&ed->pkg, k, &e) != PLUMBOB_OK) continue;
        if (ed->pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR) continue; /* the writer builds it */
        key_label(label, sizeof label, e.type, e.group, e.instance);
        if (e.compression == PLUMBOB_COMPRESSION_DELETED) { /* a deletion record: nothing to carry */
            ed->dropped_deleted++;
            continue;
        }
        if (e.compression != PLUMBOB_COMPRESSION_NONE && e.compression != PLUMBOB_COMPRESSION_REFPACK &&
            !(ed->pkg.major == 2 && e.compression == PLUMBOB_COMPRESSION_ZLIB)) {
            tool_error(path, "resource %s is stored with compression 0x%04X, which plumbob cannot carry; not editing",
                       label, (unsigned)e.compression);
            return 0;
        }
        raw = plumbob_package_raw(&ed->pkg, &e);
        if (!raw || (ed->pkg.major == 1 && e.compression == PLUMBOB_COMPRESSION_REFPACK && e.file_size < 4u)) {
            tool_error(path, "resource %s lies outside the file; not editing", label);
            return 0;
        }
        w = append(ed);
        if (!w) {
            tool_error(path, "out of memory");
            return 0;
        }
        w->type = e.type;
        w->group = e.group;
        w->instance = e.instance;
        w->data = raw;
        w->size = e.file_size;
        w->mem_size = e.mem_size;
        w->compression = e.compression;
        if (ed->pkg.major == 1 && e.compression == PLUMBOB_COMPRESSION_REFPACK) { /* the writer adds the size again */
            w->data = raw + 4;
            w->size -= 4u;
        }
        if (e.compression != PLUMBOB_COMPRESSION_NONE) ed->compressed++;
        if (ed->pkg.major == 2 && e.type == PLUMBOB_TYPE_KEY && ed->key_at == -1) {
            unsigned char *buf = tool_entry_buffer(&ed->pkg, &e, path);
            const unsigned char *res;
            size_t rs;
            plumbob_key_table kt;
            uint32_t j;
            if (!buf) return 0; /* said why */
            if (!own(ed, buf)) {
                free(buf);
                tool_error(path, "out of memory");
                return 0;
            }
            ed->key_at = -2;
            if (plumbob_package_read(&ed->pkg, &e, buf, e.mem_size, &res, &rs) == PLUMBOB_OK &&
                plumbob_key_table_open(&kt, res, rs) == PLUMBOB_OK) {
                ed->key_at = (int)(ed->n - 1u);
                ed->key_version = kt.version;
                ed->key_compression = e.compression;
                for (j = 0; j < kt.count; j++) {
                    uint64_t inst;
                    plumbob_string s;
                    if (plumbob_key_table_entry(&kt, j, &inst, &s) == PLUMBOB_OK && !set_name(ed, inst, s.ptr, s.len)) {
                        tool_error(path, "out of memory");
                        return 0;
                    }
                }
            }
        }
    }
    return 1;
}

/* The stored form of data for a new or replaced entry: RefPack when
 * compress (and it fits RefPack's 16 MiB), else the bytes as they are. */
static int store(edit *ed, plumbob_package_write_entry *w, unsigned char *data, size_t size, int compress,
                 const char *where) {
    if (size > 0xFFFFFFFFu) {
        tool_error(where, "too large for a package");
        free(data);
        return 0;
    }
    w->mem_size = (uint32_t)size;
    if (compress && size > 0 && size <= 0xFFFFFFu) {
        size_t cap = plumbob_refpack_bound(size), cn = 0;
        unsigned char *c = (unsigned char *)malloc(cap);
        if (c && plumbob_refpack_compress(data, size, c, cap, ed->work, plumbob_refpack_compress_work_size(), &cn) ==
                     PLUMBOB_OK) {
            free(data);
            if (!own(ed, c)) {
                free(c);
                tool_error(where, "out of memory");
                return 0;
            }
            w->data = c;
            w->size = (uint32_t)cn;
            w->compression = PLUMBOB_COMPRESSION_REFPACK;
            return 1;
        }
        free(c);
    }
    if (!own(ed, data)) {
        free(data);
        tool_error(where, "out of memory");
        return 0;
    }
    w->data = data;
    w->size = (uint32_t)size;
    w->compression = PLUMBOB_COMPRESSION_NONE;
    return 1;
}

/* The KEY table from the names (version, count, then instance, length, text). */
static int key_table_bytes(const edit *ed, tool_buf *b) {
    uint32_t i;
    unsigned char head[8];
    tool_put_le32(head, ed->key_version ? ed->key_version : 1u);
    tool_put_le32(head + 4, ed->names_n);
    tb_put(b, head, 8);
    for (i = 0; i < ed->names_n; i++) {
        unsigned char e[12];
        tool_put_le64(e, ed->names[i].instance);
        tool_put_le32(e + 8, (uint32_t)ed->names[i].len);
        tb_put(b, e, 12);
        tb_put(b, ed->names[i].text, ed->names[i].len);
    }
    return !b->failed;
}

/* Writes the edited package over the old one.  0 after saying why. */
static int edit_commit(edit *ed) {
    size_t need, got;
    unsigned char *out;
    plumbob_result r;
    int ok;
    if (ed->names_changed && ed->key_at >= -1) {
        tool_buf kb = {0};
        plumbob_package_write_entry *w;
        unsigned char *copy;
        if (!key_table_bytes(ed, &kb) || !(copy = (unsigned char *)malloc(kb.size))) {
            tb_free(&kb);
            tool_error(ed->path, "out of memory");
            return 0;
        }
        memcpy(copy, kb.data, kb.size);
        if (ed->key_at == -1) { /* the first name: a new KEY table */
            w = append(ed);
            if (!w) { free(copy); tb_free(&kb); tool_error(ed->path, "out of memory"); return 0; }
            w->type = PLUMBOB_TYPE_KEY;
            ed->key_compression = PLUMBOB_COMPRESSION_NONE;
        } else {
            w = &ed->w[ed->key_at];
        }
        ok = store(ed, w, copy, kb.size, ed->key_compression != PLUMBOB_COMPRESSION_NONE, ed->path);
        tb_free(&kb);
        if (!ok) return 0;
    }
    need = plumbob_package_write_size(ed->w, ed->n, ed->pkg.major);
    if (need == SIZE_MAX) {
        tool_error(ed->path, "the package would exceed 4 GiB");
        return 0;
    }
    out = (unsigned char *)malloc(need ? need : 1u);
    if (!out) {
        tool_error(ed->path, "out of memory");
        return 0;
    }
    r = plumbob_package_write(ed->w, ed->n, ed->pkg.major, out, need, &got);
    if (r != PLUMBOB_OK) {
        tool_error(ed->path, "cannot write the package: %s", plumbob_result_str(r));
        free(out);
        return 0;
    }
    tool_forget_input(ed->path); /* updating this package is what the command is for */
    ok = tool_write_file(ed->path, out, got);
    free(out);
    return ok;
}

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
    edit ed;
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
    if (!edit_open(&ed, pkg_path)) goto done;
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
        int at = find(&ed, tt[i], gg[i], ii[i]), game = tool_type_game(tt[i]);
        char label[64];
        key_label(label, sizeof label, tt[i], gg[i], ii[i]);
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
        int at = find(&ed, tt[i], gg[i], ii[i]), compress = compress_new;
        plumbob_package_write_entry *w;
        if (!tool_read_file(files[i], &data, &size)) goto done;
        if (replace) {
            w = &ed.w[at];
            compress = w->compression != PLUMBOB_COMPRESSION_NONE;
        } else {
            w = append(&ed);
            if (!w) { free(data); tool_error(NULL, "out of memory"); goto done; }
            w->type = tt[i];
            w->group = gg[i];
            w->instance = ii[i];
        }
        if (!store(&ed, w, data, size, compress && !stored_only, files[i])) goto done;
        if (replace && at == ed.key_at) { /* a new KEY table: its names are the names now */
            ed.key_at = -2;
            ed.names_changed = 0;
        }
    }
    if (name) {
        if (!set_name(&ed, ii[0], name, strlen(name))) { tool_error(NULL, "out of memory"); goto done; }
        ed.names_changed = 1;
    }
    if (!edit_commit(&ed)) goto done;
    for (i = 0; i < nf; i++) /* each key said: a renamed file adds where a replace was meant */
        printf("%s %08X:%08X:%016llX\n", replace ? "replaced" : "added", (unsigned)tt[i], (unsigned)gg[i],
               (unsigned long long)ii[i]);
    printf("%s %d resource%s %s %s (%u resources now)\n", replace ? "replaced" : "added", nf, nf == 1 ? "" : "s",
           replace ? "in" : "to", pkg_path, (unsigned)ed.n);
    rc = 0;
done:
    edit_free(&ed);
    free(tt);
    free(gg);
    free(ii);
    free(files);
    return rc;
}

int tool_package_put_all(const char *pkg_path, uint32_t major, const tool_put *items, uint32_t n) {
    edit ed;
    FILE *f = fopen(pkg_path, "rb");
    int rc = 1, replaced_of[TOOL_PUT_MAX];
    uint32_t k;
    if (n > TOOL_PUT_MAX) {
        if (f) fclose(f);
        tool_error(pkg_path, "more than %d resources at once", TOOL_PUT_MAX);
        return 1;
    }
    if (f) {
        fclose(f);
        if (!edit_open(&ed, pkg_path)) goto done;
    } else { /* a new package */
        memset(&ed, 0, sizeof ed);
        ed.path = pkg_path;
        ed.key_at = -1;
        ed.pkg.major = major;
        ed.work = malloc(plumbob_refpack_compress_work_size());
        if (!ed.work) { tool_error(pkg_path, "out of memory"); goto done; }
    }
    if (ed.pkg.major != major) {
        tool_error(pkg_path, "is a Sims %d package; this resource belongs in a Sims %d one", ed.pkg.major == 1 ? 2 : 3,
                   major == 1 ? 2 : 3);
        goto done;
    }
    for (k = 0; k < n; k++) {
        const tool_put *it = &items[k];
        int at, replaced;
        unsigned char *copy;
        plumbob_package_write_entry *w;
        if (it->name && ed.key_at == -2) {
            tool_error(pkg_path, "its KEY table does not read; not changing names");
            goto done;
        }
        at = find(&ed, it->type, it->group, it->instance);
        replaced = replaced_of[k] = at >= 0;
        copy = (unsigned char *)malloc(it->size ? it->size : 1u);
        if (!copy) { tool_error(pkg_path, "out of memory"); goto done; }
        memcpy(copy, it->data, it->size);
        if (replaced) {
            w = &ed.w[at];
            if (!store(&ed, w, copy, it->size, w->compression != PLUMBOB_COMPRESSION_NONE, pkg_path)) goto done;
        } else {
            int compress = ed.n == 0 || ed.compressed * 2u >= ed.n;
            w = append(&ed);
            if (!w) { free(copy); tool_error(pkg_path, "out of memory"); goto done; }
            w->type = it->type;
            w->group = it->group;
            w->instance = it->instance;
            if (!store(&ed, w, copy, it->size, compress, pkg_path)) goto done;
        }
        if (it->name) {
            if (!set_name(&ed, it->instance, it->name, strlen(it->name))) { tool_error(pkg_path, "out of memory"); goto done; }
            ed.names_changed = 1;
        }
    }
    if (!edit_commit(&ed)) goto done;
    for (k = 0; k < n; k++)
        printf("%s %08X:%08X:%016llX%s%s in %s (%u resources)\n", replaced_of[k] ? "replaced" : "added",
               (unsigned)items[k].type, (unsigned)items[k].group, (unsigned long long)items[k].instance,
               items[k].name ? " as " : "", items[k].name ? items[k].name : "", pkg_path, (unsigned)ed.n);
    rc = 0;
done:
    edit_free(&ed);
    return rc;
}

int tool_package_put(const char *pkg_path, uint32_t type, uint32_t group, uint64_t instance, const unsigned char *data,
                     size_t size, const char *name) {
    tool_put it;
    it.type = type;
    it.group = group;
    it.instance = instance;
    it.data = data;
    it.size = size;
    it.name = name;
    return tool_package_put_all(pkg_path, 2, &it, 1);
}

int cmd_add(int argc, char **argv) { return put_files(argc, argv, 0); }
int cmd_replace(int argc, char **argv) { return put_files(argc, argv, 1); }

int cmd_remove(int argc, char **argv) {
    const char *pkg_path = NULL;
    const char **keys = (const char **)calloc((size_t)argc + 1u, sizeof *keys);
    int nk = 0, i, rc = 1;
    uint32_t removed = 0;
    edit ed;
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
    if (!edit_open(&ed, pkg_path)) goto done;
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
        at = found == 1 ? find(&ed, e.type, e.group, e.instance) : -1;
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
        if (j == ed.n && ed.key_at >= 0) drop_name(&ed, e.instance); /* no other resource goes by that name */
    }
    if (!edit_commit(&ed)) goto done;
    printf("removed %u resource%s from %s (%u left)\n", (unsigned)removed, removed == 1 ? "" : "s", pkg_path,
           (unsigned)ed.n);
    rc = 0;
done:
    edit_free(&ed);
    free(keys);
    return rc;
}
