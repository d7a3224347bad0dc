/* Loading FILE or PACKAGE@KEY: finding a resource in a package by key or
 * name, the package's own names for its resources, and what an input is. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "plumbob.h"
#include "util/ascii.h"
#include "util/files.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_types.h"

/* Types the tool decodes: an @INSTANCE that also matches other resources
 * (a model's OBJD, MODL and rig share instances) means the decodable one. */
static int decodable_type(uint32_t type) {
    return type == PLUMBOB_TYPE_CLIP || type == PLUMBOB_TYPE_JAZZ || type == PLUMBOB_TYPE_GMDC ||
           type == PLUMBOB_TYPE_ANIM || type == 0xE519C933u /* CRES */ || type == 0x8EAF13DEu /* rig */ ||
           type == PLUMBOB_TYPE_GEOM;
}

/* Is e the resource `spec` names: its instance (by_name 0), or the name `ls`
 * shows for it (the KEY table's, or a Sims 2 resource's own), ASCII case
 * ignored. */
static int spec_matches(const plumbob_package *pkg, const tool_names *names, const plumbob_package_entry *e,
                        const char *spec, int by_name, uint64_t inst) {
    char nm[256];
    if (!by_name) return e->instance == inst;
    return tool_resource_name(pkg, names, e, nm, sizeof nm) && tool_ascii_ieq(nm, strlen(nm), spec);
}

int tool_find_resource(const plumbob_package *pkg, const char *spec, const char *where, int strict,
                       plumbob_package_entry *out) {
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    uint64_t t, g, inst = 0;
    uint32_t i, matches = 0, decodable = 0;
    tool_names names;
    int by_name = 0, pass;
    if (c1) {
        if (!c2 || !tool_parse_type(spec, (size_t)(c1 - spec), &t) || !tool_parse_hex(c1 + 1, (size_t)(c2 - c1 - 1), &g) ||
            !tool_parse_hex(c2 + 1, strlen(c2 + 1), &inst) || g > 0xFFFFFFFFu)
            return -1;
        return plumbob_package_find(pkg, (uint32_t)t, (uint32_t)g, inst, out, NULL) == PLUMBOB_OK;
    }
    tool_names_load(pkg, &names);
    /* an instance in hex first; a name when it is none (or matches none: "face" is hex) */
    for (pass = tool_parse_hex(spec, strlen(spec), &inst) ? 0 : 1; pass < 2 && matches == 0; pass++) {
        by_name = pass;
        for (i = 0; i < pkg->count; i++) {
            plumbob_package_entry e;
            if (plumbob_package_entry_at(pkg, i, &e) != PLUMBOB_OK) continue;
            if (!spec_matches(pkg, &names, &e, spec, by_name, inst)) continue;
            matches++;
            if (decodable_type(e.type)) {
                if (!decodable) *out = e;
                decodable++;
            } else if (matches == 1 && !decodable) {
                *out = e;
            }
        }
    }
    if (matches > 1 && (strict || decodable != 1)) {
        uint32_t shown = 0;
        tool_error(where, "'%s' matches %u resources; name one as TYPE:GROUP:INSTANCE:", spec, (unsigned)matches);
        for (i = 0; i < pkg->count && shown < 12; i++) {
            plumbob_package_entry e;
            const char *tn;
            if (plumbob_package_entry_at(pkg, i, &e) != PLUMBOB_OK) continue;
            if (!spec_matches(pkg, &names, &e, spec, by_name, inst)) continue;
            tn = tool_type_name(e.type);
            fprintf(stderr, "    %08X:%08X:%016llX  %s\n", (unsigned)e.type, (unsigned)e.group,
                    (unsigned long long)e.instance, tn ? tn : "");
            shown++;
        }
        if (shown < matches) fprintf(stderr, "    ... and %u more\n", (unsigned)(matches - shown));
        tool_names_free(&names);
        return -2;
    }
    tool_names_free(&names);
    if (matches == 0 && by_name && !tool_parse_hex(spec, strlen(spec), &inst)) return -1;
    return matches > 0;
}

