package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libsmartssd only ever sends well-formed packets and offers no raw sector commands, so the
 * protocol-level and raw-LBA reasons cannot be provoked through the C API. Here damaged packets go straight onto smartssd-devd's socket
 * (its framing: firmware-tasklets/emu/README.md), inside the same ATA PASS-THROUGH(16) CDB
 * libsmartssd would use; the drive answers ERR+ABRT with the reason in LBA[15:0], and
 * {@link Errors#translate} turns that reason into SmartSsdException.
 */
class RawFrameTest {
    private static final int SEND = 0x8A;
    @TempDir
    Path dir;
    Devd devd;
    SocketChannel ch;

    @BeforeEach
    void start() throws Exception {
        Path image = TestDrives.image(dir);
        Path sock = dir.resolve("raw.sock");
        devd = Devd.start(image, sock, Duration.ofSeconds(30));
        ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(sock));
    }

    @AfterEach
    void stop() throws Exception {
        ch.close();
        devd.close();
    }

    /** A 64-byte request packet header, padded to one sector, with a correct CRC-32C. */
    static ByteBuffer packet(int magic, int version, int opcode, int tag, boolean goodCrc) {
        ByteBuffer p = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
        p.putInt(0, magic).putShort(4, (short) version).putShort(6, (short) opcode)
                .putInt(8, tag).putInt(52, 4096); // reply_max
        CRC32C crc = new CRC32C();
        crc.update(p.array(), 0, 64);
        p.putInt(60, goodCrc ? (int) crc.getValue() : (int) crc.getValue() ^ 0x5a5a5a5a);
        return p;
    }

    /** Sends the packet with an OBJ SEND whose LBA is `lba`; returns the reason the drive gave. */
    int send(ByteBuffer packet, int lba) throws IOException {
        Answer a = command(SEND, packet, lba);
        assertThat(a.scsiStatus()).as("CHECK CONDITION").isEqualTo(2);
        return a.reason();
    }

    /** 0 on success (2 on an ATA error), the reason from the sense data (-1 on success)
     *  and the data-in. */
    record Answer(int scsiStatus, int reason, ByteBuffer data) {
    }

    /** An OBJ SEND (packet out) or OBJ RECV (packet == null: one sector in). */
    Answer command(int ata, ByteBuffer packet, int lba) throws IOException {
        boolean in = packet == null;
        byte[] cdb = new byte[16];
        cdb[0] = (byte) 0x85;
        cdb[1] = (byte) ((6 << 1) | 1);   // DMA, 48-bit
        cdb[2] = (byte) (in ? 0x2e : 0x26); // CK_COND, T_DIR, BYTE_BLOCK, T_LENGTH = count
        cdb[6] = 1;                       // one sector
        cdb[8] = (byte) lba;
        cdb[10] = (byte) (lba >> 8);
        cdb[12] = (byte) (lba >> 16);
        cdb[7] = (byte) (lba >>> 24);
        cdb[13] = 0x40;
        cdb[14] = (byte) ata;
        ByteBuffer req = ByteBuffer.allocate(32 + (in ? 0 : 512)).order(ByteOrder.LITTLE_ENDIAN);
        req.putInt(0x51445353).putInt(7).put(cdb).putInt(in ? 2 : 1).putInt(512);
        if (!in) {
            req.put(packet.array());
        }
        req.flip();
        while (req.hasRemaining()) {
            ch.write(req);
        }
        ByteBuffer rep = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        while (rep.hasRemaining()) {
            if (ch.read(rep) < 0) {
                throw new IOException("daemon closed the socket");
            }
        }
        assertThat(rep.getInt(0)).isEqualTo(0x41445353);
        assertThat(rep.getInt(4)).isEqualTo(7);
        int scsi = rep.get(8);
        int senseLen = rep.get(9);
        ByteBuffer data = ByteBuffer.allocate(rep.getInt(44)).order(ByteOrder.LITTLE_ENDIAN);
        while (data.hasRemaining()) {
            ch.read(data);
        }
        if (scsi == 0) {
            return new Answer(0, -1, data.flip());
        }
        byte[] s = new byte[senseLen];
        rep.get(12, s);
        assertThat(s[0] & 0x7f).as("descriptor sense").isEqualTo(0x72);
        for (int off = 8; off + 2 <= 8 + (s[7] & 0xff); off += 2 + (s[off + 1] & 0xff)) {
            if (s[off] == 0x09) { // ATA Status Return
                int error = s[off + 3] & 0xff;
                int status = s[off + 13] & 0xff;
                if ((status & 0x01) == 0) {
                    return new Answer(0, -1, data.flip()); // CK_COND: registers of a success
                }
                assertThat(error & 0x04).as("ABRT").isEqualTo(4);
                return new Answer(scsi, (s[off + 7] & 0xff) | (s[off + 9] & 0xff) << 8, data);
            }
        }
        throw new AssertionError("no ATA Status Return descriptor in the sense data");
    }

    private static void mapsToProtocolMismatch(int reason) {
        IOException e = Errors.translate(-Errno.EPROTO, reason, "raw frame");
        assertThat(e).isInstanceOf(SmartSsdException.class);
        assertThat(((SmartSsdError) e).reason().code()).isEqualTo(reason);
    }

    @Test
    void badMagic() throws Exception {
        int r = send(packet(0x12345678, 1, 0x03, 0x10001, true), 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_MAGIC);
        mapsToProtocolMismatch(r);
    }

    @Test
    void badVersion() throws Exception {
        int r = send(packet(0x31445353, 99, 0x03, 0x10001, true), 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_VERSION);
        mapsToProtocolMismatch(r);
    }

    @Test
    void badCrc() throws Exception {
        int r = send(packet(0x31445353, 1, 0x03, 0x10001, false), 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_CRC);
        mapsToProtocolMismatch(r);
    }

    @Test
    void tagMismatch() throws Exception {
        int r = send(packet(0x31445353, 1, 0x03, 0x10002, true), 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.TAG_MISMATCH);
        mapsToProtocolMismatch(r);
    }

    @Test
    void badOpcode() throws Exception {
        int r = send(packet(0x31445353, 1, 0x7f, 0x10001, true), 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_OPCODE);
        mapsToProtocolMismatch(r);
    }

    @Test
    void badLength() throws Exception {
        ByteBuffer p = packet(0x31445353, 1, 0x03, 0x10001, true);
        p.putInt(48, 100_000); // payload_len far past the one-sector transfer
        CRC32C crc = new CRC32C();
        p.putInt(60, 0);
        crc.update(p.array(), 0, 64);
        p.putInt(60, (int) crc.getValue());
        int r = send(p, 0x10001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_LENGTH);
        mapsToProtocolMismatch(r);
    }

    @Test
    void receiveWithoutReply() throws Exception {
        int r = command(0x8B, null, 0x10009).reason();
        assertThat(Reason.of(r)).isEqualTo(Reason.NO_REPLY);
        mapsToProtocolMismatch(r);
    }

    @Test
    void unknownSession() throws Exception {
        // a well-formed DRIVE_INFO from session 0x7777, which nobody opened
        int r = send(packet(0x31445353, 1, 0x03, 0x77770001, true), 0x77770001);
        assertThat(Reason.of(r)).isEqualTo(Reason.BAD_SESSION);
        IOException e = Errors.translate(-Errno.EPROTO, r, "raw frame");
        assertThat(e).isInstanceOf(TransportClosedException.class)
                .isInstanceOf(TransportClosedException.class);
    }

    /** OPEN_SESSION over the raw socket: SEND, then RECV its reply. Returns the session. */
    private int openSession() throws IOException {
        Answer open = command(SEND, packet(0x31445353, 1, 0x01, 1, true), 1);
        assertThat(open.scsiStatus()).isZero();
        Answer reply = command(0x8B, null, 1);
        assertThat(reply.scsiStatus()).isZero();
        assertThat(reply.data().getInt(0)).isEqualTo(0x52445353); // "SSDR"
        assertThat(reply.data().getInt(12)).as("status").isZero();
        return (int) reply.data().getLong(24);
    }

    @Test
    void replyLargerThanTheReceive() throws Exception {
        // another client (libsmartssd through the same daemon) fills a directory
        try (SmartSsdDevice dev = SmartSsdDevice.open(devd.uri())) {
            for (int i = 0; i < 10; i++) {
                dev.create("/entry-" + i, ObjectType.FILE);
            }
        }
        int tag = openSession() << 16 | 9;
        ByteBuffer p = packet(0x31445353, 1, 0x18, tag, true); // LIST "/"
        p.put(64, (byte) '/').putInt(48, 1).putInt(60, 0);
        CRC32C crc = new CRC32C();
        crc.update(p.array(), 0, 65);
        p.putInt(60, (int) crc.getValue());
        assertThat(command(SEND, p, tag).scsiStatus()).isZero();
        // ten 272-byte entries do not fit the one sector this RECV transfers
        int r = command(0x8B, null, tag).reason();
        assertThat(Reason.of(r)).isEqualTo(Reason.REPLY_TOO_BIG);
        mapsToProtocolMismatch(r);
    }

    @Test
    void tagStillWaitingForItsReceive() throws Exception {
        // SEND twice on one tag of an open session without receiving the first reply
        int tag = openSession() << 16 | 5;
        assertThat(command(SEND, packet(0x31445353, 1, 0x03, tag, true), tag).scsiStatus())
                .isZero();
        int r = send(packet(0x31445353, 1, 0x03, tag, true), tag);
        assertThat(Reason.of(r)).isEqualTo(Reason.TAG_IN_USE);
        IOException e = Errors.translate(-Errno.EBUSY, r, "raw frame");
        assertThat(e).isInstanceOf(SmartSsdException.class);
    }

    @Test
    void rawSectorWrites() throws Exception {
        ByteBuffer sector = ByteBuffer.allocate(512);
        // standard WRITE DMA EXT (35h): far past the end, then into the object store's metadata
        int past = command(0x35, sector, 0x7fffff00).reason();
        assertThat(Reason.of(past)).isEqualTo(Reason.LBA_RANGE);
        int meta = command(0x35, sector, 0).reason();
        assertThat(Reason.of(meta)).isEqualTo(Reason.LBA_PROTECTED);
        for (int r : new int[] {past, meta}) {
            assertThat(Errors.translate(-Errno.EIO, r, "raw write"))
                    .isInstanceOf(SmartSsdException.class);
        }
    }
}
