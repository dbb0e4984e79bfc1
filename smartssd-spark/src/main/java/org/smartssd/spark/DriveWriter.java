package org.smartssd.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.ForeachPartitionFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.LongAccumulator;
import org.smartssd.spark.TableLayout.Column;

/**
 * {@code df.write.format("smartssd")}: the rows as fixed-width records in one file, its
 * layout kept as the file's attribute ({@link StoredLayout}). Modes: error-if-exists (default), ignore,
 * overwrite, append. The records are written by one task (the file is one object and the
 * drive has no concatenation): a new file under a temporary name, renamed into place when
 * complete (a RENAME is atomic); an append onto the file, truncated back to its old length
 * if it fails. A failed write leaves no partial table. Writes of one table, from any process
 * on the drive, take turns ({@link TableLock}), and an append is reported done only when the
 * table holds its old bytes followed by exactly its records.
 */
final class DriveWriter {
    private DriveWriter() {
    }

    static TableLayout write(String path, Map<String, String> options, SaveMode mode,
                             Dataset<Row> data) {
        ConnectorOptions.check(options);
        DriveConf conf = DriveConf.fromSession(options);
        Path p = new Path(path);
        try (TableLock lock = TableLock.acquire(p.getFileSystem(conf.hadoop()), p,
                ConnectorOptions.lockWaitMillis(options))) {
            return writeLocked(path, options, mode, data, conf);
        } catch (IOException e) {
            throw new UncheckedIOException("write to " + path + " failed: " + e.getMessage(), e);
        }
    }

    /** The write, its table's lock held: what it finds is not changed by another writer. */
    private static TableLayout writeLocked(String path, Map<String, String> options,
                                           SaveMode mode, Dataset<Row> data, DriveConf conf) {
        CaseInsensitiveStringMap o = new CaseInsensitiveStringMap(options);
        Path p = new Path(path);
        try {
            FileSystem fs = p.getFileSystem(conf.hadoop());
            boolean exists = fs.exists(p);
            TableLayout stored = exists ? StoredLayout.read(fs, p) : null;
            TableLayout layout = o.containsKey("layout") ? TableLayout.fromOptions(o)
                    : mode == SaveMode.Append && stored != null ? stored
                    : derive(data.schema());
            if (layout.isText()) {
                throw new IllegalArgumentException("the smartssd source writes fixed-width "
                        + "records; a text layout (option 'sep') is for reading text files");
            }
            Encoder enc = new Encoder(layout, data.schema());
            if (exists) {
                switch (mode) {
                    case ErrorIfExists -> throw new IllegalArgumentException("path " + path
                            + " already exists: write with mode 'overwrite' or 'append'");
                    case Ignore -> {
                        return stored != null ? stored : layout;
                    }
                    case Append -> {
                        if (stored == null || !stored.spec().equals(layout.spec())
                                || stored.recordSize() != layout.recordSize()) {
                            throw new IllegalArgumentException("cannot append to " + path
                                    + ": its layout is " + (stored == null ? "unknown"
                                    : stored.toString()) + ", the rows' is " + layout);
                        }
                        append(fs, p, data, enc, conf);
                        return layout;
                    }
                    default -> {
                    }
                }
            }
            create(fs, p, exists, data, enc, conf);
            return layout;
        } catch (IOException e) {
            throw new UncheckedIOException("write to " + path + " failed: " + e.getMessage(), e);
        }
    }

    private static void create(FileSystem fs, Path p, boolean replace, Dataset<Row> data,
                               Encoder enc, DriveConf conf) throws IOException {
        String tag = ".smartssd-tmp-" + UUID.randomUUID();
        Path tmp = new Path(p.getParent(), "." + p.getName() + tag);
        try {
            run(data, new WriteTask(conf, tmp.toString(), false, 0, enc, null));
            if (!fs.exists(tmp)) {
                fs.create(tmp, false).close(); // no rows, no task: an empty table
            }
            StoredLayout.write(fs, tmp, enc.layout); // the attribute moves with the rename
            if (replace) {
                fs.delete(p, false);
                fs.delete(StoredLayout.legacy(p), false);
            }
            if (!fs.rename(tmp, p)) {
                throw new IOException("could not rename " + tmp + " to " + p);
            }
        } catch (Exception e) { // Spark's job failure is a checked SparkException
            deleteQuietly(fs, tmp, e);
            throw rethrow(e);
        }
    }

