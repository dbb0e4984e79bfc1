#!/usr/bin/env bash
# Configure, build and test one CMake tree of the C code.
#   ctest-run.sh BUILD_DIR [cmake -D options...] [--target T] [--label L] [--exclude REGEX]
#                [--memcheck]
# With --target, only that target is built; with --label, only tests carrying that CTest
# label run (the fuzz tree builds just its fuzzer, since only the fuzzer links libFuzzer);
# --exclude leaves out the tests whose labels match REGEX (bin/test's fast tier leaves out
# "full"); --memcheck runs the tests under Valgrind's memcheck and fails on any error it
# reports.
set -euo pipefail
build=$1; shift
label=""
exclude="fuzz"
memcheck=false
targets=()
cmake_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --label) label=$2; shift 2 ;;
    --exclude) exclude=$2; shift 2 ;;
    --memcheck) memcheck=true; shift ;;
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
select=(-LE "$exclude")
[ -n "$label" ] && select=(-L "$label")
if ! $memcheck; then
  exec ctest --test-dir "$build" "${select[@]}" --output-on-failure -j "${CTEST_PARALLEL:-2}"
fi
# Under memcheck every test runs some 20-50 times slower: the timeout grows to match, and a
# test program's error exit from Valgrind (99) fails it. A daemon the test starts is not
# traced (its own code is the tests' subject in the sanitizer tree).
# The crash rounds run twice each: their subject, crash consistency, is the sanitizer tree's.
export SS_CRASH_ITERATIONS=2
command -v valgrind >/dev/null || { echo "ctest-run: --memcheck needs valgrind (apt-get install valgrind)" >&2; exit 1; }
ctest --test-dir "$build" "${select[@]}" -T memcheck --output-on-failure \
  -j "${CTEST_PARALLEL:-2}" --timeout 1800 \
  --overwrite MemoryCheckCommand="$(command -v valgrind)" \
  --overwrite "MemoryCheckCommandOptions=--error-exitcode=99 --leak-check=no --errors-for-leak-kinds=none" \
  | tee "$build/memcheck.log"
status=${PIPESTATUS[0]}
# ctest -T memcheck reports "Memory checking results:" followed by one line per error kind
if awk '/^Memory checking results:/{f=1; next} f && /- [0-9]+$/' "$build/memcheck.log" | grep -q .; then
  echo "ctest-run: memcheck reported errors (logs: $build/Testing/Temporary/MemoryChecker.*.log)" >&2
  exit 1
fi
exit "$status"
