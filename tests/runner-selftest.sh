#!/usr/bin/env bash
# The harness's own test: feeds tests/runner-lib.sh (run-all.sh's stage
# functions), tests/tool-suites.sh (the tool tests' suite loader) and
# tests/gltf-validator.sh fake commands that go wrong in each way a stage can
# go wrong, and checks that each one FAILS (and that the same fake, healthy,
# passes).  Takes a few seconds; run-all.sh runs it as the stage runner-selftest.
# Usage: tests/runner-selftest.sh [BUILD]   (prints `N passed, N failed`)
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -15 | sed 's/^/   | /'; }

# Runs "$@" in a subshell with a fresh harness (pins from $st/pins) and prints
# its output, then `RESULT <total_fail> <the last row's result>`.
harness() {
    (
        logs=$st/logs CI=false JOBS=1
        mkdir -p "$logs"
        . tests/runner-lib.sh
        load_pins "$st/pins" >/dev/null
        "$@"
        IFS='|' read -r _ res _ <<<"${rows[${#rows[@]} - 1]:-x|none}"
        echo "RESULT $total_fail $res"
    ) 2>&1
}
# expect_result NAME WANT(pass|FAIL) OUTPUT: the harness's verdict on a fake
expect_result() {
    local name=$1 want=$2 out=$3 res tf
    read -r _ tf res <<<"$(grep '^RESULT ' <<<"$out" | tail -1)"
    if [ "$want" = pass ] && [ "$res" = pass ] && [ "$tf" = 0 ]; then
        ok "$name: passes ($res)"
    elif [ "$want" = FAIL ] && [[ $res == FAIL* ]] && [ "${tf:-0}" -gt 0 ]; then
        ok "$name: FAILS ($res, $(grep -m1 -E 'exit status|pinned at|does not parse|not compared|summary says|FAIL ' <<<"$out" | sed 's/^ *//'))"
    else
        bad "$name: wanted $want, the harness said ${res:-nothing} with $tf failures" "$out"
    fi
}
printf '# a test pin file\nfake-units 3\nfake-script 10\n' >"$st/pins"

# --- (a) a unit-test binary: exit status after the summary line ----------------
summary='summary: target=x86_64 port=sse2 passed=3 failed=0 skipped=0 digest=02adf36a2fcfd12e corpus=6749daea5cc9208e pinned=synthetic+corpus'
fake_units() { # exit status, summary line
    printf '#!/bin/sh\necho "ok   a"\necho "%s"\necho "3 passed, 0 failed"\n' "$2" >"$st/units"
    [ "$1" != 0 ] && printf 'echo "==1==ERROR: LeakSanitizer: detected memory leaks" >&2\n' >>"$st/units"
    printf 'exit %s\n' "$1" >>"$st/units"
    chmod +x "$st/units"
}
fake_units 0 "$summary"
expect_result "unit tests, exit 0 after the summary" pass "$(harness run_units fake-units - "$st/units")"
fake_units 23 "$summary"
expect_result "unit tests, LeakSanitizer's exit 23 after a clean summary" FAIL "$(harness run_units fake-units - "$st/units")"
fake_units 0 "${summary/pinned=synthetic+corpus/pinned=none}"
expect_result "unit tests whose pinned digest was not compared" FAIL "$(harness run_units fake-units - "$st/units")"
fake_units 0 "${summary/passed=3/passed=2}"
expect_result "unit tests, 2 where 3 are pinned" FAIL "$(harness run_units fake-units - "$st/units")"
# a real one: a program built with AddressSanitizer that prints a clean
# summary and leaks (LeakSanitizer reports after main returns)
if command -v clang >/dev/null 2>&1; then
    printf '#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n    void *p = malloc(64);\n    printf("%%s\\n3 passed, 0 failed\\n", "%s");\n    fflush(stdout);\n    p = 0;\n    return (int)(long)p;\n}\n' "$summary" >"$st/leak.c"
    if clang -fsanitize=address -g -O0 "$st/leak.c" -o "$st/leak" 2>"$st/leak.log"; then
        expect_result "unit tests built with ASan that leak after a clean summary (LeakSanitizer)" FAIL \
            "$(ASAN_OPTIONS=detect_leaks=1 harness run_units fake-units - "$st/leak")"
    else
        echo "skip the LeakSanitizer case: clang -fsanitize=address does not build here: $(head -1 "$st/leak.log")"
    fi
