package org.smartssd.spark;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** The log events of {@code org.smartssd} loggers at INFO and above while open (log4j 2). */
final class LogCapture extends AbstractAppender implements AutoCloseable {
    private static final String LOGGER = "org.smartssd";
    final List<LogEvent> events = new CopyOnWriteArrayList<>();
    private final LoggerContext ctx;
    private final LoggerConfig added;

    LogCapture() {
        super("capture", null, null, true, Property.EMPTY_ARRAY);
        ctx = (LoggerContext) LogManager.getContext(false);
        Configuration conf = ctx.getConfiguration();
        start();
        conf.addAppender(this);
        added = new LoggerConfig(LOGGER, Level.INFO, true);
        added.addAppender(this, Level.INFO, null);
        conf.addLogger(LOGGER, added);
        ctx.updateLoggers();
    }

    @Override
    public void append(LogEvent event) {
        events.add(event.toImmutable());
    }

    @Override
    public void close() {
        Configuration conf = ctx.getConfiguration();
        conf.removeLogger(LOGGER);
        conf.getAppenders().remove(getName());
        ctx.updateLoggers();
        stop();
    }
}
