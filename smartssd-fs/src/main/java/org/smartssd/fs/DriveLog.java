package org.smartssd.fs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * A logger for one drive: each message it logs carries the drive's name in the SLF4J MDC
 * (log4j 2's ThreadContext) under {@value #KEY}, set for that message only (thread pools
 * run other drives' work next), so a pattern's {@code %X{smartssd.drive}} names it
 * (the connector's {@code log4j2-smartssd.properties} does).
 */
public final class DriveLog {
    /** The MDC key of the drive's name. */
    public static final String KEY = "smartssd.drive";

    private final Logger log;
    private final String drive;

    private DriveLog(Logger log, String drive) {
        this.log = log;
        this.drive = drive;
    }

    /** {@code type}'s logger, its messages naming {@code drive} (a name or a URI). */
    public static DriveLog of(Class<?> type, String drive) {
        return new DriveLog(LoggerFactory.getLogger(type), drive);
    }

    public String drive() {
        return drive;
    }

    public void info(String format, Object... args) {
        if (log.isInfoEnabled()) {
            String prev = enter();
            try {
                log.info(format, args);
            } finally {
                leave(prev);
            }
        }
    }

    public void warn(String format, Object... args) {
        if (log.isWarnEnabled()) {
            String prev = enter();
            try {
                log.warn(format, args);
            } finally {
                leave(prev);
            }
        }
    }

    public void debug(String format, Object... args) {
        if (log.isDebugEnabled()) {
            String prev = enter();
            try {
                log.debug(format, args);
            } finally {
                leave(prev);
            }
        }
    }

    private String enter() {
        String prev = MDC.get(KEY);
        MDC.put(KEY, drive);
        return prev;
    }

    private static void leave(String prev) {
        if (prev == null) {
            MDC.remove(KEY);
        } else {
            MDC.put(KEY, prev);
        }
    }
}
