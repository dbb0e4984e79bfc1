/*
 * Whole-drive commands: identity, space, durability, counters and the emulator's model.
 */
#include <errno.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

/* Copy a blank-padded ATA-style string, trimmed and NUL-terminated. */
static void copy_trimmed(char *dst, const uint8_t *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
	while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
}

/* A request without payload whose reply carries one fixed-size wire structure: *p is set
 * to the reply's payload (in the thread's decode buffer, valid until its next call). */
static int query_fixed(struct ss_dev *d, uint16_t opcode, uint32_t size, const char *what,
		       const uint8_t **p)
{
	struct ss_pkt_req req = { .opcode = opcode, .reply_max = size };
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
	if (rc)
		return rc;
	if (rep.payload_len < size)
		return ss_err(-EPROTO, 0, "%s reply of %u bytes is short", what, rep.payload_len);
	*p = rep.payload;
	return 0;
}

int ss_dev_drive_info(struct ss_dev *d, struct ss_dev_info *info)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_DRIVE_INFO, sizeof(struct ss_drive_info), "DRIVE_INFO", &p);

	if (rc)
		return rc;
	info->proto_version = SS_WIRE32(p, ss_drive_info, proto_version);
	info->page_size = SS_WIRE32(p, ss_drive_info, page_size);
	info->channels = SS_WIRE32(p, ss_drive_info, channels);
	info->ways = SS_WIRE32(p, ss_drive_info, ways);
	info->queue_depth = SS_WIRE32(p, ss_drive_info, queue_depth);
	info->isp_batch_pages = SS_WIRE32(p, ss_drive_info, isp_batch_pages);
	info->capacity_bytes = SS_WIRE64(p, ss_drive_info, capacity_bytes);
	copy_trimmed(info->model, p + offsetof(struct ss_drive_info, model), 40);
	copy_trimmed(info->serial, p + offsetof(struct ss_drive_info, serial), 20);
	copy_trimmed(info->firmware_rev, p + offsetof(struct ss_drive_info, firmware_rev), 8);
	return 0;
}

int ss_dev_fsstat(struct ss_dev *d, struct ss_dev_fsstat *st)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_FSSTAT, sizeof(struct ss_wire_fsstat), "FSSTAT", &p);

	if (rc)
		return rc;
	st->capacity_bytes = SS_WIRE64(p, ss_wire_fsstat, capacity_bytes);
	st->free_bytes = SS_WIRE64(p, ss_wire_fsstat, free_bytes);
	st->objects = SS_WIRE32(p, ss_wire_fsstat, objects);
	st->max_objects = SS_WIRE32(p, ss_wire_fsstat, max_objects);
	st->page_size = SS_WIRE32(p, ss_wire_fsstat, page_size);
	return 0;
}

int ss_dev_flush(struct ss_dev *d)
{
	struct ss_pkt_req req = {.opcode = SS_OP_FLUSH};
	struct ss_pkt_reply rep;

	ss_err_clear();
	return ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
}

int ss_dev_counters(struct ss_dev *d, struct ss_dev_counters *c)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_COUNTERS, sizeof(struct ss_wire_counters), "COUNTERS", &p);

	if (rc)
		return rc;
	c->host_page_reads = SS_WIRE64(p, ss_wire_counters, host_page_reads);
	c->host_page_writes = SS_WIRE64(p, ss_wire_counters, host_page_writes);
	c->nand_page_reads = SS_WIRE64(p, ss_wire_counters, nand_page_reads);
	c->nand_page_writes = SS_WIRE64(p, ss_wire_counters, nand_page_writes);
	c->block_erases = SS_WIRE64(p, ss_wire_counters, block_erases);
	c->gc_page_moves = SS_WIRE64(p, ss_wire_counters, gc_page_moves);
	c->retired_blocks = SS_WIRE32(p, ss_wire_counters, retired_blocks);
	c->free_blocks = SS_WIRE32(p, ss_wire_counters, free_blocks);
	c->min_erase_count = SS_WIRE32(p, ss_wire_counters, min_erase_count);
	c->max_erase_count = SS_WIRE32(p, ss_wire_counters, max_erase_count);
	c->avg_erase_count = SS_WIRE32(p, ss_wire_counters, avg_erase_count);
	c->write_amplification_milli =
		SS_WIRE32(p, ss_wire_counters, write_amplification_milli);
	c->power_on_ns = SS_WIRE64(p, ss_wire_counters, power_on_ns);
	return 0;
}

int ss_dev_model_counters(struct ss_dev *d, struct ss_dev_model *m)
{
	ss_err_clear();
	if (!m)
		return ss_err(-EINVAL, 0, "model counters: NULL output");
	memset(m, 0, sizeof(*m));
	return d->tp->ops->model(d->tp, m);
}
