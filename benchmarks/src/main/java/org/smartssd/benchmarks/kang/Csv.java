package org.smartssd.benchmarks.kang;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** A CSV file written row by row (no quoting: the suite writes no commas in values). */
public final class Csv implements AutoCloseable {
    private final PrintWriter out;
    private final int columns;

    public Csv(Path file, String... header) throws IOException {
        out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        columns = header.length;
        out.println(String.join(",", header));
    }

    public void row(Object... values) {
        if (values.length != columns) {
            throw new IllegalArgumentException(values.length + " values for " + columns
                    + " columns");
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            Object v = values[i];
            b.append(v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d)
                    : String.valueOf(v));
        }
        out.println(b);
        out.flush(); // a long suite cut short keeps the rows it finished
    }

    @Override
    public void close() {
        out.close();
    }
}
