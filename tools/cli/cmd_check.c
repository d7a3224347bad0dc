/* plumbob check FILE: decode, validate, re-encode, compare with the input. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "formats.h"
#include "gltf_output.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_kind.h"
#include "tool_types.h"

/* check PACKAGE: every resource the tool can decode, by the index's type,
 * decoded and re-encoded; a summary line at the end.  Returns the exit
 * status: 1 when anything failed. */
static int check_package(const tool_input *in) {
    plumbob_package pkg;
    plumbob_result r = plumbob_package_open(&pkg, in->data, in->size);
    uint32_t i, total = 0, decoded = 0, identical = 0, unsupported = 0, failed = 0, dirs = 0, nt = 0, t;
    uint32_t ut[32], uc[32];
    if (r != PLUMBOB_OK) {
        char wb[320];
        tool_error(in->name, "not a readable package: %s", tool_package_why(in->data, in->size, r, wb, sizeof wb));
        return 1;
    }
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        const tool_format *tf;
        const unsigned char *res;
        size_t rs;
        tool_input sub;
        char label[64];
        unsigned char *out = NULL;
        size_t out_size = 0, k;
        plumbob_package_entry_at(&pkg, i, &e);
        if (pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR) { /* index data, checked by opening */
            dirs++;
            continue;
        }
        total++;
        tool_type_label(e.type, label, sizeof label);
        memset(&sub, 0, sizeof sub);
        snprintf(sub.name, sizeof sub.name, "%.1000s@%08X:%08X:%016llX", in->name, (unsigned)e.type, (unsigned)e.group,
                 (unsigned long long)e.instance);
        sub.why = sub.why_text;
        sub.from_package = 1;
        sub.entry = e;
        tf = tool_format_for_type(e.type);
        if (!tf) {
            unsupported++;
            for (t = 0; t < nt && ut[t] != e.type; t++) {}
            if (t == nt && nt < 32) { ut[nt] = e.type; uc[nt++] = 0; }
            if (t < nt) uc[t]++;
            continue;
        }
        sub.data = tool_entry_buffer(&pkg, &e, NULL);
        if (!sub.data) {
            printf("FAIL %s, %s: claims %u bytes decompressed from %u stored, more than its RefPack stream can "
                   "give (refused before allocating)\n", sub.name, label, (unsigned)e.mem_size, (unsigned)e.file_size);
            failed++;
            continue;
        }
        r = plumbob_package_read(&pkg, &e, sub.data, e.mem_size, &res, &rs);
        if (r != PLUMBOB_OK) {
            printf("FAIL %s, %s: cannot read the resource: %s\n", sub.name, label, plumbob_result_str(r));
            failed++;
            free(sub.data);
            continue;
        }
        if (res != sub.data) memcpy(sub.data, res, rs);
        sub.size = rs;
        r = tf->reencode(&sub, &out, &out_size);
        if (r != PLUMBOB_OK) {
            printf("FAIL %s, %s: does not decode: %s\n", sub.name, label,
                   sub.why_text[0] ? sub.why_text : plumbob_result_str(r));
            failed++;
        } else {
            decoded++;
            for (k = 0; k < out_size && k < sub.size && out[k] == sub.data[k]; k++) {}
            if (out_size == sub.size && k == sub.size) {
                identical++;
            } else {
                printf("FAIL %s, %s: decodes, but re-encodes differently from byte %zu\n", sub.name, label, k);
                failed++;
            }
        }
        free(out);
        free(sub.data);
    }
    printf("%s: %u resources: %u decoded, %u round-tripped identical, %u not supported", in->name, (unsigned)total,
           (unsigned)decoded, (unsigned)identical, (unsigned)unsupported);
    for (t = 0; t < nt; t++) {
        const char *tn = tool_type_name(ut[t]);
        if (tn) printf("%s%s x%u", t ? ", " : " (", tn, (unsigned)uc[t]);
        else printf("%s0x%08X x%u", t ? ", " : " (", (unsigned)ut[t], (unsigned)uc[t]);
    }
    printf("%s, %u failed%s\n", nt ? ")" : "", (unsigned)failed,
           dirs ? "; the compression directory is index data" : "");
    return failed ? 1 : 0;
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
                "  A PACKAGE is checked resource by resource (by the index's type): prints\n"
                "  a line per failure and a summary (decoded, round-tripped identical, not\n"
                "  supported, failed); exit status 1 when anything failed.\n"
                "  example: plumbob check EWBreastfeed.package\n"
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
    tf = tool_format_of(&in, &f); /* a package resource: by the index's type */
    if (f == PLUMBOB_FORMAT_DBPF && !in.from_package) {
        rc = check_package(&in);
        tool_free(&in);
        return rc;
    }
    if (!tf || !tf->reencode) {
        if (in.from_package) {
            char label[64];
            tool_type_label(in.entry.type, label, sizeof label);
            tool_error(in.name, "%s: no decoder for this type in this build", label);
        } else if (f == PLUMBOB_FORMAT_UNKNOWN) {
            tool_unknown_format(&in);
        } else {
            tool_error(in.name, "%s: no decoder for this format in this build", plumbob_format_name(f));
        }
        tool_free(&in);
        return 1;
    }
    r = tf->reencode(&in, &out, &out_size);
    if (r != PLUMBOB_OK) {
        tool_error(in.name, "%s does not decode: %s", plumbob_format_name(f),
                   in.why_text[0] ? in.why_text : plumbob_result_str(r));
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
