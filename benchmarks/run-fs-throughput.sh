#!/usr/bin/env bash
# Sequential write and read throughput through Hadoop's FileSystem API: smartssd:// on an
# embedded emulated drive, in virtual time and in realtime (paced to the kang-smartssd model,
# link 300e6 B/s), against file:// on the same machine in the same run; prints the ratios.
#   benchmarks/run-fs-throughput.sh [--size-mib N] [--realtime-size-mib M] [--runs R]
#                                   [--local-dir DIR]
# Builds only the client, smartssd-fs and this module
# (the benchmarks module and what it uses, the native release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
cp=$root/benchmarks/target/classes:$root/native/java/target/classes:$root/smartssd-fs/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
exec java -Dsmartssd.native.build="$root/native/target/cmake-release" -cp "$cp" \
  org.smartssd.benchmarks.FsThroughputBenchmark "$@"
