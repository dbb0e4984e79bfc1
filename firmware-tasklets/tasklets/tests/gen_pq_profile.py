#!/usr/bin/env python3
"""A file like run-parquet.sh's, for pq_scan_profile: its Q1, Q2 and selective query's plans and
DuckDB's answers. Not a test vector (too large to commit): written where asked.

The benchmark's table is the synthetic WorldCup98 trace written by Spark as snappy Parquet
in 1,024-row row groups, with a ~100 B `url` unique per row (PLAIN pages); this writes the
columns the two queries read, of the same types and shapes, with pyarrow (gen_pq_scan.py's
pins), and an `id` for DuckDB's row order:

    /tmp/pqv/bin/python tests/gen_pq_profile.py 300000 /tmp/pq/b300k   # from tasklets/
    pq_scan_profile /tmp/pq/b300k.parquet /tmp/pq/b300k-q1.plan /tmp/pq/b300k-q1.expect
    pq_scan_profile /tmp/pq/b300k.parquet /tmp/pq/b300k-q2.plan /tmp/pq/b300k-q2.expect
    pq_scan_profile /tmp/pq/b300k.parquet /tmp/pq/b300k-sel.plan /tmp/pq/b300k-sel.expect
"""
import hashlib
import os
import random
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_pq_scan as g  # noqa: E402


def main():
    rows, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(7)
    ts, t = [], 894000000
    for _ in range(rows):
        t += rng.random() < 0.3
        ts.append(t)
    client = [rng.randint(0, 200000) for _ in range(rows)]
    obj = [rng.randint(0, 40000) for _ in range(rows)]
    size = [rng.choice([0, 512, 1024, 2048]) + rng.randint(0, 30000) for _ in range(rows)]
    # statusCode 8: about 1.2 % of the rows, as the benchmark's selective query finds
    status = [8 if rng.random() < 0.012 else rng.choice([0, 1, 2, 3]) for _ in range(rows)]
    region = [rng.randint(0, 3) for _ in range(rows)]
    server = [rng.randint(0, 32) for _ in range(rows)]
    url = ["/english/images/obj%07d_%s.gif?srv=%d&ts=%d"
           % (o, hashlib.sha1(("%d:%d:%d" % (c, x, s)).encode()).hexdigest(), sv, x)
           for o, c, x, s, sv in zip(obj, client, ts, size, server)]
    # Q2's second key: the trace's ~20 content types, drawn last so the other columns stay
    typ = [rng.randint(0, 19) for _ in range(rows)]
    t = pa.table({"id": pa.array(range(rows), pa.int64()), "timestamp": pa.array(ts, pa.int64()),
                  "clientID": pa.array(client, pa.int64()), "objectID": pa.array(obj, pa.int64()),
                  "size": pa.array(size, pa.int64()), "region": pa.array(region, pa.int8()),
                  "statusCode": pa.array(status, pa.int8()), "url": pa.array(url, pa.string()),
                  "type": pa.array(typ, pa.int8())})
    path = out + ".parquet"
    pq.write_table(t, path, compression="SNAPPY", row_group_size=1024, data_page_version="1.0",
                   use_dictionary=["id", "timestamp", "clientID", "objectID", "size", "region",
                                   "statusCode", "type"])
    con = duckdb.connect()
    g.ROWS = rows
    # Q1: SELECT region, count(*) GROUP BY region
    items, n = g.expect_agg(con, path, ["region"], None, None, "true")
    with open(out + "-q1.plan", "wb") as f:
        f.write(g.plan(path, ["region"], mode=g.AGG_MODE, keys=(0,), ops=g.A_COUNT))
    with open(out + "-q1.expect", "wb") as f:
        f.write(items + g.trailer(rows, n, 0))
    # Q2: SELECT region, type, count(*) GROUP BY region, type
    items, n = g.expect_agg(con, path, ["region", "type"], None, None, "true")
    with open(out + "-q2.plan", "wb") as f:
        f.write(g.plan(path, ["region", "type"], mode=g.AGG_MODE, keys=(0, 1), ops=g.A_COUNT))
    with open(out + "-q2.expect", "wb") as f:
        f.write(items + g.trailer(rows, n, 0))
    # selective: SELECT timestamp, clientID, objectID, size, url WHERE statusCode = 8
    names = ["timestamp", "clientID", "objectID", "size", "url", "statusCode"]
    with open(out + "-sel.plan", "wb") as f:
        f.write(g.plan(path, names, proj=(0, 1, 2, 3, 4), tree=g.cmp(g.EQ, 5, 8)))
    with open(out + "-sel.expect", "wb") as f:
        f.write(g.expect_rows(con, t, path, names, (0, 1, 2, 3, 4), "statusCode = 8"))


if __name__ == "__main__":
    main()
