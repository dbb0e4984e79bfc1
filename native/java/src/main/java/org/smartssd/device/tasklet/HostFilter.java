package org.smartssd.device.tasklet;

import org.smartssd.device.RecordLayout;

/** The filter tasklet on the host: RECORDS, PROJECT or COUNT, up to its limit. */
final class HostFilter extends HostRecordTasklet {
    private final Filter filter;
    private long matches;

    private HostFilter(RecordLayout layout, Filter filter) {
        super(BuiltinTasklet.FILTER, layout, filter.where());
        this.filter = filter;
    }

    static HostFilter of(RecordLayout layout, Filter f) {
        if (f.mode() == Filter.Mode.PAGES) {
            throw new IllegalArgumentException("filter PAGES reports the drive's page "
                    + "addresses: it has no host version");
        }
        f.spec(layout, 0, 0);
        return new HostFilter(layout, f);
    }

    @Override
    void take(byte[] b, int off, int len) {
        matches++;
        switch (filter.mode()) {
            case RECORDS -> {
                out.write(b, off, len);
                if (fields.layout().kind() == RecordLayout.Kind.TEXT) {
                    out.write(fields.layout().lineDelim());
                }
                items++;
            }
            case PROJECT -> {
                fields.project(filter.projection(), b, off, len, out);
                items++;
            }
            default -> {
            }
        }
        if (filter.limit() != 0 && matches >= filter.limit()) {
            done = true;
        }
    }

    /** The matches, as the drive's trailer counts them. */
    @Override
    long aux() {
        return matches;
    }
}
