/*
 * plumbob: a freestanding, no-malloc decoder core for the animation and
 * geometry formats of The Sims 2 and The Sims 3.  MIT licence (see LICENSE).
 *
 * Read this header top to bottom once; it is the reference card.
 *
 * The header is built from one header per layer (core/plumbob/NAME.h, in
 * this order; docs/ARCHITECTURE.md draws the layers), and this file
 * includes them all: a game includes plumbob.h alone.
 *
 *   base (plumbob/base.h)
 *   Chapter 1  Version and build switches
 *   Chapter 2  Results                 plumbob_result, plumbob_result_str, plumbob_error
 *   Chapter 3  Arena (caller memory)   plumbob_arena_*
 *   Chapter 4  Bounded reader          plumbob_reader_*, plumbob_read_*
 *   Chapter 5  Names and hashes        plumbob_string, plumbob_fnv32/64, plumbob_sims2_instance
 *   Chapter 6  Small math and poses    plumbob_sqrtf, plumbob_quat_*, plumbob_mat34_*,
 *                                      plumbob_bone_pose, plumbob_skeleton
 *   Chapter 7  Format identification   plumbob_identify, plumbob_format_name
 *   package (plumbob/package.h)
 *   Chapter 8  RefPack compression     plumbob_refpack_*
 *   Chapter 9  Packages (DBPF)         plumbob_package_*, PLUMBOB_TYPE_*
 *   Chapter 10 Shared containers       plumbob_key_table_*, plumbob_sims2_rcol_*
 *   sims2 (plumbob/sims2.h)
 *   Chapter 11 Sims 2 GMDC             plumbob_gmdc_* (decode, write)
 *   Chapter 12 Sims 2 ANIM             plumbob_anim_*
 *   Chapter 13 Sims 2 CRES             plumbob_cres_*
 *   sims3 (plumbob/sims3.h)
 *   Chapter 14 Sims 3 CLIP             plumbob_clip_key_*, plumbob_clip_* (decode, write)
 *   Chapter 15 Sims 3 Jazz             plumbob_jazz_* (decode, write)
 *   Chapter 16 Sims 3 rigs             plumbob_rig_*
 *   runtime (plumbob/runtime.h)
 *   Chapter 17 Skeletons               plumbob_skeleton_*
 *   Chapter 18 CLIP playback           plumbob_clip_bind, plumbob_clip_schedule_*,
 *                                      plumbob_clip_sampler_*, plumbob_clip_cursor_*
 *   Chapter 19 Skinning                plumbob_skin, plumbob_gmdc_skin*
 *   Chapter 20 Jazz runtime            plumbob_jazz_instance_* and the other run calls
 *
 * Two surfaces.  Everything here is the stable surface a game or tool
 * builds on (names, signatures and result codes change only with the major
 * version), except the parts fenced by #if defined(PLUMBOB_TOOLS_API): the
 * general reader (Chapter 4), arena arithmetic, the Sims 2 block readers
 * and single-track clip sampling with its cursor.  Those serve plumbob's
 * own tools and tests, as lz4's static-linking-only section does, and may
 * change in any release; they are opt-in.  Define PLUMBOB_TOOLS_API before
 * including this header to see them (plumbob's own builds of the core, the
 * tool, tests and benchmarks do); without it a game sees only the stable
 * surface (tests/stable/game_loop.c, a game's playback loop, is built that
 * way).  PLUMBOB_STABLE_ONLY, the earlier switch, still hides them even
 * with PLUMBOB_TOOLS_API.  Struct fields marked "(internal)" belong to the
 * core: read them for debugging, never write.
 *
 * Promises, for every function in this header:
 *   - no heap, no globals, no hidden statics: all state lives in memory the
 *     caller hands in, so any number of threads may use the core at once on
 *     distinct objects;
 *   - every input is untrusted: nothing reads outside [data, data + size),
 *     nothing writes outside the caller's buffers, nothing loops without bound;
 *     objects the core hands back (a decoded clip, a binding, ...) are
 *     trusted when passed back in, so hot loops need no per-key checks, but
 *     every index the caller passes with one (a track, a key, a component)
 *     is checked against it, or the function says plainly what it does
 *     with one out of range;
 *   - every call that takes memory has a query for how much, by one rule
 *     (Chapter 3), and every job that cannot run says so with a result;
 *   - multi-byte values are assembled byte by byte, so results are identical
 *     on little- and big-endian, aligned and strict-alignment CPUs;
 *   - the only headers needed are <stddef.h> <stdint.h> <stdbool.h>; the only
 *     external symbols the compiled core may need are memcpy, memmove, memset,
 *     memcmp and the compiler's own helper routines.
 */
#ifndef PLUMBOB_H
#define PLUMBOB_H

#include "plumbob/base.h"
#include "plumbob/package.h"
#include "plumbob/sims2.h"
#include "plumbob/sims3.h"
#include "plumbob/runtime.h"

#endif /* PLUMBOB_H */
