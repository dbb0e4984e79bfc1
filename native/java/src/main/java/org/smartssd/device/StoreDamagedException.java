package org.smartssd.device;

/**
 * The drive's object store failed the check its mount makes (STORE_DAMAGED): the drive is up
 * without it and answers only its identity and {@link SmartSsdDevice#check()}, which says
 * what is wrong.
 */
public class StoreDamagedException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public StoreDamagedException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
