#!/usr/bin/env bash
# The link's round trip, measured beside its references in one run:
#   1. link_rtt (C, benchmarks/drive/link_rtt.c): a bare unix-socket ping-pong of a poll's
#      frames, the daemon's poll and execute + poll over the same frames, and the same
#      calls with the drive in-process, each pinned to one CPU and to two, blocking and
#      spinning, with CPU per round trip;
#   2. LinkLatencyBenchmark (JMH): execute + poll, execute + polls until done, and poll
#      through Java, JNI and libsmartssd, in-process (emu:) and over smartssd-devd
#      (unix:), with SMARTSSD_SPIN_US=0 (both ends block) and at the default (both ends
#      spin 50 us first); unpinned.
# link_rtt prints each row's p50 over the bare ping-pong's with the same CPUs and the same
# spin; the JMH rows, unpinned, get theirs over the bare ping-pong with the same spin on one
# CPU and on two, from this run.
#   benchmarks/run-latency.sh [--rtt-n N] [extra JMH options, e.g. -wi 1 -i 2]
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
n=20000
if [ "${1:-}" = --rtt-n ]; then n=$2; shift 2; fi
cd "$root"
build=$root/native/target/cmake-release
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target smartssd_jni smartssd-devd link_rtt >/dev/null
mvn -B -q -o package -DskipTests -Dctest.skip -pl benchmarks -am
cp=$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== link_rtt: $n round trips per row (load: $(cut -d' ' -f1-3 /proc/loadavg))"
"$build/benchmarks/drive/link_rtt" "$build/firmware-tasklets/emu/smartssd-devd" "$n" 50 \
  2>/dev/null | tee "$out/rtt.txt"
# the bare ping-pong's p50 by spin (0, 50) and CPUs (same, two): "0 same 18.5" ...
awk -F'|' '$2 ~ /bare ping-pong/ {
  spin = match($2, /spin [0-9]+/) ? substr($2, RSTART + 5, RLENGTH - 5) : 0; cpus = $3; gsub(/ /, "", cpus); gsub(/ /, "", $4)
  print spin, cpus, $4 }' "$out/rtt.txt" > "$out/bare.txt"

for spin in 0 50; do
  echo "== JMH, SMARTSSD_SPIN_US=$spin (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  SMARTSSD_SPIN_US=$spin java -Dsmartssd.native.build="$build" \
    -Dsmartssd.native.path="$build/native/jni/libsmartssd_jni.so" -cp "$cp" \
    org.openjdk.jmh.Main LinkLatencyBenchmark -rf json -rff "$out/spin$spin.json" "$@" \
    > "$out/jmh$spin.log"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
bare = {}
for line in open("%s/bare.txt" % out):
    spin, cpus, p50 = line.split()
    bare[(int(spin), cpus)] = float(p50)
def ratio(p50, spin, cpus):
    ref = bare.get((spin, cpus))
    return "%.2f" % (p50 / ref) if ref else "-"
print()
print("| benchmark | link | grep over | spin us | p50 us | p99 us "
      "| p50 / bare, same spin, one CPU | p50 / bare, same spin, two CPUs |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for spin in (0, 50):
    for r in json.load(open("%s/spin%d.json" % (out, spin))):
        pct = r["primaryMetric"]["scorePercentiles"]
        name = r["benchmark"].rsplit(".", 1)[-1]
        link = r.get("params", {}).get("transport", "")
        over = r.get("params", {}).get("grepOver", "")
        print("| %s | %s | %s | %d | %.1f | %.1f | %s | %s |" % (name, link, over, spin,
              pct["50.0"], pct["99.0"], ratio(pct["50.0"], spin, "same"),
              ratio(pct["50.0"], spin, "two")))
PY
