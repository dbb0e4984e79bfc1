#!/usr/bin/env python3
"""Runs smartssd-spark/README.md's pyspark example as written and checks what it prints.

The shell block of the README's "With a stock Spark" section is run line by line (the build
and the pyspark install are done already; /tmp/ paths move into a private folder), its
`pyspark --jars ...` line with the python block typed in (its >>> and ... prompts removed).
Asserts: the plan shows what the README's q1.explain() comment says (PushedAggregates...),
and Q1's and Q2's tables equal answers computed here from the trace file's bytes.

Usage: readme_check.py REPO_ROOT   (with the pyspark venv's bin/ first on PATH)
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


def readme_blocks(readme):
    text = open(readme, encoding="utf-8").read()
    section = text.split("## With a stock Spark", 1)
    if len(section) != 2:
        fail(readme + " has no '## With a stock Spark' section")
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


def reference(trace, record=20):
    """Q1 and Q2 from the records' bytes: region = server >> 5 (byte 19), type = byte 18."""
    data = open(trace, "rb").read()
    if len(data) % record:
        fail(f"{trace} is {len(data)} bytes, not whole {record}-byte records")
    q1 = collections.Counter()
    pairs = collections.Counter()
    for off in range(0, len(data), record):
        region, typ = data[off + 19] >> 5, data[off + 18]
        q1[region] += 1
        pairs[(region, typ)] += 1
    q2 = []
    for region in sorted(q1):
        ranked = sorted(((t, c) for (r, t), c in pairs.items() if r == region),
                        key=lambda tc: (-tc[1], tc[0]))
        q2 += [(region, t, c) for t, c in ranked[:5]]
    return sorted(q1.items()), q2


def tables(out):
    """The tables that DataFrame.show() printed, as lists of int tuples."""
    found = []
    for m in re.finditer(r"^\+[-+]+\+\n\|.*\|\n\+[-+]+\+\n((?:\|.*\|\n)*)\+[-+]+\+$", out, re.M):
        rows = []
        for row in m.group(1).splitlines():
            rows.append(tuple(int(c) for c in row.strip("|").split("|")))
        found.append(rows)
    return found


def main():
    root = os.path.abspath(sys.argv[1])
    sh, py = readme_blocks(os.path.join(root, "smartssd-spark", "README.md"))
    claim = re.search(r"q1\.explain\(\)\s*#\s*\.\.\.\s*(.*?)\s*\.\.\.", py)
    if not claim:
        fail("the README's q1.explain() line says nothing about the plan")
    work = tempfile.mkdtemp(prefix="smartssd-readme.")
    try:
        pyspark_out = None
        trace = None
        for cmd in commands(sh):
            cmd = cmd.replace("/tmp/", work + "/")
            word = cmd.split()[0]
            if word in ("mvn", "pip") or "ensure-pyspark" in cmd:
                continue  # the build and the install: done before this check
            if word == "pyspark" or "/pyspark " in cmd:
                env = dict(os.environ, PYSPARK_DRIVER_PYTHON_OPTS="-i")  # a piped stdin, typed
                r = subprocess.run(["bash", "-c", cmd], cwd=root, input=typed(py), text=True,
                                   capture_output=True, env=env, timeout=TIMEOUT_S)
                if r.returncode != 0:
                    fail(f"'{cmd}' exited {r.returncode}:\n{r.stdout}\n{r.stderr[-4000:]}")
                pyspark_out = r.stdout
                continue
            r = subprocess.run(["bash", "-c", cmd], cwd=root, capture_output=True, text=True,
                               timeout=TIMEOUT_S)
            if r.returncode != 0:
                fail(f"'{cmd}' exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
            m = re.search(r"gen .*-o (\S+)", cmd)
            if m:
                trace = m.group(1)
        if pyspark_out is None or trace is None:
            fail("the README's shell block has no pyspark line or no loganalyzer gen line")
        print(pyspark_out)
        if claim.group(1) not in pyspark_out:
            fail(f"the plan does not show '{claim.group(1)}', as the README says it does")
        got = tables(pyspark_out)
        want_q1, want_q2 = reference(trace)
        if len(got) != 2:
            fail(f"expected the tables of Q1 and Q2, found {len(got)}")
        if got[0] != want_q1:
            fail(f"Q1 {got[0]} != {want_q1} (computed from {trace})")
        if got[1] != want_q2:
            fail(f"Q2 {got[1]} != {want_q2} (computed from {trace})")
        print(f"readme_check: OK, Q1 {len(want_q1)} regions over "
              f"{sum(c for _, c in want_q1)} records and Q2 {len(want_q2)} rows as computed "
              f"from the trace; the plan shows '{claim.group(1)}'")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
