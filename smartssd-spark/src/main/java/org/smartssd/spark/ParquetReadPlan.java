package org.smartssd.spark;

import java.io.Serializable;
import java.util.List;

import org.apache.spark.sql.types.StructType;

/**
 * What every partition of a Parquet read does: the rows Spark wants ({@code required}), the
 * plan columns (the first {@code nproj} projected, in {@code required}'s order, then the
 * filters' others), the WHERE tree, and why the whole read stays on the host (null: each row
 * group decides by its chunks).
 */
record ParquetReadPlan(StructType required, List<String> columns, int nproj, byte[] tree,
                       String hostReason, DriveConf conf) implements Serializable {
    ParquetReadPlan {
        columns = List.copyOf(columns);
    }
}