    private static void append(FileSystem fs, Path p, Dataset<Row> data, Encoder enc,
                               DriveConf conf) throws IOException {
        long before = fs.getFileStatus(p).getLen();
        LongAccumulator written = data.sparkSession().sparkContext()
                .longAccumulator("smartssd records appended");
        try {
            run(data, new WriteTask(conf, p.toString(), true, before, enc, written));
        } catch (Exception e) {
            try {
                fs.truncate(p, before);
            } catch (IOException | RuntimeException t) {
                e.addSuppressed(t);
            }
            throw rethrow(e);
        }
        // the commit check: the table is its old bytes and exactly these records, else a
        // writer that took no lock wrote meanwhile and the append is not reported done
        long want = before + written.value() * enc.layout.recordSize();
        long now = fs.getFileStatus(p).getLen();
        if (now != want) {
            throw new IOException("the table changed during the append: it was " + before
                    + " bytes, " + written.value() + " records of " + enc.layout.recordSize()
                    + " bytes were appended, and it is " + now + " bytes; another writer "
                    + "wrote without the table's lock " + TableLock.of(p));
        }
    }

    private static IOException rethrow(Exception e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        return e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }

    private static void run(Dataset<Row> data, WriteTask task) {
        data.coalesce(1).foreachPartition(task);
    }

