package org.smartssd.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;

import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The layout a file was written with, kept on the drive with it so that a later read needs
 * no layout option: the attribute {@value #ATTR} of the data object itself (an XAttr of
 * smartssd://), so it follows renames and goes with the file. Drives written before kept
 * it in a small object {@code .NAME.smartssd-layout} beside the file; that is still read
 * when the attribute is absent. Text: {@code layout=...} and {@code recordSize=...}.
 */
final class StoredLayout {
    static final String ATTR = "user.smartssd.layout";

    private StoredLayout() {
    }

    /** Where drives written before attributes kept the layout of {@code data}. */
    static Path legacy(Path data) {
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

    /** The layout stored for {@code data} (its attribute, else the older side object), or null. */
    static TableLayout read(FileSystem fs, Path data) throws IOException {
        if (fs.hasPathCapability(data, CommonPathCapabilities.FS_XATTRS)
                && fs.listXAttrs(data).contains(ATTR)) {
            return parse(new String(fs.getXAttr(data, ATTR), StandardCharsets.UTF_8),
                    data + " attribute " + ATTR);
        }
        Path s = legacy(data);
        if (!fs.exists(s)) {
            return null;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (InputStream in = fs.open(s)) {
            in.transferTo(b);
        }
        return parse(b.toString(StandardCharsets.UTF_8), "stored layout " + s);
    }

    private static TableLayout parse(String text, String where) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        String spec = p.getProperty("layout");
        String size = p.getProperty("recordSize");
        if (spec == null || size == null) {
            throw new IOException(where + " lacks layout= or recordSize=");
        }
        return TableLayout.parse(spec, Integer.parseInt(size.trim()));
    }

    /** Keeps {@code layout} as the attribute of the data object {@code data}. */
    static void write(FileSystem fs, Path data, TableLayout layout) throws IOException {
        String text = "layout=" + layout.spec() + "\nrecordSize=" + layout.recordSize() + "\n";
        fs.setXAttr(data, ATTR, text.getBytes(StandardCharsets.UTF_8),
                EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE));
    }
}
