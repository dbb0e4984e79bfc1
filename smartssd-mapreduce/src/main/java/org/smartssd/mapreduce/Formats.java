package org.smartssd.mapreduce;

import java.io.IOException;

import org.smartssd.device.tasklet.BuiltinTasklet;

/** Checks the built-in formats share: which tasklet produced an output. */
final class Formats {
    private Formats() {
    }

    static BuiltinTasklet tasklet(DeviceOutput output) throws IOException {
        try {
            return BuiltinTasklet.of(output.spec().taskletId());
        } catch (IllegalArgumentException e) {
            throw new IOException("the built-in formats read built-in tasklet outputs; tasklet "
                    + output.spec().taskletId() + " needs its own DeviceMapperFormat", e);
        }
    }

    static void require(DeviceOutput output, BuiltinTasklet expected, Class<?> format)
            throws IOException {
        BuiltinTasklet t = tasklet(output);
        if (t != expected) {
            throw new IOException(format.getSimpleName() + " reads " + expected.taskletName()
                    + " outputs, not " + t.taskletName() + " outputs");
        }
    }
}