fi
printf '#!/bin/sh\necho "ok   a"\nexit 0\n' >"$st/units"
expect_result "unit tests with no summary line" FAIL "$(harness run_units fake-units - "$st/units")"
# the same through a script stage that repeats the summary (cmake, wasm, ...)
printf '#!/bin/sh\necho "%s"\necho "10 passed, 0 failed"\nexit %s\n' "$summary" 0 >"$st/script"
expect_result "script stage with unit tests, exit 0" pass "$(harness run_script_units fake-script sh "$st/script")"
printf '#!/bin/sh\necho "%s"\necho "10 passed, 0 failed"\nexit %s\n' "$summary" 23 >"$st/script"
expect_result "script stage with unit tests, exit 23 after a clean count" FAIL "$(harness run_script_units fake-script sh "$st/script")"
printf '#!/bin/sh\necho "%s"\necho "10 passed, 0 failed"\n' "${summary/failed=0/failed=1}" >"$st/script"
expect_result "script stage whose unit tests' summary says failed=1" FAIL "$(harness run_script_units fake-script sh "$st/script")"
printf '#!/bin/sh\necho "%s"\necho "10 passed, 0 failed"\n' "${summary/pinned=synthetic+corpus/pinned=none}" >"$st/script"
expect_result "script stage whose unit tests did not compare the digest" FAIL "$(harness run_script_units fake-script sh "$st/script")"

# --- (b) a tool suite that does not load ------------------------------------------
suites() { # dir: pass and fail after loading it, with a fake expect
    (
        pass=0 fail=0
        expect() { pass=$((pass + 1)); echo "ok   $1"; }
        . tests/tool-suites.sh
        run_suites "$1"
        echo "COUNTS $pass $fail"
    ) 2>&1
}
mkdir -p "$st/suites-good" "$st/suites-syntax" "$st/suites-status"
printf 'expect one\nexpect two\n' >"$st/suites-good/a.sh"
cp "$st/suites-good/a.sh" "$st/suites-syntax/a.sh"
cp "$st/suites-good/a.sh" "$st/suites-status/a.sh"
printf 'expect three\nif then\nexpect four\n' >"$st/suites-syntax/b.sh"
printf 'expect three\nfalse\n' >"$st/suites-status/b.sh"
for d in good syntax status; do
    out=$(suites "$st/suites-$d")
    read -r _ p f <<<"$(grep '^COUNTS' <<<"$out")"
    case $d in
        good) [ "$p" = 2 ] && [ "$f" = 0 ] && ok "tool suites that load: 2 passed, 0 failed" || bad "tool suites that load" "$out" ;;
        syntax) [ "${f:-0}" -gt 0 ] && grep -q 'FAIL suite b.sh: does not parse' <<<"$out" && ! grep -q 'ok   three' <<<"$out" &&
            ok "a tool suite with a syntax error: FAILS, none of its tests run ($(grep -m1 'FAIL suite' <<<"$out"))" || bad "a tool suite with a syntax error" "$out" ;;
        status) [ "${f:-0}" -gt 0 ] && grep -q 'FAIL suite b.sh: sourcing it ended with status 1' <<<"$out" &&
            ok "a tool suite that ends with an error: FAILS ($(grep -m1 'FAIL suite' <<<"$out"))" || bad "a tool suite that ends with an error" "$out" ;;
    esac
done
# the tool stage around it: tool-tests.sh exits 1 with a failure, and a stage
# whose script stops early without its count line fails too
printf '#!/bin/sh\necho "ok   a"\necho "FAIL suite b.sh: does not parse"\necho "9 passed, 1 failed"\nexit 1\n' >"$st/script"
expect_result "the tool stage with a suite that did not load" FAIL "$(harness run_script fake-script sh "$st/script")"

# --- (c) a vanished test: a stage below its pin ----------------------------------
printf '#!/bin/sh\necho "%s passed, 0 failed"\n' 10 >"$st/script"
expect_result "a script stage at its pin (10 of 10)" pass "$(harness run_script fake-script sh "$st/script")"
printf '#!/bin/sh\necho "%s passed, 0 failed"\n' 9 >"$st/script"
expect_result "a script stage below its pin (9 of 10)" FAIL "$(harness run_script fake-script sh "$st/script")"
# without the corpus the pins (which count corpus tests) bind unit-test stages
# only, and under CI=true everything
expect_result "without the corpus, a script stage below its pin (noted)" pass \
    "$(harness eval 'corpus_present=false; run_script fake-script sh "$st/script"')"
expect_result "without the corpus under CI=true, a script stage below its pin" FAIL \
    "$(harness eval 'corpus_present=false CI=true; run_script fake-script sh "$st/script"')"
fake_units 0 "${summary/passed=3/passed=2}"
expect_result "without the corpus, a unit-test stage below its pin" FAIL \
    "$(harness eval 'corpus_present=false; run_units fake-units - "$st/units"')"
