package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URL;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.properties.PropertiesConfigurationFactory;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.smartssd.fs.DriveLog;

/**
 * The default log configuration the jars carry ({@code log4j2-smartssd.properties}): quiet
 * at WARN, and its lines name the drive a message is about; and {@link DriveLog} puts the
 * drive's name on each message it logs, and only on it.
 */
class DriveLogTest {
    @Test
    void thePackagedConfigurationIsQuietAtWarnAndNamesTheDrive() throws Exception {
        URL url = DriveLog.class.getClassLoader().getResource("log4j2-smartssd.properties");
        assertThat(url).as("log4j2-smartssd.properties beside DriveLog").isNotNull();
        LoggerContext ctx = new LoggerContext("drive-log-test");
        Configuration conf;
        try (InputStream in = url.openStream()) {
            conf = new PropertiesConfigurationFactory().getConfiguration(ctx,
                    new ConfigurationSource(in, url));
        }
        conf.initialize();
        conf.start();
        try {
            assertThat(conf.getRootLogger().getLevel()).isEqualTo(Level.WARN);
            assertThat(conf.getLoggerConfig("org.smartssd.scan.SplitPlanner").getLevel())
                    .isEqualTo(Level.WARN);
            Layout<?> layout = conf.getAppender("stderr").getLayout();
            SortedArrayStringMap drive = new SortedArrayStringMap();
            drive.putValue(DriveLog.KEY, "d7");
            assertThat(layout.toSerializable(event(drive)).toString())
                    .contains("WARN SplitPlanner [drive d7]: the message");
            assertThat(layout.toSerializable(event(new SortedArrayStringMap())).toString())
                    .contains("WARN SplitPlanner: the message").doesNotContain("drive");
        } finally {
            conf.stop();
        }
    }

    private static LogEvent event(SortedArrayStringMap context) {
        return Log4jLogEvent.newBuilder().setLoggerName("org.smartssd.scan.SplitPlanner")
                .setLevel(Level.WARN).setMessage(new SimpleMessage("the message"))
                .setContextData(context).build();
    }

    @Test
    void aDriveLogsMessagesNameTheirDriveAndNoOther() {
        try (LogCapture log = new LogCapture()) {
            DriveLog.of(DriveLogTest.class, "d7").warn("one {}", 1);
            org.slf4j.LoggerFactory.getLogger(DriveLogTest.class).warn("none");
            MDC.put(DriveLog.KEY, "outer");
            DriveLog.of(DriveLogTest.class, "d8").info("two");
            assertThat(MDC.get(DriveLog.KEY)).isEqualTo("outer");
            MDC.remove(DriveLog.KEY);
            assertThat(log.events).extracting(e -> e.getMessage().getFormattedMessage())
                    .containsExactly("one 1", "none", "two");
            assertThat(log.events).extracting(e -> e.getContextData().getValue(DriveLog.KEY))
                    .containsExactly("d7", null, "d8");
        }
        assertThat(MDC.get(DriveLog.KEY)).isNull();
    }
}
