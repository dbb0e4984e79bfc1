package org.smartssd.device;

/**
 * The fixed replies' decoders, by the number the JNI library's replyLayout0 knows each
 * reply by, built from the loaded library's field lists when the first reply is decoded. A
 * record that disagrees with its C list fails this class's init, naming the reply and the
 * field.
 */
final class Replies {
    private Replies() {
    }

    static final WireDecoder<DriveInfo> DRIVE_INFO =
            WireDecoder.of(0, "SS_REPLY_DRIVE_INFO", DriveInfo.class, "transport");
    static final WireDecoder<FsStat> FSSTAT =
            WireDecoder.of(1, "SS_REPLY_FSSTAT", FsStat.class);
    static final WireDecoder<DriveCounters> COUNTERS =
            WireDecoder.of(2, "SS_REPLY_COUNTERS", DriveCounters.class);
    /** The SMART summary; the attributes are the caller's (from {@link #SMART_ATTR}). */
    static final WireDecoder<SmartHealth> SMART =
            WireDecoder.of(3, "SS_DEV_SMART", SmartHealth.class, "attributes");
    static final WireDecoder<SmartAttribute> SMART_ATTR =
            WireDecoder.of(4, "SS_DEV_SMART_ATTR", SmartAttribute.class);
    static final WireDecoder<ObjectStat> STAT =
            WireDecoder.of(5, "SS_REPLY_STAT", ObjectStat.class);
    static final WireDecoder<TaskletProgress> PROGRESS =
            WireDecoder.of(6, "SS_REPLY_PROGRESS", TaskletProgress.class);
    static final WireDecoder<ModelCounters> MODEL =
            WireDecoder.of(7, "SS_REPLY_MODEL", ModelCounters.class);
    static final WireDecoder<CacheCounters> SSC_INFO =
            WireDecoder.of(8, "SS_REPLY_SSC_INFO", CacheCounters.class);
    static final WireDecoder<DriveCheck> CHECK =
            WireDecoder.of(9, "SS_REPLY_CHECK", DriveCheck.class);
    static final WireDecoder<SharedDriveEnergy.Share> TASK_SHARE =
            WireDecoder.of(10, "SS_REPLY_TASK_SHARE", SharedDriveEnergy.Share.class);
    static final WireDecoder<IspQueue> ISP_QUEUE =
            WireDecoder.of(11, "SS_REPLY_ISP_QUEUE", IspQueue.class);
    static final WireDecoder<ChunkGeometry> GEOMETRY =
            WireDecoder.of(12, "SS_REPLY_GEOMETRY", ChunkGeometry.class);
    static final WireDecoder<ChunkInfo> CHUNK =
            WireDecoder.of(13, "SS_REPLY_CHUNK", ChunkInfo.class);
}
