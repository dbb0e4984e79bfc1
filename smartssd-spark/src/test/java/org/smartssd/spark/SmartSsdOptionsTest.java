package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Options the connector does not know fail the read or the write, naming the nearest. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdOptionsTest {
    SparkSession spark;
    String path;

    @BeforeAll
    void setUp() throws Exception {
        SparkDrive drive = SparkDrive.get();
        spark = drive.spark;
        path = drive.put("/options/wc", SparkDrive.wc98(100, 20, 5));
    }

    @Test
    void anUnknownReadOptionFailsWithTheKnownOnes() {
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", "wc98")
                .option("bogusOption", "1").load(path).count())
                .hasMessageContaining("unknown option 'bogusOption' of the smartssd source")
                .hasMessageNotContaining("did you mean")
                .hasMessageContaining("Known options: path, paths, layout, recordSize, sep");
    }

    @Test
    void aMisspelledOptionNamesTheNearestOne() {
        assertThatThrownBy(() -> spark.read().format("smartssd").option("sepp", ",")
                .option("layout", "id:i64").load(path).count())
                .hasMessageContaining("unknown option 'sepp' of the smartssd source: did you "
                        + "mean 'sep'?");
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", "wc98")
                .option("pushDownPredicates", "false").load(path).count())
                .hasMessageContaining("did you mean 'pushDownPredicate'?");
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", "wc98")
                .option("smartssd.job.placment", "host").load(path).count())
                .hasMessageContaining("unknown configuration key smartssd.job.placment: did you "
                        + "mean smartssd.job.placement?");
    }

    @Test
    void anUnknownWriteOptionFailsBeforeWriting() throws Exception {
        String out = "smartssd://" + SparkDrive.DRIVE + "/options/out";
        assertThatThrownBy(() -> spark.range(3).write().format("smartssd")
                .option("layuot", "id:i64@0").save(out))
                .hasMessageContaining("unknown option 'layuot' of the smartssd source: did you "
                        + "mean 'layout'?");
        assertThat(SparkDrive.get().fs().exists(new org.apache.hadoop.fs.Path(out))).isFalse();
    }

    @Test
    void aCatalogTableChecksItsOptionsNotItsProperties() {
        spark.sql("CREATE TABLE opt_ok USING smartssd OPTIONS (path '" + path + "', layout "
                + "'wc98') TBLPROPERTIES ('team'='logs')");
        try {
            assertThat(spark.table("opt_ok").count()).isEqualTo(100);
        } finally {
            spark.sql("DROP TABLE opt_ok");
        }
        assertThatThrownBy(() -> spark.sql("CREATE TABLE opt_bad USING smartssd OPTIONS (path '"
                + path + "', layout 'wc98', recordsise '20')"))
                .hasMessageContaining("unknown option 'recordsise' of the smartssd source: did "
                        + "you mean 'recordSize'?");
    }

    @Test
    void knownOptionsInAnyCaseAndDriveSettingsPass() {
        assertThat(spark.read().format("smartssd").option("LAYOUT", "wc98")
                .option("pushdownpredicate", "false").option("smartssd.job.placement", "device")
                .option("fs.smartssd.readahead.range", "65536").load(path).count())
                .isEqualTo(100);
    }
}
