package org.smartssd.cli;

import java.io.IOException;

/** A program smartssd runs (smartssd-devd) is not built. */
final class MissingBinaryException extends IOException {
    private static final long serialVersionUID = 1L;

    MissingBinaryException(String message) {
        super(message);
    }
}
