# tests/tool/args.sh: the tool's arguments and error lines (issue 30), sourced by
# tool-tests.sh with bin, tmp, clip, corpus, expect() and the demo files.
anim1="$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim"
gmdc1="$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc"

# one error style: plumbob: COMMAND: FILE: what; the command as typed
expect args-prefix-file 1 '^plumbob: info: /nonexistent/x: cannot open' "$bin" info /nonexistent/x
expect args-prefix-sub 1 '^plumbob: clip dump: /nonexistent/x: cannot open' "$bin" clip dump /nonexistent/x
expect args-prefix-no-file 2 '^plumbob: clip sample: --time SECONDS or --frame N is required$' "$bin" clip sample "$clip"
expect args-prefix-ls 2 "^plumbob: ls: unexpected argument '--frob' \(see plumbob ls --help\)$" "$bin" ls "$clip" --frob
expect args-prefix-unknown-command 2 "^plumbob: unknown command 'frobnicate'" "$bin" frobnicate
expect args-prefix-no-doubled 2 '^plumbob: gmdc skin: --morph needs NAME=WEIGHT' "$bin" gmdc skin "$gmdc1" --morph bulge
expect args-stderr-only 0 '^$' sh -c "\"$bin\" clip export \"$clip\" -o x.fbx 2>/dev/null; \"$bin\" ls /nonexistent 2>/dev/null; true"
expect args-info-unknown-stderr 1 '^$' sh -c "\"$bin\" info \"$tmp/text.bin\" 2>/dev/null"
expect args-info-unknown-message 1 '^plumbob: info: .*text.bin: unknown format \(5 bytes\)' "$bin" info "$tmp/text.bin"

# a missing option value is named, for every command family
expect args-missing-o 2 '^plumbob: clip export: -o needs a value$' "$bin" clip export "$clip" -o
expect args-missing-time 2 '^plumbob: anim sample: --time needs a value$' "$bin" anim sample "$anim1" --time
expect args-missing-seed 2 '^plumbob: jazz run: --seed needs a value$' "$bin" jazz run "$tmp/demo/02D5DF13_00000000_ECE52D7E1B5E7C09.jazz" --seed
expect args-missing-type 2 '^plumbob: extract: --type needs a value$' "$bin" extract "$tmp/demo/body.package" --type
expect args-missing-pack-o 2 '^plumbob: pack: -o needs a value$' "$bin" pack -o
expect args-missing-demo-out 2 '^plumbob: demo: --out needs a value$' "$bin" demo --out
expect args-demo-junk 2 "^plumbob: demo: unexpected argument 'x'" "$bin" demo x

# times: seconds everywhere, --frame N, outside the animation refused (exit 2)
expect args-clip-time-past 2 'clip sample: --time 100 is outside the animation: it lasts 2.0333 s \(--time 0 to 2.0333\)' "$bin" clip sample "$clip" --time 100
expect args-clip-time-negative 2 '--time -1 is outside the animation: it lasts 2.0333 s' "$bin" clip sample "$clip" --time -1
expect args-clip-time-nan 2 "--time needs a number, got 'nan'" "$bin" clip sample "$clip" --time nan
expect args-clip-time-inf 2 "--time inf is out of range" "$bin" clip sample "$clip" --time inf
expect args-clip-time-end 0 'at 2.0333 s:' "$bin" clip sample "$clip" --time 2.0333333
expect args-clip-frame 0 'at 1.0000 s:' "$bin" clip sample "$clip" --frame 30
expect args-clip-frame-same 0 '^$' bash -c "diff <(\"$bin\" clip sample \"$clip\" --frame 30 --json) <(\"$bin\" clip sample \"$clip\" --time 1 --json)"
expect args-clip-frame-fraction 2 "--frame needs a whole frame number, got '3.5' \(use --time SECONDS for times between frames\)" "$bin" clip sample "$clip" --frame 3.5
expect args-clip-frame-past 2 '--frame 62 is not a frame of the animation' "$bin" clip sample "$clip" --frame 62
expect args-clip-time-and-frame 2 'give --time SECONDS or --frame N, not both' "$bin" clip sample "$clip" --time 1 --frame 3
expect args-anim-seconds 0 '"time": 0.25, "time_ms": 250' "$bin" anim sample "$anim1" --time 0.25 --json
expect args-anim-frame-ms 0 '"time": 0.25, "time_ms": 250' "$bin" anim sample "$anim1" --frame 250 --json
expect args-anim-ms-refused 2 'anim sample: --time 250 is outside the animation: it lasts 1.0010 s' "$bin" anim sample "$anim1" --time 250
expect args-anim-frame-past 2 '--frame 1002 is not a frame of the animation: frames 0 to 1001 \(0.0010 s each\)' "$bin" anim sample "$anim1" --frame 1002

