# tests/tool/messages.sh: what the tool says when the input is not what was
# meant (issue 44), sourced by tool-tests.sh with bin, tmp, clip, corpus, expect().
msg="$tmp/msg"
mkdir -p "$msg"

# --- common non-game files are named, not "truncated" ---------------------------
printf '\211PNG\r\n\032\n\000\000\000\015IHDR' > "$msg/image.package"
printf 'PK\003\004zipzipzip' > "$msg/archive.package"
printf '\037\213\010\000gz' > "$msg/gz.package"
printf 'glTF\002\000\000\000' > "$msg/model.package"
printf '{"asset": {"version": "2.0"}}' > "$msg/scene.package"
expect msg-png-ls 1 '^plumbob: ls: .*image.package: is a PNG image, not a package' "$bin" ls "$msg/image.package"
expect msg-png-info 1 '^plumbob: info: .*image.package: is a PNG image \(16 bytes\), not a package' "$bin" info "$msg/image.package"
expect msg-png-check 1 'is a PNG image \(16 bytes\), not a package' "$bin" check "$msg/image.package"
expect msg-png-key 1 'image.package: is a PNG image, not a package' "$bin" info "$msg/image.package@1234"
expect msg-zip-ls 1 'is a ZIP archive, not a package' "$bin" ls "$msg/archive.package"
expect msg-gzip-ls 1 'is a gzip-compressed file, not a package' "$bin" ls "$msg/gz.package"
expect msg-glb-ls 1 'is a binary glTF \(GLB\), not a package' "$bin" ls "$msg/model.package"
expect msg-gltf-json-ls 1 'is a glTF \(JSON text\), not a package' "$bin" ls "$msg/scene.package"

# --- a --rig list that is not text is refused, not read as bone names ----------
head -c 64 /dev/zero > "$msg/zeros.txt"
expect msg-rig-binary 1 '--rig wants .*this is binary data, not text \(byte 0x00 at offset 0\)' "$bin" clip export "$clip" --rig "$msg/zeros.txt" -o "$msg/z.glb"
expect msg-rig-png 1 '--rig wants .*this is a PNG image' "$bin" clip export "$clip" --rig "$msg/image.package" -o "$msg/z.glb"
expect msg-rig-binary-nothing 1 '' test -e "$msg/z.glb"

# --- a wrong pairing is said (warnings on stderr), or refused when nothing binds ---
if [ -d "$corpus/sims3" ]; then
    s3="$corpus/sims3"
    petclip="$s3/PetFightingSkill.package@C06363A8DEA2048E"
    humanclip="$s3/EWBreastfeed.package@7B3E677B55DC6E2A"
    vine="$s3/EWWheatAndFlour.package@023ECBDB12A4B889"
    expect msg-pair-pet-on-human 0 "warning: al2a_soc_neutral_attackSim_insulting_neutral_x is a small dog's clip \(prefix al2a_\) and auRig is an adult human rig" "$bin" clip export "$petclip" --rig "$s3/auRig.rig" -o "$msg/pet.glb"
    expect msg-pair-pet-bones 0 'warning: only 58 of the clip.s 162 animated bones are bones of the rig auRig' "$bin" clip export "$petclip" --rig "$s3/auRig.rig" -o "$msg/pet.glb"
    expect msg-pair-stderr 0 '^0$' sh -c "\"$bin\" clip export \"$petclip\" --rig \"$s3/auRig.rig\" -o \"$msg/pet.glb\" 2>/dev/null | grep -c 'wrong rig'; true"
    expect msg-pair-human-on-object 0 "a2o_bassinet_feed_stop_x is a human clip \(prefix a2o_\) and plantSmallVine is an object.s rig" "$bin" clip export "$humanclip" --rig "$vine" -o "$msg/h.glb"
    expect msg-pair-sample 0 'clip sample: .*warning: only 1 of the clip.s 141 animated bones are bones of the rig plantSmallVine' "$bin" clip sample "$humanclip" --rig "$vine" --time 0
    expect msg-pair-fits 0 '^$' sh -c "\"$bin\" clip sample \"$humanclip\" --rig \"$s3/auRig.rig\" --time 0 2>&1 >/dev/null"
fi
if [ -d "$corpus/sims2" ]; then
    expect msg-anim-no-channel 1 "anim export: .*none of the animation's 3 channels drives a bone of .*: the wrong skeleton\? \(nothing written\)" "$bin" anim export "$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim" --cres "$corpus/sims2/teapot_model.package@45BCF2F5FF59CF52" -o "$msg/none.glb"
    expect msg-anim-no-channel-nothing 1 '' test -e "$msg/none.glb"
fi
