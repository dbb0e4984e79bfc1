package org.smartssd.scan.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.apache.parquet.filter2.predicate.FilterApi.and;
import static org.apache.parquet.filter2.predicate.FilterApi.gtEq;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.lt;

import java.nio.file.Path;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Row-group pruning by statistics and the reasons a column stays on the host. */
class ParquetFooterTest {
    private static ParquetFooter vector(String name) throws Exception {
        return ParquetFooter.read(new org.apache.hadoop.fs.Path(
                ParquetScanPlanTest.VECTORS.resolve(name).toUri()), new Configuration());
    }

    @Test
    void statisticsPruneRowGroups() throws Exception {
        // pyarrow wrote ids 0..599 in row groups of 200
        ParquetFooter f = vector("dict_snappy.parquet");
        assertThat(f.rowGroups()).hasSize(3);
        List<BlockMetaData> last = f.rowGroups(gtEq(longColumn("id"), 450L));
        assertThat(last).containsExactly(f.rowGroups().get(2));
        assertThat(f.rowGroups(and(gtEq(longColumn("id"), 150L), lt(longColumn("id"), 250L))))
                .containsExactly(f.rowGroups().get(0), f.rowGroups().get(1));
        assertThat(f.rowGroups(lt(longColumn("id"), 0L))).isEmpty();
        assertThat(f.rowGroups(null)).hasSize(3);
        assertThat(f.rows()).isEqualTo(600);
    }

    @Test
    void pyarrowsV2PagesAreNotInItsFooter() throws Exception {
        // pyarrow's encoding statistics do not say the pages are v2: the footer passes them,
        // the drive refuses them when met (INPUT_UNSUPPORTED) and the scan falls back then
        ParquetFooter f = vector("v2_snappy.parquet");
        DriveColumn score = f.column("score").supported().orElseThrow();
        assertThat(f.chunkRefusal(score, f.rowGroups())).isEmpty();
    }

    @Test
    void parquetMrFilesSayWhatTheDriveCannotDecode(@TempDir Path dir) throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType("message t {"
                + " required int64 id; optional binary name (STRING); optional int96 ts;"
                + " optional int32 u (INTEGER(32,false));"
                + " optional group pt { required double x; } }");
        ParquetFooter plain = write(dir.resolve("snappy.parquet"), schema,
                CompressionCodecName.SNAPPY, ParquetProperties.WriterVersion.PARQUET_1_0);
        ParquetFooter gzip = write(dir.resolve("gzip.parquet"), schema,
                CompressionCodecName.GZIP, ParquetProperties.WriterVersion.PARQUET_1_0);
        ParquetFooter v2 = write(dir.resolve("v2.parquet"), schema,
                CompressionCodecName.UNCOMPRESSED, ParquetProperties.WriterVersion.PARQUET_2_0);

        DriveColumn id = plain.column("id").supported().orElseThrow();
        DriveColumn name = plain.column("name").supported().orElseThrow();
        assertThat(id.maxDefinitionLevel()).isZero();
        assertThat(name.logical()).isEqualTo(DriveColumn.L_STRING);
        // parquet-mr lists BIT_PACKED for the zero-width levels: not a value encoding
        assertThat(plain.rowGroups().get(0).getColumns().get(0).getEncodings())
                .extracting(Enum::name).contains("BIT_PACKED");
        assertThat(plain.chunkRefusal(id, plain.rowGroups())).isEmpty();
        assertThat(plain.chunkRefusal(name, plain.rowGroups())).isEmpty();
        assertThat(plain.column("ts").unsupported()).isEqualTo("column ts: INT96 column");
        assertThat(plain.column("u").unsupported()).startsWith("column u: type INT32 INTEGER");
        assertThat(plain.column("pt.x").unsupported()).isEqualTo("column pt.x: nested column");

        assertThat(gzip.chunkRefusal(gzip.column("id").supported().orElseThrow(),
                gzip.rowGroups())).contains("column id: codec GZIP");
        assertThat(v2.chunkRefusal(v2.column("id").supported().orElseThrow(), v2.rowGroups()))
                .hasValueSatisfying(r -> assertThat(r).startsWith("column id: "));
    }

    private static ParquetFooter write(Path file, MessageType schema, CompressionCodecName codec,
                                       ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
        SimpleGroupFactory rows = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withType(schema)
                .withCompressionCodec(codec).withWriterVersion(version).build()) {
            for (int i = 0; i < 1000; i++) {
                Group g = rows.newGroup().append("id", (long) i).append("name", "n" + (i % 7));
                g.addGroup("pt").append("x", i * 0.5);
                w.write(g);
            }
        }
        return ParquetFooter.read(p, new Configuration());
    }
}
