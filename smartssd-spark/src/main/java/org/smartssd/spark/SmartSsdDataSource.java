package org.smartssd.spark;

import java.util.Map;

import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code smartssd} data source: {@code spark.read.format("smartssd").option("layout",
 * "wc98").load("smartssd://dev0/logs/day1")}. The schema comes from the layout; drives are
 * configured as for the FileSystem ({@code spark.hadoop.smartssd.device.NAME.uri}).
 */
public class SmartSsdDataSource implements TableProvider, DataSourceRegister {
    @Override
    public String shortName() {
        return "smartssd";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return table(options).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning,
                          Map<String, String> properties) {
        SmartSsdTable t = table(new CaseInsensitiveStringMap(properties));
        if (schema != null && !schema.equals(t.schema())) {
            throw new IllegalArgumentException("the schema of a smartssd table comes from its "
                    + "layout (" + t.schema().toDDL() + "); a user schema (" + schema.toDDL()
                    + ") is not taken");
        }
        return t;
    }

    private static SmartSsdTable table(CaseInsensitiveStringMap options) {
        String path = options.get("path");
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("no path: load(\"smartssd://NAME/file\") or "
                    + "option('path', ...)");
        }
        return new SmartSsdTable(path, TableLayout.fromOptions(options), ReadOptions.of(options),
                DriveConf.fromSession(options));
    }
}
