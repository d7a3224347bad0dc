/* Building a Sims 2 CRES in memory: see cres_build.h. */
#include <string.h>
#include "cres_build.h"

plumbob_string cres_lit(const char *s) {
    plumbob_string v;
    v.ptr = s;
    v.len = strlen(s);
    return v;
}

plumbob_cres_head cres_head(const char *name, uint32_t id, uint32_t version) {
    plumbob_cres_head h;
    h.name = cres_lit(name);
    h.id = id;
    h.version = version;
    return h;
}

plumbob_cres_ref cres_block_ref(uint32_t index) {
    plumbob_cres_ref r;
    r.present = 1;
    r.external = 0;
    r.index = index;
    return r;
}

void cres_tree_node(plumbob_cres_node *n, plumbob_string tag, const plumbob_cres_ref *ext, uint32_t n_ext,
                    const plumbob_cres_ref *children, uint32_t n_children) {
    n->tree = cres_head("cCompositionTreeNode", 0, 11);
    n->graph = cres_head("cObjectGraphNode", 0, 4);
    n->extensions = ext;
    n->extension_count = n_ext;
    n->tag = tag;
    n->children = children;
    n->child_count = n_children;
}
