#!/usr/bin/env bash
# `make mutants`: plumbob's own mutation run (tests/mutants/*.txt; see
# tests/mutants/README.md and docs/RELIABILITY.md, "Mutation testing").
#   bash tests/mutants.sh                 every mutant; report in build/mutants/report.txt
#   bash tests/mutants.sh -a clip         one area (a list file's name)
#   bash tests/mutants.sh -i clip-curve3-sign   one mutant (repeatable)
#   bash tests/mutants.sh --list          check the list (each from: text exactly once) and print it
# Exits 1 below --threshold percent killed (default 95), 2 on a stale list.
set -u
cd "$(dirname "$0")/.."
command -v python3 >/dev/null 2>&1 || { echo "mutants: needs python3 (apt-get install -y python3)" >&2; exit 2; }
exec python3 tests/mutants.py "$@"
