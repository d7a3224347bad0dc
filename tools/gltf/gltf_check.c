/* The glTF checker: JSON tree first, then each top-level array in the
 * order its references need (buffers, views, accessors, meshes, skins,
 * nodes, scenes, animations).  The first problem found is reported. */
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_check.h"
#include "util/json_parse.h"
#include "util/bytes.h"

typedef struct accessor_info {
    const unsigned char *p;  /* first element */
    uint32_t count, comps, csize;
    int ctype, normalized;
    size_t stride;
} accessor_info;

typedef struct checker {
    const json_value *root, *nodes, *meshes, *skins, *accessors, *views, *buffers, *animations;
    const unsigned char **buf_data;   /* per buffer: its bytes (byteLength of them) */
    unsigned char **buf_owned;        /* decoded data URIs */
    size_t buf_count;
    accessor_info *acc;
    int32_t *parent;                  /* per node */
    uint32_t *mesh_targets;           /* per mesh: morph target count */
    const unsigned char *bin;         /* GLB BIN chunk */
    size_t bin_size;
    int have_bin;
    char *why;
    size_t why_cap;
    int failed;
    gltf_check_report *rep;
} checker;

static int bad(checker *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(checker *c, const char *fmt, ...) {
    va_list ap;
    if (c->failed) return 0;
    c->failed = 1;
    va_start(ap, fmt);
    vsnprintf(c->why, c->why_cap, fmt, ap);
    va_end(ap);
    return 0;
}

static size_t len_of(const json_value *a) { return a ? a->count : 0; }

/* Top-level array `key` (NULL when absent; an error when not an array). */
static const json_value *top_array(checker *c, const char *key) {
    const json_value *v = json_get(c->root, key);
    if (v && (v->kind != JSON_ARRAY || v->count == 0)) {
        bad(c, "%s: not a non-empty array", key);
        return NULL;
    }
    return v;
}

/* Integer member `key` of obj in [0, limit); *out = -1 when absent and optional. */
static int get_index(checker *c, const json_value *obj, const char *key, size_t limit, int required,
                     long *out, const char *where, size_t wi) {
    const json_value *v = json_get(obj, key);
    *out = -1;
    if (!v) return required ? bad(c, "%s[%zu]: no %s", where, wi, key) : 1;
    /* compared as doubles first: a cast of 7.8e33 to an integer is undefined */
    if (v->kind != JSON_NUMBER || !(v->number >= 0) || v->number != floor(v->number))
        return bad(c, "%s[%zu].%s: not a non-negative integer", where, wi, key);
    if (v->number >= (double)limit)
        return bad(c, "%s[%zu].%s: %.17g is out of range (%zu there)", where, wi, key, v->number, limit);
    *out = (long)v->number;
    return 1;
}

/* A non-negative integer member (default def when absent). */
static int get_uint(checker *c, const json_value *obj, const char *key, double def, double *out, const char *where,
                    size_t wi) {
    const json_value *v = json_get(obj, key);
    *out = def;
    if (!v) return 1;
    if (v->kind != JSON_NUMBER || v->number < 0 || v->number > 4294967295.0 || v->number != (double)(long long)v->number)
        return bad(c, "%s[%zu].%s: not a non-negative integer", where, wi, key);
    *out = v->number;
    return 1;
}

static int is_object(checker *c, const json_value *v, const char *where, size_t i) {
    return v->kind == JSON_OBJECT ? 1 : bad(c, "%s[%zu]: not an object", where, i);
}

static int base64_value(int ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Decodes base64 s[0..n) into a malloc'd buffer; 0 on bad text. */
static int base64_decode(const char *s, size_t n, unsigned char **out, size_t *out_len) {
    size_t i, o = 0;
    uint32_t acc = 0;
    int bits = 0;
    unsigned char *d = (unsigned char *)malloc(n / 4 * 3 + 3);
    if (!d) return 0;
    while (n > 0 && s[n - 1] == '=') n--;
    for (i = 0; i < n; i++) {
        int v = base64_value((unsigned char)s[i]);
        if (v < 0) { free(d); return 0; }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            d[o++] = (unsigned char)(acc >> bits);
        }
    }
    *out = d;
    *out_len = o;
    return 1;
}

static int check_buffers(checker *c) {
    size_t i, n = len_of(c->buffers);
    c->buf_count = n;
    c->buf_data = (const unsigned char **)calloc(n + 1, sizeof *c->buf_data);
    c->buf_owned = (unsigned char **)calloc(n + 1, sizeof *c->buf_owned);
    if (!c->buf_data || !c->buf_owned) return bad(c, "out of memory");
    for (i = 0; i < n; i++) {
        const json_value *b = &c->buffers->items[i], *uri;
        double bl;
        if (!is_object(c, b, "buffers", i) || !get_uint(c, b, "byteLength", -1, &bl, "buffers", i)) return 0;
        if (bl < 1) return bad(c, "buffers[%zu]: byteLength missing or 0", i);
        uri = json_get(b, "uri");
        if (!uri) {
            if (i != 0 || !c->have_bin) return bad(c, "buffers[%zu]: no uri and no GLB BIN chunk", i);
            if (c->bin_size < bl || c->bin_size > bl + 3)
                return bad(c, "buffers[0]: byteLength %.0f does not fit the BIN chunk (%zu bytes)", bl, c->bin_size);
            c->buf_data[i] = c->bin;
        } else {
            static const char prefix[] = "data:application/octet-stream;base64,";
            static const char prefix2[] = "data:application/gltf-buffer;base64,";
            size_t pl = 0, got;
            if (uri->kind != JSON_STRING) return bad(c, "buffers[%zu].uri: not a string", i);
            if (strncmp(uri->str, prefix, sizeof prefix - 1) == 0) pl = sizeof prefix - 1;
            else if (strncmp(uri->str, prefix2, sizeof prefix2 - 1) == 0) pl = sizeof prefix2 - 1;
            else return bad(c, "buffers[%zu].uri: external files are not supported by this checker", i);
            if (!base64_decode(uri->str + pl, uri->len - pl, &c->buf_owned[i], &got))
                return bad(c, "buffers[%zu].uri: bad base64", i);
            if (got != (size_t)bl)
                return bad(c, "buffers[%zu]: byteLength %.0f but the data URI holds %zu bytes", i, bl, got);
            c->buf_data[i] = c->buf_owned[i];
        }
    }
    return 1;
}

static int check_views(checker *c) {
    size_t i;
    for (i = 0; i < len_of(c->views); i++) {
        const json_value *v = &c->views->items[i];
        long b;
        double off, bl, stride, blen;
        if (!is_object(c, v, "bufferViews", i) || !get_index(c, v, "buffer", c->buf_count, 1, &b, "bufferViews", i) ||
            !get_uint(c, v, "byteOffset", 0, &off, "bufferViews", i) || !get_uint(c, v, "byteLength", 0, &bl, "bufferViews", i) ||
            !get_uint(c, v, "byteStride", 0, &stride, "bufferViews", i))
            return 0;
        get_uint(c, &c->buffers->items[b], "byteLength", 0, &blen, "buffers", (size_t)b);
        if (bl < 1) return bad(c, "bufferViews[%zu]: byteLength missing or 0", i);
        if (off + bl > blen)
            return bad(c, "bufferViews[%zu]: bytes %.0f..%.0f are past the end of buffer %ld (%.0f bytes)", i, off,
                       off + bl, b, blen);
        if (stride != 0 && (stride < 4 || stride > 252 || (long)stride % 4))
            return bad(c, "bufferViews[%zu].byteStride: %.0f is not a multiple of 4 in 4..252", i, stride);
    }
    return 1;
}

static double element_at(const accessor_info *a, uint32_t e, uint32_t k) {
    const unsigned char *p = a->p + a->stride * e + (size_t)a->csize * k;
    switch (a->ctype) {
    case 5120: return (double)(signed char)p[0];
    case 5121: return (double)p[0];
    case 5122: return (double)(int16_t)tool_le16(p);
    case 5123: return (double)tool_le16(p);
    case 5125: return (double)tool_le32(p);
    default: return (double)tool_f32le(p);
    }
}

static int type_components(const char *t) {
    static const struct { const char *name; int n; } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0) return types[i].n;
    return 0;
}

