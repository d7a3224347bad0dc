# Loads the tool's test suites (tests/tool/*.sh) into tests/tool-tests.sh:
# each is sourced there, with bin, tmp, clip, corpus and expect() from it and
# its arguments as $1... (${1:-build} is the build folder).
# A suite that does not parse (bash -n) is not run and counts as a failure;
# so does one whose sourcing ends with a non-zero status (it stopped early
# or its last command failed: end a suite with a command that succeeds).
# Each suite's number of tests is printed, so one that shrank shows.
# tests/runner-selftest.sh loads broken suites through it with a fake expect.
# shellcheck shell=bash
run_suites() { # dir, the arguments of tool-tests.sh (the suites see them as $1...)
    local _rs_dir=$1 _rs_suite _rs_err _rs_rc _rs_before
    shift
    for _rs_suite in "$_rs_dir"/*.sh; do
        [ -e "$_rs_suite" ] || continue
        if ! _rs_err=$(bash -n "$_rs_suite" 2>&1); then
            fail=$((fail + 1))
            echo "FAIL suite $(basename "$_rs_suite"): does not parse, none of its tests ran:"
            printf '%s\n' "$_rs_err" | head -5 | sed 's/^/     /'
            continue
        fi
        _rs_before=$((pass + fail))
        # shellcheck source=/dev/null
        . "$_rs_suite" "$@"
        _rs_rc=$?
        if [ "$_rs_rc" != 0 ]; then
            fail=$((fail + 1))
            echo "FAIL suite $(basename "$_rs_suite"): sourcing it ended with status $_rs_rc (stopped early, or its last command failed)"
        fi
        echo "suite $(basename "$_rs_suite"): $((pass + fail - _rs_before)) tests"
    done
}
