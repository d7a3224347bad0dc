#!/usr/bin/env bash
# Windows: `make CROSS=x86_64-w64-mingw32- all tests` (mingw-w64) builds
# plumbob.exe and plumbob-tests.exe; wine runs them.
#   - the unit tests give the pinned digests (the summary line is repeated
#     for the matrix table);
#   - the tool, given Windows paths (backslashes, a drive letter), writes the
#     same bytes as the Linux tool (demo, pack, gmdc export) and prints the
#     same values (clip sample, PACKAGE@KEY), and replaces an existing output;
#   - CRLF text: a Smooth Jazz script and a rig list saved with Windows line
#     ends give the same bytes as with LF, on Windows and on Linux.
# Usage: tests/windows-tests.sh   (prints `N passed, N failed`; needs the
# Linux tool in build/, which it builds when missing)
set -u
cd "$(dirname "$0")/.."
triple=x86_64-w64-mingw32
wb=build/$triple
b=build/windows-tests
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -15 | sed 's/^/   | /'; }
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine || true)
if ! command -v $triple-gcc >/dev/null 2>&1 || [ -z "$wine" ]; then
    echo "FAIL needs $triple-gcc and wine: apt-get install -y gcc-mingw-w64-x86-64 wine wine64"
    echo "0 passed, 1 failed"
    exit 1
fi
export WINEPREFIX=$PWD/build/wine-prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
# One wineserver for the whole run (-p: it stays until -k).  Left to itself
# it exits a few seconds after its last client, and a client that connects
# as it exits dies with "wine client error: recvmsg: Connection reset by
# peer": a clean-clone CI run failed `demo --out` so, once.
ws=$(dirname "$wine")/wineserver64
[ -x "$ws" ] || ws=$(dirname "$wine")/wineserver
[ -x "$ws" ] || ws=$(command -v wineserver || true)
mkdir -p "$WINEPREFIX"
if [ -n "$ws" ]; then
    "$ws" -p >/dev/null 2>&1 </dev/null
    trap '"$ws" -k >/dev/null 2>&1' EXIT
fi
rm -rf "$b"
mkdir -p "$b"
winpath() { tr '/' '\\' <<<"$1"; } # a relative path, written the Windows way
W() { "$wine" "$wb/plumbob.exe" "$@"; }
crlf() { sed 's/\r*$/\r/' "$1" >"$2"; }
nocr() { tr -d '\r'; }

if make --no-print-directory -j"${JOBS:-2}" CROSS=$triple- WERROR=-Werror all tests >"$b/build.log" 2>&1 &&
   [ -f "$wb/plumbob.exe" ] && [ -f "$wb/plumbob-tests.exe" ]; then
    ok "make CROSS=$triple- all tests: plumbob.exe and plumbob-tests.exe"
else
    bad "make CROSS=$triple- all tests" "$(tail -20 "$b/build.log")"
    echo "$pass passed, $fail failed"
    exit 1
fi
if [ ! -x build/plumbob ] && ! make --no-print-directory -j"${JOBS:-2}" all >"$b/linux-build.log" 2>&1; then
    bad "the Linux tool for reference values" "$(tail -20 "$b/linux-build.log")"
fi
L=build/plumbob

# the unit tests under wine (the first run also makes the wine prefix)
start=$(date +%s)
"$wine" "$wb/plumbob-tests.exe" >"$b/units.log" 2>&1
rc=$?
line=$(grep -a '^summary:' "$b/units.log" | nocr | tail -1)
if [ $rc = 0 ] && grep -q ' failed=0 ' <<<"$line"; then
    ok "plumbob-tests.exe under wine ($(($(date +%s) - start)) s): ${line#summary: }"
else
    bad "plumbob-tests.exe under wine (exit $rc)" "$(grep -aE '^(FAIL|  FAIL|summary)' "$b/units.log"; tail -5 "$b/units.log")"
fi

# --- the tool with Windows paths --------------------------------------------------
v=$(W --version 2>&1 | nocr)
[ "$v" = "$($L --version)" ] && ok "plumbob.exe --version: $v" || bad "plumbob.exe --version" "$v"
$L demo --out "$b/linux" >/dev/null 2>&1
if W demo --out "$(winpath "$b/win")" >"$b/demo.log" 2>&1; then
    diffs=""
    while IFS= read -r f; do cmp -s "$b/linux/$f" "$b/win/$f" || diffs="$diffs $f"; done < <(cd "$b/linux" && find . -type f | sed 's|^\./||' | sort)
    [ -z "$diffs" ] && ok "demo --out $(winpath "$b/win"): the same $(cd "$b/linux" && find . -type f | wc -l) files (subfolders too), byte for byte, as on Linux" ||
        bad "demo with a Windows path: files differ from Linux:$diffs"
else
    bad "demo --out $(winpath "$b/win")" "$(cat "$b/demo.log")"
fi
W demo --out "$(winpath "$b/win")" >"$b/demo2.log" 2>&1 && ok "demo again into the same folder: existing outputs are replaced" ||
    bad "demo again into the same folder (replacing outputs)" "$(cat "$b/demo2.log")"

