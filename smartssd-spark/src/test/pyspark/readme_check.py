#!/usr/bin/env python3
"""Runs the READMEs' pyspark examples as written and checks what they print.

Two examples: the top-level README.md's "Spark in ten lines" and smartssd-spark/README.md's
"With a stock Spark". The shell block of each section is run line by line (the build and
the pyspark install are done already; /tmp/ paths move into a private folder), its
`pyspark --jars ...` line with the python block typed in (its >>> and ... prompts removed).
Asserts, for the top-level README: the plan shows what the q.explain() comment says and
every row group of the Parquet table in the drive, and both tables (the connector and
Spark's Parquet reader) equal counts computed here; for
smartssd-spark's: the plans show what the q1.explain() and p1.explain() comments say
(PushedAggregates..., pushedFilters=... with every row group in the drive), and the tables
of Q1, Q2 and p1 (Q1 over the Parquet copy, size > N) equal answers computed here from the
trace file's bytes.

Usage: readme_check.py REPO_ROOT [top|spark]   (with the pyspark venv's bin/ first on PATH;
default both)
Only the Python standard library; exits non-zero naming the first difference.
"""
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

TIMEOUT_S = 600


def fail(msg):
    sys.exit("readme_check: " + msg)


def readme_blocks(readme, heading):
    text = open(readme, encoding="utf-8").read()
    section = text.split("\n" + heading + "\n", 1)
    if len(section) != 2:
        fail(f"{readme} has no '{heading}' section")
    section[1] = section[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(sh|python)\n(.*?)```", section[1], re.S)
    sh = next((b for k, b in blocks if k == "sh"), None)
    py = next((b for k, b in blocks if k == "python"), None)
    if sh is None or py is None:
        fail("the section has no sh or no python block")
    return sh, py


def commands(sh):
    """The shell block's commands, continuation lines joined."""
    out, cur = [], ""
    for line in sh.splitlines():
        cur += line.rstrip()
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        if cur.strip():
            out.append(cur.strip())
        cur = ""
    return out


def typed(py):
    """What a user types at the >>> prompt: the python block without prompts."""
    lines = []
    for line in py.splitlines():
        if line.startswith(">>> ") or line.startswith("... "):
            lines.append(line[4:])
        elif line in (">>>", "..."):
            lines.append("")
    return "\n".join(lines) + "\n"


def reference(trace, min_size, record=20):
    """Q1, Q2 and Q1 over the records of a size above min_size, from the records' bytes:
    region = server >> 5 (byte 19), type = byte 18, size = bytes 12-15 (big-endian)."""
    data = open(trace, "rb").read()
    if len(data) % record:
        fail(f"{trace} is {len(data)} bytes, not whole {record}-byte records")
    q1 = collections.Counter()
    big = collections.Counter()
    pairs = collections.Counter()
    for off in range(0, len(data), record):
        region, typ = data[off + 19] >> 5, data[off + 18]
        q1[region] += 1
        pairs[(region, typ)] += 1
        if struct.unpack_from(">I", data, off + 12)[0] > min_size:
            big[region] += 1
    q2 = []
    for region in sorted(q1):
        ranked = sorted(((t, c) for (r, t), c in pairs.items() if r == region),
                        key=lambda tc: (-tc[1], tc[0]))
        q2 += [(region, t, c) for t, c in ranked[:5]]
    return sorted(q1.items()), q2, sorted(big.items())


def tables(out):
    """The tables that DataFrame.show() printed, as lists of int tuples."""
    found = []
    for m in re.finditer(r"^\+[-+]+\+\n\|.*\|\n\+[-+]+\+\n((?:\|.*\|\n)*)\+[-+]+\+$", out, re.M):
        rows = []
        for row in m.group(1).splitlines():
            rows.append(tuple(int(c) for c in row.strip("|").split("|")))
        found.append(rows)
    return found


def run_example(root, sh, py, work):
    """Runs the shell block (the pyspark line with the python block typed in); returns what
    pyspark printed and the shell block's commands as run."""
    pyspark_out = None
    ran = []
    for cmd in commands(sh):
        cmd = cmd.replace("/tmp/", work + "/")
        word = cmd.split()[0]
        if word in ("mvn", "pip", "export") or "ensure-pyspark" in cmd:
            continue  # the build, the install and the PATH: done before this check
        if word == "pyspark" or "/pyspark " in cmd:
            env = dict(os.environ, PYSPARK_DRIVER_PYTHON_OPTS="-i")  # a piped stdin, typed
            r = subprocess.run(["bash", "-c", cmd], cwd=root, input=typed(py), text=True,
                               capture_output=True, env=env, timeout=TIMEOUT_S)
            if r.returncode != 0 or "Traceback (most recent call last)" in r.stdout + r.stderr:
                fail(f"'{cmd}' exited {r.returncode}:\n{r.stdout}\n{r.stderr[-4000:]}")
            pyspark_out = r.stdout
            # the connector logs each Parquet row group it could not run in the drive
            host = [l for l in r.stderr.splitlines() if "read on the host" in l]
            if host:
                fail("row groups were read on the host, not in the drive:\n" + "\n".join(host))
            continue
        r = subprocess.run(["bash", "-c", cmd], cwd=root, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
        if r.returncode != 0:
            fail(f"'{cmd}' exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
        ran.append(cmd)
    if pyspark_out is None:
        fail("the README's shell block has no pyspark line")
    print(pyspark_out)
    return pyspark_out, ran


def plan_claim(py, call):
    claim = re.search(re.escape(call) + r"\s*#\s*\.\.\.\s*(.*?)\s*\.\.\.", py)
    if not claim:
        fail(f"the README's {call} line says nothing about the plan")
    return claim.group(1)


def check_top(root, work):
    """README.md: a Parquet table written by Spark's own writer onto the drive, read by the
    connector (the filter in the drive) and by Spark's Parquet reader, filtered and counted
    per key."""
    sh, py = readme_blocks(os.path.join(root, "README.md"), "## Spark in ten lines")
    claim = plan_claim(py, "q.explain()")
    out, _ = run_example(root, sh, py, work)
    if claim not in out:
        fail(f"the plan does not show '{claim}', as README.md says it does")
    scan = re.search(r"SmartSsdParquetScan \[files=\d+, rowGroups=(\d+), drive=(\d+),[^\n]*", out)
    if not scan:
        fail("the plan shows no SmartSsdParquetScan: the connector did not read the table as "
             "Parquet")
    if scan.group(1) != scan.group(2) or "host(" in scan.group(0):
        fail(f"not every row group ran in the drive: {scan.group(0)}")
    # the example's table: spark.range(1000000), k = id & 7, v = id * 3; WHERE v > 100
    m = re.search(r"spark\.range\((\d+)\)", py)
    if not m or 'id & 7 AS k' not in py or 'id * 3 AS v' not in py or 'v > 100' not in py \
            or not re.search(r"df\.write\..*\.parquet\(", py) \
            or 'format("smartssd").load(' not in py:
        fail("README.md's example no longer builds the table this check computes "
             "(spark.range(N), id & 7 AS k, id * 3 AS v, written with df.write...parquet, read "
             "with format(\"smartssd\"), WHERE v > 100): update both")
    want = collections.Counter(i & 7 for i in range(int(m.group(1))) if i * 3 > 100)
    want = sorted(want.items())
    got = tables(out)
    if len(got) != 2:
        fail(f"expected two tables (the connector, then Spark's reader), found {len(got)}")
    for name, table in zip(("format(\"smartssd\")", "spark.read.parquet"), got):
        if table != want:
            fail(f"{name}: {table} != {want} (computed here)")
    print(f"readme_check: README.md OK, both reads give {want}; the plan shows '{claim}' "
          f"and every row group in the drive ({scan.group(2)})")


def check_spark(root, work):
    sh, py = readme_blocks(os.path.join(root, "smartssd-spark", "README.md"),
                           "## With a stock Spark (pyspark from PyPI)")
    claim = plan_claim(py, "q1.explain()")
    pq_claim = plan_claim(py, "p1.explain()")
    out, ran = run_example(root, sh, py, work)
    trace = next((m.group(1) for c in ran for m in [re.search(r"gen .*-o (\S+)", c)] if m),
                 None)
    if trace is None:
        fail("smartssd-spark/README.md's shell block has no loganalyzer gen line")
    for c in (claim, pq_claim):
        if c not in out:
            fail(f"the plan does not show '{c}', as the README says it does")
    scan = re.search(r"SmartSsdParquetScan \[files=\d+, rowGroups=(\d+), drive=(\d+),[^\n]*", out)
    if not scan or scan.group(1) != scan.group(2) or "host(" in scan.group(0):
        fail("p1's plan shows no Parquet scan with every row group in the drive: "
             + (scan.group(0) if scan else "no SmartSsdParquetScan"))
    m = re.search(r'p\.where\("size > (\d+)"\)\.groupBy\("region"\)', py)
    if not m:
        fail("smartssd-spark/README.md's p1 is no longer Q1 over size > N: update this check")
    got = tables(out)
    want_q1, want_q2, want_big = reference(trace, int(m.group(1)))
    if len(got) != 3:
        fail(f"expected the tables of Q1, Q2 and p1, found {len(got)}")
    if got[0] != want_q1:
        fail(f"Q1 {got[0]} != {want_q1} (computed from {trace})")
    if got[1] != want_q2:
        fail(f"Q2 {got[1]} != {want_q2} (computed from {trace})")
    if got[2] != want_big:
        fail(f"p1 (Parquet) {got[2]} != {want_big} (computed from {trace})")
    print(f"readme_check: smartssd-spark/README.md OK, Q1 {len(want_q1)} regions over "
          f"{sum(c for _, c in want_q1)} records, Q2 {len(want_q2)} rows and p1 over the "
          f"Parquet copy ({sum(c for _, c in want_big)} records) as computed from the trace; "
          f"the plans show '{claim}' and '{pq_claim}'")


def main():
    root = os.path.abspath(sys.argv[1])
    which = sys.argv[2:] or ["top", "spark"]
    for name in which:
        if name not in ("top", "spark"):
            fail(f"unknown example '{name}': top or spark")
        work = tempfile.mkdtemp(prefix="smartssd-readme.")
        try:
            (check_top if name == "top" else check_spark)(root, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
