/* Package edits in place, as s3pe does, for add / replace / remove and for
 * the commands that put what they make into a package (tool_package_put):
 * the package is read whole and every entry carried as it is stored (the
 * same bytes, compression and memory size; zlib entries too; a Sims 2
 * package's compression directory is rebuilt by the writer), the edit is
 * applied, the KEY names follow it, and the result replaces the package
 * through a temporary file: on any refusal or failure the package is left
 * byte for byte as it was.  Also the TYPE_GROUP_INSTANCE.ext file names
 * pack, add and replace read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_package.h"
#include "tool_types.h"
#include "util/bytes.h"
#include "util/tool_buf.h"

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

static int own(tool_edit *ed, unsigned char *buf) {
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

plumbob_package_write_entry *tool_edit_append(tool_edit *ed) {
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

int tool_edit_find(const tool_edit *ed, uint32_t type, uint32_t group, uint64_t instance) {
    uint32_t i;
    for (i = 0; i < ed->n; i++)
        if (ed->w[i].type == type && ed->w[i].group == group && ed->w[i].instance == instance) return (int)i;
    return -1;
}

static tool_key_name *name_of(tool_edit *ed, uint64_t instance) {
    uint32_t i;
    for (i = 0; i < ed->names_n; i++)
        if (ed->names[i].instance == instance) return &ed->names[i];
    return NULL;
}

int tool_edit_set_name(tool_edit *ed, uint64_t instance, const char *text, size_t len) {
    tool_key_name *k = name_of(ed, instance);
    char *copy = (char *)malloc(len + 1u);
    if (!copy) return 0;
    memcpy(copy, text, len);
    copy[len] = 0;
    if (!k) {
        if (ed->names_n == ed->names_cap) {
            uint32_t cap = ed->names_cap ? ed->names_cap * 2u : 32u;
            tool_key_name *v = (tool_key_name *)realloc(ed->names, cap * sizeof *v);
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

void tool_edit_drop_name(tool_edit *ed, uint64_t instance) {
    tool_key_name *k = name_of(ed, instance);
    if (!k) return;
    free(k->text);
    memmove(k, k + 1, (size_t)(ed->names + ed->names_n - (k + 1)) * sizeof *k); /* the others keep their order */
    ed->names_n--;
    ed->names_changed = 1;
}

void tool_edit_free(tool_edit *ed) {
    uint32_t i;
    for (i = 0; i < ed->owned_n; i++) free(ed->owned[i]);
    for (i = 0; i < ed->names_n; i++) free(ed->names[i].text);
    free(ed->owned);
    free(ed->names);
    free(ed->w);
    free(ed->bytes);
    free(ed->work);
}

void tool_key_label(char *out, size_t cap, uint32_t t, uint32_t g, uint64_t i) {
    const char *tn = tool_type_name(t);
    snprintf(out, cap, "%08X:%08X:%016llX%s%s%s", (unsigned)t, (unsigned)g, (unsigned long long)i, tn ? " (" : "",
             tn ? tn : "", tn ? ")" : "");
}

/* Reads the package and lays out its entries as stored.  0 after saying why. */
int tool_edit_open(tool_edit *ed, const char *path) {
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
        else {
            char wb[320];
            tool_error(path, "not a readable package: %s; not editing it",
                       tool_package_why(ed->bytes, ed->size, r, wb, sizeof wb));
        }
        return 0;
    }
    for (k = 0; k < ed->pkg.count; k++) {
        plumbob_package_entry e;
        plumbob_package_write_entry *w;
        const unsigned char *raw;
        char label[64];
        if (plumbob_package_entry_at(&ed->pkg, k, &e) != PLUMBOB_OK) continue;
        if (ed->pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR) continue; /* the writer builds it */
        tool_key_label(label, sizeof label, e.type, e.group, e.instance);
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
        w = tool_edit_append(ed);
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
                    if (plumbob_key_table_entry(&kt, j, &inst, &s) == PLUMBOB_OK && !tool_edit_set_name(ed, inst, s.ptr, s.len)) {
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
int tool_edit_store(tool_edit *ed, plumbob_package_write_entry *w, unsigned char *data, size_t size, int compress,
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
static int key_table_bytes(const tool_edit *ed, tool_buf *b) {
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
int tool_edit_commit(tool_edit *ed) {
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
            w = tool_edit_append(ed);
            if (!w) { free(copy); tb_free(&kb); tool_error(ed->path, "out of memory"); return 0; }
            w->type = PLUMBOB_TYPE_KEY;
            ed->key_compression = PLUMBOB_COMPRESSION_NONE;
        } else {
            w = &ed->w[ed->key_at];
        }
        ok = tool_edit_store(ed, w, copy, kb.size, ed->key_compression != PLUMBOB_COMPRESSION_NONE, ed->path);
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

int tool_package_put_all(const char *pkg_path, uint32_t major, const tool_put *items, uint32_t n) {
    tool_edit ed;
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
        if (!tool_edit_open(&ed, pkg_path)) goto done;
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
        at = tool_edit_find(&ed, it->type, it->group, it->instance);
        replaced = replaced_of[k] = at >= 0;
        copy = (unsigned char *)malloc(it->size ? it->size : 1u);
        if (!copy) { tool_error(pkg_path, "out of memory"); goto done; }
        memcpy(copy, it->data, it->size);
        if (replaced) {
            w = &ed.w[at];
            if (!tool_edit_store(&ed, w, copy, it->size, w->compression != PLUMBOB_COMPRESSION_NONE, pkg_path)) goto done;
        } else {
            int compress = ed.n == 0 || ed.compressed * 2u >= ed.n;
            w = tool_edit_append(&ed);
            if (!w) { free(copy); tool_error(pkg_path, "out of memory"); goto done; }
            w->type = it->type;
            w->group = it->group;
            w->instance = it->instance;
            if (!tool_edit_store(&ed, w, copy, it->size, compress, pkg_path)) goto done;
        }
        if (it->name) {
            if (!tool_edit_set_name(&ed, it->instance, it->name, strlen(it->name))) { tool_error(pkg_path, "out of memory"); goto done; }
            ed.names_changed = 1;
        }
    }
    if (!tool_edit_commit(&ed)) goto done;
    for (k = 0; k < n; k++)
        printf("%s %08X:%08X:%016llX%s%s in %s (%u resources)\n", replaced_of[k] ? "replaced" : "added",
               (unsigned)items[k].type, (unsigned)items[k].group, (unsigned long long)items[k].instance,
               items[k].name ? " as " : "", items[k].name ? items[k].name : "", pkg_path, (unsigned)ed.n);
    rc = 0;
done:
    tool_edit_free(&ed);
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
