# Jazz track masks (type 0x033260E3, "TkMk"): named by `info` as a file and
# in a package `pack` built, round-tripped by `check` through the core's
# writer byte for byte, listed by `ls` as TKMK and extracted as .tkmk.  No
# real mask is in the corpus: the mask is built here (version 0x201, three
# weights: 1, 0, 0.5).  Sourced by tool-tests.sh.
mkdir -p "$tmp/tk"
tk_mask="$tmp/tk/033260E3_00000000_0000000000000001.tkmk"
{
    printf 'TkMk\001\002\000\000'; head -c 16 /dev/zero; printf '\000\000\100\077'; head -c 28 /dev/zero
    printf '\003\000\000\000\000\000\200\077\000\000\000\000\000\000\000\077'
} > "$tk_mask"
expect tk-info 0 '0000000000000001.tkmk: TKMK \(type 0x033260E3\) track mask, version 0x201, 3 bone weights \(2 below 1\), facial weight 0.75, 72 bytes' \
    "$bin" info "$tk_mask"
expect tk-check 0 'ok: round trip identical \(72 bytes\)' "$bin" check "$tk_mask"
expect tk-pack 0 'packed 1 resources into .*tk.package \(DBPF 2.0' "$bin" pack -o "$tmp/tk/tk.package" "$tk_mask"
expect tk-ls 0 '033260E3 TKMK  00000000 0000000000000001 .* 72 ' "$bin" ls "$tmp/tk/tk.package"
expect tk-info-package 0 '1 x 033260E3 TKMK' "$bin" info "$tmp/tk/tk.package"
expect tk-info-resource 0 '@033260E3:00000000:0000000000000001: TKMK \(type 0x033260E3\) track mask, version 0x201, 3 bone weights' \
    "$bin" info "$tmp/tk/tk.package@1"
expect tk-check-package 0 'tk.package: 1 resources: 1 decoded, 1 round-tripped identical, 0 not supported, 0 failed' \
    "$bin" check "$tmp/tk/tk.package"
expect tk-extract 0 'extracted 1 of 1 resources' "$bin" extract "$tmp/tk/tk.package" -o "$tmp/tk/x"
expect tk-extract-same 0 '' cmp "$tk_mask" "$tmp/tk/x/033260E3_00000000_0000000000000001.tkmk"
# version 0x200 and a cut mask: named, and check says why it fails
{ printf 'TkMk\000\002\000\000'; head -c 48 /dev/zero; printf '\000\000\000\000'; } > "$tmp/tk/empty.tkmk"
expect tk-info-200 0 'empty.tkmk: TKMK \(type 0x033260E3\) track mask, version 0x200, 0 bone weights \(0 below 1\), 60 bytes' \
    "$bin" info "$tmp/tk/empty.tkmk"
expect tk-check-200 0 'ok: round trip identical \(60 bytes\)' "$bin" check "$tmp/tk/empty.tkmk"
head -c 70 "$tk_mask" > "$tmp/tk/cut.tkmk"
expect tk-check-cut 1 'cut.tkmk: track-mask does not decode: truncated' "$bin" check "$tmp/tk/cut.tkmk"
true
