// plumbob.h used from C++11: the library compiled as C (the amalgamation,
// or libplumbob.a), this file as C++ with -Wall -Wextra -Wpedantic -Werror.
// Checks that every public struct and enum has the same size and alignment
// in both languages (layout.c), and calls the API across the extern "C"
// boundary with C++ containers.  Prints `N passed, N failed`.
#include <cstdio>
#include <cstring>
#include <vector>
#include "plumbob.h"

extern "C" const size_t plumbob_test_c_layout[];

namespace {

int passed = 0, failed = 0;

void check(bool ok, const char *what) {
    if (ok) {
        passed++;
        std::printf("ok   %s\n", what);
    } else {
        failed++;
        std::printf("FAIL %s\n", what);
    }
}

#define L(T) typedef struct { char c; T t; } align_##T;
#include "layout_list.h"
#undef L

struct layout_entry {
    const char *name;
    size_t size, align;
};
const layout_entry cpp_layout[] = {
#define L(T) {#T, sizeof(T), offsetof(align_##T, t)},
#include "layout_list.h"
#undef L
};

}  // namespace

int main() {
    const size_t n = sizeof cpp_layout / sizeof cpp_layout[0];
    size_t same = 0;
    for (size_t i = 0; i < n; i++) {
        if (cpp_layout[i].size == plumbob_test_c_layout[2 * i] && cpp_layout[i].align == plumbob_test_c_layout[2 * i + 1]) {
            same++;
        } else {
            std::printf("  %s: C++ size %lu align %lu, C size %lu align %lu\n", cpp_layout[i].name,
                        static_cast<unsigned long>(cpp_layout[i].size), static_cast<unsigned long>(cpp_layout[i].align),
                        static_cast<unsigned long>(plumbob_test_c_layout[2 * i]),
                        static_cast<unsigned long>(plumbob_test_c_layout[2 * i + 1]));
        }
    }
    std::printf("     %lu public types compared\n", static_cast<unsigned long>(n));
    check(n > 20 && same == n, "every public struct and enum: same size and alignment in C and C++");

    check(plumbob_version_number() == PLUMBOB_VERSION_NUMBER, "plumbob_version_number() == PLUMBOB_VERSION_NUMBER");
    check(plumbob_fnv32_str("b__Pelvis__") == 0x556B181Au, "plumbob_fnv32_str(\"b__Pelvis__\") == 0x556B181A");
    check(std::strcmp(plumbob_result_str(PLUMBOB_OK), plumbob_result_str(PLUMBOB_ERR_TRUNCATED)) != 0,
          "plumbob_result_str names OK and TRUNCATED apart");

    const unsigned char bytes[] = {0x78, 0x56, 0x34, 0x12, 0xAB, 0xCD};
    plumbob_reader r;
    plumbob_reader_init(&r, bytes, sizeof bytes);
    uint32_t le = plumbob_read_u32le(&r);
    uint16_t be = plumbob_read_u16be(&r);
    check(le == 0x12345678u && be == 0xABCDu && plumbob_reader_ok(&r), "reader: u32le then u16be");
    (void)plumbob_read_u8(&r);
    check(!plumbob_reader_ok(&r) && r.error == PLUMBOB_ERR_TRUNCATED, "reader: a read past the end is TRUNCATED");

    std::vector<unsigned char> memory(4096);
    plumbob_arena arena;
    plumbob_arena_init(&arena, memory.data(), memory.size());
    void *a = plumbob_arena_alloc(&arena, 3, 0);
    void *b = plumbob_arena_alloc(&arena, 8, 64);
    check(a && b && reinterpret_cast<uintptr_t>(b) % 64u == 0 && !plumbob_arena_alloc(&arena, 1u << 20, 0),
          "arena: aligned allocations, NULL when full");

    std::vector<unsigned char> src(20000);
    for (size_t i = 0; i < src.size(); i++) src[i] = static_cast<unsigned char>((i * 7u) % 251u ^ (i / 1000u));
    std::vector<unsigned char> comp(plumbob_refpack_bound(src.size())), work(plumbob_refpack_compress_work_size()),
        back(src.size());
    size_t csize = 0, dsize = 0;
    plumbob_result rc = plumbob_refpack_compress(src.data(), src.size(), comp.data(), comp.size(), work.data(),
                                                 work.size(), &csize);
    plumbob_result rd = plumbob_refpack_decompress(comp.data(), csize, back.data(), back.size(), &dsize);
    check(rc == PLUMBOB_OK && rd == PLUMBOB_OK && dsize == src.size() && back == src && csize < src.size(),
          "refpack: compress then decompress gives the input back (smaller in between)");
    check(plumbob_identify(comp.data(), csize) == PLUMBOB_FORMAT_REFPACK, "identify: the stream is REFPACK");

    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
