/* Internal: opening a Sims 2 RCOL that must hold one kind of block (GMDC,
 * ANIM, CRES), with the location of a refusal.  An RCOL has no signature
 * bytes: its shape is its signature.  Bytes no RCOL of that kind starts
 * with are PLUMBOB_ERR_BAD_MAGIC (a first word that is neither a link count
 * up to PLUMBOB_SIMS2_MAX_LINKS nor the 0xFFFF0001 marker, a block count of
 * 0 or above PLUMBOB_SIMS2_MAX_BLOCKS, a first block id of another kind);
 * bytes that could begin one but end early are PLUMBOB_ERR_TRUNCATED. */
#ifndef PLUMBOB_PB_RCOL2_H
#define PLUMBOB_PB_RCOL2_H

#include "plumbob/package.h"

/* Linked across files, so it carries the library's prefix (every exported
 * symbol starts with plumbob_). */
#define pb_rcol2_open plumbob_pb_rcol2_open

/* kind: the block id block 0 must have, or 0 for any.  err may be NULL. */
plumbob_result pb_rcol2_open(plumbob_sims2_rcol *rc, const void *data, size_t size, uint32_t kind,
                             plumbob_error *err);

#endif
