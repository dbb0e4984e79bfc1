#!/usr/bin/env bash
# IOPS and modelled time against queue depth 1, 2, 4, 8, 16, 32 (benchmarks/drive/queue_depth.c):
# 4 KiB random reads and 8 KiB writes (durable and buffered) through one thread's submission
# queue, and tasklet executes, on an emulated kang-smartssd drive in virtual time. Writes
# queue_depth.csv, queue_depth.png and the model's bounds (bounds.txt) under
# benchmarks/results/queue-depth/ (or OUT_DIR).
#   usage: benchmarks/run-queue-depth.sh [reads per depth, default 4096]
#          [runs per depth, default 32] [writes per depth, default 1024]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
reads=${1:-4096}
runs=${2:-32}
writes=${3:-1024}
out=${OUT_DIR:-$root/benchmarks/results/queue-depth}
build=$root/native/target/cmake-release
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target queue_depth >/dev/null
mkdir -p "$out"
"$build/benchmarks/drive/queue_depth" "$reads" "$runs" "$writes" >"$out/queue_depth.csv" 2>"$out/bounds.txt" || {
  cat "$out/bounds.txt" >&2
  exit 1
}
. "$root/benchmarks/plot-python.sh"
"$py" "$root/benchmarks/plot_queue_depth.py" "$out"
cat "$out/bounds.txt"
column -s, -t "$out/queue_depth.csv"
