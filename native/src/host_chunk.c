/*
 * Open-channel and zoned drives (PROTOCOL.md 4.8): geometry, chunk and zone reports,
 * vector reads, writes and resets by physical address, zone state changes and appends.
 */
#include <errno.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

#define PPA_BYTES ((uint32_t)sizeof(struct ss_wire_ppa))
#define CHUNK_BYTES ((uint32_t)sizeof(struct ss_wire_chunk))

int ss_dev_geometry(struct ss_dev *d, struct ss_dev_geometry *out)
{
	struct ss_pkt_req req = { .opcode = SS_OP_GEOMETRY,
				  .reply_max = sizeof(struct ss_wire_geometry) };
	struct ss_pkt_reply rep;
	const uint8_t *p;
	int rc;

	ss_err_clear();
	if (!out)
		return ss_err(-EINVAL, 0, "geometry: NULL output");
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
	if (rc)
		return rc;
	if (rep.payload_len < sizeof(struct ss_wire_geometry))
		return ss_err(-EPROTO, 0, "GEOMETRY reply of %u bytes is short", rep.payload_len);
	p = rep.payload;
	SS_REPLY_GEOMETRY(SS_DECODE, ss_wire_geometry)
	return 0;
}

/* One chunk of a report (SS_DECODE writes through `out`). */
static void decode_chunk(const uint8_t *p, struct ss_dev_chunk *out)
{
	SS_REPLY_CHUNK(SS_DECODE, ss_wire_chunk)
}

static int report(struct ss_dev *d, uint16_t opcode, uint64_t first, struct ss_dev_chunk *out,
		  uint32_t max)
{
	struct ss_pkt_req req = { .opcode = opcode, .offset = first, .length = max };
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (max == 0)
		return 0;
	if (!out)
		return ss_err(-EINVAL, 0, "%s: NULL output", ss_opcode_name(opcode));
	if (max > SS_PKT_MAX_PAYLOAD / CHUNK_BYTES)
		max = SS_PKT_MAX_PAYLOAD / CHUNK_BYTES;
	req.length = max;
	req.reply_max = max * CHUNK_BYTES;
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
	/* past the last chunk: none to give */
	if (rc == -ERANGE && ss_dev_last_reason() == SS_R_LBA_RANGE) {
		ss_err_clear();
		return 0;
	}
	if (rc)
		return rc;
	if (rep.value0 > max || rep.payload_len != rep.value0 * CHUNK_BYTES)
		return ss_err(-EPROTO, 0, "%s reply of %u bytes for %llu chunks",
			      ss_opcode_name(opcode), rep.payload_len,
			      (unsigned long long)rep.value0);
	for (uint64_t i = 0; i < rep.value0; i++)
		decode_chunk(rep.payload + i * CHUNK_BYTES, &out[i]);
	return (int)rep.value0;
}

int ss_dev_chunk_report(struct ss_dev *d, uint64_t first, struct ss_dev_chunk *out, uint32_t max)
{
	return report(d, SS_OP_CHUNK_REPORT, first, out, max);
}

int ss_dev_zone_report(struct ss_dev *d, uint64_t first, struct ss_dev_chunk *out, uint32_t max)
{
	return report(d, SS_OP_ZONE_REPORT, first, out, max);
}

/* The vector's addresses in wire order, into buf (n <= SS_VECTOR_MAX). */
static int put_ppas(const struct ss_dev_ppa *ppa, uint32_t n, uint8_t *buf, const char *what)
{
	if (n == 0 || n > SS_VECTOR_MAX)
		return ss_err(-EINVAL, 0, "%s: %u addresses (1 to %u at once)", what, n,
			      SS_VECTOR_MAX);
	if (!ppa)
		return ss_err(-EINVAL, 0, "%s: NULL addresses", what);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *p = buf + i * PPA_BYTES;

		ss_put_le32(p + offsetof(struct ss_wire_ppa, group), ppa[i].group);
		ss_put_le32(p + offsetof(struct ss_wire_ppa, pu), ppa[i].pu);
		ss_put_le32(p + offsetof(struct ss_wire_ppa, chunk), ppa[i].chunk);
		ss_put_le32(p + offsetof(struct ss_wire_ppa, sector), ppa[i].sector);
	}
	return 0;
}

int ss_dev_vector_write_meta(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			     const void *data, const void *meta)
{
	uint8_t addr[SS_VECTOR_MAX * sizeof(struct ss_wire_ppa)];
	struct ss_pkt_req req = { .opcode = SS_OP_VECTOR_WRITE, .length = n,
				  .flags = meta ? SS_VECTOR_META : 0 };
	struct ss_pkt_reply rep;
	struct ss_pkt_seg segs[3];
	int rc;

	ss_err_clear();
	rc = put_ppas(ppa, n, addr, "vector write");
	if (rc)
		return rc;
	if (!data)
		return ss_err(-EINVAL, 0, "vector write: NULL data");
	segs[0] = (struct ss_pkt_seg){ addr, (size_t)n * PPA_BYTES };
	segs[1] = (struct ss_pkt_seg){ data, (size_t)n * SS_SECTOR };
	segs[2] = (struct ss_pkt_seg){ meta, (size_t)n * SS_SECTOR_META };
	return ss_obj_exec(d, &req, segs, meta ? 3 : 2, &rep, NULL);
}

