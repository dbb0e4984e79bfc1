package org.smartssd.device;

/**
 * What every exception raised for a drive's answer carries. The exceptions are Java's own
 * types where one fits ({@link java.io.FileNotFoundException},
 * {@link java.nio.file.FileAlreadyExistsException},
 * {@link java.nio.file.DirectoryNotEmptyException}, {@link java.nio.file.NotDirectoryException})
 * and {@link SmartSsdException} otherwise; all implement this.
 */
public interface SmartSsdError {
    /** The errno and reason code of the drive's answer. */
    DriveStatus status();

    /** The Linux errno the drive or the host library returned (positive), 0 if none. */
    default int errno() {
        return status().errno();
    }

    /** The drive's reason, {@link Reason#OK} when it gave none or one this client does not know. */
    default Reason reason() {
        Reason r = Reason.of(reasonCode());
        return r == null ? Reason.OK : r;
    }

    /** The raw reason code, also when {@link #reason()} does not know it. */
    default int reasonCode() {
        return status().reasonCode();
    }
}
