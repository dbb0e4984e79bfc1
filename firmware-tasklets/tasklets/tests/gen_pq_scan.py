#!/usr/bin/env python3
"""Writes the vectors of pq_scan_ut.c: Parquet files, scan plans and their answers.

pyarrow 18.1.0 and DuckDB 1.1.3 write the files; this script plays the host: it reads each
footer with pyarrow and writes the plan (the parquet-scan params, builtin_tasklets.h) for a
query; DuckDB runs the same query over the same file, and its answer, encoded in the
tasklet's output format (tasklets/README.md "6 parquet-scan"), is the expected output.
Run once after changing it, commit what it writes (CTest needs no Python):

    python3 -m venv /tmp/pqv && /tmp/pqv/bin/pip install pyarrow==18.1.0 duckdb==1.1.3
    /tmp/pqv/bin/python tests/gen_pq_scan.py   # from firmware-tasklets/tasklets/

pq_vectors/scans.txt, one line a scan: NAME FILE (NAME.plan, NAME.expect beside it).
"""
import datetime
import decimal
import os
import random
import struct

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pq_vectors")
CORPUS = os.path.join(HERE, "..", "..", "parquet", "fuzz", "corpus")
ROWS = 600

PHYS = {"BOOLEAN": 0, "INT32": 1, "INT64": 2, "FLOAT": 4, "DOUBLE": 5, "BYTE_ARRAY": 6}
CODEC = {"UNCOMPRESSED": 0, "SNAPPY": 1}
ENC = {"PLAIN": 0, "PLAIN_DICTIONARY": 2, "RLE": 3, "BIT_PACKED": 4, "RLE_DICTIONARY": 8}
# logical types of the plan (enum ss_bt_pq_logical)
L_NONE, L_STRING, L_DATE, L_TS_MILLIS, L_TS_MICROS, L_DECIMAL = range(6)
# tree ops (enum ss_bt_pred_op)
AND, OR, NOT = 1, 2, 3
EQ, NE, LT, LE, GT, GE = range(0x10, 0x16)
BEQ, PREFIX = 0x20, 0x21
ISNULL = 0x30
# modes, aggregate ops
ROWS_MODE, COUNT_MODE, AGG_MODE, TOPN_MODE = 0, 1, 2, 3
SMALLEST = 0x4
A_COUNT, A_SUM, A_MIN, A_MAX = 1, 2, 4, 8
TRAILER_MAGIC = 0x52545353
PARQUET_SCAN = 6


def table(seed, rows=ROWS):
    rng = random.Random(seed)
    words = ["smart", "ssd", "abc", "héllo", "日本", "x" * 30, ""]

    def maybe(v, p=0.15):
        return None if rng.random() < p else v

    epoch = datetime.date(1970, 1, 1)
    cols = {
        "id": (pa.int64(), [i for i in range(rows)], False),
        "k": (pa.int32(), [maybe(rng.randint(0, 6)) for _ in range(rows)], True),
        "g": (pa.int32(), [rng.randint(0, 2) for _ in range(rows)], False),
        "day": (pa.date32(), [maybe(epoch + datetime.timedelta(days=rng.randint(-400, 400)))
                              for _ in range(rows)], True),
        "ts": (pa.timestamp("ms"), [maybe(rng.randint(-10**12, 10**12)) for _ in range(rows)], True),
        "tsu": (pa.timestamp("us"), [maybe(rng.randint(-10**15, 10**15)) for _ in range(rows)], True),
        "price": (pa.decimal128(9, 2), [maybe(decimal.Decimal(rng.randint(-99999, 99999)).scaleb(-2))
                                         for _ in range(rows)], True),
        "amount": (pa.decimal128(18, 4), [maybe(decimal.Decimal(rng.randint(-10**15, 10**15)).scaleb(-4))
                                           for _ in range(rows)], True),
        "name": (pa.string(), [maybe(rng.choice(words) + str(rng.randint(0, 9))) for _ in range(rows)], True),
        "score": (pa.float64(), [maybe(rng.choice([rng.uniform(-1, 1), -0.0, 0.5, float("inf")]))
                                 for _ in range(rows)], True),
        "flag": (pa.bool_(), [maybe(rng.random() < 0.4) for _ in range(rows)], True),
    }
    fields = [pa.field(n, t, nullable=nl) for n, (t, _, nl) in cols.items()]
    return pa.table([pa.array(v, type=t) for t, v, _ in cols.values()], schema=pa.schema(fields))


