#!/usr/bin/env bash
# `make test`: every test on every target, then one summary table.
#
# Stages, in order: host gcc; clang with ASan+UBSan; PLUMBOB_NO_SIMD; -mavx2
# (plain, and clang with ASan+UBSan);
# the benchmarks' build and the -mavx2 kernel beside SSE2's; QEMU
# user mode on aarch64, armhf, s390x, mips, ppc (static binaries); bare-metal
# Cortex-M4 under qemu-system-arm; the build's own checks (host flags, header
# dependencies, symbol prefix); the CMake build and an outside project using
# it; the worst-case stack of every public function; the freestanding link
# check; the two-file drop-in (make amalgamate) and plumbob.h from C++; the
# core as a WebAssembly module and the unit tests under node; the tool's
# own tests; Blender importing the tool's glTF exports; Windows (mingw-w64
# builds, wine runs the unit tests and the tool); the Smooth Jazz compiler's
# tests (ASan+UBSan); the tool under ASan+UBSan on broken inputs
# (tests/tool-attack.sh); a short run of
# every fuzz target.
#
# The unit-test stages each print a digest of everything they decoded; the
# digests must be identical on every target (the byte-order proof).
# A stage whose toolchain is missing is skipped with the apt-get line to fix
# it; with CI=true a skipped stage is a failure.  Logs: build/test-logs/.
set -u
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
FUZZ_SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-10}
CI=${CI:-false}
logs=build/test-logs
mkdir -p "$logs"

bash tests/deps.sh install || true

# the harness: run_units, run_script, run_script_units, skip_stage, the pins
# and the summary table (tests/runner-selftest.sh proves its failure paths)
. tests/runner-lib.sh
# the least number of checks each stage must pass (see docs/RELIABILITY.md)
load_pins tests/expected_counts
[ -d "${PLUMBOB_CORPUS:-../shared/corpus}" ] || corpus_present=false

# --- host ---------------------------------------------------------------------
if build host-gcc CC=gcc BUILD=build/host-gcc tests; then
    run_units host-gcc - build/host-gcc/plumbob-tests
fi
if have clang; then
    san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
    if build asan-ubsan-clang CC=clang BUILD=build/asan OPT=-O1 "EXTRA_CFLAGS=$san" "EXTRA_LDFLAGS=$san" tests; then
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
            run_units asan-ubsan-clang - build/asan/plumbob-tests
    fi
else
    skip_stage asan-ubsan-clang "clang missing: apt-get install -y clang libclang-rt-14-dev"
fi
if build no-simd CC=gcc BUILD=build/nosimd EXTRA_CFLAGS=-DPLUMBOB_NO_SIMD tests; then
    run_units no-simd - build/nosimd/plumbob-tests
fi
# the AVX2 build (the SSE2 kernels VEX-encoded, with 256-bit bodies for
# blended skinning and clip lanes; -mavx2 brings no FMA, so the same bits):
# natively, or under QEMU's x86-64 model where the CPU lacks AVX2
if build avx2 CC=gcc BUILD=build/avx2 EXTRA_CFLAGS=-mavx2 tests; then
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
        run_units avx2 - build/avx2/plumbob-tests
    elif have qemu-x86_64-static; then
        run_units avx2 - qemu-x86_64-static -cpu max build/avx2/plumbob-tests
    else
        skip_stage avx2 "no AVX2 on this CPU and qemu-x86_64-static missing: apt-get install -y qemu-user-static"
    fi
fi
# the AVX2 bodies under the sanitizers too (they are compiled nowhere else):
# natively only, as ASan does not run under QEMU user mode
if have clang; then
    if build asan-ubsan-avx2 CC=clang BUILD=build/asan-avx2 OPT=-O1 "EXTRA_CFLAGS=$san -mavx2" "EXTRA_LDFLAGS=$san" tests; then
        if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
            ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
                run_units asan-ubsan-avx2 - build/asan-avx2/plumbob-tests
        else
            skip_stage asan-ubsan-avx2 "no AVX2 on this CPU (ASan cannot run under QEMU)"
        fi
    fi
