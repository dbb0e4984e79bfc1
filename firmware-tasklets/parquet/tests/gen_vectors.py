#!/usr/bin/env python3
"""Writes the Parquet test vectors of pq_page_ut.c and the fuzz seed corpus.

pyarrow and DuckDB write the files; pyarrow's reading of their footers gives each column chunk's byte range and physical
type (the host's plan, which the C test stands in for); the expected values are the ones
given to the writer, not read back. Run once after changing it, commit what it writes:

    python3 -m venv /tmp/pqv && /tmp/pqv/bin/pip install pyarrow==18.1.0 duckdb==1.1.3
    /tmp/pqv/bin/python tests/gen_vectors.py   # from firmware-tasklets/parquet/

Expectation file <name>.expect, one line each:
    column NAME PHYSICAL_TYPE MAX_DEF CODEC CHUNK_OFFSET CHUNK_LENGTH ROWS
    - (a null row) | v VALUE
VALUE: integers in decimal; FLOAT and DOUBLE as the hex of their IEEE bits; BOOLEAN 0/1;
BYTE_ARRAY as hex of its bytes after "x" (so that "" is "x").
"""
import datetime
import decimal
import os
import random
import struct

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "vectors")
CORPUS = os.path.join(HERE, "..", "fuzz", "corpus")
ROWS = 300

PHYS = {"BOOLEAN": 0, "INT32": 1, "INT64": 2, "FLOAT": 4, "DOUBLE": 5, "BYTE_ARRAY": 6}
CODEC = {"UNCOMPRESSED": 0, "SNAPPY": 1}


def columns(rng, distinct):
    """name -> (arrow type, python values, nullable). distinct small: values repeat (the
    dictionary holds); large: the dictionary outgrows its page and the writer falls back."""
    def pick(gen, nulls=True):
        pool = [gen() for _ in range(distinct)]
        return [None if nulls and rng.random() < 0.2 else rng.choice(pool) for _ in range(ROWS)]

    words = ["", "a", "smart", "ssd", "héllo", "日本語", "x" * 40, "naïve café"]
    epoch = datetime.date(1970, 1, 1)
    return {
        "i32": (pa.int32(), pick(lambda: rng.choice([-2**31, 2**31 - 1, 0, rng.randint(-10**6, 10**6)]))),
        "i64_req": (pa.int64(), pick(lambda: rng.randint(-2**63, 2**63 - 1), nulls=False)),
        "i64": (pa.int64(), pick(lambda: rng.randint(-2**40, 2**40))),
        "f32": (pa.float32(), pick(lambda: struct.unpack("<f", struct.pack("<f", rng.uniform(-1e6, 1e6)))[0])),
        "f64": (pa.float64(), pick(lambda: rng.choice([rng.uniform(-1e300, 1e300), -0.0, float("inf")]))),
        "flag": (pa.bool_(), pick(lambda: rng.random() < 0.5)),
        "flag_req": (pa.bool_(), pick(lambda: rng.random() < 0.3, nulls=False)),
        "name": (pa.string(), pick(lambda: rng.choice(words) + str(rng.randint(0, 10**6)))),
        "day": (pa.date32(), pick(lambda: epoch + datetime.timedelta(days=rng.randint(-40000, 40000)))),
        "ts_ms": (pa.timestamp("ms"), pick(lambda: rng.randint(-2**41, 2**41))),
        "ts_us": (pa.timestamp("us"), pick(lambda: rng.randint(-2**50, 2**50))),
        "dec9": (pa.decimal128(9, 2), pick(lambda: decimal.Decimal(rng.randint(-10**9 + 1, 10**9 - 1)).scaleb(-2))),
        "dec18": (pa.decimal128(18, 4), pick(lambda: decimal.Decimal(rng.randint(-10**18 + 1, 10**18 - 1)).scaleb(-4))),
    }