def write_pyarrow(t, path, compression, dictionary, rg, version="1.0"):
    pq.write_table(t, path, compression=compression, use_dictionary=dictionary,
                   data_page_size=512, write_batch_size=50, row_group_size=rg,
                   data_page_version=version, store_decimal_as_integer=True)


def write_duckdb(t, path, compression):
    con = duckdb.connect()
    con.register("t", t)
    con.execute("COPY t TO '%s' (FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE 128)"
                % (path, compression))
    con.close()


def logical(arrow_type):
    if pa.types.is_string(arrow_type):
        return L_STRING, 0
    if pa.types.is_date32(arrow_type):
        return L_DATE, 0
    if pa.types.is_timestamp(arrow_type):
        return (L_TS_MILLIS if arrow_type.unit == "ms" else L_TS_MICROS), 0
    if pa.types.is_decimal(arrow_type):
        return L_DECIMAL, arrow_type.scale
    return L_NONE, 0


def plan(path, names, mode=ROWS_MODE, proj=(), tree=b"", limit=0, keys=(), value=0, ops=0,
         flags=0):
    """The host's plan: the footer's row groups and the chunks of the columns `names`."""
    pf = pq.ParquetFile(path)
    meta = pf.metadata
    schema = pf.schema_arrow
    idx = [meta.schema.names.index(n) for n in names]
    p = struct.pack("<BBBBHHI", len(names), mode, len(proj), len(keys), meta.num_row_groups,
                    len(tree), limit)
    p += struct.pack("<BBBBB7x", keys[0] if keys else 0, keys[1] if len(keys) > 1 else 0,
                     value, ops, flags)
    for n, i in zip(names, idx):
        c0 = meta.row_group(0).column(i)
        lt, scale = logical(schema.field(n).type)
        encs = 0
        for g in range(meta.num_row_groups):
            for e in meta.row_group(g).column(i).encodings:
                encs |= 1 << ENC[e]
        p += struct.pack("<BBBBHH", PHYS[c0.physical_type], lt, scale,
                         pf.schema.column(i).max_definition_level, encs, 0)
    for g in range(meta.num_row_groups):
        p += struct.pack("<II", meta.row_group(g).num_rows, 0)
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        for i in idx:
            c = rg.column(i)
            start = c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset
            p += struct.pack("<QQIIIB3x", start, start if c.has_dictionary_page else 0,
                             c.total_compressed_size, c.total_uncompressed_size, c.num_values,
                             CODEC[c.compression])
    return p + bytes(proj) + tree


# ---- the tree encoding ----
def cmp(op, field, k):
    return bytes([op, field]) + struct.pack("<Q", k & (2**64 - 1))


def bcmp(op, field, s):
    b = s.encode()
    return bytes([op, field]) + struct.pack("<H", len(b)) + b


def group(op, *children):
    return bytes([op, len(children)]) + b"".join(children)


def neg(child):
    return bytes([NOT]) + child


def f64_key(x):
    """ss_f64_key: a double's SQL order key."""
    if x != x:
        return 0x7ff8000000000000
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    if bits == 0x8000000000000000:
        return 0
    return bits ^ 0x7fffffffffffffff if bits >> 63 else bits


def s64(v):
    return struct.pack("<Q", v & (2**64 - 1))


