/* Internal: CLIP helpers shared by the decoder, sampler and writer. */
#ifndef PLUMBOB_PB_CLIP_H
#define PLUMBOB_PB_CLIP_H

#include <stdint.h>

/* Bytes per key and values per sample for a curve's data type; keyless
 * tracks get key_size 0 and the components of their target. */
void pb_clip_key_layout(uint8_t curve, uint8_t target, uint16_t key_count, uint8_t *key_size,
                        uint8_t *components);

#endif
