/* plumbob jazz decompile / compile: Smooth Jazz text <-> jazz resources. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "smooth_jazz/smooth_jazz.h"

/* Compiles text; on success *bytes holds the resource.  Errors go to stderr
 * as FILE:LINE:COL with a caret line. */
static int compile_text(const char *file, const char *text, size_t len, sj_program *prog, unsigned char **bytes,
                        size_t *size, int quiet) {
    sj_error err;
    size_t need, got;
    if (!sj_compile(text, len, prog, &err)) {
        if (!quiet) sj_error_print(stderr, file, text, len, &err);
        return 0;
    }
    need = plumbob_jazz_write_size(&prog->build.jazz);
    *bytes = (unsigned char *)malloc(need == SIZE_MAX || need == 0 ? 1 : need);
    if (need == SIZE_MAX || !*bytes ||
        plumbob_jazz_write(&prog->build.jazz, *bytes, need, &got) != PLUMBOB_OK) {
        if (!quiet) tool_error(file, "the compiled machine cannot be written (internal error)");
        return 0;
    }
    *size = got;
    return 1;
}

int jazz_decompile(const tool_input *in, const plumbob_jazz *jazz, const tool_names *names, const char *out_path) {
    sj_names sn;
    sj_error err;
    sj_program prog;
    char *text = NULL;
    size_t len = 0, size = 0, i;
    unsigned char *bytes = NULL;
    int rc = 1;
    memset(&sn, 0, sizeof sn);
    if ((names->have && !sj_names_add_key_table(&sn, &names->kt)) || !sj_names_index(&sn)) {
        tool_error(in->name, "out of memory");
        goto done;
    }
    if (!sj_decompile(jazz, &sn, &text, &len, &err)) {
        tool_error(in->name, "cannot decompile: %s", err.message);
        goto done;
    }
    if (out_path) {
        if (!tool_write_file(out_path, text, len)) goto done;
    } else {
        fwrite(text, 1, len, stdout);
    }
    rc = 0;
    /* The promise is that the text compiles back to these bytes; say so when it does not. */
    if (!compile_text(in->name, text, len, &prog, &bytes, &size, 1)) {
        tool_warning(in->name, "the decompiled text does not compile back (please report this)");
    } else if (size != in->size || memcmp(bytes, in->data, size) != 0) {
        for (i = 0; i < size && i < in->size && bytes[i] == in->data[i]; i++) {
        }
        tool_warning(in->name,
                   "compiling this text gives %zu bytes that differ from the input's %zu at byte %zu: "
                   "the resource is not laid out the way Smooth Jazz lays it out (docs/SMOOTH-JAZZ.md)",
                   size, in->size, i);
    }
    sj_program_free(&prog);
done:
    free(bytes);
    free(text);
    sj_names_free(&sn);
    return rc;
}

/* RefPack-compresses data into *out (malloc'd); 0 when it cannot (then the
 * caller stores it as it is). */
static int refpack_of(const unsigned char *data, size_t size, unsigned char **out, size_t *out_size) {
    size_t cap = plumbob_refpack_bound(size);
    unsigned char *c = (unsigned char *)malloc(cap ? cap : 1), *work = (unsigned char *)malloc(plumbob_refpack_compress_work_size());
    *out = NULL;
    if (size == 0 || size > 0xFFFFFFu || !c || !work ||
        plumbob_refpack_compress(data, size, c, cap, work, plumbob_refpack_compress_work_size(), out_size) != PLUMBOB_OK) {
        free(c);
        free(work);
        return 0;
    }
    free(work);
    *out = c;
    return 1;
}

/* Sets entry w to data, RefPack-compressed when compress (and it can be);
 * *owned gets the compressed copy to free. */
static void put_entry(plumbob_package_write_entry *w, const unsigned char *data, size_t size, int compress,
                      unsigned char **owned) {
    size_t cn = 0;
    w->mem_size = (uint32_t)size;
    if (compress && refpack_of(data, size, owned, &cn)) {
        w->data = *owned;
        w->size = (uint32_t)cn;
        w->compression = PLUMBOB_COMPRESSION_REFPACK;
        return;
    }
    w->data = data;
    w->size = (uint32_t)size;
    w->compression = PLUMBOB_COMPRESSION_NONE;
}

