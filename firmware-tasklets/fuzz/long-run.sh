#!/usr/bin/env bash
# The long fuzz run (not CI, which runs 10^5 inputs per harness): N inputs (default 10^6)
# through each harness (the command layer's, the eBPF module's in bpf/fuzz, and the Parquet
# decoder's in parquet/fuzz) under AddressSanitizer and UndefinedBehaviorSanitizer: the replay and
# mutation driver (any compiler) and the libFuzzer target (clang). Prints each harness's
# count and exits non-zero on the first crash or broken invariant.
#   usage: firmware-tasklets/fuzz/long-run.sh [N] [BUILD_DIR]
set -euo pipefail
n=${1:-1000000}
build=${2:-/tmp/smartssd-fuzz-long}
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$root/firmware-tasklets/fuzz/corpus
bpf_corpus=$root/firmware-tasklets/bpf/fuzz/corpus
pq_corpus=$root/firmware-tasklets/parquet/fuzz/corpus

cmake -S "$root" -B "$build/asan" -DSS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DSS_JNI=OFF >/dev/null
cmake --build "$build/asan" -j"$(nproc)" --target fuzz_replay fuzz_bpf_replay \
  pq_fuzz_replay >/dev/null
echo "== fuzz_replay (gcc, ASan+UBSan): $n inputs"
UBSAN_OPTIONS=halt_on_error=1 "$build/asan/firmware-tasklets/fuzz/fuzz_replay" "$corpus" "$n" 7
echo "== fuzz_bpf_replay (gcc, ASan+UBSan, bounds asserted): $n inputs"
UBSAN_OPTIONS=halt_on_error=1 "$build/asan/firmware-tasklets/bpf/fuzz_bpf_replay" "$bpf_corpus" "$n" 7
echo "== pq_fuzz_replay (gcc, ASan+UBSan): $n inputs"
UBSAN_OPTIONS=halt_on_error=1 "$build/asan/firmware-tasklets/parquet/fuzz/pq_fuzz_replay" "$pq_corpus" "$n" 7

CC=clang cmake -S "$root" -B "$build/libfuzzer" -DSS_FUZZ=ON -DSS_JNI=OFF >/dev/null
cmake --build "$build/libfuzzer" -j"$(nproc)" --target fuzz_cmd fuzz_bpf fuzz_parquet \
  >/dev/null
echo "== fuzz_cmd (libFuzzer, ASan+UBSan): $n inputs"
rm -rf "$build/work" && mkdir -p "$build/work/corpus"
if ! ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
  "$build/libfuzzer/firmware-tasklets/fuzz/fuzz_cmd" "$build/work/corpus" "$corpus" \
  -runs="$n" -seed=7 -max_len=20480 -timeout=30 -print_final_stats=1 \
  -artifact_prefix="$build/work/" >"$build/work/fuzz_cmd.log" 2>&1; then
  tail -40 "$build/work/fuzz_cmd.log" >&2
  echo "long-run: fuzz_cmd failed; its inputs are in $build/work" >&2
  exit 1
fi
grep -E "stat::number_of_executed_units|Done" "$build/work/fuzz_cmd.log"

echo "== fuzz_bpf (libFuzzer, ASan+UBSan, bounds asserted): $n inputs"
rm -rf "$build/work-bpf" && mkdir -p "$build/work-bpf/corpus"
if ! ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
  "$build/libfuzzer/firmware-tasklets/bpf/fuzz_bpf" "$build/work-bpf/corpus" "$bpf_corpus" \
  -runs="$n" -seed=7 -max_len=4096 -timeout=30 -print_final_stats=1 \
  -artifact_prefix="$build/work-bpf/" >"$build/work-bpf/fuzz_bpf.log" 2>&1; then
  tail -40 "$build/work-bpf/fuzz_bpf.log" >&2
  echo "long-run: fuzz_bpf failed; its inputs are in $build/work-bpf" >&2
  exit 1
fi
grep -E "stat::number_of_executed_units|Done" "$build/work-bpf/fuzz_bpf.log"

echo "== fuzz_parquet (libFuzzer, ASan+UBSan): $n inputs"
rm -rf "$build/work-pq" && mkdir -p "$build/work-pq/corpus"
if ! ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
  "$build/libfuzzer/firmware-tasklets/parquet/fuzz/fuzz_parquet" "$build/work-pq/corpus" \
  "$pq_corpus" -runs="$n" -seed=7 -max_len=20480 -timeout=30 -print_final_stats=1 \
  -artifact_prefix="$build/work-pq/" >"$build/work-pq/fuzz_parquet.log" 2>&1; then
  tail -40 "$build/work-pq/fuzz_parquet.log" >&2
  echo "long-run: fuzz_parquet failed; its inputs are in $build/work-pq" >&2
  exit 1
fi
grep -E "stat::number_of_executed_units|Done" "$build/work-pq/fuzz_parquet.log"
echo "long-run: 0 crashes in $n inputs per harness"
