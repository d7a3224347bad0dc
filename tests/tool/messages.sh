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
# the demo's human clip on its own rig (demo_spine: no sim rig name) binds: nothing said
expect msg-pair-demo-fits 0 '^0$' sh -c "\"$bin\" clip export \"$clip\" --rig \"$tmp/demo/8EAF13DE_00000000_00F0E1D2C3B4A599.rig\" -o \"$msg/d.glb\" 2>&1 | grep -c 'wrong rig'; true"
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
    # the binding's report (plumbob_clip_binding_report): the prop's 29 bones unbound; the dog's clip on auRig
    expect msg-bind-report-fits 0 '^  binding: 224 of 282 tracks bound, 112 of 141 animated bones; 29 hashes unbound: 0x080E523E, ' "$bin" clip sample "$humanclip" --rig "$s3/auRig.rig" --time 0
    expect msg-bind-report-pet 0 '"binding": \{"tracks": 324, "bound_tracks": 116, "bones": 162, "bound_bones": 58, "few_bones": true, "other_species": true, "other_age": false, "unbound": \[\{"hash": "0x02908372"' "$bin" clip sample "$petclip" --rig "$s3/auRig.rig" --time 0 --json
    expect msg-pair-fits 0 '^$' sh -c "\"$bin\" clip sample \"$humanclip\" --rig \"$s3/auRig.rig\" --time 0 2>&1 >/dev/null"
fi
if [ -d "$corpus/sims2" ]; then
    expect msg-anim-no-channel 1 "anim export: .*none of the animation's 3 channels drives a bone of .*: the wrong skeleton\? \(nothing written\)" "$bin" anim export "$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim" --cres "$corpus/sims2/teapot_model.package@45BCF2F5FF59CF52" -o "$msg/none.glb"
    expect msg-anim-no-channel-nothing 1 '' test -e "$msg/none.glb"
fi

# --- Smooth Jazz text: a byte-order mark is read past, curly quotes named ----------
jz="$tmp/demo/02D5DF13_00000000_ECE52D7E1B5E7C09.jazz"
"$bin" jazz decompile "$jz" -o "$msg/w.sj" >/dev/null
printf '\357\273\277' | cat - "$msg/w.sj" > "$msg/bom.sj"
expect msg-sj-bom 0 '^compiled .*bom.sj: 5 states' "$bin" jazz compile "$msg/bom.sj" -o "$msg/bom.jazz"
expect msg-sj-bom-same 0 '' cmp "$msg/bom.jazz" "$jz"
sed 's/"o_door_open_{side}"/\xe2\x80\x9co_door_open_{side}\xe2\x80\x9d/' "$msg/w.sj" > "$msg/curly.sj"
expect msg-sj-curly 1 'curly.sj:[0-9]+:[0-9]+: error: curly quote “ \(U\+201C\): use a straight " quote' "$bin" jazz compile "$msg/curly.sj" -o "$msg/curly.jazz"
# Smooth Jazz source handed to dump or run: said, with the command that reads it
expect msg-sj-dump 1 'w.sj: this is Smooth Jazz source \(text\); compile it with plumbob jazz compile' "$bin" jazz dump "$msg/w.sj"
expect msg-sj-run 1 'this is Smooth Jazz source \(text\); compile it with plumbob jazz compile' "$bin" jazz run "$msg/w.sj" --enter 0x8D31B469

# --- jazz run: limits stated right, usage errors exit 2, the play fields shown ------
expect msg-max-steps-range 2 "--max-steps '0' is not a number from 1 to 16777216" "$bin" jazz run "$jz" --max-steps 0 --enter 0x8D31B469
expect msg-max-actions-range 2 "--max-actions 'x' is not a number from 1 to 1000000" "$bin" jazz run "$jz" --max-actions x --enter 0x8D31B469
expect msg-actor-age 2 "'adult' is not an age/species code" "$bin" jazz run "$jz" --actor x=1:adult --enter 0x8D31B469
expect msg-actor-malformed 2 "should be NAME=VALUE" "$bin" jazz run "$jz" --actor x --enter 0x8D31B469
expect msg-actor-unknown 1 "--actor nobody=1: no such actor" "$bin" jazz run "$jz" --actor nobody=1 --enter 0x8D31B469
expect msg-run-play-fields 0 'play 00000000:7BC01BBCB8A4AC5A for 0x6FEDAE4D \(handle 0\) \(flags 0x1, priority 10000, blend in 0.2, blend out [0-9.]+\)' "$bin" jazz run "$jz" --enter 0x8D31B469 --request 0x6FB760FF

# --- option values: a fraction of a frame, a decimal comma, spaces ------------------
expect msg-frame-fraction 2 "--frame needs a whole frame number, got '1.5' \(use --time SECONDS for times between frames\)" "$bin" clip sample "$clip" --frame 1.5
expect msg-time-comma 2 "--time needs a number with a '.' decimal point, got '1,5'" "$bin" clip sample "$clip" --time 1,5
expect msg-time-spaces 0 'at 1.5000 s:' "$bin" clip sample "$clip" --time ' 1.5 '
expect msg-frame-spaces 0 'at 1.0000 s:' "$bin" clip sample "$clip" --frame '30 '