clip=$(cd "$b/linux" && ls *.clip | head -1)
gmdc=$(cd "$b/linux" && ls *.gmdc | head -1)
want=$($L clip sample "$b/linux/$clip" --time 1.25 | tail -n +2)
got=$(W clip sample "$(winpath "$b/win/$clip")" --time 1.25 2>&1 | nocr | tail -n +2)
[ -n "$want" ] && [ "$got" = "$want" ] && ok "clip sample $(winpath "$b/win/$clip"): the Linux values" || bad "clip sample with a Windows path" "$(diff <(echo "$want") <(echo "$got"))"
drive="Z:$(winpath "$PWD/$b/win/$clip")"
got=$(W clip sample "$drive" --time 1.25 2>&1 | nocr | tail -n +2)
[ "$got" = "$want" ] && ok "clip sample with a drive letter ($drive)" || bad "clip sample with a drive letter" "$got"

# pack with backslash paths: the same package as Linux packs
names=("$clip" "$gmdc" $(cd "$b/linux" && ls *.anim *.jazz))
(cd "$b/linux" && ../../../$L pack --force -o ../linux.package "${names[@]}") >"$b/pack-linux.log" 2>&1
files=()
for f in "${names[@]}"; do files+=("$(winpath "$b/win/$f")"); done
if W pack --force -o "$(winpath "$b/win.package")" "${files[@]}" >"$b/pack.log" 2>&1 && cmp -s "$b/linux.package" "$b/win.package"; then
    ok "pack -o $(winpath "$b/win.package") $(winpath "$b/win")\\...: the Linux package, byte for byte"
else
    bad "pack with Windows paths" "$(cat "$b/pack.log"; cmp "$b/linux.package" "$b/win.package" 2>&1)"
fi
inst=${clip##*_}
inst=${inst%.clip}
want=$($L info "$b/linux.package@$inst" | sed 's/^[^@]*@//')
got=$(W info "$(winpath "$b/win.package")@$inst" 2>&1 | nocr | sed 's/^[^@]*@//')
[ -n "$want" ] && [ "$got" = "$want" ] && ok "info $(winpath "$b/win.package")@$inst (PACKAGE@KEY with a Windows path)" ||
    bad "info PACKAGE@KEY with a Windows path" "$(diff <(echo "$want") <(echo "$got"))"

# --- CRLF text ------------------------------------------------------------------------
jazz=$(cd "$b/linux" && ls *.jazz | head -1)
$L jazz decompile "$b/linux/$jazz" -o "$b/machine.jazz" >/dev/null 2>&1
crlf "$b/machine.jazz" "$b/machine-crlf.jazz"
if grep -q $'\r$' "$b/machine-crlf.jazz" && W jazz compile "$(winpath "$b/machine-crlf.jazz")" -o "$(winpath "$b/win-crlf.jazzbin")" >"$b/jazz.log" 2>&1 &&
   cmp -s "$b/win-crlf.jazzbin" "$b/linux/$jazz"; then
    ok "jazz compile of a CRLF Smooth Jazz script on Windows: the original resource, byte for byte"
else
    bad "jazz compile of a CRLF script on Windows" "$(cat "$b/jazz.log")"
fi
if $L jazz compile "$b/machine-crlf.jazz" -o "$b/linux-crlf.jazzbin" >"$b/jazz-linux.log" 2>&1 && cmp -s "$b/linux-crlf.jazzbin" "$b/linux/$jazz"; then
    ok "jazz compile of the CRLF script on Linux: the same bytes"
else
    bad "jazz compile of the CRLF script on Linux" "$(cat "$b/jazz-linux.log")"
fi
for t in tests/smooth-jazz/*.jazz; do
    n=${t##*/}
    crlf "$t" "$b/crlf-$n"
    $L jazz compile "$t" -o "$b/lf-$n.bin" >/dev/null 2>&1
    if W jazz compile "$(winpath "$b/crlf-$n")" -o "$(winpath "$b/crlf-$n.bin")" >"$b/crlf-$n.log" 2>&1 && cmp -s "$b/lf-$n.bin" "$b/crlf-$n.bin"; then
        ok "tests/smooth-jazz/$n saved with CRLF compiles on Windows to the bytes of its LF text"
    else
        bad "tests/smooth-jazz/$n with CRLF on Windows" "$(cat "$b/crlf-$n.log")"
    fi
done
crlf "$b/linux/rig.txt" "$b/rig-crlf.txt"
$L gmdc export "$b/linux/$gmdc" --rig "$b/linux/rig.txt" -o "$b/linux.glb" >/dev/null 2>&1
if W gmdc export "$(winpath "$b/win/$gmdc")" --rig "$(winpath "$b/rig-crlf.txt")" -o "$(winpath "$b/win.glb")" >"$b/glb.log" 2>&1 &&
   [ -s "$b/linux.glb" ] && cmp -s "$b/linux.glb" "$b/win.glb"; then
    ok "gmdc export with a CRLF rig list on Windows: the Linux GLB, byte for byte"
else
    bad "gmdc export with a CRLF rig list on Windows" "$(cat "$b/glb.log")"
fi

[ -n "$line" ] && echo "$line" | sed 's/target=x86_64/target=windows/'
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
