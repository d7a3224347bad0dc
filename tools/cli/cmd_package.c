/* Package commands: plumbob ls, plumbob extract, and `info` for packages. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plumbob.h"
#include "util/bytes.h"
#include "util/dirs.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_output.h"
#include "tool_types.h"

static const char *compression_name(uint16_t c) {
    switch (c) {
    case PLUMBOB_COMPRESSION_NONE: return "none";
    case PLUMBOB_COMPRESSION_REFPACK: return "refpack";
    case PLUMBOB_COMPRESSION_ZLIB: return "zlib";
    case PLUMBOB_COMPRESSION_DELETED: return "deleted";
    }
    return "unknown";
}

static int open_package(const char *path, unsigned char **data, size_t *size, plumbob_package *pkg) {
    plumbob_result r;
    if (!tool_read_file(path, data, size)) return 0;
    r = plumbob_package_open(pkg, *data, *size);
    if (r != PLUMBOB_OK && plumbob_identify(*data, *size) != PLUMBOB_FORMAT_DBPF && tool_kind_name(*data, *size)) {
        tool_error(path, "is a %s, not a package (plumbob info says more)", tool_kind_name(*data, *size));
        free(*data);
        return 0;
    }
    if (r != PLUMBOB_OK) {
        char wb[320];
        tool_error(path, "not a readable package: %s", tool_package_why(*data, *size, r, wb, sizeof wb));
        free(*data);
        return 0;
    }
    return 1;
}

int cmd_ls(int argc, char **argv) {
    const char *path = NULL;
    int json = 0, i;
    unsigned char *data;
    size_t size;
    plumbob_package pkg;
    tool_names names;
    uint32_t k;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: plumbob ls PACKAGE [--json]\n"
                   "  Lists every resource: type (and its name), group, instance, stored and\n"
                   "  decompressed size, compression, and the resource's name where the package\n"
                   "  has one (Sims 3 KEY table, Sims 2 embedded name).\n"
                   "  example: plumbob ls EWBreastfeed.package --json\n");
            return 0;
        } else if (!path && argv[i][0] != '-') path = argv[i];
        else {
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!path) {
        tool_error("ls", "which package? (plumbob ls PACKAGE)");
        return 2;
    }
    if (!open_package(path, &data, &size, &pkg)) return 1;
    tool_names_load(&pkg, &names);
    if (json) printf("[\n");
    else printf("%-14s %-8s %-18s %9s %9s %-8s %s\n", "type", "group", "instance", "size", "memsize", "comp", "name");
    for (k = 0; k < pkg.count; k++) {
        plumbob_package_entry e;
        char name[512] = "";
        const char *tn;
        plumbob_package_entry_at(&pkg, k, &e);
        tn = tool_type_name(e.type);
        tool_resource_name(&pkg, &names, &e, name, sizeof name);
        if (json) {
            printf("  {\"type\": \"0x%08X\", \"type_name\": ", (unsigned)e.type);
            if (tn) json_string(stdout, tn, strlen(tn)); else printf("null");
            printf(", \"group\": \"0x%08X\", \"instance\": \"0x%016llX\", \"size\": %u, \"memsize\": %u, "
                   "\"compressed\": %s, \"compression\": \"%s\", \"name\": ",
                   (unsigned)e.group, (unsigned long long)e.instance, (unsigned)e.file_size,
                   (unsigned)e.mem_size, e.compression != PLUMBOB_COMPRESSION_NONE ? "true" : "false",
                   compression_name(e.compression));
            if (name[0]) json_string(stdout, name, strlen(name)); else printf("null");
            printf("}%s\n", k + 1 < pkg.count ? "," : "");
        } else {
            char t[32];
            snprintf(t, sizeof t, "%08X %s", (unsigned)e.type, tn ? tn : "");
            printf("%-14s %08X %016llX %9u %9u %-8s %s\n", t, (unsigned)e.group,
                   (unsigned long long)e.instance, (unsigned)e.file_size, (unsigned)e.mem_size,
                   compression_name(e.compression), name);
        }
    }
    if (json) printf("]\n");
    tool_names_free(&names);
    free(data);
    return 0;
}

/* What extract keeps: --type (a hex type or every type of a name),
 * --group, --instance. */
typedef struct extract_filter {
    uint64_t type, group, instance;
    int has_type, has_group, has_inst;
    const char *type_name;
} extract_filter;

typedef struct extract_count {
    uint32_t written, failed, matched, skipped_dir;
    uint32_t resources; /* in the packages, the Sims 2 compression directory not counted */
} extract_count;