/* Declared min/max must be the data's own bounds. */
static int check_bounds(checker *c, const json_value *acc, size_t i, const accessor_info *a) {
    static const char *const keys[2] = {"min", "max"};
    int m;
    for (m = 0; m < 2; m++) {
        const json_value *d = json_get(acc, keys[m]);
        uint32_t k, e;
        if (!d) continue;
        if (d->kind != JSON_ARRAY || d->count != a->comps)
            return bad(c, "accessors[%zu].%s: needs %u numbers", i, keys[m], (unsigned)a->comps);
        for (k = 0; k < a->comps; k++) {
            double want = element_at(a, 0, k), got = d->items[k].number;
            for (e = 1; e < a->count; e++) {
                double x = element_at(a, e, k);
                if (m ? x > want : x < want) want = x;
            }
            if (d->items[k].kind != JSON_NUMBER ||
                (a->ctype == 5126 ? (float)got != (float)want : got != want))
                return bad(c, "accessors[%zu].%s[%u]: declared %.9g, the data's is %.9g", i, keys[m], (unsigned)k,
                           got, want);
        }
    }
    return 1;
}

static int check_accessors(checker *c) {
    size_t i, n = len_of(c->accessors);
    c->acc = (accessor_info *)calloc(n + 1, sizeof *c->acc);
    if (!c->acc) return bad(c, "out of memory");
    for (i = 0; i < n; i++) {
        const json_value *a = &c->accessors->items[i], *type, *ct;
        accessor_info *info = &c->acc[i];
        long view, buffer;
        double off, count, voff, vlen, vstride, elem;
        const json_value *v;
        if (!is_object(c, a, "accessors", i)) return 0;
        if (json_get(a, "sparse")) return bad(c, "accessors[%zu]: sparse accessors are not supported by this checker", i);
        if (!get_index(c, a, "bufferView", len_of(c->views), 1, &view, "accessors", i) ||
            !get_uint(c, a, "byteOffset", 0, &off, "accessors", i) || !get_uint(c, a, "count", 0, &count, "accessors", i))
            return 0;
        type = json_get(a, "type");
        ct = json_get(a, "componentType");
        if (!type || type->kind != JSON_STRING || !type_components(type->str))
            return bad(c, "accessors[%zu].type: missing or unknown", i);
        if (!ct || ct->kind != JSON_NUMBER ||
            (ct->number != 5120 && ct->number != 5121 && ct->number != 5122 && ct->number != 5123 &&
             ct->number != 5125 && ct->number != 5126))
            return bad(c, "accessors[%zu].componentType: missing or unknown", i);
        if (count < 1) return bad(c, "accessors[%zu]: count missing or 0", i);
        info->ctype = (int)ct->number;
        info->csize = info->ctype == 5126 || info->ctype == 5125 ? 4u : info->ctype >= 5122 ? 2u : 1u;
        info->comps = (uint32_t)type_components(type->str);
        info->count = (uint32_t)count;
        info->normalized = json_get(a, "normalized") && json_get(a, "normalized")->kind == JSON_BOOL &&
                           json_get(a, "normalized")->number != 0;
        v = &c->views->items[view];
        get_index(c, v, "buffer", c->buf_count, 1, &buffer, "bufferViews", (size_t)view);
        get_uint(c, v, "byteOffset", 0, &voff, "bufferViews", (size_t)view);
        get_uint(c, v, "byteLength", 0, &vlen, "bufferViews", (size_t)view);
        get_uint(c, v, "byteStride", 0, &vstride, "bufferViews", (size_t)view);
        elem = (double)info->csize * info->comps;
        info->stride = vstride > 0 ? (size_t)vstride : (size_t)elem;
        if ((long long)off % info->csize || (long long)voff % info->csize)
            return bad(c, "accessors[%zu]: offset not a multiple of the component size %u", i, (unsigned)info->csize);
        if (vstride > 0 && vstride < elem) return bad(c, "accessors[%zu]: bufferView %ld's byteStride is below the element size", i, view);
        if (off + (double)info->stride * (count - 1) + elem > vlen)
            return bad(c, "accessors[%zu]: %.0f elements from byte %.0f need more than bufferView %ld's %.0f bytes", i,
                       count, off, view, vlen);
        info->p = c->buf_data[buffer] + (size_t)voff + (size_t)off;
        if (!check_bounds(c, a, i, info)) return 0;
    }
    c->rep->accessors = (uint32_t)n;
    return 1;
}