# numeric options: junk, NaN and infinities named by option
expect args-morph-nan 2 "--morph weight needs a number, got 'nan'" "$bin" gmdc skin "$gmdc1" --morph bulge=nan --json
expect args-morph-inf 2 "--morph weight inf is out of range" "$bin" gmdc skin "$gmdc1" --morph bulge=inf --json

# outputs a command cannot write: refused up front (exit 2), nothing written
expect args-gmdc-fbx 2 'gmdc export: .*x.fbx: gmdc export writes .obj, .gltf or .glb' "$bin" gmdc export "$gmdc1" -o "$tmp/x.fbx"
expect args-clip-fbx 2 'clip export: .*x.fbx: clip export writes .gltf or .glb' "$bin" clip export "$clip" -o "$tmp/x.fbx"
expect args-anim-fbx 2 'anim export: .*x.fbx: anim export writes .gltf or .glb' "$bin" anim export "$anim1" -o "$tmp/x.fbx"
expect args-fbx-not-written 1 '' test -e "$tmp/x.fbx"

# a pose that is not JSON says so
printf 'rotation 0 0 0 1\n' > "$tmp/pose.txt"
expect args-pose-not-json 1 'pose.txt: not a pose: not JSON \(byte 0' "$bin" gmdc skin "$gmdc1" --pose "$tmp/pose.txt" --json

# --track / --channel: every name must pick something, and the message is filled in
expect args-plot-track-typo 1 '--track b__Nope__ matches none of the 4 tracks \(give a hash such as 0x6FA96266' "$bin" clip plot "$clip" --track b__Spine0__ --track b__Nope__ -o "$tmp/args.svg"
# refused (exit 1) with its message, and no printf directive left in it
expect args-plot-no-format 0 '^refused, no %$' bash -c 'out=$("$0" clip plot "$1" --track b__Nope__ -o "$2" 2>&1); [ $? = 1 ] || exit 1
    printf "%s\n" "$out" | grep -q -- "--track b__Nope__ matches none of the 4 tracks" || exit 1
    printf "%s\n" "$out" | grep -q "%" && exit 1; echo "refused, no %"' "$bin" "$clip" "$tmp/args.svg"
expect args-plot-not-written 1 '' test -e "$tmp/args.svg"

