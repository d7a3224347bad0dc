# plumbob: plain GNU make.
#
#   make                      build/libplumbob.a and build/plumbob (the tool)
#   make demo                 build and run the demo on built-in data
#   make test                 every test on every target (see tests/run-all.sh)
#   make check                host unit tests only (fast)
#   make mutants              the project's own mutation run (tests/mutants/*.txt; not part of make test)
#   make fuzz                 build libFuzzer targets, run each FUZZ_SECONDS
#   make fuzz-long            a campaign: every target on all cores until FUZZ_EXECS runs or FUZZ_SECONDS, corpus kept
#   make coverage             line and branch coverage of core/ (unit tests + fuzz corpora)
#   make bench                build and run build/plumbob-bench
#   make bench-compare OZZ=DIR ACL=DIR RTM=DIR   plumbob beside ozz-animation and ACL
#   make install PREFIX=/usr/local
#   make CROSS=aarch64-linux-gnu-   cross build into build/aarch64-linux-gnu/
#   make BUILD=build/asan CC=clang EXTRA_CFLAGS=-fsanitize=address   any variant
#
# CFLAGS, CPPFLAGS and LDFLAGS from the command line or the environment are
# honoured (after the project's own flags, so yours win); keep
# -ffp-contract=off in effect if you want the reference bits.  Warnings are
# errors (WERROR=-Werror) in the project's own test builds (check, tests,
# test, fuzz, bench) and plain warnings in a plain `make` / `make install`.

CROSS ?=
ifneq ($(CROSS),)
CC := $(CROSS)gcc
AR := $(CROSS)ar
endif
AR ?= ar

# Output directory: build/ for the default compiler, build/<triple>/ when the
# compiler was chosen (CROSS= or CC= on the command line); BUILD= overrides.
ifeq ($(origin CC)$(CROSS),default)
BUILD ?= build
else
TRIPLE := $(shell $(CC) -dumpmachine 2>/dev/null)
BUILD ?= build/$(TRIPLE)
endif

OPT ?= -O2
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
CFLAGS ?=
CPPFLAGS ?=
LDFLAGS ?=
ifneq ($(filter check tests test fuzz fuzz-build bench baremetal,$(MAKECMDGOALS)),)
WERROR ?= -Werror
endif
PREFIX ?= /usr/local

# The core must stay warning-free at this level on gcc and clang.
CORE_WARN := -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wconversion $(WERROR)
# Hosted code (tools, tests, bench): strict but without -Wconversion noise.
HOST_WARN := -std=c99 -Wall -Wextra -Wshadow $(WERROR)
# Same float bits on every target: no FMA contraction, and float arithmetic
# rounded to float at every step (gcc on s390x otherwise evaluates float
# expressions in double under -std=c99; clang never does and lacks the flag).
FP_EXACT := -ffp-contract=off $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo -fexcess-precision=fast)
COMMON := $(OPT) $(FP_EXACT) -Icore -Iports $(EXTRA_CFLAGS)

