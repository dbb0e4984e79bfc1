package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.smartssd.fs.sscache.SsCacheConstants;

/** The one list of smartssd.* keys: what it knows, what it suggests, what it warns about. */
class SmartSsdKeysTest {
    @Test
    void theKeysOfTheFileSystemsAreKnown() {
        for (String k : new String[] {SmartSsdConstants.EMBEDDED_ALLOWED,
            SmartSsdConstants.EMBEDDED_CAPACITY, SmartSsdConstants.EMBEDDED_PROFILE,
            SmartSsdConstants.EMBEDDED_TIME, SmartSsdConstants.EMBEDDED_CACHE_SHARE,
            SmartSsdConstants.EMBEDDED_DIR,
            SmartSsdConstants.DEVICE_PREFIX + "dev0" + SmartSsdConstants.DEVICE_URI_SUFFIX,
            SmartSsdConstants.DEVICE_PREFIX + "rack1.d3" + SmartSsdConstants.DEVICE_HOST_SUFFIX,
            SsCacheConstants.CACHE_PREFIX + "c0" + SsCacheConstants.BACKING_SUFFIX,
            SsCacheConstants.CACHE_PREFIX + "c0" + SsCacheConstants.MODE_SUFFIX,
            SsCacheConstants.CACHE_PREFIX + "c0" + SsCacheConstants.DIRTY_THRESHOLD_SUFFIX,
            SsCacheConstants.CACHE_PREFIX + "c0" + SsCacheConstants.FULL_WAIT_SUFFIX,
            SsCacheConstants.CACHE_PREFIX + "c0" + SsCacheConstants.RETRY_SUFFIX}) {
            assertThat(SmartSsdKeys.isKnown(k)).as(k).isTrue();
        }
        assertThat(SmartSsdKeys.isKnown("smartssd.device.dev0.uir")).isFalse();
        assertThat(SmartSsdKeys.isKnown("smartssd.device..uri")).isFalse();
        assertThat(SmartSsdKeys.isKnown("smartssd.cache.c0.mod")).isFalse();
    }

    @Test
    void aMisspelledKeyNamesTheNearestWithItsDriveName() {
        assertThat(SmartSsdKeys.nearest("smartssd.device.dev0.uir"))
                .isEqualTo("smartssd.device.dev0.uri");
        assertThat(SmartSsdKeys.nearest("smartssd.device.embeded.allowed"))
                .isEqualTo("smartssd.device.embedded.allowed");
        assertThat(SmartSsdKeys.nearest("smartssd.mapreduce.tasklet.timout"))
                .isEqualTo("smartssd.mapreduce.tasklet.timeout");
        assertThat(SmartSsdKeys.nearest("smartssd.something.else.entirely")).isNull();
    }

    @Test
    void aFileSystemWarnsOnceForEachUnknownKey() throws Exception {
        Configuration conf = FsTestSupport.embeddedConf();
        conf.set("smartssd.device.keystest.uir", "emu:/nowhere.img");
        conf.set("smartssd.job.placment", "host");
        try (FileSystem fs = FsTestSupport.newFs("keystest", conf)) {
            assertThat(fs.exists(new org.apache.hadoop.fs.Path("/"))).isTrue();
        }
        // the file system warned about both already; a key set since is new
        conf.set("smartssd.device.keystest.hots", "h1");
        assertThat(SmartSsdKeys.warnUnknown(conf)).containsExactly("smartssd.device.keystest.hots");
        assertThat(SmartSsdKeys.warnUnknown(conf)).isEmpty();
        assertThat(SmartSsdKeys.unknownMessage("smartssd.job.placment"))
                .startsWith("unknown configuration key smartssd.job.placment: did you mean "
                        + "smartssd.job.placement? (the known smartssd.* keys: "
                        + "smartssd.device.NAME.uri, ");
    }
}