# the wrong kind of file is named, with the command that fits
expect args-kind-jazz-on-clip 1 'jazz dump: .*\.clip: is a Sims 3 CLIP, not a jazz state machine; try plumbob clip dump$' "$bin" jazz dump "$clip"
expect args-kind-same-sub 1 'is a Sims 2 ANIM, not a Sims 3 CLIP; try plumbob anim sample$' "$bin" clip sample "$anim1" --time 0
expect args-kind-gmdc-on-clip 1 'is a Sims 3 CLIP, not a Sims 2 GMDC mesh; try plumbob clip export$' "$bin" gmdc export "$clip" -o "$tmp/args.obj"
expect args-kind-option 1 '--anim wants a Sims 2 ANIM; this is a Sims 3 CLIP' "$bin" gmdc skin "$gmdc1" --anim "$clip" --json
expect args-kind-resource 1 'body.package@E519C933:1C0532FA:00F0E1D2C3B4A5A0: is a Sims 2 CRES, not a Sims 3 CLIP; try plumbob cres dump' "$bin" clip dump "$tmp/demo/body.package@00F0E1D2C3B4A5A0"
expect args-kind-package-none 1 'body.package: is a DBPF package with no Sims 3 CLIP in it \(plumbob ls lists what it holds\)' "$bin" clip dump "$tmp/demo/body.package"
# a whole package with exactly one resource of the kind stands for it
expect args-kind-package-one 0 'body.package@AC4F8687:1C0532FA:00F0E1D2C3B4A5A1: Sims 2 GMDC' "$bin" gmdc dump "$tmp/demo/body.package"
expect args-kind-package-one-anim 0 '"time": 0.5, "time_ms": 500' "$bin" anim sample "$tmp/demo/body.package" --time 0.5 --json
# several: listed as PACKAGE@INSTANCE, exit 1
mkdir -p "$tmp/args2"
cp "$clip" "$tmp/args2/6B20C4F3_00000000_0000000000000001.clip"
cp "$clip" "$tmp/args2/6B20C4F3_00000000_0000000000000002.clip"
"$bin" pack --store -o "$tmp/args2.package" "$tmp"/args2/*.clip >/dev/null 2>&1
expect args-kind-package-several 1 'args2.package: is a DBPF package holding 2 resources of kind Sims 3 CLIP; name one as PACKAGE@INSTANCE:' "$bin" clip dump "$tmp/args2.package"
expect args-kind-package-listed 1 '^    .*args2.package@0000000000000002  ' "$bin" clip dump "$tmp/args2.package"
if [ -d "$corpus" ]; then
    expect args-kind-corpus-several 1 'EWBreastfeed.package@3D40CC19DAAFD164  a2o_bassinet_feed_loop_burp_x' "$bin" clip dump "$corpus/sims3/EWBreastfeed.package"
    expect args-kind-corpus-one 0 'EWBreastfeed.package@02D5DF13:00000000:F2524F99CE17CA3E: Sims 3 jazz state machine' "$bin" jazz dump "$corpus/sims3/EWBreastfeed.package"
    expect args-kind-corpus-gmdc-package 1 'animation.package: is a DBPF package with no Sims 2 GMDC mesh in it' "$bin" gmdc dump "$corpus/sims2/animation.package"
    expect args-kind-corpus-key 1 "@0166038C:00000000:0000000000000000: is a KEY \\(type 0x0166038C\\) resource, not a Sims 3 CLIP" "$bin" clip dump "$corpus/sims3/EWBreastfeed.package@0166038C:00000000:0000000000000000"
fi

# ls/extract on a file that is not a package: what it is
expect args-ls-clip 1 'ls: .*\.clip: is a Sims 3 CLIP, not a package' "$bin" ls "$clip"
expect args-extract-anim 1 'extract: .*\.anim: is a Sims 2 ANIM, not a package' "$bin" extract "$anim1" -o "$tmp/args-x"
# exit 1 for a value the input does not have, 2 for a malformed one
expect args-morph-missing 1 "no morph pair #9 \(the mesh has 3\)" "$bin" gmdc skin "$gmdc1" --morph '#9=1' --json
expect args-morph-malformed 2 "--morph needs NAME=WEIGHT, got 'fat'" "$bin" gmdc skin "$gmdc1" --morph fat --json
# an option's file that is a whole package with one resource of the kind: that one
expect args-rig-package-one 0 'b__Spine0__ +tracked +model \( *0.000000 +1.250000 +0.000000\)' "$bin" clip sample "$clip" --time 1 --rig "$tmp/rig.package"
# errors and warnings on stderr only: stdout keeps what was asked for
expect args-info-broken-package-stderr 1 '^$' sh -c "\"$bin\" info \"$tmp/pkg.package\" 2>/dev/null"
expect args-info-broken-package 1 '^plumbob: info: .*pkg.package: DBPF package that does not open: truncated' "$bin" info "$tmp/pkg.package"
printf 'root\n' > "$tmp/args-rig1.txt"
expect args-warning-stderr 0 "^plumbob: gmdc export: .*args-rig1.txt: warning: names 1 of the mesh's 3 joints; the rest are joint_N$" sh -c "\"$bin\" gmdc export \"$gmdc1\" --rig \"$tmp/args-rig1.txt\" -o \"$tmp/args-rig1.glb\" 2>&1 >/dev/null"
expect args-extract-group-sign 2 "--group needs a hex number, got '-1' \(at most 8 hex digits\)" "$bin" extract "$tmp/demo/body.package" --group -1 -o "$tmp/args-x"
expect args-extract-type-wide 2 "--type needs a hex number or a type name .*, got '123456789' \(at most 8 hex digits\)" "$bin" extract "$tmp/demo/body.package" --type 123456789 -o "$tmp/args-x"
expect args-extract-not-made 1 '' test -e "$tmp/args-x"
# a binary file given where a text rig list is read: named, said once
expect args-rig-list-clip 1 "clip export: .*\.clip: --rig wants a Sims 3 rig, a GMDC mesh or a \`NAME \[PARENT\]\` list; this is a Sims 3 CLIP$" "$bin" clip export "$clip" --rig "$clip" -o "$tmp/args-r.glb"
expect args-rig-list-once 0 '^1$' sh -c "\"$bin\" clip export \"$clip\" --rig \"$clip\" -o \"$tmp/args-r.glb\" 2>&1 | grep -c 'rig wants'"
expect args-rig-list-package 1 'this is a DBPF package \(name a resource inside it: PACKAGE@INSTANCE' "$bin" clip export "$clip" --rig "$tmp/demo/body.package" -o "$tmp/args-r.glb"
expect args-gmdc-rig-list-clip 1 "gmdc export: .*\.clip: --rig wants a \`NAME \[PARENT\]\` list; this is a Sims 3 CLIP$" "$bin" gmdc export "$gmdc1" --rig "$clip" -o "$tmp/args-r.glb"
expect args-rig-list-not-written 1 '' test -e "$tmp/args-r.glb"
expect args-compile-binary 1 "jazz compile: .*\.clip: is a Sims 3 CLIP, not Smooth Jazz text" "$bin" jazz compile "$clip" -o "$tmp/args-c.jazz"
