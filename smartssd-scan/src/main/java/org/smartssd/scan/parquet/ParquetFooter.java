package org.smartssd.scan.parquet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * A Parquet file's footer, read with parquet-mr, and what the drive can do with it: which
 * columns' chunks the parquet-scan tasklet decodes (else the reason), which row groups a
 * filter keeps by their statistics (parquet-mr's {@link RowGroupFilter}), and each chunk as
 * the plan lists it.
 */
public final class ParquetFooter {
    /** The codecs the drive decompresses: UNCOMPRESSED, SNAPPY. */
    private static final Set<CompressionCodecName> DRIVE_CODECS =
            Set.of(CompressionCodecName.UNCOMPRESSED, CompressionCodecName.SNAPPY);
    /** The encodings the drive decodes (pq_scan.c PQS_ENCODINGS). */
    private static final Set<Encoding> DRIVE_ENCODINGS = Set.of(Encoding.PLAIN,
            Encoding.PLAIN_DICTIONARY, Encoding.RLE, Encoding.RLE_DICTIONARY);
    private static final ParquetMetadataConverter THRIFT = new ParquetMetadataConverter();

    private final Path path;
    private final long length;
    private final ParquetMetadata metadata;

    private ParquetFooter(Path path, long length, ParquetMetadata metadata) {
        this.path = path;
        this.length = length;
        this.metadata = metadata;
    }

    /** Reads the footer of the Parquet file at {@code path}. */
    public static ParquetFooter read(Path path, Configuration conf) throws IOException {
        HadoopInputFile in = HadoopInputFile.fromPath(path, conf);
        try (ParquetFileReader r = ParquetFileReader.open(in)) {
            return new ParquetFooter(path, in.getLength(), r.getFooter());
        }
    }

    /**
     * {@link #read}, kept in this JVM for the file as it is now (its length and modification
     * time, asked of the file system each call): a scan's partitions, one per row group,
     * read a footer once, not once each (a footer grows with the row groups, so each
     * reading it was quadratic in them).
     */
    public static ParquetFooter readCached(Path path, Configuration conf) throws IOException {
        FileStatus st = path.getFileSystem(conf).getFileStatus(path);
        String key = st.getPath() + "\u0000" + st.getLen() + "\u0000" + st.getModificationTime();
        synchronized (CACHE) {
            ParquetFooter f = CACHE.get(key);
            if (f != null) {
                return f;
            }
        }
        ParquetFooter f = read(path, conf);
        synchronized (CACHE) {
            CACHE.put(key, f);
        }
        return f;
    }

    /** Footers kept by {@link #readCached}, the least recently used dropped first. */
    private static final int CACHED_FOOTERS = 16;
    private static final Map<String, ParquetFooter> CACHE = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ParquetFooter> eldest) {
            return size() > CACHED_FOOTERS;
        }
    };

    public Path path() {
        return path;
    }

    /** The file's length in bytes. */
    public long length() {
        return length;
    }

    public ParquetMetadata metadata() {
        return metadata;
    }

    public MessageType schema() {
        return metadata.getFileMetaData().getSchema();
    }

    public List<BlockMetaData> rowGroups() {
        return metadata.getBlocks();
    }

    public long rows() {
        return rowGroups().stream().mapToLong(BlockMetaData::getRowCount).sum();
    }

    /** The row groups whose statistics say {@code filter} may hold in them. */
    public List<BlockMetaData> rowGroups(FilterPredicate filter) {
        if (filter == null) {
            return rowGroups();
        }
        return RowGroupFilter.filterRowGroups(FilterCompat.get(filter), rowGroups(), schema());
    }

    /** The plan's typing of the flat column {@code name}, or why the drive cannot decode it. */
    public DriveColumn.Typing column(String name) {
        List<ColumnDescriptor> leaves = schema().getColumns();
        for (int i = 0; i < leaves.size(); i++) {
            if (String.join(".", leaves.get(i).getPath()).equals(name)) {
                return DriveColumn.of(i, leaves.get(i));
            }
        }
        throw new IllegalArgumentException(path + " has no column " + name);
    }

    /**
     * Why the drive cannot run column {@code c}'s chunks in {@code rowGroups}: a codec other
     * than UNCOMPRESSED or SNAPPY, an encoding other than PLAIN, RLE and the dictionary
     * encodings, v2 data pages; empty when it can.
     */
    public Optional<String> chunkRefusal(DriveColumn c, List<BlockMetaData> rowGroups) {
        for (BlockMetaData rg : rowGroups) {
            ColumnChunkMetaData m = rg.getColumns().get(c.leaf());
            if (!DRIVE_CODECS.contains(m.getCodec())) {
                return Optional.of("column " + c.name() + ": codec " + m.getCodec());
            }
            for (Encoding e : valueAndLevelEncodings(m)) {
                if (!DRIVE_ENCODINGS.contains(e)) {
                    return Optional.of("column " + c.name() + ": encoding " + e);
                }
            }
            EncodingStats st = m.getEncodingStats();
            if (st != null && st.usesV2Pages()) {
                return Optional.of("column " + c.name() + ": v2 data pages");
            }
        }
        return Optional.empty();
    }

    /**
     * The chunk's encodings the drive must decode. parquet-mr lists BIT_PACKED for the
     * repetition (and a required column's definition) levels of a flat column, whose
     * maximum is 0: no bytes to decode. When the encoding statistics show BIT_PACKED encodes
     * no page's values it is left out.
     */
    static Set<Encoding> valueAndLevelEncodings(ColumnChunkMetaData m) {
        Set<Encoding> all = new java.util.TreeSet<>(m.getEncodings());
        EncodingStats st = m.getEncodingStats();
        if (st != null && !st.getDataEncodings().contains(Encoding.BIT_PACKED)
                && !st.getDictionaryEncodings().contains(Encoding.BIT_PACKED)) {
            all.remove(Encoding.BIT_PACKED);
        }
        return all;
    }

    /** The plan's bitmask of the chunk's encodings: bit e for parquet.thrift Encoding e. */
    static int encodingBits(ColumnChunkMetaData m) {
        int bits = 0;
        for (Encoding e : valueAndLevelEncodings(m)) {
            bits |= 1 << THRIFT.getEncoding(e).getValue();
        }
        return bits;
    }

    /** The parquet.thrift CompressionCodec of the chunk. */
    static int codec(ColumnChunkMetaData m) {
        return m.getCodec().getParquetCompressionCodec().getValue();
    }

    /** The leaf columns of the schema in file order, by name. */
    public List<String> columnNames() {
        List<String> out = new ArrayList<>();
        for (ColumnDescriptor d : schema().getColumns()) {
            out.add(String.join(".", d.getPath()));
        }
        return out;
    }
}
