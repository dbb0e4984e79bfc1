#!/usr/bin/env bash
# The emulator's scan rate against this machine's memory bandwidth, from one run
# (benchmarks/drive/scan_rate.c): a group-aggregate over GiB of records on an emulated
# kang-smartssd drive in virtual time, host wall-clock, next to one core's memory-read rate.
#   usage: benchmarks/run-scan-rate.sh [GiB, default 1]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/native/target/cmake-release
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target scan_rate >/dev/null
exec "$build/benchmarks/drive/scan_rate" "${1:-1}"
