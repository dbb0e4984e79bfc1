#!/usr/bin/env bash
# Kang 2014 ch. 6 figures (6.6-6.10) on the emulated kang-smartssd drive, in one run:
# CSV, PNG (matplotlib, pinned in benchmarks/requirements.txt, installed into
# benchmarks/out/.venv) and summary.md under benchmarks/out/<timestamp>/; prints the summary.
#   benchmarks/run-kang-suite.sh [--entries N] [--full] [--sizes LIST] [--latency-n N]
#     --entries N  log-analyzer entries (default 20000: a small run)
#     --sizes LIST entry sizes of Figs 6.8-6.10 (default 32,64,128,256)
#     --full       Kang's size: 7,000,000 entries (224 MB at 32 B to 1.8 GB at 256 B), a
#                  1 GiB DRAM sweep, and the wall-clock ratio host-normal / device at 1.8 GB
# Builds only what it needs (the drive's C benchmarks, smartssd-client, smartssd-fs, smartssd-mapreduce,
# smartssd-loganalyzer and this module, offline)
# (the benchmarks module and what it uses, the native release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
entries=20000
sizes=32,64,128,256
sweep_mib=48
latency_n=500
label="small run"
while [ $# -gt 0 ]; do
  case $1 in
    --entries) entries=$2; shift 2 ;;
    --latency-n) latency_n=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --full) entries=7000000; sweep_mib=1024; label="full run"; shift ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) echo "run-kang-suite: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $entries in ''|*[!0-9]*) echo "run-kang-suite: --entries '$entries' is not a count" >&2; exit 2 ;; esac
out=$root/benchmarks/out/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
cd "$root"

# Python and matplotlib for the plots (once).
. "$root/benchmarks/plot-python.sh"

echo "== build" >&2
build=$root/native/target/cmake-release
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target dram_sweep >/dev/null
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
cp=$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
jopts=(-Dsmartssd.native.build="$build")
jni=$build/native/jni/libsmartssd_jni.so
if [ -f "$jni" ]; then jopts+=(-Dsmartssd.native.path="$jni"); fi
if [ "$entries" -ge 1000000 ]; then jopts+=(-Xmx2g); fi

echo "== Fig 6.6: DRAM sweep ($sweep_mib MiB object)" >&2
"$build/benchmarks/drive/dram_sweep" "$sweep_mib" > "$out/fig6_6.csv"
echo "== Fig 6.7: command latency ($latency_n per command, emu: and unix:)" >&2
java "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.kang.CommandLatency --out "$out" \
  --n "$latency_n" 2> "$out/fig6_7.log"
echo "== Figs 6.8-6.10 and wall-clock: $entries entries at $sizes B" >&2
status=0
java "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.kang.LogAnalyzerSuite --out "$out" \
  --entries "$entries" --sizes "$sizes" > "$out/loganalyzer.txt" 2> "$out/loganalyzer.log" \
  || status=$?
"$py" "$root/benchmarks/plot_kang.py" "$out" "$label, $entries entries"
cat "$out/summary.md"
echo
echo "output: $out ($(cd "$out" && ls *.png 2>/dev/null | tr '\n' ' '))"
if [ "$status" -ne 0 ]; then
  echo "run-kang-suite: the log analyzer exited $status (7: versions answered differently); see $out/loganalyzer.log" >&2
fi
exit "$status"
