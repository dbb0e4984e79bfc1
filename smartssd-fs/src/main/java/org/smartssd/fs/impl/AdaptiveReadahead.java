package org.smartssd.fs.impl;

/**
 * How much the next fetch of a stream's sequential reads takes, as a kernel's page cache
 * decides it: the stream's first fetch is a whole read-ahead; a read that goes on where the
 * last fetch ended, or at most {@value #SHORT_SKIP} bytes past it, fetches twice the last
 * fetch, up to the read-ahead; any other read is a jump, back or forward, and fetches what
 * it asks for, at least {@value #RANDOM_FILL_MIN} bytes. The one copy of the rule, for
 * {@code smartssd://} ({@code SmartSsdInputStream}) and {@code sscache://}
 * ({@code SsCacheInputStream}); why it is so is in {@code SmartSsdInputStream}'s comment.
 * Not thread-safe: it belongs to one stream's sequential calls.
 */
public final class AdaptiveReadahead {
    /**
     * The least a fill fetches after a jump, so byte-at-a-time reads still hit: what a
     * reply's first 512 B sector holds after its 64 B header (PROTOCOL.md 1.2). A reply
     * crosses the link in whole sectors, so these bytes come with the header and one byte
     * more costs a sector.
     */
    public static final int RANDOM_FILL_MIN = 512 - 64;
    /**
     * The longest skip past the last fetch after which a read still goes on: about what
     * one more READ costs on the link (on kang-smartssd its 512 B command, its reply's
     * padding and 3.9 us, about 2 KB at 300 MB/s), so a reader skipping less (fields,
     * records) is read through in whole read-aheads rather than a READ each.
     */
    public static final int SHORT_SKIP = 2048;

    /** Where the last fetch started and ended; -1: none yet. */
    private long lastFetchStart = -1;
    private long lastFetchEnd = -1;

    /**
     * Bytes the next fetch at {@code p} takes for a read of {@code want} bytes, at most
     * {@code readahead}.
     */
    public int fillSize(long p, int want, int readahead) {
        if (lastFetchStart < 0) {
            return readahead;
        }
        long grown = goesOn(p) ? 2 * (lastFetchEnd - lastFetchStart) : 0;
        return (int) Math.min(readahead, Math.max(Math.max(want, RANDOM_FILL_MIN), grown));
    }

    /** Whether a read at {@code p} goes on from the last fetch: a pass, not a jump. */
    public boolean goesOn(long p) {
        return lastFetchStart >= 0 && p >= lastFetchStart && p <= lastFetchEnd + SHORT_SKIP;
    }

    /** Remembers a fetch of {@code [start, end)} for the next one's rule. */
    public void fetched(long start, long end) {
        lastFetchStart = start;
        lastFetchEnd = Math.max(start, end);
    }
}
