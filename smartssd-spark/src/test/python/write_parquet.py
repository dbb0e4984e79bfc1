#!/usr/bin/env python3
"""Writes the Parquet files of OtherWritersParquetTest with writers other than Spark's.

pyarrow and DuckDB, pinned in smartssd-spark/requirements-writers.txt and installed by
bin/ensure-pyspark into pyspark's venv; the test runs this script with that venv's python:

    "$(bin/ensure-pyspark)/bin/python" smartssd-spark/src/test/python/write_parquet.py OUT_DIR

Every file holds the same ROWS rows, made from one seed, so the output is the same on every
run. The files, named for how they were written:

- pyarrow_snappy.parquet: dictionary pages and small data pages (1 KiB), row groups of 1500
  rows, and `note`, a string column unique per row whose dictionary outgrows its 4 KiB limit,
  so pyarrow falls back to PLAIN pages in the middle of each chunk;
- pyarrow_none.parquet: UNCOMPRESSED, no dictionaries (PLAIN), 64 KiB pages, row groups of
  4000 rows;
- pyarrow_v2.parquet: data pages v2 (which the drive refuses when it meets one);
- pyarrow_zstd.parquet: ZSTD (a codec the drive does not decode);
- duckdb_snappy.parquet, duckdb_none.parquet: DuckDB's `COPY ... TO ... (FORMAT parquet)`
  of a table it computes itself, row groups of 2048 rows.

Types, as the issue lists them: INT32 (int, smallint), INT64, FLOAT, DOUBLE, BOOLEAN,
BYTE_ARRAY UTF-8, DATE, TIMESTAMP in millis (UTC) and micros (local, Spark's TIMESTAMP_NTZ),
DECIMAL in INT32 (9,2) and INT64 (18,4); every column but `id` has NULLs.
"""
import datetime
import decimal
import os
import random
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 6000
SEED = 33


def arrow_table():
    rng = random.Random(SEED)
    words = ["smart", "ssd", "abc", "héllo", "日本", "x" * 30, "", "a,b"]
    epoch = datetime.date(1970, 1, 1)

    def maybe(v, p=0.12):
        return None if rng.random() < p else v

    cols = [
        ("id", pa.int64(), lambda i: i, False),
        ("k", pa.int32(), lambda i: maybe(rng.randint(0, 6)), True),
        ("s", pa.int16(), lambda i: maybe(rng.randint(-32768, 32767)), True),
        ("day", pa.date32(),
         lambda i: maybe(epoch + datetime.timedelta(days=rng.randint(-800, 20000))), True),
        ("ts", pa.timestamp("ms", tz="UTC"),
         lambda i: maybe(rng.randint(-10**12, 2 * 10**12)), True),
        ("tsu", pa.timestamp("us"), lambda i: maybe(rng.randint(-10**15, 2 * 10**15)), True),
        ("price", pa.decimal128(9, 2),
         lambda i: maybe(decimal.Decimal(rng.randint(-99999, 99999)).scaleb(-2)), True),
        ("amount", pa.decimal128(18, 4),
         lambda i: maybe(decimal.Decimal(rng.randint(-10**15, 10**15)).scaleb(-4)), True),
        ("name", pa.string(), lambda i: maybe(rng.choice(words) + str(rng.randint(0, 9))), True),
        ("note", pa.string(), lambda i: maybe("note-%06d-%s" % (i, "z" * rng.randint(0, 40))),
         True),
        ("score", pa.float64(),
         lambda i: maybe(rng.choice([rng.uniform(-1, 1), -0.0, 0.5, float("inf")])), True),
        ("ratio", pa.float32(), lambda i: maybe(rng.uniform(-100, 100)), True),
        ("flag", pa.bool_(), lambda i: maybe(rng.random() < 0.4), True),
    ]
    # row by row, so that each column's draws interleave the same way on every run
    rows = [[make(i) for _, _, make, _ in cols] for i in range(ROWS)]
    arrays = [pa.array([r[c] for r in rows], type=t) for c, (_, t, _, _) in enumerate(cols)]
    schema = pa.schema([pa.field(n, t, nullable=nl) for n, t, _, nl in cols])
    return pa.table(arrays, schema=schema)


