/* Arena: aligned bump allocation in caller memory, every size checked. */
#include "plumbob/base.h"

void plumbob_arena_init(plumbob_arena *a, void *mem, size_t size) {
    if (!a) return;
    a->base = (unsigned char *)mem;
    a->size = mem ? size : 0;
    a->used = 0;
    a->peak = 0;
}

/* Padding that brings address base+used up to a multiple of align. */
static size_t arena_pad(const plumbob_arena *a, size_t align) {
    uintptr_t addr = (uintptr_t)(a->base + a->used);
    return (size_t)((align - (addr & (align - 1u))) & (align - 1u));
}

void *plumbob_arena_alloc(plumbob_arena *a, size_t size, size_t align) {
    size_t pad, room;
    unsigned char *p;
    if (!a || !a->base) return NULL;
    if (align == 0) align = PLUMBOB_ARENA_ALIGN;
    if ((align & (align - 1u)) != 0) return NULL;
    if (a->used > a->size) return NULL; /* corrupted by the caller: refuse */
    pad = arena_pad(a, align);
    room = a->size - a->used;
    if (pad > room || size > room - pad) return NULL;
    p = a->base + a->used + pad;
    a->used += pad + size;
    if (a->used > a->peak) a->peak = a->used;
    return p;
}

void *plumbob_arena_alloc_array(plumbob_arena *a, size_t count, size_t elem_size, size_t align) {
    if (elem_size != 0 && count > SIZE_MAX / elem_size) return NULL;
    return plumbob_arena_alloc(a, count * elem_size, align);
}

size_t plumbob_arena_mark(const plumbob_arena *a) {
    return a ? a->used : 0;
}

void plumbob_arena_reset(plumbob_arena *a, size_t mark) {
    if (a && mark <= a->used) a->used = mark;
}

size_t plumbob_arena_remaining(const plumbob_arena *a, size_t align) {
    size_t pad, room;
    if (!a || !a->base || a->used > a->size) return 0;
    if (align == 0) align = PLUMBOB_ARENA_ALIGN;
    if ((align & (align - 1u)) != 0) return 0;
    pad = arena_pad(a, align);
    room = a->size - a->used;
    return pad > room ? 0 : room - pad;
}

bool plumbob_size_add(size_t *acc, size_t b) {
    if (*acc > SIZE_MAX - b) {
        *acc = SIZE_MAX;
        return false;
    }
    *acc += b;
    return true;
}

size_t plumbob_arena_need(size_t count, size_t elem_size) {
    size_t bytes;
    if (elem_size != 0 && count > SIZE_MAX / elem_size) return SIZE_MAX;
    bytes = count * elem_size;
    if (bytes > SIZE_MAX - (PLUMBOB_ARENA_ALIGN - 1u)) return SIZE_MAX;
    return bytes + (PLUMBOB_ARENA_ALIGN - 1u);
}
