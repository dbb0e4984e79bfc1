package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How to format an emulated drive's image: the emulator's factory step ({@link #format}),
 * after which {@code emu:IMAGE} opens it and smartssd-devd can serve it.
 * {@link SmartSsdDevice#formatEmulated} is shorthand for the common cases.
 *
 * @param profile           model profile name (see {@link #profiles()}) or a path to a
 *                          profile file; null for the default, kang-smartssd
 * @param capacityBytes     raw flash capacity, rounded up to whole blocks on every die; 0 for
 *                          the profile's capacity. The drive offers less to files: the
 *                          profile's over-provisioning and the object store's metadata.
 * @param maxObjects        object table size; 0 for the object store's default
 * @param cacheSharePercent % of the flash (0 to 90) for the solid-state cache
 *                          ({@link SmartSsdDevice#cache()}); 0 gives none;
 *                          {@link SmartSsdDevice#CACHE_SHARE_DEFAULT} what {@code smartssd
 *                          format} gives
 * @param bufferPolicy      the drive's DRAM buffer, which every host read and write goes
 *                          through: none, lru, fab, bplru, lbclock, hbm, or the merge cache
 *                          nv-wb, nv-sub, nv-sat (with +cache, +prefetch or +both); null for
 *                          the firmware's default (hbm)
 * @param bufferBytes       its size, a multiple of the page size; 0 for the default (4 MiB,
 *                          or two erase blocks where that is more)
 * @param bufferThreshold   HBM's migration threshold in pages; 0 for the dynamic one
 * @param force             overwrite what is there. Without it an existing file is formatted
 *                          only when that loses nothing (it is empty, or an image whose drive
 *                          holds no object): a file that is not an image, or an image holding
 *                          objects, is refused (a failure naming what is there)
 * @param driveInterface    {@link DriveInterface#FTL} the drive with objects, tasklets and
 *                          cache; {@link DriveInterface#OPEN_CHANNEL} or
 *                          {@link DriveInterface#ZONED} the whole flash as chunks the host
 *                          writes itself ({@link SmartSsdDevice#chunked()}), the cache share
 *                          and buffer then unused
 */
public record EmulatedFormat(String profile, long capacityBytes, int maxObjects,
                             int cacheSharePercent, String bufferPolicy, long bufferBytes,
                             int bufferThreshold, boolean force, DriveInterface driveInterface) {
    /** The solid-state cache's share of the flash that {@code smartssd format} gives a drive
     *  where the flash has room for a cache part. */
    public static final int DEFAULT_CACHE_SHARE_PERCENT = 25;
    /** The size of the message buffer format0 fills on failure (ERR_MAX in jni_format.c). */
    private static final int MESSAGE_BYTES = 1024;

    public EmulatedFormat {
        if (capacityBytes < 0 || maxObjects < 0 || bufferBytes < 0 || bufferThreshold < 0) {
            throw new IllegalArgumentException("capacity, max objects and the buffer's size and "
                    + "threshold must not be negative");
        }
        if (cacheSharePercent < SmartSsdDevice.CACHE_SHARE_DEFAULT || cacheSharePercent > 90) {
            throw new IllegalArgumentException("the cache share is a percentage from 0 to 90 "
                    + "(or CACHE_SHARE_DEFAULT), got " + cacheSharePercent);
        }
        Objects.requireNonNull(driveInterface, "driveInterface");
    }

    /** An FTL drive without a solid-state cache, with the firmware's default buffer; an
     *  existing image is kept unless formatting it loses nothing. */
    public static EmulatedFormat of(String profile, long capacityBytes, int maxObjects) {
        return new EmulatedFormat(profile, capacityBytes, maxObjects, 0, null, 0, 0, false,
                DriveInterface.FTL);
    }

    public EmulatedFormat withCacheShare(int percent) {
        return new EmulatedFormat(profile, capacityBytes, maxObjects, percent, bufferPolicy,
                bufferBytes, bufferThreshold, force, driveInterface);
    }

    public EmulatedFormat withBuffer(String policy, long bytes, int threshold) {
        return new EmulatedFormat(profile, capacityBytes, maxObjects, cacheSharePercent, policy,
                bytes, threshold, force, driveInterface);
    }

    public EmulatedFormat withForce(boolean overwrite) {
        return new EmulatedFormat(profile, capacityBytes, maxObjects, cacheSharePercent,
                bufferPolicy, bufferBytes, bufferThreshold, overwrite, driveInterface);
    }

    public EmulatedFormat withInterface(DriveInterface iface) {
        return new EmulatedFormat(profile, capacityBytes, maxObjects, cacheSharePercent,
                bufferPolicy, bufferBytes, bufferThreshold, force, iface);
    }

    /** Creates (or overwrites, as {@link #force} says) {@code image} and formats it. */
    public void format(Path image) throws IOException {
        ByteBuffer msg = ByteBuffer.allocateDirect(MESSAGE_BYTES);
        long rc = SmartSsdNative.format0(DeviceSession.utf8z(image.toAbsolutePath().toString()),
                utf8zOrNull(profile), capacityBytes, maxObjects, cacheSharePercent,
                utf8zOrNull(bufferPolicy), bufferBytes, bufferThreshold, force,
                driveInterface.ordinal(), msg);
        if (rc < 0) {
            String detail = DeviceSession.cString(msg, 0, MESSAGE_BYTES);
            throw Errors.translate(-Errors.errnoOf(rc), Errors.reasonOf(rc), "format " + image
                    + (profile == null ? "" : " with profile " + profile)
                    + (detail.isEmpty() ? "" : " [" + detail + "]"));
        }
    }

    /** Names of the emulator's built-in model profiles. */
    public static List<String> profiles() {
        String s = SmartSsdNative.profiles0();
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    private static byte[] utf8zOrNull(String s) {
        return s == null ? null : DeviceSession.utf8z(s);
    }
}
