/* plumbob check FILE: decode, validate, re-encode, compare with the input. */
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "gltf/gltf_check.h"

/* glTF files (what `gmdc export` and `clip export` write): .glb by its
 * magic, .gltf by its name. */
int tool_is_gltf(const tool_input *in) {
    return (in->size >= 4 && memcmp(in->data, "glTF", 4) == 0) || tool_ends_with(in->name, ".gltf");
}

int tool_check_gltf(const tool_input *in, FILE *out) {
    gltf_check_report rep;
    char why[256];
    if (!gltf_check(in->data, in->size, &rep, why, sizeof why)) {
        tool_error(in->name, "not a valid glTF 2.0 file: %s", why);
        return 1;
    }
    fprintf(out, "ok: valid glTF 2.0 (%s, %zu bytes): %u nodes, %u meshes (%u primitives, %u vertices, %u morph targets), "
                 "%u skins (%u joints), %u animations (%u channels), %u accessors\n",
            rep.binary ? "GLB" : "JSON", in->size, (unsigned)rep.nodes, (unsigned)rep.meshes, (unsigned)rep.primitives,
            (unsigned)rep.vertices, (unsigned)rep.targets, (unsigned)rep.skins, (unsigned)rep.joints,
            (unsigned)rep.animations, (unsigned)rep.channels, (unsigned)rep.accessors);
    return 0;
}

int cmd_check(int argc, char **argv) {
    tool_input in;
    plumbob_format f;
    const tool_format *tf;
    unsigned char *out = NULL;
    size_t out_size = 0, i, n;
    plumbob_result r;
    int rc;
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(argc == 2 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: plumbob check FILE\n"
                "  Decodes and validates FILE, encodes it again with plumbob's writer and\n"
                "  compares the bytes.  Prints `ok: round trip identical`, or the first\n"
                "  differing byte offset.  Exit status 0 only when valid and identical.\n"
                "  A .gltf or .glb file (as plumbob exports them) is checked with plumbob's\n"
                "  own glTF checker: structure, indices, byte ranges, min/max, weights.\n"
                "  example: plumbob check walk.clip\n"
                "  example: plumbob check build/demo/demo.gltf\n");
        return argc == 2 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    if (!tool_load(argv[1], &in)) return 1;
    if (tool_is_gltf(&in)) {
        rc = tool_check_gltf(&in, stdout);
        tool_free(&in);
        return rc;
    }
    tf = tool_format_of(&in, &f);
    if (!tf || !tf->reencode) {
        tool_error(in.name, "%s: no decoder for this format in this build",
                   plumbob_format_name(f));
        tool_free(&in);
        return 1;
    }
    r = tf->reencode(&in, &out, &out_size);
    if (r != PLUMBOB_OK) {
        tool_error(in.name, "%s does not decode: %s", plumbob_format_name(f), plumbob_result_str(r));
        rc = 1;
    } else {
        n = out_size < in.size ? out_size : in.size;
        for (i = 0; i < n && out[i] == in.data[i]; i++) {}
        if (i == n && out_size == in.size) {
            printf("ok: round trip identical (%zu bytes)\n", in.size);
            rc = 0;
        } else if (i == n) {
            printf("differs: re-encoded size %zu, input size %zu (identical up to byte %zu)\n",
                   out_size, in.size, n);
            rc = 1;
        } else {
            printf("differs: first difference at byte offset %zu (0x%zx): input 0x%02X, "
                   "re-encoded 0x%02X\n", i, i, in.data[i], out[i]);
            rc = 1;
        }
    }
    free(out);
    tool_free(&in);
    return rc;
}
