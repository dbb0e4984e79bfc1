package org.smartssd.device;

import static org.smartssd.device.DeviceSession.SCRATCH_SIZE;
import static org.smartssd.device.DeviceSession.checkOffset;
import static org.smartssd.device.DeviceSession.path;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.smartssd.device.tasklet.BpfProgram;

/** The tasklet part of {@link SmartSsdDevice}: output objects, instances, runs, polling. */
final class TaskletOps {
    // Tasklet spec in its buffer, mirrored in native/jni/jni_tasklet_ops.c
    static final int SPEC_FIELDS = 9;
    static final int SPEC_PARAMS = 1024;

    private final DeviceSession s;

    TaskletOps(DeviceSession s) {
        this.s = s;
    }

    long createOutput(String path, SmartSsdDevice.CreateOption... options) throws IOException {
        byte[] p = path(path);
        int flags = DeviceSession.flags(options);
        return s.withHandle(h -> s.check(SmartSsdNative.createOutput0(h, p, flags),
                "create output", path));
    }

    long createTasklet(TaskletSpec spec, long outputOid) throws IOException {
        int plen = spec.paramsLength();
        boolean big = SPEC_PARAMS + plen > SCRATCH_SIZE;
        ByteBuffer out = big ? ByteBuffer.allocateDirect(SPEC_PARAMS + plen) : s.scratch.take();
        try {
            out.order(java.nio.ByteOrder.nativeOrder());
            spec.encode(outputOid, out, SPEC_FIELDS);
            out.put(SPEC_PARAMS, spec.paramsUnsafe());
            return s.withHandle(h -> s.check(SmartSsdNative.taskletCreate0(h, out, SPEC_PARAMS,
                    plen), "create tasklet", spec.taskletId() + " (" + spec.layout() + ", "
                    + plen + " param bytes, budget " + spec.memoryBudget() + ", step limit "
                    + spec.stepLimit() + ")"));
        } catch (TaskletFailedException e) {
            throw Errors.createRefused(e, BpfProgram.nameIn(spec), s.uri);
        } finally {
            if (!big) {
                s.scratch.give(out);
            }
        }
    }

    void execute(long instance, List<InputRange> inputs) throws IOException {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a tasklet run needs at least one input range");
        }
        if (inputs.size() * 24 > SCRATCH_SIZE) {
            throw new IllegalArgumentException("too many input ranges: " + inputs.size());
        }
        s.withScratch((h, out) -> {
            for (int i = 0; i < inputs.size(); i++) {
                InputRange r = inputs.get(i);
                // "to the end" is all ones on the wire; from a non-zero offset the drive wants
                // offset + length not to wrap, so the largest such length is sent instead
                long len = r.length() == InputRange.TO_END ? InputRange.TO_END - r.offset()
                        : r.length();
                out.putLong(i * 24, r.oid()).putLong(i * 24 + 8, r.offset())
                        .putLong(i * 24 + 16, len);
            }
            s.check(SmartSsdNative.taskletExecute0(h, instance, out, 0, inputs.size()),
                    "execute tasklet", instance + " over " + inputs.size() + " input range(s)");
            return s.taskletRuns.incrementAndGet();
        });
    }

    TaskletProgress poll(long instance) throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.taskletPoll0(h, instance, out), "poll tasklet", instance);
            return Replies.PROGRESS.decode(out);
        });
    }

    int readOutput(long instance, long offset, ByteBuffer dst) throws IOException {
        checkOffset(offset);
        if (!dst.isDirect()) {
            ByteBuffer st = s.staging.take();
            try {
                st.limit(Math.min(st.capacity(), dst.remaining()));
                int n = readOutput(instance, offset, st);
                st.flip();
                dst.put(st);
                return n;
            } finally {
                s.staging.give(st);
            }
        }
        return s.withHandle(h -> {
            long n = s.check(SmartSsdNative.taskletRead0(h, instance, offset, dst, dst.position(),
                    dst.remaining(), null), "read output of tasklet", instance + " at " + offset);
            dst.position(dst.position() + (int) n);
            s.bytesFromDrive.addAndGet(n);
            return (int) n;
        });
    }

    byte[] readAllOutput(long instance) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer st = s.staging.take();
        try {
            long off = 0;
            for (;;) {
                st.clear();
                int n = readOutput(instance, off, st);
                if (n <= 0) {
                    return all.toByteArray();
                }
                st.flip();
                byte[] chunk = new byte[n];
                st.get(chunk);
                all.write(chunk, 0, n);
                off += n;
            }
        } finally {
            s.staging.give(st);
        }
    }

    void destroy(long instance) throws IOException {
        s.withHandle(h -> s.check(SmartSsdNative.taskletDestroy0(h, instance), "destroy tasklet",
                instance));
    }

    TaskletProgress await(long instance, Duration timeout, Consumer<TaskletProgress> listener)
            throws IOException {
        AdaptivePoller poller = new AdaptivePoller(s.options.pollPolicy());
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            TaskletProgress p = poll(instance);
            if (listener != null) {
                listener.accept(p);
            }
            if (p.state() == TaskletState.DONE) {
                return p;
            }
            if (p.state() == TaskletState.FAILED) {
                throw Errors.taskletFailed(p.error(), s.uri + ": tasklet " + instance + " after "
                        + p.pagesDone() + " of " + p.pagesTotal() + " pages");
            }
            if (p.state() == TaskletState.CREATED) {
                throw Errors.translate(-Errno.EINVAL, 0, s.uri + ": tasklet " + instance
                        + " was never executed; call execute() before await()");
            }
            long now = System.nanoTime();
            long wait = poller.nextDelay(p.pagesDone(), p.pagesTotal(), now);
            if (now + wait - deadline > 0) {
                if (deadline - now <= 0) {
                    throw Errors.translate(-Errno.ETIMEDOUT, 0, s.uri + ": tasklet " + instance
                            + " not done after " + timeout + " (" + p.pagesDone() + " of "
                            + p.pagesTotal() + " pages)");
                }
                wait = deadline - now;
            }
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                throw new InterruptedIOException("interrupted waiting for tasklet " + instance);
            }
        }
    }
}