def value(arrow_type, v):
    """A column value as the drive returns it: 8 bytes, or u32 length + bytes for strings."""
    if pa.types.is_string(arrow_type):
        b = v.encode()
        return struct.pack("<I", len(b)) + b
    if pa.types.is_boolean(arrow_type):
        return s64(int(v))
    if pa.types.is_float64(arrow_type):
        return s64(f64_key(v))
    if pa.types.is_date32(arrow_type):
        return s64((v - datetime.date(1970, 1, 1)).days)
    if pa.types.is_timestamp(arrow_type):
        d = v - datetime.datetime(1970, 1, 1)
        return s64((d.days * 86400 + d.seconds) * 10**6 + d.microseconds)
    if pa.types.is_decimal(arrow_type):
        return s64(int(v.scaleb(arrow_type.scale)))
    return s64(v)


def trailer(records_in, items, aux):
    return struct.pack("<IIQQQ", TRAILER_MAGIC, PARQUET_SCAN, records_in, items, aux)


def rg_bounds(path):
    meta = pq.ParquetFile(path).metadata
    out, first = [], 0
    for g in range(meta.num_row_groups):
        first += meta.row_group(g).num_rows
        out.append(first)
    return out


def rows_examined(path, last_id, limit):
    """Rows of the row groups the scan decoded: all of them, or up to the one holding the
    limit's last match."""
    bounds = rg_bounds(path)
    if not limit or last_id is None:
        return bounds[-1]
    return next(b for b in bounds if last_id < b)


