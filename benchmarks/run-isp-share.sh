#!/usr/bin/env bash
# A 1 MiB scan executed right after a 1 GiB one on one emulated drive: the modelled
# completion of each, first come first served and with the ISP core shared
# (benchmarks/drive/isp_share.c; modelled time only).
#   usage: benchmarks/run-isp-share.sh [LONG_MiB [SHORT_KiB]] (default 1024 1024)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/native/target/cmake-release
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target isp_share >/dev/null
exec "$build/benchmarks/drive/isp_share" "$@"
