#!/usr/bin/env bash
# `make fuzz-long`: a fuzzing campaign over every libFuzzer target.
#
# Each target runs FUZZ_SECONDS with -fork=FUZZ_JOBS (both cores by default)
# from its seeds (tests/fuzz/seed.sh: our writers' output, plus the corpus
# when present), its format's dictionary (tests/fuzz/dict_for) and the
# corpus kept from earlier campaigns; FUZZ_MAX_LEN caps the input length
# (libFuzzer's default is the largest seed).  The corpus it
# grows is merged and minimized into build/fuzz/kept-TARGET, crashes go to
# build/fuzz/crash-*.  Prints one row per target (executions, coverage edges,
# features, crashes, seconds) and a JSON line per target for diffing runs.
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
printf '%-20s %14s %8s %8s %8s %6s\n' target executions edges features crashes secs
for t in "${targets[@]}"; do
    bin=$out/$t
    [ -x "$bin" ] || { echo "$t: not built"; crashes_total=$((crashes_total + 1)); continue; }
    seeds=$out/corpus-$t kept=$out/kept-$t work=$out/work-$t log=$out/$t.campaign.log
    mkdir -p "$seeds" "$kept"
    rm -rf "$work"; mkdir -p "$work"
    start=$(date +%s)
    "$bin" $(tests/fuzz/dict_for "$t") ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} -fork="$jobs" -ignore_crashes=1 -max_total_time="$secs" -artifact_prefix="$out/crash-$t-" \
        -print_final_stats=1 "$work" "$kept" "$seeds" >"$log" 2>&1
    took=$(($(date +%s) - start))
    # the fork-mode parent's last status line: "#N: cov: C ft: F corp: ... crash: a/b/c ..."
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    crashes=$(ls "$out"/crash-"$t"-* 2>/dev/null | wc -l)
    # keep a minimized corpus for the next campaign and for `make coverage`
    mkdir -p "$kept.new"
    "$bin" -merge=1 "$kept.new" "$kept" "$work" >/dev/null 2>&1 && rm -rf "$kept" && mv "$kept.new" "$kept"
    rm -rf "$kept.new" "$work"
    printf '%-20s %14s %8s %8s %8s %6s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$took"
    echo "{\"case\": \"fuzz_campaign\", \"target\": \"$t\", \"executions\": ${execs:-0}, \"edges\": ${cov:-0}, \"features\": ${ft:-0}, \"crashes\": $crashes, \"seconds\": $took}" >>"$out/campaign.jsonl"
    crashes_total=$((crashes_total + crashes))
done
echo "rows also appended as JSON lines to $out/campaign.jsonl"
if [ "$crashes_total" -gt 0 ]; then
    echo "crashes: $crashes_total (inputs in $out/crash-*); each becomes a regression test"
    exit 1
fi
