package org.smartssd.device.tasklet;

/**
 * The key of a group: up to two integer field values as the drive reports them (unsigned
 * fields zero-extended, signed fields sign-extended; 0 for an unused key). Ordered by key1
 * then key2, as signed 64-bit values.
 */
public record GroupKey(long key1, long key2) implements Comparable<GroupKey> {
    public static final GroupKey NONE = new GroupKey(0, 0);

    @Override
    public int compareTo(GroupKey o) {
        int c = Long.compare(key1, o.key1);
        return c != 0 ? c : Long.compare(key2, o.key2);
    }
}
