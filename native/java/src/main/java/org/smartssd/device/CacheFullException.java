package org.smartssd.device;

/**
 * The solid-state cache is full of dirty blocks: the write was refused and nothing was
 * dropped (dirty data is never evicted silently). Clean or evict blocks, then retry. A
 * cache whose erase blocks wore out ({@link CacheCounters#retiredBlocks()}) refuses writes
 * the same way once too few good blocks are left.
 */
public class CacheFullException extends DriveFullException {
    private static final long serialVersionUID = 1L;

    public CacheFullException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
