# The decisions of tests/run-all.sh, as functions: sourced by run-all.sh, and
# by tests/runner-selftest.sh, which feeds them fake commands and checks that
# each way a stage can go wrong fails it.
#
# A stage fails when
#   - what it runs exits non-zero, whatever it printed before (a sanitizer
#     report after the unit tests' summary line exits 23; a timeout 124);
#   - it reports a failed check, or a unit-test binary prints no summary line;
#   - a unit-test stage's summary does not say the synthetic digest was
#     compared with tests/expected_digests.h (pinned=none);
#   - it passes fewer checks than tests/expected_counts pins for it (a test,
#     a suite or a whole loop vanished): passed + skipped, as a skipped test is
#     listed with its reason and fails the run under CI=true anyway; a pinned
#     stage that is not in the table at all fails in summary.
# Needs: $logs (a folder for the logs), $CI.
# shellcheck shell=bash

rows=()        # "stage|result|passed|failed|skipped|digest|port|corpus"
total_pass=0 total_fail=0 total_skip=0
ref_digest="" ref_corpus=""
declare -gA pins=()
pins_file=""

record() { rows+=("$1|$2|$3|$4|$5|$6|$7|${8:--}"); }

have() { command -v "$1" >/dev/null 2>&1; }

# tests/expected_counts: `STAGE MIN` lines, # comments; a stage not listed has no pin
load_pins() { # file
    local st min rest n=0
    pins=() pins_file=$1
    if [ ! -f "$1" ]; then
        echo "== pins: $1 missing: every stage's count is unpinned"
        total_fail=$((total_fail + 1))
        return 1
    fi
    while read -r st min rest; do
        case $st in '' | '#'*) continue ;; esac
        n=$((n + 1))
        if ! [[ $min =~ ^[0-9]+$ ]]; then
            echo "== pins: $1 line '$st $min $rest': MIN is not a number"
            total_fail=$((total_fail + 1))
            continue
        fi
        pins[$st]=$min
    done <"$1"
}

skip_stage() { # stage, reason
    echo "== $1: SKIPPED: $2"
    if [ "$CI" = true ]; then
        record "$1" "FAIL(skip in CI)" 0 1 0 - -
        total_fail=$((total_fail + 1))
    else
        record "$1" skipped 0 0 1 - -
        total_skip=$((total_skip + 1))
    fi
}

# The end of every stage that ran: the pinned minimum, the row, the totals.
# The pins count the corpus tests: without the corpus (corpus_present=false,
# and not CI) a script stage below its pin is said, not failed; unit-test
# stages count their skipped corpus tests, so theirs holds always.
corpus_present=true
finish_stage() { # stage, result (pass or FAIL...), passed, failed, skipped, digest, port, corpus[, units]
    local st=$1 res=$2 p=$3 f=$4 s=$5 pin=${pins[$1]:-}
    if [ -n "$pin" ] && [ $((p + s)) -lt "$pin" ]; then
        if [ "$corpus_present" != true ] && [ "$CI" != true ] && [ "${9:-}" != units ]; then
            echo "   note: $st: $((p + s)) checks, pinned at least $pin with the corpus: not enforced without it"
        else
            echo "   FAIL $st: $((p + s)) checks, pinned at least $pin: a test vanished ($pins_file)"
            f=$((f + 1))
            [ "$res" = pass ] && res="FAIL(count)"
        fi
    fi
    [ "$f" != 0 ] && [ "$res" = pass ] && res=FAIL
    total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
    record "$st" "$res" "$p" "$f" "$s" "$6" "$7" "$8"
}

