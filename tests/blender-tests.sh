#!/usr/bin/env bash
# Blender (Debian's package) opens what the plumbob tool exports, as a
# modder would: tests/blender/check_import.py runs inside `blender -b` on
#   - the demo scene (build/.../demo.gltf: skinned cylinder, rig, clip, morphs)
#   - a corpus clip exported without a rig (EWBreastfeed, 141 bones)
# and checks bone names, frame ranges, every joint's transform at a few
# frames against `plumbob clip sample`, shape keys and their weights, and
# skinned vertex positions against `plumbob gmdc skin`.
# Usage: tests/blender-tests.sh [BUILD]   (BUILD holds the tool, default build;
# prints `N passed, N failed`)
set -u
cd "$(dirname "$0")/.."
bin=${1:-build}/plumbob
b=build/blender-tests
corpus=${PLUMBOB_CORPUS:-../shared/corpus}
pass=0 fail=0
if ! command -v blender >/dev/null 2>&1; then
    echo "FAIL blender missing: apt-get install -y blender python3-numpy"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$b"
mkdir -p "$b"
[ -x "$bin" ] || make --no-print-directory -j"${JOBS:-2}" all >"$b/build.log" 2>&1
echo "blender: $(blender --version 2>/dev/null | head -1)"

run_case() { # case.json
    local log="$b/$(basename "$1" .json).log" line p f
    blender -b --factory-startup --python-exit-code 1 --python tests/blender/check_import.py -- "$1" >"$log" 2>&1
    grep -E '^(ok|FAIL) ' "$log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "FAIL $(basename "$1" .json): no result from Blender; last lines:"
        tail -15 "$log" | sed 's/^/   | /'
        fail=$((fail + 1))
        return
    fi
    p=${line%% passed*} f=${line#*passed, }
    pass=$((pass + p)) fail=$((fail + ${f%% failed*}))
}

# the demo scene
"$bin" demo --out "$b/demo" >"$b/demo.log" 2>&1 || { echo "FAIL plumbob demo"; cat "$b/demo.log"; }
clip=$(ls "$b"/demo/*.clip | head -1)
gmdc=$(ls "$b"/demo/*.gmdc | head -1)
bones=$(grep -v '^#' "$b/demo/rig.txt" | awk 'NF { printf "%s\"%s\"", n++ ? ", " : "", $1 }')
cat >"$b/demo.json" <<JSON
{"label": "demo", "gltf": "$b/demo/demo.gltf", "plumbob": "$bin", "clip_file": "$clip", "gmdc": "$gmdc",
 "bones": [$bones], "track_frames": [0, 12, 30, 48], "skin": {"frames": [0, 12, 24, 36, 48]}}
JSON
run_case "$b/demo.json"

# a corpus clip, exported without a rig
ew="$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164"
if [ -f "$corpus/sims3/EWBreastfeed.package" ]; then
    if "$bin" clip export "$ew" -o "$b/ew.glb" >"$b/ew-export.log" 2>&1; then
        cat >"$b/corpus-clip.json" <<JSON
{"label": "EWBreastfeed clip", "gltf": "$b/ew.glb", "plumbob": "$bin", "clip_file": "$ew", "unrigged": true,
 "track_frames": [0, 37, 100, 187]}
JSON
        run_case "$b/corpus-clip.json"
    else
        echo "FAIL plumbob clip export $ew"; cat "$b/ew-export.log"; fail=$((fail + 1))
    fi
elif [ "${CI:-}" = true ]; then
    echo "FAIL corpus missing: $corpus (set PLUMBOB_CORPUS)"; fail=$((fail + 1))
else
    echo "skip the corpus clip: $corpus/sims3/EWBreastfeed.package not found (set PLUMBOB_CORPUS)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
