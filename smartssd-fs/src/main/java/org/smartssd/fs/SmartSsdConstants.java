package org.smartssd.fs;

/**
 * Configuration keys of {@code smartssd://}. Their defaults are listed, with what each one
 * does, in {@code smartssd-default.xml} (on the classpath next to these classes).
 */
public final class SmartSsdConstants {
    private SmartSsdConstants() {
    }

    /** The URI scheme. */
    public static final String SCHEME = "smartssd";

    /** Prefix of the per-drive keys: {@code smartssd.device.NAME.uri} and {@code .host}. */
    public static final String DEVICE_PREFIX = "smartssd.device.";

    /** {@code smartssd.device.NAME.uri}: {@code emu:/x.img}, {@code unix:/x.sock}, {@code sg:/dev/sdX}. */
    public static final String DEVICE_URI_SUFFIX = ".uri";

    /** {@code smartssd.device.NAME.host}: the host holding the drive; default this host. */
    public static final String DEVICE_HOST_SUFFIX = ".host";

    /**
     * When true, a device name without {@code smartssd.device.NAME.uri} gets an embedded
     * emulated drive, formatted in a temp folder and removed when the JVM exits. For tests
     * and demos; default false.
     */
    public static final String EMBEDDED_ALLOWED = "smartssd.device.embedded.allowed";

    /** Raw flash capacity of an embedded drive (bytes, suffixes k/m/g allowed). */
    public static final String EMBEDDED_CAPACITY = "smartssd.device.embedded.capacity";
    public static final long EMBEDDED_CAPACITY_DEFAULT = 256L << 20;
    /** Raw flash of an embedded drive with a cache part, when not configured: kang-smartssd
     *  has room for a 25 % cache part (7,680 blocks of 8 KiB) from 512 MiB up. */
    public static final long EMBEDDED_CACHE_CAPACITY_DEFAULT = 512L << 20;

    /** Model profile of an embedded drive (name or file); default kang-smartssd. */
    public static final String EMBEDDED_PROFILE = "smartssd.device.embedded.profile";

    /** Time mode of an embedded drive: virtual (default) or realtime. */
    public static final String EMBEDDED_TIME = "smartssd.device.embedded.time";

    /** Percent of an embedded drive's flash for its solid-state cache; default 0 for a
     *  drive first used by smartssd://, the formatter's default (25 %) for one first used by
     *  sscache://. */
    public static final String EMBEDDED_CACHE_SHARE = "smartssd.device.embedded.cache.share";

    /** Folder in which embedded drives get their temp folder; default java.io.tmpdir. */
    public static final String EMBEDDED_DIR = "smartssd.device.embedded.dir";

    /** Block size reported in file status and used to slice block locations. */
    public static final String BLOCK_SIZE = "fs.smartssd.block.size";
    public static final long BLOCK_SIZE_DEFAULT = 128L << 20;

    /** Bytes of one WRITE command an output stream sends (at most {@link #MAX_TRANSFER}). */
    public static final String WRITE_BUFFER = "fs.smartssd.write.buffer.size";
    public static final int WRITE_BUFFER_DEFAULT = 1 << 20;

    /** WRITE commands an output stream keeps in the drive at once (1..32): it collects this
     *  many buffers of {@link #WRITE_BUFFER} bytes, then sends them queued, so the transfer
     *  of one overlaps the flash work of those before it. 1: one command at a time. Each
     *  open stream holds depth x the write buffer size of direct memory. */
    public static final String WRITE_QUEUE_DEPTH = "fs.smartssd.write.queue.depth";
    public static final int WRITE_QUEUE_DEPTH_DEFAULT = 4;
    public static final int QUEUE_DEPTH_MAX = 32;

    /** Bytes an input stream asks for in one READ command when reading sequentially. */
    public static final String READAHEAD = "fs.smartssd.readahead.range";
    public static final int READAHEAD_DEFAULT = 1 << 20;

    /** The last bytes of a file an instance keeps in memory once a stream read them (a
     *  Parquet footer and its indexes), for later streams of the same version; 0: none. */
    public static final String TAIL_CACHE_BYTES = "fs.smartssd.tail-cache.bytes";
    public static final long TAIL_CACHE_BYTES_DEFAULT = 16L << 20;

    /** Bytes the tail cache of one instance holds in all (at least the per-file bytes);
     *  the least recently used file's tail goes first. */
    public static final String TAIL_CACHE_CAPACITY = "fs.smartssd.tail-cache.capacity";
    public static final long TAIL_CACHE_CAPACITY_DEFAULT = 64L << 20;

    /** The data libsmartssd moves in one READ or WRITE command (PROTOCOL.md 4.3 allows a
     *  little more); a buffer of this size costs one command. */
    public static final int MAX_TRANSFER = 1 << 20;
}
