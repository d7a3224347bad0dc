#!/usr/bin/env bash
# The layer rules of docs/ARCHITECTURE.md (the table between its
# <!-- layer-rules --> marks), checked against every #include "..." of
# core/ and ports/: a file of a layer includes only the public layer headers
# (plumbob/LAYER.h) and the private headers of the folders its row allows,
# besides the exceptions the table names.  A private header is found as the
# build finds it: beside the including file, then in core/<layer>/, then in
# ports/.  Given the built library, it also checks the calls: an object of a
# layer may use only symbols defined by the layers its row names (public or
# private), so no format layer calls the runtime and no lower layer calls up.
# Prints each violation and `layers: ok` or `layers: N violations`; exits 1
# on any.  tests/build-tests.sh runs it.
#   bash tests/layer-check.sh [build/libplumbob.a]
set -u
cd "$(dirname "$0")/.."
doc=docs/ARCHITECTURE.md
declare -A folder pub priv except
layers=()
while IFS='|' read -r _ name dir public private _; do
    name=$(echo $name) dir=$(echo $dir) public=$(echo $public) private=$(echo $private)
    dir=${dir//\`/} public=${public//\`/} private=${private//\`/}
    case $name in
    layer | ---* | '') ;;
    exception) except["$dir $public"]=1 ;;
    *) layers+=("$name"); folder[$name]=$dir; pub[$name]=" $public "; priv[$name]=" $private " ;;
    esac
done < <(sed -n '/^<!-- layer-rules -->/,/^<!-- \/layer-rules -->/p' "$doc" | grep '^|')
if [ "${#layers[@]}" -lt 5 ]; then
    echo "layers: no rules table found in $doc"; exit 1
fi

# the layer a folder belongs to (core/<layer>, ports and its kernel folders)
layer_of_dir() {
    local d=$1 l
    for l in "${layers[@]}"; do
        case $d in "${folder[$l]}" | "${folder[$l]}"/*) echo "$l"; return ;; esac
    done
}
# the folder holding private header h as included from file f
find_header() {
    local h=$1 f=$2 l
    [ -e "$(dirname "$f")/$h" ] && { dirname "$f"; return; }
    for l in "${layers[@]}"; do [ -e "${folder[$l]}/$h" ] && { echo "${folder[$l]}"; return; }; done
}

n=0 files=0
bad() { n=$((n + 1)); echo "layers: $1"; }
for d in core/*/; do
    d=${d%/}
    [ "$d" = core/plumbob ] && continue
    [ -n "$(layer_of_dir "$d")" ] || bad "$d is no layer of the table in $doc"
done
for f in $(find core ports -name '*.[ch]' | LC_ALL=C sort); do
    [ "$f" = core/plumbob.h ] && continue
    files=$((files + 1))
    case $f in
    core/plumbob/*.h) me=$(basename "$f" .h); public_form=bare ;;
    *) me=$(layer_of_dir "$(dirname "$f")"); public_form=path ;;
    esac
    if [ -z "$me" ] || [ -z "${pub[$me]+x}" ]; then bad "$f: in no layer of the table"; continue; fi
    while read -r h; do
        [ -n "$h" ] || continue
        [ -n "${except["$f $h"]+x}" ] && continue
        if [ "$public_form" = bare ]; then
            # a layer header includes the layer headers below it, by bare name
            to=${h%.h}
            [[ "${pub[$me]}" == *" $to "* ]] || bad "$f includes $h: the public header of $to, not below $me"
            continue
        fi
        case $h in
        plumbob.h) bad "$f includes plumbob.h: a layer includes its own plumbob/LAYER.h"; continue ;;
        plumbob/*.h)
            to=${h#plumbob/}; to=${to%.h}
            [[ "${pub[$me]}" == *" $to "* ]] || bad "$f includes $h: $me may include the public headers of${pub[$me]% }"
            continue ;;
        esac
        where=$(find_header "$h" "$f")
        if [ -z "$where" ]; then bad "$f includes $h, which no layer holds"; continue; fi
        to=$(layer_of_dir "$where")
        [[ "${priv[$me]}" == *" $to "* ]] ||
            bad "$f includes $h of $to ($where): $me may include the private headers of${priv[$me]% }"
    done < <(grep -oE '^[ \t]*#[ \t]*include[ \t]*"[^"]+"' "$f" | sed -E 's/.*"([^"]+)"/\1/')
done
# the calls, from the library's symbol tables (members are named by file)
lib=${1:-}
if [ -n "$lib" ]; then
    declare -A layer_of_member def
    for f in $(find core ports -name '*.c'); do layer_of_member[$(basename "${f%.c}").o]=$(layer_of_dir "$(dirname "$f")"); done
    while read -r m sym; do def[$sym]=${layer_of_member[$m]:-?}; done < <(nm -A -g --defined-only "$lib" 2>/dev/null |
        awk '{ split($1, p, ":"); print p[2], $NF }')
    calls=0
    while read -r m sym; do
        me=${layer_of_member[$m]:-} to=${def[$sym]:-}
        [ -n "$me" ] && [ -n "$to" ] || continue
        calls=$((calls + 1))
        [[ "${pub[$me]}${priv[$me]}" == *" $to "* ]] || bad "$m ($me) calls $sym of $to"
    done < <(nm -A -u "$lib" 2>/dev/null | awk '{ split($1, p, ":"); print p[2], $NF }')
    [ "$calls" -gt 100 ] || bad "only $calls calls between the library's files found in $lib"
fi
if [ "$n" = 0 ]; then
    echo "layers: ok ($files files of ${#layers[@]} layers: ${layers[*]}${lib:+; $calls calls between files of $lib})"
else
    echo "layers: $n violations"
    exit 1
fi
