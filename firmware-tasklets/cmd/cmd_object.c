/*
 * Vendor object commands: SEND (8Ah) takes a request packet, checks every field,
 * executes it and keeps the reply under its tag; RECV (8Bh) hands that reply over and
 * frees its slot. A SEND that is refused stores nothing and executes nothing.
 */
#include "cmd_internal.h"

#define HDR_OFF(f) (offsetof(struct ss_pkt_hdr, f))
#define REP_OFF(f) (offsetof(struct ss_reply_hdr, f))

/* What a drive without its object store still answers (FW_DAMAGED). */
static bool works_without_store(uint16_t opcode)
{
	return opcode == SS_OP_OPEN_SESSION || opcode == SS_OP_CLOSE_SESSION ||
	       opcode == SS_OP_DRIVE_INFO || opcode == SS_OP_COUNTERS || opcode == SS_OP_CHECK;
}

static uint32_t transfer_sectors(const struct ss_ata_taskfile *tf)
{
	return tf->count ? tf->count : 65536u;
}

static uint32_t decode(const struct ss_ata_taskfile *tf, const uint8_t *data, uint32_t len,
		       struct fw_req *rq)
{
	uint32_t sectors = transfer_sectors(tf);
	uint8_t hdr[SS_PKT_HDR_SIZE];
	uint32_t crc;

	if (!data || len < SS_SECTOR || len % SS_SECTOR || len / SS_SECTOR != sectors ||
	    len > SS_ALIGN_UP(SS_PKT_MAX_BYTES, SS_SECTOR)) {
		return SS_R_BAD_LENGTH;
	}
	if (ss_get_le32(data + HDR_OFF(magic)) != SS_PKT_MAGIC) {
		return SS_R_BAD_MAGIC;
	}
	if (ss_get_le16(data + HDR_OFF(version)) != SS_PROTO_VERSION) {
		return SS_R_BAD_VERSION;
	}
	rq->payload_len = ss_get_le32(data + HDR_OFF(payload_len));
	if (rq->payload_len > SS_PKT_MAX_PAYLOAD || rq->payload_len > len - SS_PKT_HDR_SIZE ||
	    SS_DIV_ROUND_UP(SS_PKT_HDR_SIZE + rq->payload_len, SS_SECTOR) != sectors) {
		return SS_R_BAD_LENGTH;
	}
	ss_memcpy(hdr, data, SS_PKT_HDR_SIZE);
	ss_put_le32(hdr + HDR_OFF(crc32c), 0);
	crc = ss_crc32c(0, hdr, SS_PKT_HDR_SIZE);
	crc = ss_crc32c(crc, data + SS_PKT_HDR_SIZE, rq->payload_len);
	if (crc != ss_get_le32(data + HDR_OFF(crc32c))) {
		return SS_R_BAD_CRC;
	}
	rq->tag = ss_get_le32(data + HDR_OFF(tag));
	if ((tf->lba >> 32) != 0 || rq->tag != (uint32_t)tf->lba) {
		return SS_R_TAG_MISMATCH;
	}
	rq->opcode = ss_get_le16(data + HDR_OFF(opcode));
	rq->flags = ss_get_le32(data + HDR_OFF(flags));
	rq->oid = ss_get_le64(data + HDR_OFF(oid));
	rq->offset = ss_get_le64(data + HDR_OFF(offset));
	rq->length = ss_get_le64(data + HDR_OFF(length));
	rq->now_ns = ss_get_le64(data + HDR_OFF(host_time_ns));
	rq->reply_max = ss_get_le32(data + HDR_OFF(reply_max));
	rq->payload = data + SS_PKT_HDR_SIZE;
	if (ss_get_le32(data + HDR_OFF(reserved)) != 0) {
		return SS_R_BAD_FIELD;
	}
	return SS_R_OK;
}

