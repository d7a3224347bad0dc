#!/usr/bin/env bash
# `make coverage`: clang source-based coverage of core/ and ports/ from the
# unit tests plus a replay of every fuzz target's kept corpus (build/fuzz/
# kept-*, grown by `make fuzz-long`; the seeds when there is none).  Prints
# line and branch coverage per core file and the total.
set -u
cd "$(dirname "$0")/.."
out=build/coverage
rm -rf "$out"; mkdir -p "$out/prof"
flags="-fprofile-instr-generate -fcoverage-mapping -O1 -g"
prof=$(command -v llvm-profdata || command -v llvm-profdata-14)
cov=$(command -v llvm-cov || command -v llvm-cov-14)
[ -n "$prof" ] && [ -n "$cov" ] || { echo "coverage needs llvm-profdata and llvm-cov (apt-get install llvm)"; exit 1; }
make -s -j2 BUILD="$out/build" CC=clang OPT=-O1 "EXTRA_CFLAGS=$flags" "EXTRA_LDFLAGS=$flags" tests >/dev/null || exit 1
LLVM_PROFILE_FILE="$out/prof/units-%p.profraw" "$out/build/plumbob-tests" >/dev/null
objects=("$out/build/plumbob-tests")
bash tests/fuzz/seed.sh >/dev/null 2>&1
for src in tests/fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    extra=()
    case $t in
        fuzz_smooth_jazz) extra=(-Itools $(ls tools/smooth_jazz/*.c) tools/util/jazz_build.c) ;;
        fuzz_gltf_check) extra=(-Itools tools/gltf/gltf_check.c tools/util/json_parse.c) ;;
        fuzz_tool_text) extra=(-Itools tools/util/rig.c tools/util/pose_json.c tools/util/json_parse.c) ;;
        fuzz_gltf_import) extra=(-Itools tools/gltf/gltf_read.c tools/gltf/gltf_import_clip.c tools/gltf/gltf_import_gmdc.c tools/gltf/gltf_import_cres.c tools/gltf/gltf_import_geom.c tools/gltf/gltf_axes.c tools/util/json_parse.c tools/util/cres_build.c tools/util/namelist.c -lm) ;;
    esac
    if [ "$t" = fuzz_gltf_check ]; then core=(); else core=(core/*/*.c ports/*.c ports/*/*.c); fi
    clang $flags -fsanitize=fuzzer -ffp-contract=off -DPLUMBOB_TOOLS_API -Icore $(for d in core/*/; do printf -- '-I%s ' "${d%/}"; done)-Iports -o "$out/$t" "$src" "${extra[@]}" "${core[@]}" 2>"$out/$t.build.log" || {
        echo "$t: build failed (see $out/$t.build.log)"; continue; }
    dir=build/fuzz/kept-$t
    [ -d "$dir" ] && [ -n "$(ls "$dir")" ] || dir=build/fuzz/corpus-$t
    [ -d "$dir" ] || continue
    LLVM_PROFILE_FILE="$out/prof/$t-%p.profraw" "$out/$t" -runs=0 "$dir" >/dev/null 2>&1
    objects+=(-object "$out/$t")
done
"$prof" merge -sparse "$out"/prof/*.profraw -o "$out/all.profdata" || exit 1
"$cov" report "${objects[@]}" -instr-profile="$out/all.profdata" -show-region-summary=false \
    -show-functions=false core/*/*.c ports/*.c ports/*/*.c 2>/dev/null | sed 's|^.*/\(core\|ports\)/|\1/|' | tee "$out/report.txt"