printf '#!/bin/sh\nexit 0\n' >"$st/script"
expect_result "a script stage that printed no count (1 of 10)" FAIL "$(harness run_script fake-script sh "$st/script")"
out=$(harness summary)
grep -q '^fake-units .*FAIL(missing)' <<<"$out" && grep -q '^[0-9]* passed, [1-9][0-9]* failed' <<<"$out" &&
    ok "a pinned stage that never ran: FAILS ($(grep -m1 'did not run' <<<"$out"))" || bad "a pinned stage that never ran" "$out"
out=$(harness eval 'run_script fake-script sh -c "echo 10 passed, 0 failed"; run_units fake-units - sh -c "echo \"$summary\""; summary')
grep -q '^13 passed, 0 failed$' <<<"$out" && ! grep -q 'FAIL' <<<"$out" &&
    ok "every pinned stage ran at its pin: the summary passes" || bad "every pinned stage ran at its pin" "$out"
printf 'fake-script ten\n' >"$st/pins-bad"
out=$( (logs=$st/logs CI=false; . tests/runner-lib.sh; load_pins "$st/pins-bad"; echo "TOTAL $total_fail") 2>&1)
grep -q 'TOTAL [1-9]' <<<"$out" && ok "a pin that is not a number: FAILS ($(head -1 <<<"$out"))" || bad "a pin that is not a number" "$out"

# --- (d) the Khronos stage with nothing carried from the tool stage ---------------
mkdir -p "$st/carried-none"
out=$(PLUMBOB_KEEP_EXPORTS=$st/carried-none bash tests/gltf-validator.sh "$build" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q '^FAIL no glTF carried' <<<"$out" && grep -q '^0 passed, 1 failed' <<<"$out" &&
    ok "the validator stage with 0 carried exports: FAILS ($(head -1 <<<"$out"))" || bad "the validator stage with 0 carried exports (exit $rc)" "$out"
out=$(PLUMBOB_KEEP_EXPORTS=$st/no-such-folder bash tests/gltf-validator.sh "$build" 2>&1)
[ $? = 1 ] && grep -q '^FAIL no glTF carried' <<<"$out" && ok "the validator stage with no carried folder: FAILS" || bad "the validator stage with no carried folder" "$out"
expect_result "the validator stage with 0 carried exports, in the harness" FAIL \
    "$(PLUMBOB_KEEP_EXPORTS=$st/carried-none harness run_script fake-script bash tests/gltf-validator.sh "$build")"
# plumbob's checker and the validator disagreeing (a fake checker that passes
# or refuses everything), when the validator is installed
if command -v node >/dev/null 2>&1 && NODE_PATH=build/npm/node_modules node -e "require('gltf-validator')" 2>/dev/null; then
    printf '{"asset": {"version": "2.0"}}' >"$st/valid.gltf"
    printf '{"asset": {"version": "2.0"}, "scenes": [{"nodes": [7]}]}' >"$st/invalid.gltf"
    printf 'invalid.gltf  a test input\n' >"$st/inputs"
    v() { NODE_PATH=build/npm/node_modules node tests/gltf-validate.js "$@" 2>&1; }
    out=$(v --plumbob /bin/true "$st/valid.gltf"); [ $? = 0 ] && ok "a glTF both pass: passes" || bad "a glTF both pass" "$out"
    out=$(v --plumbob /bin/false "$st/valid.gltf"); [ $? = 1 ] && grep -q DISAGREE <<<"$out" &&
        ok "a glTF the validator passes and plumbob's checker refuses: FAILS" || bad "validator passes, checker refuses" "$out"
    out=$(v --plumbob /bin/true "$st/invalid.gltf"); [ $? = 1 ] && grep -q DISAGREE <<<"$out" &&
        ok "a glTF plumbob's checker passes and the validator refuses: FAILS" || bad "checker passes, validator refuses" "$out"
    out=$(v --plumbob /bin/false "$st/invalid.gltf"); [ $? = 1 ] && ok "a glTF both refuse (not a listed input): FAILS" || bad "both refuse" "$out"
    out=$(v --plumbob /bin/true --inputs "$st/inputs" "$st/invalid.gltf"); [ $? = 0 ] && grep -q '^input ' <<<"$out" &&
        ok "a listed intentional test input both do not pass: listed, not counted" || bad "a listed input" "$out"
else
    echo "skip the checker/validator disagreement cases: the validator is not installed in build/npm"
fi

# --- the unit tests' own digest line: a filtered run says it did not compare ------
if [ -x "$build/plumbob-tests" ]; then
    out=$("$build/plumbob-tests" hash 2>&1)
    grep -q "^digest: not compared with tests/expected_digests.h: only the [0-9]* tests matching 'hash' ran" <<<"$out" &&
        grep -q ' pinned=none$' <<<"$out" &&
        ok "a filtered unit-test run says the digest was not compared ($(grep '^digest:' <<<"$out" | cut -c1-80)...)" ||
        bad "a filtered unit-test run" "$out"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