    private static void deleteQuietly(FileSystem fs, Path p, Exception cause) {
        try {
            fs.delete(p, false);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * A layout for rows without one: integers as I32/I64, FLOAT, DOUBLE, DATE, TIMESTAMP and
     * DECIMAL(P<=18,S) as their typed fields, big-endian, packed in order after a null
     * bitmap of one bit per nullable column (bit k: byte k/8, mask 0x80 >> k%8).
     */
    static TableLayout derive(StructType schema) {
        List<String> cols = new ArrayList<>();
        int nullable = 0;
        for (StructField f : schema.fields()) {
            nullable += f.nullable() ? 1 : 0;
        }
        int at = (nullable + 7) / 8;
        int bit = 0;
        for (StructField f : schema.fields()) {
            DataType t = f.dataType();
            String type;
            int width;
            if (t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType) {
                type = "i32";
                width = 4;
            } else if (t instanceof LongType) {
                type = "i64";
                width = 8;
            } else if (TypedFields.layoutType(t) != null) {
                type = TypedFields.layoutType(t);
                width = t instanceof FloatType || t instanceof DateType ? 4 : 8;
            } else if (t instanceof DecimalType d) {
                throw new IllegalArgumentException("column '" + f.name() + "' is "
                        + t.simpleString() + ": the drive keeps DECIMAL(P,S) up to P = "
                        + TypedFields.MAX_DECIMAL_PRECISION + " (a scaled 64-bit integer); "
                        + "cast it to DECIMAL(18," + Math.min(d.scale(), 18) + ") or DOUBLE");
            } else {
                throw new IllegalArgumentException("column '" + f.name() + "' of type "
                        + t.simpleString() + " has no layout type of its own; give option "
                        + "'layout' (strings: bytes(W))");
            }
            cols.add(f.name() + ":" + type + "@" + at + (f.nullable() ? "?" + bit++ : ""));
            at += width;
        }
        if (cols.isEmpty()) {
            throw new IllegalArgumentException("rows without columns cannot be written");
        }
        return TableLayout.parse(String.join(", ", cols), null);
    }

    /** Rows to record bytes: which row field feeds which layout column, and how. */
    static final class Encoder implements Serializable {
        private static final long serialVersionUID = 1L;

        final TableLayout layout;
        final int[] source; // per layout column: the row field, or -1 when derived

        Encoder(TableLayout layout, StructType rows) {
            this.layout = layout;
            List<Column> cols = layout.columns();
            source = new int[cols.size()];
            for (int i = 0; i < cols.size(); i++) {
                Column c = cols.get(i);
                if (derived(c, cols)) {
                    source[i] = -1;
                    continue;
                }
                int f = -1;
                for (int j = 0; j < rows.fields().length; j++) {
                    if (rows.fields()[j].name().equalsIgnoreCase(c.name())) {
                        f = j;
                    }
                }
                if (f < 0) {
                    throw new IllegalArgumentException("column '" + c.name() + "' of layout "
                            + layout + " is not in the rows (" + String.join(", ",
                            rows.fieldNames()) + ")");
                }
                DataType t = rows.fields()[f].dataType();
                boolean ok = c.field().type().typed() ? TypedFields.accepts(c, t)
                        : c.isBytes() ? t instanceof StringType
                        : t instanceof ByteType || t instanceof ShortType
                        || t instanceof IntegerType || t instanceof LongType
                        || t instanceof DecimalType d && d.scale() == 0;
                if (!ok) {
                    throw new IllegalArgumentException("column '" + c.name() + "' is "
                            + t.simpleString() + ", which a " + (c.isBytes() ? "bytes"
                            : c.field().type().name().toLowerCase(Locale.ROOT)) + " field cannot hold");
                }
                source[i] = f;
            }
        }

        /** A bit field read out of bytes that another column writes whole (wc98's region). */
        private static boolean derived(Column c, List<Column> cols) {
            if (c.field().bits() == 0 && c.field().shift() == 0) {
                return false;
            }
            for (Column o : cols) {
                if (o != c && o.field().offset() == c.field().offset()
                        && o.field().type() == c.field().type() && o.field().bits() == 0
                        && o.field().shift() == 0) {
                    return true;
                }
            }
            return false;
        }

        void encode(Row row, byte[] rec) {
            Arrays.fill(rec, (byte) 0);
            List<Column> cols = layout.columns();
            for (int i = 0; i < cols.size(); i++) {
                if (source[i] < 0) {
                    continue;
                }
                Column c = cols.get(i);
                if (row.isNullAt(source[i])) {
                    if (!c.field().nullable()) {
                        throw new IllegalArgumentException("column '" + c.name() + "' is NULL "
                                + "in a row, and its field has no null flag: give it one in "
                                + "the layout (name:type@offset?bit)");
                    }
                    int k = c.field().nullBit() - 1;
                    rec[k / 8] |= (byte) (0x80 >>> (k % 8));
                    continue;
                }
                Object v = row.get(source[i]);
                int at = c.field().offset();
                if (c.field().type().typed()) {
                    long raw = TypedFields.raw(c, v);
                    int width = TableLayout.typeBits(c.field().type()) / 8;
                    for (int k = 0; k < width; k++) {
                        rec[at + k] = (byte) (raw >>> (8 * (width - 1 - k)));
                    }
                    continue;
                }
                if (c.isBytes()) {
                    byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
                    if (b.length > c.field().width()) {
                        throw new IllegalArgumentException("value of column '" + c.name()
                                + "' is " + b.length + " bytes, the field " + c.field().width());
                    }
                    if (b.length > 0 && b[b.length - 1] == 0) {
                        throw new IllegalArgumentException("value of column '" + c.name()
                                + "' ends in a NUL byte, which a bytes field cannot keep: "
                                + "trailing NULs are its padding");
                    }
                    System.arraycopy(b, 0, rec, at, b.length);
                    continue;
                }
                BigInteger x = v instanceof BigDecimal d ? d.toBigIntegerExact()
                        : BigInteger.valueOf(((Number) v).longValue());
                if (x.compareTo(c.min()) < 0 || x.compareTo(c.max()) > 0) {
                    throw new IllegalArgumentException("value " + x + " of column '" + c.name()
                            + "' is outside the field's " + c.min() + ".." + c.max());
                }
                long raw = x.longValue() << c.field().shift();
                int width = TableLayout.typeBits(c.field().type()) / 8;
                for (int k = 0; k < width; k++) {
                    rec[at + k] |= (byte) (raw >>> (8 * (width - 1 - k)));
                }
            }
        }
    }

    /** The one task that writes the records (new file, or append from a known length). */
    record WriteTask(DriveConf conf, String path, boolean append, long appendFrom, Encoder enc,
                     LongAccumulator written) implements ForeachPartitionFunction<Row> {
        @Override
        public void call(Iterator<Row> rows) throws Exception {
            Path p = new Path(path);
            FileSystem fs = p.getFileSystem(conf.hadoop());
            if (append && fs.getFileStatus(p).getLen() != appendFrom) {
                fs.truncate(p, appendFrom); // a failed earlier attempt of this task
            }
            byte[] rec = new byte[enc.layout.recordSize()];
            boolean ok = false;
            long n = 0;
            try (OutputStream out = append ? fs.append(p) : fs.create(p, false)) {
                while (rows.hasNext()) {
                    enc.encode(rows.next(), rec);
                    out.write(rec);
                    n++;
                }
                ok = true;
            } finally {
                if (!ok && append) {
                    fs.truncate(p, appendFrom);
                }
            }
            if (written != null) {
                written.add(n); // counted once: Spark keeps a successful task's updates only
            }
        }
    }
}
