/* The C side of tests/cpp/api_test.cpp: the size and alignment of every
 * public struct and enum as a C compiler lays them out.  layout_list.h
 * (L(type) per public type of plumbob.h) is written by
 * tests/amalgamate-tests.sh from the header itself. */
#include <stddef.h>
#include "plumbob.h"

#define L(T) typedef struct { char c; T t; } align_##T;
#include "layout_list.h"
#undef L

const size_t plumbob_test_c_layout[] = {
#define L(T) sizeof(T), offsetof(align_##T, t),
#include "layout_list.h"
#undef L
    0};
