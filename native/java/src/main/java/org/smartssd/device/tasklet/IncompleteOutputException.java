package org.smartssd.device.tasklet;

import java.io.IOException;

/**
 * A tasklet output that cannot be decoded: no valid trailer (the run did not complete), the
 * trailer of another tasklet, or items that do not add up to what the trailer says.
 */
public class IncompleteOutputException extends IOException {
    private static final long serialVersionUID = 1L;

    public IncompleteOutputException(String message) {
        super(message);
    }
}
