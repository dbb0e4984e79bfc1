/* Object commands (ss_proto.h packets in SEND/RECV pairs) through ss_emu_submit, for the
 * drive tests that need more than raw ATA: files, output objects, tasklets. */
#ifndef EMU_PKT_H
#define EMU_PKT_H

#include <stdint.h>
#include <string.h>

#include "emu_test.h"
#include "ss_emu.h"
#include "ss_proto.h"
#include "ss_rt.h"

#define EMU_PKT_BUF ((1u << 20) + 4096u)
#define EMU_PKT_REPLY 4096u   /* every reply these tests ask for fits */

struct emu_pkt {
	uint16_t opcode;
	uint32_t flags;
	uint64_t oid, offset, length;
	const void *payload;
	uint32_t payload_len;
};

struct emu_reply {
	int32_t status;
	uint32_t reason;
	uint32_t payload_len;
	uint64_t v[3];
	uint8_t payload[EMU_PKT_REPLY - 64];
};

static uint16_t emu_pkt_session;
static uint16_t emu_pkt_seq;

/* An ATA PASS-THROUGH(16) CDB of a 48-bit DMA command: count sectors at lba. */
static inline void emu_pkt_cdb(uint8_t cdb[16], uint8_t command, uint64_t lba,
			       uint16_t count, int in)
{
	memset(cdb, 0, 16);
	cdb[0] = 0x85;
	cdb[1] = (6 << 1) | 1;
	cdb[2] = (in ? 0x08 : 0) | 0x04 | 0x02;
	cdb[5] = (uint8_t)(count >> 8);
	cdb[6] = (uint8_t)count;
	cdb[7] = (uint8_t)(lba >> 24);
	cdb[8] = (uint8_t)lba;
	cdb[9] = (uint8_t)(lba >> 32);
	cdb[10] = (uint8_t)(lba >> 8);
	cdb[11] = (uint8_t)(lba >> 40);
	cdb[12] = (uint8_t)(lba >> 16);
	cdb[13] = 0x40;
	cdb[14] = command;
}

/** SEND the request, RECV its reply. \return the reply's status, or -1000 when a
 *  transfer itself failed; r->reason is then the reason a refused SEND carried in its
 *  sense (the ATA status return's LBA[15:0], PROTOCOL.md), or 0. */
static inline int32_t emu_pkt_call(struct ss_emu_drive *d, const struct emu_pkt *p,
				   struct emu_reply *r)
{
	static uint8_t buf[EMU_PKT_BUF];
	uint8_t cdb[16], sense[32] = { 0 }, st = 0;
	uint32_t tag = (uint32_t)emu_pkt_session << 16 | emu_pkt_seq++;
	uint32_t bytes = (uint32_t)SS_ALIGN_UP(64u + p->payload_len, 512u);

	memset(buf, 0, bytes);
	ss_put_le32(buf + 0, SS_PKT_MAGIC);
	ss_put_le16(buf + 4, SS_PROTO_VERSION);
	ss_put_le16(buf + 6, p->opcode);
	ss_put_le32(buf + 8, tag);
	ss_put_le32(buf + 12, p->flags);
	ss_put_le64(buf + 16, p->oid);
	ss_put_le64(buf + 24, p->offset);
	ss_put_le64(buf + 32, p->length);
	ss_put_le64(buf + 40, 1000);                 /* host time */
	ss_put_le32(buf + 48, p->payload_len);
	ss_put_le32(buf + 52, EMU_PKT_REPLY - 64);   /* reply_max */
	if (p->payload_len > 0) {
		memcpy(buf + 64, p->payload, p->payload_len);
	}
	ss_put_le32(buf + 60, ss_crc32c(ss_crc32c(0, buf, 64), buf + 64, p->payload_len));
	emu_pkt_cdb(cdb, SS_ATA_OBJ_SEND, tag, (uint16_t)(bytes / 512), 0);
	r->reason = 0;
	if (ss_emu_submit(d, cdb, buf, bytes, SS_EMU_DIR_TO_DRIVE, sense, sizeof(sense), &st) != 0 ||
	    st != SS_EMU_SCSI_GOOD) {
		if (st == SS_EMU_SCSI_CHECK_CONDITION && sense[8] == 0x09 && (sense[21] & 0x01)) {
			r->reason = (uint32_t)sense[15] | (uint32_t)sense[17] << 8;
		}
		return -1000;
	}
	emu_pkt_cdb(cdb, SS_ATA_OBJ_RECV, tag, EMU_PKT_REPLY / 512, 1);
	if (ss_emu_submit(d, cdb, buf, EMU_PKT_REPLY, SS_EMU_DIR_FROM_DRIVE, sense, sizeof(sense),
			  &st) != 0 || st != SS_EMU_SCSI_GOOD) {
		return -1000;
	}
	r->status = (int32_t)ss_get_le32(buf + 12);
	r->reason = ss_get_le32(buf + 16);
	r->payload_len = SS_MIN(ss_get_le32(buf + 20), EMU_PKT_REPLY - 64);
	r->v[0] = ss_get_le64(buf + 24);
	r->v[1] = ss_get_le64(buf + 32);
	r->v[2] = ss_get_le64(buf + 40);
	memcpy(r->payload, buf + 64, r->payload_len);
	return r->status;
}

static inline void emu_pkt_open_session(struct ss_emu_drive *d)
{
	struct emu_pkt p = { .opcode = SS_OP_OPEN_SESSION };
	struct emu_reply r;

	emu_pkt_session = 0;
	emu_pkt_seq = 1;
	CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
	emu_pkt_session = (uint16_t)r.v[0];
	CHECK(emu_pkt_session != 0);
}

/** Create a file (type 1) or an output object (type 3) at path. \return its oid. */
static inline uint64_t emu_pkt_create(struct ss_emu_drive *d, const char *path, int output)
{
	struct emu_pkt p = { .opcode = output ? SS_OP_CREATE_OBJECT : SS_OP_CREATE,
			     .offset = output ? 0 : 1, .flags = output ? SS_CREATE_OBJ_OUTPUT : 0,
			     .payload = path, .payload_len = (uint32_t)strlen(path) };
	struct emu_reply r;

	CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
	return r.v[0];
}

/** Write len bytes at off in pieces of at most 1 MiB. */
static inline void emu_pkt_write(struct ss_emu_drive *d, uint64_t oid, uint64_t off,
				 const uint8_t *data, uint64_t len)
{
	struct emu_reply r;

	for (uint64_t done = 0; done < len;) {
		uint32_t n = (uint32_t)SS_MIN(len - done, 1u << 20);
		struct emu_pkt p = { .opcode = SS_OP_WRITE, .oid = oid, .offset = off + done,
				     .payload = data + done, .payload_len = n };

		CHECK_EQ(emu_pkt_call(d, &p, &r), 0);
		done += n;
	}
}

#endif
