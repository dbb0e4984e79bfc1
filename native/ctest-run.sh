#!/usr/bin/env bash
# Configure, build and test one CMake tree of the C code.
#   ctest-run.sh BUILD_DIR [cmake -D options...] [--target T] [--label L]
# With --target, only that target is built; with --label, only tests carrying that CTest
# label run (the fuzz tree builds just its fuzzer, since only the fuzzer links libFuzzer).
set -euo pipefail
build=$1; shift
label=""
targets=()
cmake_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --label) label=$2; shift 2 ;;
    --target) targets+=(--target "$2"); shift 2 ;;
    *) cmake_args+=("$1"); shift ;;
  esac
done
case " ${cmake_args[*]} " in
  *" -DSS_FUZZ=OFF "*) echo "ctest-run: fuzzing disabled (-Dss.fuzz=OFF): skipped"; exit 0 ;;
esac
src=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$src" -B "$build" "${cmake_args[@]}" >/dev/null
cmake --build "$build" -j2 "${targets[@]}"
if [ -n "$label" ]; then
  ctest --test-dir "$build" -L "$label" --output-on-failure -j "${CTEST_PARALLEL:-2}"
else
  ctest --test-dir "$build" -LE fuzz --output-on-failure -j "${CTEST_PARALLEL:-2}"
fi
