package org.smartssd.device;

/**
 * The drive's in-storage queue (ISP_QUEUE): every tasklet run executing on it, whoever
 * started it. {@code instances} runs are queued or running with {@code pagesRemaining} pages
 * left between them; {@code backlogNs} is the drive's estimate of the ISP core time they
 * still need, in modelled ns: each run's pages left at its own counted cost per page so far,
 * or at {@code pageNs} (a page with no counted work) before its first page. From counted
 * work and the drive's constants only, so the same work gives the same figures.
 * {@code priced} is 0 on a drive that cannot price its core's work (backlog and page price
 * are then 0), else 1.
 *
 * <p>The components are the fields of SS_REPLY_ISP_QUEUE in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record IspQueue(long instances, long priced, long pagesRemaining, long backlogNs,
                       long pageNs) {
    /** True when {@link #backlogNs} is the drive's estimate (it prices its core's work). */
    public boolean hasBacklogEstimate() {
        return priced != 0;
    }
}
