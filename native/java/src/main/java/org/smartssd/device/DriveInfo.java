package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/** What the drive says about itself (IDENTIFY plus the object protocol's drive info). */
public record DriveInfo(String transport, int protoVersion, int pageSize, int channels, int ways,
                        int queueDepth, int ispBatchPages, long capacityBytes, String model,
                        String serial, String firmwareRev) {
    // DRIVE_INFO's reply, struct ss_drive_info (SS_REPLY_DRIVE_INFO in ss_proto_replies.h)
    static final int PROTO_VERSION = 0;
    static final int PAGE_SIZE = 4;
    static final int CHANNELS = 8;
    static final int WAYS = 12;
    static final int QUEUE_DEPTH = 16;
    static final int ISP_BATCH_PAGES = 20;
    static final int CAPACITY_BYTES = 24;
    static final int MODEL = 32;
    static final int MODEL_BYTES = 40;
    static final int SERIAL = 72;
    static final int SERIAL_BYTES = 20;
    static final int FIRMWARE_REV = 92;
    static final int FIRMWARE_REV_BYTES = 8;
    static final int RESERVED = 100;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("proto_version", PROTO_VERSION),
            WireField.u32("page_size", PAGE_SIZE),
            WireField.u32("channels", CHANNELS),
            WireField.u32("ways", WAYS),
            WireField.u32("queue_depth", QUEUE_DEPTH),
            WireField.u32("isp_batch_pages", ISP_BATCH_PAGES),
            WireField.u64("capacity_bytes", CAPACITY_BYTES),
            WireField.str("model", MODEL, MODEL_BYTES),
            WireField.str("serial", SERIAL, SERIAL_BYTES),
            WireField.str("firmware_rev", FIRMWARE_REV, FIRMWARE_REV_BYTES),
            WireField.rsv32("reserved", RESERVED));

    /** Decodes the reply's wire bytes at b's start; {@code transport} is the host's. */
    static DriveInfo decode(String transport, ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new DriveInfo(transport, le.getInt(PROTO_VERSION), le.getInt(PAGE_SIZE),
                le.getInt(CHANNELS), le.getInt(WAYS), le.getInt(QUEUE_DEPTH),
                le.getInt(ISP_BATCH_PAGES), le.getLong(CAPACITY_BYTES),
                WireField.str(le, MODEL, MODEL_BYTES), WireField.str(le, SERIAL, SERIAL_BYTES),
                WireField.str(le, FIRMWARE_REV, FIRMWARE_REV_BYTES));
    }
}
