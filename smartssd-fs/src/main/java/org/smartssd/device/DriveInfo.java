package org.smartssd.device;

/** What the drive says about itself (IDENTIFY plus the object protocol's drive info). */
public record DriveInfo(String transport, int protoVersion, int pageSize, int channels, int ways,
                        int queueDepth, int ispBatchPages, long capacityBytes, String model,
                        String serial, String firmwareRev) {
}
