#!/usr/bin/env bash
# Configure, build and test one CMake tree of the C code.
#   ctest-run.sh BUILD_DIR [cmake -D options...] [--label L]
# With --label, only tests carrying that CTest label run (and nothing is built when the
# label's option leaves no such tests).
set -euo pipefail
build=$1; shift
label=""
cmake_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --label) label=$2; shift 2 ;;
    *) cmake_args+=("$1"); shift ;;
  esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$src" -B "$build" "${cmake_args[@]}" >/dev/null
cmake --build "$build" -j2
if [ -n "$label" ]; then
  ctest --test-dir "$build" -L "$label" --output-on-failure -j "${CTEST_PARALLEL:-2}"
else
  ctest --test-dir "$build" -LE fuzz --output-on-failure -j "${CTEST_PARALLEL:-2}"
fi