CORE_SRC := $(wildcard core/*.c) $(wildcard ports/*.c)
TOOL_SRC := $(wildcard tools/*/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)
HEADERS := $(wildcard core/*.h) $(wildcard ports/*.h)

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

LIB := $(BUILD)/libplumbob.a

.PHONY: all lib tool tests check mutants demo test fuzz fuzz-build fuzz-long coverage bench bench-compare install clean baremetal freestanding stack-usage
.DELETE_ON_ERROR:

all: $(LIB) $(BUILD)/plumbob

lib: $(LIB)
tool: $(BUILD)/plumbob
tests: $(BUILD)/plumbob-tests

$(BUILD)/obj/core/%.o $(BUILD)/obj/ports/%.o: CFLAGS_FOR = $(CORE_WARN)
$(BUILD)/obj/tools/%.o $(BUILD)/obj/tests/%.o $(BUILD)/obj/bench/%.o: CFLAGS_FOR = $(HOST_WARN) -Itests -Itools

# -MMD: each object also lists the headers it included, so a changed header
# rebuilds exactly what uses it; an object without its .d (built before, or
# interrupted) is rebuilt.
HOSTED_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/hosted/*.c))
DEP_FILES := $(patsubst %.o,%.d,$(CORE_OBJ) $(TOOL_OBJ) $(TEST_OBJ) $(BENCH_OBJ) $(HOSTED_OBJ))
$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_FOR) $(COMMON) $(CFLAGS) -MMD -MP -c $< -o $@
$(DEP_FILES):
-include $(wildcard $(DEP_FILES))

$(LIB): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/plumbob: $(TOOL_OBJ) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(LIB) $(EXTRA_LDFLAGS) -lm

$(BUILD)/plumbob-tests: $(TEST_OBJ) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(EXTRA_LDFLAGS)

# The Smooth Jazz compiler is tool code (hosted); its tests are a program of their own.
SJ_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tools/smooth_jazz/*.c) tools/util/jazz_build.c)
$(BUILD)/smooth-jazz-tests: $(BUILD)/obj/tests/hosted/smooth_jazz_tests.o $(SJ_OBJ) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)

# Output checkers and the glTF/rig unit tests: hosted programs over the tool's code.
$(BUILD)/xml-check: $(BUILD)/obj/tests/hosted/xml_check.o
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)
$(BUILD)/json-check: $(BUILD)/obj/tests/hosted/json_check.o $(BUILD)/obj/tools/util/json_parse.o
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)
TOOL_LIB_OBJ := $(filter-out $(BUILD)/obj/tools/cli/plumbob.o,$(TOOL_OBJ))
$(BUILD)/gltf-tests: $(BUILD)/obj/tests/hosted/gltf_tests.o $(TOOL_LIB_OBJ) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) -lm

# the jazz case runs the demo's machine, made by the tool's writer
BENCH_TOOL_OBJ := $(BUILD)/obj/tools/util/demo_data.o $(BUILD)/obj/tools/util/jazz_build.o \
                  $(BUILD)/obj/tools/gltf/gltf_import_clip.o $(BUILD)/obj/tools/gltf/gltf_read.o $(BUILD)/obj/tools/util/json_parse.o
# `plumbob-bench --only avx2`: the SSE2 skinning and clip kernels beside the
# same sources built with -mavx2 (their AVX2 bodies) under other names, in
# one run (x86-64 compilers that take -mavx2; bench/bench_avx2.c)
ifeq ($(shell $(CC) -mavx2 -dM -E -x c /dev/null 2>/dev/null | grep -c '__AVX2__'),1)
BENCH_AVX2_OBJ := $(BUILD)/obj/bench/avx2/skin_simd.o $(BUILD)/obj/bench/avx2/clip_simd.o
$(BUILD)/obj/bench/avx2/skin_simd.o: ports/skin_simd.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_WARN) $(COMMON) $(CFLAGS) -mavx2 -Dplumbob_pb_skin_sse2=plumbob_pb_skin_avx2 -c $< -o $@
$(BUILD)/obj/bench/avx2/clip_simd.o: ports/clip_simd.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_WARN) $(COMMON) $(CFLAGS) -mavx2 -Dplumbob_pb_clip_lanes_sse2=plumbob_pb_clip_lanes_avx2 -c $< -o $@
$(BUILD)/obj/bench/bench_avx2.o: CPPFLAGS += -DPLUMBOB_BENCH_AVX2
endif
$(BUILD)/plumbob-bench: $(BENCH_OBJ) $(BENCH_AVX2_OBJ) $(BENCH_TOOL_OBJ) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_AVX2_OBJ) $(BENCH_TOOL_OBJ) $(LIB) $(EXTRA_LDFLAGS) -lm

check: $(BUILD)/plumbob-tests
	$(BUILD)/plumbob-tests

# The mutation run: each mutant of tests/mutants/*.txt applied alone to a
# scratch copy (build/mutants/tree), built, and run through the unit tests,
# the glTF and Smooth Jazz test programs and the tool tests; report in
# build/mutants/report.txt (docs/RELIABILITY.md, "Mutation testing").
# MUTANTS_ARGS: e.g. "-a clip" or "-i clip-curve3-sign".
MUTANTS_ARGS ?=
mutants:
	bash tests/mutants.sh $(MUTANTS_ARGS)

demo: all
	$(BUILD)/plumbob demo --out $(BUILD)/demo

test:
	bash tests/run-all.sh

bench: $(BUILD)/plumbob-bench
	$(BUILD)/plumbob-bench $(BENCH_ARGS)

# plumbob beside ozz-animation and ACL (bench/compare/): their source trees
# live outside the project; `make test` never needs them.
CORPUS ?= ../shared/corpus
# COMPARE_OPT="-O2 -mavx2": every system built for AVX2, in build/compare-avx2.
COMPARE_OPT ?= -O2
COMPARE_OUT ?= build/compare$(if $(findstring -mavx2,$(COMPARE_OPT)),-avx2)
bench-compare:
	OZZ="$(OZZ)" ACL="$(ACL)" RTM="$(RTM)" OPT="$(COMPARE_OPT)" COMPARE_OUT="$(COMPARE_OUT)" bash bench/compare/build.sh
	$(COMPARE_OUT)/plumbob-compare --json $(COMPARE_OUT)/compare.jsonl $(COMPARE_ARGS) $(wildcard $(CORPUS)/sims3/*.package)

# --- bare-metal Cortex-M4 (mps2-an386 under qemu-system-arm) -------------
BM_CC := arm-none-eabi-gcc
BM_FLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
            -ffunction-sections -fdata-sections -DPLUMBOB_TEST_BAREMETAL
BM_DIR := build/cortex-m4
BM_CORE_OBJ := $(CORE_SRC:%.c=$(BM_DIR)/obj/%.o)
BM_TEST_OBJ := $(TEST_SRC:%.c=$(BM_DIR)/obj/%.o) $(BM_DIR)/obj/tests/baremetal/startup.o
baremetal: $(BM_DIR)/plumbob-tests.elf
$(BM_CORE_OBJ): $(BM_DIR)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_FLAGS) $(CORE_WARN) -Os -ffp-contract=off -Icore -Iports -c $< -o $@
$(BM_TEST_OBJ): $(BM_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_FLAGS) $(HOST_WARN) -Os -ffp-contract=off -Icore -Iports -Itests -c $< -o $@
$(BM_DIR)/plumbob-tests.elf: $(BM_CORE_OBJ) $(BM_TEST_OBJ) tests/baremetal/mps2-an386.ld
	$(BM_CC) $(BM_FLAGS) --specs=rdimon.specs -nostartfiles -T tests/baremetal/mps2-an386.ld \
	    -Wl,--gc-sections -o $@ $(BM_TEST_OBJ) $(BM_CORE_OBJ)

freestanding:
	bash tests/freestanding-check.sh

# --- worst-case stack per public function, Cortex-M4 build (gcc's call graph) --
# `make stack-usage` prints the table docs/API.md quotes; STACK_BUDGET fails it.
STACK_BUDGET ?= -1
SU_DIR := build/stack-usage
SU_CI := $(CORE_SRC:%.c=$(SU_DIR)/obj/%.ci)
$(SU_DIR)/obj/%.ci: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_FLAGS) $(CORE_WARN) -Os -ffp-contract=off -Icore -Iports -fcallgraph-info=su -c $< -o $(@:.ci=.o)
$(SU_DIR)/stack-usage: tests/hosted/stack_usage.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_WARN) -O1 -o $@ $<
stack-usage: $(SU_DIR)/stack-usage $(SU_CI)
	$(SU_DIR)/stack-usage --budget $(STACK_BUDGET) $(SU_CI)

# --- fuzzing (clang + libFuzzer) ------------------------------------------
FUZZ_SECONDS ?= 30
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -ffp-contract=off -Icore -Iports
build/fuzz/%: tests/fuzz/%.c $(CORE_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -o $@ $< $(CORE_SRC)
# the Smooth Jazz parser target links the compiler and decompiler (tools/)
SJ_FUZZ_SRC := $(wildcard tools/smooth_jazz/*.c) tools/util/jazz_build.c
build/fuzz/fuzz_smooth_jazz: tests/fuzz/fuzz_smooth_jazz.c $(SJ_FUZZ_SRC) $(CORE_SRC) $(HEADERS) $(wildcard tools/*/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -Itools -o $@ $< $(SJ_FUZZ_SRC) $(CORE_SRC)
# the glTF checker target links the checker and its JSON reader (tools/)
GLTF_FUZZ_SRC := tools/gltf/gltf_check.c tools/util/json_parse.c
build/fuzz/fuzz_gltf_check: tests/fuzz/fuzz_gltf_check.c $(GLTF_FUZZ_SRC) $(HEADERS) $(wildcard tools/*/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -Itools -o $@ $< $(GLTF_FUZZ_SRC)
# the glTF import target links the reader, the clip and mesh importers and the core
IMPORT_FUZZ_SRC := tools/gltf/gltf_read.c tools/gltf/gltf_import_clip.c tools/gltf/gltf_import_gmdc.c tools/gltf/gltf_import_cres.c tools/gltf/gltf_axes.c tools/util/json_parse.c tools/util/cres_build.c
build/fuzz/fuzz_gltf_import: tests/fuzz/fuzz_gltf_import.c $(IMPORT_FUZZ_SRC) $(CORE_SRC) $(HEADERS) $(wildcard tools/*/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -Itools -o $@ $< $(IMPORT_FUZZ_SRC) $(CORE_SRC) -lm
# the tool-text target links the rig list and POSE.json readers (tools/)
TEXT_FUZZ_SRC := tools/util/rig.c tools/util/pose_json.c tools/util/json_parse.c
build/fuzz/fuzz_tool_text: tests/fuzz/fuzz_tool_text.c $(TEXT_FUZZ_SRC) $(CORE_SRC) $(HEADERS) $(wildcard tools/*/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -Itools -o $@ $< $(TEXT_FUZZ_SRC) $(CORE_SRC)
fuzz-build: $(FUZZ_BIN)
fuzz: $(FUZZ_BIN)
	@bash tests/fuzz/seed.sh
	@for f in $(FUZZ_BIN); do \
	    mkdir -p build/fuzz/corpus-$$(basename $$f); \
	    echo "fuzz: $$f for $(FUZZ_SECONDS)s"; \
	    $$f $$(tests/fuzz/dict_for $$f) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 -artifact_prefix=build/fuzz/ build/fuzz/corpus-$$(basename $$f) \
	        2>build/fuzz/$$(basename $$f).log || { tail -40 build/fuzz/$$(basename $$f).log; exit 1; }; \
	    grep -E '^(#[0-9]+|Done)' build/fuzz/$$(basename $$f).log | tail -1; \
	done

# A campaign (every target FUZZ_SECONDS with -fork over FUZZ_JOBS cores, the
# corpus merged into build/fuzz/kept-*) and source-based coverage of the core
# from the unit tests plus a replay of the kept corpora.
fuzz-long:
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/campaign.sh $(FUZZ_TARGETS)
coverage:
	bash tests/coverage.sh

# --- install -----------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 core/plumbob.h $(DESTDIR)$(PREFIX)/include/plumbob.h
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libplumbob.a
	install -m 755 $(BUILD)/plumbob $(DESTDIR)$(PREFIX)/bin/plumbob
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(shell sed -n 's/^#define PLUMBOB_VERSION_STRING "\(.*\)"/\1/p' core/plumbob.h)|g' \
	    tools/plumbob.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/plumbob.pc

clean:
	rm -rf build

# --- drop-in and integration targets (issue 28) ------------------------------
# `make amalgamate`: the two-file drop-in, build/dist/plumbob.c + plumbob.h
# (cmake/amalgamate.sh; tests/amalgamate-tests.sh proves it).
DIST ?= build/dist
.PHONY: amalgamate
amalgamate:
	sh cmake/amalgamate.sh $(DIST)

# `make wasm`: the core as a WebAssembly module with no imports at all
# (build/wasm/plumbob.wasm: clang --target=wasm32 -nostdlib; -mbulk-memory
# turns the compiler's memcpy/memset into memory.copy/memory.fill, so nothing
# is imported; the functions plumbob.h declares are its exports, through
# PLUMBOB_API), and the unit tests as build/wasm/plumbob-tests.wasm over a
# tiny libc of its own (tests/wasm/) for node: node tests/wasm/run.js FILE.
WASM_CC ?= clang
WASM_DIR := build/wasm
WASM_FLAGS := --target=wasm32 -mbulk-memory -ffreestanding -nostdlib -O2 -ffp-contract=off
WASM_API := '-DPLUMBOB_API=__attribute__((visibility("default")))'
WASM_CORE_OBJ := $(CORE_SRC:%.c=$(WASM_DIR)/obj/%.o)
WASM_TEST_OBJ := $(TEST_SRC:%.c=$(WASM_DIR)/obj/%.o) $(WASM_DIR)/obj/tests/wasm/libc.o
.PHONY: wasm
wasm: $(WASM_DIR)/plumbob.wasm $(WASM_DIR)/plumbob-tests.wasm
$(WASM_CORE_OBJ): $(WASM_DIR)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(WASM_API) $(CORE_WARN) -Icore -Iports -c $< -o $@
$(WASM_TEST_OBJ): $(WASM_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard tests/*.h tests/wasm/include/*.h)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(HOST_WARN) -DPLUMBOB_TEST_TARGET='"wasm32"' -isystem tests/wasm/include -Icore -Iports -Itests -c $< -o $@
$(WASM_DIR)/plumbob.wasm: $(WASM_CORE_OBJ)
	$(WASM_CC) $(WASM_FLAGS) -Wl,--no-entry -Wl,--export-dynamic -o $@ $^
$(WASM_DIR)/plumbob-tests.wasm: $(WASM_TEST_OBJ) $(WASM_CORE_OBJ)
	$(WASM_CC) $(WASM_FLAGS) -Wl,--no-entry -Wl,-z,stack-size=4194304 -o $@ $^

# Windows: `make CROSS=x86_64-w64-mingw32- all tests` gives plumbob.exe and
# plumbob-tests.exe (gcc adds the .exe) in build/x86_64-w64-mingw32/; the
# tool prints through mingw-w64's C99 printf (%zu), and gcc's format checks
# of the tool's printf-like helpers take them for Microsoft's, so they are off.
# tests/windows-tests.sh runs both under wine.
ifneq ($(findstring mingw,$(TRIPLE)),)
COMMON += -D__USE_MINGW_ANSI_STDIO=1
HOST_WARN += -Wno-format
endif
