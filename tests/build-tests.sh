#!/usr/bin/env bash
# The build respects its host: CFLAGS, CPPFLAGS and LDFLAGS reach every
# compile and link line, warnings are errors only in the project's own test
# builds, header dependencies are tracked (a changed header rebuilds exactly
# what includes it), every exported symbol is prefixed plumbob_, and tools/
# keeps its layers (tests/tools-graph.sh), and the docs' examples compile and
# run (tests/docs-examples.sh).
# Usage: tests/build-tests.sh   (prints `N passed, N failed`)
set -u
cd "$(dirname "$0")/.."
b=build/flags-probe
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -5; }

dry=$(make -n -B BUILD=$b CFLAGS=-DPB_MARK_CFLAGS CPPFLAGS=-DPB_MARK_CPPFLAGS LDFLAGS=-Wl,-O1 all 2>&1)
compiles=$(grep -E ' -c [^ ]+\.c ' <<<"$dry")
n=$(grep -c . <<<"$compiles")
[ "$n" -gt 40 ] && ok "dry run lists $n compiles" || bad "dry run lists $n compiles" "$dry"
missing=$(grep -v -e '-DPB_MARK_CFLAGS' <<<"$compiles"; grep -v -e '-DPB_MARK_CPPFLAGS' <<<"$compiles")
[ -z "$missing" ] && ok "CFLAGS and CPPFLAGS on every compile" || bad "CFLAGS and CPPFLAGS on every compile" "$missing"
links=$(grep -E -- "-o $b/plumbob( |$)" <<<"$dry")
grep -q -e '-Wl,-O1' <<<"$links" && ok "LDFLAGS on the tool's link" || bad "LDFLAGS on the tool's link" "$links"
grep -q -e '-Werror' <<<"$dry" && bad "plain make has no -Werror" "$(grep -e -Werror <<<"$dry")" || ok "plain make has no -Werror"
make -n -B BUILD=$b tests 2>&1 | grep -q -e '-Werror' && ok "test builds keep -Werror" || bad "test builds keep -Werror"

# a real build with the user's flags, then what a changed header rebuilds
if make -j2 BUILD=$b CFLAGS="-O2 -g0" CPPFLAGS=-DPB_MARK_CPPFLAGS all >"$b.log" 2>&1 && "$b/plumbob" --version >/dev/null; then
    ok "make CFLAGS=\"-O2 -g0\" all builds a working tool"
else
    bad "make CFLAGS=\"-O2 -g0\" all builds a working tool" "$(tail -5 "$b.log")"
fi
uptodate=$(make -n BUILD=$b CFLAGS="-O2 -g0" CPPFLAGS=-DPB_MARK_CPPFLAGS all 2>&1 | grep -cE ' -c ')
[ "$uptodate" = 0 ] && ok "nothing rebuilds when nothing changed" || bad "nothing rebuilds when nothing changed ($uptodate compiles)"
whatif=$(make -n -W core/sims3/pb_jazz.h BUILD=$b CFLAGS="-O2 -g0" CPPFLAGS=-DPB_MARK_CPPFLAGS all 2>&1)
if grep -q 'core/sims3/jazz.c' <<<"$whatif" && ! grep -qE ' -c core/package/refpack.c' <<<"$whatif"; then
    ok "a changed core/sims3/pb_jazz.h rebuilds jazz.c, not refpack.c"
else
    bad "a changed core/sims3/pb_jazz.h rebuilds jazz.c, not refpack.c" "$(grep -E ' -c ' <<<"$whatif")"
fi
# flags are a dependency: the same build with other flags (here -Werror, as
# `make check` adds it) rebuilds the objects; back to the first flags, again
flagged=$(make -n BUILD=$b CFLAGS="-O2 -g0" CPPFLAGS=-DPB_MARK_CPPFLAGS WERROR=-Werror all 2>&1 | grep -cE ' -c ')
[ "$flagged" -gt 40 ] && ok "changed flags rebuild every object ($flagged compiles)" ||
    bad "changed flags rebuild every object ($flagged compiles)"
whatif=$(make -n -W tools/util/tool_buf.h BUILD=$b CFLAGS="-O2 -g0" CPPFLAGS=-DPB_MARK_CPPFLAGS all 2>&1)
if grep -q 'tools/gltf/gltf_write.c' <<<"$whatif" && ! grep -qE ' -c core/' <<<"$whatif"; then
    ok "a changed tools/util/tool_buf.h rebuilds tool code only"
