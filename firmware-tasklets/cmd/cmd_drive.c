/*
 * Whole-drive opcodes: DRIVE_INFO, FLUSH, FSSTAT, COUNTERS, CHECK.
 */
#include "cmd_internal.h"

/* A request without payload whose reply is one fixed-size wire structure. */
static uint32_t fixed_reply_check(const struct fw_req *rq, uint32_t *cap, uint32_t size)
{
	*cap = size;
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return rq->reply_max < size ? SS_R_BAD_FIELD : SS_R_OK;
}

uint32_t fw_drive_info_check(const struct fw_req *rq, uint32_t *cap)
{
	return fixed_reply_check(rq, cap, sizeof(struct ss_drive_info));
}

uint32_t fw_drive_fsstat_check(const struct fw_req *rq, uint32_t *cap)
{
	return fixed_reply_check(rq, cap, sizeof(struct ss_wire_fsstat));
}

uint32_t fw_grown_reply_check(const struct fw_req *rq, uint32_t *cap, uint32_t first_size,
			      uint32_t size)
{
	uint32_t rc = fixed_reply_check(rq, cap, first_size);

	*cap = SS_MIN(rq->reply_max, size);
	return rc;
}

uint32_t fw_drive_counters_check(const struct fw_req *rq, uint32_t *cap)
{
	return fw_grown_reply_check(rq, cap, SS_WIRE_COUNTERS_V1_SIZE,
				    sizeof(struct ss_wire_counters));
}

uint32_t fw_drive_check_check(const struct fw_req *rq, uint32_t *cap)
{
	return fixed_reply_check(rq, cap, sizeof(struct ss_wire_check));
}

/* FLUSH, OPEN_SESSION, CLOSE_SESSION: header fields only, no reply payload. */
uint32_t fw_no_payload_check(const struct fw_req *rq, uint32_t *cap)
{
	return fixed_reply_check(rq, cap, 0);
}

static void put_string(uint8_t *dst, const char *src, uint32_t max)
{
	uint32_t n = (uint32_t)ss_strnlen(src, max);

	ss_memset(dst, 0, max);
	ss_memcpy(dst, src, n);
}

void fw_drive_info(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint8_t *p = rep->payload;
	const struct ss_geometry *g = &fw->hal->geo;

	ss_put_le32(p + offsetof(struct ss_drive_info, proto_version), SS_PROTO_VERSION);
	ss_put_le32(p + offsetof(struct ss_drive_info, page_size), fw->page_size);
	ss_put_le32(p + offsetof(struct ss_drive_info, channels), g->channels);
	ss_put_le32(p + offsetof(struct ss_drive_info, ways), g->ways);
	ss_put_le32(p + offsetof(struct ss_drive_info, queue_depth), FW_QUEUE_DEPTH);
	ss_put_le32(p + offsetof(struct ss_drive_info, isp_batch_pages), SS_ISP_BATCH_PAGES);
	ss_put_le64(p + offsetof(struct ss_drive_info, capacity_bytes),
		    fw->capacity_sectors * SS_SECTOR);
	put_string(p + offsetof(struct ss_drive_info, model), fw->hal->model, 40);
	put_string(p + offsetof(struct ss_drive_info, serial), fw->hal->serial, 20);
	put_string(p + offsetof(struct ss_drive_info, firmware_rev), fw->hal->firmware_rev, 8);
	ss_put_le32(p + offsetof(struct ss_drive_info, reserved), 0);
	rep->payload_len = sizeof(struct ss_drive_info);
}

/* The store's objects as hosts see them: the firmware's record and the eBPF programs are
 * not theirs. */
static uint32_t host_objects(const struct ss_fw *fw, const struct ss_os_stats *st)
{
	uint32_t hidden = (fw->record_oid != SS_OID_NONE) + fw_bpf_hidden_objects(fw);

	return st->objects >= hidden ? st->objects - hidden : 0;
}