/* Adds the jazz resource and the names to a Sims 3 package (a new one when
 * `path` does not exist), replacing a resource with the same key and merging
 * the KEY tables into one. */
static int update_package(const char *path, const sj_program *prog, const unsigned char *jazz, size_t jazz_size) {
    unsigned char *pkg_bytes = NULL, *key_bytes = NULL, *out = NULL, **bufs = NULL, *jazz_packed = NULL, *key_packed = NULL;
    int jazz_was = -1, key_was = -1; /* the replaced entries' compression, -1 when added */
    uint32_t compressed = 0;
    size_t pkg_size, key_size, need, got;
    plumbob_package pkg;
    plumbob_package_write_entry *entries = NULL;
    sj_names names;
    uint32_t i, n = 0, key_group = 0;
    uint64_t key_instance = 0;
    int rc = 0, have_key = 0;
    plumbob_result r;
    FILE *exists = fopen(path, "rb");
    memset(&names, 0, sizeof names);
    memset(&pkg, 0, sizeof pkg);
    pkg.major = 2;
    if (exists) fclose(exists); /* a package that is not there yet starts empty */
    if (exists && !tool_read_file(path, &pkg_bytes, &pkg_size)) return 0;
    r = exists ? plumbob_package_open(&pkg, pkg_bytes, pkg_size) : PLUMBOB_OK;
    if (r != PLUMBOB_OK) {
        char wb[320];
        tool_error(path, "not a readable package: %s", tool_package_why(pkg_bytes, pkg_size, r, wb, sizeof wb));
        goto done;
    }
    if (pkg.major != 2) {
        tool_error(path, "jazz belongs in a Sims 3 (DBPF 2.0) package; this is DBPF %u.%u", (unsigned)pkg.major,
                   (unsigned)pkg.minor);
        goto done;
    }
    entries = (plumbob_package_write_entry *)calloc((size_t)pkg.count + 2u, sizeof *entries);
    bufs = (unsigned char **)calloc((size_t)pkg.count + 1u, sizeof *bufs);
    if (!entries || !bufs) goto oom;
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        plumbob_package_write_entry *w = &entries[n];
        if (plumbob_package_entry_at(&pkg, i, &e) != PLUMBOB_OK) continue;
        compressed += e.compression != PLUMBOB_COMPRESSION_NONE;
        if (e.type == PLUMBOB_TYPE_JAZZ && e.group == prog->group && e.instance == prog->instance) {
            jazz_was = e.compression != PLUMBOB_COMPRESSION_NONE;
            continue;
        }
        if (e.type == PLUMBOB_TYPE_KEY) {
            const unsigned char *data;
            size_t size;
            plumbob_key_table kt;
            bufs[i] = tool_entry_buffer(&pkg, &e, path);
            if (!bufs[i]) goto done; /* said why */
            if (plumbob_package_read(&pkg, &e, bufs[i], e.mem_size, &data, &size) != PLUMBOB_OK ||
                plumbob_key_table_open(&kt, data, size) != PLUMBOB_OK) {
                tool_error(path, "its KEY table %08X:%08X:%016llX does not read; not touching it", (unsigned)e.type,
                           (unsigned)e.group, (unsigned long long)e.instance);
                goto done;
            }
            if (!sj_names_add_key_table(&names, &kt)) goto oom;
            if (!have_key) key_group = e.group, key_instance = e.instance, key_was = e.compression != PLUMBOB_COMPRESSION_NONE;
            have_key = 1;
            continue;
        }
        w->type = e.type;
        w->group = e.group;
        w->instance = e.instance;
        w->data = plumbob_package_raw(&pkg, &e);
        w->size = e.file_size;
        w->mem_size = e.mem_size;
        w->compression = e.compression;
        n++;
    }
    for (i = 0; i < prog->names.count; i++)
        if (!sj_names_find64(&names, prog->names.items[i].instance) &&
            !sj_names_add(&names, prog->names.items[i].instance, prog->names.items[i].text, prog->names.items[i].len))
            goto oom;
    if (!sj_names_key_table(&names, &key_bytes, &key_size)) goto oom;
    entries[n].type = PLUMBOB_TYPE_JAZZ;
    entries[n].group = prog->group;
    entries[n].instance = prog->instance;
    /* a replaced entry keeps its compression; a new one is compressed as the
     * package has it (at least half its entries compressed, or none yet) */
    put_entry(&entries[n++], jazz, jazz_size,
              jazz_was >= 0 ? jazz_was : pkg.count == 0 || compressed * 2u >= pkg.count, &jazz_packed);
    entries[n].type = PLUMBOB_TYPE_KEY;
    entries[n].group = key_group;
    entries[n].instance = key_instance;
    put_entry(&entries[n++], key_bytes, key_size,
              key_was >= 0 ? key_was : pkg.count == 0 || compressed * 2u >= pkg.count, &key_packed);
    need = plumbob_package_write_size(entries, n, 2);
    if (need == SIZE_MAX) {
        tool_error(path, "package would exceed 4 GiB");
        goto done;
    }
    out = (unsigned char *)malloc(need);
    if (!out) goto oom;
    r = plumbob_package_write(entries, n, 2, out, need, &got);
    if (r != PLUMBOB_OK) {
        tool_error(path, "cannot write the package: %s", plumbob_result_str(r));
        goto done;
    }
    tool_forget_input(path); /* updating this package is what --package asks for */
    rc = tool_write_file(path, out, got);
    if (rc) {
        printf("%s %08X:%08X:%016llX in %s\n", jazz_was >= 0 ? "replaced" : "added", (unsigned)PLUMBOB_TYPE_JAZZ,
               (unsigned)prog->group, (unsigned long long)prog->instance, path);
        printf("%s %08X:%08X:%016llX (KEY table) in %s\n", key_was >= 0 ? "replaced" : "added",
               (unsigned)PLUMBOB_TYPE_KEY, (unsigned)key_group, (unsigned long long)key_instance, path);
    }
    goto done;
