package org.smartssd.device;

import java.util.List;

/** SMART health summary and attributes, parsed by libatasmart. */
public record SmartHealth(Overall overall, boolean statusGood, long powerOnMs, long badSectors,
                          List<SmartAttribute> attributes) {
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

    /** The attribute with this name (libatasmart's naming), or null. */
    public SmartAttribute attribute(String name) {
        for (SmartAttribute a : attributes) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }
}
