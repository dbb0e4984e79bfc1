#!/usr/bin/env bash
# Parquet in the drive against Parquet on a plain drive (issue #33 §3): the synthetic
# WorldCup98 trace as Spark-written snappy Parquet plus a ~100 B string column, on smartssd://
# and byte-identical on file://; Q1, Q2 and a selective query (~1 % of rows, five columns)
# four ways in one run: the connector with pushdown (placement=auto), Spark's Parquet reader
# over smartssd:// (the drive as a plain SSD), Spark's reader on file://, and DuckDB (pinned in
# benchmarks/requirements.txt) over the file:// copy. Then a selectivity x columns sweep of the
# first two, modelled. Answers must be identical across the four (exit 7 otherwise).
# CSV, summary.md and parquet_sweep.png go to benchmarks/out/parquet-<timestamp>/ (or --out).
#   benchmarks/run-parquet.sh [--rows N] [--full] [--runs R] [--no-sweep] [--out DIR]
#     --rows N    entries (default 200000: a quick run)
#     --full      7,000,000 entries, the issue's size
#     --runs R    runs of each way and query; the median wall clock is kept (default 5)
#     --no-sweep  leave the sweep out
#     --row-group-rows N  rows per row group the writer is held to (default 1024: see
#                 ParquetSuite.ROW_GROUP_ROWS; larger ones do not fit the drive's 4 MiB ISP
#                 pool and are read on the host)
#     --placement P  the connector's placement (default auto; device or host to see one
#                 side alone; the goals are auto's)
# Builds only what it needs, offline (the benchmarks module and what it uses, the native
# release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rows=200000
runs=5
sweep=true
rgr=()
placement=auto
out=
label="quick run"
while [ $# -gt 0 ]; do
  case $1 in
    --rows) rows=$2; label="custom run"; shift 2 ;;
    --full) rows=7000000; label="full run"; shift ;;
    --runs) runs=$2; shift 2 ;;
    --no-sweep) sweep=false; shift ;;
    --row-group-rows) rgr=(--row-group-rows "$2"); shift 2 ;;
    --placement) placement=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n 2,21p "$0"; exit 0 ;;
    *) echo "run-parquet: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $placement in auto) ;; device|host) label="$label, placement=$placement" ;;
  *) echo "run-parquet: --placement '$placement' is not auto, device or host" >&2; exit 2 ;; esac
case $rows in ''|*[!0-9]*|0) echo "run-parquet: --rows '$rows' is not a positive count" >&2; exit 2 ;; esac
case $runs in ''|*[!0-9]*|0) echo "run-parquet: --runs '$runs' is not a positive count" >&2; exit 2 ;; esac
out=${out:-$root/benchmarks/out/parquet-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
cd "$root"

. "$root/benchmarks/plot-python.sh"
if ! "$py" -c 'import duckdb' 2>/dev/null; then
  echo "run-parquet: no duckdb for $py (benchmarks/requirements.txt pins it)" >&2
  exit 2
fi

echo "== build" >&2
build=$root/native/target/cmake-release
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
# A private copy of this checkout's jars and classes: a build during a long run cannot
# change what the run loads.
jars=$out/.classpath
rm -rf "$jars" && mkdir -p "$jars"
cp -r "$root/benchmarks/target/classes" "$jars/benchmarks-classes"
cp "$root/examples/loganalyzer/target/spark-jvm.options" "$jars/"
cp=$jars/benchmarks-classes
IFS=: read -r -a deps < "$root/benchmarks/target/classpath.txt" || true  # no final newline
for d in "${deps[@]}"; do
  case $d in
    "$root"/*) cp "$d" "$jars/" && cp=$cp:$jars/$(basename "$d") ;;
    *) cp=$cp:$d ;;
  esac
done
jopts=("@$jars/spark-jvm.options" -Dsmartssd.native.build="$build")
jni=$build/native/jni/libsmartssd_jni.so
if [ -f "$jni" ]; then jopts+=(-Dsmartssd.native.path="$jni"); fi
if [ "$rows" -ge 1000000 ]; then jopts+=(-Xmx6g); else jopts+=(-Xmx2g); fi

copy=$out/file-copy  # no leading dot: Spark skips hidden paths
trap 'rm -rf "$jars" "$copy"' EXIT
status=0
echo "== $rows entries, $runs run(s) of each way and query" >&2
java "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.parquet.ParquetSuite --out "$out" \
  --keep "$copy" --rows "$rows" --runs "$runs" --sweep "$sweep" --placement "$placement" \
  "${rgr[@]}" \
  2> >(tee "$out/suite.log" >&2) || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 7 ]; then
  echo "run-parquet: the suite failed ($status); see $out/suite.log" >&2
  exit "$status"
fi
echo "== duckdb over the file:// copy" >&2
"$py" "$root/benchmarks/parquet_duckdb.py" "$out" "$copy" "$runs"
"$py" "$root/benchmarks/plot_parquet.py" "$out" "$label, $rows entries" || status=$?
echo
echo "output: $out"
if [ "$status" -ne 0 ]; then
  echo "run-parquet: answers differed (exit $status); see $out/summary.md" >&2
fi
exit "$status"
