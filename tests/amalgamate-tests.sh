#!/usr/bin/env bash
# The two-file drop-in (`make amalgamate`: build/dist/plumbob.c + plumbob.h):
#   - the pair, copied alone into an empty folder, compiles freestanding
#     (-ffreestanding -nostdlib, the core's warnings as errors) with host gcc
#     and clang, and for a Cortex-M4 with arm-none-eabi-gcc (hard and soft
#     float) and clang; the only undefined symbols are mem* and __aeabi_*;
#   - it defines every function plumbob.h declares, and exports only plumbob_*;
#   - PLUMBOB_NO_SIMD selects the scalar port through the same macro block;
#   - the unit tests linked against it give the pinned digests (the summary
#     line is repeated for the matrix table);
#   - plumbob.h compiles as C++ (g++ and clang++, -std=c++11 -Wall -Wextra
#     -Wpedantic -Werror) and tests/cpp/api_test.cpp, C++ against the C
#     object, passes (same struct layouts in C and C++, calls across extern "C").
# Usage: tests/amalgamate-tests.sh   (prints `N passed, N failed`)
set -u
cd "$(dirname "$0")/.."
b=build/amalgamate-tests
rm -rf "$b"
mkdir -p "$b/alone"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -15 | sed 's/^/   | /'; }
have() { command -v "$1" >/dev/null 2>&1; }

if make --no-print-directory amalgamate DIST="$b/dist" >"$b/amalgamate.log" 2>&1; then
    ok "make amalgamate: $(tail -1 "$b/amalgamate.log" | sed 's/^amalgamate: //')"
else
    bad "make amalgamate" "$(cat "$b/amalgamate.log")"
    echo "$pass passed, $fail failed"
    exit 1
