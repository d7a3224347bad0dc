/* Reading a glTF 2.0 file another program wrote: see gltf_read.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_read.h"
#include "util/bytes.h"

const json_value *gltf_at(const json_value *v, const char *key, uint32_t i) {
    const json_value *a = json_get(v, key);
    if (!a || a->kind != JSON_ARRAY || i >= a->count) return NULL;
    return &a->items[i];
}

int gltf_uint(const json_value *v, const char *key, uint32_t *out) {
    const json_value *n = json_get(v, key);
    if (!n || n->kind != JSON_NUMBER || !(n->number >= 0) || n->number > 4294967295.0 ||
        n->number != (double)(uint32_t)n->number)
        return 0;
    *out = (uint32_t)n->number;
    return 1;
}

/* A hex digit's value, or -1. */
static int hex_value(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int b64(int ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Base64 after the comma of a data URI; NULL on a bad character. */
static unsigned char *base64_decode(const char *s, size_t len, size_t *out_len) {
    unsigned char *out = (unsigned char *)malloc(len / 4u * 3u + 3u);
    size_t i, n = 0;
    uint32_t acc = 0;
    int bits = 0;
    if (!out) return NULL;
    for (i = 0; i < len && s[i] != '='; i++) {
        int v = b64((unsigned char)s[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (unsigned char)(acc >> bits);
        }
    }
    *out_len = n;
    return out;
}

static int load_buffer(gltf_doc *doc, uint32_t i, const unsigned char *bin, size_t bin_size, const char *path,
                       char *why, size_t cap) {
    const json_value *b = gltf_at(&doc->root, "buffers", i), *uri = b ? json_get(b, "uri") : NULL;
    uint32_t length = 0;
    if (!b || !gltf_uint(b, "byteLength", &length)) {
        snprintf(why, cap, "buffers[%u]: no byteLength", (unsigned)i);
        return 0;
    }
    if (!uri) { /* the GLB binary chunk */
        if (i != 0 || !bin) {
            snprintf(why, cap, "buffers[%u]: no uri and no GLB binary chunk", (unsigned)i);
            return 0;
        }
        doc->buffers[i] = (unsigned char *)bin;
        doc->buffer_size[i] = bin_size;
    } else if (uri->kind == JSON_STRING && strncmp(uri->str, "data:", 5) == 0) {
        const char *comma = strchr(uri->str, ',');
        if (!comma || !strstr(uri->str, ";base64,")) {
            snprintf(why, cap, "buffers[%u]: a data URI that is not base64", (unsigned)i);
            return 0;
        }
        doc->buffers[i] = base64_decode(comma + 1, strlen(comma + 1), &doc->buffer_size[i]);
        if (!doc->buffers[i]) {
            snprintf(why, cap, "buffers[%u]: bad base64", (unsigned)i);
            return 0;
        }
        doc->owned[i] = 1;
    } else if (uri->kind == JSON_STRING) { /* a file beside the .gltf */
        char file[4096], name[2048];
        const char *slash = strrchr(path, '/'), *u = uri->str;
        size_t dir = slash ? (size_t)(slash - path + 1) : 0, n = 0;
        FILE *f;
        long sz;
        int plain = 1;
        /* a relative URI reference: percent escapes (RFC 3986, as glTF
         * says; "my%20walk.bin" is the file "my walk.bin") decoded */
        while (*u && plain && n + 1 < sizeof name) {
            if (*u == '%') {
                int hi = hex_value(u[1]), lo = hi >= 0 ? hex_value(u[2]) : -1;
                if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) plain = 0;
                else name[n++] = (char)(hi * 16 + lo);
                u += plain ? 3 : 0;
            } else {
                name[n++] = *u++;
            }
        }
        name[n] = '\0';
        if (!plain || *u || strstr(name, "..") || name[0] == '/' || strchr(name, ':')) {
            snprintf(why, cap, "buffers[%u]: uri '%s' is not a plain file name beside the glTF", (unsigned)i, uri->str);
            return 0;
        }
        snprintf(file, sizeof file, "%.*s%s", (int)dir, path, name);
        f = fopen(file, "rb");
        if (!f || fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
            if (f) fclose(f);
            snprintf(why, cap, "buffers[%u]: cannot read %s", (unsigned)i, file);
            return 0;
        }
        doc->buffers[i] = (unsigned char *)malloc((size_t)sz + 1u);
        doc->owned[i] = 1;
        if (!doc->buffers[i] || fread(doc->buffers[i], 1, (size_t)sz, f) != (size_t)sz) {
            fclose(f);
            snprintf(why, cap, "buffers[%u]: cannot read %s", (unsigned)i, file);
            return 0;
        }
        fclose(f);
        doc->buffer_size[i] = (size_t)sz;
    } else {
        snprintf(why, cap, "buffers[%u]: uri is not a string", (unsigned)i);
        return 0;
    }
    if (doc->buffer_size[i] < length) {
        snprintf(why, cap, "buffers[%u]: %zu bytes where byteLength says %u", (unsigned)i, doc->buffer_size[i],
                 (unsigned)length);
        return 0;
    }
    return 1;
}

int gltf_read(const unsigned char *data, size_t size, const char *path, gltf_doc *doc, char *why, size_t cap) {
    const unsigned char *json = data, *bin = NULL;
    size_t json_size = size, bin_size = 0;
    const json_value *buffers;
    char jwhy[160];
    uint32_t i;
    memset(doc, 0, sizeof *doc);
    if (size >= 12 && memcmp(data, "glTF", 4) == 0) { /* GLB: header, JSON chunk, optional BIN chunk */
        uint32_t length = tool_le32(data + 8), jlen;
        if (tool_le32(data + 4) != 2 || length > size || length < 20) {
            snprintf(why, cap, "GLB header: version %u, length %u of %zu bytes", (unsigned)tool_le32(data + 4),
                     (unsigned)length, size);
            return 0;
        }
        jlen = tool_le32(data + 12);
        if (tool_le32(data + 16) != 0x4E4F534Au || jlen > length - 20u) {
            snprintf(why, cap, "GLB: the first chunk is not JSON inside the file");
            return 0;
        }
        json = data + 20;
        json_size = jlen;
        if (length - 20u - jlen >= 8u) {
            const unsigned char *c = data + 20 + jlen;
            uint32_t blen = tool_le32(c);
            if (tool_le32(c + 4) == 0x004E4942u && blen <= length - 28u - jlen) {
                bin = c + 8;
                bin_size = blen;
            }
        }
    }
    if (!json_parse((const char *)json, json_size, &doc->root, jwhy, sizeof jwhy)) {
        snprintf(why, cap, "not glTF JSON: %s", jwhy);
        return 0;
    }
    { /* extensions a reader must know to read the file: the ones that hold the vertex data
         elsewhere (its accessors then read as zeros) are refused rather than misread */
        const json_value *req = json_get(&doc->root, "extensionsRequired");
        uint32_t k;
        for (k = 0; req && req->kind == JSON_ARRAY && k < req->count; k++)
            if (req->items[k].kind == JSON_STRING && (strcmp(req->items[k].str, "KHR_draco_mesh_compression") == 0 ||
                                                      strcmp(req->items[k].str, "EXT_meshopt_compression") == 0)) {
                snprintf(why, cap, "the glTF requires %s, which plumbob cannot decode: export it without compression",
                         req->items[k].str);
                return 0; /* the caller frees the document */
            }
    }
    buffers = json_get(&doc->root, "buffers");
    doc->buffer_count = buffers && buffers->kind == JSON_ARRAY ? (uint32_t)buffers->count : 0;
    doc->buffers = (unsigned char **)calloc(doc->buffer_count + 1u, sizeof *doc->buffers);
    doc->buffer_size = (size_t *)calloc(doc->buffer_count + 1u, sizeof *doc->buffer_size);
    doc->owned = (unsigned char *)calloc(doc->buffer_count + 1u, 1);
    if (!doc->buffers || !doc->buffer_size || !doc->owned) {
        snprintf(why, cap, "out of memory");
        return 0;
    }
    for (i = 0; i < doc->buffer_count; i++)
        if (!load_buffer(doc, i, bin, bin_size, path, why, cap)) return 0;
    return 1;
}

void gltf_doc_free(gltf_doc *doc) {
    uint32_t i;
    for (i = 0; i < doc->buffer_count; i++)
        if (doc->owned && doc->owned[i]) free(doc->buffers[i]);
    free(doc->buffers);
    free(doc->buffer_size);
    free(doc->owned);
    json_free(&doc->root);
    memset(doc, 0, sizeof *doc);
}

static uint32_t component_size(uint32_t type) {
    switch (type) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    case 5125: case 5126: return 4;
    default: return 0;
    }
}

static float component(const unsigned char *p, uint32_t type, int normalized) {
    float v;
    switch (type) {
    case 5120: v = (float)(signed char)p[0]; return normalized ? (v / 127.0f < -1.0f ? -1.0f : v / 127.0f) : v;
    case 5121: v = (float)p[0]; return normalized ? v / 255.0f : v;
    case 5122: v = (float)(int16_t)tool_le16(p); return normalized ? (v / 32767.0f < -1.0f ? -1.0f : v / 32767.0f) : v;
    case 5123: v = (float)tool_le16(p); return normalized ? v / 65535.0f : v;
    case 5125: return (float)tool_le32(p);
    default: return tool_f32le(p);
    }
}

/* The bytes of bufferView `view` from byte `offset`, for count elements of
 * elem bytes at stride (0: packed); NULL after saying why. */
static const unsigned char *view_bytes(const gltf_doc *doc, uint32_t view, uint32_t offset, uint32_t count,
                                       uint32_t elem, uint32_t *stride, const char *what, char *why, size_t cap) {
    const json_value *bv = gltf_at(&doc->root, "bufferViews", view);
    uint32_t buffer = 0, boff = 0, blen = 0, bstride = 0;
    uint64_t need;
    if (!bv || !gltf_uint(bv, "buffer", &buffer) || buffer >= doc->buffer_count || !gltf_uint(bv, "byteLength", &blen)) {
        snprintf(why, cap, "%s: bufferViews[%u] is missing or has no buffer and byteLength", what, (unsigned)view);
        return NULL;
    }
    (void)gltf_uint(bv, "byteOffset", &boff);
    (void)gltf_uint(bv, "byteStride", &bstride);
    *stride = bstride ? bstride : elem;
    need = count ? (uint64_t)offset + (uint64_t)(count - 1u) * *stride + elem : 0;
    if ((uint64_t)boff + blen > doc->buffer_size[buffer] || need > blen || *stride < elem) {
        snprintf(why, cap, "%s: %u elements of %u bytes run past bufferViews[%u]", what, (unsigned)count,
                 (unsigned)elem, (unsigned)view);
        return NULL;
    }
    return doc->buffers[buffer] + boff + offset;
}

/* The accessor's count and componentType, its type checked against comps
 * (1 SCALAR .. 4 VEC4, 16 MAT4); NULL after saying why. */
static const json_value *accessor_head(const gltf_doc *doc, uint32_t index, uint32_t comps, uint32_t *count,
                                       uint32_t *ctype, char *what, size_t what_cap, char *why, size_t cap) {
    const json_value *a = gltf_at(&doc->root, "accessors", index), *type;
    static const char *const types[5] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    const char *want = comps == 16 ? "MAT4" : comps >= 1 && comps <= 4 ? types[comps] : "?";
    snprintf(what, what_cap, "accessors[%u]", (unsigned)index);
    if (!a || !gltf_uint(a, "count", count) || !gltf_uint(a, "componentType", ctype)) {
        snprintf(why, cap, "%s: missing, or without count and componentType", what);
        return NULL;
    }
    type = json_get(a, "type");
    if (!type || type->kind != JSON_STRING || strcmp(type->str, want) != 0) {
        snprintf(why, cap, "%s: type %s where %s is needed", what, type && type->kind == JSON_STRING ? type->str : "?", want);
        return NULL;
    }
    if (*count > 100000000u) {
        snprintf(why, cap, "%s: %u elements is more than plumbob imports", what, (unsigned)*count);
        return NULL;
    }
    return a;
}

/* Whether the file lists `name` in extensionsUsed. */
static int uses_extension(const gltf_doc *doc, const char *name) {
    const json_value *used = json_get(&doc->root, "extensionsUsed");
    uint32_t k;
    for (k = 0; used && used->kind == JSON_ARRAY && k < used->count; k++)
        if (used->items[k].kind == JSON_STRING && strcmp(used->items[k].str, name) == 0) return 1;
    return 0;
}

int gltf_read_floats(const gltf_doc *doc, uint32_t index, uint32_t comps, float **out, uint32_t *count_out, char *why,
                     size_t cap) {
    const json_value *a, *norm, *sparse;
    uint32_t count = 0, ctype = 0, view, offset = 0, csize, stride, i, c;
    int normalized;
    const unsigned char *p;
    char what[40];
    float *v;
    *out = NULL;
    if (!(a = accessor_head(doc, index, comps, &count, &ctype, what, sizeof what, why, cap))) return 0;
    csize = component_size(ctype);
    norm = json_get(a, "normalized");
    normalized = norm && norm->kind == JSON_BOOL && norm->number != 0;
    /* KHR_mesh_quantization (gltfpack writes it) allows plain byte and short
     * integers too, read as the numbers they are (the node's scale makes them
     * sizes) */
    if (!csize || (ctype != 5126 && !normalized && !(ctype <= 5123 && uses_extension(doc, "KHR_mesh_quantization")))) {
        snprintf(why, cap, "%s: componentType %u is not FLOAT or a normalized integer", what, (unsigned)ctype);
        return 0;
    }
    v = (float *)calloc((size_t)count * comps + 1u, sizeof *v);
    if (!v) {
        snprintf(why, cap, "out of memory");
        return 0;
    }
    if (gltf_uint(a, "bufferView", &view)) { /* no bufferView: zeros (then sparse) */
        (void)gltf_uint(a, "byteOffset", &offset);
        p = view_bytes(doc, view, offset, count, csize * comps, &stride, what, why, cap);
        if (!p) {
            free(v);
            return 0;
        }
        for (i = 0; i < count; i++)
            for (c = 0; c < comps; c++) v[(size_t)i * comps + c] = component(p + (size_t)i * stride + c * csize, ctype, normalized);
    }
    sparse = json_get(a, "sparse");
    if (sparse) {
        const json_value *si = json_get(sparse, "indices"), *sv = json_get(sparse, "values");
        uint32_t n = 0, itype = 0, iview, ioff = 0, vview, voff = 0, istride, vstride;
        const unsigned char *ip, *vp;
        if (!gltf_uint(sparse, "count", &n) || !si || !sv || !gltf_uint(si, "bufferView", &iview) ||
            !gltf_uint(si, "componentType", &itype) || !gltf_uint(sv, "bufferView", &vview) ||
            (itype != 5121 && itype != 5123 && itype != 5125) || n > count) {
            snprintf(why, cap, "%s: a sparse part without count, indices and values", what);
            free(v);
            return 0;
        }
        (void)gltf_uint(si, "byteOffset", &ioff);
        (void)gltf_uint(sv, "byteOffset", &voff);
        ip = view_bytes(doc, iview, ioff, n, component_size(itype), &istride, what, why, cap);
        vp = ip ? view_bytes(doc, vview, voff, n, csize * comps, &vstride, what, why, cap) : NULL;
        if (!vp) {
            free(v);
            return 0;
        }
        for (i = 0; i < n; i++) {
            const unsigned char *q = ip + (size_t)i * component_size(itype);
            uint32_t at = itype == 5121 ? q[0] : itype == 5123 ? tool_le16(q) : tool_le32(q);
            if (at >= count) {
                snprintf(why, cap, "%s: sparse index %u of %u elements", what, (unsigned)at, (unsigned)count);
                free(v);
                return 0;
            }
            for (c = 0; c < comps; c++)
                v[(size_t)at * comps + c] = component(vp + (size_t)i * csize * comps + c * csize, ctype, normalized);
        }
    }
    for (i = 0; i < count * comps; i++)
        if (!(v[i] == v[i]) || v[i] > 3.0e38f || v[i] < -3.0e38f) {
            snprintf(why, cap, "%s: element %u is not a finite number", what, (unsigned)(i / comps));
            free(v);
            return 0;
        }
    *out = v;
    *count_out = count;
    return 1;
}

int gltf_read_uints(const gltf_doc *doc, uint32_t index, uint32_t comps, uint32_t **out, uint32_t *count_out, char *why,
                    size_t cap) {
    const json_value *a;
    uint32_t count = 0, ctype = 0, view, offset = 0, csize, stride, i, c;
    const unsigned char *p;
    char what[40];
    uint32_t *v;
    *out = NULL;
    if (!(a = accessor_head(doc, index, comps, &count, &ctype, what, sizeof what, why, cap))) return 0;
    if (ctype != 5121 && ctype != 5123 && ctype != 5125) {
        snprintf(why, cap, "%s: componentType %u is not an unsigned integer", what, (unsigned)ctype);
        return 0;
    }
    if (json_get(a, "sparse") || !gltf_uint(a, "bufferView", &view)) {
        snprintf(why, cap, "%s: integer data without a bufferView, or sparse, is not read", what);
        return 0;
    }
    csize = component_size(ctype);
    (void)gltf_uint(a, "byteOffset", &offset);
    p = view_bytes(doc, view, offset, count, csize * comps, &stride, what, why, cap);
    if (!p) return 0;
    v = (uint32_t *)malloc(sizeof *v * ((size_t)count * comps + 1u));
    if (!v) {
        snprintf(why, cap, "out of memory");
        return 0;
    }
    for (i = 0; i < count; i++)
        for (c = 0; c < comps; c++) {
            const unsigned char *q = p + (size_t)i * stride + c * csize;
            v[(size_t)i * comps + c] = csize == 1 ? q[0] : csize == 2 ? tool_le16(q) : tool_le32(q);
        }
    *out = v;
    *count_out = count;
    return 1;
}
