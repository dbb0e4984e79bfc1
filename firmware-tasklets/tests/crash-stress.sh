#!/usr/bin/env bash
# Crash-consistency stress: runs the SIGKILL crash tests of the FTL (pages, trims) and of
# the object store (namespace and data), and the power-cut test of the solid-state cache
# (per policy), for many more iterations than CI does.
#   usage: crash-stress.sh [ITERATIONS, default 200] [BUILD_DIR, default the Maven ASan tree]
set -euo pipefail
iterations=${1:-200}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$root/native/target/cmake-asan}
if [ ! -d "$build" ]; then
  cmake -S "$root" -B "$build" -DSS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
fi
cmake --build "$build" -j2 --target ftl_mount_ut objstore_journal_ut ssc_crash_ut >/dev/null
export SS_CRASH_ITERATIONS=$iterations
for t in ftl/ftl_mount_ut objstore/objstore_journal_ut ssc/ssc_crash_ut; do
  echo "== $t: $iterations crash iterations"
  "$build/firmware-tasklets/$t"
done
