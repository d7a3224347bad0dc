# Batch work: clip export --all over packages and clip files, extract over
# several packages; a summary, every output checked, one failure not stopping
# the rest.  Sourced by tool-tests.sh.
mkdir -p "$tmp/bt"
"$bin" demo --write "$tmp/bt" >/dev/null
bt_clip=$(ls "$tmp"/bt/6B20C4F3_*.clip)
bt_two="$tmp/bt/two/6B20C4F3_00000000_0000000000000B07.clip"
mkdir -p "$tmp/bt/two"; cp "$bt_clip" "$bt_two"
"$bin" pack -o "$tmp/bt1.package" "$bt_clip" >/dev/null
"$bin" pack -o "$tmp/bt2.package" "$bt_clip" "$bt_two" >/dev/null
expect batch-export 0 '^exported 4 of 4 clips to .*/btx$' \
    "$bin" clip export --all "$tmp/bt1.package" "$tmp/bt2.package" "$bt_clip" -o "$tmp/btx"
expect batch-export-files 0 '^4$' bash -c 'ls "$0"/*.glb | wc -l' "$tmp/btx"
# the same clip in two packages: the second gets its instance appended, none replaced
inst=$(basename "$bt_clip" .clip); inst=${inst##*_}
expect batch-export-names 0 "^0000000000000B07.glb ${inst}.glb ${inst}_${inst}.glb 6B20C4F3_00000000_${inst}.glb$" \
    bash -c 'cd "$0" && echo $(ls -U | sort -f)' "$tmp/btx"
"$bin" clip export "$tmp/bt1.package@$inst" -o "$tmp/bt-one.glb" >/dev/null
expect batch-export-same-bytes 0 '' cmp "$tmp/bt-one.glb" "$tmp/btx/$inst.glb"
expect batch-export-checks 0 'valid glTF' "$bin" check "$tmp/btx/0000000000000B07.glb"
expect batch-export-gltf 0 'exported 1 of 1 clips' "$bin" clip export --all "$tmp/bt1.package" --gltf -o "$tmp/btg"
expect batch-export-gltf-file 0 '' test -s "$tmp/btg/$inst.gltf"
expect batch-several-without-all 2 '2 inputs: give --all' "$bin" clip export "$tmp/bt1.package" "$tmp/bt2.package" -o "$tmp/btn"
expect batch-all-to-a-file 2 '--all writes one file per clip: -o names a directory' \
    "$bin" clip export --all "$tmp/bt1.package" -o "$tmp/btn.glb"
expect batch-nothing-written 1 '' test -e "$tmp/btn"
# a package without clips is named; none at all is an error
"$bin" pack --sims2 -o "$tmp/bt-s2.package" "$tmp"/bt/AC4F8687_*.gmdc >/dev/null
expect batch-no-clips 1 'bt-s2.package: warning: has no clips' "$bin" clip export --all "$tmp/bt-s2.package" -o "$tmp/bt0"
expect batch-no-clips-error 1 'clip export: no clips in the file given' "$bin" clip export --all "$tmp/bt-s2.package" -o "$tmp/bt0"
# a broken clip among good ones: said, counted, the others written
head -c 100 "$bt_clip" > "$tmp/bt/broken.clip"
expect batch-one-broken 1 'broken.clip: not a valid CLIP: ' "$bin" clip export --all "$tmp/bt/broken.clip" "$tmp/bt2.package" -o "$tmp/btb"
expect batch-one-broken-summary 1 '^exported 2 of 3 clips to .*; 1 failed' \
    "$bin" clip export --all "$tmp/bt/broken.clip" "$tmp/bt2.package" -o "$tmp/btb"
expect batch-one-broken-others 0 '^2$' bash -c 'ls "$0" | wc -l' "$tmp/btb"
# extract over several packages: one folder each, resources byte-exact
expect extract-several 0 '^extracted 3 of 3 resources from the packages to .*/bte$' \
    "$bin" extract "$tmp/bt1.package" "$tmp/bt2.package" -o "$tmp/bte"
expect extract-several-bytes 0 '' cmp "$bt_two" "$tmp/bte/bt2/$(basename "$bt_two")"
expect extract-several-first 0 '' cmp "$bt_clip" "$tmp/bte/bt1/$(basename "$bt_clip")"
expect extract-several-one-unreadable 1 "text.bin: not a readable package" "$bin" extract "$tmp/text.bin" "$tmp/bt1.package" -o "$tmp/bte2"
expect extract-several-others-done 1 "^extracted 1 of 1 resources" "$bin" extract "$tmp/text.bin" "$tmp/bt1.package" -o "$tmp/bte2"
if [ -f "$corpus/sims3/EWBreastfeed.package" ]; then
    expect corpus-batch-export 0 '^exported 9 of 9 clips' "$bin" clip export --all "$corpus/sims3/EWBreastfeed.package" -o "$tmp/btc"
    expect corpus-batch-export-key-names 0 '' test -s "$tmp/btc/a2o_bassinet_feed_start_x.glb"
    expect corpus-batch-export-valid 0 'valid glTF' "$bin" check "$tmp/btc/a2o_bassinet_feed_loop_burp_x.glb"
fi
# gmdc export --all: each mesh of a Sims 2 package, named by its resource name, with its package's CRES
expect batch-gmdc 0 '^exported 2 of 2 meshes to' "$bin" gmdc export --all "$tmp/bt/body.package" "$tmp"/bt/AC4F8687_*.gmdc -o "$tmp/btm"
"$bin" gmdc export "$tmp/bt/body.package@AC4F8687:1C0532FA:00F0E1D2C3B4A5A1" -o "$tmp/btm-one.glb" >/dev/null
expect batch-gmdc-same-bytes 0 '' cmp "$tmp/btm-one.glb" "$tmp/btm/demo_skel_tslocator_gmdc.glb"
expect batch-gmdc-obj-refused 2 '--all writes one file per mesh' "$bin" gmdc export --all "$tmp/bt/body.package" -o "$tmp/btm.obj"
expect batch-gmdc-pose-refused 2 '--all exports glTF: --pose' "$bin" gmdc export --all "$tmp/bt/body.package" --pose x.json -o "$tmp/btm2"
if [ -f "$corpus/sims2/teapot_model.package" ]; then
    expect corpus-batch-gmdc 0 '^exported 1 of 1 meshes' "$bin" gmdc export --all "$corpus/sims2/teapot_model.package" -o "$tmp/btcm"
    expect corpus-batch-gmdc-valid 0 'valid glTF' "$bin" check "$tmp/btcm/teapot_tslocator_gmdc.glb"
fi
# anim export --all: each ANIM on its package's CRES; one without a skeleton is said and counted
expect batch-anim 0 '^exported 1 of 1 animations to' "$bin" anim export --all "$tmp/bt/body.package" -o "$tmp/bta"
"$bin" anim export "$tmp/bt/body.package@FB00791E:1C0532FA:00F0E1D2C3B4A5A2" -o "$tmp/bta-one.glb" >/dev/null
expect batch-anim-same-bytes 0 '' cmp "$tmp/bta-one.glb" "$tmp/bta/a-demo-body-turn_anim.glb"
expect batch-anim-no-skeleton 1 'needs the skeleton: give --cres' "$bin" anim export --all "$tmp"/bt/FB00791E_*.anim -o "$tmp/bta2"
