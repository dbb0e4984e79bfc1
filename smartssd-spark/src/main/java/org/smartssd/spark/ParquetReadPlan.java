package org.smartssd.spark;

import java.io.Serializable;
import java.util.List;

import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * What every partition of a Parquet read does: the rows Spark wants ({@code required}), the
 * plan columns (the first {@code nproj} projected, in {@code required}'s order, then the
 * filters' others; an aggregate's keys and value, then the filters'), the WHERE tree of the
 * pushed filters, and why the whole read stays on the host (null: each row group decides by
 * its chunks). Pushed beside the filters: at most one of an {@code aggregate} (a partial per
 * row group, its keys and value plan columns), a {@code topN} (its column a plan column) and
 * a {@code limit} (0: none). The host does the same work over {@code hostSchema} (the
 * required columns, then the others the filters read; an aggregate's: the plan columns)
 * with {@code hostFilters}, the filters the drive's tree holds. {@code notPushed} says what
 * Spark does instead of the drive, for EXPLAIN. {@code auto}: each file's row groups go where
 * they are estimated to finish first ({@link ParquetAutoPlacement}).
 */
record ParquetReadPlan(StructType required, List<String> columns, int nproj, byte[] tree,
                       String hostReason, boolean auto, DriveConf conf, StructType hostSchema,
                       Filter[] hostFilters, long limit, DriveAggregates.Plan aggregate,
                       ScanPlan.TopNSpec topN, List<String> notPushed) implements Serializable {
    ParquetReadPlan {
        columns = List.copyOf(columns);
        notPushed = List.copyOf(notPushed);
    }

    /** The rows a partition returns: the aggregate's partial groups, else the required. */
    StructType readSchema() {
        return aggregate != null ? aggregate.schema() : required;
    }
}
