#!/usr/bin/env bash
# Gong's buffer policy comparison [Gong 2010, §4.3, Figs. 4.1-4.8] by block-trace replay
# through the emulated drive (tools/replay/smartssd-replay, which `smartssd replay` runs too):
# BPLRU, FAB, LB-CLOCK and HBM on traces generated in the shape of Financial, MSNFS, Exchange,
# CAMWEBDEV and the DiskSim synthetic trace (Gong Tables 4.1 and 4.3), buffers of 1 to 64 MB;
# HBM's static thresholds
# 2, 4, 8, 64 against its dynamic one. Then Smullen's merge cache comparison [Smullen 2010,
# §V-B, Figs. 4-7]: no merge cache (volatile acknowledgements, and every write FUA as the
# paper's baseline's writes are durable) against nv-wb, nv-sub and nv-sat, and nv-wb with
# each read policy, on traces shaped by Smullen Table I, 4 KB pages, a MERGE_MB merge cache
# (default 4) over a SMULLEN_FOOTPRINT_MB footprint (default 128).
# Modelled time and counted operations only.
# Writes buffer_replay.csv, buffer_thresholds.csv, merge_cache.csv, PNGs (matplotlib,
# pinned in benchmarks/requirements.txt, in benchmarks/out/.venv), summary.md and
# merge_cache.md under benchmarks/out/<UTC time>/; prints the summaries.
# ONLY=gong or ONLY=smullen runs one of the two.
#   usage: [SIZES="1 2 4 8 16 32 64"] [THRESHOLD_SIZES="1 16"] benchmarks/run-buffer-replay.sh
#          [REQUESTS, default 10000] [FOOTPRINT_MB, default 64]
# (default buffer sizes 1, 4, 16, 64 MB; the threshold study at 16 MB, as Gong's Fig. 4.8(c))
# (a 96 MiB footprint is refused with BAD_FIELD at the prefill: tools/replay/README.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
requests=${1:-10000}
footprint=${2:-64}
build=$root/native/target/cmake-release
out=$root/benchmarks/out/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSS_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2 --target smartssd-replay >/dev/null
replay=$build/tools/replay/smartssd-replay
traces="financial msnfs exchange camwebdev synthetic"
sizes=${SIZES:-"1 4 16 64"}

only=${ONLY:-}
if [ "$only" != smullen ]; then
csv=$out/buffer_replay.csv
first=--header
for t in $traces; do
  for mb in $sizes; do
    for p in bplru fab lbclock hbm; do
      "$replay" $first --policy "$p" --buffer-mb "$mb" --gen "$t" --requests "$requests" \
        --footprint-mb "$footprint" --csv "$csv"
      first=
    done
  done
done
thr=$out/buffer_thresholds.csv
first=--header
for t in $traces; do
  for mb in ${THRESHOLD_SIZES:-16}; do
    for th in 2 4 8 64 0; do
      "$replay" $first --policy hbm --threshold "$th" --buffer-mb "$mb" --gen "$t" \
        --requests "$requests" --footprint-mb "$footprint" --csv "$thr"
      first=
    done
  done
done
fi

. "$root/benchmarks/plot-python.sh"

if [ "$only" != smullen ]; then
"$py" "$root/benchmarks/plot_buffer_replay.py" "$out" "$requests requests, ${footprint} MiB footprint"
cat "$out/summary.md"
fi

if [ "$only" != gong ]; then
mc=$out/merge_cache.csv
merge_mb=${MERGE_MB:-4}
sfoot=${SMULLEN_FOOTPRINT_MB:-128}
first=--header
for t in smullen-exchange smullen-maps smullen-msnfs smullen-radius; do
  for run in "none" "none --fua" nv-wb nv-sub nv-sat nv-wb+cache nv-wb+prefetch nv-wb+both; do
    set -- $run
    "$replay" $first --policy "$1" ${2:-} --buffer-mb "$merge_mb" --page-kb 4 --gen "$t" \
      --requests "$requests" --footprint-mb "$sfoot" --csv "$mc"
    first=
  done
done
"$py" "$root/benchmarks/plot_merge_cache.py" "$out" \
  "$requests requests, ${merge_mb} MiB merge cache, ${sfoot} MiB footprint, 4 KB pages"
cat "$out/merge_cache.md"
fi
