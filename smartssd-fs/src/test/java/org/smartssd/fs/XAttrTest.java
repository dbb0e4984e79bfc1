package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Hadoop's XAttr API on smartssd:// over an in-process drive (emu:) and a daemon (unix:):
 * the drive object's named attributes, the user. namespace, HDFS's flag rules, and that
 * attributes follow a rename and outlive a reopen of the drive.
 */
class XAttrTest {
    private static final Duration READY = Duration.ofSeconds(60);
    private static final EnumSet<XAttrSetFlag> CREATE = EnumSet.of(XAttrSetFlag.CREATE);
    private static final EnumSet<XAttrSetFlag> REPLACE = EnumSet.of(XAttrSetFlag.REPLACE);
    private static final EnumSet<XAttrSetFlag> EITHER =
            EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE);

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void xattrsAreTheDriveObjectsAttributes(String transport) throws Exception {
        Path img = dir.resolve("x.img");
        SmartSsdDevice.formatEmulated(img, null, 64L << 20, 0);
        Devd devd = transport.equals("unix") ? Devd.start(img, dir.resolve("x.sock"), READY)
                : null;
        Configuration conf = new Configuration();
        conf.set("smartssd.device.x.uri", devd != null ? devd.uri() : "emu:" + img);
        org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path("/t/data");
        try {
            try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://x/"), conf)) {
                fs.create(f).close();
                assertThat(fs.hasPathCapability(f, CommonPathCapabilities.FS_XATTRS)).isTrue();
                assertThat(fs.listXAttrs(f)).isEmpty();
                fs.setXAttr(f, "user.smartssd.layout", b("wc98"), CREATE);
                fs.setXAttr(f, "USER.b", b("1"), EITHER);   // prefix case-insensitive
                assertThat(fs.listXAttrs(f)).containsExactly("user.smartssd.layout", "user.b");
                assertThat(fs.getXAttr(f, "user.b")).isEqualTo(b("1"));
                assertThatThrownBy(() -> fs.setXAttr(f, "user.b", b("2"), CREATE))
                        .isInstanceOf(IOException.class);
                assertThatThrownBy(() -> fs.setXAttr(f, "user.c", b("2"), REPLACE))
                        .isInstanceOf(IOException.class).hasMessageContaining("not found");
                fs.setXAttr(f, "user.b", b("22"), REPLACE);
                Map<String, byte[]> all = fs.getXAttrs(f);
                assertThat(all.keySet()).containsExactly("user.smartssd.layout", "user.b");
                assertThat(all.get("user.b")).isEqualTo(b("22"));
                assertThat(fs.getXAttrs(f, List.of("user.b")).keySet())
                        .containsExactly("user.b");
                assertThatThrownBy(() -> fs.getXAttr(f, "user.none"))
                        .isInstanceOf(IOException.class).hasMessageContaining("not found");
                assertThatThrownBy(() -> fs.getXAttrs(f, List.of("user.b", "user.none")))
                        .isInstanceOf(IOException.class).hasMessageContaining("not found");
                assertThatThrownBy(() -> fs.setXAttr(f, "trusted.x", b("1"), EITHER))
                        .isInstanceOf(HadoopIllegalArgumentException.class)
                        .hasMessageContaining("user. namespace");
                assertThatThrownBy(() -> fs.getXAttr(new org.apache.hadoop.fs.Path("/none"),
                        "user.b")).isInstanceOf(java.io.FileNotFoundException.class);
                fs.removeXAttr(f, "user.b");
                assertThatThrownBy(() -> fs.removeXAttr(f, "user.b"))
                        .isInstanceOf(IOException.class).hasMessageContaining("not found");
                assertThat(fs.rename(f, new org.apache.hadoop.fs.Path("/t/moved"))).isTrue();
            }
            try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://x/"), conf)) {
                org.apache.hadoop.fs.Path moved = new org.apache.hadoop.fs.Path("/t/moved");
                assertThat(fs.getXAttrs(moved)).containsOnlyKeys("user.smartssd.layout");
                assertThat(fs.getXAttr(moved, "user.smartssd.layout")).isEqualTo(b("wc98"));
            }
        } finally {
            if (devd != null) {
                devd.close();
            }
        }
    }
}
