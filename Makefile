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
#
# Flags are a dependency: every output folder keeps the flag string it was
# built with (<dir>/flags.txt, rewritten only when the string changes), and
# its objects depend on it, so `make` then `make check` (which adds -Werror),
# or a changed CFLAGS/OPT/EXTRA_CFLAGS, rebuilds what the new flags touch.
# Every output lies under $(BUILD): the variants below (cortex-m4/,
# stack-usage/, wasm/, fuzz/, dist/) are folders of it.

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
# -Werror from the goal names is safe because flags are a dependency (above):
# `make` then `make check` rebuilds with it, `make check` then `make` without
# it; alternating costs a rebuild of the touched folder, never a stale object.
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
# The one spelling of these flags: $(call fp_exact,COMPILER).
# $(call fp_exact_once,VAR,COMPILER) computes it when first used and keeps it in VAR.
fp_exact = -ffp-contract=off $(shell $(1) -v 2>&1 | grep -q '^gcc version' && echo -fexcess-precision=fast)
fp_exact_once = $(if $(filter undefined,$(origin $(1))),$(eval $(1) := $(call fp_exact,$(2))))$($(1))
FP_EXACT := $(call fp_exact,$(CC))

# The core by layer (docs/ARCHITECTURE.md; tests/build-tests.sh checks who
# includes whom): core/<layer>/*.c with its private headers, the public
# header core/plumbob.h over core/plumbob/<layer>.h; the kernels in
# ports/<kernel>/ over the shared ports/*.h.  Private headers are included
# by name, found through one -I per folder.
CORE_LAYERS := base package sims2 sims3 runtime
# Every build of the project's own code (core, tool, tests, benchmarks,
# fuzz targets) sees the tools surface of plumbob.h, which a game opts into.
INCLUDES := -DPLUMBOB_TOOLS_API -Icore $(CORE_LAYERS:%=-Icore/%) -Iports
COMMON := $(OPT) $(FP_EXACT) $(INCLUDES) $(EXTRA_CFLAGS)

CORE_SRC := $(wildcard $(CORE_LAYERS:%=core/%/*.c)) $(wildcard ports/*.c ports/*/*.c)
TOOL_SRC := $(wildcard tools/*/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
HEADERS := $(wildcard core/*.h core/*/*.h ports/*.h ports/*/*.h)

# $(call flags_stamp,DIR,FLAGS): DIR/flags.txt, which holds FLAGS and is
# rewritten (so newer than every output of DIR) when they differ from the
# last build's.  Put it among the prerequisites as $$(call flags_stamp,...):
# secondary expansion writes it only when make looks at such a target.  A
# dry run (make -n) writes nothing: changed flags show as a phony
# prerequisite instead.
same = $(and $(findstring x$(strip $(1))x,x$(strip $(2))x),$(findstring x$(strip $(2))x,x$(strip $(1))x))
dry_run := $(findstring n,$(firstword -$(MAKEFLAGS)))
flags_stamp = $(if $(call same,$(file <$(1)/flags.txt),$(2)),$(1)/flags.txt,$(if $(dry_run),flags-changed,$(shell mkdir -p $(1))$(file >$(1)/flags.txt,$(strip $(2)))$(1)/flags.txt))
.SECONDEXPANSION:

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

LIB := $(BUILD)/libplumbob.a

.PHONY: all lib tool tests check mutants demo test fuzz fuzz-build fuzz-long coverage bench bench-compare install clean baremetal freestanding stack-usage
.DELETE_ON_ERROR:

all: $(LIB) $(BUILD)/plumbob

.PHONY: flags-changed
flags-changed:

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
# the flags of this folder's compiles and links (both warning sets: which
# one an object gets follows from its folder)
BUILD_FLAGS = $(CC) $(AR) | $(CPPFLAGS) | $(CORE_WARN) | $(HOST_WARN) | $(COMMON) | $(CFLAGS) | $(LDFLAGS) | $(EXTRA_LDFLAGS)
BUILD_STAMP = $$(call flags_stamp,$(BUILD),$$(BUILD_FLAGS))
$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.d $(BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_FOR) $(COMMON) $(CFLAGS) -MMD -MP -c $< -o $@
$(DEP_FILES):
-include $(wildcard $(DEP_FILES))

$(LIB): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# The tool's code but its main, as a library: test programs, the benchmarks
# and the fuzz targets link what they use of it.
TOOL_LIB_OBJ := $(filter-out $(BUILD)/obj/tools/cli/plumbob.o,$(TOOL_OBJ))
TOOL_LIB := $(BUILD)/libplumbob-tools.a
$(TOOL_LIB): $(TOOL_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/plumbob: $(TOOL_OBJ) $(LIB) $(BUILD_STAMP)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(LIB) $(EXTRA_LDFLAGS) -lm

$(BUILD)/plumbob-tests: $(TEST_OBJ) $(LIB) $(BUILD_STAMP)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(EXTRA_LDFLAGS)

# The Smooth Jazz compiler is tool code (hosted); its tests are a program of their own.
$(BUILD)/smooth-jazz-tests: $(BUILD)/obj/tests/hosted/smooth_jazz_tests.o $(TOOL_LIB) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) -lm

# Output checkers and the glTF/rig unit tests: hosted programs over the tool's code.
$(BUILD)/xml-check: $(BUILD)/obj/tests/hosted/xml_check.o
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)
$(BUILD)/json-check: $(BUILD)/obj/tests/hosted/json_check.o $(BUILD)/obj/tools/util/json_parse.o
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)
$(BUILD)/gltf-tests: $(BUILD)/obj/tests/hosted/gltf_tests.o $(TOOL_LIB) $(LIB)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) -lm

