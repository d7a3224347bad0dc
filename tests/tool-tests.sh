#!/usr/bin/env bash
# Runs the plumbob tool's subcommands and checks what they print and return.
# Usage: tests/tool-tests.sh BUILD_DIR   (prints `N passed, N failed`)
set -u
bin="${1:-build}/plumbob"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

expect() { # name, wanted exit status, grep pattern for stdout+stderr, command...
    local name=$1 want=$2 pat=$3; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" = "$want" ] && printf '%s' "$out" | grep -qE -- "$pat"; then
        pass=$((pass + 1)); echo "ok   $name"
    else
        fail=$((fail + 1)); echo "FAIL $name (exit $rc, wanted $want; output below)"; printf '%s\n' "$out" | head -5
    fi
}

printf 'hello' > "$tmp/text.bin"
printf 'DBPF\002\000\000\000' > "$tmp/pkg.package"
expect help 0 'usage: plumbob COMMAND' "$bin" --help
expect no-args 2 'usage: plumbob COMMAND' "$bin"
expect unknown-command 2 "unknown command 'frobnicate'" "$bin" frobnicate
expect version 0 '^plumbob [0-9]+\.[0-9]+\.[0-9]+$' "$bin" --version
expect info-help 0 'usage: plumbob info FILE' "$bin" info --help
expect info-missing-file 1 'plumbob: /nonexistent/x: cannot open' "$bin" info /nonexistent/x
expect info-unknown 1 'unknown format \(5 bytes\)' "$bin" info "$tmp/text.bin"
expect info-dbpf 0 'dbpf, 8 bytes' "$bin" info "$tmp/pkg.package"
expect check-help 0 'usage: plumbob check FILE' "$bin" check --help
expect check-unknown 1 'unknown: no decoder' "$bin" check "$tmp/text.bin"
expect demo 0 'instance 0x96C0858840EA78E5' "$bin" demo

if [ $fail = 0 ]; then echo "$pass passed, $fail failed"; exit 0; fi
echo "$pass passed, $fail failed"
exit 1
