package org.smartssd.device;

/** A sector of a chunk of parallel unit {@code pu} of group {@code group} (struct ss_wire_ppa). */
public record PhysicalAddress(int group, int pu, int chunk, int sector) {
}