int ss_fw_objects(struct ss_fw *fw, uint32_t *n)
{
	struct ss_os_stats st;

	if (!fw || fw->state != FW_UP) {
		return -SS_EBADMSG;   /* down, or up without its store: not known */
	}
	ss_os_get_stats(fw->os, &st);
	*n = host_objects(fw, &st);
	*n -= *n > 0;   /* the root directory, which every store has */
	return 0;
}

void fw_drive_fsstat(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint8_t *p = rep->payload;
	struct ss_os_stats st;
	uint32_t hidden = (fw->record_oid != SS_OID_NONE) + fw_bpf_hidden_objects(fw);

	ss_os_get_stats(fw->os, &st);
	ss_put_le64(p + offsetof(struct ss_wire_fsstat, capacity_bytes), st.capacity_bytes);
	ss_put_le64(p + offsetof(struct ss_wire_fsstat, free_bytes), st.free_bytes);
	ss_put_le32(p + offsetof(struct ss_wire_fsstat, objects), host_objects(fw, &st));
	ss_put_le32(p + offsetof(struct ss_wire_fsstat, max_objects),
		    st.max_objects >= hidden ? st.max_objects - hidden : 0);
	ss_put_le32(p + offsetof(struct ss_wire_fsstat, page_size), fw->page_size);
	ss_put_le32(p + offsetof(struct ss_wire_fsstat, reserved), 0);
	rep->payload_len = sizeof(struct ss_wire_fsstat);
}

void fw_drive_counters(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint8_t p[sizeof(struct ss_wire_counters)];
	struct ss_ftl_stats st;

	ss_ftl_get_stats(fw->ftl, &st);
	ss_put_le64(p + offsetof(struct ss_wire_counters, host_page_reads), st.host_page_reads);
	ss_put_le64(p + offsetof(struct ss_wire_counters, host_page_writes), st.host_page_writes);
	ss_put_le64(p + offsetof(struct ss_wire_counters, nand_page_reads), st.nand_page_reads);
	ss_put_le64(p + offsetof(struct ss_wire_counters, nand_page_writes), st.nand_page_writes);
	ss_put_le64(p + offsetof(struct ss_wire_counters, block_erases), st.block_erases);
	ss_put_le64(p + offsetof(struct ss_wire_counters, gc_page_moves), st.gc_page_moves);
	ss_put_le32(p + offsetof(struct ss_wire_counters, retired_blocks), st.retired_blocks);
	ss_put_le32(p + offsetof(struct ss_wire_counters, free_blocks), st.free_blocks);
	ss_put_le32(p + offsetof(struct ss_wire_counters, min_erase_count), st.min_erase_count);
	ss_put_le32(p + offsetof(struct ss_wire_counters, max_erase_count), st.max_erase_count);
	ss_put_le32(p + offsetof(struct ss_wire_counters, avg_erase_count), st.avg_erase_count);
	ss_put_le32(p + offsetof(struct ss_wire_counters, write_amplification_milli),
		    ss_ftl_write_amplification_milli(fw->ftl));
	ss_put_le64(p + offsetof(struct ss_wire_counters, power_on_ns), ss_hal_now_ns(fw->hal));
	fw_buffer_counters(fw, p);
	rep->payload_len = SS_MIN(rep->cap, (uint32_t)sizeof(p));
	ss_memcpy(rep->payload, p, rep->payload_len);
}

int ss_fw_read_reply(struct ss_fw *fw, uint16_t opcode, uint8_t *buf, uint32_t cap)
{
	const struct fw_op *op = fw_op_find(opcode);
	struct fw_req rq = { .opcode = opcode, .reply_max = cap };
	struct fw_rep rep = { .payload = buf };

	if (!fw || fw->state != FW_UP) {
		return -SS_EBADMSG;
	}
	if (!op || op->mutates || (opcode != SS_OP_DRIVE_INFO && opcode != SS_OP_FSSTAT &&
				   opcode != SS_OP_COUNTERS && opcode != SS_OP_ISP_QUEUE &&
				   opcode != SS_OP_SSC_INFO) ||
	    op->check(&rq, &rep.cap) != SS_R_OK) {
		return -SS_EINVAL;
	}
	op->exec(fw, &rq, &rep);
	if (rep.status != 0) {
		return rep.status;
	}
	return (int)SS_MIN(rep.payload_len, rep.cap);
}

