#!/usr/bin/env bash
# The CMake build, proved the ways an engine uses it:
#   1. plumbob configured and built on its own (core warnings as errors), its
#      unit tests run by ctest with the pinned digests;
#   2. installed into a temporary prefix: header, library, tool, CMake package
#      and pkg-config file, and a program built with pkg-config's flags alone;
#   3. tests/cmake (a tiny outside project, C99 and C++11) built against it
#      with find_package(plumbob), add_subdirectory (with PLUMBOB_NO_SIMD) and
#      FetchContent, each running the tool as a build-time asset step and
#      decoding the clip it wrote: the values must equal `plumbob clip sample`.
# Usage: tests/cmake-tests.sh   (prints `N passed, N failed`; the summary
# line of the unit tests is repeated for the matrix table)
set -u
cd "$(dirname "$0")/.."
root=$PWD
b=build/cmake-tests
rm -rf "$b"
mkdir -p "$b"
jobs=${JOBS:-2}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -15 | sed 's/^/   | /'; }
step() { # name, log, command...
    local name=$1 log=$2; shift 2
    if "$@" >"$log" 2>&1; then ok "$name"; return 0; fi
    bad "$name" "$(cat "$log")"
    return 1
}
if ! command -v cmake >/dev/null 2>&1; then
    echo "FAIL cmake missing: apt-get install -y cmake"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "cmake: $(cmake --version | head -1)"
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)

