package org.smartssd.device;

/**
 * A byte range of an input object for a tasklet run. Ranges follow Hadoop split rules: the
 * splits of one object together cover each record exactly once.
 */
public record InputRange(long oid, long offset, long length) {
    /** Length meaning "to the object's end" (UINT64_MAX on the wire). */
    public static final long TO_END = -1L;
    /** The input ranges one tasklet run takes (ss_proto.h SS_EXECUTE_MAX_INPUTS;
     *  ProtocolLimitsTest holds the two equal). */
    public static final int MAX_PER_RUN = 64;

    public InputRange {
        if (offset < 0) {
            throw new IllegalArgumentException("input offset " + offset + " is negative");
        }
        if (length < 0 && length != TO_END) {
            throw new IllegalArgumentException("input length " + length + " is negative");
        }
    }

    /** The whole object. */
    public static InputRange whole(long oid) {
        return new InputRange(oid, 0, TO_END);
    }
}