static int extract_wants(const extract_filter *x, const plumbob_package_entry *e) {
    if (x->has_type && (x->type_name ? !tool_type_name(e->type) || strcmp(tool_type_name(e->type), x->type_name) != 0
                                     : e->type != x->type))
        return 0;
    return !(x->has_group && e->group != x->group) && !(x->has_inst && e->instance != x->instance);
}

/* A key and where it stands in the index, sorted by key then position. */
typedef struct keyed {
    uint32_t type, group, at;
    uint64_t instance;
} keyed;
static int keyed_cmp(const void *pa, const void *pb) {
    const keyed *a = (const keyed *)pa, *b = (const keyed *)pb;
    if (a->type != b->type) return a->type < b->type ? -1 : 1;
    if (a->group != b->group) return a->group < b->group ? -1 : 1;
    if (a->instance != b->instance) return a->instance < b->instance ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* For each entry, how many entries before it in the index have its key
 * (0 for the first: the one the library's lookups find).  NULL when out of
 * memory (said why). */
static uint32_t *key_repeats(const plumbob_package *pkg, const char *path) {
    keyed *k = (keyed *)malloc(sizeof *k * (pkg->count ? pkg->count : 1u));
    uint32_t *rep = (uint32_t *)calloc(pkg->count ? pkg->count : 1u, sizeof *rep), i;
    if (!k || !rep) {
        tool_error(path, "out of memory");
        free(k);
        free(rep);
        return NULL;
    }
    for (i = 0; i < pkg->count; i++) {
        plumbob_package_entry e;
        plumbob_package_entry_at(pkg, i, &e);
        k[i].type = e.type;
        k[i].group = e.group;
        k[i].instance = e.instance;
        k[i].at = i;
    }
    qsort(k, pkg->count, sizeof *k, keyed_cmp);
    for (i = 1; i < pkg->count; i++)
        if (k[i].type == k[i - 1].type && k[i].group == k[i - 1].group && k[i].instance == k[i - 1].instance)
            rep[k[i].at] = rep[k[i - 1].at] + 1u;
    free(k);
    return rep;
}

/* One package's matching resources into dir; 0 when the package could not
 * be read (said why).  A key the index holds more than once (the library
 * reads the first) has its later copies written as TYPE_GROUP_INSTANCE.N.ext
 * (N = 2, 3, ...), which pack reads as the same key, so none is lost. */
/* mkdir -p: each missing directory of the path, in turn.  0 with errno set. */
static int make_dirs(const char *dir) {
    char buf[2048];
    size_t len = strlen(dir), k;
    if (len == 0 || len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return 0;
    }
    memcpy(buf, dir, len + 1);
    for (k = 1; k <= len; k++)
        if (k == len || buf[k] == '/' || buf[k] == '\\') {
            char c = buf[k];
            if (k > 0 && (buf[k - 1] == '/' || buf[k - 1] == '\\')) continue; /* "a//b" */
            buf[k] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return 0;
            buf[k] = c;
        }
    {
        struct stat st;
        if (stat(dir, &st) != 0) return 0;
        if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            return 0;
        }
    }
    return 1;
}

static int extract_package(const char *path, const char *dir, const extract_filter *x, int tty, extract_count *n) {
    unsigned char *data;
    size_t size;
    plumbob_package pkg;
    uint32_t k, *repeats;
    int made = 0;
    if (!open_package(path, &data, &size, &pkg)) return 0;
    repeats = key_repeats(&pkg, path);
    if (!repeats) {
        free(data);
        return 0;
    }
    for (k = 0; k < pkg.count; k++) {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        unsigned char *buf;
        char file[2400], where[1200];
        const char *ext;
        plumbob_result r;
        plumbob_package_entry_at(&pkg, k, &e);
        if (!(pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR)) n->resources++;
        if (!extract_wants(x, &e)) continue;
        /* A Sims 2 compression directory is part of the index (which entries
         * are compressed), not a resource: `pack --sims2` writes its own.
         * Only an explicit --type E86B1EEF extracts it. */
        if (pkg.major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR && !x->has_type) {
            n->skipped_dir++;
            continue;
        }
        if (!made && !make_dirs(dir)) { /* made for the first match, with its parents */
            tool_error(dir, "cannot create the directory: %s", strerror(errno));
            free(repeats);
            free(data);
            return 0;
        }
        made = 1;
        n->matched++;
        if (tty) fprintf(stderr, "\rextracting %u/%u", k + 1, pkg.count);
        ext = tool_type_ext(e.type);
        if (repeats[k]) {
            snprintf(file, sizeof file, "%s/%08X_%08X_%016llX.%u.%s", dir, (unsigned)e.type, (unsigned)e.group,
                     (unsigned long long)e.instance, (unsigned)repeats[k] + 1u, ext ? ext : "bin");
            if (tty) fputc('\n', stderr);
            tool_warning(path, "resource %08X:%08X:%016llX is in the index more than once: copy %u written as %s",
                         (unsigned)e.type, (unsigned)e.group, (unsigned long long)e.instance,
                         (unsigned)repeats[k] + 1u, file);
        } else {
            snprintf(file, sizeof file, "%s/%08X_%08X_%016llX.%s", dir, (unsigned)e.type, (unsigned)e.group,
                     (unsigned long long)e.instance, ext ? ext : "bin");
        }
        snprintf(where, sizeof where, "%s@%08X:%08X:%016llX", path, (unsigned)e.type, (unsigned)e.group,
                 (unsigned long long)e.instance);
        buf = tool_entry_buffer(&pkg, &e, where);
        if (!buf) { /* said why */
            n->failed++;
            continue;
        }
        r = plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs);
        if (r != PLUMBOB_OK) {
            if (tty) fputc('\n', stderr);
            tool_error(path, "resource %08X:%08X:%016llX: %s (%s compression)", (unsigned)e.type,
                       (unsigned)e.group, (unsigned long long)e.instance, plumbob_result_str(r),
                       compression_name(e.compression));
            n->failed++;
            free(buf);
            continue;
        }
        if (tool_write_file(file, res, rs)) {
            n->written++;
        } else {
            n->failed++;
        }
        free(buf);
    }
    if (tty) fputc('\n', stderr);
    free(repeats);
    free(data);
    return 1;
}