# --- 1. plumbob on its own -------------------------------------------------------
top=$b/top prefix=$root/$b/prefix
if step "configure plumbob (Release, core warnings as errors)" "$b/top-configure.log" \
        cmake -S . -B "$top" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPLUMBOB_WARNINGS_AS_ERRORS=ON \
        "-DCMAKE_INSTALL_PREFIX=$prefix" &&
   step "build plumbob::core, the tool and the unit tests" "$b/top-build.log" cmake --build "$top" -j "$jobs"; then
    if (cd "$top" && ctest --output-on-failure -V) >"$b/ctest.log" 2>&1; then
        ok "ctest runs the unit tests: $(grep -o '[0-9]* passed, [0-9]* failed.*' "$b/ctest.log" | tail -1)"
    else
        bad "ctest runs the unit tests" "$(tail -20 "$b/ctest.log")"
    fi
    # the matrix table takes this line for the cmake row's digest
    grep -o 'summary: .*' "$b/ctest.log" | tail -1 | sed 's/target=x86_64/target=cmake/'
    step "cmake --install into a temporary prefix" "$b/install.log" cmake --install "$top"
    missing=""
    for f in include/plumbob.h lib/libplumbob.a bin/plumbob lib/cmake/plumbob/plumbobConfig.cmake \
             lib/cmake/plumbob/plumbobConfigVersion.cmake lib/cmake/plumbob/plumbobTargets.cmake lib/pkgconfig/plumbob.pc; do
        [ -f "$prefix/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] && ok "installed: header, library, tool, package config, pkg-config file" || bad "installed files missing:$missing"
    [ -e "$prefix/include/pb_bytes.h" ] && bad "a private header was installed" || ok "only plumbob.h is installed"
fi

# the reference values: the installed tool's demo clip sampled at 1 s (the
# hash and the numbers; the tool also prints a bone's name when it knows it)
tool=$prefix/bin/plumbob
[ -x "$tool" ] || tool=build/plumbob
ref_dir=$b/ref
if "$tool" demo --out "$ref_dir" >"$b/demo.log" 2>&1; then
    clip=$(ls "$ref_dir"/*.clip | head -1)
    "$tool" clip sample "$clip" --time 1 | awk 'NR > 1 { s = $1; for (i = 3; i <= NF; i++) if ($i ~ /^-?[0-9.]+$/) s = s " " $i; print s }' >"$b/ref.txt"
    [ -s "$b/ref.txt" ] && ok "reference: plumbob clip sample on the demo clip ($(wc -l <"$b/ref.txt") tracks)" || bad "reference values"
else
    bad "plumbob demo for the reference values" "$(cat "$b/demo.log")"
fi

# compare a consumer program's output with the tool's values
check_consumer() { # label, build dir, expected port
    local label=$1 dir=$2 port=$3 exe out
    for exe in consumer consumer_cpp; do
        out=$("$dir/$exe" "$dir/demo/6B20C4F3_00000000_00F0E1D2C3B4A596.clip" 2>&1)
        if ! grep -q "^fnv32(b__Pelvis__) 0x556B181A$" <<<"$out" || ! grep -q "^clip a_demo_bend_x, 61 ticks, 4 tracks$" <<<"$out"; then
            bad "$label: $exe decodes the clip the tool wrote at build time" "$out"
        elif ! diff <(grep '^0x' <<<"$out") "$b/ref.txt" >/dev/null; then
            bad "$label: $exe samples the values of plumbob clip sample" "$(diff <(grep '^0x' <<<"$out") "$b/ref.txt")"
        elif ! grep -q "port $port\$" <<<"$out"; then
            bad "$label: $exe runs the $port port" "$(head -1 <<<"$out")"
        else
            ok "$label: $exe decodes the build-time clip, values equal the tool's, port $port"
        fi
    done
}
host_port=$(grep -o 'port=[a-z0-9]*' "$b/ctest.log" 2>/dev/null | head -1 | cut -d= -f2)
[ -n "$host_port" ] || host_port=sse2

# --- 2. pkg-config ----------------------------------------------------------------
if command -v pkg-config >/dev/null 2>&1 && [ -f "$prefix/lib/pkgconfig/plumbob.pc" ]; then
    flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs plumbob)
    mkdir -p "$b/pc/demo"
    cp "$ref_dir"/6B20C4F3_00000000_00F0E1D2C3B4A596.clip "$b/pc/demo/" 2>/dev/null
    if gcc -std=c99 -Wall -Wextra -Werror tests/cmake/consumer.c $flags -o "$b/pc/consumer" >"$b/pc.log" 2>&1 &&
       g++ -std=c++11 -Wall -Wextra -Werror tests/cmake/consumer.cpp $flags -o "$b/pc/consumer_cpp" >>"$b/pc.log" 2>&1; then
        ok "pkg-config --cflags --libs plumbob builds the C and C++ consumers ($flags)"
        check_consumer pkg-config "$b/pc" "$host_port"
    else
        bad "pkg-config --cflags --libs plumbob builds the consumers" "$(cat "$b/pc.log")"
    fi
else
    bad "pkg-config missing (apt-get install -y pkgconf) or no plumbob.pc installed"
fi

# --- 3. the outside project, three ways -------------------------------------------
consumer() { # label, dir, expected port, cmake args...
    local label=$1 dir=$2 port=$3; shift 3
    if step "$label: configure tests/cmake" "$dir.configure.log" cmake -S tests/cmake -B "$dir" "${gen[@]}" "$@" &&
       step "$label: build (asset step with the tool, C and C++ consumers)" "$dir.build.log" cmake --build "$dir" -j "$jobs"; then
        check_consumer "$label" "$dir" "$port"
    fi
}
consumer find_package "$b/package" "$host_port" -DCMAKE_BUILD_TYPE=Release \
    -DPLUMBOB_CONSUMER_MODE=package "-DCMAKE_PREFIX_PATH=$prefix"
grep -q "found plumbob 0.1" "$b/package.configure.log" 2>/dev/null && ok "find_package found the installed plumbob $(sed -n 's/.*found plumbob \([0-9.]*\) .*/\1/p' "$b/package.configure.log")" ||
    bad "find_package found the installed plumbob" "$(cat "$b/package.configure.log" 2>/dev/null)"
# an incompatible version request must fail
if cmake -S tests/cmake -B "$b/badversion" "${gen[@]}" -DPLUMBOB_CONSUMER_MODE=package "-DCMAKE_PREFIX_PATH=$prefix" \
        -DPLUMBOB_WANT_VERSION=9.0 >"$b/badversion.log" 2>&1; then
    bad "find_package(plumbob 9.0) is refused"
else
    grep -q 'plumbob' "$b/badversion.log" && ok "find_package(plumbob 9.0) is refused" || bad "find_package(plumbob 9.0) is refused" "$(cat "$b/badversion.log")"
fi
consumer add_subdirectory "$b/subdir" scalar -DCMAKE_BUILD_TYPE=Release \
    -DPLUMBOB_CONSUMER_MODE=subdirectory "-DPLUMBOB_SOURCE_DIR=$root" -DPLUMBOB_NO_SIMD=ON
consumer FetchContent "$b/fetch" "$host_port" -DCMAKE_BUILD_TYPE=Release \
    -DPLUMBOB_CONSUMER_MODE=fetchcontent "-DPLUMBOB_SOURCE_DIR=$root"
if [ -f "$b/subdir.build.log" ] && grep -q 'plumbob-tests' "$b/subdir.build.log"; then
    bad "as a subproject plumbob builds no tests of its own"
else
    ok "as a subproject plumbob builds no tests of its own"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
