#!/usr/bin/env bash
# The emulator's scan rate against this machine's memory bandwidth, from one run
# (benchmarks/drive/scan_rate.c): a group-aggregate over GiB of records on an emulated
# kang-smartssd drive in virtual time, host wall-clock, next to one core's memory-read rate;
# then the same scan again, its image pages mapped already (CPU time).
#   usage: benchmarks/run-scan-rate.sh [--profile] [GiB, default 1]
#     --profile  also sample the first scan (not the writing before it) with `perf record -g`,
#                built with frame pointers, and print the profile's top entries; perf.data
#                is kept in benchmarks/out/scan-profile/ (needs perf: Debian's linux-perf)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
profile=0
if [ "${1:-}" = --profile ]; then profile=1; shift; fi
gib=${1:-1}
if [ "$profile" = 0 ]; then
  build=$root/native/target/cmake-release
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
  cmake --build "$build" -j2 --target scan_rate >/dev/null
  exec "$build/benchmarks/drive/scan_rate" "$gib"
fi

command -v perf >/dev/null || { echo "run-scan-rate: --profile needs perf (apt-get install linux-perf)" >&2; exit 2; }
build=$root/native/target/cmake-profile
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF \
  -DCMAKE_C_FLAGS=-fno-omit-frame-pointer >/dev/null
cmake --build "$build" -j2 --target scan_rate >/dev/null
out=$root/benchmarks/out/scan-profile
mkdir -p "$out"
rm -f "$out/ctl" "$out/ack"
mkfifo "$out/ctl" "$out/ack"
SCAN_RATE_PERF_CTL=$out/ctl SCAN_RATE_PERF_ACK=$out/ack \
  perf record -q -g -D -1 --control "fifo:$out/ctl,$out/ack" -o "$out/perf.data" \
  "$build/benchmarks/drive/scan_rate" "$gib"
rm -f "$out/ctl" "$out/ack"
echo "== profile of the scan (self time, entries >= 1 %; $out/perf.data)"
perf report -i "$out/perf.data" --no-children --stdio -g none --percent-limit 1 2>/dev/null |
  grep -E '^ +[0-9]'
