package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * SMART health summary and attributes, parsed by libatasmart, named by the drive. The
 * components are the fields of SS_DEV_SMART in {@code smartssd/smartssd.h}, in its order
 * ({@link WireDecoder}): {@code nattrs} counts the attributes the drive has, which may be
 * more than {@code attributes} holds (the host's, asked for up to a maximum).
 */
public record SmartHealth(Overall overall, boolean statusGood, long powerOnMs, long badSectors,
                          long nattrs, List<SmartAttribute> attributes) {
    /** Decodes the summary at b's start and the first {@code n} attributes after it. */
    static SmartHealth decode(ByteBuffer b, int n) {
        int first = Replies.SMART.mark("attrs");
        int stride = Replies.SMART_ATTR.size();
        List<SmartAttribute> attrs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            attrs.add(Replies.SMART_ATTR.decode(b, first + i * stride));
        }
        return Replies.SMART.decode(b, attrs);
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
