#!/usr/bin/env bash
# FlashTier ch. 4 cache comparison by trace replay (benchmarks/drive/ssc_trace.c): native
# (FTL + host map; native-D also persists the map of dirty blocks, as FlashCache), SSC and
# SSC-V on the same emulated flash, write-back and write-through (SSC WT, SSC-V WT):
# counted operations, and IOPS in modelled time.
# Writes benchmarks/out/<UTC time>/ssc_trace.csv and flashtier_ssc_trace.png (matplotlib,
# pinned in benchmarks/requirements.txt) and prints two Markdown tables.
#   usage: benchmarks/run-ssc-trace.sh [--unique N] [--workloads homes,mail,usr,proj] [--msr FILE]
#          [--disk-iops N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/native/target/cmake-release
out=$root/benchmarks/out/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target ssc_trace >/dev/null
"$build/benchmarks/drive/ssc_trace" --csv "$out/ssc_trace.csv" "$@"
echo "CSV: $out/ssc_trace.csv"
. "$root/benchmarks/plot-python.sh"
"$py" "$root/benchmarks/plot_ssc_trace.py" "$out"
