#!/usr/bin/env bash
# The tool under attack: every subcommand, built with ASan + UBSan, on broken
# inputs of every kind (empty, truncated at many points, bit-flipped), made by
# plumbob's own writers (the demo) and, when present, taken from the corpus.
# Each run must end by itself (a time bound), with exit 0 or 1, no sanitizer
# report, no signal, and no partial output or temporary file left behind when
# it fails.
# Usage: tests/tool-attack.sh BUILD_DIR [CUTS] [FLIPS]  (prints `N passed, N failed`)
set -u
bin="${1:?usage: tests/tool-attack.sh BUILD_DIR}/plumbob"
cuts=${2:-12} flips=${3:-24}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
pass=0 fail=0 runs=0

# One run of one command on one broken input; $out (if the command writes a
# file) must exist only when it succeeded.
attack() { # label, out-file-or-empty, command...
    local label=$1 out=$2 rc log="$tmp/log"; shift 2
    runs=$((runs + 1))
    timeout 20 "$@" >"$log" 2>&1 </dev/null
    rc=$?
    # a broken file may be shorter than the sample time: refusing that time is usage (exit 2), not a crash
    if [ $rc = 2 ] && grep -q 'is outside the animation' "$log"; then rc=1; fi
    if [ $rc -ge 2 ] || grep -qE 'ERROR: AddressSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer' "$log"; then
        fail=$((fail + 1))
        echo "FAIL $label: exit $rc ($([ $rc = 124 ] && echo 'time bound hit' || echo 'crash, sanitizer report or usage error'))"
        head -12 "$log" | sed 's/^/    /'
        return
    fi
    if [ -n "$out" ] && [ $rc != 0 ] && [ -e "$out" ]; then
        fail=$((fail + 1)); echo "FAIL $label: failed (exit $rc) but left $out behind"; return
    fi
    if ls "$tmp/o" 2>/dev/null | grep -q '\.tmp-'; then
        fail=$((fail + 1)); echo "FAIL $label: left a temporary file in $tmp/o"; return
    fi
    rm -rf "$tmp/o"; mkdir -p "$tmp/o"
    pass=$((pass + 1))
}

