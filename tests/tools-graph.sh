#!/usr/bin/env bash
# tools/ is layered: no two files call or include each other in a circle,
# and a lower file never reaches a higher one (tools/README.md).  The call
# graph is read from the objects themselves: a symbol one object leaves
# undefined (nm: U) and another defines (T, D, B, R, ...) is an edge between
# their source files.  The include graph is read from `#include "..."` lines.
#   tests/tools-graph.sh [BUILD]   objects under BUILD (default build/tools-graph,
#                                  built there with `make tool` when it has none)
# Layers, lowest first (a file may use its own layer and the ones it lists):
#   util/                               core only
#   gltf/, plot/, smooth_jazz/          util/ (and their own folder)
#   cli/ helpers (every other cli file) the folders above, other helpers
#   cli/ top: plumbob.c, formats.c, cmd_*.c, commands.h, formats.h   everything
# Prints `N passed, N failed`; on a failure, the offending edges or the cycle.
set -u
cd "$(dirname "$0")/.."
b=${1:-build/tools-graph}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -20; }

# the objects of tools/ (BUILD/obj/tools/..., else wherever they are under BUILD)
find_objs() {
    if [ -d "$b/obj/tools" ]; then find "$b/obj/tools" -name '*.o'; else find "$b" -path '*tools/*' -name '*.o'; fi 2>/dev/null | sort
}
objs=$(find_objs)
if [ -z "$objs" ]; then
    make -j2 BUILD="$b" tool >"$b.log" 2>&1 || { bad "make BUILD=$b tool" "$(tail -5 "$b.log")"; echo "$pass passed, $fail failed"; exit 1; }
    objs=$(find_objs)
fi
# an object whose source is gone (a file renamed since that build) is no part of the tool
objs=$(for o in $objs; do f="tools/${o##*tools/}"; [ -e "${f%.o}.c" ] && echo "$o"; done)
srcs=$(ls tools/*/*.c | sort)
nobj=$(grep -c . <<<"$objs")
nsrc=$(grep -c . <<<"$srcs")
[ "$nobj" = "$nsrc" ] && ok "$nobj tool objects for $nsrc sources" || bad "$nobj tool objects for $nsrc sources" "$objs"

# "FILE SYMBOL" lines: D for defined (global), U for undefined; FILE as tools/DIR/NAME.c
syms=$(for o in $objs; do
    f="tools/${o##*tools/}"
    f="${f%.o}.c"
    nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print "D", f, $3 }'
    nm -u "$o" | awk -v f="$f" '{ print "U", f, $NF }'
done)
calls=$(awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[++n] = $2 " " $3 }
    END { for (i = 1; i <= n; i++) { split(use[i], a, " "); if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]], a[2] } }' \
    <<<"$syms" | sort -u)
# "FILE HEADER" for each #include "..." of tools/: the including file's own
# folder first, else relative to tools/ (-Itools); core headers are left out
includes=$(for f in tools/*/*.[ch]; do
    d=$(dirname "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
        if [ -e "$d/$h" ]; then echo "$f $d/$h"; elif [ -e "tools/$h" ]; then echo "$f tools/$h"; fi
    done
done | sort -u)

# the layer of a file, and may a file of layer A use one of layer B (same folder or a lower layer)
layers='function layer(f) {
        if (f ~ /^tools\/util\//) return "util"
        if (f ~ /^tools\/(gltf|plot|smooth_jazz)\//) { sub(/^tools\//, "", f); sub(/\/.*/, "", f); return f }
        if (f ~ /^tools\/cli\/(cmd_[^\/]*|plumbob|formats|commands)\.[ch]$/) return "top"
        if (f ~ /^tools\/cli\//) return "helper"
        return "other"
    }
    function rank(l) { return l == "util" ? 0 : l == "helper" ? 2 : l == "top" ? 3 : 1 }
    function allowed(a, b) { return a == b || rank(b) < rank(a) }'
upward=$(awk "$layers"' { if (!allowed(layer($1), layer($2))) print $1 " (" layer($1) ") -> " $2 " (" layer($2) ")" ($3 != "" ? ": " $3 : "") }' \
    <<<"$calls")
[ -z "$upward" ] && ok "no lower file calls a higher one (util < gltf, plot, smooth_jazz < cli helpers < commands)" ||
    bad "no lower file calls a higher one (util < gltf, plot, smooth_jazz < cli helpers < commands)" "$upward"
upward=$(awk "$layers"' { if (!allowed(layer($1), layer($2))) print $1 " (" layer($1) ") includes " $2 " (" layer($2) ")" }' \
    <<<"$includes")
[ -z "$upward" ] && ok "no lower file includes a higher one's header" ||
    bad "no lower file includes a higher one's header" "$upward"

# a depth-first search over "FROM TO [WHY]" edges; prints one cycle, if any
cycle='{ if (!(($1, $2) in seen)) { seen[$1, $2] = 1; out[$1] = out[$1] " " $2; why[$1, $2] = $3 } }
    function label(a, b) { return why[a, b] != "" ? " -(" why[a, b] ")-> " : " -> " }
    function visit(v,   n, i, w, k, s) {
        state[v] = 1; stack[++depth] = v
        n = split(out[v], next_, " ")
        for (i = 1; i <= n; i++) {
            w = next_[i]
            if (state[w] == 1) { # back edge: the cycle is the stack from w
                s = ""
                for (k = 1; k <= depth; k++) if (stack[k] == w) break
                for (; k < depth; k++) s = s stack[k] label(stack[k], stack[k + 1])
                found = s v label(v, w) w
                return 1
            }
            if (state[w] == 0 && visit(w)) return 1
            n = split(out[v], next_, " ") # next_ is global: refill it after the recursion
        }
        state[v] = 2; depth--
        return 0
    }
    END { for (v in out) if (state[v] == 0 && visit(v)) { print found; exit } }'
loop=$(awk "$cycle" <<<"$calls" 2>&1) || loop="awk failed: $loop"
[ -z "$loop" ] && ok "no files call each other in a circle ($(grep -c . <<<"$calls") calls across files)" ||
    bad "no files call each other in a circle" "$loop"
loop=$(awk "$cycle" <<<"$includes" 2>&1) || loop="awk failed: $loop"
[ -z "$loop" ] && ok "no files include each other in a circle ($(grep -c . <<<"$includes") includes)" ||
    bad "no files include each other in a circle" "$loop"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
