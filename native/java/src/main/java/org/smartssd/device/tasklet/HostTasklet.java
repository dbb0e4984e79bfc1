package org.smartssd.device.tasklet;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * The host version of a built-in tasklet: the same params, the same records
 * ({@link SplitRecords}), the same field reads (big-endian FIXED fields, bit fields, TEXT
 * columns that are {@code -?[0-9]+} within the type's range, a leaf false where a field has
 * no value) and the same output bytes, trailer included, so a caller decodes either side's
 * output with one decoder ({@link Filter#decode}, {@link GroupAggregate#decode},
 * {@link TopN#decode}) and the answers cannot differ. One class per tasklet:
 * {@link HostFilter}, {@link HostGroupAggregate}, {@link HostTopN}, over the shared field
 * reads ({@link HostFields}) and WHERE stage ({@link HostPredicate}). Not thread-safe: one
 * instance per run.
 *
 * <pre>{@code
 * HostTasklet h = HostTasklet.of(spec);
 * SplitRecords.cut(spec.layout(), size, start, length, in::read, h::accept);
 * byte[] output = h.finish();
 * }</pre>
 */
public interface HostTasklet {

    /**
     * The host version of {@code spec}: filter (not PAGES, which names the drive's pages),
     * group-aggregate or top-N with their WHERE stage.
     *
     * @throws IllegalArgumentException for another tasklet or params the drive would refuse
     */
    static HostTasklet of(TaskletSpec spec) {
        BuiltinTasklet t = BuiltinTasklet.of(spec.taskletId());
        RecordLayout l = spec.layout();
        return switch (t) {
            case FILTER -> HostFilter.of(l, Filter.parse(spec.params()));
            case GROUP_AGGREGATE -> HostGroupAggregate.of(l, spec.params());
            case TOP_N -> HostTopN.of(l, spec.params());
            default -> throw new IllegalArgumentException("tasklet " + t.taskletName()
                    + " has no host version");
        };
    }

    /**
     * One record (a FIXED record's bytes, a TEXT line without its delimiter).
     *
     * @return false once the run is done (a filter's limit reached): take no more
     */
    boolean accept(byte[] b, int off, int len);

    /** Records examined so far. */
    long recordsIn();

    /** The output as the drive writes it: the items, then the trailer. */
    byte[] finish();
}