def stored(arrow_type, v):
    """The value as the file stores it, in the .expect notation."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if pa.types.is_float32(arrow_type):
        return "%08x" % struct.unpack("<I", struct.pack("<f", v))[0]
    if pa.types.is_float64(arrow_type):
        return "%016x" % struct.unpack("<Q", struct.pack("<d", v))[0]
    if pa.types.is_string(arrow_type):
        return "x" + v.encode("utf-8").hex()
    if pa.types.is_date32(arrow_type):
        return str((v - datetime.date(1970, 1, 1)).days)
    if pa.types.is_decimal(arrow_type):
        return str(int(v.scaleb(arrow_type.scale)))
    return str(v)


def write_pyarrow(table, path, compression, use_dictionary):
    pq.write_table(table, path, compression=compression, use_dictionary=use_dictionary,
                   data_page_size=512, write_batch_size=50, dictionary_pagesize_limit=700,
                   data_page_version="1.0", store_decimal_as_integer=True,
                   write_statistics=True, row_group_size=ROWS)


def write_duckdb(table, path, compression, use_dictionary):
    """A second, independent writer: DuckDB's own Parquet writer (it reads the Arrow table
    as its input, nothing more). Small row groups: several chunks per column."""
    import duckdb
    con = duckdb.connect()
    con.register("t", table)
    con.execute("COPY t TO '%s' (FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE 100)"
                % (path, compression))
    con.close()


def write(name, writer, compression, use_dictionary, seed, distinct):
    rng = random.Random(seed)
    cols = columns(rng, distinct)
    fields = [pa.field(n, t, nullable=not n.endswith("_req")) for n, (t, _) in cols.items()]
    table = pa.table([pa.array(v, type=t) for t, v in cols.values()], schema=pa.schema(fields))
    path = os.path.join(OUT, name + ".parquet")
    writer(table, path, compression, use_dictionary)
    pf = pq.ParquetFile(path)
    meta = pf.metadata
    data = open(path, "rb").read()
    first = 0
    with open(os.path.join(OUT, name + ".expect"), "w") as f:
        for g in range(meta.num_row_groups):
            rg = meta.row_group(g)
            for i, (col_name, (arrow_type, values)) in enumerate(cols.items()):
                c = rg.column(i)
                assert c.path_in_schema == col_name
                start = c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset
                max_def = pf.schema.column(i).max_definition_level
                rows = values[first:first + rg.num_rows]
                f.write("column %s %d %d %d %d %d %d\n" % (col_name, PHYS[c.physical_type],
                        max_def, CODEC[c.compression], start, c.total_compressed_size, len(rows)))
                for v in rows:
                    f.write("-\n" if v is None else "v %s\n" % stored(arrow_type, v))
                if g == 0:
                    # fuzz seed: mode 0 (pages), the column, the chunk's first 4 KB
                    seed_bytes = bytes([0, PHYS[c.physical_type], CODEC[c.compression], max_def])
                    seed_bytes += data[start:start + min(c.total_compressed_size, 4096)]
                    with open(os.path.join(CORPUS, "%s-%s" % (name, col_name)), "wb") as s:
                        s.write(seed_bytes)
            first += rg.num_rows
    assert first == ROWS


def snappy_seeds():
    """Fuzz seeds for the snappy decoder (mode 1): pyarrow's snappy of varied bytes."""
    rng = random.Random(7)
    plain = open(os.path.join(OUT, "plain_none.parquet"), "rb").read()
    samples = [b"", b"a", b"ab" * 300, plain[:2000], plain[4000:4300],
               bytes(rng.randrange(256) for _ in range(500)), bytes(4096)]
    for i, raw in enumerate(samples):
        block = pa.compress(raw, codec="snappy", asbytes=True)
        with open(os.path.join(CORPUS, "snappy-%d" % i), "wb") as s:
            s.write(bytes([1]) + block)


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(CORPUS, exist_ok=True)
    write("plain_none", write_pyarrow, "NONE", False, 1, 1000)
    write("plain_snappy", write_pyarrow, "SNAPPY", False, 2, 1000)
    write("dict_none", write_pyarrow, "NONE", True, 3, 12)
    write("dict_snappy", write_pyarrow, "SNAPPY", True, 4, 12)
    # many distinct values: the dictionary outgrows dictionary_pagesize_limit, so the
    # writer falls back to PLAIN pages after the dictionary-encoded ones
    write("fallback_snappy", write_pyarrow, "SNAPPY", True, 5, 1000)
    write("fallback_none", write_pyarrow, "NONE", True, 6, 1000)
    write("duckdb_snappy", write_duckdb, "SNAPPY", True, 7, 12)
    write("duckdb_none", write_duckdb, "UNCOMPRESSED", True, 8, 1000)
    snappy_seeds()


if __name__ == "__main__":
    main()
