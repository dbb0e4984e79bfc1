#!/usr/bin/env bash
# Builds the project and runs the link-latency JMH benchmark: the execute/poll round trip
# in-process (emu:) and through smartssd-devd (unix:), printing p50 and p99 in microseconds.
#   benchmarks/run-latency.sh [extra JMH options, e.g. -wi 1 -i 2]
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mvn -B -q install -DskipTests
cp=$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")
json=$(mktemp --suffix=.json)
trap 'rm -f "$json"' EXIT
java -Dsmartssd.native.build="$root/native/target/cmake-release" -cp "$cp" \
  org.openjdk.jmh.Main LinkLatencyBenchmark -rf json -rff "$json" "$@"
python3 - "$json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
print()
print("%-18s %-5s %10s %10s" % ("benchmark", "link", "p50 us", "p99 us"))
for r in rows:
    pct = r["primaryMetric"]["scorePercentiles"]
    name = r["benchmark"].rsplit(".", 1)[-1]
    link = r.get("params", {}).get("transport", "")
    print("%-18s %-5s %10.1f %10.1f" % (name, link, pct["50.0"], pct["99.0"]))
PY
