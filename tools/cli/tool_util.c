/* Package-resource loading, the format registry, JSON output helpers. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tool.h"
#include "util/tool_buf.h"

/* Types the tool decodes: an @INSTANCE that also matches other resources
 * (a model's OBJD, MODL and rig share instances) means the decodable one. */
static int decodable_type(uint32_t type) {
    return type == PLUMBOB_TYPE_CLIP || type == PLUMBOB_TYPE_JAZZ || type == PLUMBOB_TYPE_GMDC ||
           type == PLUMBOB_TYPE_ANIM || type == 0xE519C933u /* CRES */ || type == 0x8EAF13DEu /* rig */;
}

static int ascii_ieq(const char *a, size_t n, const char *b) {
    size_t i;
    if (strlen(b) != n) return 0;
    for (i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y) return 0;
    }
    return 1;
}

/* Is e the resource `spec` names: its instance (by_name 0), or the name `ls`
 * shows for it (the KEY table's, or a Sims 2 resource's own), ASCII case
 * ignored. */
static int spec_matches(const plumbob_package *pkg, const tool_names *names, const plumbob_package_entry *e,
                        const char *spec, int by_name, uint64_t inst) {
    char nm[256];
    if (!by_name) return e->instance == inst;
    return tool_resource_name(pkg, names, e, nm, sizeof nm) && ascii_ieq(nm, strlen(nm), spec);
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
        else
            tool_error(pkgpath, "not a readable package: %s", plumbob_result_str(r));
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

/* Formats the tool can decode; filled in as each format lands. */
static const tool_format formats[] = {
    {PLUMBOB_FORMAT_DBPF, package_info, NULL},
    {PLUMBOB_FORMAT_CLIP, clip_info, clip_reencode},
    {PLUMBOB_FORMAT_GMDC, gmdc_info, gmdc_reencode},
    {PLUMBOB_FORMAT_ANIM, anim_info, anim_reencode},
    {PLUMBOB_FORMAT_JAZZ, jazz_info, jazz_reencode},
    {PLUMBOB_FORMAT_RIG, rig_info, rig_reencode},
};

static const tool_format cres_format = {PLUMBOB_FORMAT_SIMS2_RCOL, cres_info, cres_reencode};

const tool_format *tool_format_for_type(uint32_t type) {
    return type == PLUMBOB_TYPE_CRES ? &cres_format : tool_format_for(tool_format_of_type(type));
}

const tool_format *tool_format_of(const tool_input *in, plumbob_format *f) {
    plumbob_sims2_rcol rc;
    *f = tool_input_format(in);
    if (in->from_package && in->entry.type == PLUMBOB_TYPE_CRES) return &cres_format; /* by the index's type */
    if (*f == PLUMBOB_FORMAT_SIMS2_RCOL && plumbob_sims2_rcol_open(&rc, in->data, in->size) == PLUMBOB_OK &&
        plumbob_sims2_rcol_block_id(&rc, 0) == PLUMBOB_TYPE_CRES)
        return &cres_format;
    return tool_format_for(*f);
}

const tool_format *tool_format_for(plumbob_format f) {
    size_t i;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == f && formats[i].info) return &formats[i];
    return NULL;
}

/* The JSON text helpers write through tool_buf, so the escaping rules live
 * in one place (tools/util/tool_buf.c). */
void json_string(FILE *out, const char *s, size_t len) {
    tool_buf b = {0};
    tb_json_string(&b, s, len);
    fwrite(b.data, 1, b.size, out);
    tb_free(&b);
}

void json_float(FILE *out, float f) {
    char text[32];
    fwrite(text, 1, tb_format_json_float(text, f), out);
}

void json_floats(FILE *out, const float *v, unsigned n) {
    unsigned i;
    fputc('[', out);
    for (i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        json_float(out, v[i]);
    }
    fputc(']', out);
}

/* Lives here, not in cmd_gmdc.c, so that the export helpers (gltf_output.c)
 * need no command file. */
void tool_error_detail(const plumbob_error *e, char *out, size_t cap) {
    if (e->index != PLUMBOB_ERROR_NO_INDEX)
        snprintf(out, cap, "%s at byte %zu (0x%zx), %s %u: %s", plumbob_result_str(e->result), e->offset, e->offset,
                 e->table, (unsigned)e->index, e->reason);
    else
        snprintf(out, cap, "%s at byte %zu (0x%zx), %s: %s", plumbob_result_str(e->result), e->offset, e->offset,
                 e->table, e->reason);
}

int tool_gmdc_drawable(const plumbob_gmdc *g, const char *where) {
    uint32_t i;
    for (i = 0; i < g->group_count; i++)
        if (g->groups[i].primitive != PLUMBOB_GMDC_PRIMITIVE_TRIANGLES) {
            tool_error(where, "group %u (%.*s): primitive type %u is not a triangle list (the GMDC page lists only 2): "
                       "unsupported", (unsigned)i, (int)g->groups[i].name.len, g->groups[i].name.ptr,
                       (unsigned)g->groups[i].primitive);
            return 0;
        }
    return 1;
}

plumbob_result tool_gmdc_decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem) {
    size_t need;
    plumbob_arena a;
    plumbob_error err;
    plumbob_result r = plumbob_gmdc_measure_ex(in->data, in->size, &need, &err);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, *mem, need);
        r = plumbob_gmdc_decode_ex(in->data, in->size, &a, g, &err);
    }
    if (r != PLUMBOB_OK) {
        free(*mem);
        *mem = NULL;
        /* only into this input's own buffer (a struct copy keeps the old pointer) */
        if (in->why && in->why == in->why_text) tool_error_detail(&err, in->why, sizeof in->why_text);
    }
    return r;
}

plumbob_result tool_anim_decode(const tool_input *in, plumbob_anim *a, unsigned char **mem) {
    size_t need;
    plumbob_arena arena;
    plumbob_result r = plumbob_anim_measure(in->data, in->size, &need);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&arena, *mem, need);
        r = plumbob_anim_decode(in->data, in->size, &arena, a);
    }
    if (r != PLUMBOB_OK) {
        free(*mem);
        *mem = NULL;
    }
    return r;
}
