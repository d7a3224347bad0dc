/* stack-usage [--budget BYTES] FILE.ci...: the worst-case stack of every
 * public function of the core, from gcc's -fcallgraph-info=su output.
 *
 * Each function's own frame comes from its node ("N bytes (static)"); its
 * worst case is that plus the deepest callee, found by a depth-first walk
 * of the call edges.  Calls to a file's static functions resolve within the
 * file, others by name across every file given.  Fails (exit 1) on anything
 * that makes the bound unknowable: recursion, a dynamic frame, an indirect
 * call, a callee with no frame information other than the mem* routines
 * and the compiler's helpers, or a public function above --budget.
 * Prints one line per public function: `worst own name`, then a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 8192
#define MAX_EDGES 32768

typedef struct {
    char title[256]; /* "FILE:name" for statics, "name" otherwise */
    char name[128];
    char file[256];  /* the .ci file it came from */
    long own;        /* -1: declaration only (no frame info) */
    int dynamic;
    int state;       /* 0 new, 1 on the walk, 2 done */
    long worst;
    int bad;
} node;

static node nodes[MAX_NODES];
static int n_nodes;
static struct { int from; char to[256]; char file[256]; } edges[MAX_EDGES];
static int n_edges;
static int failures;

static int find(const char *title, const char *file, int want_defined) {
    int i;
    for (i = 0; i < n_nodes; i++) {
        if (strcmp(nodes[i].title, title) != 0) continue;
        if (file && strcmp(nodes[i].file, file) != 0) continue;
        if (want_defined && nodes[i].own < 0) continue;
        return i;
    }
    return -1;
}

static int quoted(const char *line, const char *key, char *out, size_t cap) {
    const char *p = strstr(line, key), *q;
    size_t n;
    if (!p) return 0;
    p += strlen(key);
    q = strchr(p, '"');
    if (!q) return 0;
    n = (size_t)(q - p);
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return 1;
}

static int allowed_external(const char *name) {
    static const char *ok[] = {"memcpy", "memset", "memmove", "memcmp", NULL};
    int i;
    if (strncmp(name, "__aeabi_", 8) == 0 || strncmp(name, "__builtin_", 10) == 0) return 1;
    for (i = 0; ok[i]; i++)
        if (strcmp(name, ok[i]) == 0) return 1;
    return 0;
}

/* The node an edge from `from` to `to` reaches: the same file's definition
 * first (statics), then any file's. */
static int resolve(int from, const char *to) {
    int j = find(to, nodes[from].file, 1);
    if (j < 0) j = find(to, NULL, 1);
    return j;
}

static long walk(int i) {
    int e;
    long deepest = 0;
    if (nodes[i].state == 2) return nodes[i].worst;
    if (nodes[i].state == 1) {
        printf("FAIL recursion through %s\n", nodes[i].name);
        failures++;
        return 0;
    }
    nodes[i].state = 1;
    if (nodes[i].dynamic) {
        printf("FAIL %s has a dynamic stack frame\n", nodes[i].name);
        failures++;
    }
    for (e = 0; e < n_edges; e++) {
        int j;
        long d;
        if (edges[e].from != i) continue;
        j = resolve(i, edges[e].to);
        if (j < 0) {
            const char *bare = strrchr(edges[e].to, ':');
            bare = bare ? bare + 1 : edges[e].to;
            if (!allowed_external(bare)) {
                printf("FAIL %s calls %s, whose frame is unknown\n", nodes[i].name, edges[e].to);
                failures++;
            }
            continue;
        }
        d = walk(j);
        if (d > deepest) deepest = d;
    }
    nodes[i].worst = nodes[i].own + deepest;
    nodes[i].state = 2;
    return nodes[i].worst;
}

static int by_name(const void *a, const void *b) {
    return strcmp(nodes[*(const int *)a].name, nodes[*(const int *)b].name);
}

int main(int argc, char **argv) {
    long budget = -1, worst_all = 0;
    int a, i, order[MAX_NODES], n_pub = 0;
    char line[2048];
    for (a = 1; a < argc; a++) {
        FILE *f;
        int cur = -1;
        if (strcmp(argv[a], "--budget") == 0 && a + 1 < argc) {
            budget = atol(argv[++a]);
            continue;
        }
        f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "stack-usage: cannot open %s\n", argv[a]);
            return 2;
        }
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "node:", 5) == 0) {
                char title[256], label[512];
                const char *nl, *bytes;
                if (!quoted(line, "title: \"", title, sizeof title) || !quoted(line, "label: \"", label, sizeof label))
                    continue;
                bytes = strstr(label, " bytes (");
                if (find(title, argv[a], 0) >= 0) continue;
                if (n_nodes == MAX_NODES) { fprintf(stderr, "stack-usage: too many functions\n"); return 2; }
                cur = n_nodes++;
                memset(&nodes[cur], 0, sizeof nodes[cur]);
                snprintf(nodes[cur].title, sizeof nodes[cur].title, "%s", title);
                snprintf(nodes[cur].file, sizeof nodes[cur].file, "%s", argv[a]);
                nl = strstr(label, "\\n");
                snprintf(nodes[cur].name, sizeof nodes[cur].name, "%.*s", nl ? (int)(nl - label) : 127, label);
                nodes[cur].own = -1;
                if (bytes) {
                    const char *p = bytes;
                    while (p > label && p[-1] >= '0' && p[-1] <= '9') p--;
                    nodes[cur].own = atol(p);
                    nodes[cur].dynamic = strstr(bytes, "dynamic") != NULL;
                }
            } else if (strncmp(line, "edge:", 5) == 0) {
                char src[256], dst[256];
                int from;
                if (!quoted(line, "sourcename: \"", src, sizeof src) || !quoted(line, "targetname: \"", dst, sizeof dst))
                    continue;
                from = find(src, argv[a], 0);
                if (from < 0 || n_edges == MAX_EDGES) continue;
                if (strcmp(dst, "__indirect_call") == 0) {
                    printf("FAIL %s makes an indirect call\n", nodes[from].name);
                    failures++;
                    continue;
                }
                edges[n_edges].from = from;
                snprintf(edges[n_edges].to, sizeof edges[n_edges].to, "%s", dst);
                n_edges++;
            }
        }
        (void)cur;
        fclose(f);
    }
    for (i = 0; i < n_nodes; i++) {
        if (nodes[i].own < 0 || strncmp(nodes[i].title, "plumbob_", 8) != 0) continue;
        walk(i);
        order[n_pub++] = i;
    }
    qsort(order, (size_t)n_pub, sizeof order[0], by_name);
    printf("%8s %8s  %s\n", "worst", "own", "function (bytes of stack)");
    for (a = 0; a < n_pub; a++) {
        node *n = &nodes[order[a]];
        printf("%8ld %8ld  %s\n", n->worst, n->own, n->name);
        if (n->worst > worst_all) worst_all = n->worst;
        if (budget >= 0 && n->worst > budget) {
            printf("FAIL %s needs %ld bytes of stack, over the budget of %ld\n", n->name, n->worst, budget);
            failures++;
        }
    }
    printf("%d public functions, deepest %ld bytes\n", n_pub, worst_all);
    printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
    return failures ? 1 : 0;
}
