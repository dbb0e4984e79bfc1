#!/usr/bin/env bash
# The device FTL against the host block target, and zone append against the target's log
# (benchmarks/drive/ocssd_vs_ftl.c; issue #39 §3): emulated kang-smartssd drives in this
# process, virtual time. Writes latency.csv, waits.csv, qd.csv, cost.csv and zoned.csv (one
# per table of the program's output) and notes.txt (its stderr) under
# benchmarks/results/ocssd/ (or OUT_DIR). The images (3 of the capacity) go to a temporary
# directory under TMPDIR.
#   usage: benchmarks/run-ocssd.sh [capacity MiB, default 1024 (448 at least)]
#          [writes per LBA in %, default 100] [reads per depth, default 8192] [log MiB]
#   quick: benchmarks/run-ocssd.sh 512 100 2048   (BUILD_DIR: another RelWithDebInfo tree)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$root/benchmarks/results/ocssd}
build=${BUILD_DIR:-$root/native/target/cmake-release}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target ocssd_vs_ftl >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/ocssd.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
"$build/benchmarks/drive/ocssd_vs_ftl" "$work" "$@" >"$work/all.csv" 2>"$out/notes.txt" || {
  cat "$out/notes.txt" >&2
  exit 1
}
# each row is led by its table's name, the header rows first: a file per table, without it
awk -F, -v out="$out" '{ f = out "/" $1 ".csv"; if (!(f in seen)) { seen[f] = 1; printf "" > f }
  sub(/^[^,]*,/, ""); print >> f }' "$work/all.csv"
cat "$out/notes.txt"
for t in latency waits qd cost zoned; do
  echo "== $t"
  column -s, -t "$out/$t.csv"
done
