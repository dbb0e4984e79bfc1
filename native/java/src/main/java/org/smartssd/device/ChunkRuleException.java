package org.smartssd.device;

/**
 * An open-channel or zoned drive refused a write, read or zone change that breaks the
 * flash's rules: a write not at the chunk's write pointer, not of whole minimum write
 * units, or to a full chunk; a read at or past the write pointer; a zone change its state
 * does not allow. {@link #reason()} says which. Nothing was written.
 */
public class ChunkRuleException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public ChunkRuleException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