# Runs a unit-test binary (command in "$@"), parses its summary line.
run_units() { # stage, build-log, command...
    local stage=$1 blog=$2; shift 2
    local log="$logs/$stage.log" line p f s d port c rc res=pass
    echo "== $stage: $*"
    timeout 1200 "$@" >"$log" 2>&1
    rc=$?
    line=$(grep '^summary:' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "   no summary line (crash, trap or hang; exit $rc); last lines of $log:"
        tail -15 "$log" | sed 's/^/   | /'
        finish_stage "$stage" FAIL 0 1 0 - - - units
        return
    fi
    p=$(sed -n 's/.* passed=\([0-9]*\).*/\1/p' <<<"$line")
    f=$(sed -n 's/.* failed=\([0-9]*\).*/\1/p' <<<"$line")
    s=$(sed -n 's/.* skipped=\([0-9]*\).*/\1/p' <<<"$line")
    d=$(sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p' <<<"$line")
    port=$(sed -n 's/.* port=\([a-z0-9]*\).*/\1/p' <<<"$line")
    c=$(sed -n 's/.* corpus=\([0-9a-f-]*\).*/\1/p' <<<"$line")
    [ -z "$ref_corpus" ] && [ "$c" != - ] && ref_corpus=$c
    grep -E '^(FAIL|  FAIL|skip|digest:)' "$log" | head -20 | sed 's/^/   /'
    [ -z "$ref_digest" ] && ref_digest=$d
    if [ "$rc" != 0 ]; then
        # the summary said how the tests went; the exit status says how the
        # process ended (LeakSanitizer reports after main returns: exit 23)
        echo "   exit status $rc after the summary line; last lines of $log:"
        tail -15 "$log" | sed 's/^/   | /'
        res="FAIL(exit $rc)"
        [ "$f" = 0 ] && f=1
    fi
    if ! grep -q ' pinned=synthetic' <<<"$line"; then
        echo "   the synthetic digest was not compared with tests/expected_digests.h ($(grep -o 'pinned=[a-z+]*' <<<"$line" || echo 'no pinned= field'))"
        [ "$res" = pass ] && res="FAIL(digest)"
        f=$((f + 1))
    fi
    finish_stage "$stage" "$res" "$p" "$f" "$s" "$d" "$port" "$c" units
}

build() { # stage, make args...
    local stage=$1; shift
    if ! make -j"$JOBS" WERROR=-Werror "$@" >"$logs/$stage.build.log" 2>&1; then
        echo "== $stage: BUILD FAILED; last lines of $logs/$stage.build.log:"
        tail -20 "$logs/$stage.build.log" | sed 's/^/   | /'
        record "$stage" "FAIL(build)" 0 1 0 - -
        total_fail=$((total_fail + 1))
        return 1
    fi
}

# Parses a script stage's log (ends with "N passed, N failed"); sets p, f, res.
script_counts() { # log, exit status
    local log=$1 rc=$2 line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    p=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' <<<"$line"); f=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
    res=pass
    # a script with no count line is one check, passed if it exits 0
    if [ -z "$line" ]; then if [ "$rc" = 0 ]; then p=1 f=0; else p=0 f=1; fi; fi
    if [ "$rc" != 0 ]; then
        res="FAIL(exit $rc)"
        [ "$f" = 0 ] && f=1
    fi
}

# Runs a script stage that ends with "N passed, N failed".
run_script() { # stage, command...
    local stage=$1; shift
    local log="$logs/$stage.log" p f res rc
    echo "== $stage: $*"
    timeout 1200 "$@" >"$log" 2>&1
    rc=$?
    script_counts "$log" "$rc"
    grep -E '^FAIL|FAILED|: .*(undefined|references|does not)|^digest:' "$log" | grep -v '^ok ' | head -20 | sed 's/^/   /'
    [ "$rc" != 0 ] && echo "   exit status $rc"
    finish_stage "$stage" "$res" "$p" "$f" 0 - - -
}

# A script stage whose log also holds a unit-test `summary:` line (the unit
# tests built another way): its digests join the table and the comparison,
# and a summary with failed tests fails the stage even if the script said not.
run_script_units() { # stage, command...
    local stage=$1 line n st res p f s uf d c
    run_script "$@"
    line=$(grep -o 'summary: .*' "$logs/$stage.log" | tail -1)
    [ -z "$line" ] && return
    n=$((${#rows[@]} - 1))
    IFS='|' read -r st res p f s _ <<<"${rows[$n]}"
    uf=$(sed -n 's/.* failed=\([0-9]*\).*/\1/p' <<<"$line")
    if [ "${uf:-0}" != 0 ] && [ "$f" = 0 ]; then
        echo "   FAIL $stage: the unit tests' summary says failed=$uf, the script passed"
        f=1 res=FAIL
        total_fail=$((total_fail + 1))
    fi
    if ! grep -q ' pinned=synthetic' <<<"$line"; then
        echo "   FAIL $stage: the unit tests' synthetic digest was not compared with tests/expected_digests.h"
        f=$((f + 1))
        [ "$res" = pass ] && res="FAIL(digest)"
        total_fail=$((total_fail + 1))
    fi
    d=$(sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p' <<<"$line")
    c=$(sed -n 's/.* corpus=\([0-9a-f-]*\).*/\1/p' <<<"$line")
    [ -z "$ref_digest" ] && ref_digest=$d
    [ -z "$ref_corpus" ] && [ "$c" != - ] && ref_corpus=$c
    rows[$n]="$st|$res|$p|$f|$s|$d|$(sed -n 's/.* port=\([a-z0-9]*\).*/\1/p' <<<"$line")|$c"
}

# The table, the digest comparison across targets, the total line; returns
# non-zero when anything failed.
summary() {
    local row st res p f s d port c mark mismatch=0 seen=" "
    # a pinned stage that is not in the table at all vanished too (its block
    # removed, or behind a condition that neither ran nor skipped it)
    for row in "${rows[@]}"; do seen="$seen${row%%|*} "; done
    for st in $(printf '%s\n' "${!pins[@]}" | sort); do
        case $seen in *" $st "*) ;; *)
            echo "== $st: FAIL: pinned at least ${pins[$st]} in $pins_file, but it did not run"
            record "$st" "FAIL(missing)" 0 1 0 - -
            total_fail=$((total_fail + 1)) ;;
        esac
    done
    echo
    printf '%-18s %-16s %6s %6s %7s  %-7s %-16s %s\n' target result passed failed skipped port digest corpus-digest
    printf '%-18s %-16s %6s %6s %7s  %-7s %-16s %s\n' ------ ------ ------ ------ ------- ---- ------ -------------
    for row in "${rows[@]}"; do
        IFS='|' read -r st res p f s d port c <<<"$row"
        mark=""
        if [ "$d" != - ] && [ "$d" != "$ref_digest" ]; then mark="  <-- digest differs"; mismatch=1; fi
        if [ "$c" != - ] && [ "$c" != "$ref_corpus" ]; then mark="$mark  <-- corpus digest differs"; mismatch=1; fi
        printf '%-18s %-16s %6s %6s %7s  %-7s %-16s %s%s\n' "$st" "$res" "$p" "$f" "$s" "$port" "$d" "$c" "$mark"
    done
    if [ $mismatch = 1 ]; then
        echo "digests differ between targets: a decoder depends on byte order or float evaluation"
        total_fail=$((total_fail + 1))
    else
        echo "digests: identical on every target that ran (synthetic $ref_digest, corpus ${ref_corpus:-none})"
        echo "(the corpus digest covers tests on ../shared/corpus; bare metal has no files and shows -)"
    fi
    echo
    if [ "$total_skip" -gt 0 ]; then
        echo "$total_pass passed, $total_fail failed, $total_skip skipped"
    else
        echo "$total_pass passed, $total_fail failed"
    fi
    [ "$total_fail" = 0 ]
}