int cmd_extract(int argc, char **argv) {
    const char *dir = NULL;
    const char **paths = (const char **)calloc((size_t)argc + 1u, sizeof *paths);
    extract_filter x;
    extract_count n;
    int i, np = 0, unread = 0, tty = isatty(2);
    memset(&x, 0, sizeof x);
    memset(&n, 0, sizeof n);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            printf("usage: plumbob extract PACKAGE... [--type T] [--group G] [--instance I] -o DIR\n"
                   "  Writes each (matching) resource, decompressed, to DIR (made with its\n"
                   "  parents when missing) as TYPE_GROUP_INSTANCE.ext (hex numbers; .ext\n"
                   "  from the type, else .bin).\n"
                   "  With several packages, each one's resources go to DIR/NAME, NAME the\n"
                   "  package's file name without .package.\n"
                   "  T is a hex type or a name from `plumbob ls` (CLIP, RIG, DDS, ...).\n"
                   "  A Sims 2 package's compression directory (E86B1EEF) is index data and is\n"
                   "  not extracted unless asked for with --type E86B1EEF.\n"
                   "  example: plumbob extract EWBreastfeed.package --type CLIP -o clips\n");
            free(paths);
            return 0;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--type") == 0 || strcmp(a, "--group") == 0 ||
                    strcmp(a, "--instance") == 0) && i + 1 < argc) {
            const char *v = argv[++i];
            uint64_t num;
            if (strcmp(a, "-o") == 0) { dir = v; continue; }
            if (strcmp(a, "--type") == 0 && tool_parse_type(v, strlen(v), &num) && !tool_parse_hex(v, strlen(v), &num)) {
                x.type_name = tool_type_name((uint32_t)num); /* a name: every type of that name */
                x.has_type = 1;
                continue;
            }
            /* hex, no sign; types and groups are 32-bit, instances 64-bit */
            if (!tool_parse_hex(v, strlen(v), &num) || (strcmp(a, "--instance") != 0 && num > 0xFFFFFFFFu)) {
                tool_error(NULL, "%s needs a hex number%s, got '%s' (at most %d hex digits)", a,
                           strcmp(a, "--type") == 0 ? " or a type name (CLIP, RIG, DDS, ...)" : "", v,
                           strcmp(a, "--instance") == 0 ? 16 : 8);
                free(paths);
                return 2;
            }
            if (strcmp(a, "--type") == 0) { x.type = num; x.has_type = 1; }
            else if (strcmp(a, "--group") == 0) { x.group = num; x.has_group = 1; }
            else { x.instance = num; x.has_inst = 1; }
        } else if (a[0] != '-') {
            paths[np++] = a;
        } else {
            free(paths);
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!np || !dir) {
        tool_error("extract", "need a PACKAGE and -o DIR (see plumbob extract --help)");
        free(paths);
        return 2;
    }
    if (np > 1 && !make_dirs(dir)) {
        tool_error(dir, "cannot create the directory: %s", strerror(errno));
        free(paths);
        return 1;
    }
    for (i = 0; i < np; i++) {
        char sub[2048];
        if (np > 1) { /* DIR/NAME: packages often share keys (overrides of one resource) */
            const char *b = paths[i], *p;
            size_t len;
            for (p = paths[i]; *p; p++)
                if (*p == '/' || *p == '\\') b = p + 1;
            len = strlen(b);
            if (tool_ends_with(b, ".package")) len -= 8;
            snprintf(sub, sizeof sub, "%s/%.*s", dir, (int)(len ? len : 1), len ? b : "_");
        } else {
            snprintf(sub, sizeof sub, "%s", dir);
        }
        if (!extract_package(paths[i], sub, &x, tty, &n)) unread++;
    }
    if (!unread && n.resources == 0) { /* nothing to match: no filter's fault, nothing to do */
        printf("%s: %s empty: no resources to extract, nothing written\n", np == 1 ? paths[0] : dir,
               np == 1 ? "the package is" : "the packages are");
        free(paths);
        return 0;
    }
    if (!unread || n.written) /* after a failure and nothing written: the failure was said, no count */
        printf("extracted %u of %u resources %s%s%s%s\n", n.written, n.matched, np > 1 ? "from the packages to " : "to ", dir,
           n.skipped_dir ? " (the compression directory is index data: not extracted, pack --sims2 writes its own)" : "",
           n.failed ? " (some failed, see above)" : "");
    if (n.matched == 0 && !unread) {
        tool_error(np == 1 ? paths[0] : NULL, "no resource matches the --type/--group/--instance given (see `plumbob ls %s`)",
                   np == 1 ? paths[0] : "PACKAGE");
        free(paths);
        return 1;
    }
    free(paths);
    return n.failed || unread ? 1 : 0;
}

