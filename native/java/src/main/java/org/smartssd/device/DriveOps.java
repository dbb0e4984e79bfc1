package org.smartssd.device;


import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

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
            s.check(SmartSsdDevice.info0(h, out), "drive info");
            return Replies.DRIVE_INFO.decode(out, s.transport);
        });
    }

    FsStat fsStat() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdDevice.fsstat0(h, out), "fsstat");
            return Replies.FSSTAT.decode(out);
        });
    }

    void flush() throws IOException {
        s.withHandle(h -> s.check(SmartSsdDevice.flush0(h), "flush"));
    }

    DriveCheck check() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdDevice.check0(h, out), "check");
            return Replies.CHECK.decode(out);
        });
    }

    DriveCounters counters() throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdDevice.counters0(h, out), "counters");
            return Replies.COUNTERS.decode(out);
        });
    }

    Optional<IspQueue> ispQueue() throws IOException {
        return s.withScratch((h, out) -> {
            long rc = SmartSsdDevice.ispQueue0(h, out);
            if (rc < 0 && Errors.reasonOf(rc) == Reason.BAD_OPCODE.code()) {
                return Optional.empty();
            }
            s.check(rc, "in-storage queue");
            return Optional.of(Replies.ISP_QUEUE.decode(out));
        });
    }

    Optional<ModelCounters> modelCounters() throws IOException {
        return s.withScratch((h, out) -> {
            long rc = SmartSsdDevice.model0(h, out);
            if (rc < 0 && (Errors.errnoOf(rc) == Errno.ENOTSUP
                    || Errors.errnoOf(rc) == Errno.ENOSYS)) {
                return Optional.empty();
            }
            s.check(rc, "model counters");
            return Optional.of(Replies.MODEL.decode(out));
        });
    }

    OptionalLong energyJoin(long instance) throws IOException {
        return s.withHandle(h -> {
            long rc = SmartSsdDevice.energyJoin0(h, instance);
            if (rc < 0 && Errors.errnoOf(rc) == Errno.ENOTSUP) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(s.check(rc, "energy join of tasklet instance",
                    Long.toUnsignedString(instance)));
        });
    }

    void energyLeave(long ticket, boolean abandon) throws IOException {
        s.withHandle(h -> s.check(SmartSsdDevice.energyLeave0(h, ticket, abandon),
                abandon ? "energy abandon of ticket" : "energy leave of ticket", ticket));
    }

    Optional<SharedDriveEnergy.Share> energyShare(long ticket) throws IOException {
        return s.withScratch((h, out) -> {
            long rc = SmartSsdDevice.energyShare0(h, ticket, out);
            if (rc < 0 && Errors.errnoOf(rc) == Errno.EAGAIN) {
                return Optional.empty();
            }
            s.check(rc, "energy share of ticket", ticket);
            return Optional.of(Replies.TASK_SHARE.decode(out));
        });
    }

    SmartHealth health() throws IOException {
        return s.withScratch((h, out) -> SmartHealth.decode(out,
                (int) s.check(SmartSsdDevice.smart0(h, out, SMART_ATTR_MAX), "SMART health")));
    }
}
