# Package editing in place: add, replace, remove.  Every other resource comes
# back byte-exact, names follow in the KEY table, compression as the package
# has it, and a refusal leaves the package as it was with nothing beside it.
# Sourced by tool-tests.sh.
mkdir -p "$tmp/ed"
"$bin" demo --write "$tmp/ed" >/dev/null
ed_clip=$(ls "$tmp"/ed/6B20C4F3_*.clip) ed_jazz=$(ls "$tmp"/ed/02D5DF13_*.jazz) ed_gmdc=$(ls "$tmp"/ed/AC4F8687_*.gmdc)
ed_inst=$(basename "$ed_clip" .clip); ed_inst=${ed_inst##*_}
"$bin" pack -o "$tmp/ed1.package" "$ed_jazz" >/dev/null
expect edit-add 0 "^added 1 resource to .*ed1.package \(3 resources now\)" "$bin" add "$tmp/ed1.package" "$ed_clip" --name walk_x
expect edit-add-listed 0 "6B20C4F3 CLIP .*$ed_inst .* refpack +walk_x$" "$bin" ls "$tmp/ed1.package"
expect edit-add-by-name 0 "Sims 3 CLIP" "$bin" info "$tmp/ed1.package@walk_x"
"$bin" extract "$tmp/ed1.package" --type CLIP -o "$tmp/ed1x" >/dev/null
expect edit-add-bytes 0 '' cmp "$ed_clip" "$tmp/ed1x/$(basename "$ed_clip")"
# refusals: nothing changes, nothing is left beside the package
cp "$tmp/ed1.package" "$tmp/ed1.keep"
expect edit-add-twice 1 "already holds 6B20C4F3:00000000:$ed_inst \(CLIP\); to change it use plumbob replace" \
    "$bin" add "$tmp/ed1.package" "$ed_clip"
expect edit-add-wrong-game 2 "is a Sims 2 resource; this Sims 3 package cannot use it" "$bin" add "$tmp/ed1.package" "$ed_gmdc"
expect edit-add-bad-name 2 'name is not TYPE_GROUP_INSTANCE.ext' "$bin" add "$tmp/ed1.package" "$tmp/text.bin"
expect edit-replace-missing 1 "has no 02D5DF13:00000000:0000000000000B07 \(JAZZ\) to replace; to put it in use plumbob add" \
    bash -c 'cp "$1" "$2/02D5DF13_00000000_0000000000000B07.jazz" && "$0" replace "$3" "$2/02D5DF13_00000000_0000000000000B07.jazz"' \
    "$bin" "$ed_jazz" "$tmp/ed" "$tmp/ed1.package"
expect edit-remove-missing 1 "has no resource '1234'" "$bin" remove "$tmp/ed1.package" 1234
expect edit-remove-bad-key 2 "'zz:1' is not INSTANCE, TYPE:GROUP:INSTANCE" "$bin" remove "$tmp/ed1.package" zz:1
expect edit-not-a-package 1 'is a Sims 3 CLIP, not a package' "$bin" add "$ed_clip" "$ed_clip"
expect edit-refusals-kept 0 '' cmp "$tmp/ed1.keep" "$tmp/ed1.package"
expect edit-refusals-no-temp 0 '^ed1.keep ed1.package$' bash -c 'cd "$0" && echo $(ls ed1.*)' "$tmp"
# replace: the new bytes, compressed as the old were; the other resource as it was
mkdir -p "$tmp/ed/r"; head -c 300 "$ed_clip" > "$tmp/ed/short"
cp "$tmp/ed/short" "$tmp/ed/r/$(basename "$ed_clip")"
expect edit-replace 0 "^replaced 1 resource in .*ed1.package \(3 resources now\)" "$bin" replace "$tmp/ed1.package" "$tmp/ed/r/$(basename "$ed_clip")"
"$bin" extract "$tmp/ed1.package" -o "$tmp/ed1r" >/dev/null
expect edit-replace-bytes 0 '' cmp "$tmp/ed/short" "$tmp/ed1r/$(basename "$ed_clip")"
expect edit-replace-other-kept 0 '' cmp "$ed_jazz" "$tmp/ed1r/$(basename "$ed_jazz")"
expect edit-replace-compressed 0 "CLIP .* refpack +walk_x$" "$bin" ls "$tmp/ed1.package"
# remove: gone, its name out of the KEY table, the rest byte-exact
expect edit-remove 0 "^removed 1 resource from .*ed1.package \(2 left\)" "$bin" remove "$tmp/ed1.package" walk_x
expect edit-remove-gone 1 "no resource walk_x|'walk_x' is not" "$bin" info "$tmp/ed1.package@walk_x"
expect edit-remove-rest 0 '^JAZZ and KEY left, the jazz byte-exact$' bash -c '"$0" extract "$1" -o "$2" >/dev/null || exit 1
    [ "$(ls "$2" | sed "s/_.*//" | tr "\n" " ")" = "0166038C 02D5DF13 " ] || exit 1
    cmp "$3" "$2/$(basename "$3")" || exit 1; echo "JAZZ and KEY left, the jazz byte-exact"' "$bin" "$tmp/ed1.package" "$tmp/ed1rest" "$ed_jazz"
expect edit-remove-key-empty 0 '^0 names$' bash -c '"$0" extract "$1" --type KEY -o "$2" >/dev/null && od -An -tu4 -j4 -N4 "$2"/0166038C_*.key | awk "{print \$1 \" names\"}"' \
    "$bin" "$tmp/ed1.package" "$tmp/ed1k"
# a Sims 2 package with compressed entries: its compression directory follows
"$bin" pack --sims2 -o "$tmp/ed2.package" "$tmp"/ed/AC4F8687_*.gmdc "$tmp"/ed/FB00791E_*.anim >/dev/null
ed_anim=$(ls "$tmp"/ed/FB00791E_*.anim)
expect edit-sims2-remove 0 'removed 1 resource' "$bin" remove "$tmp/ed2.package" "ANIM:1C0532FA:$(basename "$ed_anim" .anim | cut -d_ -f3)"
expect edit-sims2-add 0 'added 1 resource' "$bin" add "$tmp/ed2.package" "$ed_anim"
expect edit-sims2-check 0 '0 failed' "$bin" check "$tmp/ed2.package"
"$bin" extract "$tmp/ed2.package" -o "$tmp/ed2x" >/dev/null
expect edit-sims2-bytes 0 '' cmp "$ed_anim" "$tmp/ed2x/$(basename "$ed_anim")"
expect edit-sims2-compressed 0 'ANIM .* refpack' "$bin" ls "$tmp/ed2.package"
expect edit-sims2-no-name 2 'a Sims 2 package has no KEY table' "$bin" add "$tmp/ed2.package" "$ed_clip" --name x --force
expect edit-sims2-dir 2 'is the compression directory' "$bin" remove "$tmp/ed2.package" E86B1EEF:E86B1EEF:286B1F03
# a zlib entry (as s3pe writes them) is carried as stored through an edit
python3 - "$tmp/edz.package" <<'PY'
import struct, sys, zlib
z = zlib.compress(b"zlib resource " * 20)
body = z + b"plain"
entries = [(0x6B20C4F3, 0, 0x1111, 96, len(z), 280, 0x5A42), (0x02D5DF13, 0, 0x2222, 96 + len(z), 5, 5, 0)]
index = struct.pack("<I", 0) + b"".join(struct.pack("<IIIIIIIHH", t, g, i >> 32, i & 0xFFFFFFFF, o, s | 0x80000000, m, c, 1)
                                        for t, g, i, o, s, m, c in entries)
head = bytearray(96); head[0:4] = b"DBPF"
struct.pack_into("<II", head, 4, 2, 0); struct.pack_into("<I", head, 36, 2); struct.pack_into("<I", head, 44, len(index))
struct.pack_into("<I", head, 60, 3); struct.pack_into("<I", head, 64, 96 + len(body))
open(sys.argv[1], "wb").write(bytes(head) + body + index)
PY
expect edit-zlib-listed 0 '6B20C4F3 CLIP .*0000000000001111 .* zlib' "$bin" ls "$tmp/edz.package"
zin() { python3 -c 'import sys, zlib; d = open(sys.argv[1], "rb").read(); print("stream kept" if zlib.compress(b"zlib resource " * 20) in d else "stream lost")' "$1"; }
expect edit-zlib-before 0 '^stream kept$' zin "$tmp/edz.package"
expect edit-zlib-remove 0 'removed 1 resource .*\(1 left\)' "$bin" remove "$tmp/edz.package" 2222
expect edit-zlib-kept 0 '6B20C4F3 CLIP .*0000000000001111 .* 280 zlib' "$bin" ls "$tmp/edz.package"
expect edit-zlib-bytes 0 '^stream kept$' zin "$tmp/edz.package"
# compression as the package has it: one resource compressed and one stored is half, so a
# third goes in compressed; a replaced resource keeps how it was stored (the stored one stays
# stored though most are compressed now); a key differing only in its group is a new resource
mkdir -p "$tmp/ed/h"
for i in A01 A02 A03; do cp "$ed_jazz" "$tmp/ed/h/02D5DF13_00000000_0000000000000$i.jazz"; done
cp "$ed_jazz" "$tmp/ed/h/02D5DF13_00000001_0000000000000A01.jazz"
"$bin" pack -o "$tmp/edh.package" "$tmp/ed/h/02D5DF13_00000000_0000000000000A01.jazz" >/dev/null
"$bin" add "$tmp/edh.package" "$tmp/ed/h/02D5DF13_00000000_0000000000000A02.jazz" --store >/dev/null
expect edit-add-half-compressed 0 '02D5DF13 JAZZ +00000000 0000000000000A03 .* refpack' \
    sh -c '"$0" add "$1" "$2" >/dev/null && "$0" ls "$1"' "$bin" "$tmp/edh.package" "$tmp/ed/h/02D5DF13_00000000_0000000000000A03.jazz"
expect edit-replace-kept-stored 0 '02D5DF13 JAZZ +00000000 0000000000000A02 .* none' \
    sh -c '"$0" replace "$1" "$2" >/dev/null && "$0" ls "$1"' "$bin" "$tmp/edh.package" "$tmp/ed/h/02D5DF13_00000000_0000000000000A02.jazz"
expect edit-add-other-group 0 '^added 1 resource to .*edh.package \(4 resources now\)' \
    "$bin" add "$tmp/edh.package" "$tmp/ed/h/02D5DF13_00000001_0000000000000A01.jazz"
# a KEY table that is the package's first resource (as pack puts it, by type): removing the
# named clip takes its name out too
"$bin" add "$tmp/ed1.package" "$ed_clip" --name walk_x >/dev/null && "$bin" extract "$tmp/ed1.package" -o "$tmp/edk" >/dev/null
"$bin" pack -o "$tmp/edk.package" "$tmp"/edk/* >/dev/null
expect edit-key-first 0 '^0166038C KEY ' sh -c '"$0" ls "$1" | sed -n 2p' "$bin" "$tmp/edk.package"
expect edit-key-first-remove 0 '^0 names$' bash -c '"$0" remove "$1" walk_x >/dev/null && "$0" extract "$1" --type KEY -o "$2" >/dev/null &&
    od -An -tu4 -j4 -N4 "$2"/0166038C_*.key | awk "{print \$1 \" names\"}"' "$bin" "$tmp/edk.package" "$tmp/edkk"
# real packages: remove a resource and add it back, everything else byte-exact
if [ -f "$corpus/sims3/EWBreastfeed.package" ]; then
    for p in "$corpus/sims3/EWBreastfeed.package" "$corpus/sims2/teapot_model.package"; do
        n=$(basename "$p" .package)
        cp "$p" "$tmp/edc-$n.package"; chmod u+w "$tmp/edc-$n.package" # the corpus is read-only: edits refuse it
        "$bin" extract "$tmp/edc-$n.package" -o "$tmp/edc-$n-before" >/dev/null
        f=$(ls "$tmp/edc-$n-before" | grep -v '^0166038C' | tail -1)
        key=$(echo "$f" | sed 's/\..*//; s/_/:/g')
        expect "corpus-edit-remove-$n" 0 'removed 1 resource' "$bin" remove "$tmp/edc-$n.package" "$key"
        expect "corpus-edit-add-$n" 0 'added 1 resource' "$bin" add "$tmp/edc-$n.package" "$tmp/edc-$n-before/$f"
        "$bin" extract "$tmp/edc-$n.package" -o "$tmp/edc-$n-after" >/dev/null
        expect "corpus-edit-same-$n" 0 '' diff -r -x '0166038C_*' "$tmp/edc-$n-before" "$tmp/edc-$n-after"
        expect "corpus-edit-check-$n" 0 ' 0 failed' "$bin" check "$tmp/edc-$n.package"
    done
fi