def expect_rows(con, t, path, names, proj, where, limit=0):
    cols = ", ".join(names[j] for j in proj)
    q = "SELECT id, %s FROM '%s' WHERE %s ORDER BY id" % (cols, path, where)
    if limit:
        q += " LIMIT %d" % limit
    rows = con.execute(q).fetchall()
    out = b""
    for r in rows:
        vals = r[1:]
        bitmap = 0
        body = b""
        for j, v in enumerate(vals):
            if v is None:
                bitmap |= 1 << j
            else:
                body += value(t.schema.field(names[proj[j]]).type, v)
        out += bitmap.to_bytes((len(proj) + 7) // 8, "little") + body
    last = rows[-1][0] if rows else None
    examined = rows_examined(path, last, limit if len(rows) == limit else 0)
    return out + trailer(examined, len(rows), len(rows))


def expect_agg(con, path, keys, val, val_type, where):
    """Group-aggregate's items in first-seen order; a NULL key or value leaves the row out."""
    key_cols = list(keys) + ["0"] * (2 - len(keys))
    conds = ["(%s)" % where] + ["%s IS NOT NULL" % k for k in keys]
    if val:
        conds.append("%s IS NOT NULL" % val)
    v = val or "0"
    q = ("SELECT %s, %s, count(*), sum(%s), min(%s), max(%s), min(id) AS first FROM '%s' "
         "WHERE %s GROUP BY ALL ORDER BY first"
         % (key_cols[0], key_cols[1], v, v, v, path, " AND ".join(conds)))
    q = q.replace("GROUP BY ALL", "GROUP BY %s" % ", ".join(keys) if keys else "")
    rows = con.execute(q).fetchall()
    out = b""
    for k1, k2, n, sm, mn, mx, _ in rows:
        if val_type == "decimal":
            sm, mn, mx = (int(x.scaleb(2)) for x in (sm, mn, mx))
        if val_type == "double":
            sm, mn, mx = 0, f64_key(mn), f64_key(mx)
        out += s64(k1) + s64(k2) + s64(n) + s64(sm or 0) + s64(mn or 0) + s64(mx or 0)
    return out, len(rows)


def expect_topn(con, t, path, names, keys, val, proj, where, n, smallest):
    """top-n's items: groups in first-seen order, each its n best rows (ties to the earlier
    row), the payload the projected row; a NULL key or value leaves a row out. The order is
    computed here from DuckDB's rows, by the value as the drive compares it."""
    cols = ", ".join(["id"] + keys + [val] + [names[j] for j in proj])
    conds = ["(%s)" % where] + ["%s IS NOT NULL" % k for k in keys + [val]]
    rows = con.execute("SELECT %s FROM '%s' WHERE %s ORDER BY id"
                       % (cols, path, " AND ".join(conds))).fetchall()
    vtype = t.schema.field(val).type
    groups = {}
    for r in rows:
        k = tuple(r[1:1 + len(keys)])
        groups.setdefault(k, []).append(r)
    out, items = b"", 0
    for k, rs in groups.items():
        def rank(r):
            v = struct.unpack("<q", value(vtype, r[1 + len(keys)]))[0]
            return (v if smallest else -v, r[0])
        for r in sorted(rs, key=rank)[:n]:
            bitmap, body = 0, b""
            for j, v in enumerate(r[2 + len(keys):]):
                if v is None:
                    bitmap |= 1 << j
                else:
                    body += value(t.schema.field(names[proj[j]]).type, v)
            payload = bitmap.to_bytes((len(proj) + 7) // 8, "little") + body
            kb = [s64(x) for x in k] + [s64(0)] * (2 - len(k))
            out += kb[0] + kb[1] + value(vtype, r[1 + len(keys)]) + struct.pack(
                "<II", len(payload), 0) + payload
            items += 1
    return out + trailer(ROWS, items, 0)


def main():
    os.makedirs(OUT, exist_ok=True)
    t = table(11)
    files = {
        "dict_snappy": lambda p: write_pyarrow(t, p, "SNAPPY", True, 200),
        "plain_none": lambda p: write_pyarrow(t, p, "NONE", False, 250),
        "duckdb_snappy": lambda p: write_duckdb(t, p, "SNAPPY"),
        "v2_snappy": lambda p: write_pyarrow(t, p, "SNAPPY", True, 600, version="2.0"),
    }
    for name, w in files.items():
        w(os.path.join(OUT, name + ".parquet"))
    con = duckdb.connect()
    # the test reads the answers in micros, dates in days: the host's conversions
    ts_cut = 10**11              # ms
    day_cut = (datetime.date(1970, 3, 1) - datetime.date(1970, 1, 1)).days
    scans = []

    def add(name, fname, p, expect):
        with open(os.path.join(OUT, name + ".plan"), "wb") as f:
            f.write(p)
        with open(os.path.join(OUT, name + ".expect"), "wb") as f:
            f.write(expect)
        scans.append("%s %s.parquet\n" % (name, fname))

    for fname in ("dict_snappy", "plain_none", "duckdb_snappy"):
        path = os.path.join(OUT, fname + ".parquet")
        # 1. equality on a dictionary/plain INT32 column; a string, decimal and date out
        names = ["k", "id", "name", "price", "day"]
        add(fname + "-eq", fname,
            plan(path, names, proj=[1, 2, 3, 4], tree=cmp(EQ, 0, 3)),
            expect_rows(con, t, path, names, [1, 2, 3, 4], "k = 3"))
        # 2. string prefix AND a double comparison, OR IS NULL; NOT over a boolean
        names = ["name", "score", "k", "flag", "id", "ts"]
        tree = group(OR, group(AND, bcmp(PREFIX, 0, "sm"), cmp(GT, 1, f64_key(0.0))),
                     group(AND, bytes([ISNULL, 2]), neg(cmp(EQ, 3, 1))))
        add(fname + "-prefix", fname,
            plan(path, names, proj=[4, 5, 1], tree=tree),
            expect_rows(con, t, path, names, [4, 5, 1],
                        "(starts_with(name, 'sm') AND score > 0.0) OR (k IS NULL AND NOT flag)"))
        # 3. IN as OR of =, a TIMESTAMP(millis) range in micros, <=, <, !=, >=
        names = ["k", "ts", "id", "tsu", "amount", "day"]
        tree = group(AND, group(OR, cmp(EQ, 0, 1), cmp(EQ, 0, 4)), cmp(GE, 1, -ts_cut * 1000),
                     cmp(LE, 1, ts_cut * 1000), cmp(NE, 5, day_cut), cmp(LT, 2, 500))
        add(fname + "-in", fname,
            plan(path, names, proj=[2, 1, 3, 4, 0], tree=tree),
            expect_rows(con, t, path, names, [2, 1, 3, 4, 0],
                        "k IN (1, 4) AND ts >= make_timestamp(%d) AND ts <= make_timestamp(%d) "
                        "AND day <> DATE '1970-03-01' AND id < 500"
                        % (-ts_cut * 1000, ts_cut * 1000)))
        # 4. string equality with a LIMIT
        names = ["name", "id"]
        add(fname + "-limit", fname,
            plan(path, names, proj=[1, 0], tree=bcmp(BEQ, 0, "smart3"), limit=4),
            expect_rows(con, t, path, names, [1, 0], "name = 'smart3'", limit=4))
        # 5. a set of one column: once per dictionary entry where the chunk has one
        names = ["k", "id"]
        tree = group(OR, cmp(EQ, 0, 1), cmp(EQ, 0, 4), cmp(EQ, 0, 6), cmp(LT, 0, 0))
        add(fname + "-set", fname, plan(path, names, proj=[1], tree=tree),
            expect_rows(con, t, path, names, [1], "k IN (1, 4, 6) OR k < 0"))
        # 6. COUNT of IS NULL
        names = ["score"]
        n = con.execute("SELECT count(*) FROM '%s' WHERE score IS NULL" % path).fetchone()[0]
        add(fname + "-count", fname, plan(path, names, mode=COUNT_MODE, tree=bytes([ISNULL, 0])),
            trailer(ROWS, 0, n))
        # 7. GROUP BY two keys: COUNT, SUM, MIN, MAX of a DECIMAL, with a WHERE
        names = ["g", "k", "price", "id"]
        items, ngroups = expect_agg(con, path, ["g", "k"], "price", "decimal", "id >= 50")
        add(fname + "-agg", fname,
            plan(path, names, mode=AGG_MODE, tree=cmp(GE, 3, 50), keys=[0, 1], value=2,
                 ops=A_COUNT | A_SUM | A_MIN | A_MAX),
            items + trailer(ROWS, ngroups, 0))
        # 8. MIN/MAX of a DOUBLE by one key, no WHERE
        names = ["g", "score"]
        items, ngroups = expect_agg(con, path, ["g"], "score", "double", "true")
        add(fname + "-minmax", fname,
            plan(path, names, mode=AGG_MODE, keys=[0], value=1, ops=A_COUNT | A_MIN | A_MAX),
            items + trailer(ROWS, ngroups, 0))
        # 9. top 3 by a DECIMAL per group (largest), with a WHERE; the 2 smallest DOUBLEs
        names = ["g", "price", "id", "day", "k"]
        add(fname + "-top", fname,
            plan(path, names, mode=TOPN_MODE, proj=[2, 1, 3], tree=cmp(NE, 4, 2), keys=[0],
                 value=1, limit=3),
            expect_topn(con, t, path, names, ["g"], "price", [2, 1, 3], "k <> 2", 3, False))
        names = ["score", "id", "flag"]
        add(fname + "-bottom", fname,
            plan(path, names, mode=TOPN_MODE, proj=[1, 2], value=0, limit=2, flags=SMALLEST),
            expect_topn(con, t, path, names, [], "score", [1, 2], "true", 2, True))
    # a v2 data page file: a well-formed plan the drive cannot execute
    path = os.path.join(OUT, "v2_snappy.parquet")
    add("v2_snappy-count", "v2_snappy", plan(path, ["score"], mode=COUNT_MODE,
                                             tree=bytes([ISNULL, 0])), b"")
    with open(os.path.join(OUT, "scans.txt"), "w") as f:
        f.writelines(scans)
    q1_vectors()
    q2_vectors()
    fuzz_seeds()
    q2_fuzz_seeds()


def q1_vectors():
    """COUNT(*) GROUP BY a dictionary-encoded key, as the benchmark's Q1 (parquet-scan counts
    it per dictionary index off the runs): 8 row groups of 1,024 rows, a key of 4 values at
    random (bit-packed runs, 2 % NULL), one of long runs (RLE runs), and one of 300 values
    whose dictionary outgrows its 256-byte limit, so each chunk falls back to PLAIN pages
    (those rows aggregated one at a time). Not in scans.txt: pq_scan_ut's q1_by_code reads
    them; the answer is counted here, in first-seen order."""
    rng = random.Random(33)
    rows = 8 * 1024
    region = [None if rng.random() < 0.02 else rng.randint(0, 3) for _ in range(rows)]
    zone = [(i // 700) % 5 for i in range(rows)]
    wide = [None if rng.random() < 0.05 else rng.randint(0, 299) for _ in range(rows)]
    t = pa.table({"region": pa.array(region, pa.int32()), "zone": pa.array(zone, pa.int32()),
                  "wide": pa.array(wide, pa.int32())})
    path = os.path.join(OUT, "q1.parquet")
    pq.write_table(t, path, compression="SNAPPY", use_dictionary=True, row_group_size=1024,
                   data_page_version="1.0", dictionary_pagesize_limit=256,
                   data_page_size=1024, write_batch_size=64)
    for i, name in enumerate(("region", "zone", "wide")):
        vals = (region, zone, wide)[i]
        counts = {}
        for v in vals:
            if v is not None:
                counts[v] = counts.get(v, 0) + 1
        items = b"".join(s64(k) + s64(0) + s64(n) + s64(0) * 3 for k, n in counts.items())
        with open(os.path.join(OUT, "q1-%s.plan" % name), "wb") as f:
            f.write(plan(path, [name], mode=AGG_MODE, keys=[0], ops=A_COUNT))
        with open(os.path.join(OUT, "q1-%s.expect" % name), "wb") as f:
            f.write(items + struct.pack("<IIQQQ", TRAILER_MAGIC, PARQUET_SCAN, rows,
                                        len(counts), 0))


def q2_vectors():
    """COUNT(*) GROUP BY two dictionary-encoded keys, as the benchmark's Q2 (parquet-scan counts
    it per pair of dictionary indices): 16 row groups of 1,024 rows, `region` of 4 values
    (2 % NULL) and `type` of 20 (1 % NULL), at random. In row groups 5 and 11 `type`, and in 8
    `region`, take 300 values: their dictionary passes the writer's limit and the chunk
    goes on PLAIN (the drive counts those row groups a row at a time). Not in scans.txt:
    pq_scan_ut's q2_by_pairs reads them; the answer is counted here, in first-seen order, so
    any writer's file will do (pyarrow 26.0.1 wrote the committed one)."""
    rng = random.Random(34)
    wide = {5: "type", 8: "region", 11: "type"}
    region, typ = [], []
    for i in range(16 * 1024):
        w = wide.get(i // 1024)
        region.append(None if rng.random() < 0.02 else
                      rng.randint(0, 299) if w == "region" else rng.randint(0, 3))
        typ.append(None if rng.random() < 0.01 else
                   rng.randint(0, 299) if w == "type" else rng.randint(0, 19))
    t = pa.table({"region": pa.array(region, pa.int32()), "type": pa.array(typ, pa.int32())})
    path = os.path.join(OUT, "q2.parquet")
    pq.write_table(t, path, compression="SNAPPY", use_dictionary=True, row_group_size=1024,
                   data_page_version="1.0", dictionary_pagesize_limit=512, write_batch_size=128)
    counts = {}
    for k1, k2 in zip(region, typ):
        if k1 is not None and k2 is not None:
            counts[(k1, k2)] = counts.get((k1, k2), 0) + 1
    items = b"".join(s64(k1) + s64(k2) + s64(n) + s64(0) * 3 for (k1, k2), n in counts.items())
    with open(os.path.join(OUT, "q2.plan"), "wb") as f:
        f.write(plan(path, ["region", "type"], mode=AGG_MODE, keys=[0, 1], ops=A_COUNT))
    with open(os.path.join(OUT, "q2.expect"), "wb") as f:
        f.write(items + struct.pack("<IIQQQ", TRAILER_MAGIC, PARQUET_SCAN, 16 * 1024,
                                    len(counts), 0))


def fuzz_seeds():
    """Seeds of fuzz_parquet's plan executor (harness.h, byte 0 = 2): small files (under the
    replay driver's 8 KiB) with plans of each mode."""
    small = table(12, rows=40)
    for fname, compression, dictionary in (("snappy_dict", "SNAPPY", True),
                                           ("none_plain", "NONE", False)):
        path = os.path.join("/tmp", "pq-seed-%s.parquet" % fname)
        pq.write_table(small, path, compression=compression, use_dictionary=dictionary,
                       data_page_size=128, write_batch_size=10, row_group_size=20,
                       store_decimal_as_integer=True)
        data = open(path, "rb").read()
        plans = {
            "rows": plan(path, ["k", "id", "name"], proj=[1, 2],
                         tree=group(OR, cmp(EQ, 0, 3), bcmp(PREFIX, 2, "sm"))),
            "count": plan(path, ["score"], mode=COUNT_MODE, tree=bytes([ISNULL, 0])),
            "agg": plan(path, ["g", "k", "price"], mode=AGG_MODE, keys=[0, 1], value=2,
                        ops=A_COUNT | A_SUM | A_MIN | A_MAX),
            "q1": plan(path, ["k"], mode=AGG_MODE, keys=[0], ops=A_COUNT),
            "top": plan(path, ["g", "price", "id"], mode=TOPN_MODE, proj=[2, 1], keys=[0],
                        value=1, limit=2),
            "set": plan(path, ["name", "ts"], proj=[1, 0], limit=5,
                        tree=group(OR, bcmp(BEQ, 0, "ssd1"), bcmp(BEQ, 0, "abc2"))),
        }
        for pname, p in plans.items():
            seed = bytes([2]) + struct.pack("<H", len(p)) + p + data
            assert len(seed) <= 8192, (fname, pname, len(seed))
            with open(os.path.join(CORPUS, "plan-%s-%s" % (fname, pname)), "wb") as f:
                f.write(seed)


def q2_fuzz_seeds():
    """Seeds of the plan executor for COUNT by two keys (parquet-scan counts it per pair of
    dictionary indices; the harness checks it against ROW_EVAL's rows): keys of 7 values
    with NULLs and of 3, dictionary-encoded throughout, and with `k` going on PLAIN in its
    second row group (its dictionary past the writer's limit)."""
    rng = random.Random(35)
    rows = 60
    k = [None if rng.random() < 0.15 else rng.randint(0, 6) if i < 30 else rng.randint(0, 99)
         for i in range(rows)]
    g = [rng.randint(0, 2) for _ in range(rows)]
    t = pa.table({"k": pa.array(k, pa.int32()), "g": pa.array(g, pa.int8())})
    for fname, limit in (("dict", 1 << 20), ("mixed", 64)):
        path = os.path.join("/tmp", "pq-seed-q2-%s.parquet" % fname)
        pq.write_table(t, path, compression="SNAPPY", use_dictionary=True, data_page_size=128,
                       write_batch_size=10, row_group_size=30, data_page_version="1.0",
                       dictionary_pagesize_limit=limit)
        data = open(path, "rb").read()
        p = plan(path, ["k", "g"], mode=AGG_MODE, keys=[0, 1], ops=A_COUNT)
        seed = bytes([2]) + struct.pack("<H", len(p)) + p + data
        assert len(seed) <= 8192, (fname, len(seed))
        with open(os.path.join(CORPUS, "plan-q2-%s" % fname), "wb") as f:
            f.write(seed)


if __name__ == "__main__":
    main()