int ss_dev_vector_write(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			const void *data)
{
	return ss_dev_vector_write_meta(d, ppa, n, data, NULL);
}

int ss_vector_read_req(const struct ss_dev_ppa *ppa, uint32_t n, int meta, uint8_t *addr,
		       struct ss_pkt_req *req, const char *what)
{
	uint32_t per = SS_SECTOR + (meta ? SS_SECTOR_META : 0);
	int rc = put_ppas(ppa, n, addr, what);

	if (rc)
		return rc;
	*req = (struct ss_pkt_req){ .opcode = SS_OP_VECTOR_READ, .length = n,
				    .flags = meta ? SS_VECTOR_META : 0, .reply_max = n * per };
	return 0;
}

int ss_vector_read_unpack(const struct ss_pkt_reply *rep, uint32_t n, void *out, void *meta)
{
	uint32_t per = SS_SECTOR + (meta ? SS_SECTOR_META : 0);

	if (rep->payload_len != n * per)
		return ss_err(-EPROTO, 0, "VECTOR_READ reply of %u bytes for %u sectors",
			      rep->payload_len, n);
	memcpy(out, rep->payload, (size_t)n * SS_SECTOR);
	if (meta)
		memcpy(meta, rep->payload + (size_t)n * SS_SECTOR, (size_t)n * SS_SECTOR_META);
	return 0;
}

int ss_dev_vector_read_meta(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n,
			    void *out, void *meta)
{
	uint8_t addr[SS_VECTOR_MAX * sizeof(struct ss_wire_ppa)];
	struct ss_pkt_req req;
	struct ss_pkt_reply rep;
	struct ss_pkt_seg seg;
	int rc;

	ss_err_clear();
	rc = ss_vector_read_req(ppa, n, meta != NULL, addr, &req, "vector read");
	if (rc)
		return rc;
	if (!out)
		return ss_err(-EINVAL, 0, "vector read: NULL output");
	seg = (struct ss_pkt_seg){ addr, (size_t)n * PPA_BYTES };
	rc = ss_obj_exec(d, &req, &seg, 1, &rep, NULL);
	return rc ? rc : ss_vector_read_unpack(&rep, n, out, meta);
}

int ss_dev_vector_read(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n, void *out)
{
	return ss_dev_vector_read_meta(d, ppa, n, out, NULL);
}

int ss_dev_chunk_reset(struct ss_dev *d, const struct ss_dev_ppa *ppa, uint32_t n)
{
	uint8_t addr[SS_VECTOR_MAX * sizeof(struct ss_wire_ppa)];
	struct ss_pkt_req req = { .opcode = SS_OP_CHUNK_RESET, .length = n };
	struct ss_pkt_reply rep;
	struct ss_pkt_seg seg;
	int rc;

	ss_err_clear();
	rc = put_ppas(ppa, n, addr, "chunk reset");
	if (rc)
		return rc;
	seg = (struct ss_pkt_seg){ addr, (size_t)n * PPA_BYTES };
	return ss_obj_exec(d, &req, &seg, 1, &rep, NULL);
}

int ss_dev_zone_mgmt(struct ss_dev *d, enum ss_dev_zone_action action, uint64_t slba)
{
	static const uint16_t ops[] = {
		[SS_DEV_ZONE_OPEN] = SS_OP_ZONE_OPEN, [SS_DEV_ZONE_CLOSE] = SS_OP_ZONE_CLOSE,
		[SS_DEV_ZONE_FINISH] = SS_OP_ZONE_FINISH, [SS_DEV_ZONE_RESET] = SS_OP_ZONE_RESET,
	};
	struct ss_pkt_req req = { .offset = slba };
	struct ss_pkt_reply rep;

	ss_err_clear();
	if ((unsigned)action >= sizeof(ops) / sizeof(ops[0]))
		return ss_err(-EINVAL, 0, "zone action %d: not open, close, finish or reset",
			      (int)action);
	req.opcode = ops[action];
	return ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
}

int ss_dev_zone_append(struct ss_dev *d, uint64_t slba, const void *data, size_t len,
		       uint64_t *lba)
{
	struct ss_pkt_req req = { .opcode = SS_OP_ZONE_APPEND, .offset = slba };
	struct ss_pkt_reply rep;
	struct ss_pkt_seg seg = { data, len };
	int rc;

	ss_err_clear();
	if (!data || len == 0 || len % SS_SECTOR || len > SS_PKT_MAX_PAYLOAD)
		return ss_err(-EINVAL, 0, "zone append: %zu bytes (whole sectors, at most %u)",
			      len, SS_PKT_MAX_PAYLOAD);
	rc = ss_obj_exec(d, &req, &seg, 1, &rep, NULL);
	if (rc == 0 && lba)
		*lba = rep.value0;
	return rc;
}