void fw_drive_flush(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc;

#ifndef SS_FW_WITHOUT_CHUNKS
	if (fw->state == FW_CHUNKED) {
		rc = fw_chunks_persist(fw);
		if (rc) {
			fw_rep_error(rep, rc, SS_R_MEDIA_ERROR);
		}
		return;
	}
#endif
	/* The lifetime record lagging behind is no reason to fail the host's flush. */
	(void)fw_smart_record_store(fw, false);
	rc = ss_os_flush(fw->os);
	if (rc == 0 && fw->ssc) {
		rc = ss_ssc_flush(fw->ssc);
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
	}
}

/* CHECK's problem after the object store's own (PROTOCOL.md section 5): the merge cache's
 * NVM fails its check; problem_lpn: the logical page of the slot's sector (FFFFFFFFh: the
 * header), problem_level: the NVM slot. */
#define FW_CHECK_NVRAM 22u
_Static_assert(FW_CHECK_NVRAM == SS_OS_P_DATA_UNREADABLE + 1, "one list of CHECK's problems");

/* A consistent store's report with the merge cache's NVM checked too. */
static void check_nvram(const struct ss_fw *fw, struct ss_os_check_report *cr)
{
	struct ss_buf_nv_report nr;

	ss_buf_nv_check(fw->buf, &nr);
	if (nr.problem != SS_BUF_NV_OK) {
		cr->problem = FW_CHECK_NVRAM;
		cr->problem_level = nr.slot;
		cr->problem_oid = 0;
		cr->problem_lpn = nr.lba == UINT32_MAX ? UINT32_MAX : nr.lba / fw->sectors_per_page;
	}
}

/* The merge cache's NVM and the object store's fsck, or on a drive that came up without its
 * store, what the mount's check found. A problem is a result, not a failure of the command:
 * status 0. */
void fw_drive_check(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct ss_os_check_report cr;
	uint8_t *p = rep->payload;
	uint32_t mounted = fw->state == FW_UP;
	int rc = 0;

	if (mounted) {
		/* the NVM first: the store's check reads data pages through it */
		ss_memset(&cr, 0, sizeof(cr));
		check_nvram(fw, &cr);
		if (cr.problem == SS_OS_CONSISTENT) {
			rc = ss_os_check(fw->os, &cr);
		}
	} else {
		cr = fw->store_problem;
	}
	if (rc != 0 && rc != -SS_EBADMSG) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	ss_put_le32(p + offsetof(struct ss_wire_check, problem), cr.problem);
	ss_put_le32(p + offsetof(struct ss_wire_check, problem_level), cr.problem_level);
	ss_put_le64(p + offsetof(struct ss_wire_check, problem_oid), cr.problem_oid);
	ss_put_le32(p + offsetof(struct ss_wire_check, problem_lpn), cr.problem_lpn);
	ss_put_le32(p + offsetof(struct ss_wire_check, mounted), mounted);
	ss_put_le32(p + offsetof(struct ss_wire_check, objects), cr.objects);
	ss_put_le32(p + offsetof(struct ss_wire_check, tree_objects), cr.tree_objects);
	ss_put_le32(p + offsetof(struct ss_wire_check, max_depth), cr.max_depth);
	ss_put_le32(p + offsetof(struct ss_wire_check, reserved), 0);
	ss_put_le64(p + offsetof(struct ss_wire_check, extents), cr.extents);
	ss_put_le64(p + offsetof(struct ss_wire_check, node_pages), cr.node_pages);
	ss_put_le64(p + offsetof(struct ss_wire_check, data_pages), cr.data_pages);
	ss_put_le64(p + offsetof(struct ss_wire_check, leaked_pages), cr.leaked_pages);
	rep->payload_len = sizeof(struct ss_wire_check);
}