else
    skip_stage asan-ubsan-avx2 "clang missing: apt-get install -y clang libclang-rt-14-dev"
fi

# the benchmarks build (nothing else compiles bench/), and the -mavx2 builds of
# the skinning and clip kernels give the SSE2 builds' bits on the benchmark's
# mesh and clip
if build bench CC=gcc BUILD=build/host-gcc build/host-gcc/plumbob-bench; then
    run_script bench-avx2 build/host-gcc/plumbob-bench --quick --only avx2
fi

# --- QEMU user mode -------------------------------------------------------------
# armhf turns NEON on (Debian's default FPU for armhf is VFPv3-D16 only), so
# both NEON kernels (AArch64 and ARMv7) run under QEMU.
for spec in "aarch64 aarch64-linux-gnu aarch64" "armhf arm-linux-gnueabihf arm -mfpu=neon" \
            "s390x s390x-linux-gnu s390x" "mips mips-linux-gnu mips" "ppc powerpc-linux-gnu ppc"; do
    set -- $spec
    stage="qemu-$1" triple=$2 qemu="qemu-$3-static" cflags=${4:-}
    if ! have "$triple-gcc"; then skip_stage "$stage" "$triple-gcc missing: $(bash tests/deps.sh check | tr -d '\n')"; continue; fi
    if ! have "$qemu"; then skip_stage "$stage" "$qemu missing: apt-get install -y qemu-user-static"; continue; fi
    if build "$stage" CROSS="$triple-" BUILD="build/$triple" EXTRA_CFLAGS="$cflags" EXTRA_LDFLAGS=-static tests; then
        run_units "$stage" - "$qemu" "build/$triple/plumbob-tests"
    fi
done

# --- bare metal -------------------------------------------------------------------
if have arm-none-eabi-gcc && have qemu-system-arm; then
    if build cortex-m4 baremetal; then
        run_units cortex-m4 - qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
            -semihosting-config enable=on,target=native -kernel build/cortex-m4/plumbob-tests.elf
    fi
else
    skip_stage cortex-m4 "arm-none-eabi-gcc or qemu-system-arm missing: apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm"
fi

# --- the build itself: host flags honoured, header dependencies tracked ---------
run_script build-flags bash tests/build-tests.sh

# --- CMake: plumbob's CMakeLists.txt, install, and an outside project using it --
if have cmake; then
    run_script_units cmake bash tests/cmake-tests.sh
else
    skip_stage cmake "cmake missing: apt-get install -y cmake"
fi

# --- worst-case stack of every public function (Cortex-M4 call graph) ------------
if have arm-none-eabi-gcc; then
    run_script stack-usage make --no-print-directory stack-usage STACK_BUDGET=2048
else
    skip_stage stack-usage "arm-none-eabi-gcc missing: apt-get install -y gcc-arm-none-eabi"
fi

# --- freestanding, tool, fuzz -----------------------------------------------------
if have arm-none-eabi-gcc && have clang; then
    run_script freestanding bash tests/freestanding-check.sh
else
    skip_stage freestanding "needs arm-none-eabi-gcc and clang"
fi
# the two-file drop-in (make amalgamate), freestanding on host and Cortex-M4,
# the unit tests against it, and plumbob.h from C++
if have arm-none-eabi-gcc && have clang && have g++; then
    run_script_units amalgamation bash tests/amalgamate-tests.sh
else
    skip_stage amalgamation "needs arm-none-eabi-gcc, clang and g++: apt-get install -y gcc-arm-none-eabi clang g++"
fi
# WebAssembly: the core as a module with no imports, the unit tests under node
if have clang && have node; then
    run_script_units wasm32-node bash tests/wasm-tests.sh
