package org.smartssd.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code smartssd} data source: {@code spark.read.format("smartssd").option("layout",
 * "wc98").load("smartssd://dev0/logs/day1")}, and {@code df.write.format("smartssd")}. The
 * schema comes from the layout; drives are configured as for the FileSystem
 * ({@code spark.hadoop.smartssd.device.NAME.uri}). Reads are DataSource V2; writes take
 * Spark's V1 path ({@link CreatableRelationProvider}), the only one Spark offers a
 * {@code TableProvider} for every save mode, as the JDBC source does.
 */
public class SmartSsdDataSource implements TableProvider, DataSourceRegister,
        CreatableRelationProvider {
    @Override
    public String shortName() {
        return "smartssd";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return getTable(null, new Transform[0], options.asCaseSensitiveMap()).schema();
    }

    /** Spark passes a write's schema here instead of inferring one (no file may exist yet). */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning,
                          Map<String, String> properties) {
        List<String> paths = paths(properties);
        boolean program = new CaseInsensitiveStringMap(properties)
                .containsKey(ProgramRead.TASKLET);
        if (paths.size() == 1 && !program) {
            ParquetTable parquet = ParquetTable.open(paths.get(0),
                    new CaseInsensitiveStringMap(properties), schema);
            if (parquet != null) {
                return parquet;
            }
        }
        return new SmartSsdTable(paths, properties, schema);
    }

    /**
     * The files a read names: {@code load(path)} gives option {@code path}; {@code load(p1,
     * p2, ...)} gives {@code paths}, a JSON array (as Spark's file sources take them), for a
     * table over files on several drives, read at once.
     */
    static List<String> paths(Map<String, String> options) {
        String json = new CaseInsensitiveStringMap(options).get("paths");
        if (json == null || json.isBlank()) {
            return List.of(path(options));
        }
        try {
            List<String> paths = List.of(new ObjectMapper().readValue(json, String[].class));
            if (paths.isEmpty() || paths.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("option 'paths' names an empty path: " + json);
            }
            return paths;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("option 'paths' is not a JSON array of paths: "
                    + json, e);
        }
    }

    static String path(Map<String, String> options) {
        String path = new CaseInsensitiveStringMap(options).get("path");
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("no path: load(\"smartssd://NAME/file\") or "
                    + "option('path', ...)");
        }
        return path;
    }

    @Override
    public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
                                       scala.collection.immutable.Map<String, String> parameters,
                                       Dataset<Row> data) {
        Map<String, String> options = new HashMap<>(
                scala.jdk.javaapi.CollectionConverters.asJava(parameters));
        TableLayout layout = DriveWriter.write(path(options), options, mode, data);
        return new BaseRelation() {
            @Override
            public SQLContext sqlContext() {
                return sqlContext;
            }

            @Override
            public StructType schema() {
                return layout.schema();
            }
        };
    }
}
