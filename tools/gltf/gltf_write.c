/* glTF 2.0 output: JSON parts as text, one little-endian binary buffer. */
#include <string.h>
#include "gltf_write.h"
#include "util/bytes.h"

static const char *const part_names[GLTF_PARTS] = {"nodes", "meshes", "skins", "animations", "accessors", "bufferViews"};

tool_buf *gltf_begin(gltf_writer *w, int part, uint32_t *index) {
    tool_buf *b = &w->part[part];
    if (index) *index = w->count[part];
    tb_str(b, w->count[part]++ ? ",\n  {" : "\n  {");
    return b;
}

void gltf_end(gltf_writer *w, int part) { tb_str(&w->part[part], "}"); }

void gltf_scene_root(gltf_writer *w, uint32_t node) {
    tb_printf(&w->roots, w->root_count++ ? ",%u" : "%u", (unsigned)node);
}

static float value_at(const void *values, int ctype, size_t i) {
    switch (ctype) {
    case GLTF_UBYTE: return (float)((const uint8_t *)values)[i];
    case GLTF_USHORT: return (float)((const uint16_t *)values)[i];
    case GLTF_UINT: return (float)((const uint32_t *)values)[i];
    default: return ((const float *)values)[i];
    }
}

static unsigned ctype_size(int ctype) {
    return ctype == GLTF_UBYTE ? 1u : ctype == GLTF_USHORT ? 2u : 4u;
}

uint32_t gltf_accessor(gltf_writer *w, const void *values, uint32_t count, int ctype,
                       unsigned components, int target, int minmax) {
    static const char *const types[17] = {0, "SCALAR", "VEC2", "VEC3", "VEC4", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "MAT4"};
    size_t n = (size_t)count * components, i, start, bytes;
    unsigned size = ctype_size(ctype), c;
    uint32_t view, acc;
    tool_buf *b;
    tb_pad(&w->bin, 4, 0);
    start = w->bin.size;
    for (i = 0; i < n; i++) {
        unsigned char le[4];
        if (ctype == GLTF_FLOAT) tool_put_f32le(le, ((const float *)values)[i]);
        else if (ctype == GLTF_UINT) tool_put_le32(le, ((const uint32_t *)values)[i]);
        else if (ctype == GLTF_USHORT) tool_put_le16(le, ((const uint16_t *)values)[i]);
        else le[0] = ((const uint8_t *)values)[i];
        tb_put(&w->bin, le, size);
    }
    bytes = w->bin.size - start;
    b = gltf_begin(w, GLTF_VIEWS, &view);
    tb_printf(b, "\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu", start, bytes);
    if (target) tb_printf(b, ", \"target\": %d", target);
    gltf_end(w, GLTF_VIEWS);
    b = gltf_begin(w, GLTF_ACCESSORS, &acc);
    tb_printf(b, "\"bufferView\": %u, \"componentType\": %d, \"count\": %u, \"type\": \"%s\"", (unsigned)view, ctype,
              (unsigned)count, types[components]);
    if (minmax && count) {
        int pass;
        for (pass = 0; pass < 2; pass++) {
            tb_str(b, pass ? ", \"max\": [" : ", \"min\": [");
            for (c = 0; c < components; c++) {
                float m = value_at(values, ctype, c);
                for (i = 1; i < count; i++) {
                    float v = value_at(values, ctype, i * components + c);
                    if (pass ? v > m : v < m) m = v;
                }
                if (c) tb_str(b, ", ");
                if (ctype == GLTF_FLOAT) tb_json_float(b, m);
                else tb_printf(b, "%.0f", (double)m);
            }
            tb_str(b, "]");
        }
    }
    gltf_end(w, GLTF_ACCESSORS);
    return acc;
}

static void base64(tool_buf *out, const unsigned char *p, size_t n) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;
    for (i = 0; i + 2 < n; i += 3) {
        char q[4];
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        q[0] = digits[v >> 18]; q[1] = digits[(v >> 12) & 63]; q[2] = digits[(v >> 6) & 63]; q[3] = digits[v & 63];
        tb_put(out, q, 4);
    }
    if (i < n) {
        char q[4];
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0u);
        q[0] = digits[v >> 18]; q[1] = digits[(v >> 12) & 63];
        q[2] = i + 1 < n ? digits[(v >> 6) & 63] : '=';
        q[3] = '=';
        tb_put(out, q, 4);
    }
}

static void json_document(gltf_writer *w, int binary, const char *generator, tool_buf *j) {
    int p;
    tb_str(j, "{\"asset\": {\"version\": \"2.0\", \"generator\": ");
    tb_json_string(j, generator, strlen(generator));
    tb_str(j, "},\n \"scene\": 0, \"scenes\": [{\"nodes\": [");
    tb_put(j, w->roots.data, w->roots.size);
    tb_str(j, "]");
    if (w->scene_extras.size) {
        tb_str(j, ", \"extras\": ");
        tb_put(j, w->scene_extras.data, w->scene_extras.size);
    }
    tb_str(j, "}]");
    for (p = 0; p < GLTF_PARTS; p++) {
        if (!w->count[p]) continue;
        tb_printf(j, ",\n \"%s\": [", part_names[p]);
        tb_put(j, w->part[p].data, w->part[p].size);
        tb_str(j, "]");
    }
    if (w->bin.size) {
        tb_printf(j, ",\n \"buffers\": [{\"byteLength\": %zu", w->bin.size);
        if (!binary) {
            tb_str(j, ", \"uri\": \"data:application/octet-stream;base64,");
            base64(j, w->bin.data, w->bin.size);
            tb_str(j, "\"");
        }
        tb_str(j, "}]");
    }
    tb_str(j, "}\n");
}

int gltf_finish(gltf_writer *w, int binary, const char *generator, tool_buf *out) {
    tool_buf j = {0};
    int p, failed = w->bin.failed || w->roots.failed || w->scene_extras.failed;
    for (p = 0; p < GLTF_PARTS; p++) failed |= w->part[p].failed;
    tb_pad(&w->bin, 4, 0);
    json_document(w, binary, generator, &j);
    if (!binary) {
        tb_put(out, j.data, j.size);
    } else {
        unsigned char h[12];
        tb_pad(&j, 4, ' ');
        tool_put_le32(h, 0x46546C67u); /* "glTF" */
        tool_put_le32(h + 4, 2);
        tool_put_le32(h + 8, (uint32_t)(12 + 8 + j.size + (w->bin.size ? 8 + w->bin.size : 0)));
        tb_put(out, h, 12);
        tool_put_le32(h, (uint32_t)j.size);
        tool_put_le32(h + 4, 0x4E4F534Au); /* "JSON" */
        tb_put(out, h, 8);
        tb_put(out, j.data, j.size);
        if (w->bin.size) {
            tool_put_le32(h, (uint32_t)w->bin.size);
            tool_put_le32(h + 4, 0x004E4942u); /* "BIN\0" */
            tb_put(out, h, 8);
            tb_put(out, w->bin.data, w->bin.size);
        }
    }
    failed |= j.failed || out->failed;
    tb_free(&j);
    return !failed;
}

void gltf_free(gltf_writer *w) {
    int p;
    tb_free(&w->bin);
    tb_free(&w->roots);
    tb_free(&w->scene_extras);
    for (p = 0; p < GLTF_PARTS; p++) tb_free(&w->part[p]);
}
