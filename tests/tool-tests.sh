#!/usr/bin/env bash
# Runs the plumbob tool's subcommands and checks what they print and return.
# Usage: tests/tool-tests.sh BUILD_DIR   (prints `N passed, N failed`)
set -u
bin="${1:-build}/plumbob"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

expect() { # name, wanted exit status, grep pattern for stdout+stderr, command...
    local name=$1 want=$2 pat=$3; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    # an empty pattern checks the exit status only (grep finds nothing in empty output)
    if [ "$rc" = "$want" ] && { [ -z "$pat" ] || printf '%s\n' "$out" | grep -qE -- "$pat"; }; then
        pass=$((pass + 1)); echo "ok   $name"
    else
        fail=$((fail + 1)); echo "FAIL $name (exit $rc, wanted $want; output below)"; printf '%s\n' "$out" | head -5
    fi
}

printf 'hello' > "$tmp/text.bin"
printf 'DBPF\002\000\000\000' > "$tmp/pkg.package"
expect help 0 'usage: plumbob COMMAND' "$bin" --help
expect no-args 2 'usage: plumbob COMMAND' "$bin"
expect unknown-command 2 "unknown command 'frobnicate'" "$bin" frobnicate
expect version 0 '^plumbob [0-9]+\.[0-9]+\.[0-9]+$' "$bin" --version
expect info-help 0 'usage: plumbob info FILE' "$bin" info --help
for c in info check ls extract clip rig gmdc anim cres jazz pack add replace remove demo; do  # every command: usage with an example
    expect "help-$c" 0 'example' "$bin" "$c" --help
done
expect info-missing-file 1 'plumbob: info: /nonexistent/x: cannot open' "$bin" info /nonexistent/x
expect info-unknown 1 'unknown format \(5 bytes\)' "$bin" info "$tmp/text.bin"
expect info-dbpf-truncated 1 'DBPF package that does not open: truncated' "$bin" info "$tmp/pkg.package"
expect check-help 0 'usage: plumbob check FILE' "$bin" check --help
expect check-unknown 1 'unknown format \(5 bytes\): not a package nor any resource plumbob reads' "$bin" check "$tmp/text.bin"
expect demo 0 'instance 0x96C0858840EA78E5' "$bin" demo --out "$tmp/demo0"
expect demo-skins 0 't=2.03s  spine bend  0.0%  bulge 1.00  top ring centre \( 0.000,  0.000,  2.500\)  middle ring width 1.400' "$bin" demo --out "$tmp/demo0"
expect demo-gltf 0 'wrote .*demo0/demo.gltf \([0-9]+ bytes\): 4 nodes, 1 primitives with 108 vertices and 2 morph targets, 3 joints, 4 animation channels' "$bin" demo --out "$tmp/demo0"
expect demo-gltf-checks 0 'ok: valid glTF 2.0 \(JSON, [0-9]+ bytes\): 4 nodes, 1 meshes \(1 primitives, 108 vertices, 2 morph targets\), 1 skins \(3 joints\), 1 animations \(4 channels\)' "$bin" check "$tmp/demo0/demo.gltf"
expect demo-svg-xml 0 '^ok .*curves.svg: [0-9]+ elements' "${1:-build}/xml-check" "$tmp/demo0/curves.svg"
expect demo-help 0 'usage: plumbob demo \[--out DIR\]' "$bin" demo --help