/* The game that writes a package's header, from its version and index
 * version (docs/TOOL.md, "info"): The Sims 2 writes DBPF 1.0 or 1.1 with
 * index 7.1 or 7.2 (index minor 1 or 2; SimCity 4's 1.0 has 0 there); The
 * Sims 3 writes 2.0 with index minor 3 (as Spore does: the header cannot
 * tell them apart).  Anything else (The Sims 4's 2.1, SimCity 4) is said
 * to be of an unknown game rather than guessed. */
static const char *dbpf_game(const unsigned char *p, size_t size) {
    uint32_t major, minor, index_major, index_minor;
    if (size < 64) return "unknown game";
    major = tool_le32(p + 4);
    minor = tool_le32(p + 8);
    index_major = tool_le32(p + 32);
    index_minor = tool_le32(p + 60);
    if (major == 1 && minor <= 1 && index_major == 7 && (index_minor == 1 || index_minor == 2)) return "The Sims 2";
    if (major == 2 && minor == 0 && index_minor == 3) return "The Sims 3";
    return "unknown game";
}

int package_info(const tool_input *in, FILE *out) {
    plumbob_package pkg;
    plumbob_result r = plumbob_package_open(&pkg, in->data, in->size);
    uint32_t k, types[64], counts[64], ntypes = 0, compressed = 0;
    uint64_t mem = 0;
    if (r != PLUMBOB_OK) {
        tool_error(in->name, "DBPF package that does not open: %s", plumbob_result_str(r));
        return 1;
    }
    for (k = 0; k < pkg.count; k++) {
        plumbob_package_entry e;
        uint32_t t;
        plumbob_package_entry_at(&pkg, k, &e);
        compressed += e.compression != PLUMBOB_COMPRESSION_NONE;
        mem += e.mem_size;
        for (t = 0; t < ntypes && types[t] != e.type; t++) {}
        if (t == ntypes && ntypes < 64) { types[ntypes] = e.type; counts[ntypes++] = 0; }
        if (t < ntypes) counts[t]++;
    }
    fprintf(out, "%s: DBPF %u.%u package (%s), %zu bytes\n", in->name, (unsigned)pkg.major,
            (unsigned)pkg.minor, dbpf_game(in->data, in->size), in->size);
    fprintf(out, "  %u resources, %u compressed, %llu bytes decompressed\n", (unsigned)pkg.count,
            (unsigned)compressed, (unsigned long long)mem);
    for (k = 0; k < ntypes; k++) {
        const char *tn = tool_type_name(types[k]);
        fprintf(out, "  %4u x %08X %s\n", (unsigned)counts[k], (unsigned)types[k], tn ? tn : "");
    }
    return 0;
}
