package org.smartssd.device;

import java.util.Locale;

/**
 * The drive's object-store consistency check (CHECK): every extent tree read and checked
 * against the object records and the allocator, and every data page read against the CRC
 * its flash page was written with. {@code problem} is 0 when the store is
 * consistent, else the first problem found ({@link #problemName()}), at object
 * {@code problemOid}, logical page {@code problemLpn} (0xFFFFFFFF: none) and tree level
 * {@code problemLevel}. {@code mounted} is 0 when the drive came up without its store
 * because the check its mount makes found the problem.
 *
 * <p>The components are the fields of SS_REPLY_CHECK in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record DriveCheck(long problem, long problemLevel, long problemOid, long problemLpn,
                         long mounted, long objects, long treeObjects, long maxDepth,
                         long extents, long nodePages, long dataPages, long leakedPages) {
    /** The problem codes of PROTOCOL.md section 5 (ss_wire_check), by code. */
    private static final String[] PROBLEMS = {
        "consistent",
        "extent-tree node outside the data region",
        "extent-tree node unreadable (its flash page fails its CRC) or never written",
        "extent-tree node with a bad magic number",
        "extent-tree node checksum mismatch",
        "extent-tree node owned by another object",
        "extent-tree node at the wrong level",
        "extent-tree node with a bad entry count",
        "extent of zero pages",
        "extent-tree parent's page count disagrees with its child",
        "extent tree deeper than allowed",
        "extents do not cover the object's size",
        "extent outside the data region",
        "page claimed by two extents",
        "live page that the allocator holds free",
        "object record contradicts itself",
        "namespace broken (parent, duplicate name or cycle)",
        "store metadata (superblock, object table, journal) inconsistent",
        "no intact superblock (neither copy reads and checks out)",
        "object-table page unreadable (its flash page fails its CRC)",
        "journal page unreadable (its flash page fails its CRC)",
        "data page unreadable (its flash page fails its CRC)",
        "the merge cache's NVRAM fails its check (its header, or a held sector's CRC-32C)",
    };

    /** The merge cache's NVRAM (not the store's): problemLevel is its sector slot. */
    static final long NVRAM = 22;

    private static final long NO_LPN = 0xFFFFFFFFL;

    public boolean consistent() {
        return problem == 0;
    }

    /** True when the store is mounted (false: the drive came up without it). */
    public boolean storeMounted() {
        return mounted != 0;
    }

    public String problemName() {
        return problem < PROBLEMS.length ? PROBLEMS[(int) problem] : "unknown problem " + problem;
    }

    /** One line: the verdict and, for a problem, where it is. */
    public String verdict() {
        if (consistent()) {
            return String.format(Locale.ROOT,
                    "consistent: %d objects (%d with extent trees, depth up to %d), %d extents,"
                            + " %d tree-node pages, %d data pages (each read against its CRC),"
                            + " %d leaked pages",
                    objects, treeObjects, maxDepth, extents, nodePages, dataPages, leakedPages);
        }
        StringBuilder sb = new StringBuilder("INCONSISTENT: ").append(problemName());
        if (problemOid != 0) {
            sb.append(String.format(Locale.ROOT, ", object %#x", problemOid));
        }
        if (problemLpn != NO_LPN) {
            sb.append(String.format(Locale.ROOT, ", logical page %d", problemLpn));
        }
        if (problem >= 1 && problem <= 10) {
            sb.append(", tree level ").append(problemLevel);
        }
        if (problem == NVRAM && problemLevel != NO_LPN) {
            sb.append(", NVRAM sector ").append(problemLevel);
        }
        if (!storeMounted()) {
            sb.append("; the drive came up without its object store (found by its mount"
                    + " check): object commands fail with STORE_DAMAGED");
        }
        return sb.toString();
    }
}