/* Accessor member `key` of obj, checked against what the use needs. */
static const accessor_info *use_accessor(checker *c, const json_value *obj, const char *key, const char *where,
                                         size_t wi, int required) {
    long a;
    if (!get_index(c, obj, key, len_of(c->accessors), required, &a, where, wi) || a < 0) return NULL;
    return &c->acc[a];
}

static int vec_unit(const accessor_info *a, uint32_t e, double tol) {
    double s = 0;
    uint32_t k;
    for (k = 0; k < a->comps; k++) s += element_at(a, e, k) * element_at(a, e, k);
    return s > (1 - tol) * (1 - tol) && s < (1 + tol) * (1 + tol);
}

static int check_primitive(checker *c, const json_value *p, size_t mi, size_t pi, uint32_t *targets) {
    const json_value *attrs = json_get(p, "attributes"), *tg = json_get(p, "targets"), *mode = json_get(p, "mode");
    const accessor_info *pos, *idx;
    uint32_t n, e, k;
    size_t ai;
    char where[64];
    snprintf(where, sizeof where, "meshes[%zu].primitives", mi);
    if (!is_object(c, p, where, pi)) return 0;
    if (!attrs || attrs->kind != JSON_OBJECT || !attrs->count) return bad(c, "%s[%zu]: no attributes", where, pi);
    pos = use_accessor(c, attrs, "POSITION", where, pi, 1);
    if (!pos) return 0;
    if (pos->comps != 3 || pos->ctype != 5126) return bad(c, "%s[%zu]: POSITION is not float VEC3", where, pi);
    n = pos->count;
    for (ai = 0; ai < attrs->count; ai++) {
        const char *name = attrs->keys[ai];
        const accessor_info *a = use_accessor(c, attrs, name, where, pi, 1);
        long acc_index = (long)attrs->items[ai].number;
        if (!a) return 0;
        if (a->count != n) return bad(c, "%s[%zu].%s: %u elements, POSITION has %u", where, pi, name, (unsigned)a->count, (unsigned)n);
        if (strcmp(name, "POSITION") == 0 &&
            (!json_get(&c->accessors->items[acc_index], "min") || !json_get(&c->accessors->items[acc_index], "max")))
            return bad(c, "%s[%zu].POSITION: accessor %ld has no min/max", where, pi, acc_index);
        if (strcmp(name, "NORMAL") == 0) {
            if (a->comps != 3 || a->ctype != 5126) return bad(c, "%s[%zu]: NORMAL is not float VEC3", where, pi);
            for (e = 0; e < n; e++)
                if (!vec_unit(a, e, 1e-3)) return bad(c, "%s[%zu]: NORMAL %u is not unit length", where, pi, (unsigned)e);
        }
        if (strcmp(name, "TANGENT") == 0) {
            if (a->comps != 4 || a->ctype != 5126) return bad(c, "%s[%zu]: TANGENT is not float VEC4", where, pi);
            for (e = 0; e < n; e++) {
                double xyz = 0, w = element_at(a, e, 3);
                for (k = 0; k < 3; k++) xyz += element_at(a, e, k) * element_at(a, e, k);
                if (!(xyz > 0.998 && xyz < 1.002)) return bad(c, "%s[%zu]: TANGENT %u is not unit length", where, pi, (unsigned)e);
                if (w != 1.0 && w != -1.0) return bad(c, "%s[%zu]: TANGENT %u has w %g, not +1 or -1", where, pi, (unsigned)e, w);
            }
            if (!json_get(attrs, "NORMAL")) return bad(c, "%s[%zu]: TANGENT without NORMAL", where, pi);
        }
        if (strncmp(name, "COLOR_", 6) == 0) {
            if ((a->comps != 3 && a->comps != 4) || (a->ctype != 5126 && !a->normalized))
                return bad(c, "%s[%zu]: %s is not VEC3/VEC4 float or normalized", where, pi, name);
            if (a->ctype == 5126)
                for (e = 0; e < n; e++)
                    for (k = 0; k < a->comps; k++)
                        if (!(element_at(a, e, k) >= 0.0 && element_at(a, e, k) <= 1.0))
                            return bad(c, "%s[%zu]: %s %u has a component outside [0, 1]", where, pi, name, (unsigned)e);
        }
        if (strncmp(name, "TEXCOORD_", 9) == 0 && (a->comps != 2 || (a->ctype != 5126 && !a->normalized)))
            return bad(c, "%s[%zu]: %s is not VEC2 float or normalized", where, pi, name);
        if (strncmp(name, "JOINTS_", 7) == 0 && (a->comps != 4 || (a->ctype != 5121 && a->ctype != 5123)))
            return bad(c, "%s[%zu]: %s is not VEC4 of unsigned byte or short", where, pi, name);
        if (strncmp(name, "WEIGHTS_", 8) == 0) {
            if (a->comps != 4 || (a->ctype != 5126 && !(a->normalized && (a->ctype == 5121 || a->ctype == 5123))))
                return bad(c, "%s[%zu]: %s is not VEC4 of float or normalized unsigned byte or short", where, pi, name);
            for (e = 0; e < n; e++)
                for (k = 0; k < 4; k++)
                    if (element_at(a, e, k) < 0)
                        return bad(c, "%s[%zu]: %s %u has a negative weight", where, pi, name, (unsigned)e);
        }
    }
    { /* a vertex's weights sum to 1 over all its sets (WEIGHTS_0, WEIGHTS_1, ...), within
         what normalized integers can hold */
        const accessor_info *ws[8];
        uint32_t sets = 0, set;
        double tolerance = 1e-3;
        for (set = 0; set < 8; set++) {
            char key[16];
            snprintf(key, sizeof key, "WEIGHTS_%u", (unsigned)set);
            if (!json_get(attrs, key)) break;
            if (!(ws[sets] = use_accessor(c, attrs, key, where, pi, 1))) return 0;
            if (ws[sets]->ctype != 5126) tolerance += 4 * 0.5 / (ws[sets]->ctype == 5121 ? 255.0 : 65535.0);
            sets++;
        }
        for (e = 0; sets && e < n; e++) {
            double sum = 0;
            for (set = 0; set < sets; set++)
                for (k = 0; k < 4; k++)
                    sum += element_at(ws[set], e, k) /
                           (ws[set]->ctype == 5121 ? 255.0 : ws[set]->ctype == 5123 ? 65535.0 : 1.0);
            if (sum < 1 - tolerance || sum > 1 + tolerance)
                return bad(c, "%s[%zu]: the weights of vertex %u sum to %.6f over %u set%s, not 1", where, pi, (unsigned)e,
                           sum, (unsigned)sets, sets == 1 ? "" : "s");
        }
    }
    if (json_get(attrs, "JOINTS_0") && json_get(attrs, "WEIGHTS_0")) {
        /* no joint twice in a vertex with weight (the Khronos validator's
         * ACCESSOR_JOINTS_INDEX_DUPLICATE) */
        const accessor_info *ja = use_accessor(c, attrs, "JOINTS_0", where, pi, 1);
        const accessor_info *wa = use_accessor(c, attrs, "WEIGHTS_0", where, pi, 1);
        uint32_t m;
        if (!ja || !wa) return 0;
        for (e = 0; e < n; e++)
            for (k = 0; k < 4; k++)
                for (m = k + 1; m < 4; m++)
                    if (element_at(wa, e, k) > 0 && element_at(wa, e, m) > 0 &&
                        element_at(ja, e, k) == element_at(ja, e, m))
                        return bad(c, "%s[%zu]: vertex %u names joint %.0f twice with weight", where, pi, (unsigned)e,
                                   element_at(ja, e, k));
    }
    if (mode && (mode->kind != JSON_NUMBER || mode->number < 0 || mode->number > 6))
        return bad(c, "%s[%zu].mode: not 0..6", where, pi);
    idx = use_accessor(c, p, "indices", where, pi, 0);
    if (c->failed) return 0;
    if (idx) {
        if (idx->comps != 1 || (idx->ctype != 5121 && idx->ctype != 5123 && idx->ctype != 5125))
            return bad(c, "%s[%zu]: indices are not unsigned SCALAR", where, pi);
        for (e = 0; e < idx->count; e++)
            if (element_at(idx, e, 0) >= n)
                return bad(c, "%s[%zu]: index %u is %.0f, there are %u vertices", where, pi, (unsigned)e, element_at(idx, e, 0), (unsigned)n);
    }
    if ((!mode || mode->number == 4) && (idx ? idx->count : n) % 3)
        return bad(c, "%s[%zu]: a triangle list of %u indices (not a multiple of 3)", where, pi, (unsigned)(idx ? idx->count : n));
    *targets = 0;
    if (tg) {
        if (tg->kind != JSON_ARRAY || !tg->count) return bad(c, "%s[%zu].targets: not a non-empty array", where, pi);
        for (k = 0; k < tg->count; k++) {
            const json_value *t = &tg->items[k];
            size_t ti;
            if (t->kind != JSON_OBJECT || !t->count) return bad(c, "%s[%zu].targets[%u]: not an object of attributes", where, pi, (unsigned)k);
            for (ti = 0; ti < t->count; ti++) {
                const accessor_info *a = use_accessor(c, t, t->keys[ti], where, pi, 1);
                if (!a) return 0;
                if (a->count != n || a->comps != 3)
                    return bad(c, "%s[%zu].targets[%u].%s: not VEC3 of %u elements", where, pi, (unsigned)k, t->keys[ti], (unsigned)n);
                if (!json_get(attrs, t->keys[ti]))
                    return bad(c, "%s[%zu].targets[%u].%s: the primitive has no %s attribute", where, pi, (unsigned)k,
                               t->keys[ti], t->keys[ti]);
                if (strcmp(t->keys[ti], "POSITION") == 0 &&
                    (!json_get(&c->accessors->items[(long)t->items[ti].number], "min")))
                    return bad(c, "%s[%zu].targets[%u].POSITION: no min/max", where, pi, (unsigned)k);
            }
        }
        *targets = (uint32_t)tg->count;
    }
    c->rep->primitives++;
    c->rep->vertices += n;
    return 1;
}

