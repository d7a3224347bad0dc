# Issue 47's smaller items, as the tool shows them: the game named from a
# package header only when the version and index version are what The Sims
# 2 or 3 write (docs/TOOL.md, "info"); `extract` of an empty package says so
# and succeeds; `info` on a Granny 2 rig (a known format without a decoder)
# exits 0; a KEY name table is named "key" and checked like every format.
# Sourced by tool-tests.sh.
mkdir -p "$tmp/sm"
sm_le32() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))\\x$(printf %02x $((($1 >> 16) & 255)))\\x$(printf %02x $((($1 >> 24) & 255)))"; }
# an empty package's 96-byte header: major, minor, index major (0x20), index minor (0x3C)
sm_dbpf() {
    {
        printf 'DBPF'; sm_le32 "$1"; sm_le32 "$2"; head -c 20 /dev/zero; sm_le32 "$3"
        head -c 24 /dev/zero; sm_le32 "$4"; head -c 32 /dev/zero
    } > "$5"
}
sm_dbpf 1 1 7 2 "$tmp/sm/ts2.package"
sm_dbpf 1 0 7 1 "$tmp/sm/ts2-10.package"
sm_dbpf 1 0 7 0 "$tmp/sm/sc4.package"
sm_dbpf 2 0 0 3 "$tmp/sm/ts3.package"
sm_dbpf 2 1 0 3 "$tmp/sm/ts4.package"
expect sm-size 0 '^96$' bash -c 'wc -c < "$0"' "$tmp/sm/ts4.package"
expect sm-game-sims2 0 'DBPF 1.1 package \(The Sims 2\), 96 bytes' "$bin" info "$tmp/sm/ts2.package"
expect sm-game-sims2-10 0 'DBPF 1.0 package \(The Sims 2\)' "$bin" info "$tmp/sm/ts2-10.package"
expect sm-game-sc4 0 'DBPF 1.0 package \(unknown game\)' "$bin" info "$tmp/sm/sc4.package"
expect sm-game-sims3 0 'DBPF 2.0 package \(The Sims 3\)' "$bin" info "$tmp/sm/ts3.package"
expect sm-game-sims4 0 'DBPF 2.1 package \(unknown game\)' "$bin" info "$tmp/sm/ts4.package"
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
    expect sm-game-corpus-sims2 0 '\(The Sims 2\)' "$bin" info "$corpus/sims2/animation.package"
    expect sm-game-corpus-sims3 0 '\(The Sims 3\)' "$bin" info "$corpus/sims3/WarriorCats.package"
fi
# extract of an empty package: said, nothing written, exit 0 (nothing failed)
expect sm-extract-empty 0 'ts3.package: the package is empty: no resources to extract, nothing written' \
    "$bin" extract "$tmp/sm/ts3.package" -o "$tmp/sm/x"
expect sm-extract-empty-nodir 0 '^none$' bash -c '[ -e "$0" ] && echo made || echo none' "$tmp/sm/x"
expect sm-extract-empty-filter 0 'the package is empty' "$bin" extract "$tmp/sm/ts2.package" --type CLIP -o "$tmp/sm/x"
expect sm-extract-empty-two 0 'the packages are empty' "$bin" extract "$tmp/sm/ts2.package" "$tmp/sm/ts3.package" -o "$tmp/sm/x2"
# a Granny 2 rig: known, no decoder: exit 0 from info, the refusal from rig dump
{ sm_le32 $((0x8EAF13DE)); sm_le32 0; head -c 40 /dev/zero; } > "$tmp/sm/granny.rig"
expect sm-info-granny 0 'granny.rig: Sims 3 rig in the Granny 2 format, 48 bytes \(this build has no decoder for it\)' \
    "$bin" info "$tmp/sm/granny.rig"
expect sm-dump-granny 1 'a Granny 2 rig' "$bin" rig dump "$tmp/sm/granny.rig"
# KEY name tables: identified as such, decoded and written again by the core
printf '\001\000\000\000\002\000\000\000\001\000\000\000\000\000\000\000\002\000\000\000ab\002\000\000\000\000\000\000\000\000\000\000\000' \
    > "$tmp/sm/names.key"
expect sm-key-info 0 'names.key: KEY \(type 0x0166038C\) name table, version 1, 2 names, 34 bytes' "$bin" info "$tmp/sm/names.key"
expect sm-key-check 0 'ok: round trip identical \(34 bytes\)' "$bin" check "$tmp/sm/names.key"
printf 'x' >> "$tmp/sm/names.key"
expect sm-key-trailing 1 '' "$bin" check "$tmp/sm/names.key"
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
    # every resource decoded is round-tripped: the KEY table too
    expect sm-key-check-corpus 0 'WarriorCats.package: 38 resources: 2 decoded, 2 round-tripped identical' \
        "$bin" check "$corpus/sims3/WarriorCats.package"
fi
true