fi
cp "$b/dist/plumbob.c" "$b/dist/plumbob.h" "$b/alone/"
# the header is the public one, word for word after the banner: core/plumbob.h
# with each layer header it includes (core/plumbob/*.h) pasted in once, and
# no include of the project's own left
paste_header() { # file, the folder its includes are relative to
    local line d=${1%/*}/
    while IFS= read -r line; do
        case $line in
        '#include "'*)
            line=${line#'#include "'}; line=$d${line%%'"'*}
            case " $pasted " in *" $line "*) ;; *) pasted="$pasted $line"; paste_header "$line" ;; esac ;;
        *) printf '%s\n' "$line" ;;
        esac
    done <"$1"
}
pasted=
tail -n +4 "$b/dist/plumbob.h" | cmp -s - <(paste_header core/plumbob.h) && ! grep -q '^#include "' "$b/dist/plumbob.h" &&
    ok "dist/plumbob.h is core/plumbob.h with its layer headers pasted in" ||
    bad "dist/plumbob.h is core/plumbob.h with its layer headers pasted in"
# nothing but the pair: no include of the project's own folders survives
leftover=$(grep -nE '^[ \t]*#[ \t]*include[ \t]*"' "$b/alone/plumbob.c" | grep -v '"plumbob.h"')
[ -z "$leftover" ] && ok "plumbob.c includes only plumbob.h and system headers" || bad "plumbob.c includes project headers" "$leftover"

warn="-std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wconversion -Werror"
allowed='^(memcpy|memmove|memset|memcmp|__aeabi_[A-Za-z0-9_]+)$'
alone() { # name, nm, compiler and flags...: compiles the pair alone, freestanding
    local name=$1 nm=$2 o="$b/$1.o" undef others; shift 2
    if ! (cd "$b/alone" && "$@" $warn -O2 -ffreestanding -nostdlib -fno-stack-protector -c plumbob.c -o "../$name.o") >"$b/$name.log" 2>&1; then
        bad "$name: the pair compiles alone, freestanding" "$(cat "$b/$name.log")"
        return
    fi
    undef=$("$nm" -u "$o" | awk '{ print $NF }' | sort -u)
    others=$(grep -v -E "$allowed" <<<"$undef" | grep -v '^$')
    if [ -n "$others" ]; then
        bad "$name: undefined symbols outside mem* and __aeabi_*" "$others"
    else
        ok "$name: the pair compiles alone, freestanding (left to link: $(echo ${undef:-nothing}))"
    fi
}
fp_gcc="-ffp-contract=off -fexcess-precision=fast"
alone host-gcc nm gcc $fp_gcc
if have clang; then alone host-clang nm clang -ffp-contract=off; else bad "host-clang: clang missing (apt-get install -y clang)"; fi
if have arm-none-eabi-gcc; then
    alone cortex-m4-gcc arm-none-eabi-nm arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 $fp_gcc
    alone cortex-m4-soft arm-none-eabi-nm arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=soft $fp_gcc
    have clang && alone cortex-m4-clang arm-none-eabi-nm clang --target=thumbv7em-none-eabihf -mcpu=cortex-m4 -mfloat-abi=hard -ffp-contract=off
else
    bad "cortex-m4: arm-none-eabi-gcc missing (apt-get install -y gcc-arm-none-eabi)"
fi

# every public function is defined, and nothing outside plumbob_ is exported
if [ -f "$b/host-gcc.o" ]; then
    declared=$(cat core/plumbob.h core/plumbob/*.h | tr '\n' ' ' | grep -oE 'PLUMBOB_API [^;{]*[^A-Za-z0-9_]plumbob_[A-Za-z0-9_]+ *\(' |
               grep -oE 'plumbob_[A-Za-z0-9_]+ *\($' | tr -d ' (' | sort -u)
    defined=$(nm -g --defined-only "$b/host-gcc.o" | awk '{ print $3 }' | sort -u)
    missing=$(comm -23 <(echo "$declared") <(echo "$defined"))
    n=$(grep -c . <<<"$declared")
    [ "$n" -gt 100 ] && [ -z "$missing" ] && ok "all $n functions plumbob.h declares are defined" ||
        bad "functions plumbob.h declares are defined ($n declared)" "$missing"
    others=$(grep -v '^plumbob_' <<<"$defined")
    [ -z "$others" ] && ok "it exports only plumbob_* ($(grep -c . <<<"$defined") symbols)" || bad "it exports only plumbob_*" "$others"
fi

# the port is chosen by the same macro block
port_of() { # flags...: the port name string compiled in
    (cd "$b/alone" && gcc -std=c99 -E "$@" -x c - <<<'#include "plumbob.c"
PORT=PLUMBOB_PORT_NAME') 2>/dev/null | sed -n 's/^PORT=//p'
}
p_def=$(port_of) p_scalar=$(port_of -DPLUMBOB_NO_SIMD)
[ "$p_def" = '"sse2"' ] && [ "$p_scalar" = '"scalar"' ] && ok "port: sse2 on x86-64, scalar with PLUMBOB_NO_SIMD" ||
    bad "port: sse2 on x86-64, scalar with PLUMBOB_NO_SIMD (got $p_def, $p_scalar)"

# the unit tests against the pair (tests also include ports/kernels.h to compare twins,
# and the private headers of core/<layer>/)
private_inc="-DPLUMBOB_TOOLS_API -Iports $(for d in core/*/; do printf -- '-I%s ' "${d%/}"; done)-Icore"
tests_against() { # label, extra cflags...
    local label=$1 d="$b/units-$1" f objs=(); shift
    mkdir -p "$d"
    if ! gcc -std=c99 -O2 $fp_gcc "$@" -I"$b/alone" -c "$b/alone/plumbob.c" -o "$d/plumbob.o" >"$d.log" 2>&1; then
        bad "$label: plumbob.c compiles for the unit tests" "$(cat "$d.log")"; return
    fi
    for f in tests/*.c; do
        gcc -std=c99 -Wall -Wextra -Wshadow -Werror -O2 $fp_gcc "$@" -I"$b/alone" -Itests $private_inc \
            -c "$f" -o "$d/$(basename "${f%.c}").o" >>"$d.log" 2>&1 || { bad "$label: $f compiles" "$(cat "$d.log")"; return; }
        objs+=("$d/$(basename "${f%.c}").o")
    done
    gcc -o "$d/plumbob-tests" "${objs[@]}" "$d/plumbob.o" >>"$d.log" 2>&1 || { bad "$label: the tests link" "$(cat "$d.log")"; return; }
    "$d/plumbob-tests" >"$d/run.log" 2>&1
    local line rc=$?
    line=$(grep '^summary:' "$d/run.log" | tail -1)
    if [ $rc = 0 ] && grep -q ' failed=0 ' <<<"$line"; then
        ok "$label: the unit tests linked against plumbob.c pass with the pinned digests ($(sed 's/^summary: //' <<<"$line"))"
    else
        bad "$label: the unit tests linked against plumbob.c (exit $rc)" "$(grep -E 'FAIL|summary' "$d/run.log"; tail -5 "$d/run.log")"
    fi
    echo "$line" >"$d/summary"
}
tests_against sse2
tests_against scalar -DPLUMBOB_NO_SIMD
grep -q ' port=scalar ' "$b/units-scalar/summary" 2>/dev/null && ok "no-SIMD unit tests ran the scalar port" || bad "no-SIMD unit tests ran the scalar port"
cmp -s <(grep -o 'digest=.*' "$b/units-sse2/summary" 2>/dev/null) <(grep -o 'digest=.*' "$b/units-scalar/summary" 2>/dev/null) &&
    ok "sse2 and scalar digests are equal" || bad "sse2 and scalar digests are equal"

# --- C++ ---------------------------------------------------------------------------
for cxx in g++ clang++; do
    if ! have "$cxx"; then bad "$cxx missing"; continue; fi
    for h in core/plumbob.h "$b/alone/plumbob.h"; do
        if "$cxx" -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$h" >"$b/cxx.log" 2>&1 &&
            "$cxx" -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -DPLUMBOB_TOOLS_API -fsyntax-only "$h" >>"$b/cxx.log" 2>&1; then
            ok "$h compiles as C++ ($cxx -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror)"
        else
            bad "$h compiles as C++ with $cxx" "$(cat "$b/cxx.log")"
        fi
    done
done
# layout_list.h: L(type) for every public struct and enum of the header
cat core/plumbob.h core/plumbob/*.h | grep -oE '^typedef (struct|enum|union) plumbob_[A-Za-z0-9_]+' | awk '{ print "L(" $3 ")" }' >"$b/layout_list.h"
if gcc -std=c99 -Wall -Wextra -Werror -DPLUMBOB_TOOLS_API -I"$b/alone" -I"$b" -c tests/cpp/layout.c -o "$b/layout.o" >"$b/cpp.log" 2>&1 &&
   g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -DPLUMBOB_TOOLS_API -I"$b/alone" -I"$b" tests/cpp/api_test.cpp "$b/layout.o" \
       "$b/units-sse2/plumbob.o" -o "$b/api_test" >>"$b/cpp.log" 2>&1; then
    if "$b/api_test" >"$b/api_test.log" 2>&1; then
        ok "tests/cpp/api_test.cpp (C++11 against the C object): $(tail -1 "$b/api_test.log")"
    else
        bad "tests/cpp/api_test.cpp" "$(cat "$b/api_test.log")"
    fi
else
    bad "tests/cpp/api_test.cpp builds" "$(cat "$b/cpp.log")"
fi

# the matrix table takes this line for the amalgamation row's digest
sed 's/target=[a-z0-9_-]*/target=amalgamation/' "$b/units-sse2/summary" 2>/dev/null
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
