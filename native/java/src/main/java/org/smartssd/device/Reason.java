package org.smartssd.device;

/**
 * The drive's reason codes ({@code enum ss_reason} in ss_proto.h, native/PROTOCOL.md): with
 * the errno status they say exactly what was wrong. {@link Errors#translate} maps each one to
 * a typed exception.
 */
public enum Reason {
    OK(0, "no error"),
    BAD_MAGIC(1, "the packet does not start with the protocol magic"),
    BAD_VERSION(2, "the drive speaks another protocol version"),
    BAD_CRC(3, "the packet checksum is wrong (corrupted on the link)"),
    BAD_LENGTH(4, "the payload length does not fit the transfer"),
    BAD_OPCODE(5, "the drive does not know this command"),
    BAD_FIELD(6, "a command field is out of range"),
    TAG_MISMATCH(7, "the packet tag differs from the command's"),
    TAG_IN_USE(8, "a reply with this tag is still waiting"),
    NO_REPLY(9, "the drive holds no reply for this tag"),
    REPLY_TOO_BIG(10, "the reply does not fit the receive buffer"),
    BUSY(11, "the drive is busy (reply slots or tasklet instances exhausted)"),
    BAD_PATH(12, "the path is not valid"),
    NO_SUCH_OBJECT(13, "no such file, directory or object"),
    EXISTS(14, "the name already exists"),
    NOT_DIR(15, "a path component is not a directory"),
    IS_DIR(16, "the object is a directory"),
    NOT_EMPTY(17, "the directory is not empty"),
    NAME_TOO_LONG(18, "a name is too long"),
    DRIVE_FULL(19, "the drive is full"),
    TOO_MANY_OBJECTS(20, "the drive's object table is full"),
    BAD_LAYOUT(21, "the record layout is not valid"),
    UNKNOWN_TASKLET(22, "the drive has no tasklet with this id"),
    TASKLET_PARAMS(23, "the tasklet rejected its parameters"),
    TASKLET_BUDGET(24, "the tasklet overran its memory budget"),
    TASKLET_STEPS(25, "the tasklet ran past its step limit"),
    TASKLET_FAILED(26, "the tasklet failed"),
    TASKLET_RUNNING(27, "the tasklet instance is already running"),
    MEDIA_ERROR(28, "the drive could not read or write its flash"),
    LBA_RANGE(29, "the sector range lies outside the drive"),
    LBA_PROTECTED(30, "the sectors hold object-store metadata and cannot be written raw"),
    BAD_SESSION(31, "the drive does not know this host session"),
    RENAME_INTO_SELF(32, "a directory cannot be moved into itself"),
    ROOT(33, "the root directory cannot be removed or renamed"),
    TASKLET_WATCHDOG(34, "the watchdog stopped a tasklet that did not return"),
    NO_SUCH_ATTR(35, "the object has no attribute of that name"),
    STORE_DAMAGED(36, "the drive's object store is damaged: it failed the check its mount"
            + " makes"),
    STALE_BLOCK(37, "a cache block scanned in the drive is not of the file's version"),
    CANCELED(38, "not run: an earlier queued write to the object failed"),
    TOO_MANY_SESSIONS(39, "every session of the drive is held by a client that is still"
            + " connected"),
    INPUT_UNSUPPORTED(40, "the tasklet's input uses a format feature the drive does not decode"),
    INPUT_MALFORMED(41, "the tasklet's input is not well formed"),
    PLAN_MISMATCH(42, "the tasklet's parameters contradict its input"),
    PROGRAM_REFUSED(43, "the drive's verifier refused the eBPF program"),

    WRONG_INTERFACE(50, "the drive's interface (ftl, open-channel or zoned) does not serve the"
            + " command"),
    NOT_WRITE_POINTER(51, "a write not at its chunk's write pointer"),
    WRITE_UNIT(52, "a write not of whole minimum write units"),
    CHUNK_FULL(53, "a write to a full chunk or past its end"),
    CHUNK_OFFLINE(54, "the chunk is offline: it failed its erase"),
    READ_UNWRITTEN(55, "a read at or past its chunk's write pointer"),
    ZONE_STATE(56, "a zone state change the zone's state does not allow");

    private static final Reason[] BY_CODE = new Reason[57];

    static {
        for (Reason r : values()) {
            BY_CODE[r.code] = r;
        }
    }

    private final int code;
    private final String description;

    Reason(int code, String description) {
        this.code = code;
        this.description = description;
    }

    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    /** The reason with this wire code, or null for a code this library does not know. */
    public static Reason of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
