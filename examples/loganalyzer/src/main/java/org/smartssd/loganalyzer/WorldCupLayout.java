package org.smartssd.loganalyzer;

import java.util.List;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * How the drive sees a WorldCup98 entry: a FIXED layout of {@code entrySize} bytes whose
 * fields are the record's, big-endian at their offsets; padding after byte 20 is not a field.
 * The status and server bytes are split into their bit fields.
 */
public final class WorldCupLayout {
    public static final int TIMESTAMP = 0;
    public static final int CLIENT = 1;
    public static final int OBJECT = 2;
    public static final int SIZE = 3;
    public static final int METHOD = 4;
    /** The HTTP version: status >> 6, 2 bits. */
    public static final int HTTP_VERSION = 5;
    /** The status code index: status & 0x3f, 6 bits. */
    public static final int STATUS = 6;
    public static final int TYPE = 7;
    /** The region: server >> 5, 3 bits. */
    public static final int REGION = 8;

    private WorldCupLayout() {
    }

    /** The layout of entries of {@code entrySize} bytes (20 for the unpadded trace). */
    public static RecordLayout of(int entrySize) {
        TraceReader.checkEntrySize(entrySize);
        return RecordLayout.fixed(entrySize, List.of(
                Field.of(WorldCupRecord.OFF_TIMESTAMP, FieldType.U32),
                Field.of(WorldCupRecord.OFF_CLIENT, FieldType.U32),
                Field.of(WorldCupRecord.OFF_OBJECT, FieldType.U32),
                Field.of(WorldCupRecord.OFF_SIZE, FieldType.U32),
                Field.of(WorldCupRecord.OFF_METHOD, FieldType.U8),
                new Field(WorldCupRecord.OFF_STATUS, FieldType.U8, 0, 6, 2),
                new Field(WorldCupRecord.OFF_STATUS, FieldType.U8, 0, 0, 6),
                Field.of(WorldCupRecord.OFF_TYPE, FieldType.U8),
                new Field(WorldCupRecord.OFF_SERVER, FieldType.U8, 0, 5, 3)));
    }
}
