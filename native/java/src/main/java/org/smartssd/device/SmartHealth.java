package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** SMART health summary and attributes, parsed by libatasmart, named by the drive. */
public record SmartHealth(Overall overall, boolean statusGood, long powerOnMs, long badSectors,
                          long nattrs, List<SmartAttribute> attributes) {
    // The summary as the JNI library packs it (SS_DEV_SMART in smartssd.h)
    static final int OVERALL = 0;
    static final int STATUS_GOOD = 4;
    static final int POWER_ON_MS = 8;
    static final int BAD_SECTORS = 16;
    static final int NATTRS = 24;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("overall", OVERALL),
            WireField.u32("status_good", STATUS_GOOD),
            WireField.u64("power_on_ms", POWER_ON_MS),
            WireField.u64("bad_sectors", BAD_SECTORS),
            WireField.u32("nattrs", NATTRS));

    /** Where the JNI library puts the first attribute. */
    static final int ATTRS = 64;

    /** Decodes the summary at b's start and the first {@code n} attributes after it. */
    static SmartHealth decode(ByteBuffer b, int n) {
        ByteBuffer le = WireField.littleEndian(b);
        List<SmartAttribute> attrs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            attrs.add(SmartAttribute.decode(b, ATTRS + i * SmartAttribute.SIZE));
        }
        return new SmartHealth(Overall.of(le.getInt(OVERALL)), le.getInt(STATUS_GOOD) != 0,
                le.getLong(POWER_ON_MS), le.getLong(BAD_SECTORS), WireField.u32(le, NATTRS),
                attrs);
    }

    /** libatasmart's SkSmartOverall. */
    public enum Overall {
        GOOD, BAD_ATTRIBUTE_IN_THE_PAST, BAD_SECTOR, BAD_ATTRIBUTE_NOW, BAD_SECTOR_MANY,
        BAD_STATUS;

        static Overall of(int code) {
            Overall[] all = values();
            if (code < 0 || code >= all.length) {
                throw new IllegalArgumentException("unknown SMART overall code " + code);
            }
            return all[code];
        }
    }

    public SmartHealth {
        attributes = List.copyOf(attributes);
    }

    /** The attribute with this name (the drive's naming, SS_PROTO_SMART_ATTRS), or null. */
    public SmartAttribute attribute(String name) {
        for (SmartAttribute a : attributes) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }
}