# --- packages, built with plumbob's own writer --------------------------------
mkdir -p "$tmp/res"
# starts with the CLIP type id so `info` recognises it: 4 + 33 = 37 bytes
printf '\363\304\040\153 hello clip hello clip hello clip' > "$tmp/res/6B20C4F3_48000000_BC78ECD3046CB427.clip"
printf 'jazz!' > "$tmp/res/02D5DF13_00000000_91B95750336A8701.jazz"
printf 'misnamed' > "$tmp/res/notatgi.bin"
expect pack-help 0 'usage: plumbob pack' "$bin" pack --help
expect pack 0 'packed 2 resources' "$bin" pack -o "$tmp/a.package" "$tmp"/res/*.clip "$tmp"/res/*.jazz
expect pack-sims2 0 'packed 2 resources .* \(DBPF 1.1' "$bin" pack --sims2 --force -o "$tmp/b.package" "$tmp"/res/*.clip "$tmp"/res/*.jazz
expect pack-bad-name 2 'notatgi.bin: name is not TYPE_GROUP_INSTANCE' "$bin" pack -o "$tmp/c.package" "$tmp/res/notatgi.bin"
expect ls 0 '6B20C4F3 CLIP  48000000 BC78ECD3046CB427 +[0-9]+ +37 refpack' "$bin" ls "$tmp/a.package"
expect ls-sims2 0 '02D5DF13 JAZZ  00000000 91B95750336A8701 +[0-9]+ +5 refpack' "$bin" ls "$tmp/b.package"
expect ls-sims2-directory 0 'E86B1EEF DIR   E86B1EEF 00000000286B1F03 +40 +40 none' "$bin" ls "$tmp/b.package"
expect ls-json 0 '"type": "0x6B20C4F3", "type_name": "CLIP", "group": "0x48000000", "instance": "0xBC78ECD3046CB427"' "$bin" ls "$tmp/a.package" --json
expect ls-json-parses 0 '^ok 2$' sh -c "\"$bin\" ls \"$tmp/a.package\" --json | \"${1:-build}/json-check\" - '#' '*.type' '*.group' '*.instance' '*.size' '*.memsize' '*.compressed' '*.name'"
expect ls-missing 1 'cannot open' "$bin" ls "$tmp/none.package"
expect ls-not-package 1 'not a readable package: truncated' "$bin" ls "$tmp/text.bin"
head -c 200 /dev/zero > "$tmp/zeros.bin"
expect ls-bad-magic 1 'not a readable package: bad_magic' "$bin" ls "$tmp/zeros.bin"
expect info-package 0 'DBPF 2.0 package \(The Sims 3\)' "$bin" info "$tmp/a.package"
expect info-package-counts 0 '2 resources, 2 compressed, 42 bytes decompressed' "$bin" info "$tmp/a.package"
# found in the package and handed to the CLIP decoder, which rejects these 37 fake bytes
expect info-resource 1 '@6B20C4F3:48000000:BC78ECD3046CB427: not a valid CLIP: truncated' "$bin" info "$tmp/a.package@BC78ECD3046CB427"
# found by TYPE:GROUP:INSTANCE in a DBPF 1.1 package, decompressed, and decoded as
# the index's type says (its 5 bytes are no real jazz)
expect info-resource-tgi 1 '@02D5DF13:00000000:91B95750336A8701: not a valid Sims 3 jazz resource: truncated' "$bin" info "$tmp/b.package@02D5DF13:0:0x91B95750336A8701"
expect info-resource-missing 1 'no resource 1234 in this package' "$bin" info "$tmp/a.package@1234"
expect info-resource-badspec 1 "'zz' is not INSTANCE or TYPE:GROUP:INSTANCE" "$bin" info "$tmp/a.package@zz"
expect extract 0 'extracted 2 of 2 resources .*\(the compression directory is index data: not extracted' "$bin" extract "$tmp/b.package" -o "$tmp/out"
# the two resources and nothing else: no file for the directory (a missing folder counts 0 files)
expect extract-no-directory-file 0 '^2 files, no E86B1EEF$' bash -c 'ls "$0" | grep -q E86B1EEF && exit 1; echo "$(ls "$0" | wc -l | tr -d " ") files, no E86B1EEF"' "$tmp/out"
expect extract-same-bytes 0 '' cmp "$tmp/out/6B20C4F3_48000000_BC78ECD3046CB427.clip" "$tmp/res/6B20C4F3_48000000_BC78ECD3046CB427.clip"
expect extract-filter 0 'extracted 1 of 1 resources' "$bin" extract "$tmp/a.package" --type 02D5DF13 -o "$tmp/out2"
expect extract-bad-filter 2 '--type needs a hex number' "$bin" extract "$tmp/a.package" --type xyz -o "$tmp/out3"
expect extract-no-dir 2 'need a PACKAGE and -o DIR' "$bin" extract "$tmp/a.package"
# a key the index holds twice (a package plumbob did not write): both copies come out,
# the second as TYPE_GROUP_INSTANCE.2.ext, said; pack then refuses the pair by name
python3 - "$tmp/a.package" "$tmp/dup.package" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
count, = struct.unpack_from("<I", d, 36)
size, = struct.unpack_from("<I", d, 44)
at, = struct.unpack_from("<I", d, 64)
assert at + size == len(d)  # the index last
flags, = struct.unpack_from("<I", d, at)
entry = 32 - 4 * bin(flags & 7).count("1")
first = bytes(d[at + 4 + 4 * bin(flags & 7).count("1"):][:entry])
struct.pack_into("<I", d, 36, count + 1)
struct.pack_into("<I", d, 44, size + entry)
open(sys.argv[2], "wb").write(bytes(d) + first)
PY
expect extract-duplicate-said 0 'in the index more than once: copy 2 written as .*dup-x/[0-9A-F_]{34}\.2\.' "$bin" extract "$tmp/dup.package" -o "$tmp/dup-x"
expect extract-duplicate-both 0 '^3$' sh -c "ls \"$tmp/dup-x\" | wc -l"
expect extract-duplicate-pack 2 'the same resource key as' sh -c "\"$bin\" pack \"$tmp\"/dup-x/* -o \"$tmp/dup2.package\""

# --- packages: no silent damage, the index is the truth ---------------------------
"$bin" demo --write "$tmp/pk" >/dev/null
mkdir -p "$tmp/pkres"
cp "$tmp"/pk/*.clip "$tmp"/pk/*.gmdc "$tmp"/pk/*.anim "$tmp"/pk/body/*.gmdc "$tmp/pkres/"
# extract then pack --sims2 of a package with compressed entries: the same resources
expect pk-pack-sims2 0 'packed 4 resources .*\(DBPF 1.1' "$bin" pack --sims2 --force -o "$tmp/s2.package" "$tmp"/pkres/*
expect pk-ls-one-directory 0 '^1$' sh -c "\"$bin\" ls \"$tmp/s2.package\" | grep -c '^E86B1EEF'"
expect pk-extract 0 'extracted 4 of 4 resources .*index data' "$bin" extract "$tmp/s2.package" -o "$tmp/ex1"
expect pk-repack 0 'packed 4 resources' "$bin" pack --sims2 --force -o "$tmp/s2b.package" "$tmp"/ex1/*
expect pk-repack-store 0 'packed 4 resources' "$bin" pack --sims2 --store --force -o "$tmp/s2c.package" "$tmp"/ex1/*
expect pk-reextract 0 'extracted 4 of 4 resources' "$bin" extract "$tmp/s2b.package" -o "$tmp/ex2"
expect pk-reextract-store 0 'extracted 4 of 4 resources' "$bin" extract "$tmp/s2c.package" -o "$tmp/ex3"
expect pk-same-resources 0 '' diff -r "$tmp/pkres" "$tmp/ex2"
expect pk-same-resources-store 0 '' diff -r "$tmp/pkres" "$tmp/ex3"
# a directory file from an older extract is skipped by pack, not packed beside the new one
expect pk-extract-directory 0 'extracted 1 of 1 resources' "$bin" extract "$tmp/s2.package" --type E86B1EEF -o "$tmp/exdir"
cp "$tmp"/exdir/* "$tmp/ex1/"
expect pk-pack-skips-directory 0 'E86B1EEF_E86B1EEF_00000000286B1F03.dir: skipped: a Sims 2 compression directory is index data' "$bin" pack --sims2 --store --force -o "$tmp/s2d.package" "$tmp"/ex1/*
expect pk-skipped-one-directory 0 'packed 4 resources' "$bin" pack --sims2 --store --force -o "$tmp/s2d.package" "$tmp"/ex1/*
expect pk-skipped-reads-back 0 'extracted 4 of 4 resources' "$bin" extract "$tmp/s2d.package" -o "$tmp/ex4"
expect pk-skipped-same 0 '' diff -r "$tmp/pkres" "$tmp/ex4"
# check PACKAGE: every resource it can decode, by the index's type, and a summary
expect pk-check 0 's2.package: 4 resources: 4 decoded, 4 round-tripped identical, 0 not supported, 0 failed; the compression directory is index data' "$bin" check "$tmp/s2.package"
cp "$tmp/pkres/AC4F8687_1C0532FA_00F0E1D2C3B4A599.gmdc" "$tmp/pkbad.gmdc"
printf '\170\005' | dd of="$tmp/pkbad.gmdc" bs=1 seek=7342 conv=notrunc 2>/dev/null
mkdir -p "$tmp/pkmix"
cp "$tmp/pkbad.gmdc" "$tmp/pkmix/AC4F8687_1C0532FA_00F0E1D2C3B4A599.gmdc"
cp "$tmp/pk/6B20C4F3_00000000_00F0E1D2C3B4A596.clip" "$tmp/pkmix/"
# a CRES-typed resource holding GMDC bytes, a KEY name table (version 1, one name)
cp "$tmp/pk/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" "$tmp/pkmix/E519C933_1C0532FA_00F0E1D2C3B4A597.cres"
printf '\001\000\000\000\001\000\000\000\226\245\264\303\322\341\360\000\003\000\000\000abc' > "$tmp/pkmix/0166038C_00000000_00F0E1D2C3B4A596.key"
expect pk-pack-mix 0 'packed 4 resources' "$bin" pack --force -o "$tmp/mix.package" "$tmp"/pkmix/*
expect pk-check-mix 1 'mix.package: 4 resources: 2 decoded, 2 round-tripped identical, 0 not supported, 2 failed' "$bin" check "$tmp/mix.package"
expect pk-check-mix-cres-line 1 'FAIL .*mix.package@E519C933:1C0532FA:00F0E1D2C3B4A597, CRES \(type 0xE519C933\): does not decode: bad_magic' "$bin" check "$tmp/mix.package"
expect pk-check-mix-line 1 'FAIL .*mix.package@AC4F8687:1C0532FA:00F0E1D2C3B4A599, GMDC \(type 0xAC4F8687\): does not decode: bad_index at byte 7342 \(0x1cae\), element 4' "$bin" check "$tmp/mix.package"
# info and check name a resource by the index's type, not by its bytes
expect pk-info-cres 1 '@E519C933:1C0532FA:00F0E1D2C3B4A597: not a valid CRES: bad_magic' "$bin" info "$tmp/mix.package@E519C933:1C0532FA:00F0E1D2C3B4A597"
expect pk-check-cres 1 'cres does not decode: bad_magic' "$bin" check "$tmp/mix.package@E519C933:1C0532FA:00F0E1D2C3B4A597"
expect pk-info-key 0 '@0166038C:00000000:00F0E1D2C3B4A596: KEY \(type 0x0166038C\) name table, version 1, 1 names, 23 bytes' "$bin" info "$tmp/mix.package@0166038C:0:00F0E1D2C3B4A596"
expect pk-ls-key-name 0 '6B20C4F3 CLIP +00000000 00F0E1D2C3B4A596 +[0-9]+ +1268 refpack  abc' "$bin" ls "$tmp/mix.package"
# writing a package: complete or not at all; on error the old file is untouched
cp "$tmp/s2.package" "$tmp/keep.package"
expect pk-pack-missing-input 1 'cannot open' "$bin" pack -o "$tmp/keep.package" "$tmp/pkres/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" "$tmp/pkres/6B20C4F3_00000000_00000000DEADBEEF.clip"
expect pk-untouched-after-error 0 '' cmp "$tmp/keep.package" "$tmp/s2.package"
mkdir -p "$tmp/adir.package"
expect pk-pack-onto-directory 1 'adir.package: cannot write: Is a directory' "$bin" pack -o "$tmp/adir.package" "$tmp"/pkres/*.clip
expect pk-no-temp-left 1 '' sh -c "ls \"$tmp\" | grep -q '\\.tmp-'"
expect pk-pack-replaces 0 'packed 1 resources' "$bin" pack -o "$tmp/keep.package" "$tmp"/pkres/*.clip
expect pk-replaced 0 '1 resources, 1 compressed' "$bin" info "$tmp/keep.package"

# --- CLIP, on the demo's clip (made by plumbob's writer) ---------------------------
expect demo-write 0 'wrote .*6B20C4F3_00000000_00F0E1D2C3B4A596.clip \(1268 bytes\)' "$bin" demo --write "$tmp/demo"
clip="$tmp/demo/6B20C4F3_00000000_00F0E1D2C3B4A596.clip"
expect clip-help 0 'usage: plumbob clip dump' "$bin" clip --help
expect clip-dump 0 'tracks   4 \(2 rotation, 1 translation, 0 scale, 1 morph\), 93 keys' "$bin" clip dump "$clip"
expect clip-dump-names 0 '0 0x6FA96266 b__Spine0__ +rotation +31 keys' "$bin" clip dump "$clip"
expect clip-dump-unnamed 0 '2 0x84B0668E - +morph +31 keys' "$bin" clip dump "$clip"
printf 'bulge\n' > "$tmp/morphs.txt"
expect clip-dump-names-from-list 0 '2 0x84B0668E bulge +morph +31 keys' "$bin" clip dump "$clip" --rig "$tmp/morphs.txt"
expect clip-dump-json-names 0 '"hash": "0x6FA96266", "name": "b__Spine0__", "target": "rotation"' "$bin" clip dump "$clip" --json
expect clip-dump-bad-names 1 'nonexistent' "$bin" clip dump "$clip" --rig "$tmp/nonexistent.txt"
expect clip-dump-events 0 '0.500 s  sound +bend_creak' "$bin" clip dump "$clip"
expect clip-dump-json 0 '"name": "a_demo_bend_x", "source": "a_demo_bend.ma", "actor": "x", "frame_duration": 0.0333333351, "ticks": 61' "$bin" clip dump "$clip" --json
expect clip-sample 0 '0x6FA96266 rotation +b__Spine0__ +0.000000 +0.000000 +0.707107 +0.707107' "$bin" clip sample "$clip" --time 1
expect clip-sample-json 0 '"hash": "0xFEAE6981", "name": "b__ROOT__", "target": "translation", "value": \[0, 0.24999998[0-9]*, 0\]' "$bin" clip sample "$clip" --time 1 --json
expect clip-sample-no-time 2 '--time SECONDS or --frame N is required' "$bin" clip sample "$clip"
expect clip-sample-bad-time 2 "--time needs a number, got 'soon'" "$bin" clip sample "$clip" --time soon
expect clip-check 0 'ok: round trip identical \(1268 bytes\)' "$bin" check "$clip"
expect clip-info 0 'Sims 3 CLIP a_demo_bend_x, 2.033 s, 4 tracks, 2 events, 1268 bytes' "$bin" info "$clip"
expect clip-not-clip 1 'not a valid CLIP: bad_magic' "$bin" clip dump "$tmp/zeros.bin"
expect clip-plot 0 'wrote .*clip.svg \([0-9]+ bytes\): 4 tracks over 2.033 s' "$bin" clip plot "$clip" -o "$tmp/clip.svg"
expect clip-plot-xml 0 '^ok .*clip.svg: [0-9]+ elements' "${1:-build}/xml-check" "$tmp/clip.svg"
expect clip-plot-panels 0 '^4$' sh -c "grep -c 'font-weight=\"bold\">track' \"$tmp/clip.svg\""
expect clip-plot-track-name 0 '1 tracks over' "$bin" clip plot "$clip" --track b__Spine0__ -o "$tmp/spine.svg"
expect clip-plot-track-hash 0 'track 0: b__Spine0__ 0x6FA96266 rotation' cat "$tmp/spine.svg"
expect clip-plot-morph-name 0 '1 tracks over' "$bin" clip plot "$clip" --track bulge -o "$tmp/bulge.svg"
expect clip-plot-track-none 1 '--track b__Nope__ matches none of the 4 tracks' "$bin" clip plot "$clip" --track b__Nope__ -o "$tmp/none.svg"
expect clip-plot-no-out 2 '-o OUT.svg is required' "$bin" clip plot "$clip"
expect clip-plot-wrong-flag 2 "clip plot: unexpected argument '--time'" "$bin" clip plot "$clip" --time 1 -o "$tmp/x.svg"
expect clip-export-alone 0 'wrote .*clip.glb \([0-9]+ bytes\): 2 nodes, 3 animation channels' "$bin" clip export "$clip" -o "$tmp/clip.glb"
expect clip-export-alone-hashes 0 '2 animated bones are not in the rig: root nodes, 2 named from the name dictionary, 0 named 0xHASH' "$bin" clip export "$clip" -o "$tmp/clip.glb"
expect clip-export-alone-checks 0 'ok: valid glTF 2.0 \(GLB, [0-9]+ bytes\): 2 nodes, 0 meshes .* 1 animations \(3 channels\)' "$bin" check "$tmp/clip.glb"
expect clip-export-rigged 0 '4 nodes, 1 primitives with 108 vertices and 2 morph targets, 3 joints, 4 animation channels' "$bin" clip export "$clip" --rig "$tmp/demo/rig.txt" --rig "$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" -o "$tmp/rigged.gltf"
expect clip-export-rigged-weights 0 '"target": \{"node": 3, "path": "weights"\}' cat "$tmp/rigged.gltf"
expect clip-export-two-meshes 1 'a second mesh' "$bin" clip export "$clip" --rig "$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" --rig "$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" -o "$tmp/x.gltf"
expect clip-export-no-out 2 '-o OUT.gltf or OUT.glb is required' "$bin" clip export "$clip"
head -c 600 "$clip" > "$tmp/cut.clip"
expect clip-truncated 1 'cut.clip: not a valid CLIP: truncated at byte 8 \(0x8\), header' "$bin" clip dump "$tmp/cut.clip"
expect check-truncated 1 'cut.clip: clip does not decode: truncated at byte 8 \(0x8\), header' "$bin" check "$tmp/cut.clip"
expect clip-json-parses 0 '^ok 4 2$' sh -c "\"$bin\" clip dump \"$clip\" --json | \"${1:-build}/json-check\" - name source actor frame_duration ticks slots events_complete 'tracks.*.hash' 'tracks.*.target' 'tracks.*.type' 'tracks.*.offset' 'tracks.*.scale' 'tracks.*.keys' '#tracks' '#events'"
expect clip-sample-json-parses 0 '^ok 4$' sh -c "\"$bin\" clip sample \"$clip\" --time 0.5 --json | \"${1:-build}/json-check\" - time 'tracks.*.hash' 'tracks.*.target' 'tracks.*.value' '#tracks'"

# --- Sims 3 rigs, on the demo's rig (made by plumbob's writer) --------------------
rig="$tmp/demo/8EAF13DE_00000000_00F0E1D2C3B4A599.rig"
expect rig-help 0 'usage: plumbob rig dump FILE' "$bin" rig --help
expect rig-dump 0 '3 b__Head__ +0x0F97B21B +2 +3 0x00000023 \(0.0000 0.5000 0.0000\) \(0.0000 0.0000 0.0000 1.0000\) \(0.0000 2.5000 0.0000\)' "$bin" rig dump "$rig"
expect rig-dump-chains 0 'IK chain 0: bones 1 2 3; pole 2, slot info -1, slot offset -1, root 0' "$bin" rig dump "$rig"
expect rig-dump-json 0 '"name": "b__Head__", "hash": "0x0F97B21B", "parent": 2, "opposite": 3, "flags": "0x00000023", "translation": \[0, 0.5, 0\], "rotation": \[0, 0, 0, 1\], "scale": \[1, 1, 1\], "model_translation": \[0, 2.5, 0\], "model_rotation": \[0, 0, 0, 1\]' "$bin" rig dump "$rig" --json
expect rig-json-parses 0 '^ok 4 1$' sh -c "\"$bin\" rig dump \"$rig\" --json | \"${1:-build}/json-check\" - version skeleton_name reordered 'bones.*.name' 'bones.*.hash' 'bones.*.parent' 'bones.*.opposite' 'bones.*.flags' 'bones.*.translation' 'bones.*.rotation' 'bones.*.scale' 'bones.*.model_translation' 'bones.*.model_rotation' 'ik_chains.*.bones' 'ik_chains.*.info_nodes' '#bones' '#ik_chains'"
expect rig-info 0 'Sims 3 rig demo_spine \(version 4.2\), 4 bones, 1 IK chains, 386 bytes' "$bin" info "$rig"
expect rig-check 0 'ok: round trip identical \(386 bytes\)' "$bin" check "$rig"
head -c 100 "$rig" > "$tmp/cut.rig"
expect rig-truncated 1 'cut.rig: not a valid rig: truncated at byte 12 \(0xc\), rig' "$bin" rig dump "$tmp/cut.rig"
expect rig-check-truncated 1 'cut.rig: rig does not decode: truncated at byte 12 \(0xc\), rig' "$bin" check "$tmp/cut.rig"
printf '\336\023\257\216\000\000\000\000\000\000\000\000\000\000\000\000' > "$tmp/granny.rig"
expect rig-granny 1 'granny.rig: a Granny 2 rig \(the old format\): not supported' "$bin" rig dump "$tmp/granny.rig"
expect rig-granny-check 1 'granny.rig: rig does not decode: unsupported' "$bin" check "$tmp/granny.rig"
expect rig-not-rig 1 'is a Sims 3 CLIP, not a Sims 3 rig; try plumbob clip dump' "$bin" rig dump "$clip"
expect rig-unknown-sub 2 "unknown subcommand 'show'" "$bin" rig show "$rig"
expect rig-in-package 0 'packed 2 resources' "$bin" pack -o "$tmp/rig.package" "$rig" "$clip"
expect rig-ls 0 '8EAF13DE RIG   00000000 00F0E1D2C3B4A599 +[0-9]+ +386 refpack' "$bin" ls "$tmp/rig.package"
expect rig-dump-package 0 'rig +demo_spine \(version 4.2\), 4 bones' "$bin" rig dump "$tmp/rig.package@00F0E1D2C3B4A599"
expect clip-sample-rig 0 'b__Spine1__ +rest +model \( *-1.000000 +1.250000 +0.000000\) rotation \( *0.000000 +0.000000 +0.707107 +0.707107\)' "$bin" clip sample "$clip" --time 1 --rig "$rig"
expect clip-sample-rig-tracked 0 'b__Spine0__ +tracked +model \( *0.000000 +1.250000 +0.000000\)' "$bin" clip sample "$clip" --time 1 --rig "$tmp/rig.package@00F0E1D2C3B4A599"
expect clip-sample-rig-json 0 '"name": "b__Head__", "hash": "0x0F97B21B", "parent": 2, "tracked": false, "translation": \[0, 0.5, 0\], "rotation": \[0, 0, 0, 1\], "scale": \[1, 1, 1\], "model_translation": \[-1.5, 1.25, 0\]' "$bin" clip sample "$clip" --time 1 --rig "$rig" --json
expect clip-sample-rig-json-parses 0 '^ok 4$' sh -c "\"$bin\" clip sample \"$clip\" --time 0.5 --rig \"$rig\" --json | \"${1:-build}/json-check\" - time rig 'bones.*.name' 'bones.*.tracked' 'bones.*.translation' 'bones.*.rotation' 'bones.*.scale' 'bones.*.model_translation' 'bones.*.model_rotation' '#bones'"
expect clip-sample-rig-binding 0 '^  binding: 3 of 4 tracks bound, 2 of 2 animated bones; 1 hash unbound: 0x84B0668E$' "$bin" clip sample "$clip" --time 1 --rig "$rig"
expect clip-sample-rig-binding-json 0 '"binding": \{"tracks": 4, "bound_tracks": 3, "bones": 2, "bound_bones": 2, "few_bones": false, "other_species": false, "other_age": false, "unbound": \[\{"hash": "0x84B0668E", "name": null\}\]\}' "$bin" clip sample "$clip" --time 1 --rig "$rig" --json
expect clip-sample-rig-not-rig 1 '--rig wants a Sims 3 rig; this is a Sims 3 CLIP' "$bin" clip sample "$clip" --time 1 --rig "$clip"
expect clip-export-rig 0 'wrote .*rigged-s3.gltf \([0-9]+ bytes\): 4 nodes, 3 animation channels$' "$bin" clip export "$clip" --rig "$rig" -o "$tmp/rigged-s3.gltf"
expect clip-export-rig-rest 0 '"name": "b__Head__", "rotation": \[0, 0, 0, 1\], "translation": \[0, 0.5, 0\]' cat "$tmp/rigged-s3.gltf"
expect clip-export-rig-hierarchy 0 '"name": "b__Spine0__", "rotation": \[0, 0, 0, 1\], "translation": \[0, 1, 0\], "children": \[2\]' cat "$tmp/rigged-s3.gltf"
expect clip-export-rig-checks 0 'ok: valid glTF 2.0 \(JSON, [0-9]+ bytes\): 4 nodes, 0 meshes .* 1 animations \(3 channels\)' "$bin" check "$tmp/rigged-s3.gltf"
expect clip-export-two-rigs 1 'a second rig' "$bin" clip export "$clip" --rig "$rig" --rig "$rig" -o "$tmp/x.gltf"
expect clip-export-granny-rig 1 'Granny 2 rig' "$bin" clip export "$clip" --rig "$tmp/granny.rig" -o "$tmp/granny.gltf"
expect clip-export-granny-no-file 1 '' test -e "$tmp/granny.gltf"

# jazz dump falls back to the name dictionary (built-in bone names) after the KEY table
cat > "$tmp/rignames.sj" <<'SJ'
State Machine "RigNames"
{
    Actor "b__ROOT__"
    State "Enter"
    {
        Properties Public, Entry, Explicit
        Transitions to "b__Head__"
    }
    State "b__Head__"
    {
        Properties Public, Explicit
    }
}
SJ
"$bin" jazz compile "$tmp/rignames.sj" -o "$tmp/rignames.jazz" >/dev/null
expect jazz-dump-dictionary-names 0 'actors: "b__ROOT__"' "$bin" jazz dump "$tmp/rignames.jazz"
expect jazz-dump-dictionary-unknown 0 'state 0x8D31B469 \(flags 0x103[^)]*\) -> "b__Head__"' "$bin" jazz dump "$tmp/rignames.jazz"

# --- GMDC, on the demo's cylinder -------------------------------------------------
gmdc="$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc"
cat > "$tmp/pose.json" <<'POSE'
{"joints": [
 {"rotation": [0, 0, 0, 1], "translation": [0, 0, 0]},
 {"rotation": [0, 0, 0, 1], "translation": [0, 0, 1]},
 {"rotation": [0.38268343, 0, 0, 0.92387953], "translation": [0, 0, 2]}
]}
POSE
printf '{"joints": [{"rotation": [0, 0, 0, 1], "translation": [0, 0, 0]}]}' > "$tmp/short.json"
expect gmdc-help 0 'usage: plumbob gmdc dump' "$bin" gmdc --help
expect gmdc-check 0 'ok: round trip identical \(8565 bytes\)' "$bin" check "$gmdc"
expect gmdc-info 0 'GMDC demo_cylinder_tslocator_gmdc, version 4, 1 groups, 108 vertices, 192 triangles, 3 joints, 3 morphs' "$bin" info "$gmdc"
expect gmdc-dump 0 'group 0 cylinder: linkage 0, 192 triangles, 3 bones' "$bin" gmdc dump "$gmdc"
expect gmdc-dump-json 0 '"morphs": \[\["", ""\], \["demo", "bulge"\], \["demo", "pinch"\]\]' "$bin" gmdc dump "$gmdc" --json
expect gmdc-skin-bind 0 '"positions": \[\[0.5, 0, 0\]' "$bin" gmdc skin "$gmdc" --json
expect gmdc-skin-pose-morph 0 '\[0.699999988, 0.141421363, 1.05857861\]' "$bin" gmdc skin "$gmdc" --pose "$tmp/pose.json" --morph bulge=1 --json
expect gmdc-skin-morph-by-number 0 '\[0.699999988, 0, 1\]' "$bin" gmdc skin "$gmdc" --morph '#1=1' --json
expect gmdc-skin-bad-morph 1 "no morph named 'swell'" "$bin" gmdc skin "$gmdc" --morph swell=1 --json
expect gmdc-skin-bad-weight 2 "morph weight needs a number, got 'lots'" "$bin" gmdc skin "$gmdc" --morph bulge=lots --json
expect gmdc-skin-short-pose 1 'the mesh has 3 joints; the pose gives 1 rotations and 1 translations' "$bin" gmdc skin "$gmdc" --pose "$tmp/short.json" --json
expect gmdc-export 0 'wrote .*cyl.obj' "$bin" gmdc export "$gmdc" -o "$tmp/cyl.obj"
expect gmdc-export-faces 0 '^192$' sh -c "grep -c '^f ' \"$tmp/cyl.obj\""
expect gmdc-export-no-out 2 '-o OUT.obj, OUT.gltf or OUT.glb is required' "$bin" gmdc export "$gmdc"
printf 'b__ROOT__\nb__Spine0__ b__ROOT__\nb__Spine1__ b__Spine0__\n' > "$tmp/rig.txt"
expect gmdc-export-gltf 0 'wrote .*cyl.gltf \([0-9]+ bytes\): 4 nodes, 1 primitives with 108 vertices and 2 morph targets, 3 joints$' "$bin" gmdc export "$gmdc" -o "$tmp/cyl.gltf" --rig "$tmp/rig.txt"
expect gmdc-export-gltf-names 0 '"name": "b__Spine0__", "rotation": \[0, 0, 0, 1\], "translation": \[0, 1, 0\]' cat "$tmp/cyl.gltf"
expect gmdc-export-glb 0 'wrote .*cyl.glb' "$bin" gmdc export "$gmdc" -o "$tmp/cyl.glb"
expect gmdc-export-glb-checks 0 'ok: valid glTF 2.0 \(GLB, [0-9]+ bytes\): 4 nodes, 1 meshes \(1 primitives, 108 vertices, 2 morph targets\), 1 skins \(3 joints\)' "$bin" check "$tmp/cyl.glb"
expect gmdc-export-glb-joint-names 0 '"name": "joint_2"' sh -c "head -c 2000 \"$tmp/cyl.glb\" | tr -d '\\000'"
expect gmdc-export-bad-ext 2 'gmdc export writes .obj, .gltf or .glb' "$bin" gmdc export "$gmdc" -o "$tmp/cyl.fbx"
expect gmdc-export-gltf-pose 2 '--pose and --morph apply to .obj' "$bin" gmdc export "$gmdc" -o "$tmp/cyl.gltf" --morph bulge=1
printf 'b__ROOT__\nb__Spine0__ b__Pelvis__\n' > "$tmp/badrig.txt"
expect gmdc-export-bad-rig 1 "badrig.txt: line 2: parent 'b__Pelvis__' of 'b__Spine0__' is not listed above it" "$bin" gmdc export "$gmdc" -o "$tmp/cyl.gltf" --rig "$tmp/badrig.txt"
sed 's/"count": 108/"count": 109/' "$tmp/cyl.gltf" > "$tmp/broken.gltf"
expect gltf-check-broken 1 'broken.gltf: not a valid glTF 2.0 file: accessors\[0\]: 109 elements from byte 0 need more than bufferView 0' "$bin" check "$tmp/broken.gltf"
expect gltf-info 0 'ok: valid glTF 2.0 \(GLB' "$bin" info "$tmp/cyl.glb"
expect gmdc-not-gmdc 1 'is a Sims 3 CLIP, not a Sims 2 GMDC mesh; try plumbob clip dump' "$bin" gmdc dump "$clip"
expect gmdc-json-parses 0 '^ok 108 108$' sh -c "\"$bin\" gmdc skin \"$gmdc\" --json | \"${1:-build}/json-check\" - 'groups.*.name' '#groups.0.positions' '#groups.0.normals'"
expect gmdc-dump-json-parses 0 '^ok 7 1 3 3$' sh -c "\"$bin\" gmdc dump \"$gmdc\" --json | \"${1:-build}/json-check\" - version name linkages 'groups.*.bones' 'joints.*.rotation' 'joints.*.translation' '#elements' '#groups' '#joints' '#morphs'"

# --- Sims 2 CRES skeleton: the demo body (65 joints, mesh, ANIM) ---------------
skel="$tmp/demo/body.package"
cres="$skel@00F0E1D2C3B4A5A0" bmesh="$skel@00F0E1D2C3B4A5A1" banim="$skel@00F0E1D2C3B4A5A2"
expect cres-info 0 'Sims 2 CRES demo_skel_cres, 135 blocks, 1 links, skin type 3, skeleton of 67 bones \(65 joints\), 15236 bytes' "$bin" info "$cres"
expect cres-check 0 'ok: round trip identical \(15236 bytes\)' "$bin" check "$cres"
expect cres-ls-name 0 'E519C933 CRES  1C0532FA 00F0E1D2C3B4A5A0 +15236 +15236 none +demo_skel_cres' "$bin" ls "$skel"
expect cres-dump-tree 0 '^  bone   4       bone_03  joint 3  t \(0.08, 0.03, 0.12\)' "$bin" cres dump "$cres"
expect cres-dump-children-first 0 'block 5 cTransformNode \(0x65246462, version 7\) bone_64' "$bin" cres dump "$cres"
expect cres-dump-json-parses 0 '^ok 135 67$' sh -c "\"$bin\" cres dump \"$cres\" --json | \"${1:-build}/json-check\" - '#blocks' '#bones' 'bones.*.name' 'bones.*.translation' 'blocks.*.kind' skin_type"
expect cres-dump-json-bone 0 '"name": "bone_03", "parent": 3, "block": 66, "joint": 3' "$bin" cres dump "$cres" --json
expect cres-help 0 'usage: plumbob cres dump FILE' "$bin" cres --help
expect cres-not-cres 1 'is a Sims 2 GMDC mesh, not a Sims 2 CRES; try plumbob gmdc dump' "$bin" cres dump "$bmesh"
expect cres-bad-sub 2 "unknown subcommand 'show'" "$bin" cres show "$cres"
expect skel-export-finds-cres 0 'skeleton: .*body.package@E519C933:1C0532FA:00F0E1D2C3B4A5A0, 67 bones, 65 of the mesh.s 65 joints' "$bin" gmdc export "$bmesh" -o "$tmp/skelbody.glb"
expect skel-export 0 'wrote .*skelbody.glb \([0-9]+ bytes\): 68 nodes, 1 primitives with 260 vertices and 2 morph targets, 65 joints$' "$bin" gmdc export "$bmesh" -o "$tmp/skelbody.glb"
expect skel-export-checks 0 'ok: valid glTF 2.0 \(GLB, [0-9]+ bytes\): 68 nodes, 1 meshes \(1 primitives, 260 vertices, 2 morph targets\), 1 skins \(65 joints\)' "$bin" check "$tmp/skelbody.glb"
expect skel-export-gltf-names 0 'wrote .*skelbody.gltf' "$bin" gmdc export "$bmesh" --cres "$cres" -o "$tmp/skelbody.gltf"
expect skel-export-gltf-hierarchy 0 '"name": "root_rot", "rotation": \[[^]]*\], "translation": \[0.0799999982, 0.119999997, -0.00999999978\], "children": \[4, 21\]' cat "$tmp/skelbody.gltf"
expect skel-export-rig-and-cres 2 'give --rig or --cres, not both' "$bin" gmdc export "$bmesh" --cres "$cres" --rig "$tmp/demo/rig.txt" -o "$tmp/x.glb"
expect skel-export-bad-cres 1 '--cres wants a Sims 2 CRES; this is a Sims 2 ANIM' "$bin" gmdc export "$bmesh" --cres "$banim" -o "$tmp/x.glb"
expect skel-skin-rest 0 '"positions": \[\[-0.0299999993, -0.0299999993, 1\], \[0.0299999993, -0.0299999993, 1\]' "$bin" gmdc skin "$bmesh" --cres "$cres" --json
expect skel-skin-anim 0 '"positions": \[\[-0.0165074281, -0.0590750165, 1.09932733\]' "$bin" gmdc skin "$bmesh" --anim "$banim" --time 0.5 --json
expect skel-skin-anim-morph-override 0 '"positions": \[\[-0.0113849593, -0.0506458506, 1.09936762\]' "$bin" gmdc skin "$bmesh" --anim "$banim" --time 0.5 --morph fat=0 --json
expect skel-skin-anim-note 0 'pose: .*@FB00791E:1C0532FA:00F0E1D2C3B4A5A2 at 0.5 s: 3 of its 4 channels drive bones, 1 drive morphs' "$bin" gmdc skin "$bmesh" --anim "$banim" --time 0.5 --json
expect skel-skin-time-alone 2 '--time needs --anim' "$bin" gmdc skin "$bmesh" --time 0.5 --json
expect skel-skin-anim-no-cres 2 'an ANIM needs the skeleton' "$bin" gmdc skin "$tmp/demo/AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc" --anim "$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim" --time 0.5 --json
expect skel-anim-export 0 'wrote .*bodyanim.glb \([0-9]+ bytes\): 68 nodes, 1 primitives with 260 vertices and 2 morph targets, 65 joints, 4 animation channels' "$bin" anim export "$banim" --mesh "$bmesh" -o "$tmp/bodyanim.glb"
expect skel-anim-export-note 0 '3 of the animation.s 4 channels drive a bone' "$bin" anim export "$banim" --cres "$cres" -o "$tmp/skel.gltf"
expect skel-anim-export-checks 0 'ok: valid glTF 2.0 \(JSON, [0-9]+ bytes\): 67 nodes, 0 meshes .* 1 animations \(3 channels\)' "$bin" check "$tmp/skel.gltf"
expect skel-anim-export-no-cres 1 'anim export needs the skeleton' "$bin" anim export "$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim" -o "$tmp/x.glb"
expect skel-anim-export-no-out 2 '-o OUT.gltf or OUT.glb is required' "$bin" anim export "$banim"

# --- GMDC with sparse elements: the demo's body-shaped mesh (1,400 vertices, 65
# joints, 3 weights, fatbot/pregbot, Target Indices of count 1400 with 426 and
# 94 items), as the real skinned body meshes that failed with bad_data -----------
body="$tmp/demo/body/AC4F8687_1C0532FA_00F0E1D2C3B4A599.gmdc"
expect body-info 0 'GMDC demo_body_tslocator_gmdc, version 4, 1 groups, 1400 vertices, 2652 triangles, 65 joints, 3 morphs, 205073 bytes' "$bin" info "$body"
expect body-check 0 'ok: round trip identical \(205073 bytes\)' "$bin" check "$body"
expect body-dump-sparse 0 'element  4 target_indices       format 2 set 0 group 1 count 1400, sparse: 94 items, for vertices 200 1079' "$bin" gmdc dump "$body"
expect body-dump-names 0 'element 10 colour               format 4' "$bin" gmdc dump "$body"
# every one of the 18 elements listed by a known kind (a crash lists none)
expect body-dump-no-other 0 '^18 elements, none other$' bash -c 'out=$("$0" gmdc dump "$1") || exit 1
    printf "%s\n" "$out" | grep -q " other " && exit 1; echo "$(printf "%s\n" "$out" | grep -c "^  element ") elements, none other"' "$bin" "$body"
expect body-dump-json 0 '"kind": "target_indices", "format": 2, "set": 0, "group": 0, "count": 1400, "sparse": true, "item_count": 426, "items": \[0, 879, 358' "$bin" gmdc dump "$body" --json
expect body-dump-json-parses 0 '^ok 18 426 94$' sh -c "\"$bin\" gmdc dump \"$body\" --json | \"${1:-build}/json-check\" - '#elements' '#elements.3.items' '#elements.4.items'"
expect body-skin-morphs 0 '^ok 1400 1400$' sh -c "\"$bin\" gmdc skin \"$body\" --morph fatbot=1 --morph pregbot=0.5 --json | \"${1:-build}/json-check\" - '#groups.0.positions' '#groups.0.normals'"
expect body-export-obj 0 'wrote .*body.obj' "$bin" gmdc export "$body" -o "$tmp/body.obj" --morph fatbot=1
expect body-export-obj-faces 0 '^2652$' sh -c "grep -c '^f ' \"$tmp/body.obj\""
expect body-export-gltf 0 'wrote .*body.gltf \([0-9]+ bytes\): 66 nodes, 1 primitives with 1400 vertices and 2 morph targets, 65 joints$' "$bin" gmdc export "$body" -o "$tmp/body.gltf"
expect body-export-gltf-checks 0 'ok: valid glTF 2.0 \(JSON, [0-9]+ bytes\): 66 nodes, 1 meshes \(1 primitives, 1400 vertices, 2 morph targets\), 1 skins \(65 joints\)' "$bin" check "$tmp/body.gltf"
expect body-export-gltf-attributes 0 '"attributes": \{"POSITION": 0, "NORMAL": 1, "TANGENT": 2, "TEXCOORD_0": 3, "COLOR_0": 4, "JOINTS_0": 5, "WEIGHTS_0": 6\}' cat "$tmp/body.gltf"
expect body-export-gltf-morph-normals 0 '"targets": \[\{"POSITION": [0-9]+, "NORMAL": [0-9]+\}, \{"POSITION": [0-9]+, "NORMAL": [0-9]+\}\]' cat "$tmp/body.gltf"
expect body-export-glb-checks 0 'ok: valid glTF 2.0 \(GLB' sh -c "\"$bin\" gmdc export \"$body\" -o \"$tmp/body.glb\" >/dev/null && \"$bin\" check \"$tmp/body.glb\""
# a TANGENT that is not a float VEC4 is caught by plumbob's checker
sed 's/"TANGENT": 2/"TANGENT": 1/' "$tmp/body.gltf" > "$tmp/badtan.gltf"
expect gltf-check-tangent 1 'badtan.gltf: not a valid glTF 2.0 file: meshes\[0\].primitives\[0\]: TANGENT is not float VEC4' "$bin" check "$tmp/badtan.gltf"
# decode errors say where: an item-list entry of element 4 set to 1400 (its count)
cp "$body" "$tmp/badbody.gmdc"
printf '\170\005' | dd of="$tmp/badbody.gmdc" bs=1 seek=7342 conv=notrunc 2>/dev/null
expect body-bad-item 1 "badbody.gmdc: not a valid GMDC: bad_index at byte 7342 \\(0x1cae\\), element 4: item-list entry not below the element's count" "$bin" gmdc dump "$tmp/badbody.gmdc"
expect body-bad-item-info 1 'bad_index at byte 7342 \(0x1cae\), element 4' "$bin" info "$tmp/badbody.gmdc"
expect body-bad-item-check 1 'gmdc does not decode: bad_index at byte 7342 \(0x1cae\), element 4' "$bin" check "$tmp/badbody.gmdc"
expect body-bad-item-export 1 'bad_index at byte 7342' "$bin" gmdc export "$tmp/badbody.gmdc" -o "$tmp/bad.gltf"
expect body-bad-item-no-output 1 '' test -e "$tmp/bad.gltf"
cp "$body" "$tmp/badbody.gmdc"
printf '\003' | dd of="$tmp/badbody.gmdc" bs=1 seek=192 conv=notrunc 2>/dev/null
expect body-bad-format 1 'bad_data at byte 192 \(0xc0\), element 3: format not 0, 1, 2 or 4' "$bin" gmdc dump "$tmp/badbody.gmdc"
# a primitive type the GMDC page does not list (1): decodes and round-trips,
# dump says so, skinning and export refuse it and write nothing
cp "$body" "$tmp/prim1.gmdc"
printf '\001' | dd of="$tmp/prim1.gmdc" bs=1 seek=187138 conv=notrunc 2>/dev/null
expect body-prim-dump 0 'group 0 body: linkage 0, primitive type 1 \(not a triangle list\), 7956 indices, 65 bones' "$bin" gmdc dump "$tmp/prim1.gmdc"
expect body-prim-check 0 'ok: round trip identical' "$bin" check "$tmp/prim1.gmdc"
expect body-prim-skin 1 'group 0 \(body\): primitive type 1 is not a triangle list' "$bin" gmdc skin "$tmp/prim1.gmdc" --json
expect body-prim-obj 1 'primitive type 1 is not a triangle list' "$bin" gmdc export "$tmp/prim1.gmdc" -o "$tmp/prim1.obj"
expect body-prim-gltf 1 'primitive type 1 is not a triangle list' "$bin" gmdc export "$tmp/prim1.gmdc" -o "$tmp/prim1.gltf"
expect body-prim-no-output 1 '' sh -c "test -e \"$tmp/prim1.obj\" || test -e \"$tmp/prim1.gltf\""

# --- the real packages, when ../shared/corpus is there --------------------------
anim="$tmp/demo/FB00791E_1C0532FA_00F0E1D2C3B4A598.anim"
expect anim-info 0 'Sims 2 ANIM a-demo-bend_anim, 1001 ms, skeleton auskel, 1 targets, 3 channels, 7 components, 1 events' "$bin" info "$anim"
expect anim-check 0 'ok: round trip identical \(477 bytes\)' "$bin" check "$anim"
expect anim-dump 0 'channel 0 spine0: rotation, target auskel, 3 components \(keys 1 3 1\)' "$bin" anim dump "$anim"
expect anim-dump-event 0 'event at 500 ms, type 1014: sound_name=demo_creak' "$bin" anim dump "$anim"
expect anim-sample 0 'spine0 +rotation +0.0000 +22.5000 +0.0000 +q = \(0.0000 0.1951 0.0000 0.9808\)' "$bin" anim sample "$anim" --time 0.25
expect anim-sample-json 0 '"name": "bulge", "attribute": "morph", "value": \[0.5\]' "$bin" anim sample "$anim" --time 0.25 --json
expect anim-sample-no-time 2 '--time SECONDS or --frame N is required' "$bin" anim sample "$anim"
expect anim-sample-bad-time 2 "--time needs a number, got 'soon'" "$bin" anim sample "$anim" --time soon
expect anim-not-anim 1 'is a Sims 2 GMDC mesh, not a Sims 2 ANIM; try plumbob gmdc dump' "$bin" anim dump "$gmdc"
expect anim-help 0 'plumbob anim sample FILE --time SECONDS\|--frame N' "$bin" anim --help
expect anim-plot 0 'wrote .*anim.svg \([0-9]+ bytes\): 3 channels over 1.001 s' "$bin" anim plot "$anim" -o "$tmp/anim.svg"
expect anim-plot-xml 0 '^ok .*anim.svg: [0-9]+ elements' "${1:-build}/xml-check" "$tmp/anim.svg"
expect anim-plot-channel 0 '1 channels over' "$bin" anim plot "$anim" --channel spine0 -o "$tmp/spine0.svg"
expect anim-plot-channel-title 0 'channel 0: spine0 rotation' cat "$tmp/spine0.svg"
expect anim-plot-channel-none 1 '--channel tail matches none of the 3 channels' "$bin" anim plot "$anim" --channel tail -o "$tmp/x.svg"
jazz="$tmp/demo/02D5DF13_00000000_ECE52D7E1B5E7C09.jazz"
expect jazz-info 0 'Sims 3 jazz state machine 0x6E91E4D4, 5 states \(1 entry\), 2 actors, 1 parameters, 5 graphs, 10 nodes \(8 play, 0 stop, 1 random, 1 select\), 24 chunks, 2544 bytes' "$bin" info "$jazz"
expect jazz-check 0 'ok: round trip identical \(2544 bytes\)' "$bin" check "$jazz"
expect jazz-dump 0 '#3 play "o_door_open_\{side\}" for 0x6FEDAE4D' "$bin" jazz dump "$jazz"
expect jazz-dump-random 0 'weight 3:' "$bin" jazz dump "$jazz"
# the back side substitutes {side}; a teen Sim tries the teen clip, then the generic one
expect jazz-run-substitution 0 '"clip_name": "o_door_open_back"' "$bin" jazz run "$jazz" --actor x=7:t --actor door=9 --param side=back --enter Enter --request Exit --json
expect jazz-run-fallbacks 0 '"node": 2, "after": 1, "actor": "0x050C5D67", "handle": 7, "clips": \["6B20C4F3:00000000:BF5AE453D3FD2FA4", "6B20C4F3:00000000:3B5AE453D3FD2FA4"\]' "$bin" jazz run "$jazz" --actor x=7:t --actor door=9 --param side=back --enter Enter --request Exit --json
expect jazz-run-count 0 '^8$' sh -c "\"$bin\" jazz run \"$jazz\" --enter Enter --request Exit --json | wc -l | tr -d ' '"
expect jazz-run-seed 0 'play 00000000:111A620DB4522B06' "$bin" jazz run "$jazz" --enter Enter --request Idle --seed 5
expect jazz-run-not-entry 1 'not an entry state' "$bin" jazz run "$jazz" --enter Open
expect jazz-run-request-first 2 'comes before any --enter' "$bin" jazz run "$jazz" --request Open
expect jazz-run-unknown-state 1 'request Nowhere: no such state$' "$bin" jazz run "$jazz" --enter Enter --request Nowhere
expect jazz-run-unreachable 1 'request Enter: unreachable: no route of declared transitions leads there from 0x01994745' "$bin" jazz run "$jazz" --enter Enter --request Exit --request Enter
expect jazz-run-finished 0 '^finished in exit state 0x01994745$' "$bin" jazz run "$jazz" --enter Enter --request Exit
expect jazz-run-tick-loop 0 '^  0 loop 0x6FB760FF$' "$bin" jazz run "$jazz" --enter Enter --request Idle --tick
expect jazz-run-tick-json 0 '^\{"op": "tick", "action": "loop", "state": "0x6FB760FF"\}$' "$bin" jazz run "$jazz" --enter Enter --request Idle --tick --json
expect jazz-run-tick-first 2 '\-\-tick comes before any \-\-enter' "$bin" jazz run "$jazz" --tick
expect jazz-run-trace 0 '^    trace root       0xB71D2CB1 #0 select_parameter -> branch 0$' "$bin" jazz run "$jazz" --enter Enter --request Idle --trace
expect jazz-run-trace-search 0 '^    trace search     0x8D31B469$' "$bin" jazz run "$jazz" --enter Enter --request Idle --trace
expect jazz-run-trace-json 0 '^\{"op": "trace", "why": "branch", "state": "0x6FB760FF", "node": [567], "kind": "play"\}$' "$bin" jazz run "$jazz" --enter Enter --request Idle --trace --json
expect jazz-run-seed-64 0 'play 00000000:' "$bin" jazz run "$jazz" --enter Enter --request Idle --seed 18446744073709551615
expect jazz-run-seed-too-big 2 "\-\-seed '18446744073709551616' is not a number from 0 to 2\^64-1" "$bin" jazz run "$jazz" --enter Enter --seed 18446744073709551616
expect jazz-run-max-steps-too-big 2 '\-\-max-steps 20000000 is more than a call may take \(at most 16777216\)' "$bin" jazz run "$jazz" --enter Enter --max-steps 20000000
expect jazz-run-max-actions-too-big 2 '\-\-max-actions 4294967295 is more than the tool holds \(at most 1000000\)' "$bin" jazz run "$jazz" --enter Enter --max-actions 4294967295
expect jazz-run-step-limit 1 'request Exit: limit_exceeded: the step limit \(\-\-max-steps 3\) was reached' "$bin" jazz run "$jazz" --enter Enter --request Exit --max-steps 3
# the wacky_pet pattern: Loop picks a Next State at random; each picked state plays once and goes back
cat > "$tmp/wacky.jazz" <<'JAZZ'
State Machine "wacky"
{
    Actor "x"
    State "Enter" { Properties Public, Entry  Transitions to "Loop"  Next State "Exit" }
    State "Loop"
    {
        Properties Public, Loop
        Transitions to "A", "B", "Exit"
        Select Random { Weight 1 { Next State "A" } Weight 1 { Next State "B" } }
    }
    State "A" { Transitions to "Loop"  Play "a_wacky_a" For "x"  Next State "Loop" }
    State "B" { Transitions to "Loop"  Play "a_wacky_b" For "x"  Next State "Loop" }
    State "Exit" { Properties Public, Exit }
}
JAZZ
expect jazz-wacky-compile 0 'compiled' "$bin" jazz compile "$tmp/wacky.jazz" -o "$tmp/wacky.bin"
expect jazz-wacky-exit 0 '^finished in exit state 0x' "$bin" jazz run "$tmp/wacky.bin" --enter Enter --request Exit
expect jazz-wacky-ignored 0 '"action": "next_state", "state": "0x[0-9A-F]+", "node": [0-9]+, "after": null, "actor": null, "handle": 0, "next": "0x[0-9A-F]+", "next_status": "ignored"' "$bin" jazz run "$tmp/wacky.bin" --enter Enter --request Exit --json
expect jazz-wacky-refused 0 '"next_status": "no_transition"' "$bin" jazz run "$tmp/wacky.bin" --enter Enter --json
expect jazz-wacky-dump-refused 0 '#[0-9]+ next_state 0x[0-9A-F]+ \(no transition there: the runtime refuses it\)' "$bin" jazz dump "$tmp/wacky.bin"
expect jazz-wacky-loop 0 '^\{"op": "tick", "action": "enter", "state": "0x[0-9A-F]+"\}$' "$bin" jazz run "$tmp/wacky.bin" --enter Enter --request Loop --tick --tick --tick --json
expect jazz-wacky-loop-count 0 '^7$' sh -c "\"$bin\" jazz run \"$tmp/wacky.bin\" --enter Enter --request Loop --tick --tick --tick --tick --tick --tick --json | grep -c '\"next_status\": \"pending\"'"
expect jazz-dump-flag-names 0 '"flags": 5, "flag_names": \["public", "exit"\]' "$bin" jazz dump "$jazz" --json
expect jazz-run-bad-actor 1 'no such actor' "$bin" jazz run "$jazz" --actor nobody=1 --enter Enter
expect jazz-run-bad-age 2 "'q' is not an age/species code" "$bin" jazz run "$jazz" --actor x=1:q --enter Enter
expect jazz-run-limit 1 'request Exit: limit_exceeded: the action limit \(\-\-max-actions 3\) was reached after [0-9]+ steps' "$bin" jazz run "$jazz" --enter Enter --request Exit --max-actions 3
expect jazz-not-jazz 1 'is a Sims 2 ANIM, not a jazz state machine; try plumbob anim dump' "$bin" jazz dump "$anim"
expect jazz-help 0 'plumbob jazz run FILE' "$bin" jazz --help
# Smooth Jazz: decompile, compile back to the same bytes, errors with a caret
expect jazz-decompile 0 '^        Select Random$' "$bin" jazz decompile "$jazz"
expect jazz-decompile-quiet 0 '^0$' sh -c "\"$bin\" jazz decompile \"$jazz\" -o \"$tmp/door.jazz\" 2>&1 | wc -c | tr -d ' '"
expect jazz-compile 0 'compiled .*door.jazz: 5 states, 10 nodes, 24 chunks, 2544 bytes' "$bin" jazz compile "$tmp/door.jazz" -o "$tmp/door.bin"
expect jazz-compile-identical 0 '' cmp "$jazz" "$tmp/door.bin"
printf 'State Machine "m"\n{\n    Priority 12abc\n}\n' > "$tmp/bad.jazz"
expect jazz-compile-error 1 '^.*bad.jazz:3:14: error: bad number .12a.$' "$bin" jazz compile "$tmp/bad.jazz" -o "$tmp/bad.bin"
expect jazz-compile-caret 1 '^               \^$' "$bin" jazz compile "$tmp/bad.jazz" -o "$tmp/bad.bin"
expect jazz-compile-help 0 'plumbob jazz compile IN.jazz \[-o OUT\] \[--package PKG\]' "$bin" jazz compile --help
expect jazz-compile-no-output 2 'need IN.jazz and -o OUT and/or --package PKG' "$bin" jazz compile "$tmp/door.jazz"
expect jazz-compile-missing 1 'cannot open' "$bin" jazz compile "$tmp/none.jazz" -o "$tmp/x.bin"
expect jazz-compile-new-package 0 '796 bytes -> .*ac.package \(02D5DF13:00000000:43F21603CC840EC6\)' "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/ac.package"
expect jazz-compile-package-key 0 '0166038C KEY   00000000 0000000000000000 +[0-9]+ +223 refpack' "$bin" ls "$tmp/ac.package"
expect jazz-decompile-names 0 '^        Transitions to "o_alarmClockCheap"$' "$bin" jazz decompile "$tmp/ac.package@43F21603CC840EC6"
# a second compile into the same package replaces the resource and keeps one KEY table
expect jazz-compile-replace 0 '' "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/ac.package"
expect jazz-compile-replace-count 0 '^2$' sh -c "\"$bin\" ls \"$tmp/ac.package\" | tail -n +2 | wc -l | tr -d ' '"
# into a package with other resources: they stay as they were (the clip still RefPack-compressed)
expect jazz-compile-into-package 0 '' "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/a.package"
expect jazz-compile-into-package-ls 0 '6B20C4F3 CLIP  48000000 BC78ECD3046CB427 +[0-9]+ +37 refpack' "$bin" ls "$tmp/a.package"
expect jazz-compile-into-package-count 0 '^4$' sh -c "\"$bin\" ls \"$tmp/a.package\" | tail -n +2 | wc -l | tr -d ' '"
expect jazz-compile-not-sims3 1 'jazz belongs in a Sims 3 \(DBPF 2.0\) package; this is DBPF 1.1' "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/b.package"
expect anim-json-parses 0 '^ok 3 3 3 1 1$' sh -c "\"$bin\" anim dump \"$anim\" --json | \"${1:-build}/json-check\" - '#channels' '#channels.0.components' '#channels.1.components' '#channels.2.components' '#events'"
expect jazz-json-parses 0 '^ok 5 10 2$' sh -c "\"$bin\" jazz dump \"$jazz\" --json | \"${1:-build}/json-check\" - '#states' '#nodes' '#actors'"

corpus=${PLUMBOB_CORPUS:-../shared/corpus}
if [ -d "$corpus" ]; then
    for p in "$corpus"/sims3/*.package "$corpus"/sims2/*.package; do
        n=$(basename "$p")
        # each package's resource count and the sum of their memory sizes, read from the
        # DBPF indexes (and compression directory) by a separate Python reader, not by plumbob
        case $n in
            EWBreastfeed.package) want_n=40 want_bytes=2347495 ;;
            EWWheatAndFlour.package) want_n=70 want_bytes=6726804 ;;
            PetFightingSkill.package) want_n=53 want_bytes=2452136 ;;
            WarriorCats.package) want_n=38 want_bytes=173976 ;;
            animation.package) want_n=3 want_bytes=30881 ;;
            teapot_model.package) want_n=4 want_bytes=698911 ;;
            *) want_n=unknown want_bytes=unknown ;;
        esac
        # the header line, then one line a resource
        expect "corpus-ls-$n" 0 "^$want_n resources$" bash -c 'out=$("$0" ls "$1") || exit 1
            printf "%s\n" "$out" | head -1 | grep -qE "^type +group +instance" || exit 1
            echo "$(printf "%s\n" "$out" | tail -n +2 | grep -c "^[0-9A-F]\{8\} ") resources"' "$bin" "$p"
        rm -rf "$tmp/x"
        expect "corpus-extract-$n" 0 "extracted $want_n of $want_n resources" "$bin" extract "$p" -o "$tmp/x"
        # the extracted bytes add up to the memory sizes the index declares
        expect "corpus-extract-$n-sizes" 0 "^$want_n files, $want_bytes bytes\$" bash -c 'echo "$(ls "$0" | wc -l | tr -d " ") files, $(cat "$0"/* | wc -c | tr -d " ") bytes"' "$tmp/x"
    done
    expect corpus-names 0 'GMDC  1C0532FA 3AFDFD2CFF515126 +697936 +697936 none +teapot_tslocator_gmdc' "$bin" ls "$corpus/sims2/teapot_model.package"
    expect corpus-cres-name 0 'CRES  1C0532FA 45BCF2F5FF59CF52 +524 +524 none +ufoCrash_cres' "$bin" ls "$corpus/sims2/teapot_model.package"
    expect corpus-cres-check 0 'ok: round trip identical \(524 bytes\)' "$bin" check "$corpus/sims2/teapot_model.package@45BCF2F5FF59CF52"
    expect corpus-cres-dump 0 'block 2 cShapeRefNode \(0x65245517, version 20\) ufo' "$bin" cres dump "$corpus/sims2/teapot_model.package@45BCF2F5FF59CF52"
    expect corpus-key-names 0 'skill_EWMedicineCat_simple' "$bin" ls "$corpus/sims3/WarriorCats.package"
    rm -rf "$tmp/x" "$tmp/y"
    "$bin" extract "$corpus/sims3/EWBreastfeed.package" -o "$tmp/x" >/dev/null
    expect corpus-repack 0 'packed 40 resources' "$bin" pack -o "$tmp/re.package" "$tmp"/x/*
    "$bin" extract "$tmp/re.package" -o "$tmp/y" >/dev/null
    expect corpus-repack-identical 0 '' diff -r "$tmp/x" "$tmp/y"
    for p in "$corpus"/sims3/EWBreastfeed.package "$corpus"/sims3/PetFightingSkill.package; do
        for inst in $("$bin" ls "$p" | awk '$2 == "CLIP" {print $4}'); do
            expect "corpus-clip-check-$inst" 0 'ok: round trip identical' "$bin" check "$p@$inst"
        done
    done
    for inst in 005F379F3E61683B 1EC5589AF812E9F0 023ECBDB12A4B889; do
        expect "corpus-rig-check-$inst" 0 'ok: round trip identical' "$bin" check "$corpus/sims3/EWWheatAndFlour.package@$inst"
    done
    expect corpus-rig-info 0 'Sims 3 rig plantSmallVine \(version 4.2\), 16 bones, 0 IK chains, 1147 bytes' "$bin" info "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889"
    expect corpus-rig-dump 0 '15 _FX_talk +0x43792F0B +10 +17 0x00000023' "$bin" rig dump "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889"
    expect corpus-clip-export-rig 0 'wrote .*feed-rig.glb' "$bin" clip export "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164" --rig "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889" -o "$tmp/feed-rig.glb"
    expect corpus-clip-export-rig-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/feed-rig.glb"
    # a whole 282-track clip plots as a grid overview a browser opens: valid XML, under 3 MB
    expect corpus-clip-plot-overview 0 '282 tracks' "$bin" clip plot "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164" -o "$tmp/all.svg"
    expect corpus-clip-plot-overview-xml 0 '^ok .*all.svg: [0-9]+ elements' "${1:-build}/xml-check" "$tmp/all.svg"
    expect corpus-clip-plot-overview-size 0 '^small$' sh -c "[ \$(wc -c < \"$tmp/all.svg\") -lt 3000000 ] && echo small"
    expect corpus-gmdc-info 0 'Sims 2 GMDC teapot_tslocator_gmdc, version 4, 1 groups, 13248 vertices, 6320 triangles, 0 joints, 0 morphs' "$bin" info "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126"
    expect corpus-gmdc-check 0 'ok: round trip identical \(697936 bytes\)' "$bin" check "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126"
    expect corpus-gmdc-export-glb 0 '1 nodes, 1 primitives with 13248 vertices and 0 morph targets' "$bin" gmdc export "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126" -o "$tmp/teapot.glb"
    expect corpus-gmdc-export-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/teapot.glb"
    expect corpus-clip-export 0 '141 nodes, 282 animation channels' "$bin" clip export "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164" -o "$tmp/ew.gltf"
    expect corpus-clip-plot 0 '282 tracks over 7.800 s' "$bin" clip plot "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164" -o "$tmp/ew.svg"
    expect corpus-clip-plot-xml 0 '^ok ' "${1:-build}/xml-check" "$tmp/ew.svg"
    expect corpus-anim-plot 0 'channels over' "$bin" anim plot "$corpus/sims2/animation.package@FED15CBCFF6BE5EA" -o "$tmp/s2.svg"
    expect corpus-anim-plot-xml 0 '^ok ' "${1:-build}/xml-check" "$tmp/s2.svg"
    expect corpus-clip-dump 0 'slots    14 in 5 IK chains' "$bin" clip dump "$corpus/sims3/EWBreastfeed.package@3D40CC19DAAFD164"
    for inst in 2E5C5BF0FF966118 FED15CBCFF6BE5EA FDBE1306FFB8F3C0; do
        expect "corpus-anim-check-$inst" 0 'ok: round trip identical' "$bin" check "$corpus/sims2/animation.package@$inst"
    done
    expect corpus-anim-sample 0 '"name": "body_trans", "attribute": "translation", "value": \[0, 0, 0.936035156\]' "$bin" anim sample "$corpus/sims2/animation.package@FED15CBCFF6BE5EA" --time 0.112 --json
    expect corpus-jazz-check-ew 0 'ok: round trip identical \(3936 bytes\)' "$bin" check "$corpus/sims3/EWBreastfeed.package@F2524F99CE17CA3E"
    expect corpus-jazz-check-wc 0 'ok: round trip identical \(7132 bytes\)' "$bin" check "$corpus/sims3/WarriorCats.package@91B95750336A8701"
    expect corpus-jazz-dump-names 0 'state "Enter Standing" \(flags 0x3: public entry\) -> "a2o_gardening_bendover_start_x"' "$bin" jazz dump "$corpus/sims3/WarriorCats.package@91B95750336A8701"
    expect corpus-jazz-run 0 '"action": "play", "state": "a2o_gardening_bendover_start_x", "node": 3, "after": null, "actor": "x", "handle": 5, "clips": \["6B20C4F3:00000000:674F041B05156E14"\]' "$bin" jazz run "$corpus/sims3/WarriorCats.package@91B95750336A8701" --actor x=5 --enter "Enter Standing" --request "Loop Harvest" --json
    "$bin" extract "$corpus/sims3/WarriorCats.package" --type 02D5DF13 -o "$tmp/wcj" >/dev/null
    for pj in EWBreastfeed@F2524F99CE17CA3E WarriorCats@91B95750336A8701; do
        pkg=${pj%@*} inst=${pj#*@}
        expect "corpus-jazz-decompile-$pkg" 0 '^0$' sh -c "\"$bin\" jazz decompile \"$corpus/sims3/$pkg.package@$inst\" -o \"$tmp/$pkg.jazz\" 2>&1 | wc -c | tr -d ' '"
        "$bin" extract "$corpus/sims3/$pkg.package" --type 02D5DF13 -o "$tmp/sj-$pkg" >/dev/null
        expect "corpus-jazz-compile-$pkg" 0 'compiled' "$bin" jazz compile "$tmp/$pkg.jazz" -o "$tmp/$pkg.bin"
        expect "corpus-jazz-compile-identical-$pkg" 0 '' cmp "$tmp/$pkg.bin" "$tmp/sj-$pkg/02D5DF13_00000000_$inst.jazz"
    done
    expect corpus-jazz-decompile-shared 0 '^                Play 0x6B20C4F3:0x48000000:"a_harvestableUpdate_eat_loop1_x" For "x"$' cat "$tmp/WarriorCats.jazz"
    expect corpus-jazz-names-option 0 'parameter "Plant Height" = "medium"' "$bin" jazz dump "$tmp/wcj/02D5DF13_00000000_91B95750336A8701.jazz" --names "$corpus/sims3/WarriorCats.package"
else
    echo "skip corpus tool tests: $corpus not found"
fi

# --- safe writes: a write that fails (here: over a 1 KiB file-size limit,
# as a full disk would) leaves the old file as it was and nothing beside it
full() { # wanted exit, output file, command...
    local want=$1 file=$2; shift 2
    ( ulimit -f 1; trap '' XFSZ; exec "$@" ) >/dev/null 2>&1
}
for out in keep.obj keep.glb keep.svg keep.package; do
    printf 'original' > "$tmp/$out"
    case $out in
        *.obj) full 1 "$tmp/$out" "$bin" gmdc export "$gmdc" -o "$tmp/$out"; rc=$? ;;
        *.glb) full 1 "$tmp/$out" "$bin" gmdc export "$gmdc" -o "$tmp/$out"; rc=$? ;;
        *.svg) full 1 "$tmp/$out" "$bin" clip plot "$clip" -o "$tmp/$out"; rc=$? ;;
        *.package) full 1 "$tmp/$out" "$bin" pack --force "$clip" "$gmdc" -o "$tmp/$out"; rc=$? ;;
    esac
    left=$(ls "$tmp" | grep -c "^$out.tmp-")
    expect "safe-write-$out" 0 '^original 1 0$' echo "$(cat "$tmp/$out") $rc $left"
done

# naming resources: an @INSTANCE shared by several resources means the one
# plumbob decodes, or fails listing them all; type names work where hex does
mkdir -p "$tmp/same"
cp "$clip" "$tmp/same/6B20C4F3_00000000_0000000000000ABC.clip"
cp "$clip" "$tmp/same/220557DA_00000000_0000000000000ABC.stbl"
cp "$clip" "$tmp/same/0333406C_00000000_0000000000000ABC.xml"
cp "$clip" "$tmp/same/0333406C_00000000_0000000000000DEF.xml"
cp "$clip" "$tmp/same/220557DA_00000000_0000000000000DEF.stbl"
"$bin" pack "$tmp"/same/* -o "$tmp/same.package" >/dev/null
expect at-instance-decodable 0 '@6B20C4F3:00000000:0000000000000ABC: Sims 3 CLIP' "$bin" info "$tmp/same.package@ABC"
expect at-instance-ambiguous 1 "'DEF' matches 2 resources" "$bin" info "$tmp/same.package@DEF"
expect at-instance-ambiguous-lists 1 '0333406C:00000000:0000000000000DEF  XML' "$bin" info "$tmp/same.package@DEF"
expect at-type-name 0 '@6B20C4F3:00000000:0000000000000ABC: Sims 3 CLIP' "$bin" info "$tmp/same.package@clip:0:ABC"
expect at-bad-spec 1 "is not INSTANCE or TYPE:GROUP:INSTANCE" "$bin" info "$tmp/same.package@not-a-key"
expect extract-type-name 0 'extracted 2 of 2 resources' "$bin" extract "$tmp/same.package" --type STBL -o "$tmp/same-x"
expect extract-type-none 1 'no resource matches' "$bin" extract "$tmp/same.package" --type RIG -o "$tmp/same-x"
expect extract-type-junk 2 'needs a hex number or a type name' "$bin" extract "$tmp/same.package" --type nope -o "$tmp/same-x"
expect input-directory 1 'is a directory' "$bin" info "$tmp/same"

# an output that is one of the inputs is refused (and the input kept) unless --force
cp "$clip" "$tmp/self.clip"
expect output-is-input 1 "is one of this command's inputs; refusing to overwrite it" "$bin" clip plot "$tmp/self.clip" -o "$tmp/self.clip"
expect output-is-input-kept 0 '' cmp "$clip" "$tmp/self.clip"
expect output-is-input-force 0 'wrote' "$bin" clip plot "$tmp/self.clip" -o "$tmp/self.clip" --force
expect output-is-input-forced 0 '^<svg|^<\?xml' head -c 5 "$tmp/self.clip"

# output to a full device is a failure, not a silent exit 0
if [ -w /dev/full ]; then
    "$bin" pack "$clip" -o "$tmp/full.package" >/dev/null
    expect stdout-full-ls 1 'standard output: cannot write' sh -c "\"$bin\" ls \"$tmp/full.package\" > /dev/full"
    expect stdout-full-dump 1 'standard output: cannot write' sh -c "\"$bin\" clip dump \"$clip\" --json > /dev/full"
fi

# further suites, one file per theme (tests/tool/*.sh): each runs here with
# bin, tmp, clip, corpus and expect() from this script; one that does not
# load or stops with an error is a failure (tests/tool-suites.sh)
. "$(dirname "$0")/tool-suites.sh"
run_suites "$(dirname "$0")/tool" "$@"

# every glTF these tests wrote, valid or not, kept for the Khronos validator
# stage (tests/gltf-validator.sh reads the folder, runs plumbob's checker and
# the validator on each and fails where they disagree; see its header for the
# names of intentionally broken inputs)
if [ -n "${PLUMBOB_KEEP_EXPORTS:-}" ]; then
    mkdir -p "$PLUMBOB_KEEP_EXPORTS"
    find "$tmp" \( -name '*.gltf' -o -name '*.glb' \) -type f | while read -r f; do
        cp "$f" "$PLUMBOB_KEEP_EXPORTS/$(printf '%s' "${f#$tmp/}" | tr '/' '_')"
    done
fi

if [ $fail = 0 ]; then echo "$pass passed, $fail failed"; exit 0; fi
echo "$pass passed, $fail failed"
exit 1