int tool_load(const char *path, tool_input *in) {
    struct stat st;
    const char *at = strrchr(path, '@');
    plumbob_package pkg;
    plumbob_result r;
    const unsigned char *res;
    size_t rs;
    char pkgpath[1024];
    int found;
    memset(in, 0, sizeof *in);
    in->why = in->why_text;
    snprintf(in->name, sizeof in->name, "%s", path);
    if (!at || stat(path, &st) == 0) return tool_read_file(path, &in->data, &in->size);
    if ((size_t)(at - path) >= sizeof pkgpath) {
        tool_error(path, "path too long");
        return 0;
    }
    memcpy(pkgpath, path, (size_t)(at - path));
    pkgpath[at - path] = '\0';
    if (!tool_read_file(pkgpath, &in->package_data, &in->package_size)) return 0;
    r = plumbob_package_open(&pkg, in->package_data, in->package_size);
    if (r != PLUMBOB_OK) {
        if (plumbob_identify(in->package_data, in->package_size) != PLUMBOB_FORMAT_DBPF &&
            tool_kind_name(in->package_data, in->package_size))
            tool_error(pkgpath, "is a %s, not a package", tool_kind_name(in->package_data, in->package_size));
        else {
            char wb[320];
            tool_error(pkgpath, "not a readable package: %s",
                       tool_package_why(in->package_data, in->package_size, r, wb, sizeof wb));
        }
        tool_free(in);
        return 0;
    }
    found = tool_find_resource(&pkg, at + 1, path, 0, &in->entry);
    if (found <= 0) {
        if (found == -1)
            tool_error(path, "'%s' is not INSTANCE or TYPE:GROUP:INSTANCE in hex, nor a name `plumbob ls` shows",
                       at + 1);
        else if (found == -2)
            ; /* the matches were listed */
        else
            tool_error(pkgpath, "no resource %s in this package (see `plumbob ls %s`)", at + 1, pkgpath);
        tool_free(in);
        return 0;
    }
    snprintf(in->name, sizeof in->name, "%s@%08X:%08X:%016llX", pkgpath, (unsigned)in->entry.type,
             (unsigned)in->entry.group, (unsigned long long)in->entry.instance);
    in->data = tool_entry_buffer(&pkg, &in->entry, in->name);
    if (!in->data) {
        tool_free(in);
        return 0;
    }
    r = plumbob_package_read(&pkg, &in->entry, in->data, in->entry.mem_size, &res, &rs);
    if (r != PLUMBOB_OK) {
        if (in->entry.compression == PLUMBOB_COMPRESSION_ZLIB)
            tool_error(in->name, "zlib-compressed resource (0x5A42): not supported");
        else if (in->entry.compression == PLUMBOB_COMPRESSION_DELETED)
            tool_error(in->name, "resource is marked deleted (0xFFE0)");
        else
            tool_error(in->name, "cannot read the resource: %s", plumbob_result_str(r));
        tool_free(in);
        return 0;
    }
    if (res != in->data) memcpy(in->data, res, rs); /* stored: copy out of the package */
    in->size = rs;
    in->from_package = 1;
    return 1;
}

unsigned char *tool_entry_buffer(const plumbob_package *pkg, const plumbob_package_entry *e, const char *where) {
    size_t bytes = 0;
    unsigned char *buf;
    plumbob_result r = plumbob_package_read_size(pkg, e, &bytes);
    if (r == PLUMBOB_ERR_BAD_COUNT) {
        if (where)
            tool_error(where, "claims %u bytes decompressed from %u stored; its RefPack stream cannot give that "
                       "(refused before allocating)", (unsigned)e->mem_size, (unsigned)e->file_size);
        return NULL;
    }
    /* stored entries are copied out of the package; other errors are the
     * read's to report, and it needs no room for them */
    if (r == PLUMBOB_OK && e->compression == PLUMBOB_COMPRESSION_NONE) bytes = e->file_size;
    buf = (unsigned char *)malloc(bytes ? bytes : 1u);
    if (!buf && where) tool_error(where, "out of memory (%zu bytes)", bytes);
    return buf;
}

void tool_free(tool_input *in) {
    free(in->data);
    free(in->package_data);
    in->data = NULL;
    in->package_data = NULL;
    in->size = 0;
}

void tool_names_load(const plumbob_package *pkg, tool_names *names) {
    uint32_t i = 0;
    plumbob_package_entry e;
    memset(names, 0, sizeof *names);
    while (plumbob_package_next_of_type(pkg, PLUMBOB_TYPE_KEY, &i, &e) == PLUMBOB_OK) {
        const unsigned char *res;
        size_t rs;
        names->buf = tool_entry_buffer(pkg, &e, NULL);
        if (names->buf && plumbob_package_read(pkg, &e, names->buf, e.mem_size, &res, &rs) == PLUMBOB_OK &&
            plumbob_key_table_open(&names->kt, res, rs) == PLUMBOB_OK) {
            names->have = 1;
            return;
        }
        free(names->buf);
        names->buf = NULL;
    }
}

void tool_names_free(tool_names *names) {
    free(names->buf);
    names->buf = NULL;
    names->have = 0;
}

static void copy_name(char *out, size_t cap, const char *s, size_t len) {
    size_t i;
    if (len >= cap) len = cap - 1;
    for (i = 0; i < len; i++) out[i] = s[i];
    out[len] = '\0';
}

int tool_resource_name(const plumbob_package *pkg, const tool_names *names,
                       const plumbob_package_entry *e, char *out, size_t cap) {
    plumbob_string s;
    if (names && names->have && plumbob_key_table_find(&names->kt, e->instance, &s) == PLUMBOB_OK && s.len) {
        copy_name(out, cap, s.ptr, s.len);
        return 1;
    }
    if (pkg->major == 1 && e->type != PLUMBOB_TYPE_SIMS2_DIR) {
        unsigned char *buf = tool_entry_buffer(pkg, e, NULL);
        const unsigned char *res;
        size_t rs;
        int ok = 0;
        plumbob_sims2_rcol rc;
        if (buf && plumbob_package_read(pkg, e, buf, e->mem_size, &res, &rs) == PLUMBOB_OK &&
            plumbob_sims2_rcol_open(&rc, res, rs) == PLUMBOB_OK && plumbob_sims2_rcol_name(&rc, &s) == PLUMBOB_OK &&
            s.len) {
            copy_name(out, cap, s.ptr, s.len);
            ok = 1;
        }
        free(buf);
        return ok;
    }
    return 0;
}

plumbob_format tool_input_format(const tool_input *in) {
    return in->from_package ? tool_format_of_type(in->entry.type) : plumbob_identify(in->data, in->size);
}
