/* Internal: CLIP helpers shared by the decoder, sampler and writer. */
#ifndef PLUMBOB_PB_CLIP_H
#define PLUMBOB_PB_CLIP_H

#include <stdint.h>

/* An IK slot entry's actor and slot names are fixed fields of this size. */
#define PB_CLIP_SLOT_NAME_SIZE 512u

/* Bytes of type-specific data after an event's name; -1 for unknown types. */
long pb_clip_event_payload_size(uint16_t type);

/* Bytes per key and values per sample for a curve's data type; keyless
 * tracks get key_size 0 and the components of their target. */
void pb_clip_key_layout(uint8_t curve, uint8_t target, uint16_t key_count, uint8_t *key_size,
                        uint8_t *components);

#endif