# Every command that takes this kind of input.
commands() { # kind, file, label
    local kind=$1 f=$2 l=$3 o="$tmp/o"
    attack "$l info" "" "$bin" info "$f"
    attack "$l check" "" "$bin" check "$f"
    case $kind in
    clip)
        attack "$l clip dump" "" "$bin" clip dump "$f" --json
        attack "$l clip sample" "" "$bin" clip sample "$f" --time 0.5 --json
        attack "$l clip plot" "$o/p.svg" "$bin" clip plot "$f" -o "$o/p.svg"
        attack "$l clip export" "$o/c.glb" "$bin" clip export "$f" -o "$o/c.glb"
        attack "$l clip blend" "$o/bl.glb" "$bin" clip blend "$f" "$clip" --rig "$rig" --fade 0.5 -o "$o/bl.glb"
        attack "$l clip blend --additive" "$o/bl.clip" "$bin" clip blend "$clip" "$f" --rig "$rig" --additive --mirror -o "$o/bl.clip"
        attack "$l rig ik --clip" "$o/ik.glb" "$bin" rig ik "$rig" --chain 0 --target 0.5,1.5,0.3 --clip "$f" --time 0.5 -o "$o/ik.glb" ;;
    gmdc)
        attack "$l gmdc dump" "" "$bin" gmdc dump "$f" --json
        attack "$l gmdc skin" "" "$bin" gmdc skin "$f" --json
        attack "$l gmdc export glb" "$o/m.glb" "$bin" gmdc export "$f" -o "$o/m.glb"
        attack "$l gmdc export obj" "$o/m.obj" "$bin" gmdc export "$f" -o "$o/m.obj" ;;
    anim)
        attack "$l anim dump" "" "$bin" anim dump "$f" --json
        attack "$l anim sample" "" "$bin" anim sample "$f" --time 0.1 --json
        attack "$l anim plot" "$o/a.svg" "$bin" anim plot "$f" -o "$o/a.svg"
        attack "$l anim export --cres" "$o/a.glb" "$bin" anim export "$f" --cres "$bcres" --mesh "$bmesh" -o "$o/a.glb" ;;
    cres)
        attack "$l cres dump" "" "$bin" cres dump "$f" --json
        attack "$l gmdc export --cres" "$o/b.glb" "$bin" gmdc export "$bmesh" --cres "$f" -o "$o/b.glb"
        attack "$l gmdc skin --cres --anim" "" "$bin" gmdc skin "$bmesh" --cres "$f" --anim "$banim" --time 0.5 --json
        attack "$l anim export --cres" "$o/a.glb" "$bin" anim export "$banim" --cres "$f" --mesh "$bmesh" -o "$o/a.glb" ;;
    jazz)
        attack "$l jazz dump" "" "$bin" jazz dump "$f" --json
        attack "$l jazz decompile" "$o/j.jazz" "$bin" jazz decompile "$f" -o "$o/j.jazz"
        attack "$l jazz run" "" "$bin" jazz run "$f" --enter Enter --request Exit --max-steps 10000 ;;
    package)
        attack "$l ls" "" "$bin" ls "$f"
        attack "$l extract" "" "$bin" extract "$f" -o "$o/x"
        # editing in place works on a copy; a refused edit leaves it as it was
        attack "$l remove" "" sh -c 'cp "$1" "$2" && "$0" remove "$2" 0 CLIP:0:1; s=$?; cmp -s "$1" "$2" || [ $s = 0 ] || exit 3; exit $s' \
            "$bin" "$f" "$o/e.package"
        attack "$l add" "" sh -c 'cp "$1" "$2" && "$0" add "$2" "$3" --force; s=$?; cmp -s "$1" "$2" || [ $s = 0 ] || exit 3; exit $s' \
            "$bin" "$f" "$o/e.package" "$clip" ;;
    gltf)
        attack "$l clip import" "$o/i.clip" "$bin" clip import "$f" -o "$o/i.clip"
        attack "$l gmdc import" "$o/i.gmdc" "$bin" gmdc import "$f" -o "$o/i.gmdc" ;;
    jazztext)
        attack "$l jazz compile" "$o/c.jazzbin" "$bin" jazz compile "$f" -o "$o/c.jazzbin" ;;
    riglist)
        attack "$l clip export --rig" "$o/r.glb" "$bin" clip export "$clip" --rig "$f" -o "$o/r.glb" ;;
    rig)
        attack "$l rig dump" "" "$bin" rig dump "$f" --json
        attack "$l clip sample --rig" "" "$bin" clip sample "$clip" --time 0.5 --rig "$f" --json
        attack "$l clip dump --rig" "" "$bin" clip dump "$clip" --rig "$f"
        attack "$l clip export --rig" "$o/r.glb" "$bin" clip export "$clip" --rig "$f" -o "$o/r.glb"
        attack "$l clip blend --rig" "$o/bl.glb" "$bin" clip blend "$clip" "$clip" --rig "$f" --weight 0.5 --mirror --mask b__Spine0__ --json --time 0.5 -o "$o/bl.glb"
        attack "$l rig ik" "$o/ik.clip" "$bin" rig ik "$f" --chain 0 --target 0.5,1.5,0.3 --json -o "$o/ik.clip"
        attack "$l rig ik --aim" "" "$bin" rig ik "$f" --aim b__Head__ --target 1,3,0 --clip "$clip" --time 0.5 --json ;;
    esac
}

