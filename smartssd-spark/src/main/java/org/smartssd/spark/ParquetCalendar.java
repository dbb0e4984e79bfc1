package org.smartssd.spark;

import java.util.List;
import java.util.Map;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.internal.LegacyBehaviorPolicy;
import org.apache.spark.sql.internal.SQLConf;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;
import scala.Enumeration;

/**
 * Dates and timestamps the drive would read otherwise than Spark. A file Spark wrote in the
 * hybrid Julian calendar (Spark 2, or {@code datetimeRebaseModeInWrite=LEGACY}, which its
 * footer says) holds values before the calendars' last switch as Julian ones, which Spark's
 * reader rebases; a file no Spark wrote is read as {@code datetimeRebaseModeInRead} says
 * (EXCEPTION by default: Spark's reader refuses such values). The mode is Spark's own
 * ({@code DataSourceUtils.datetimeRebaseSpec}). The drive reads the stored values, which
 * are the same from the switch on, so a row group goes to the host only where a DATE or
 * TIMESTAMP column the scan reads may hold an earlier one: its minimum is before the switch
 * ({@code RebaseDateTime.lastSwitchJulianDay}, {@code lastSwitchJulianTs}), or it has no
 * statistics.
 */
final class ParquetCalendar {
    private ParquetCalendar() {
    }

    /** The rebase mode Spark's reader reads {@code footer}'s file in. */
    static Enumeration.Value mode(ParquetFooter footer) {
        Map<String, String> meta = footer.metadata().getFileMetaData().getKeyValueMetaData();
        String byConfig = SparkSession.active().sessionState().conf()
                .getConf(SQLConf.PARQUET_REBASE_MODE_IN_READ()).toString();
        return DataSourceUtils.datetimeRebaseSpec(meta::get, byConfig).mode();
    }

    /** Why {@code rg} is read on the host for its dates or timestamps, or null. */
    static String hostReason(ParquetFooter footer, Enumeration.Value mode, BlockMetaData rg,
                             List<String> columns) {
        if (mode == LegacyBehaviorPolicy.CORRECTED()) {
            return null;
        }
        for (String n : columns) {
            DriveColumn c = footer.column(n).column();
            if (c == null || !(c.logical() == DriveColumn.L_DATE
                    || c.logical() == DriveColumn.L_TS_MICROS
                    || c.logical() == DriveColumn.L_TS_MILLIS)) {
                continue;
            }
            ColumnChunkMetaData m = rg.getColumns().get(c.leaf());
            Statistics<?> s = m.getStatistics();
            boolean early;
            if (s == null || s.isEmpty()) {
                early = true;
            } else if (!s.hasNonNullValue()) {
                early = false;
            } else if (c.logical() == DriveColumn.L_DATE) {
                early = ((Number) s.genericGetMin()).intValue()
                        < RebaseDateTime.lastSwitchJulianDay();
            } else {
                long min = ((Number) s.genericGetMin()).longValue();
                long from = RebaseDateTime.lastSwitchJulianTs();
                // millis: min * 1000 < from, without the product's overflow
                early = c.logical() == DriveColumn.L_TS_MILLIS
                        ? min < -Math.floorDiv(-from, 1000L) : min < from;
            }
            if (early) {
                return "column " + n + ": dates or timestamps before 1582-10-15 in a file "
                        + "Spark reads in " + mode + " rebase mode (the hybrid Julian "
                        + "calendar): Spark's reader " + (mode == LegacyBehaviorPolicy.LEGACY()
                        ? "rebases" : "refuses") + " them";
            }
        }
        return null;
    }
}