static int check_meshes(checker *c) {
    size_t i, k, n = len_of(c->meshes);
    c->mesh_targets = (uint32_t *)calloc(n + 1, sizeof *c->mesh_targets);
    if (!c->mesh_targets) return bad(c, "out of memory");
    for (i = 0; i < n; i++) {
        const json_value *m = &c->meshes->items[i], *prims = json_get(m, "primitives"), *w = json_get(m, "weights");
        uint32_t t0 = 0, t = 0;
        if (!is_object(c, m, "meshes", i)) return 0;
        if (!prims || prims->kind != JSON_ARRAY || !prims->count) return bad(c, "meshes[%zu]: no primitives", i);
        for (k = 0; k < prims->count; k++) {
            if (!check_primitive(c, &prims->items[k], i, k, &t)) return 0;
            if (k && t != t0) return bad(c, "meshes[%zu]: primitives have %u and %u morph targets", i, (unsigned)t0, (unsigned)t);
            t0 = t;
        }
        if (w && (w->kind != JSON_ARRAY || w->count != t0))
            return bad(c, "meshes[%zu].weights: %zu weights for %u targets", i, w->kind == JSON_ARRAY ? w->count : 0, (unsigned)t0);
        c->mesh_targets[i] = t0;
        c->rep->targets += t0;
    }
    c->rep->meshes = (uint32_t)n;
    return 1;
}

