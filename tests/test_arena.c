/* Arena: alignment, exhaustion, overflow-checked sizes, mark/reset. */
#include <stdint.h>
#include "test.h"

void test_arena_alignment(void) {
    plumbob_arena a;
    unsigned char *p;
    size_t align;
    /* Start one byte into the buffer so the base itself is misaligned. */
    plumbob_arena_init(&a, t_arena_mem() + 1, 4096);
    for (align = 1; align <= 64; align <<= 1) {
        p = (unsigned char *)plumbob_arena_alloc(&a, 3, align);
        CHECK(p != NULL);
        CHECK_EQ((uintptr_t)p % align, 0);
    }
    p = (unsigned char *)plumbob_arena_alloc(&a, 5, 0);
    CHECK(p != NULL);
    CHECK_EQ((uintptr_t)p % PLUMBOB_ARENA_ALIGN, 0);
    CHECK(plumbob_arena_alloc(&a, 4, 3) == NULL); /* not a power of two */
    CHECK(plumbob_arena_alloc(&a, 4, 12) == NULL);
    CHECK(a.used <= a.size);
    CHECK(a.peak == a.used);
}

void test_arena_out_of_memory(void) {
    plumbob_arena a;
    void *p;
    plumbob_arena_init(&a, t_arena_mem(), 64);
    p = plumbob_arena_alloc(&a, 64, 8);
    CHECK(p == t_arena_mem());
    CHECK_EQ(a.used, 64);
    CHECK(plumbob_arena_alloc(&a, 1, 1) == NULL);
    CHECK(plumbob_arena_alloc(&a, 0, 1) != NULL); /* zero bytes still fit */
    CHECK_EQ(plumbob_arena_remaining(&a, 1), 0);
    plumbob_arena_init(&a, NULL, 100);            /* no memory at all */
    CHECK_EQ(a.size, 0);
    CHECK(plumbob_arena_alloc(&a, 1, 1) == NULL);
    CHECK(plumbob_arena_alloc(NULL, 1, 1) == NULL);
}

void test_arena_overflow(void) {
    plumbob_arena a;
    plumbob_arena_init(&a, t_arena_mem(), 1024);
    CHECK(plumbob_arena_alloc_array(&a, SIZE_MAX / 2 + 1, 2, 4) == NULL);
    CHECK(plumbob_arena_alloc_array(&a, SIZE_MAX, SIZE_MAX, 4) == NULL);
    CHECK(plumbob_arena_alloc(&a, SIZE_MAX, 8) == NULL);
    CHECK(plumbob_arena_alloc(&a, SIZE_MAX - 3, 8) == NULL);
    CHECK_EQ(a.used, 0); /* failures take nothing */
    CHECK(plumbob_arena_alloc_array(&a, 10, 12, 4) != NULL);
    CHECK_EQ(a.used, 120);
    CHECK(plumbob_arena_alloc_array(&a, 0, SIZE_MAX, 4) != NULL);
}

void test_arena_mark_reset(void) {
    plumbob_arena a;
    size_t m;
    unsigned char *p1, *p2;
    plumbob_arena_init(&a, t_arena_mem(), 256);
    (void)plumbob_arena_alloc(&a, 10, 1);
    m = plumbob_arena_mark(&a);
    CHECK_EQ(m, 10);
    p1 = (unsigned char *)plumbob_arena_alloc(&a, 100, 4);
    plumbob_arena_reset(&a, m);
    CHECK_EQ(a.used, 10);
    p2 = (unsigned char *)plumbob_arena_alloc(&a, 100, 4);
    CHECK(p1 == p2); /* the same bytes serve the next decode */
    CHECK_EQ(a.peak, 112);
    plumbob_arena_reset(&a, 1000); /* above use: ignored */
    CHECK_EQ(a.used, 112);
    plumbob_arena_reset(&a, 0);
    CHECK_EQ(plumbob_arena_remaining(&a, 1), 256);
}

void test_arena_sizing(void) {
    size_t acc = 0;
    CHECK(plumbob_size_add(&acc, 100));
    CHECK(plumbob_size_add(&acc, plumbob_arena_need(3, 4)));
    CHECK_EQ(acc, 100 + 12 + PLUMBOB_ARENA_ALIGN - 1);
    CHECK(!plumbob_size_add(&acc, SIZE_MAX));
    CHECK_EQ(acc, SIZE_MAX);
    CHECK_EQ(plumbob_arena_need(SIZE_MAX / 2, 4), SIZE_MAX);
    CHECK_EQ(plumbob_arena_need(1, SIZE_MAX - 2), SIZE_MAX);
    {
        /* An arena of exactly the summed need always fits the allocations. */
        plumbob_arena a;
        size_t need = 0;
        int i;
        for (i = 1; i <= 5; i++) plumbob_size_add(&need, plumbob_arena_need((size_t)i * 7, 3));
        plumbob_arena_init(&a, t_arena_mem() + 3, need);
        for (i = 1; i <= 5; i++) CHECK(plumbob_arena_alloc_array(&a, (size_t)i * 7, 3, 0) != NULL);
    }
}