void fw_obj_send(struct ss_fw *fw, const struct ss_ata_taskfile *tf, const uint8_t *data,
		 uint32_t len, struct ss_ata_result *res)
{
	const struct fw_op *op;
	struct fw_req rq;
	struct fw_rep rep;
	struct fw_reply *slot;
	uint32_t reason, cap = 0;
	uint16_t sid;

	ss_memset(&rq, 0, sizeof(rq));
	reason = decode(tf, data, len, &rq);
	if (reason) {
		goto reject;
	}
	op = fw_op_find(rq.opcode);
	if (!op || fw_op_withheld(fw, rq.opcode)) {
		reason = SS_R_BAD_OPCODE;
		goto reject;
	}
	if (rq.flags & ~op->allowed_flags) {
		reason = SS_R_BAD_FIELD;
		goto reject;
	}
	sid = (uint16_t)(rq.tag >> 16);
	if (!(op->sessionless && sid == 0) && !fw_session_of(fw, rq.tag)) {
		reason = SS_R_BAD_SESSION;
		goto reject;
	}
	if (fw_reply_find(fw, rq.tag)) {
		reason = SS_R_TAG_IN_USE;
		goto reject;
	}
	reason = op->check(&rq, &cap);
	if (reason) {
		goto reject;
	}
	if (fw_reply_reserve(fw, rq.tag, rq.opcode, cap, &slot)) {
		reason = SS_R_BUSY;
		goto reject;
	}

	ss_memset(&rep, 0, sizeof(rep));
	rep.payload = fw_reply_payload(fw, slot);
	rep.cap = cap;
	rep.slot = slot;
	/* one command, one request to the buffer (HBM counts block popularity per request) */
	ss_buf_begin(fw->buf);
#ifndef SS_FW_WITHOUT_CHUNKS
	if (!(op->interfaces & (1u << fw->interface))) {
		fw_rep_error(&rep, -SS_EOPNOTSUPP, SS_R_WRONG_INTERFACE);
		rep.value[0] = fw->interface;
	} else
#endif
	if (fw->state == FW_DAMAGED && !works_without_store(rq.opcode)) {
		fw_rep_error(&rep, -SS_EIO, SS_R_STORE_DAMAGED);
	} else {
		op->exec(fw, &rq, &rep);
	}
	ss_buf_end(fw->buf);
	if (rep.payload_len > cap) {
		rep.payload_len = cap;
	}
	slot->status = rep.status;
	slot->reason = rep.reason;
	slot->value[0] = rep.value[0];
	slot->value[1] = rep.value[1];
	slot->value[2] = rep.value[2];
	slot->payload_len = rep.payload_len;
	slot->cap = rep.payload_len;   /* give the unused reservation back */
	fw_ok(res);
	res->count = (uint16_t)SS_DIV_ROUND_UP(SS_PKT_HDR_SIZE + rep.payload_len, SS_SECTOR);
	return;

reject:
	fw_abort(res, reason);
}

void fw_obj_recv(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data,
		 uint32_t len, struct ss_ata_result *res)
{
	uint32_t sectors = transfer_sectors(tf);
	struct fw_reply *r;
	uint32_t need, crc;

	if (!data || len < SS_SECTOR || len % SS_SECTOR || len / SS_SECTOR != sectors) {
		fw_abort(res, SS_R_BAD_LENGTH);
		return;
	}
	if ((tf->lba >> 32) != 0) {
		fw_abort(res, SS_R_TAG_MISMATCH);
		return;
	}
	r = fw_reply_find(fw, (uint32_t)tf->lba);
	if (!r) {
		fw_abort(res, SS_R_NO_REPLY);
		return;
	}
	need = SS_PKT_HDR_SIZE + r->payload_len;
	if (need > len) {
		fw_abort(res, SS_R_REPLY_TOO_BIG);
		res->count = (uint16_t)SS_DIV_ROUND_UP(need, SS_SECTOR);
		return;
	}
	ss_memset(data, 0, SS_PKT_HDR_SIZE);
	ss_put_le32(data + REP_OFF(magic), SS_REPLY_MAGIC);
	ss_put_le16(data + REP_OFF(version), SS_PROTO_VERSION);
	ss_put_le16(data + REP_OFF(opcode), r->opcode);
	ss_put_le32(data + REP_OFF(tag), r->tag);
	ss_put_le32(data + REP_OFF(status), (uint32_t)r->status);
	ss_put_le32(data + REP_OFF(reason), r->reason);
	ss_put_le32(data + REP_OFF(payload_len), r->payload_len);
	ss_put_le64(data + REP_OFF(value0), r->value[0]);
	ss_put_le64(data + REP_OFF(value1), r->value[1]);
	ss_put_le64(data + REP_OFF(value2), r->value[2]);
	ss_memcpy(data + SS_PKT_HDR_SIZE, fw_reply_payload(fw, r), r->payload_len);
	ss_memset(data + need, 0, len - need);
	crc = ss_crc32c(0, data, need);
	ss_put_le32(data + REP_OFF(crc32c), crc);
	fw_reply_release(fw, r);
	fw_ok(res);
	res->count = (uint16_t)SS_DIV_ROUND_UP(need, SS_SECTOR);
}
