package org.smartssd.device;

/** Host library and drive disagree about the protocol or a frame was damaged (BAD_MAGIC, BAD_VERSION, BAD_CRC, BAD_LENGTH, BAD_OPCODE, TAG_MISMATCH, NO_REPLY, REPLY_TOO_BIG, EPROTO). */
public class ProtocolMismatchException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public ProtocolMismatchException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