static int check_skins(checker *c) {
    size_t i, k;
    for (i = 0; i < len_of(c->skins); i++) {
        const json_value *s = &c->skins->items[i], *joints = json_get(s, "joints");
        const accessor_info *ibm;
        if (!is_object(c, s, "skins", i)) return 0;
        if (!joints || joints->kind != JSON_ARRAY || !joints->count) return bad(c, "skins[%zu]: no joints", i);
        for (k = 0; k < joints->count; k++) {
            const json_value *j = &joints->items[k];
            size_t m;
            if (j->kind != JSON_NUMBER || j->number < 0 || j->number >= (double)len_of(c->nodes) || j->number != (double)(long)j->number)
                return bad(c, "skins[%zu].joints[%zu]: not a node index", i, k);
            for (m = 0; m < k; m++)
                if (joints->items[m].number == j->number) return bad(c, "skins[%zu]: node %.0f is a joint twice", i, j->number);
        }
        ibm = use_accessor(c, s, "inverseBindMatrices", "skins", i, 0);
        if (c->failed) return 0;
        if (ibm && (ibm->comps != 16 || ibm->ctype != 5126 || ibm->count != joints->count))
            return bad(c, "skins[%zu].inverseBindMatrices: need %zu float MAT4", i, joints->count);
        c->rep->joints += (uint32_t)joints->count;
    }
    c->rep->skins = (uint32_t)len_of(c->skins);
    return 1;
}