else
    skip_stage wasm32-node "needs clang and node: apt-get install -y clang lld-14 nodejs"
fi
if build tool CC=gcc BUILD=build all build/xml-check build/json-check; then
    # the Khronos validator is installed first, so that the tool tests' own
    # Khronos checks (tests/tool/carry.sh) run too
    bash tests/gltf-validator.sh build --probe > "$logs/gltf-validator.probe" 2>&1
    validator=$?
    rm -rf build/tool-exports
    PLUMBOB_KEEP_EXPORTS=build/tool-exports run_script tool bash tests/tool-tests.sh build
    # the Khronos validator and plumbob's checker on its own exports and on
    # every glTF the tool tests wrote (a real client: in CI a validator that
    # cannot be had fails); none carried is a failure
    if [ $validator = 0 ]; then
        PLUMBOB_KEEP_EXPORTS=build/tool-exports run_script gltf-validator bash tests/gltf-validator.sh build
    else
        skip_stage gltf-validator "$(head -1 "$logs/gltf-validator.probe")"
    fi
fi
# the harness's own failure paths: fake commands that exit non-zero after a
# clean summary, a suite that does not parse, a stage below its pin, nothing
# carried to the validator, checker and validator disagreeing (that last
# needs the validator, installed above) must each fail (a few seconds)
run_script runner-selftest bash tests/runner-selftest.sh build/host-gcc
# Blender (Debian's) imports the tool's glTF exports: bones, actions, joint
# transforms, shape keys and skinned vertices against the tool's own numbers
if have blender; then
    run_script blender bash tests/blender-tests.sh build
else
    skip_stage blender "blender missing: apt-get install -y blender python3-numpy"
fi
# Windows: mingw-w64 builds plumbob.exe and the unit tests, wine runs them
# (digests; Windows paths and CRLF text in the tool)
if have x86_64-w64-mingw32-gcc && { [ -x /usr/lib/wine/wine64 ] || have wine64 || have wine; }; then
    run_script_units windows-wine bash tests/windows-tests.sh
else
    skip_stage windows-wine "x86_64-w64-mingw32-gcc or wine missing: apt-get install -y gcc-mingw-w64-x86-64 wine wine64"
fi
# The Smooth Jazz compiler and the glTF exporter and checker (tool code)
# have test programs of their own, run under ASan+UBSan when clang is there.
if have clang; then
    sjb=build/asan; sjflags=("CC=clang" "BUILD=$sjb" "OPT=-O1" "EXTRA_CFLAGS=$san" "EXTRA_LDFLAGS=$san")
else
    sjb=build; sjflags=("CC=gcc" "BUILD=$sjb")
fi
if build smooth-jazz "${sjflags[@]}" "$sjb/smooth-jazz-tests"; then
    run_script smooth-jazz "$sjb/smooth-jazz-tests" tests/smooth-jazz "${PLUMBOB_CORPUS:-../shared/corpus}"
fi
if build gltf "${sjflags[@]}" "$sjb/gltf-tests"; then
    run_script gltf "$sjb/gltf-tests" "${PLUMBOB_CORPUS:-../shared/corpus}"
fi
# the tool itself under ASan + UBSan, on broken inputs of every kind
if have clang; then
    if build tool-attack "${sjflags[@]}" "$sjb/plumbob"; then
        run_script tool-attack bash tests/tool-attack.sh "$sjb" 8 16
    fi
else
    skip_stage tool-attack "clang missing: apt-get install -y clang libclang-rt-14-dev"
fi
if have clang; then
    if build fuzz-build fuzz-build; then
        run_script fuzz-smoke make --no-print-directory fuzz FUZZ_SECONDS="$FUZZ_SMOKE_SECONDS"
    fi
else
    skip_stage fuzz-smoke "clang missing: apt-get install -y clang libclang-rt-14-dev"
fi

# --- summary -------------------------------------------------------------------------
summary
