#!/usr/bin/env bash
# WebAssembly: `make wasm` builds the core with clang --target=wasm32
# -nostdlib into build/wasm/plumbob.wasm and the unit tests (over the tiny
# libc of tests/wasm/) into build/wasm/plumbob-tests.wasm.  Checks: the core
# module imports nothing at all and exports exactly the functions plumbob.h
# declares (and its memory); instantiated with an empty import object it
# answers; the unit tests run under node's WebAssembly with the pinned
# digests (the summary line is repeated for the matrix table).
# Usage: tests/wasm-tests.sh   (prints `N passed, N failed`)
set -u
cd "$(dirname "$0")/.."
b=build/wasm
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -15 | sed 's/^/   | /'; }
for t in clang node; do
    if ! command -v $t >/dev/null 2>&1; then
        echo "FAIL $t missing: apt-get install -y clang lld-14 nodejs"
        echo "0 passed, 1 failed"
        exit 1
    fi
done
echo "wasm: $(clang --version | head -1), node $(node --version)"
mkdir -p "$b"
if make --no-print-directory -j"${JOBS:-2}" wasm WERROR=-Werror >"$b.log" 2>&1; then
    ok "make wasm: $(wc -c <"$b/plumbob.wasm") bytes of core, $(wc -c <"$b/plumbob-tests.wasm") bytes of tests"
else
    bad "make wasm" "$(cat "$b.log")"
    echo "$pass passed, $fail failed"
    exit 1
fi

imports=$(node tests/wasm/run.js --imports "$b/plumbob.wasm" 2>&1)
[ "$imports" = "[]" ] && ok "the core module imports nothing (not even memcpy/memset)" || bad "the core module imports nothing" "$imports"
exports=$(node tests/wasm/run.js --exports "$b/plumbob.wasm" 2>&1 | grep -oE '"name":"[^"]*","kind":"[a-z]*"' |
          sed -E 's/"name":"([^"]*)","kind":"([a-z]*)"/\1 \2/' | sort)
declared=$(cat core/plumbob.h core/plumbob/*.h | tr '\n' ' ' | grep -oE 'PLUMBOB_API [^;{]*[^A-Za-z0-9_]plumbob_[A-Za-z0-9_]+ *\(' |
           grep -oE 'plumbob_[A-Za-z0-9_]+ *\($' | tr -d ' (' | sort -u | sed 's/$/ function/')
expected=$(printf '%s\nmemory memory\n' "$declared" | sort)
if [ "$exports" = "$expected" ]; then
    ok "its exports are the $(grep -c . <<<"$declared") functions plumbob.h declares, and its memory"
else
    bad "its exports are the functions plumbob.h declares, and its memory" "$(diff <(echo "$expected") <(echo "$exports"))"
fi
core=$(node tests/wasm/run.js --core "$b/plumbob.wasm" 2>&1)
want='{"version":100,"port":"scalar","pelvis":"556b181a","truncated":"truncated"}'
want=${want/100/$(sed -n 's/^#define PLUMBOB_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' core/plumbob/base.h | awk '{ v = v * 100 + $1 } END { print v }')}
[ "$core" = "$want" ] && ok "instantiated with no imports, it answers: $core" || bad "the core module alone" "got $core, want $want"

start=$(date +%s)
node tests/wasm/run.js "$b/plumbob-tests.wasm" >"$b/run.log" 2>&1
rc=$?
line=$(grep '^summary:' "$b/run.log" | tail -1)
if [ $rc = 0 ] && grep -q ' failed=0 ' <<<"$line"; then
    ok "the unit tests under node ($(($(date +%s) - start)) s): $(sed 's/^summary: //' <<<"$line")"
else
    bad "the unit tests under node (exit $rc)" "$(grep -E '^(FAIL|  FAIL|summary)' "$b/run.log"; tail -5 "$b/run.log")"
fi
[ -n "$line" ] && echo "$line"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
