/* Building a Sims 2 CRES in memory for plumbob_cres_write (hosted, no
 * allocation): the class heads, references and tree nodes every block
 * needs.  Used by the demo's skeleton and by glTF import's --write-cres. */
#ifndef PLUMBOB_CRES_BUILD_H
#define PLUMBOB_CRES_BUILD_H

#include "plumbob.h"

/* A string view of a NUL-terminated string (which must outlive it). */
plumbob_string cres_lit(const char *s);
/* A persisted class head: class name, id, version. */
plumbob_cres_head cres_head(const char *name, uint32_t id, uint32_t version);
/* A reference to block `index` of the same resource. */
plumbob_cres_ref cres_block_ref(uint32_t index);
/* A composition tree node (version 11, object graph version 4) tagged
 * `tag`, with its extension and child references. */
void cres_tree_node(plumbob_cres_node *n, plumbob_string tag, const plumbob_cres_ref *ext, uint32_t n_ext,
                    const plumbob_cres_ref *children, uint32_t n_children);

#endif
