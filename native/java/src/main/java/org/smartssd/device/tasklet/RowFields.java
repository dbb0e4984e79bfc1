package org.smartssd.device.tasklet;

import org.smartssd.device.RecordLayout.FieldType;

/**
 * A row's fields as a WHERE tree reads them ({@link HostPredicate}): a record of a layout
 * (the built-in tasklets' host versions), or a row a host reader decoded from a file the
 * drive could not (a Parquet row group). A field without a value is NULL.
 */
public interface RowFields {
    /** The type the drive reads field {@code f} as: BYTES, or a number type whose
     *  {@link FieldType#signed} orders comparisons on it. */
    FieldType type(int f);

    /**
     * Whether numeric field {@code f} has a value; if so, {@link #value()} is it as the
     * drive compares it (integers sign-extended, floats as their order keys, TIMESTAMP in
     * microseconds, DECIMAL unscaled).
     */
    boolean number(int f);

    /** The value of the last {@link #number} that had one. */
    long value();

    /** BYTES field {@code f}: {start, length} of its bytes in {@link #array}, null when NULL. */
    int[] bytes(int f);

    /** The array {@link #bytes}'s offsets index for field {@code f}. */
    byte[] array(int f);
}