static int numbers(const json_value *v, size_t n) {
    size_t i;
    if (!v || v->kind != JSON_ARRAY || v->count != n) return 0;
    for (i = 0; i < n; i++)
        if (v->items[i].kind != JSON_NUMBER) return 0;
    return 1;
}

/* Every primitive of a skinned mesh needs joints below the joint count. */
static int check_skinned_mesh(checker *c, size_t node, long mesh, long skin) {
    const json_value *prims = json_get(&c->meshes->items[mesh], "primitives");
    size_t joints = json_get(&c->skins->items[skin], "joints")->count, k;
    uint32_t e, j;
    for (k = 0; k < prims->count; k++) {
        const json_value *attrs = json_get(&prims->items[k], "attributes");
        const json_value *ja = json_get(attrs, "JOINTS_0");
        const accessor_info *a;
        if (!ja || !json_get(attrs, "WEIGHTS_0"))
            return bad(c, "nodes[%zu]: skinned, but meshes[%ld].primitives[%zu] has no JOINTS_0/WEIGHTS_0", node, mesh, k);
        a = &c->acc[(long)ja->number];
        for (e = 0; e < a->count; e++)
            for (j = 0; j < 4; j++)
                if (element_at(a, e, j) >= (double)joints)
                    return bad(c, "meshes[%ld].primitives[%zu]: JOINTS_0 %u names joint %.0f of %zu", mesh, k, (unsigned)e,
                               element_at(a, e, j), joints);
    }
    return 1;
}

static int check_nodes(checker *c) {
    size_t i, k, n = len_of(c->nodes);
    c->parent = (int32_t *)malloc((n + 1) * sizeof *c->parent);
    if (!c->parent) return bad(c, "out of memory");
    for (i = 0; i < n; i++) c->parent[i] = -1;
    for (i = 0; i < n; i++) {
        const json_value *nd = &c->nodes->items[i], *ch = json_get(nd, "children"), *r = json_get(nd, "rotation");
        long mesh, skin;
        if (!is_object(c, nd, "nodes", i) || !get_index(c, nd, "mesh", len_of(c->meshes), 0, &mesh, "nodes", i) ||
            !get_index(c, nd, "skin", len_of(c->skins), 0, &skin, "nodes", i))
            return 0;
        if (skin >= 0 && mesh < 0) return bad(c, "nodes[%zu]: a skin without a mesh", i);
        if (skin >= 0 && !check_skinned_mesh(c, i, mesh, skin)) return 0;
        if (json_get(nd, "matrix") && !numbers(json_get(nd, "matrix"), 16)) return bad(c, "nodes[%zu].matrix: needs 16 numbers", i);
        if (json_get(nd, "translation") && !numbers(json_get(nd, "translation"), 3)) return bad(c, "nodes[%zu].translation: needs 3 numbers", i);
        if (json_get(nd, "scale") && !numbers(json_get(nd, "scale"), 3)) return bad(c, "nodes[%zu].scale: needs 3 numbers", i);
        if (r) {
            double s = 0;
            if (!numbers(r, 4)) return bad(c, "nodes[%zu].rotation: needs 4 numbers", i);
            for (k = 0; k < 4; k++) s += r->items[k].number * r->items[k].number;
            if (s < 0.998 || s > 1.002) return bad(c, "nodes[%zu].rotation: not a unit quaternion", i);
        }
        if (ch) {
            if (ch->kind != JSON_ARRAY || !ch->count) return bad(c, "nodes[%zu].children: not a non-empty array", i);
            for (k = 0; k < ch->count; k++) {
                const json_value *x = &ch->items[k];
                size_t child;
                if (x->kind != JSON_NUMBER || x->number < 0 || x->number >= (double)n || x->number != (double)(long)x->number)
                    return bad(c, "nodes[%zu].children[%zu]: not a node index", i, k);
                child = (size_t)x->number;
                if (c->parent[child] >= 0) return bad(c, "nodes[%zu]: has two parents (%d and %zu)", child, (int)c->parent[child], i);
                c->parent[child] = (int32_t)i;
            }
        }
    }
    for (i = 0; i < n; i++) { /* walking up from any node must end within n steps */
        int32_t p = c->parent[i];
        for (k = 0; p >= 0 && k <= n; k++) p = c->parent[p];
        if (p >= 0) return bad(c, "nodes[%zu]: its parents form a cycle", i);
    }
    c->rep->nodes = (uint32_t)n;
    return 1;
}