else
    bad "a changed tools/util/tool_buf.h rebuilds tool code only" "$(grep -E ' -c ' <<<"$whatif")"
fi
# every symbol the library exports carries the plumbob_ prefix
others=$(nm -g --defined-only "$b/libplumbob.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | grep -v '^plumbob_')
count=$(nm -g --defined-only "$b/libplumbob.a" 2>/dev/null | awk 'NF == 3' | grep -c .)
if [ "$count" -gt 100 ] && [ -z "$others" ]; then
    ok "all $count exported symbols start with plumbob_"
else
    bad "all $count exported symbols start with plumbob_" "$others"
fi
# built the ordinary way (no -ffreestanding), the core still needs nothing
# from libc but the mem* routines: the compiler turns no loop into strlen & co.
needs=$(nm -u "$b/libplumbob.a" 2>/dev/null | awk '{ print $2 }' | grep -v '^plumbob_' | sort -u | grep -vxE 'memcpy|memset|memmove|memcmp')
[ -z "$needs" ] && ok "an ordinary build needs only mem* from libc" || bad "an ordinary build needs only mem* from libc" "$needs"
# one-way dependencies: the layer rules of docs/ARCHITECTURE.md (who may
# include whom in core/ and ports/, and call whom in the library), read
# from its table
layers=$(bash tests/layer-check.sh "$b/libplumbob.a" 2>&1)
[ $? = 0 ] && ok "every include of core/ and ports/ follows docs/ARCHITECTURE.md ${layers#layers: ok }" ||
    bad "the includes of core/ and ports/ follow docs/ARCHITECTURE.md" "$layers"
# tools/ is a client of the library: of core/ and ports/ it includes only the
# public header (the private byte helpers and kernels may change without notice)
inward=$(for f in $(find tools -name '*.[ch]'); do grep -o '#include "[^"]*"' "$f" | sed 's/#include "//; s/"$//' |
    while read -r h; do [ "$h" != plumbob.h ] && ls core/"$h" core/*/"$h" ports/"$h" ports/*/"$h" >/dev/null 2>&1 && echo "$f includes $h"; done; done)
n=$(find tools -name '*.[ch]' | wc -l)
[ "$n" -gt 40 ] && [ -z "$inward" ] && ok "tools/ ($n files) includes nothing of core/ or ports/ but plumbob.h" ||
    bad "tools/ ($n files) includes nothing of core/ or ports/ but plumbob.h" "$inward"
# inside tools/: no two files call or include each other in a circle, and no
# lower file reaches a higher one (tests/tools-graph.sh, over this build's objects)
while IFS= read -r line; do
    case $line in
    "ok   "*) ok "tools graph: ${line#ok   }" ;;
    "FAIL "*) bad "tools graph: ${line#FAIL }" ;;
    *passed,*failed) ;;
    *) echo "     $line" ;;
    esac
done < <(bash tests/tools-graph.sh "$b" 2>&1)
# the stable surface stands alone: a game's playback loop compiles with
# PLUMBOB_STABLE_ONLY (the tools-and-tests helpers hidden, as they are
# without PLUMBOB_TOOLS_API) and poses the demo rig exactly as the tool
# does; the hidden part really is hidden
demo=$b/stable-demo
if "$b/plumbob" demo --out "$demo" >/dev/null 2>&1 &&
    ${CC:-cc} -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -DPLUMBOB_STABLE_ONLY -Icore \
        tests/stable/game_loop.c "$b/libplumbob.a" -o "$b/game_loop" >"$b.stable.log" 2>&1; then
    got=$("$b/game_loop" "$demo"/6B20C4F3_*.clip "$demo"/8EAF13DE_*.rig 1.0 2>&1)
    want=$("$b/plumbob" clip sample "$demo"/6B20C4F3_*.clip --rig "$demo"/8EAF13DE_*.rig --time 1.0 2>&1 |
        sed -n 's/^  \([^ ]*\) .* model ( *\([^ ]*\) *\([^ ]*\) *\([^ ]*\)).*/\1 \2 \3 \4/p')
    if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$(grep -c . <<<"$got")" = 4 ]; then
        ok "stable-only game loop poses the demo rig as the tool does"
    else
        bad "stable-only game loop poses the demo rig as the tool does" "got: $got / want: $want"
    fi
else
    bad "stable-only game loop builds" "$(tail -5 "$b.stable.log")"
