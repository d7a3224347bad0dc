#!/usr/bin/env bash
# The Khronos glTF validator and plumbob's own checker (`plumbob check`) on
# what plumbob exports (demo scene, meshes, clips, the Sims 2 body on its
# CRES skeleton with and without its ANIM; the corpus too when it is there)
# and on every glTF the tool tests wrote, which tests/tool-tests.sh leaves in
# $PLUMBOB_KEEP_EXPORTS (run-all.sh sets it for both stages).  A file passes
# when both pass it; one refuses and the other passes is a disagreement, and
# fails; the intentional test inputs named in tests/gltf-test-inputs are
# listed but not counted.  With PLUMBOB_KEEP_EXPORTS set, a folder with no
# glTF in it fails (the tool stage carried nothing).  The validator is
# installed into build/npm with npm when npm can reach its registry; exit 3
# when it is not available.
# Usage: tests/gltf-validator.sh BUILD_DIR [--probe]   (--probe: install only)
set -u
bin=${1:-build}/plumbob
corpus=${PLUMBOB_CORPUS:-../shared/corpus}
npmdir=build/npm
carried=()
if [ "${2:-}" != --probe ] && [ -n "${PLUMBOB_KEEP_EXPORTS:-}" ]; then
    [ -d "$PLUMBOB_KEEP_EXPORTS" ] &&
        while IFS= read -r f; do carried+=("$f"); done < <(find "$PLUMBOB_KEEP_EXPORTS" -type f \( -name '*.gltf' -o -name '*.glb' \) | sort)
    if [ ${#carried[@]} = 0 ]; then
        echo "FAIL no glTF carried from the tool tests in PLUMBOB_KEEP_EXPORTS=$PLUMBOB_KEEP_EXPORTS (run tests/tool-tests.sh with it set first)"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi
if ! command -v node >/dev/null 2>&1; then echo "gltf-validator: node is not installed"; exit 3; fi
if ! NODE_PATH=$npmdir/node_modules node -e "require('gltf-validator')" 2>/dev/null; then
    if command -v npm >/dev/null 2>&1; then
        timeout 180 npm install --prefix "$npmdir" --no-audit --no-fund --silent gltf-validator@2.0.0-dev.3.10 >/dev/null 2>&1
    fi
    if ! NODE_PATH=$npmdir/node_modules node -e "require('gltf-validator')" 2>/dev/null; then
        echo "gltf-validator: npm could not install gltf-validator into $npmdir"
        exit 3
    fi
fi
[ "${2:-}" = --probe ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" demo --out "$tmp/demo" >/dev/null || exit 1
"$bin" gmdc export "$tmp"/demo/*.gmdc --rig "$tmp/demo/rig.txt" -o "$tmp/cylinder.glb" >/dev/null || exit 1
"$bin" clip export "$tmp"/demo/*.clip -o "$tmp/clip.gltf" >/dev/null || exit 1
# the body-shaped mesh: sparse Target Indices, tangents, colours, morph normals
"$bin" gmdc export "$tmp/demo/body/AC4F8687_1C0532FA_00F0E1D2C3B4A599.gmdc" -o "$tmp/body.gltf" >/dev/null || exit 1
"$bin" clip export "$tmp"/demo/*.clip --rig "$tmp"/demo/*.rig -o "$tmp/clip-rig.glb" >/dev/null || exit 1
# the Sims 2 body package: mesh on its CRES skeleton, with and without its ANIM
skel="$tmp/demo/body.package"
"$bin" gmdc export "$skel@00F0E1D2C3B4A5A1" -o "$tmp/skel-body.glb" >/dev/null || exit 1
"$bin" anim export "$skel@00F0E1D2C3B4A5A2" --mesh "$skel@00F0E1D2C3B4A5A1" -o "$tmp/skel-body-anim.gltf" >/dev/null || exit 1
"$bin" anim export "$skel@00F0E1D2C3B4A5A2" -o "$tmp/skeleton-anim.glb" >/dev/null || exit 1
files=("$tmp/demo/demo.gltf" "$tmp/cylinder.glb" "$tmp/clip.gltf" "$tmp/body.gltf" "$tmp/clip-rig.glb" "$tmp/skel-body.glb" "$tmp/skel-body-anim.gltf" "$tmp/skeleton-anim.glb")
if [ -d "$corpus" ]; then
    "$bin" gmdc export "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126" -o "$tmp/teapot.glb" >/dev/null || exit 1
    "$bin" clip export "$corpus/sims3/PetFightingSkill.package@C06363A8DEA2048E" -o "$tmp/fight.glb" >/dev/null || exit 1
    "$bin" clip export "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164" \
        --rig "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889" -o "$tmp/feed-rig.glb" >/dev/null || exit 1
    files+=("$tmp/teapot.glb" "$tmp/fight.glb" "$tmp/feed-rig.glb")
    # a Sims 3 body mesh on auRig with a clip (geom export; tests/tool/geom.sh carries more)
    if [ -f "$corpus/sims3/afTopBlouseOffShoulder_lod1.simgeom" ]; then
        "$bin" geom export "$corpus/sims3/afTopBlouseOffShoulder_lod1.simgeom" --rig "$corpus/sims3/auRig.rig" \
            --clip "$corpus/sims3/EWBreastfeed.package@7B3E677B55DC6E2A" -o "$tmp/geom-top.glb" >/dev/null 2>&1 || exit 1
        files+=("$tmp/geom-top.glb")
    fi
fi
# and every glTF the tool tests wrote (run-all.sh keeps them there)
echo "${#files[@]} exports of this script, ${#carried[@]} files carried from the tool tests${PLUMBOB_KEEP_EXPORTS:+ ($PLUMBOB_KEEP_EXPORTS)}"
NODE_PATH=$npmdir/node_modules node tests/gltf-validate.js --plumbob "$bin" --inputs tests/gltf-test-inputs \
    "${files[@]}" ${carried[@]+"${carried[@]}"}