# the jazz case runs the demo's machine, made by the tool's writer (what
# the benchmarks use of the tool's code comes from its library)
# `plumbob-bench --only avx2`: the SSE2 skinning and clip kernels beside the
# same sources built with -mavx2 (their AVX2 bodies) under other names, in
# one run (x86-64 compilers that take -mavx2; bench/bench_avx2.c)
ifeq ($(shell $(CC) -mavx2 -dM -E -x c /dev/null 2>/dev/null | grep -c '__AVX2__'),1)
BENCH_AVX2_OBJ := $(BUILD)/obj/bench/avx2/skin_simd.o $(BUILD)/obj/bench/avx2/clip_simd.o
$(BUILD)/obj/bench/avx2/skin_simd.o: ports/skin/skin_simd.c $(HEADERS) $(BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_WARN) $(COMMON) $(CFLAGS) -mavx2 -Dplumbob_pb_skin_sse2=plumbob_pb_skin_avx2 -c $< -o $@
$(BUILD)/obj/bench/avx2/clip_simd.o: ports/clip/clip_simd.c $(HEADERS) $(BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_WARN) $(COMMON) $(CFLAGS) -mavx2 -Dplumbob_pb_clip_lanes_sse2=plumbob_pb_clip_lanes_avx2 -c $< -o $@
$(BUILD)/obj/bench/bench_avx2.o: CPPFLAGS += -DPLUMBOB_BENCH_AVX2
endif
$(BUILD)/plumbob-bench: $(BENCH_OBJ) $(BENCH_AVX2_OBJ) $(TOOL_LIB) $(LIB) $(BUILD_STAMP)
	$(CC) $(COMMON) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_AVX2_OBJ) $(TOOL_LIB) $(LIB) $(EXTRA_LDFLAGS) -lm

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
# COMPARE_OPT="-O2 -mavx2": every system built for AVX2, in $(BUILD)/compare-avx2.
COMPARE_OPT ?= -O2
COMPARE_OUT ?= $(BUILD)/compare$(if $(findstring -mavx2,$(COMPARE_OPT)),-avx2)
bench-compare:
	OZZ="$(OZZ)" ACL="$(ACL)" RTM="$(RTM)" OPT="$(COMPARE_OPT)" COMPARE_OUT="$(COMPARE_OUT)" bash bench/compare/build.sh
	$(COMPARE_OUT)/plumbob-compare --json $(COMPARE_OUT)/compare.jsonl $(COMPARE_ARGS) $(wildcard $(CORPUS)/sims3/*.package)

# --- bare-metal Cortex-M4 (mps2-an386 under qemu-system-arm) -------------
BM_CC := arm-none-eabi-gcc
BM_FLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
            -ffunction-sections -fdata-sections -DPLUMBOB_TEST_BAREMETAL
BM_DIR := $(BUILD)/cortex-m4
BM_CORE_OBJ := $(CORE_SRC:%.c=$(BM_DIR)/obj/%.o)
BM_TEST_OBJ := $(TEST_SRC:%.c=$(BM_DIR)/obj/%.o) $(BM_DIR)/obj/tests/baremetal/startup.o
BM_COMMON = $(BM_FLAGS) -Os $(call fp_exact_once,BM_FP_EXACT,$(BM_CC)) $(INCLUDES)
BM_STAMP = $$(call flags_stamp,$(BM_DIR),$$(BM_CC) $$(BM_COMMON) | $$(CORE_WARN) | $$(HOST_WARN))
baremetal: $(BM_DIR)/plumbob-tests.elf
$(BM_CORE_OBJ): $(BM_DIR)/obj/%.o: %.c $(HEADERS) $(BM_STAMP)
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_COMMON) $(CORE_WARN) -c $< -o $@
$(BM_TEST_OBJ): $(BM_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard tests/*.h) $(BM_STAMP)
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_COMMON) $(HOST_WARN) -Itests -c $< -o $@
$(BM_DIR)/plumbob-tests.elf: $(BM_CORE_OBJ) $(BM_TEST_OBJ) tests/baremetal/mps2-an386.ld
	$(BM_CC) $(BM_FLAGS) --specs=rdimon.specs -nostartfiles -T tests/baremetal/mps2-an386.ld \
	    -Wl,--gc-sections -o $@ $(BM_TEST_OBJ) $(BM_CORE_OBJ)
	@# Measured under qemu-system-arm: once text + data + bss passed 4 MiB (by
	@# 1,188 bytes) a test read garbage and the run locked up, though RAM alone
	@# had 560 KiB free; so the image must stay under 4 MiB - 64 KiB.  Large
	@# test arrays belong in t_work()/t_scratch(), not statics.
	@total=$$(arm-none-eabi-size $@ | awk 'NR == 2 {print $$4}'); \
	if [ "$$total" -gt 4128768 ]; then \
	    echo "$@: text + data + bss = $$total bytes, over 4 MiB - 64 KiB (tests/baremetal/mps2-an386.ld)" >&2; \
	    rm -f $@; exit 1; fi

freestanding:
	bash tests/freestanding-check.sh

# --- worst-case stack per public function, Cortex-M4 build (gcc's call graph) --
# `make stack-usage` prints the table docs/API.md quotes; STACK_BUDGET fails it.
STACK_BUDGET ?= -1
SU_DIR := $(BUILD)/stack-usage
SU_CI := $(CORE_SRC:%.c=$(SU_DIR)/obj/%.ci)
$(SU_DIR)/obj/%.ci: %.c $(HEADERS) $$(call flags_stamp,$(SU_DIR),$$(BM_CC) $$(BM_COMMON) $$(CORE_WARN))
	@mkdir -p $(dir $@)
	$(BM_CC) $(BM_COMMON) $(CORE_WARN) -fcallgraph-info=su -c $< -o $(@:.ci=.o)
$(SU_DIR)/stack-usage: tests/hosted/stack_usage.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_WARN) -O1 -o $@ $<
stack-usage: $(SU_DIR)/stack-usage $(SU_CI)
	$(SU_DIR)/stack-usage --budget $(STACK_BUDGET) $(SU_CI)

# --- fuzzing (clang + libFuzzer) ------------------------------------------
# Every target tests/fuzz/fuzz_NAME.c becomes $(BUILD)/fuzz/fuzz_NAME, linked
# against the core and the tool's code (but its main) as archives, so each
# takes what it uses: no list of sources per target.
FUZZ_SECONDS ?= 30
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_DIR)/%)
FUZZ_CC := clang
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(call fp_exact_once,FUZZ_FP_EXACT,$(FUZZ_CC)) $(INCLUDES) -Itools
FUZZ_STAMP = $$(call flags_stamp,$(FUZZ_DIR),$$(FUZZ_CC) $$(FUZZ_FLAGS))
FUZZ_CORE_OBJ := $(CORE_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_TOOL_OBJ := $(filter-out $(FUZZ_DIR)/obj/tools/cli/plumbob.o,$(TOOL_SRC:%.c=$(FUZZ_DIR)/obj/%.o))
$(FUZZ_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard tools/*/*.h) $(wildcard tests/fuzz/*.h) $(FUZZ_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c $< -o $@
$(FUZZ_DIR)/libcore.a: $(FUZZ_CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(FUZZ_DIR)/libtools.a: $(FUZZ_TOOL_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(FUZZ_BIN): $(FUZZ_DIR)/%: $(FUZZ_DIR)/obj/tests/fuzz/%.o $(FUZZ_DIR)/libtools.a $(FUZZ_DIR)/libcore.a
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -lm
fuzz-build: $(FUZZ_BIN)
fuzz: $(FUZZ_BIN)
	@bash tests/fuzz/seed.sh
	@for f in $(FUZZ_BIN); do \
	    mkdir -p $(FUZZ_DIR)/corpus-$$(basename $$f); \
	    echo "fuzz: $$f for $(FUZZ_SECONDS)s"; \
	    $$f $$(tests/fuzz/dict_for $$f) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus-$$(basename $$f) \
	        2>$(FUZZ_DIR)/$$(basename $$f).log || { tail -40 $(FUZZ_DIR)/$$(basename $$f).log; exit 1; }; \
	    grep -E '^(#[0-9]+|Done)' $(FUZZ_DIR)/$$(basename $$f).log | tail -1; \
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
	install -d $(DESTDIR)$(PREFIX)/include/plumbob
	install -m 644 core/plumbob.h $(DESTDIR)$(PREFIX)/include/plumbob.h
	install -m 644 $(wildcard core/plumbob/*.h) $(DESTDIR)$(PREFIX)/include/plumbob/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libplumbob.a
	install -m 755 $(BUILD)/plumbob $(DESTDIR)$(PREFIX)/bin/plumbob
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(shell sed -n 's/^#define PLUMBOB_VERSION_STRING "\(.*\)"/\1/p' core/plumbob/base.h)|g' \
	    tools/plumbob.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/plumbob.pc

clean:
	rm -rf build

# --- drop-in and integration targets (issue 28) ------------------------------
# `make amalgamate`: the two-file drop-in, build/dist/plumbob.c + plumbob.h
# (cmake/amalgamate.sh; tests/amalgamate-tests.sh proves it).
DIST ?= $(BUILD)/dist
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
WASM_DIR := $(BUILD)/wasm
WASM_FLAGS = --target=wasm32 -mbulk-memory -ffreestanding -nostdlib -O2 $(call fp_exact_once,WASM_FP_EXACT,$(WASM_CC))
WASM_STAMP = $$(call flags_stamp,$(WASM_DIR),$$(WASM_CC) $$(WASM_FLAGS) $$(WASM_API) | $$(CORE_WARN) | $$(HOST_WARN))
WASM_API := '-DPLUMBOB_API=__attribute__((visibility("default")))'
WASM_CORE_OBJ := $(CORE_SRC:%.c=$(WASM_DIR)/obj/%.o)
WASM_TEST_OBJ := $(TEST_SRC:%.c=$(WASM_DIR)/obj/%.o) $(WASM_DIR)/obj/tests/wasm/libc.o
.PHONY: wasm
wasm: $(WASM_DIR)/plumbob.wasm $(WASM_DIR)/plumbob-tests.wasm
$(WASM_CORE_OBJ): $(WASM_DIR)/obj/%.o: %.c $(HEADERS) $(WASM_STAMP)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(WASM_API) $(CORE_WARN) $(INCLUDES) -c $< -o $@
$(WASM_TEST_OBJ): $(WASM_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard tests/*.h tests/wasm/include/*.h) $(WASM_STAMP)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(HOST_WARN) -DPLUMBOB_TEST_TARGET='"wasm32"' -isystem tests/wasm/include $(INCLUDES) -Itests -c $< -o $@
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
