#!/usr/bin/env bash
# The docs' examples compile and run as written (issue 47): every ```c block
# of README.md, docs/API.md and docs/ARCHITECTURE.md is compiled against the
# public header, with the flags a game would use (-std=c99 -Wall -Wextra
# -Werror, no PLUMBOB_TOOLS_API: the stable surface), and whole programs are
# linked with the library and run.  A block says what it is by an HTML
# comment on the line before its fence (blank lines between are allowed):
#   (none)                              a whole translation unit: compiled; when
#                                       it defines main, linked and run with no
#                                       arguments (it must exit 0)
#   <!-- example: fragment NAME -->     statements and declarations: pasted in
#                                       place of the line `/* @example */` of
#                                       tests/docs/NAME.c (the context the page
#                                       assumes: your buffers, skeleton, ...)
#                                       and compiled
#   <!-- compiled: FILE -->             the body of the program FILE, which
#                                       build-tests.sh compares with the block
#                                       word for word, builds and runs
#   <!-- example: program ARGS -->      a whole program, linked and run with
#                                       ARGS; an argument corpus:PATH is the
#                                       file PATH under the corpus (the run is
#                                       skipped, the compile not, when one is
#                                       absent); the run must exit 0
# Errors point at the page's lines (#line).  Prints `ok` / `FAIL` per block
# and `N passed, N failed`.
#   bash tests/docs-examples.sh [BUILD]   (BUILD holds libplumbob.a; default build)
set -u
cd "$(dirname "$0")/.."
b=${1:-build}
out=$b/docs-examples
corpus=${PLUMBOB_CORPUS:-../shared/corpus}
cc=${CC:-cc}
flags="-std=c99 -Wall -Wextra -Werror -Icore"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -8 | sed 's/^/   | /'; }
rm -rf "$out"
mkdir -p "$out"
if [ ! -f "$b/libplumbob.a" ]; then
    bad "docs examples: no $b/libplumbob.a (build it first)"
    echo "$pass passed, $fail failed"
    exit 1
fi

# Cut each page into blocks: $out/N.c (the block, behind a #line naming the
# page), $out/N.meta (page, line, mode, argument words).
n=0
for page in README.md docs/API.md docs/ARCHITECTURE.md; do
    [ -f "$page" ] || continue
    n=$(awk -v page="$page" -v out="$out" -v n="$n" '
        /^```c[ \t]*$/ && !inside {
            inside = 1; n++
            file = out "/" n ".c"
            printf "#line %d \"%s\"\n", NR + 1, page > file
            mode = "unit"; args = ""
            if (match(marker, /<!-- compiled: [^ >]+ -->/)) {
                mode = "compiled"; args = substr(marker, RSTART + 14, RLENGTH - 18)
            } else if (match(marker, /<!-- example: [a-z]+[^>]*-->/)) {
                m = substr(marker, RSTART + 14, RLENGTH - 17)
                sub(/[ \t]+$/, "", m)
                split(m, w, " "); mode = w[1]; args = substr(m, length(w[1]) + 2)
            }
            printf "%s %d %s %s\n", page, NR, mode, args > (out "/" n ".meta")
            next
        }
        inside && /^```[ \t]*$/ { inside = 0; close(file); close(out "/" n ".meta"); marker = ""; next }
        inside { print > file; next }
        /^[ \t]*$/ { next }
        { marker = $0 }
        END { print n }' "$page")
done

for ((i = 1; i <= n; i++)); do
    read -r page line mode args <"$out/$i.meta"
    where="$page:$line"
    src="$out/$i.c"
    case $mode in
    compiled)
        # the block is a part of a program in tests/ that build-tests.sh
        # compares with it word for word, builds and runs
        if [ -f "$args" ]; then ok "$where: the body of $args"; else bad "$where: $args not found"; fi
        continue
        ;;
    fragment)
        wrapper="tests/docs/$args.c"
        if [ ! -f "$wrapper" ] || [ "$(grep -c '^[ \t]*/\* @example \*/' "$wrapper")" != 1 ]; then
            bad "$where: fragment wrapper $wrapper (with one /* @example */ line) not found"
            continue
        fi
        wl=$(grep -n '^[ \t]*/\* @example \*/' "$wrapper" | cut -d: -f1)
        { head -n $((wl - 1)) "$wrapper"; cat "$src"; printf '#line %d "%s"\n' $((wl + 1)) "$wrapper"
          tail -n +$((wl + 1)) "$wrapper"; } >"$out/$i.full.c"
        if log=$($cc $flags -c "$out/$i.full.c" -o "$out/$i.o" 2>&1); then
            ok "$where compiles (a fragment in $wrapper)"
        else
            bad "$where compiles (a fragment in $wrapper)" "$log"
        fi
        ;;
    unit | program)
        if ! log=$($cc $flags -c "$src" -o "$out/$i.o" 2>&1); then
            bad "$where compiles as written" "$log"
            continue
        fi
        if [ "$mode" = unit ] && ! grep -qE '(^|[^a-z_])main[ \t]*\(' "$src"; then
            ok "$where compiles as written"
            continue
        fi
        if ! log=$($cc "$out/$i.o" "$b/libplumbob.a" -o "$out/$i" 2>&1); then
            bad "$where links with the library" "$log"
            continue
        fi
        argv=() missing=""
        for a in $args; do
            case $a in
            corpus:*) p="$corpus/${a#corpus:}"; [ -e "${p%@*}" ] || missing="$p"; argv+=("$p") ;;
            *) argv+=("$a") ;;
            esac
        done
        if [ -n "$missing" ]; then
            ok "$where compiles and links (run skipped: corpus file $missing absent)"
        elif log=$("$out/$i" "${argv[@]}" 2>&1); then
            ok "$where runs: $(tail -1 <<<"$log")"
        else
            bad "$where runs (exit $?)" "$log"
        fi
        ;;
    *) bad "$where: unknown example kind '$mode' (fragment NAME or program ARGS)" ;;
    esac
done
[ "$n" -gt 0 ] || bad "docs examples: no \`\`\`c block found"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
