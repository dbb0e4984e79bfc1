package org.smartssd.device;

/** The tasklet instance is still running: wait for it before executing it again (TASKLET_RUNNING). */
public class TaskletRunningException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public TaskletRunningException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
