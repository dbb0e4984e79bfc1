package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.smartssd.scan.LoadedPrograms;

/**
 * Files of fixed-width records on one drive or several, read through its layout (the {@code layout}
 * option, or the layout stored with the file when it was written). The file and layout are
 * resolved when Spark first asks for the schema, at analysis: a missing file, a bad layout
 * or a partial last record fail there. Writes go through
 * {@link SmartSsdDataSource#createRelation}, so the table offers reads only.
 */
public class SmartSsdTable implements SupportsRead {
    private final List<String> paths;
    private final CaseInsensitiveStringMap options;
    private final StructType userSchema;
    private Resolved resolved;

    private record Resolved(TableLayout layout, ReadOptions read, DriveConf conf, DriveFiles files,
                            ProgramRead program) {
    }

    SmartSsdTable(List<String> paths, Map<String, String> options, StructType userSchema) {
        this.paths = List.copyOf(paths);
        this.options = new CaseInsensitiveStringMap(options);
        this.userSchema = userSchema;
    }

    private synchronized Resolved resolve() {
        if (resolved == null) {
            ConnectorOptions.check(options.asCaseSensitiveMap());
            DriveConf conf = DriveConf.fromSession(options);
            ReadOptions read = ReadOptions.of(options);
            try {
                TableLayout layout = StoredLayout.resolve(paths.get(0), options, conf);
                for (String other : paths.subList(1, paths.size())) {
                    TableLayout l = StoredLayout.resolve(other, options, conf);
                    if (!l.toString().equals(layout.toString())) {
                        throw new IllegalArgumentException("the files of one smartssd table "
                                + "share a layout: " + paths.get(0) + " has " + layout + ", "
                                + other + " has " + l);
                    }
                }
                DriveFiles files = DriveFiles.open(paths, layout, read, conf);
                ProgramRead program = ProgramRead.of(options);
                if (program != null && read.placement() != null) {
                    throw new IllegalArgumentException("option '" + ReadOptions.PLACEMENT
                            + "' does not apply to a read that runs program '" + program.name()
                            + "': a program runs in the drive only");
                }
                if (program != null) {
                    LoadedPrograms.require(program.name(),
                            paths.stream().map(Path::new).toList(), conf.hadoop());
                }
                resolved = new Resolved(layout, read, conf, files, program);
            } catch (IOException e) {
                throw new UncheckedIOException("smartssd table " + name() + ": " + e.getMessage(),
                        e);
            }
            if (userSchema != null && resolved.program() == null
                    && !userSchema.equals(resolved.layout().schema())) {
                throw new IllegalArgumentException("the schema of a smartssd table comes from its "
                        + "layout (" + resolved.layout().schema().toDDL() + "); a user schema ("
                        + userSchema.toDDL() + ") is not taken");
            }
        }
        return resolved;
    }

    @Override
    public String name() {
        return String.join(", ", paths);
    }

    @Override
    public StructType schema() {
        Resolved r = resolve();
        return r.program() != null ? r.program().schema() : r.layout().schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    /** Each query sees the file as it is now (its length and extents), in the table's layout. */
    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap readOptions) {
        Resolved r = resolve();
        try {
            DriveFiles now = DriveFiles.open(paths, r.layout(), r.read(), r.conf());
            if (r.program() != null) {
                return new ProgramScan(r.program(), r.layout(), r.conf(), now);
            }
            return new SmartSsdScanBuilder(now, r.layout(), r.read(), r.conf());
        } catch (IOException e) {
            throw new UncheckedIOException("smartssd table " + name() + ": " + e.getMessage(), e);
        }
    }
}
