/* Internal: ANIM layout rules shared by the decoder and the writer. */
#ifndef PLUMBOB_PB_ANIM_H
#define PLUMBOB_PB_ANIM_H

#include "plumbob.h"

/* Pad bytes (values 0, 1, 2) after a string section of len bytes. */
uint32_t pb_anim_pad(size_t len);

/* Bytes per key of a component's packed byte; 0 (and *why) when invalid. */
uint32_t pb_anim_key_size(unsigned packed, plumbob_result *why);

#endif
