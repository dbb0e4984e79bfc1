#!/usr/bin/env bash
# Scale of the device version of Q1 at 256 B over 1, 2, 4, 8 drives and 1-3 nodes, modelled
# (each drive's own clock) and wall clock, the host-optimized version's limits, and a
# projection to 100 nodes x 8 drives (ScaleBenchmark; benchmarks/README.md).
#   benchmarks/run-scale.sh [--entries N]
# Builds only what it needs
# (the benchmarks module and what it uses, the native release build too; nothing installed).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
cp=$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
build=$root/native/target/cmake-release
jopts=(-Dsmartssd.native.build="$build")
jni=$build/native/jni/libsmartssd_jni.so
if [ -f "$jni" ]; then jopts+=(-Dsmartssd.native.path="$jni"); fi
exec java -Xmx2g "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.ScaleBenchmark "$@"
