package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The drive's in-storage queue (ISP_QUEUE): every tasklet run executing on it, whoever
 * started it. {@code instances} runs are queued or running with {@code pagesRemaining} pages
 * left between them; {@code backlogNs} is the drive's estimate of the ISP core time they
 * still need, in modelled ns: each run's pages left at its own counted cost per page so far,
 * or at {@code pageNs} (a page with no counted work) before its first page. From counted
 * work and the drive's constants only, so the same work gives the same figures.
 * {@code priced} is 0 on a drive that cannot price its core's work (backlog and page price
 * are then 0), else 1.
 */
public record IspQueue(long instances, long priced, long pagesRemaining, long backlogNs,
                       long pageNs) {
    // ISP_QUEUE's reply, struct ss_wire_isp_queue (SS_REPLY_ISP_QUEUE in ss_proto_replies.h)
    static final int INSTANCES = 0;
    static final int PRICED = 4;
    static final int PAGES_REMAINING = 8;
    static final int BACKLOG_NS = 16;
    static final int PAGE_NS = 24;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("instances", INSTANCES),
            WireField.u32("priced", PRICED),
            WireField.u64("pages_remaining", PAGES_REMAINING),
            WireField.u64("backlog_ns", BACKLOG_NS),
            WireField.u64("page_ns", PAGE_NS));

    /** Decodes the reply's wire bytes at b's start. */
    static IspQueue decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new IspQueue(WireField.u32(le, INSTANCES), WireField.u32(le, PRICED),
                le.getLong(PAGES_REMAINING), le.getLong(BACKLOG_NS), le.getLong(PAGE_NS));
    }

    /** True when {@link #backlogNs} is the drive's estimate (it prices its core's work). */
    public boolean hasBacklogEstimate() {
        return priced != 0;
    }
}
