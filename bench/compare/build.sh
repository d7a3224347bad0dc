#!/usr/bin/env bash
# Builds the comparison harness (bench/compare/compare.cpp) against
# ozz-animation, ACL and rtm source trees that live outside the project:
#   make bench-compare OZZ=DIR ACL=DIR RTM=DIR      (or: bench/compare/build.sh)
# Tested with ozz-animation 0.16.0, ACL 2.1.0 and the rtm commit ACL 2.1.0
# pins (external/rtm).  Their sources are compiled into build/compare/, with
# plumbob, at the same -O level (OPT, default -O2) and for SSE2 (the x86-64
# baseline; no -march), so every system gets the same compiler and flags;
# OPT="-O2 -mavx2" with COMPARE_OUT=build/compare-avx2 builds all three
# for AVX2 instead.
# Nothing here is part of `make` or `make test`.
set -u
cd "$(dirname "$0")/../.."
OZZ=${OZZ:-} ACL=${ACL:-} RTM=${RTM:-}
OPT=${OPT:--O2}
CXX=${CXX:-g++} CC=${CC:-gcc}
out=${COMPARE_OUT:-build/compare}
missing=0
check() { # NAME DIR FILE-INSIDE HOW
    if [ -z "$2" ]; then
        echo "bench-compare: $1 not given: pass $1=DIR ($4)"; missing=1
    elif [ ! -f "$2/$3" ]; then
        echo "bench-compare: $1=$2 has no $3: not a $4 source tree"; missing=1
    fi
}
check OZZ "$OZZ" include/ozz/animation/runtime/sampling_job.h "ozz-animation 0.16, https://github.com/guillaumeblanc/ozz-animation"
check ACL "$ACL" includes/acl/compression/compress.h "ACL 2.1, https://github.com/nfrechette/acl"
check RTM "$RTM" includes/rtm/quatf.h "rtm (the commit ACL pins in external/rtm), https://github.com/nfrechette/rtm"
[ $missing = 0 ] || exit 2
mkdir -p "$out/ozz" "$out/plumbob"
# Every function starts on a 64-byte boundary (both systems): where the
# linker puts them otherwise depends on the other objects' sizes (cold and
# startup sections come first), and a loop that crosses a boundary in one
# build and not in the next moved ozz's SkinningJob by a fifth.
flags="$OPT -DNDEBUG -ffp-contract=off -falign-functions=64"
# ozz's objects are kept between runs: rebuilt when the flags change
if [ "$(cat "$out/ozz/flags" 2>/dev/null)" != "$CXX $flags" ]; then rm -f "$out"/ozz/*.o; fi
# ozz: its runtime, the offline builder (to convert clips) and skinning
ozz_src=$(cd "$OZZ" && ls src/base/*.cc src/base/*/*.cc src/animation/runtime/*.cc src/animation/offline/*.cc \
          src/geometry/runtime/*.cc)
objs=()
for s in $ozz_src; do
    o=$out/ozz/$(echo "$s" | tr / _ | sed 's/\.cc$/.o/')
    if [ ! -f "$o" ] || [ "$OZZ/$s" -nt "$o" ]; then
        $CXX -std=c++17 $flags -I"$OZZ/include" -I"$OZZ/src" -c "$OZZ/$s" -o "$o" || exit 1
    fi
    objs+=("$o")
done
echo "$CXX $flags" > "$out/ozz/flags"
# plumbob: the library, built here with the same compiler and flags
pobjs=()
inc="-DPLUMBOB_TOOLS_API -Icore $(for d in core/*/; do printf -- '-I%s ' "${d%/}"; done)-Iports"
for s in core/*/*.c ports/*.c ports/*/*.c bench/bench_mesh.c bench/bench_ik_chains.c; do
    o=$out/plumbob/$(basename "$s" .c).o
    $CC -std=c99 $flags $inc -c "$s" -o "$o" || exit 1
    pobjs+=("$o")
done
# ozz's objects first in the link: its code then sits at the same addresses
# whatever plumbob's code weighs, so a change to plumbob cannot move ozz's
# loops across alignment boundaries (that alone moved ozz's SkinningJob by up
# to a third between two builds; docs/BENCHMARKS.md)
$CXX -std=c++17 $flags -I"$OZZ/include" -I"$ACL/includes" -I"$RTM/includes" $inc \
    -o "$out/plumbob-compare" "${objs[@]}" bench/compare/compare.cpp "${pobjs[@]}" || exit 1
echo "built $out/plumbob-compare"
