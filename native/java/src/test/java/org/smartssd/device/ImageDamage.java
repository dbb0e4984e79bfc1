package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Damage done offline to an emulated drive's image file, for the tests of the drive's
 * object-store check (CHECK): here, through {@link SmartSsdDevice#check()}, and in
 * smartssd-cli, through {@code smartssd info --check}.
 */
public final class ImageDamage {
    /** An extent-tree node page starts with this magic (objstore_internal.h, "OSXN"). */
    private static final int XNODE_MAGIC = 0x4e58534f;
    /** Bytes of a page compared when looking for it in the image. */
    private static final int MATCH = 64;

    private ImageDamage() {
    }

    /**
     * An object whose extents far outnumber the record's inline room (22 to 53): fill the
     * drive with pairs of a one-page object and a larger one (sized so that the object table
     * does not fill first), remove every one-page object, and write an object with a long
     * name into the one-page holes until the drive is full. \return its oid.
     */
    public static long fragmentedObject(SmartSsdDevice d) throws IOException {
        int page = d.info().pageSize();
        FsStat st = d.fsStat();
        long pairs = (st.maxObjects() - st.objects() - 4) / 2;
        int big = (int) Math.max(1, (st.capacityBytes() / page + pairs - 1) / pairs);
        List<String> small = new ArrayList<>();
        try {
            for (int i = 0; ; i++) {
                String p = "/s" + i;
                long o = d.create(p, ObjectType.FILE);
                small.add(p);
                d.write(o, 0, ByteBuffer.wrap(new byte[page]), false);
                long b = d.create("/b" + i, ObjectType.FILE);
                d.write(b, 0, ByteBuffer.wrap(new byte[big * page]), false);
            }
        } catch (DriveFullException full) {
            // the drive (or its object table) is full
        }
        for (String p : small) {
            d.remove(p, false);
        }
        d.flush();
        // a long name leaves the record room for only 22 inline extents
        long a = d.create("/" + "f".repeat(250), ObjectType.FILE);
        byte[] chunk = new byte[page];
        try {
            for (int i = 0; i < 200; i++) {
                Arrays.fill(chunk, (byte) ('a' + i % 26));
                d.write(a, (long) i * page, ByteBuffer.wrap(chunk), false);
            }
        } catch (DriveFullException full) {
            // every hole is taken
        }
        d.flush();
        long extents = d.stat(a).extentCount();
        if (extents <= 30) {
            throw new AssertionError("the fragmented object has only " + extents + " extents");
        }
        return a;
    }

    /** Offsets in the image of pages that begin as an extent-tree node of object oid. */
    public static List<Long> nodePagesOf(Path img, long oid) throws IOException {
        List<Long> at = new ArrayList<>();
        byte[] all = Files.readAllBytes(img);
        ByteBuffer le = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 24 <= all.length; i += 4) {
            if (le.getInt(i) == XNODE_MAGIC && le.getLong(i + 8) == oid) {
                at.add((long) i);
            }
        }
        return at;
    }

    /** Overwrites 8 bytes inside each node page (past its header), so its CRC fails. */
    public static void overwriteNodes(Path img, List<Long> nodes) throws IOException {
        try (FileChannel ch = FileChannel.open(img, StandardOpenOption.WRITE)) {
            for (long at : nodes) {
                ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), at + 40);
            }
        }
    }

    /**
     * Flips one bit of the copy of page in the image (found by its first 64 bytes).
     * \return the page's offset in the image.
     */
    public static long flipBitOf(Path img, byte[] page) throws IOException {
        byte[] image = Files.readAllBytes(img);
        long at = indexOf(image, page);
        if (at < 0) {
            throw new AssertionError("the page's bytes are not in " + img);
        }
        try (FileChannel ch = FileChannel.open(img, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (image[(int) at + 100] ^ 0x40)}), at + 100);
        }
        return at;
    }

    private static long indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < MATCH; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