# Broken copies of one input: empty, cut at `cuts` points, `flips` single-bit
# flips at pseudo-random positions (fixed seed: the same inputs every run).
mutate_and_attack() { # kind, file, ext
    local kind=$1 src=$2 ext=$3 size i at bit m
    size=$(wc -c <"$src")
    m="$tmp/m.$ext"
    : >"$m"; commands "$kind" "$m" "$kind empty"
    for ((i = 1; i <= cuts; i++)); do
        at=$((size * i / (cuts + 1)))
        head -c "$at" "$src" >"$m"; commands "$kind" "$m" "$kind cut@$at"
    done
    for ((i = 0; i < flips; i++)); do
        at=$(((i * 2654435761 + 12345) % size)); bit=$((i % 8))
        cp "$src" "$m"
        printf "$(printf '\\%03o' $(( $(od -An -tu1 -j "$at" -N1 "$src") ^ (1 << bit) )))" |
            dd of="$m" bs=1 seek="$at" conv=notrunc status=none
        commands "$kind" "$m" "$kind flip@$at.$bit"
    done
}

mkdir -p "$tmp/o"
"$bin" demo --out "$tmp/demo" >/dev/null 2>&1 || { echo "FAIL the demo did not run"; echo "0 passed, 1 failed"; exit 1; }
clip=$(ls "$tmp"/demo/*.clip) gmdc=$(ls "$tmp"/demo/*.gmdc) anim=$(ls "$tmp"/demo/*.anim) jazz=$(ls "$tmp"/demo/*.jazz)
rig=$(ls "$tmp"/demo/*.rig)
"$bin" pack "$clip" "$jazz" -o "$tmp/demo.package" >/dev/null
"$bin" jazz decompile "$jazz" -o "$tmp/demo.jazztext" >/dev/null 2>&1
# the Sims 2 body as loose files: a broken CRES meets a sound mesh and ANIM
"$bin" extract "$tmp/demo/body.package" -o "$tmp/bx" >/dev/null
bcres=$(ls "$tmp"/bx/*.cres) bmesh=$(ls "$tmp"/bx/*.gmdc) banim=$(ls "$tmp"/bx/*.anim)
mutate_and_attack cres "$bcres" cres
mutate_and_attack package "$tmp/demo/body.package" package
mutate_and_attack clip "$clip" clip
mutate_and_attack gmdc "$gmdc" gmdc
mutate_and_attack anim "$anim" anim
mutate_and_attack jazz "$jazz" jazz
mutate_and_attack package "$tmp/demo.package" package
mutate_and_attack gltf "$tmp/demo/demo.gltf" gltf
mutate_and_attack jazztext "$tmp/demo.jazztext" jazz
mutate_and_attack riglist "$tmp/demo/rig.txt" txt
mutate_and_attack rig "$rig" rig

# real files, cut and flipped the same way (fewer mutations: they are larger)
corpus=${PLUMBOB_CORPUS:-../shared/corpus}
if [ -d "$corpus" ]; then
    cuts=3 flips=4
    "$bin" extract "$corpus/sims3/EWBreastfeed.package" --type CLIP -o "$tmp/cx" >/dev/null 2>&1
    "$bin" extract "$corpus/sims3/WarriorCats.package" --type JAZZ -o "$tmp/jx" >/dev/null 2>&1
    "$bin" extract "$corpus/sims2/animation.package" --type ANIM -o "$tmp/ax" >/dev/null 2>&1
    f=$(ls "$tmp"/cx/* 2>/dev/null | head -1); [ -n "$f" ] && mutate_and_attack clip "$f" clip
    f=$(ls "$tmp"/jx/* 2>/dev/null | head -1); [ -n "$f" ] && mutate_and_attack jazz "$f" jazz
    f=$(ls "$tmp"/ax/* 2>/dev/null | head -1); [ -n "$f" ] && mutate_and_attack anim "$f" anim
    "$bin" extract "$corpus/sims3/EWWheatAndFlour.package" --type RIG -o "$tmp/rx" >/dev/null 2>&1
    f=$(ls -S "$tmp"/rx/* 2>/dev/null | head -1); [ -n "$f" ] && mutate_and_attack rig "$f" rig
    mutate_and_attack package "$corpus/sims2/animation.package" package
fi
echo "tool-attack: $runs runs"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
