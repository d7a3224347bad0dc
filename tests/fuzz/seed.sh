#!/usr/bin/env bash
# Seeds the libFuzzer corpora under build/fuzz/ before a run: inputs made by
# plumbob's own writers always, plus real files from ../shared/corpus when it
# is there (copied into build/, which is never committed).
set -u
cd "$(dirname "$0")/../.."
bin=build/plumbob
[ -x "$bin" ] || make -s all >/dev/null
out=build/fuzz
mkdir -p "$out/corpus-fuzz_clip" "$out/corpus-fuzz_package" "$out/corpus-fuzz_refpack" "$out/corpus-fuzz_reader" "$out/corpus-fuzz_gmdc" "$out/corpus-fuzz_anim" "$out/corpus-fuzz_jazz" "$out/corpus-fuzz_smooth_jazz" "$out/corpus-fuzz_gltf_check" "$out/corpus-fuzz_gltf_import" "$out/corpus-fuzz_rig" "$out/corpus-fuzz_cres" "$out/corpus-fuzz_tool_text"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" demo --write "$tmp/demo" >/dev/null
cp "$tmp"/demo/*.clip "$out/corpus-fuzz_clip/" 2>/dev/null
cp "$tmp"/demo/*.anim "$out/corpus-fuzz_anim/" 2>/dev/null
# GMDC: the skinned cylinder and the body-shaped mesh with sparse elements
cp "$tmp"/demo/*.gmdc "$tmp"/demo/body/*.gmdc "$out/corpus-fuzz_gmdc/" 2>/dev/null
cp "$tmp"/demo/*.jazz "$out/corpus-fuzz_jazz/" 2>/dev/null
cp "$tmp"/demo/*.rig "$out/corpus-fuzz_rig/" 2>/dev/null
"$bin" extract "$tmp/demo/body.package" --type E519C933 -o "$tmp/body" >/dev/null
cp "$tmp"/body/*.cres "$out/corpus-fuzz_cres/" 2>/dev/null
cp tests/smooth-jazz/*.jazz "$out/corpus-fuzz_smooth_jazz/"
# rig lists (first byte odd) and poses (first byte: joint count * 2)
printf '\001root\nspine root\nhead spine # the head\n' >"$out/corpus-fuzz_tool_text/rig.txt"
printf '\004{"joints": [{"rotation": [0,0,0,1], "translation": [1,2,3]}, {"rotation": [0.5,0.5,0.5,0.5], "translation": [0,-1e3,2.5]}]}' >"$out/corpus-fuzz_tool_text/pose.json"
# glTF: the demo's .gltf, and a small .glb of the clip alone
cp "$tmp"/demo/demo.gltf "$out/corpus-fuzz_gltf_check/" 2>/dev/null
"$bin" clip export "$tmp"/demo/*.clip -o "$out/corpus-fuzz_gltf_check/clip.glb" >/dev/null
cp "$out/corpus-fuzz_gltf_check/clip.glb" "$out/corpus-fuzz_gltf_import/"
"$bin" clip export "$tmp"/demo/*.clip -o "$out/corpus-fuzz_gltf_import/clip.gltf" >/dev/null 2>&1
"$bin" gmdc export "$tmp"/demo/*.gmdc -o "$out/corpus-fuzz_gltf_import/mesh.glb" >/dev/null 2>&1
"$bin" pack -o "$out/corpus-fuzz_package/demo2.package" "$tmp"/demo/*.clip >/dev/null
"$bin" pack --sims2 --force -o "$out/corpus-fuzz_package/demo1.package" "$tmp"/demo/*.clip >/dev/null

corpus=${PLUMBOB_CORPUS:-../shared/corpus}
if [ -d "$corpus" ]; then
    for p in "$corpus"/sims3/*.package "$corpus"/sims2/*.package; do
        [ "$(stat -c %s "$p")" -lt 400000 ] && cp "$p" "$out/corpus-fuzz_package/"
    done
    "$bin" extract "$corpus/sims3/EWBreastfeed.package" --type 6B20C4F3 -o "$tmp/clips" >/dev/null
    # the two smallest clips keep runs fast
    ls -S "$tmp"/clips/*.clip | tail -2 | xargs -I{} cp {} "$out/corpus-fuzz_clip/"
    "$bin" extract "$corpus/sims2/teapot_model.package" --type AC4F8687 -o "$tmp/gmdc" >/dev/null
    cp "$tmp"/gmdc/*.gmdc "$out/corpus-fuzz_gmdc/" 2>/dev/null
    "$bin" extract "$corpus/sims2/teapot_model.package" --type E519C933 -o "$tmp/cres" >/dev/null
    cp "$tmp"/cres/*.cres "$out/corpus-fuzz_cres/" 2>/dev/null
    "$bin" extract "$corpus/sims2/animation.package" --type FB00791E -o "$tmp/anim" >/dev/null
    cp "$tmp"/anim/*.anim "$out/corpus-fuzz_anim/" 2>/dev/null
    for p in EWBreastfeed WarriorCats; do
        "$bin" extract "$corpus/sims3/$p.package" --type 02D5DF13 -o "$tmp/jazz" >/dev/null
    done
    cp "$tmp"/jazz/*.jazz "$out/corpus-fuzz_jazz/" 2>/dev/null
    mkdir -p "$out/corpus-fuzz_geom"
    cp "$corpus"/sims3/*.simgeom "$out/corpus-fuzz_geom/" 2>/dev/null
    mkdir -p "$out/corpus-fuzz_geom_skin"
    cp "$corpus"/sims3/*.simgeom "$out/corpus-fuzz_geom_skin/" 2>/dev/null
    "$bin" extract "$corpus/sims3/EWWheatAndFlour.package" --type 8EAF13DE -o "$tmp/rig" >/dev/null
    cp "$tmp"/rig/* "$out/corpus-fuzz_rig/" 2>/dev/null
    for f in "$tmp"/jazz/*.jazz; do
        "$bin" jazz decompile "$f" -o "$out/corpus-fuzz_smooth_jazz/$(basename "$f" .jazz).sj" 2>/dev/null
    done
fi
# skinning: the demo's skinned, morphing meshes (small, so each run is fast)
mkdir -p "$out/corpus-fuzz_skin"
find "$tmp/demo" -name '*.gmdc' -exec cp {} "$out/corpus-fuzz_skin/" \; 2>/dev/null
find "$tmp/demo" -name '*.gmdc' -exec cp {} "$out/corpus-fuzz_gmdc/" \; 2>/dev/null
# ANIM playback: the same ANIMs (the demo's, the body's and the real ones)
mkdir -p "$out/corpus-fuzz_anim_pose"
"$bin" extract "$tmp/demo/body.package" --type FB00791E -o "$tmp/body-anim" >/dev/null
cp "$out"/corpus-fuzz_anim/*.anim "$tmp"/body-anim/*.anim "$out/corpus-fuzz_anim_pose/" 2>/dev/null
# track masks (no real one exists in the corpus): both versions, written
# here and kept only when `check` writes them back through the core's
# writer byte for byte; one also packed, for the package target
mkdir -p "$out/corpus-fuzz_track_mask"
{
    printf 'TkMk\001\002\000\000'; head -c 16 /dev/zero; printf '\000\000\100\077'; head -c 28 /dev/zero
    printf '\003\000\000\000\000\000\200\077\000\000\000\000\000\000\000\077'
} >"$tmp/033260E3_00000000_0000000000000001.tkmk"
{ printf 'TkMk\000\002\000\000'; head -c 48 /dev/zero; printf '\001\000\000\000\000\000\200\077'; } >"$tmp/v200.tkmk"
for f in "$tmp/033260E3_00000000_0000000000000001.tkmk" "$tmp/v200.tkmk"; do
    "$bin" check "$f" >/dev/null 2>&1 && cp "$f" "$out/corpus-fuzz_track_mask/"
done
"$bin" pack -o "$out/corpus-fuzz_package/mask.package" "$tmp/033260E3_00000000_0000000000000001.tkmk" >/dev/null
# pose jobs (fuzz_blend: bytes 0..4 choose bones, layers, hostile values,
# threshold and additive weight; 5..7 the masks; the rest seeds the values):
# 2 and 4 masked layers over 60 and 160 bones, one layer, hostile values,
# no bones, a refused threshold
mkdir -p "$out/corpus-fuzz_blend"
printf '\074\002\000\001\100\377\377\377seed' >"$out/corpus-fuzz_blend/two-masked"
printf '\240\004\000\005\140\012\005\003four-layers' >"$out/corpus-fuzz_blend/four-layers"
printf '\021\001\000\012\100\000\000\000one' >"$out/corpus-fuzz_blend/one-layer"
printf '\050\003\001\003\200\377\000\252hostile' >"$out/corpus-fuzz_blend/hostile"
printf '\000\002\000\004\100\000\000\000none' >"$out/corpus-fuzz_blend/no-bones"
printf '\020\002\000\000\100\001\001\001refused' >"$out/corpus-fuzz_blend/threshold-0"
echo "fuzz seeds: $(ls "$out/corpus-fuzz_clip" | wc -l) clips, $(ls "$out/corpus-fuzz_package" | wc -l) packages"
