package org.smartssd.device;

/**
 * The solid-state cache is full of dirty blocks: the write was refused and nothing was
 * dropped (dirty data is never evicted silently). Clean or evict blocks, then retry.
 */
public class CacheFullException extends DriveFullException {
    private static final long serialVersionUID = 1L;

    public CacheFullException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