def write_pyarrow(t, out):
    common = dict(store_decimal_as_integer=True, write_statistics=True)
    pq.write_table(t, os.path.join(out, "pyarrow_snappy.parquet"), compression="snappy",
                   use_dictionary=True, dictionary_pagesize_limit=4096, data_page_size=1024,
                   row_group_size=1500, **common)
    pq.write_table(t, os.path.join(out, "pyarrow_none.parquet"), compression="none",
                   use_dictionary=False, data_page_size=64 * 1024, row_group_size=4000,
                   **common)
    pq.write_table(t, os.path.join(out, "pyarrow_v2.parquet"), compression="snappy",
                   data_page_version="2.0", row_group_size=3000, **common)
    pq.write_table(t, os.path.join(out, "pyarrow_zstd.parquet"), compression="zstd",
                   row_group_size=3000, **common)


DUCKDB_TABLE = f"""
SELECT i::BIGINT AS id,
  CASE WHEN h(i, 1) % 9 = 0 THEN NULL ELSE (h(i, 2) % 7)::INTEGER END AS k,
  CASE WHEN h(i, 3) % 9 = 0 THEN NULL ELSE (h(i, 4) % 65536 - 32768)::SMALLINT END AS s,
  CASE WHEN h(i, 5) % 9 = 0 THEN NULL
       ELSE DATE '1968-01-01' + (h(i, 6) % 20000)::INTEGER END AS day,
  CASE WHEN h(i, 7) % 9 = 0 THEN NULL
       ELSE make_timestamp(h(i, 8) % 3000000000000000 - 1000000000000000)
       END AS tsu,
  CASE WHEN h(i, 9) % 9 = 0 THEN NULL
       ELSE ((h(i, 10) % 199999 - 99999)::DECIMAL(9,0) * 0.01)::DECIMAL(9,2) END AS price,
  CASE WHEN h(i, 11) % 9 = 0 THEN NULL
       ELSE ((h(i, 12) % 2000000000000000 - 1000000000000000)::DECIMAL(18,0) * 0.0001)
            ::DECIMAL(18,4) END AS amount,
  CASE WHEN h(i, 13) % 9 = 0 THEN NULL
       ELSE ['smart', 'ssd', 'abc', 'héllo', '日本', '', 'a,b'][1 + h(i, 14) % 7]
            || (h(i, 15) % 10)::VARCHAR END AS name,
  CASE WHEN h(i, 16) % 9 = 0 THEN NULL
       ELSE 'note-' || lpad(i::VARCHAR, 6, '0') || repeat('z', (h(i, 17) % 40)::INTEGER)
       END AS note,
  CASE WHEN h(i, 18) % 9 = 0 THEN NULL
       ELSE (h(i, 19) % 2000000)::DOUBLE / 1000000 - 1 END AS score,
  CASE WHEN h(i, 20) % 9 = 0 THEN NULL
       ELSE (h(i, 21) % 20000 - 10000)::FLOAT / 100 END AS ratio,
  CASE WHEN h(i, 22) % 9 = 0 THEN NULL ELSE h(i, 23) % 5 < 2 END AS flag
FROM range({ROWS}) r(i)
"""


def write_duckdb(out):
    con = duckdb.connect()
    try:
        # DuckDB's hash is unsigned 64-bit: h is a non-negative BIGINT, so offsets may go below 0
        con.execute("CREATE MACRO h(i, n) AS (hash(i, n) >> 2)::BIGINT")
        con.execute("CREATE TABLE t AS " + DUCKDB_TABLE)
        for codec in ("snappy", "uncompressed"):
            name = "duckdb_%s.parquet" % ("none" if codec == "uncompressed" else codec)
            con.execute("COPY (SELECT * FROM t ORDER BY id) TO '%s' "
                        "(FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE 2048)"
                        % (os.path.join(out, name), codec))
    finally:
        con.close()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: write_parquet.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write_pyarrow(arrow_table(), out)
    write_duckdb(out)
    for f in sorted(os.listdir(out)):
        meta = pq.ParquetFile(os.path.join(out, f)).metadata
        print("%s: %d rows, %d row groups, created by %s"
              % (f, meta.num_rows, meta.num_row_groups, meta.created_by))


if __name__ == "__main__":
    main()
