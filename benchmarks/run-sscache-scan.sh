#!/usr/bin/env bash
# A data set on a slow backing store (throttled://, a rate-limited local FileSystem), scanned
# directly and then cold and warm through sscache:// on an embedded emulated drive in
# virtual time (--time realtime: the old mode); wall clock and modelled time; CSV in
# benchmarks/results/sscache-scan/.
#   benchmarks/run-sscache-scan.sh [--files N] [--file-mib M] [--rate-mbs R] [--warm K]
#     [--drive-mib D] [--time virtual|realtime] [--csv FILE]
# Builds only the client, smartssd-fs and this module
# (the benchmarks module and what it uses, the native release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
cp=$root/benchmarks/target/classes:$root/native/java/target/classes:$root/smartssd-fs/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
# this checkout's JNI library, not the copy in the smartssd-native jar
exec java -Dsmartssd.native.build="$root/native/target/cmake-release" \
  -Dsmartssd.native.path="$root/native/target/cmake-release/native/jni/libsmartssd_jni.so" -cp "$cp" \
  org.smartssd.benchmarks.sscache.SsCacheScanBenchmark \
  --csv "$root/benchmarks/results/sscache-scan/sscache-scan.csv" "$@"
