package org.smartssd.fs.sscache;

/**
 * Configuration keys of {@code sscache://DRIVE/PATH}. Their defaults, with what each does,
 * are in {@code smartssd-default.xml}. The drive itself is {@code smartssd.device.DRIVE.uri}
 * (and {@code .host}), as for {@code smartssd://}.
 */
public final class SsCacheConstants {
    private SsCacheConstants() {
    }

    /** The URI scheme. */
    public static final String SCHEME = "sscache";

    /** Prefix of the per-drive cache keys: {@code smartssd.cache.DRIVE.backing} etc. */
    public static final String CACHE_PREFIX = "smartssd.cache.";

    /** {@code smartssd.cache.DRIVE.backing}: the backing root URI (file:///data, hdfs://nn/x). */
    public static final String BACKING_SUFFIX = ".backing";

    /** {@code smartssd.cache.DRIVE.mode}: write-through (default) or write-back. */
    public static final String MODE_SUFFIX = ".mode";

    /**
     * {@code smartssd.cache.DRIVE.dirty.threshold}: the share of the cache's blocks that may
     * be dirty before the cleaner writes back the least recently written files (FlashTier
     * §4.3.4). Write-back mode only.
     */
    public static final String DIRTY_THRESHOLD_SUFFIX = ".dirty.threshold";
    public static final float DIRTY_THRESHOLD_DEFAULT = 0.5f;

    /** {@code smartssd.cache.DRIVE.full.wait}: how long a write into a cache full of dirty
     *  data waits for the cleaner before it fails (ms). */
    public static final String FULL_WAIT_SUFFIX = ".full.wait.ms";
    public static final long FULL_WAIT_DEFAULT = 30_000;

    /** {@code smartssd.cache.DRIVE.writeback.retry.ms}: the pause after a failed write-back
     *  before the cleaner tries that file again. */
    public static final String RETRY_SUFFIX = ".writeback.retry.ms";
    public static final long RETRY_DEFAULT = 1_000;

    /** {@code smartssd.cache.DRIVE.fill.queue.bytes}: how many bytes of missed blocks, read
     *  from the backing store, may wait to be cached while the readers go on; 0: a reader
     *  caches them itself before it returns them. */
    public static final String FILL_QUEUE_SUFFIX = ".fill.queue.bytes";
    public static final long FILL_QUEUE_DEFAULT = 8L << 20;

    /** {@code smartssd.cache.DRIVE.fill.wait.ms}: how long a reader waits for room in a full
     *  fill queue before it drops that fill (counted, logged). */
    public static final String FILL_WAIT_SUFFIX = ".fill.wait.ms";
    public static final long FILL_WAIT_DEFAULT = 30_000;

    /** The two modes. */
    public enum Mode {
        WRITE_THROUGH("write-through"), WRITE_BACK("write-back");

        private final String key;

        Mode(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        public static Mode parse(String property, String value) {
            if (value == null || value.isBlank()) {
                return WRITE_THROUGH;
            }
            for (Mode m : values()) {
                if (m.key.equalsIgnoreCase(value.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException(property + " = '" + value
                    + "': use write-through or write-back");
        }
    }
}
