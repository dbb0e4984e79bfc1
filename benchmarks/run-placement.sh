#!/usr/bin/env bash
# Cost-based placement on every Fig. 6.8 cell: host-only, device-only and auto, modelled
# (PlacementBenchmark; benchmarks/README.md); CSV in benchmarks/results/placement.
#   benchmarks/run-placement.sh [--entries N] [--out DIR]
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
exec java -Xmx2g "${jopts[@]}" -cp "$cp" org.smartssd.benchmarks.placement.PlacementBenchmark "$@"
