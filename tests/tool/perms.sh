# How writes treat the file they replace (docs/TOOL.md, "Writing files"): an
# edited package keeps its mode and owner; a read-only one (no write bit, checked
# as such: these tests may run as root, whom EACCES never stops) is refused with
# nothing written unless --force; through a symbolic link the real file is
# replaced and the link stays; a hard-linked one is refused, or with --force
# written in place so that every name sees the edit; a signal removes the
# temporary file; and pack/add/replace take only TYPE_GROUP_INSTANCE.ext names,
# not the backups and copies beside them.  Sourced by tool-tests.sh.
mkdir -p "$tmp/pm"
"$bin" demo --write "$tmp/pm/d" >/dev/null
pm_clip=$(ls "$tmp"/pm/d/6B20C4F3_*.clip) pm_jazz=$(ls "$tmp"/pm/d/02D5DF13_*.jazz)
pm_key=$(basename "$pm_clip" .clip); pm_key=${pm_key//_/:}
"$bin" pack -o "$tmp/pm/base.package" "$pm_jazz" >/dev/null
"$bin" clip export "$pm_clip" -o "$tmp/pm/c.glb" >/dev/null 2>&1
pm_fresh() { rm -f "$1"; cp "$tmp/pm/base.package" "$1"; chmod 644 "$1"; }
# no temporary file of any write is left in DIR: prints "N temps"
pm_temps() { echo "$(find "$1" -name '*.tmp-*' | wc -l) temps"; }

# --- modes: an edit keeps the package's; a new output gets 0666 less the umask
expect perms-new-umask 0 '^644$' bash -c 'umask 022 && "$0" pack -o "$1" "$2" >/dev/null && stat -c %a "$1"' \
    "$bin" "$tmp/pm/new.package" "$pm_jazz"
for m in 600 640 664 755; do
    pm_fresh "$tmp/pm/m$m.package"; chmod "$m" "$tmp/pm/m$m.package"
    expect "perms-kept-$m-add" 0 "^$m$" bash -c '"$0" add "$1" "$2" >/dev/null && stat -c %a "$1"' "$bin" "$tmp/pm/m$m.package" "$pm_clip"
    expect "perms-kept-$m-remove" 0 "^$m$" bash -c '"$0" remove "$1" "$2" >/dev/null && stat -c %a "$1"' "$bin" "$tmp/pm/m$m.package" "$pm_key"
done
pm_fresh "$tmp/pm/mpack.package"; chmod 600 "$tmp/pm/mpack.package"
expect perms-kept-pack-output 0 '^600$' bash -c '"$0" pack -o "$1" "$2" >/dev/null && stat -c %a "$1"' "$bin" "$tmp/pm/mpack.package" "$pm_clip"
# owner and group: kept when the user may set them (root may)
if [ "$(id -u)" = 0 ]; then
    pm_fresh "$tmp/pm/own.package"; chown 12345:23456 "$tmp/pm/own.package"
    expect perms-owner-kept 0 '^12345:23456 644$' bash -c '"$0" add "$1" "$2" >/dev/null && stat -c "%u:%g %a" "$1"' \
        "$bin" "$tmp/pm/own.package" "$pm_clip"
fi

# --- read-only: refused, byte for byte as it was, mode and nothing beside it
pm_fresh "$tmp/pm/ro.package"; chmod 444 "$tmp/pm/ro.package"; cp "$tmp/pm/ro.package" "$tmp/pm/ro.keep"
pm_ro="is read-only \(mode 0444\); refusing to edit it \(--force overrides the write bit"
expect perms-ro-add 1 "ro.package: $pm_ro" "$bin" add "$tmp/pm/ro.package" "$pm_clip"
expect perms-ro-replace 1 "ro.package: $pm_ro" "$bin" replace "$tmp/pm/ro.package" "$pm_jazz"
expect perms-ro-remove 1 "ro.package: $pm_ro" "$bin" remove "$tmp/pm/ro.package" "$(basename "$pm_jazz" .jazz | cut -d_ -f3)"
expect perms-ro-clip-import 1 "clip import: .*ro.package: $pm_ro" "$bin" clip import "$tmp/pm/c.glb" --package "$tmp/pm/ro.package"
expect perms-ro-jazz-compile 1 "jazz compile: .*ro.package: $pm_ro" \
    "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/pm/ro.package"
# said before the work: jazz compile -o OUT --package RO writes neither
expect perms-ro-jazz-compile-first 1 "ro.package: $pm_ro" \
    "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz -o "$tmp/pm/ro-x.jazz" --package "$tmp/pm/ro.package"
expect perms-ro-jazz-compile-no-output 1 '' test -e "$tmp/pm/ro-x.jazz"
# likewise clip import -o OUT --package RO: refused before OUT is written
expect perms-ro-clip-import-first 1 "clip import: .*ro.package: $pm_ro" \
    "$bin" clip import "$tmp/pm/c.glb" -o "$tmp/pm/ro-x.clip" --package "$tmp/pm/ro.package"
expect perms-ro-clip-import-no-output 0 '^absent$' sh -c "test -e \"$tmp/pm/ro-x.clip\" || echo absent"
expect perms-ro-pack-output 1 'ro.package: is read-only \(mode 0444\); refusing to replace it' \
    "$bin" pack -o "$tmp/pm/ro.package" "$pm_clip"
expect perms-ro-kept 0 '' cmp "$tmp/pm/ro.keep" "$tmp/pm/ro.package"
expect perms-ro-mode-kept 0 '^444$' stat -c %a "$tmp/pm/ro.package"
expect perms-ro-no-temp 0 '^0 temps$' pm_temps "$tmp/pm"
# any output, not only packages: an extracted file marked read-only, an export
mkdir -p "$tmp/pm/x"; "$bin" extract "$tmp/pm/base.package" -o "$tmp/pm/x" >/dev/null
chmod 444 "$tmp"/pm/x/*.jazz; echo junk > "$tmp/pm/ro.glb"; chmod 444 "$tmp/pm/ro.glb"
expect perms-ro-extract 1 '\.jazz: is read-only \(mode 0444\); refusing to replace it' "$bin" extract "$tmp/pm/base.package" -o "$tmp/pm/x"
expect perms-ro-export 1 'ro.glb: is read-only \(mode 0444\); refusing to replace it' "$bin" clip export "$pm_clip" -o "$tmp/pm/ro.glb"
expect perms-ro-export-kept 0 '^junk$' cat "$tmp/pm/ro.glb"
# 0555 has no write bit either; --force edits, and the package stays read-only
chmod 555 "$tmp/pm/ro.package"
expect perms-ro-555 1 'is read-only \(mode 0555\)' "$bin" add "$tmp/pm/ro.package" "$pm_clip"
chmod 444 "$tmp/pm/ro.package"
expect perms-ro-force 0 'added 1 resource' "$bin" add --force "$tmp/pm/ro.package" "$pm_clip"
expect perms-ro-force-mode 0 '^444$' stat -c %a "$tmp/pm/ro.package"
expect perms-ro-force-edited 0 'CLIP' "$bin" ls "$tmp/pm/ro.package"
# a package another user owns and this one may not write (access(W_OK) fails):
# refused too; with --force it is replaced, the file then the user's own
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    mkdir -p "$tmp/pm/nb"; chmod 777 "$tmp/pm/nb"; chmod 711 "$tmp" "$tmp/pm"
    pm_fresh "$tmp/pm/nb/root.package"
    pm_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
    expect perms-other-user 1 'root.package: is not writable by this user \(mode 0644\).*refusing to edit it' \
        pm_nobody "$bin" add "$tmp/pm/nb/root.package" "$pm_clip"
    expect perms-other-user-kept 0 '' cmp "$tmp/pm/base.package" "$tmp/pm/nb/root.package"
    expect perms-other-user-force 0 'added 1 resource' pm_nobody "$bin" add --force "$tmp/pm/nb/root.package" "$pm_clip"
    expect perms-other-user-owner 0 "^$(id -u nobody) 644$" stat -c '%u %a' "$tmp/pm/nb/root.package"
    chmod 700 "$tmp"
fi

# --- symbolic links: the file the link leads to is replaced, the link stays
mkdir -p "$tmp/pm/mods" "$tmp/pm/links"
pm_fresh "$tmp/pm/mods/real.package"; chmod 640 "$tmp/pm/mods/real.package"
ln -sfn ../mods/real.package "$tmp/pm/links/rel.package"      # relative, from another directory
ln -sfn "$tmp/pm/links/rel.package" "$tmp/pm/links/chain.package" # a link to a link
expect perms-link-add 0 'added 1 resource' "$bin" add "$tmp/pm/links/chain.package" "$pm_clip" --name pm_walk
expect perms-link-still-link 0 '^../mods/real.package$' readlink "$tmp/pm/links/rel.package"
expect perms-link-chain-still-link 0 "^$tmp/pm/links/rel.package\$" readlink "$tmp/pm/links/chain.package"
expect perms-link-target-edited 0 'CLIP .* pm_walk$' "$bin" ls "$tmp/pm/mods/real.package"
expect perms-link-target-mode 0 '^640$' stat -c %a "$tmp/pm/mods/real.package"
expect perms-link-remove 0 'removed 1 resource' "$bin" remove "$tmp/pm/links/rel.package" pm_walk
expect perms-link-target-removed 1 '' sh -c '"$0" ls "$1" | grep -q CLIP' "$bin" "$tmp/pm/mods/real.package"
expect perms-link-is-link 0 '' test -L "$tmp/pm/links/rel.package"
expect perms-link-no-temp 0 '^0 temps$' pm_temps "$tmp/pm"
# a read-only target through a link is refused like the file itself
chmod 444 "$tmp/pm/mods/real.package"
expect perms-link-ro 1 'rel.package: is read-only \(mode 0444\)' "$bin" add "$tmp/pm/links/rel.package" "$pm_clip"
# a dangling link: the output is made where it points
ln -sfn ../mods/made.package "$tmp/pm/links/dangling.package"
expect perms-link-dangling 0 'packed 1 resources' "$bin" pack -o "$tmp/pm/links/dangling.package" "$pm_clip"
expect perms-link-dangling-made 0 '' test -f "$tmp/pm/mods/made.package" -a -L "$tmp/pm/links/dangling.package"
# not a regular file (a FIFO here; /dev/null as root would be replaced by a rename)
mkfifo "$tmp/pm/fifo.package"
expect perms-not-regular 1 'fifo.package: is not a regular file' "$bin" pack -o "$tmp/pm/fifo.package" "$pm_clip"
expect perms-not-regular-kept 0 '' test -p "$tmp/pm/fifo.package"

# --- hard links: refused (replacing would split them); --force writes in place
pm_fresh "$tmp/pm/hard1.package"; ln -f "$tmp/pm/hard1.package" "$tmp/pm/hard2.package"
expect perms-hardlink-refused 1 'hard1.package: has 2 hard links; refusing to edit it' "$bin" add "$tmp/pm/hard1.package" "$pm_clip"
expect perms-hardlink-kept 0 '' cmp "$tmp/pm/base.package" "$tmp/pm/hard2.package"
expect perms-hardlink-force 0 'added 1 resource' "$bin" add --force "$tmp/pm/hard1.package" "$pm_clip" --name pm_hard
expect perms-hardlink-still-one 0 '^2 yes$' bash -c 'echo "$(stat -c %h "$0") $([ "$0" -ef "$1" ] && echo yes)"' \
    "$tmp/pm/hard1.package" "$tmp/pm/hard2.package"
expect perms-hardlink-other-name 0 'CLIP .* pm_hard$' "$bin" ls "$tmp/pm/hard2.package"
expect perms-hardlink-check 0 ' 0 failed' "$bin" check "$tmp/pm/hard2.package"
# shorter than before: the shared file is cut to the new size
pm_size=$(stat -c %s "$tmp/pm/hard1.package")
expect perms-hardlink-shrink 0 'removed 1 resource' "$bin" remove --force "$tmp/pm/hard2.package" pm_hard
expect perms-hardlink-shrunk 0 ' 0 failed' bash -c '[ "$(stat -c %s "$0")" -lt "$1" ] && "$2" check "$0"' \
    "$tmp/pm/hard1.package" "$pm_size" "$bin"
expect perms-hardlink-no-temp 0 '^0 temps$' pm_temps "$tmp/pm"

# --- signals: Ctrl-C, kill and a closed terminal remove the temporary file and
# leave the package as it was.  PLUMBOB_TEST_PAUSE_BEFORE_RENAME=SECONDS (for
# tests only) makes the tool sleep once the temporary file is complete, before
# it replaces the package; env --default-signal undoes the SIGINT-ignored that a
# script's background job starts with (the tool leaves an ignored signal ignored).
pm_signal() { # SIG DIR command...: prints "exit N, M temps"
    local sig=$1 dir=$2 pid i=0 rc; shift 2
    PLUMBOB_TEST_PAUSE_BEFORE_RENAME=60 env --default-signal="$sig" "$@" >/dev/null 2>&1 &
    pid=$!
    while [ $i -lt 100 ] && [ "$(pm_temps "$dir")" = "0 temps" ]; do sleep 0.1; i=$((i + 1)); done
    [ $i -lt 100 ] || echo "no temporary file appeared in $dir"
    kill -"$sig" "$pid"; wait "$pid"; rc=$?
    echo "exit $rc, $(pm_temps "$dir")"
}
mkdir -p "$tmp/pm/sig"; pm_fresh "$tmp/pm/sig/s.package"
"$bin" add "$tmp/pm/sig/s.package" "$pm_clip" >/dev/null; cp "$tmp/pm/sig/s.package" "$tmp/pm/s.keep"
mkdir -p "$tmp/pm/r"; head -c 500 "$pm_clip" > "$tmp/pm/r/$(basename "$pm_clip")"
expect perms-sigint-replace 0 '^exit 130, 0 temps$' pm_signal INT "$tmp/pm/sig" "$bin" replace "$tmp/pm/sig/s.package" "$tmp/pm/r/$(basename "$pm_clip")"
expect perms-sigterm-remove 0 '^exit 143, 0 temps$' pm_signal TERM "$tmp/pm/sig" "$bin" remove "$tmp/pm/sig/s.package" "$pm_key"
cp "$pm_jazz" "$tmp/pm/r/02D5DF13_00000000_0000000000000002.jazz"
expect perms-sighup-add 0 '^exit 129, 0 temps$' pm_signal HUP "$tmp/pm/sig" "$bin" add "$tmp/pm/sig/s.package" "$tmp/pm/r/02D5DF13_00000000_0000000000000002.jazz"
expect perms-sigint-clip-import 0 '^exit 130, 0 temps$' pm_signal INT "$tmp/pm/sig" "$bin" clip import "$tmp/pm/c.glb" --package "$tmp/pm/sig/s.package"
expect perms-sigint-jazz-compile 0 '^exit 130, 0 temps$' pm_signal INT "$tmp/pm/sig" \
    "$bin" jazz compile tests/smooth-jazz/alarmclock.jazz --package "$tmp/pm/sig/s.package"
expect perms-sigint-pack 0 '^exit 130, 0 temps$' pm_signal INT "$tmp/pm/sig" "$bin" pack -o "$tmp/pm/sig/s.package" "$pm_jazz"
expect perms-signals-kept 0 '' cmp "$tmp/pm/s.keep" "$tmp/pm/sig/s.package"
# through a link, the temporary file is beside the target, and removed there
ln -sfn sig/s.package "$tmp/pm/slink.package"
expect perms-sigint-link 0 '^exit 130, 0 temps$' pm_signal INT "$tmp/pm/sig" "$bin" remove "$tmp/pm/slink.package" "$pm_key"
expect perms-sigint-link-kept 0 '' cmp "$tmp/pm/s.keep" "$tmp/pm/sig/s.package"
# a signal ignored when the tool starts stays ignored (nohup; here the SIGINT a
# script's background job ignores): the edit goes on and completes
pm_ignored() { # DIR command...: prints "exit N, M temps"
    local dir=$1 pid i=0; shift
    PLUMBOB_TEST_PAUSE_BEFORE_RENAME=2 "$@" >/dev/null 2>&1 &
    pid=$!
    while [ $i -lt 100 ] && [ "$(pm_temps "$dir")" = "0 temps" ]; do sleep 0.1; i=$((i + 1)); done
    kill -INT "$pid"; wait "$pid"
    echo "exit $?, $(pm_temps "$dir")"
}
expect perms-sigint-ignored 0 '^exit 0, 0 temps$' pm_ignored "$tmp/pm/sig" "$bin" remove "$tmp/pm/sig/s.package" "$pm_key"
expect perms-sigint-ignored-done 1 '' sh -c '"$0" ls "$1" | grep -q CLIP' "$bin" "$tmp/pm/sig/s.package"

# --- names: only TYPE_GROUP_INSTANCE.ext (or .N.ext, extract's repeated key);
# the backups, temporary files and copies that sit beside resources are refused
mkdir -p "$tmp/pm/n"; pm_base=$(basename "$pm_clip" .clip)
for suffix in '.clip.tmp-Ab12Cd' '.clip~' '.clip.bak' ' - Copy.clip' ' (2).clip' '.bak' '.clip.orig' 'x.clip' '.'; do
    cp "$pm_clip" "$tmp/pm/n/$pm_base$suffix"
done
pm_bad="name is not TYPE_GROUP_INSTANCE.ext: '.*' after the key is no resource file's \(a backup, a temporary file or a copy\?\)"
i=0
for suffix in '.clip.tmp-Ab12Cd' '.clip~' '.clip.bak' ' - Copy.clip' ' (2).clip' '.bak' '.clip.orig' 'x.clip' '.'; do
    i=$((i + 1))
    expect "perms-name-pack-$i" 2 "$pm_bad" "$bin" pack -o "$tmp/pm/n.package" "$tmp/pm/n/$pm_base$suffix"
done
expect perms-name-pack-none 1 '' test -e "$tmp/pm/n.package"
pm_fresh "$tmp/pm/n1.package"; "$bin" add "$tmp/pm/n1.package" "$pm_clip" >/dev/null; cp "$tmp/pm/n1.package" "$tmp/pm/n1.keep"
expect perms-name-replace-tmp 2 "$pm_bad" "$bin" replace "$tmp/pm/n1.package" "$tmp/pm/n/$pm_base.clip.tmp-Ab12Cd"
expect perms-name-replace-tilde 2 "$pm_bad" "$bin" replace "$tmp/pm/n1.package" "$tmp/pm/n/$pm_base.clip~"
expect perms-name-replace-copy 2 "$pm_bad" "$bin" replace "$tmp/pm/n1.package" "$tmp/pm/n/$pm_base - Copy.clip"
expect perms-name-add-bak 2 "$pm_bad" "$bin" add "$tmp/pm/n1.package" "$tmp/pm/n/$pm_base.clip.bak"
expect perms-name-add-numbered 2 "$pm_bad" "$bin" add "$tmp/pm/n1.package" "$tmp/pm/n/$pm_base (2).clip"
expect perms-name-refusals-kept 0 '' cmp "$tmp/pm/n1.keep" "$tmp/pm/n1.package"
# a folder of resources with a backup beside one: pack names it and packs nothing
expect perms-name-glob 2 "$pm_bad" sh -c '"$0" pack -o "$1" "$2"/*' "$bin" "$tmp/pm/n2.package" "$tmp/pm/n"
# what extract writes still packs: .ext, .N.ext, lowercase hex, no extension
cp "$pm_clip" "$tmp/pm/n/$(echo "$pm_base" | tr 'A-F' 'a-f').clip"
cp "$pm_jazz" "$tmp/pm/n/$(basename "$pm_jazz" .jazz).2.jazz"
cp "$pm_jazz" "$tmp/pm/n/02D5DF13_00000000_0000000000000001"
expect perms-name-good 0 'packed 3 resources' "$bin" pack -o "$tmp/pm/n3.package" \
    "$tmp/pm/n/$(echo "$pm_base" | tr 'A-F' 'a-f').clip" "$tmp/pm/n/$(basename "$pm_jazz" .jazz).2.jazz" "$tmp/pm/n/02D5DF13_00000000_0000000000000001"
expect perms-name-not-key 2 'notakey.clip: name is not TYPE_GROUP_INSTANCE.ext \(8, 8 and 16 hex digits\)$' \
    bash -c 'cp "$1" "$2" && "$0" pack -o "$3" "$2"' "$bin" "$pm_clip" "$tmp/pm/notakey.clip" "$tmp/pm/n4.package"
