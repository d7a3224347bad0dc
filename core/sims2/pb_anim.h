/* Internal: ANIM layout rules shared by the decoder and the writer. */
#ifndef PLUMBOB_PB_ANIM_H
#define PLUMBOB_PB_ANIM_H

#include "plumbob/sims2.h"

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_anim_pad plumbob_pb_anim_pad
#define pb_anim_key_size plumbob_pb_anim_key_size

/* Pad bytes (values 0, 1, 2) after a string section of len bytes. */
uint32_t pb_anim_pad(size_t len);

/* Bytes per key of a component's packed byte; 0 (and *why) when invalid. */
uint32_t pb_anim_key_size(unsigned packed, plumbob_result *why);

/* Time word of key k of a timed component (bit 15 belongs to a fixed-point
 * value, so it is masked off unless the value is an f32). */
static inline uint32_t pb_anim_key_time(const plumbob_anim_component *c, uint32_t k) {
    uint32_t t = (uint32_t)c->keys[(size_t)k * c->key_size] | (uint32_t)c->keys[(size_t)k * c->key_size + 1u] << 8;
    return (c->packed & PLUMBOB_ANIM_F32) ? t : t & 0x7FFFu;
}

#endif
