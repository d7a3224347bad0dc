/* GMDC support for `plumbob info` and `plumbob check` (dump, skin and
 * export arrive with the rest of the GMDC work). */
#include <stdlib.h>
#include "tool.h"

static int decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem) {
    size_t need;
    plumbob_arena a;
    plumbob_result r = plumbob_gmdc_measure(in->data, in->size, &need);
    *mem = NULL;
    if (r == PLUMBOB_OK) {
        *mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&a, *mem, need);
        r = plumbob_gmdc_decode(in->data, in->size, &a, g);
    }
    if (r != PLUMBOB_OK) {
        tool_error(in->name, "not a valid GMDC: %s", plumbob_result_str(r));
        free(*mem);
        *mem = NULL;
        return 0;
    }
    return 1;
}

int gmdc_info(const tool_input *in, FILE *out) {
    plumbob_gmdc g;
    unsigned char *mem;
    uint32_t i, faces = 0, verts = 0;
    if (!decode(in, &g, &mem)) return 1;
    for (i = 0; i < g.group_count; i++) faces += g.groups[i].faces.count / 3u;
    for (i = 0; i < g.linkage_count; i++) verts += g.linkages[i].vertex_count;
    fprintf(out, "%s: Sims 2 GMDC %.*s, version %u, %u groups, %u vertices, %u triangles, %u joints, %u morphs, %zu bytes\n",
            in->name, (int)g.head.resource_name.len, g.head.resource_name.ptr, (unsigned)g.version,
            (unsigned)g.group_count, (unsigned)verts, (unsigned)faces, (unsigned)g.joint_count,
            (unsigned)g.morph_count, in->size);
    free(mem);
    return 0;
}

plumbob_result gmdc_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    size_t need, ws;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_gmdc g;
    plumbob_result r = plumbob_gmdc_measure(in->data, in->size, &need);
    if (r != PLUMBOB_OK) return r;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    r = plumbob_gmdc_decode(in->data, in->size, &a, &g);
    if (r == PLUMBOB_OK) {
        ws = plumbob_gmdc_write_size(&g);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_gmdc_write(&g, *out, ws, out_size);
    }
    free(mem);
    return r;
}