# --- a closed pipe: exit 1 quietly (a reader that left), not death by SIGPIPE (141) -
expect msg-closed-pipe 0 '^1 0$' bash -c "{ sleep 0.3; \"$bin\" clip dump \"$clip\" --json 2>\"$msg/pipe.err\"; } | true; echo \${PIPESTATUS[0]} \$(wc -c < \"$msg/pipe.err\")"

# --- extract: -o a/b/c made with its parents; a failure is said, not "0 of 0" -------
expect msg-extract-parents 0 'extracted 3 of 3 resources to .*/deep/a/b/c$' "$bin" extract "$tmp/demo/body.package" -o "$msg/deep/a/b/c"
expect msg-extract-parents-files 0 '^3$' sh -c "ls \"$msg/deep/a/b/c\" | wc -l"
: > "$msg/plainfile"
expect msg-extract-not-dir 1 'plainfile/x: cannot create the directory: Not a directory' "$bin" extract "$tmp/demo/body.package" -o "$msg/plainfile/x"
expect msg-extract-no-count 1 '^0$' sh -c "\"$bin\" extract \"$msg/none.package\" -o \"$msg/q\" 2>/dev/null | grep -c extracted"

# --- package edits say added or replaced, per resource ------------------------------
"$bin" extract "$tmp/demo/body.package" -o "$msg/ed" >/dev/null
cp "$tmp/demo/body.package" "$msg/ed.package"
edfile=$(ls "$msg"/ed/*.anim)
edkey=$(basename "$edfile" .anim | tr _ :)
expect msg-replace-says-key 0 "^replaced $edkey\$" "$bin" replace "$msg/ed.package" "$edfile"
"$bin" remove "$msg/ed.package" "$edkey" >/dev/null
expect msg-add-says-key 0 "^added $edkey\$" "$bin" add "$msg/ed.package" "$edfile"
# jazz compile --package: added, then replaced, keeping the entry's compression
mkdir -p "$msg/jzc"
"$bin" jazz compile "$msg/w.sj" -o "$msg/jzc/02D5DF13_00000000_B4FC2DA2705CC3F4.jazz" >/dev/null
jzc="$msg/jzc/02D5DF13_00000000_B4FC2DA2705CC3F4.jazz"
"$bin" pack -o "$msg/jz.package" "$jzc" >/dev/null
jzkey=02D5DF13:00000000:B4FC2DA2705CC3F4
expect msg-jazz-compile-replaced 0 "^replaced $jzkey in .*jz.package" "$bin" jazz compile "$msg/w.sj" --package "$msg/jz.package"
expect msg-jazz-compile-key-added 0 "^added 0166038C:.* \(KEY table\) in" "$bin" jazz compile "$msg/w.sj" --package "$msg/jz2.package"
expect msg-jazz-compile-keeps-compression 0 "02D5DF13 JAZZ .* refpack" "$bin" ls "$msg/jz.package"
"$bin" pack --store -o "$msg/jzs.package" "$jzc" >/dev/null
"$bin" jazz compile "$msg/w.sj" --package "$msg/jzs.package" >/dev/null
expect msg-jazz-compile-keeps-stored 0 "02D5DF13 JAZZ .* none" "$bin" ls "$msg/jzs.package"

# --- PKG@NAME takes the names ls shows: Sims 2 resources' own names too --------------
expect msg-name-sims2-anim 0 'Sims 2 ANIM' "$bin" info "$tmp/demo/body.package@a-demo-body-turn_anim"
expect msg-name-sims2-case 0 'Sims 2 CRES demo_skel_cres' "$bin" info "$tmp/demo/body.package@DEMO_SKEL_CRES"
expect msg-name-sims2-cmd 0 'skeleton' "$bin" cres dump "$tmp/demo/body.package@demo_skel_cres"
mkdir -p "$msg/two"
cres1=$(ls "$msg"/ed/E519C933_*.cres)
cp "$cres1" "$msg/two/E519C933_1C0532FA_0000000000000001.cres"
cp "$cres1" "$msg/two/E519C933_1C0532FA_0000000000000002.cres"
"$bin" pack --sims2 -o "$msg/two.package" "$msg"/two/*.cres >/dev/null
expect msg-name-ambiguous 1 "'demo_skel_cres' matches 2 resources; name one as TYPE:GROUP:INSTANCE" "$bin" info "$msg/two.package@demo_skel_cres"
expect msg-name-ambiguous-listed 1 'E519C933:1C0532FA:0000000000000002  CRES' "$bin" info "$msg/two.package@demo_skel_cres"
expect msg-name-none 1 "'nosuch' is not INSTANCE or TYPE:GROUP:INSTANCE in hex, nor a name .plumbob ls. shows" "$bin" info "$tmp/demo/body.package@nosuch"

# --- warnings name each thing once ("scale", not "scale, scale, scale") --------------
"$bin" clip export "$clip" --rig "$tmp/demo/rig.txt" -o "$msg/c.gltf" >/dev/null 2>&1
python3 - "$msg/c.gltf" "$msg/cs.gltf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["animations"][0]
ts = [c["sampler"] for c in a["channels"] if c["target"]["path"] == "translation"][0]
nodes = sorted({c["target"]["node"] for c in a["channels"] if "node" in c["target"]})
a["channels"] += [{"sampler": ts, "target": {"node": n, "path": "scale"}} for n in nodes]
json.dump(d, open(sys.argv[2], "w"))
PY
expect msg-warn-once 0 'warning: 2 channels not carried .*: scale$' "$bin" clip import "$msg/cs.gltf" -o "$msg/cs.clip"

# --- clip import: one summary line by default, a line per track with --verbose -------
expect msg-import-quiet 0 '^1$' sh -c "\"$bin\" clip import \"$msg/c.gltf\" -o \"$msg/cq.clip\" 2>/dev/null | wc -l | tr -d ' '"
expect msg-import-summary 0 '^wrote .*cq.clip \([0-9]+ bytes\): [0-9]+ tracks' "$bin" clip import "$msg/c.gltf" -o "$msg/cq.clip"
expect msg-import-verbose 0 'b__Spine0__ +rotation +[0-9]+ of +61 keys, worst' "$bin" clip import "$msg/c.gltf" -o "$msg/cq.clip" --verbose

# --- the documented exit codes hold: every command and subcommand `plumbob --help`
# and `plumbob CMD --help` list, given an unknown flag and given nothing, exits 2 with
# nothing on stdout and a usage line or a pointer to --help on stderr; each is in
# docs/TOOL.md.
usage_pat='usage: plumbob|see plumbob [a-z]+ [a-z ]*--help|\(plumbob [a-z]+ ([a-z]+ )?[A-Z]+|needs a value'
input_for() { # a file the command reads, so that the flag is what is wrong
    case "$1" in
    "clip import"|"gmdc import") echo "$msg/c.gltf" ;;
    "jazz compile") echo "$msg/w.sj" ;;
    clip*) echo "$clip" ;;
    rig*) echo "$tmp/demo/8EAF13DE_00000000_00F0E1D2C3B4A599.rig" ;;
    gmdc*) echo "$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" ;;
    anim*) echo "$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim" ;;
    cres*) echo "$tmp/demo/body.package@demo_skel_cres" ;;
    jazz*) echo "$jz" ;;
    info|check|ls|extract) echo "$tmp/demo/body.package" ;;
    pack) echo "-o $msg/walk.package $tmp/demo/$(basename "$jz")" ;;
    add|replace|remove) echo "$msg/ed.package" ;;
    *) echo "" ;;
    esac
}
walk_one() { # NAME, then the command line; checks exit 2, empty stdout, the usage line
    local name=$1 out err rc; shift
    out=$("$@" 2>"$msg/walk.err"); rc=$?
    err=$(cat "$msg/walk.err")
    if [ "$rc" = 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -qE -- "$usage_pat"; then
        pass=$((pass + 1)); echo "ok   $name"
    else
        fail=$((fail + 1)); echo "FAIL $name (exit $rc, wanted 2 with a usage line on stderr and nothing on stdout)"
        printf 'stdout: %s\nstderr: %s\n' "$out" "$err" | head -4
    fi
}
walked=0
for c in $("$bin" --help | awk '/^  [a-z]+ /{print $1}'); do
    subs=$("$bin" "$c" --help 2>&1 | grep -oE "^(usage:)? +plumbob $c [a-z]+" | awk '{print $NF}' | sort -u)
    for s in ${subs:-""}; do
        cmd="$c${s:+ $s}"
        # shellcheck disable=SC2046
        walk_one "msg-walk-badflag-${cmd// /-}" "$bin" $cmd $(input_for "$cmd") --frobnicate
        if [ "$cmd" = demo ]; then
            walk_one "msg-walk-missing-$cmd" "$bin" demo --out
        else
            walk_one "msg-walk-missing-${cmd// /-}" "$bin" $cmd
        fi
        expect "msg-walk-documented-${cmd// /-}" 0 '' grep -q -- "$cmd" docs/TOOL.md
        walked=$((walked + 1))
    done
    [ -n "$subs" ] && walk_one "msg-walk-badsub-$c" "$bin" "$c" frobnicate
done
expect msg-walk-count 0 '' test "$walked" -ge 28
# remove takes a Sims 2 resource's own name too
cp "$tmp/demo/body.package" "$msg/rm.package"
expect msg-remove-sims2-name 0 'removed 1 resource from .*rm.package \(2 left\)' "$bin" remove "$msg/rm.package" a-demo-body-turn_anim
