#!/usr/bin/env bash
# The log analyzer's Q1 and Q2 through Spark SQL (local[2]) at 32, 64, 128 and 256 B entries,
# in one run, three ways over the same records: Spark over smartssd:// without pushdown, with
# pushdown, and over a Parquet copy on file://; the MapReduce device version answers too, as
# the oracle. CSV, PNG (matplotlib, pinned in benchmarks/requirements.txt, installed into
# benchmarks/out/.venv) and summary.md go to benchmarks/out/spark-<timestamp>/ (or --out).
#   benchmarks/run-spark.sh [--entries N] [--full] [--sizes LIST] [--runs R] [--out DIR]
#     --entries N  entries of the synthetic trace (default 200000: a quick run)
#     --full       7,000,000 entries (224 MB at 32 B to 1.8 GB at 256 B), the size of the
#                  wall-clock goal (pushdown >= 5x faster than no pushdown at 256 B)
#     --sizes LIST entry sizes (default 32,64,128,256)
#     --runs R     runs of each version; the median wall clock is kept (default 1)
#     --columnar   instead: the connector's plain read as rows against columnar batches
#                  (ColumnarScan: 2,000,000 entries at 32 and 256 B unless --entries/--sizes,
#                  5 runs each unless --runs), into columnar.csv
# Builds only what it needs, offline (smartssd-client, -fs, -mapreduce, -spark, the log
# analyzer and this module)
# (the benchmarks module and what it uses, the native release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
entries=200000
sizes=32,64,128,256
runs=1
out=
main=SparkSuite
label="quick run"
while [ $# -gt 0 ]; do
  case $1 in
    --entries) entries=$2; label="custom run"; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --full) entries=7000000; label="full run"; shift ;;
    --columnar) main=ColumnarScan; shift ;;
    -h|--help) sed -n 2,18p "$0"; exit 0 ;;
    *) echo "run-spark: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $entries in ''|*[!0-9]*) echo "run-spark: --entries '$entries' is not a count" >&2; exit 2 ;; esac
case $runs in ''|*[!0-9]*|0) echo "run-spark: --runs '$runs' is not a positive count" >&2; exit 2 ;; esac
out=${out:-$root/benchmarks/out/spark-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
cd "$root"

. "$root/benchmarks/plot-python.sh"

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
# Spark's JDK 17 options (the parent pom's spark.jdk17.opens, as an @argfile)
jopts=("@$jars/spark-jvm.options" -Dsmartssd.native.build="$build")
jni=$build/native/jni/libsmartssd_jni.so
if [ -f "$jni" ]; then jopts+=(-Dsmartssd.native.path="$jni"); fi
if [ "$entries" -ge 1000000 ]; then jopts+=(-Xmx4g); else jopts+=(-Xmx2g); fi

status=0
if [ "$main" = ColumnarScan ]; then
  echo "== plain read, rows against columnar batches" >&2
  args=(--out "$out")
  # the suite's own defaults unless given
  if [ "$label" != "quick run" ]; then args+=(--entries "$entries"); fi
  if [ "$sizes" != 32,64,128,256 ]; then args+=(--sizes "$sizes"); fi
  if [ "$runs" != 1 ]; then args+=(--runs "$runs"); fi
  java "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.spark.ColumnarScan "${args[@]}" \
    2> "$out/columnar.log" || status=$?
  rm -rf "$jars"
  cat "$out/columnar.csv"
  exit "$status"
fi
echo "== Q1, Q2: $entries entries at $sizes B, $runs run(s) each" >&2
java "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.spark.SparkSuite --out "$out" \
  --entries "$entries" --sizes "$sizes" --runs "$runs" 2> >(tee "$out/suite.log" >&2) \
  || status=$?
"$py" "$root/benchmarks/plot_spark.py" "$out" "$label, $entries entries"
rm -rf "$jars"
cat "$out/summary.md"
echo
echo "output: $out ($(cd "$out" && ls *.png 2>/dev/null | tr '\n' ' '))"
if [ "$status" -ne 0 ]; then
  echo "run-spark: the suite exited $status (7: answers differed); see $out/suite.log" >&2
fi
exit "$status"
