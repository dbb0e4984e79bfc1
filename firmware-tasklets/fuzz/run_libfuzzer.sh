#!/bin/sh
# Runs the libFuzzer target over the seed corpus plus SS_FUZZ_RUNS (default 100000) generated
# and mutated inputs; bin/test's fast tier sets 10000.
#   usage: run_libfuzzer.sh FUZZ_CMD WORK_DIR CORPUS_DIR
set -eu
fuzzer=$1 work=$2 corpus=$3
rm -rf "$work"
mkdir -p "$work"
exec "$fuzzer" "$work" "$corpus" -runs="${SS_FUZZ_RUNS:-100000}" -seed=1 -max_len=20480 -timeout=30 \
  -print_final_stats=1