oom:
    tool_error(path, "out of memory");
done:
    if (bufs)
        for (i = 0; i < pkg.count; i++) free(bufs[i]);
    free(bufs);
    free(entries);
    free(out);
    free(key_bytes);
    free(jazz_packed);
    free(key_packed);
    free(pkg_bytes);
    sj_names_free(&names);
    return rc;
}

int jazz_compile(int argc, char **argv) {
    const char *in_path = NULL, *out_path = NULL, *package = NULL;
    unsigned char *text = NULL, *bytes = NULL;
    size_t len, size = 0;
    sj_program prog;
    int i, rc = 1;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(argv[i], "--package") == 0 && i + 1 < argc) {
            package = argv[++i];
        } else if (!in_path && argv[i][0] != '-') {
            in_path = argv[i];
        } else {
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!in_path || (!out_path && !package)) {
        tool_error("jazz compile", "need IN.jazz and -o OUT and/or --package PKG (see plumbob jazz --help)");
        return 2;
    }
    if (!tool_read_file(in_path, &text, &len)) return 1;
    if (tool_kind_name(text, len)) { /* binary: say what it is, not "unexpected byte" */
        tool_error(in_path, "is a %s, not Smooth Jazz text; jazz compile reads what jazz decompile writes",
                   tool_kind_name(text, len));
        free(text);
        return 1;
    }
    memset(&prog, 0, sizeof prog);
    if (package && !tool_edit_check(package)) goto done; /* a read-only package: said before compiling */
    if (!compile_text(in_path, (const char *)text, len, &prog, &bytes, &size, 0)) goto done;
    if (out_path && !tool_write_file(out_path, bytes, size)) goto done;
    if (package && !update_package(package, &prog, bytes, size)) goto done;
    printf("compiled %s: %u states, %u nodes, %u chunks, %zu bytes -> %s%s%s (02D5DF13:%08X:%016llX)\n", in_path,
           (unsigned)prog.build.jazz.state_count, (unsigned)prog.build.jazz.node_count,
           (unsigned)prog.build.jazz.chunk_count, size, out_path ? out_path : "", out_path && package ? " and " : "",
           package ? package : "", (unsigned)prog.group, (unsigned long long)prog.instance);
    rc = 0;
done:
    sj_program_free(&prog);
    free(bytes);
    free(text);
    return rc;
}
