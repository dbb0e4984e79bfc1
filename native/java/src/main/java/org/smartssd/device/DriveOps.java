package org.smartssd.device;


import java.io.IOException;
import java.util.Optional;

/** The drive part of {@link SmartSsdDevice}: identity, space, durability, counters, SMART. */
final class DriveOps {
    /** Most SMART attributes asked for (SMART_ATTR_MAX in native/jni/jni_internal.h). */
    static final int SMART_ATTR_MAX = 64;

    private final DeviceSession s;

    DriveOps(DeviceSession s) {
        this.s = s;
    }

    DriveInfo info() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.info0(h, out), "drive info");
            return Replies.DRIVE_INFO.decode(out, s.transport);
        });
    }

    FsStat fsStat() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.fsstat0(h, out), "fsstat");
            return Replies.FSSTAT.decode(out);
        });
    }

    void flush() throws IOException {
        s.withHandle(h -> s.check(SmartSsdNative.flush0(h), "flush"));
    }

    DriveCheck check() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.check0(h, out), "check");
            return Replies.CHECK.decode(out);
        });
    }

    DriveCounters counters() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.counters0(h, out), "counters");
            return Replies.COUNTERS.decode(out);
        });
    }

    Optional<IspQueue> ispQueue() throws IOException {
        return s.withScratch((h, out) -> {
            long rc = SmartSsdNative.ispQueue0(h, out);
            if (rc < 0 && Errors.reasonOf(rc) == Reason.BAD_OPCODE.code()) {
                return Optional.empty();
            }
            s.check(rc, "in-storage queue");
            return Optional.of(Replies.ISP_QUEUE.decode(out));
        });
    }

    Optional<ModelCounters> modelCounters() throws IOException {
        return s.withScratch((h, out) -> {
            long rc = SmartSsdNative.model0(h, out);
            if (rc < 0 && (Errors.errnoOf(rc) == Errno.ENOTSUP
                    || Errors.errnoOf(rc) == Errno.ENOSYS)) {
                return Optional.empty();
            }
            s.check(rc, "model counters");
            return Optional.of(Replies.MODEL.decode(out));
        });
    }

    SmartHealth health() throws IOException {
        return s.withScratch((h, out) -> SmartHealth.decode(out,
                (int) s.check(SmartSsdNative.smart0(h, out, SMART_ATTR_MAX), "SMART health")));
    }
}
