#!/usr/bin/env bash
# A data set on a slow backing store (throttled://, a rate-limited local FileSystem), scanned
# directly and then cold and warm through sscache:// on an embedded emulated drive in
# realtime; wall clock and modelled time; CSV in benchmarks/results/sscache-scan/.
#   benchmarks/run-sscache-scan.sh [--files N] [--file-mib M] [--rate-mbs R] [--warm K]
# Builds only the client, smartssd-fs and this module; the native module must be installed once
# (mvn -B install -DskipTests -pl native).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mvn -B -q package -DskipTests -pl native/java,smartssd-fs,benchmarks
cp=$root/benchmarks/target/classes:$root/native/java/target/classes:$root/smartssd-fs/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
exec java -Dsmartssd.native.build="$root/native/target/cmake-release" -cp "$cp" \
  org.smartssd.benchmarks.sscache.SsCacheScanBenchmark \
  --csv "$root/benchmarks/results/sscache-scan/sscache-scan.csv" "$@"
