package org.smartssd.device;

/**
 * What the drive says about itself (IDENTIFY plus the object protocol's drive info).
 * {@code transport} is the host's, not on the wire. The components are the fields of
 * SS_REPLY_DRIVE_INFO in {@code protocol/include/ss_proto_replies.h}, in its order
 * ({@link WireDecoder}).
 */
public record DriveInfo(String transport, int protoVersion, int pageSize, int channels, int ways,
                        int queueDepth, int ispBatchPages, long capacityBytes, String model,
                        String serial, String firmwareRev) {
}
