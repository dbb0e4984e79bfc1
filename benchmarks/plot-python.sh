# Sourced by the run-*.sh scripts after they set $root: sets $py to a Python with matplotlib and
# duckdb (run-parquet.sh's fourth way; both pinned in benchmarks/requirements.txt, installed once
# into benchmarks/out/.venv), or to
# python3 when it cannot be installed; the plot scripts then write CSV and tables only.
plot_venv=$root/benchmarks/out/.venv
if [ ! -x "$plot_venv/bin/python" ] || ! "$plot_venv/bin/python" -c 'import matplotlib, duckdb' 2>/dev/null; then
  python3 -m venv "$plot_venv" && "$plot_venv/bin/pip" -q install -r "$root/benchmarks/requirements.txt" ||
    echo "no matplotlib or duckdb: CSV and tables only" >&2
fi
py=$plot_venv/bin/python
[ -x "$py" ] || py=python3