static int check_scenes(checker *c) {
    const json_value *scenes = top_array(c, "scenes");
    long scene;
    size_t i, k;
    if (c->failed) return 0;
    if (!get_index(c, c->root, "scene", len_of(scenes), 0, &scene, "root", 0)) return 0;
    for (i = 0; i < len_of(scenes); i++) {
        const json_value *nodes = json_get(&scenes->items[i], "nodes");
        if (!is_object(c, &scenes->items[i], "scenes", i)) return 0;
        if (!nodes) continue;
        if (nodes->kind != JSON_ARRAY) return bad(c, "scenes[%zu].nodes: not an array", i);
        for (k = 0; k < nodes->count; k++) {
            const json_value *x = &nodes->items[k];
            if (x->kind != JSON_NUMBER || x->number < 0 || x->number >= (double)len_of(c->nodes) || x->number != (double)(long)x->number)
                return bad(c, "scenes[%zu].nodes[%zu]: not a node index", i, k);
            if (c->parent[(size_t)x->number] >= 0) return bad(c, "scenes[%zu].nodes[%zu]: node %.0f is not a root", i, k, x->number);
        }
    }
    return 1;
}

static int check_animation(checker *c, size_t ai) {
    const json_value *an = &c->animations->items[ai], *samplers = json_get(an, "samplers"), *channels = json_get(an, "channels");
    static const char *const paths[4] = {"translation", "rotation", "scale", "weights"};
    unsigned char *seen;
    size_t i, k, n = len_of(c->nodes);
    char where[48];
    snprintf(where, sizeof where, "animations[%zu].samplers", ai);
    if (!is_object(c, an, "animations", ai)) return 0;
    if (!samplers || samplers->kind != JSON_ARRAY || !samplers->count) return bad(c, "animations[%zu]: no samplers", ai);
    if (!channels || channels->kind != JSON_ARRAY || !channels->count) return bad(c, "animations[%zu]: no channels", ai);
    for (i = 0; i < samplers->count; i++) {
        const json_value *s = &samplers->items[i], *interp = json_get(s, "interpolation");
        const accessor_info *in;
        long ia;
        if (!is_object(c, s, where, i)) return 0;
        if (!get_index(c, s, "input", len_of(c->accessors), 1, &ia, where, i) || !use_accessor(c, s, "output", where, i, 1)) return 0;
        in = &c->acc[ia];
        if (interp && (interp->kind != JSON_STRING || (strcmp(interp->str, "LINEAR") && strcmp(interp->str, "STEP") &&
                                                       strcmp(interp->str, "CUBICSPLINE"))))
            return bad(c, "%s[%zu].interpolation: not LINEAR, STEP or CUBICSPLINE", where, i);
        if (in->comps != 1 || in->ctype != 5126) return bad(c, "%s[%zu].input: not float SCALAR", where, i);
        if (!json_get(&c->accessors->items[ia], "min") || !json_get(&c->accessors->items[ia], "max"))
            return bad(c, "%s[%zu].input: accessor %ld has no min/max", where, i, ia);
        for (k = 0; k < in->count; k++) {
            double t = element_at(in, (uint32_t)k, 0);
            if (t < 0 || (k && t <= element_at(in, (uint32_t)k - 1, 0)))
                return bad(c, "%s[%zu].input: time %zu (%.9g) is negative or not after the one before", where, i, k, t);
        }
    }
    seen = (unsigned char *)calloc(n * 4 + 1, 1);
    if (!seen) return bad(c, "out of memory");
    for (i = 0; i < channels->count; i++) {
        const json_value *ch = &channels->items[i], *target = json_get(ch, "target"), *path = target ? json_get(target, "path") : NULL;
        const json_value *s;
        const accessor_info *in, *out;
        long sampler, node;
        int p = -1, cubic;
        uint32_t want, e;
        snprintf(where, sizeof where, "animations[%zu].channels", ai);
        if (!is_object(c, ch, where, i) || !get_index(c, ch, "sampler", samplers->count, 1, &sampler, where, i)) { free(seen); return 0; }
        if (!target || target->kind != JSON_OBJECT || !get_index(c, target, "node", n, 1, &node, where, i)) {
            free(seen);
            return c->failed ? 0 : bad(c, "%s[%zu]: no target", where, i);
        }
        for (k = 0; path && path->kind == JSON_STRING && k < 4; k++)
            if (strcmp(path->str, paths[k]) == 0) p = (int)k;
        if (p < 0) { free(seen); return bad(c, "%s[%zu].target.path: not translation, rotation, scale or weights", where, i); }
        if (seen[4 * (size_t)node + (size_t)p]++) { free(seen); return bad(c, "%s[%zu]: a second channel for node %ld %s", where, i, node, paths[p]); }
        s = &samplers->items[sampler];
        in = &c->acc[(long)json_get(s, "input")->number];
        out = &c->acc[(long)json_get(s, "output")->number];
        cubic = json_get(s, "interpolation") && strcmp(json_get(s, "interpolation")->str, "CUBICSPLINE") == 0;
        want = in->count * (cubic ? 3u : 1u);
        if (p == 3) {
            long mesh;
            get_index(c, &c->nodes->items[node], "mesh", len_of(c->meshes), 0, &mesh, "nodes", (size_t)node);
            if (mesh < 0 || !c->mesh_targets[mesh]) { free(seen); return bad(c, "%s[%zu]: weights of node %ld, which has no morph targets", where, i, node); }
            want *= c->mesh_targets[mesh];
            if (out->comps != 1) { free(seen); return bad(c, "%s[%zu]: weights output is not SCALAR", where, i); }
        } else if (out->comps != (p == 1 ? 4u : 3u) || (p != 1 && out->ctype != 5126)) {
            free(seen);
            return bad(c, "%s[%zu]: %s output is not %s", where, i, paths[p], p == 1 ? "VEC4" : "float VEC3");
        }
        if (out->count != want) { free(seen); return bad(c, "%s[%zu]: output has %u elements, %u keys need %u", where, i, (unsigned)out->count, (unsigned)in->count, (unsigned)want); }
        if (p == 1 && out->ctype == 5126 && !cubic)
            for (e = 0; e < out->count; e++)
                if (!vec_unit(out, e, 1e-3)) { free(seen); return bad(c, "%s[%zu]: rotation %u is not a unit quaternion", where, i, (unsigned)e); }
        c->rep->channels++;
    }
    free(seen);
    return 1;
}

