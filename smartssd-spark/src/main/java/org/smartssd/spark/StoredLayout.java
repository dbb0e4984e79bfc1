package org.smartssd.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The layout a file was written with, kept on the drive next to it so that a later read
 * needs no layout option: a small object {@code .NAME.smartssd-layout} in the file's folder
 * (the object protocol has no per-object attributes yet; dot files are skipped by Hadoop's
 * input formats). Text: {@code layout=...} and {@code recordSize=...}.
 */
final class StoredLayout {
    private StoredLayout() {
    }

    static Path of(Path data) {
        return new Path(data.getParent(), "." + data.getName() + ".smartssd-layout");
    }

    /** The {@code layout} option's layout, or else the stored one. */
    static TableLayout resolve(String path, Map<String, String> options, DriveConf conf)
            throws IOException {
        CaseInsensitiveStringMap o = new CaseInsensitiveStringMap(options);
        if (o.containsKey("layout")) {
            return TableLayout.fromOptions(o);
        }
        Path p = new Path(path);
        TableLayout stored = read(p.getFileSystem(conf.hadoop()), p);
        if (stored == null) {
            throw new IllegalArgumentException("option 'layout' is missing and " + path
                    + " has no stored layout: give 'wc98' or a field list such as "
                    + "'ts:u32@0, url:bytes(16)@4'");
        }
        return stored;
    }

    /** The layout stored for {@code data}, or null. */
    static TableLayout read(FileSystem fs, Path data) throws IOException {
        Path s = of(data);
        if (!fs.exists(s)) {
            return null;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (InputStream in = fs.open(s)) {
            in.transferTo(b);
        }
        Properties p = new Properties();
        p.load(new StringReader(b.toString(StandardCharsets.UTF_8)));
        String spec = p.getProperty("layout");
        String size = p.getProperty("recordSize");
        if (spec == null || size == null) {
            throw new IOException("stored layout " + s + " lacks layout= or recordSize=");
        }
        return TableLayout.parse(spec, Integer.parseInt(size.trim()));
    }

    static void write(FileSystem fs, Path target, TableLayout layout) throws IOException {
        String text = "layout=" + layout.spec() + "\nrecordSize=" + layout.recordSize() + "\n";
        try (OutputStream out = fs.create(target, false)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
