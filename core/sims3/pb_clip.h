/* Internal: CLIP layout helpers shared by the decoder and the writer
 * (the sampling helpers are runtime/pb_clip_track.h). */
#ifndef PLUMBOB_PB_CLIP_H
#define PLUMBOB_PB_CLIP_H

#include <stdint.h>
#include "plumbob/sims3.h"
#include "pb_bytes.h"

/* An IK slot entry's actor and slot names are fixed fields of this size. */
#define PB_CLIP_SLOT_NAME_SIZE 512u

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_clip_event_payload_size plumbob_pb_clip_event_payload_size
#define pb_clip_key_layout plumbob_pb_clip_key_layout

/* Bytes of type-specific data after an event's name; -1 for unknown types. */
long pb_clip_event_payload_size(uint16_t type);

/* Bytes per key and values per sample for a curve's data type; keyless
 * tracks get key_size 0 and the components of their target. */
void pb_clip_key_layout(uint8_t curve, uint8_t target, uint16_t key_count, uint8_t *key_size,
                        uint8_t *components);

#endif