static int check_document(checker *c) {
    const json_value *asset = json_get(c->root, "asset"), *version = json_get(asset, "version");
    size_t i;
    if (c->root->kind != JSON_OBJECT) return bad(c, "the document is not a JSON object");
    if (!version || version->kind != JSON_STRING || strcmp(version->str, "2.0") != 0)
        return bad(c, "asset.version: missing or not \"2.0\"");
    c->nodes = top_array(c, "nodes");
    c->meshes = top_array(c, "meshes");
    c->skins = top_array(c, "skins");
    c->accessors = top_array(c, "accessors");
    c->views = top_array(c, "bufferViews");
    c->buffers = top_array(c, "buffers");
    c->animations = top_array(c, "animations");
    if (c->failed || !check_buffers(c) || !check_views(c) || !check_accessors(c) || !check_meshes(c) ||
        !check_skins(c) || !check_nodes(c) || !check_scenes(c))
        return 0;
    for (i = 0; i < len_of(c->animations); i++)
        if (!check_animation(c, i)) return 0;
    c->rep->animations = (uint32_t)len_of(c->animations);
    return 1;
}

int gltf_check(const unsigned char *data, size_t size, gltf_check_report *report, char *why, size_t why_cap) {
    checker c;
    json_value root;
    const unsigned char *json = data;
    size_t json_size = size, i;
    char jwhy[128];
    int ok;
    memset(&c, 0, sizeof c);
    memset(report, 0, sizeof *report);
    c.why = why;
    c.why_cap = why_cap;
    c.rep = report;
    if (size >= 4 && tool_le32(data) == 0x46546C67u) { /* GLB: header, JSON chunk, optional BIN chunk */
        size_t jl;
        report->binary = 1;
        if (size < 20) return bad(&c, "GLB: truncated header (%zu bytes)", size);
        if (tool_le32(data + 4) != 2) return bad(&c, "GLB: version %u, not 2", (unsigned)tool_le32(data + 4));
        if (tool_le32(data + 8) != size) return bad(&c, "GLB: header says %u bytes, the file has %zu", (unsigned)tool_le32(data + 8), size);
        jl = tool_le32(data + 12);
        if (tool_le32(data + 16) != 0x4E4F534Au) return bad(&c, "GLB: the first chunk is not JSON");
        if (jl > size - 20 || jl % 4) return bad(&c, "GLB: JSON chunk of %zu bytes does not fit or is not padded to 4", jl);
        json = data + 20;
        json_size = jl;
        if (size > 20 + jl) {
            size_t bl;
            if (size - 20 - jl < 8) return bad(&c, "GLB: truncated chunk header after the JSON");
            bl = tool_le32(data + 20 + jl);
            if (tool_le32(data + 24 + jl) != 0x004E4942u) return bad(&c, "GLB: the second chunk is not BIN");
            if (bl != size - 28 - jl || bl % 4) return bad(&c, "GLB: BIN chunk of %zu bytes does not end the file or is not padded to 4", bl);
            c.bin = data + 28 + jl;
            c.bin_size = bl;
            c.have_bin = 1;
        }
    }
    if (!json_parse((const char *)json, json_size, &root, jwhy, sizeof jwhy)) return bad(&c, "JSON: %s", jwhy);
    c.root = &root;
    ok = check_document(&c);
    for (i = 0; i < c.buf_count; i++) free(c.buf_owned[i]);
    free(c.buf_owned);
    free((void *)c.buf_data);
    free(c.acc);
    free(c.parent);
    free(c.mesh_targets);
    json_free(&root);
    return ok;
}
