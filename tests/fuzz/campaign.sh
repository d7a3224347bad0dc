#!/usr/bin/env bash
# `make fuzz-long`: a fuzzing campaign over every libFuzzer target.
#
# Each target runs FUZZ_SECONDS (or until FUZZ_EXECS executions, when set)
# with -fork=FUZZ_JOBS (both cores by default)
# from its seeds (tests/fuzz/seed.sh: our writers' output, plus the corpus
# when present), its format's dictionary (tests/fuzz/dict_for) and the
# corpus kept from earlier campaigns; FUZZ_MAX_LEN caps the input length
# (libFuzzer's default is the largest seed).  The corpus it
# grows is merged and minimized into build/fuzz/kept-TARGET, crashes go to
# build/fuzz/crash-*.  Prints one row per target (executions, coverage edges,
# features, crashes, slow units, seconds) and a JSON line per target for
# diffing runs.  A slow unit (an input libFuzzer saw take over 10 s of wall
# time, kept as crash-TARGET-slow-unit-*) is not a crash: replay it, and a
# run that stays slow is a hang to fix (a stopped or starved machine makes
# them too).
# Usage: tests/fuzz/campaign.sh [TARGET...]   (all targets when none given)
set -u
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-2}
out=build/fuzz
targets=("$@")
[ ${#targets[@]} = 0 ] && targets=($(ls tests/fuzz/fuzz_*.c | xargs -n1 basename | sed 's/\.c$//'))
make -s fuzz-build >/dev/null || exit 1
bash tests/fuzz/seed.sh >/dev/null
crashes_total=0
printf '%-20s %14s %8s %8s %8s %5s %6s\n' target executions edges features crashes slow secs
for t in "${targets[@]}"; do
    bin=$out/$t
    [ -x "$bin" ] || { echo "$t: not built"; crashes_total=$((crashes_total + 1)); continue; }
    seeds=$out/corpus-$t kept=$out/kept-$t work=$out/work-$t log=$out/$t.campaign.log
    mkdir -p "$seeds" "$kept"
    rm -rf "$work"; mkdir -p "$work"
    start=$(date +%s)
    "$bin" $(tests/fuzz/dict_for "$t") ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} -fork="$jobs" -ignore_crashes=1 -max_total_time="$secs" -artifact_prefix="$out/crash-$t-" \
        -print_final_stats=1 "$work" "$kept" "$seeds" >"$log" 2>&1 &
    pid=$!
    # FUZZ_EXECS: stop (SIGTERM: a background job of a script ignores SIGINT) once the
    # executions reach it; FUZZ_SECONDS stays the cap
    while kill -0 "$pid" 2>/dev/null; do
        sleep 2
        if [ -n "${FUZZ_EXECS:-}" ]; then
            n=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 | sed -n 's/^#\([0-9]*\):.*/\1/p')
            [ -n "$n" ] && [ "$n" -ge "$FUZZ_EXECS" ] && kill -TERM "$pid" 2>/dev/null
        fi
    done
    wait "$pid"
    # jobs already started finish their few seconds: let them, before the next target
    while pgrep -f "^$bin " >/dev/null; do sleep 1; done
    took=$(($(date +%s) - start))
    # the fork-mode parent's last status line: "#N: cov: C ft: F corp: ... crash: a/b/c ..."
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
    # edges and features: the most any status line reported (a stopped run's last line may not)
    cov=$(grep -oE '^#[0-9]+: cov: [0-9]+' "$log" | awk '{if ($3 > m) m = $3} END {print m}')
    ft=$(grep -oE '^#[0-9]+: cov: [0-9]+ ft: [0-9]+' "$log" | awk '{if ($5 > m) m = $5} END {print m}')
    crashes=$(ls "$out"/crash-"$t"-* 2>/dev/null | grep -vc -- "-slow-unit-")
    slow=$(ls "$out"/crash-"$t"-slow-unit-* 2>/dev/null | wc -l)
    # keep a minimized corpus for the next campaign and for `make coverage`
    mkdir -p "$kept.new"
    "$bin" -merge=1 "$kept.new" "$kept" "$work" >/dev/null 2>&1 && rm -rf "$kept" && mv "$kept.new" "$kept"
    rm -rf "$kept.new" "$work"
    printf '%-20s %14s %8s %8s %8s %5s %6s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$slow" "$took"
    echo "{\"case\": \"fuzz_campaign\", \"target\": \"$t\", \"executions\": ${execs:-0}, \"edges\": ${cov:-0}, \"features\": ${ft:-0}, \"crashes\": $crashes, \"slow_units\": $slow, \"seconds\": $took}" >>"$out/campaign.jsonl"
    crashes_total=$((crashes_total + crashes))
done
echo "rows also appended as JSON lines to $out/campaign.jsonl"
if [ "$crashes_total" -gt 0 ]; then
    echo "crashes: $crashes_total (inputs in $out/crash-*); each becomes a regression test"
    exit 1
fi
