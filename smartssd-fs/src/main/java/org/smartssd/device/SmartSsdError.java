package org.smartssd.device;

/** What every exception raised for a drive's answer carries. */
public interface SmartSsdError {
    /** The Linux errno the drive or the host library returned (positive), 0 if none. */
    int errno();

    /** The drive's reason, {@link Reason#OK} when it gave none or one this client does not know. */
    default Reason reason() {
        Reason r = Reason.of(reasonCode());
        return r == null ? Reason.OK : r;
    }

    /** The raw reason code, also when {@link #reason()} does not know it. */
    int reasonCode();
}