fi
# the docs' examples compile and run as written: every ```c block of
# README.md, docs/API.md and docs/ARCHITECTURE.md (tests/docs-examples.sh)
while IFS= read -r line; do
    case $line in
    "ok   "*) ok "docs example: ${line#ok   }" ;;
    "FAIL "*) bad "docs example: ${line#FAIL }" ;;
    *passed,*failed) ;;
    *) echo "     $line" ;;
    esac
done < <(bash tests/docs-examples.sh "$b" 2>&1)
# the docs' Sims 2 example (docs/API.md "Drive a Sims 2 body with an ANIM") is
# tests/stable/sims2_body.c's marked part word for word; the program compiles
# on the stable surface and skins the demo body under its ANIM as
# `gmdc skin --anim --time` does (within 1e-7)
docs_block=$(sed -n '/^<!-- compiled: tests\/stable\/sims2_body.c -->$/,/^```$/p' docs/API.md | sed '1,2d;$d')
prog_block=$(sed -n '/\/\* API.md: begin \*\//,/\/\* API.md: end \*\//p' tests/stable/sims2_body.c | sed '1d;$d;s/^    //')
if [ -n "$docs_block" ] && [ "$docs_block" = "$prog_block" ]; then
    ok "docs/API.md's Sims 2 body example is tests/stable/sims2_body.c's, word for word"
else
    bad "docs/API.md's Sims 2 body example is tests/stable/sims2_body.c's, word for word" \
        "$(diff <(echo "$docs_block") <(echo "$prog_block") | head -5)"
fi
if [ -f "$demo/body.package" ] &&
    ${CC:-cc} -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -DPLUMBOB_STABLE_ONLY -Icore \
        tests/stable/sims2_body.c "$b/libplumbob.a" -o "$b/sims2_body" >"$b.sims2_body.log" 2>&1; then
    got=$("$b/sims2_body" "$demo/body.package" 0.5 2>&1)
    want=$("$b/plumbob" gmdc skin "$demo/body.package@00F0E1D2C3B4A5A1" --anim "$demo/body.package@00F0E1D2C3B4A5A2" \
        --time 0.5 --json 2>/dev/null | sed -n '2s/.*"positions": \[\(.*\)\],$/\1/p' | tr -d '[] ' | tr ',' '\n')
    if [ -n "$want" ] && [ "$(grep -c . <<<"$got")" = 780 ] &&
        paste <(echo "$got") <(echo "$want") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-7) bad++ } END { exit bad > 0 }'; then
        ok "the docs' Sims 2 example skins the demo body as gmdc skin --anim does"
    else
        bad "the docs' Sims 2 example skins the demo body as gmdc skin --anim does" "got: $(head -3 <<<"$got") / want: $(head -3 <<<"$want")"
    fi
else
    bad "the docs' Sims 2 example builds" "$(tail -5 "$b.sims2_body.log" 2>/dev/null)"
fi
printf '#include "plumbob.h"\nint main(void) { plumbob_reader r; plumbob_reader_init(&r, 0, 0); return 0; }\n' >"$b/hidden.c"
reader() { ${CC:-cc} -std=c99 -Werror "$@" -Icore -c "$b/hidden.c" -o "$b/hidden.o" >/dev/null 2>&1; }
if reader; then
    bad "the general reader (tools surface) is hidden without PLUMBOB_TOOLS_API"
elif ! reader -DPLUMBOB_TOOLS_API; then
    bad "the general reader is visible with PLUMBOB_TOOLS_API"
elif reader -DPLUMBOB_TOOLS_API -DPLUMBOB_STABLE_ONLY; then
    bad "PLUMBOB_STABLE_ONLY still hides the general reader"
else
    ok "the tools surface is opt-in: the general reader only with PLUMBOB_TOOLS_API (and not with PLUMBOB_STABLE_ONLY)"
fi
# the mutant list of make mutants still matches the code (every from: text exactly once in
# its file), so a change that moves a mutated line says so here, not months later
if command -v python3 >/dev/null 2>&1; then
    if out=$(python3 tests/mutants.py --list 2>&1); then ok "tests/mutants: $(tail -1 <<<"$out")"
    else bad "tests/mutants: the list no longer matches the code (fix the entries named)" "$out"; fi
fi
# numbers the docs state about the code (tests/doc-numbers.sh): each of its checks here
while IFS= read -r line; do
    case "$line" in
    "ok   "*) ok "docs: ${line#ok   }" ;;
    "FAIL "*) bad "docs: ${line#FAIL }" ;;
    *passed,*failed) ;;
    *) echo "     $line" ;;
    esac
done < <(bash tests/doc-numbers.sh 2>&1)
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
