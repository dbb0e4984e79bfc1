/*
 * In-storage processing opcodes (Kang §6.4.3): create_object (a tasklet instance, or an
 * output object), execute_object, read_object (also the progress poll) and
 * destroy_object, onto the ISP engine; and isp_queue, the engine's queue.
 */
#include "smartssd/builtin_tasklets.h"

#include "cmd_internal.h"

_Static_assert(SS_EXECUTE_MAX_INPUTS == SS_ISP_MAX_INPUTS, "one engine input per wire input");

#define CT_SIZE ((uint32_t)sizeof(struct ss_wire_create_tasklet))
#define INPUT_SIZE ((uint32_t)sizeof(struct ss_wire_input))
#define PROGRESS_SIZE ((uint32_t)sizeof(struct ss_wire_progress))
#define FIELD_OFF(f) (offsetof(struct ss_wire_create_tasklet, f))
#define LAYOUT_OFF (offsetof(struct ss_wire_create_tasklet, layout))

static void decode_layout(const uint8_t *p, struct ss_layout *l)
{
	ss_memset(l, 0, sizeof(*l));
	l->kind = p[offsetof(struct ss_wire_layout, kind)];
	l->line_delim = p[offsetof(struct ss_wire_layout, line_delim)];
	l->field_sep = p[offsetof(struct ss_wire_layout, field_sep)];
	l->nfields = p[offsetof(struct ss_wire_layout, nfields)];
	l->record_size = ss_get_le32(p + offsetof(struct ss_wire_layout, record_size));
	for (uint32_t i = 0; i < SS_LAYOUT_MAX_FIELDS; i++) {
		const uint8_t *f = p + offsetof(struct ss_wire_layout, fields) +
				   i * sizeof(struct ss_wire_field);

		l->fields[i].offset = ss_get_le16(f + offsetof(struct ss_wire_field, offset));
		l->fields[i].type = f[offsetof(struct ss_wire_field, type)];
		l->fields[i].width = f[offsetof(struct ss_wire_field, width)];
		l->fields[i].shift = f[offsetof(struct ss_wire_field, shift)];
		l->fields[i].bits = f[offsetof(struct ss_wire_field, bits)];
		l->fields[i].null_bit = ss_get_le16(f + offsetof(struct ss_wire_field, null_bit));
	}
}

/* An all-zero wire layout: none, for tasklets that take raw pages. */
static bool layout_none(const struct ss_layout *l)
{
	return l->kind == 0 && l->nfields == 0 && l->record_size == 0;
}

/* The layout rules of PROTOCOL.md ("Record layouts"). \return true when usable. */
static bool layout_ok(const struct ss_layout *l)
{
	if (l->nfields > SS_LAYOUT_MAX_FIELDS || l->record_size == 0 ||
	    l->record_size > SS_ISP_MAX_RECORD) {
		return false;
	}
	if (l->kind != SS_LAYOUT_FIXED && l->kind != SS_LAYOUT_TEXT) {
		return false;
	}
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct ss_field *f = &l->fields[i];
		uint32_t w = ss_field_width(f);

		if (f->type < SS_FIELD_U8 || f->type > SS_FIELD_DECIMAL ||
		    (uint32_t)f->shift + f->bits > 64) {
			return false;
		}
		/* typed values: FIXED, whole fields; the null flag inside the record */
		if (f->type > SS_FIELD_BYTES &&
		    (l->kind != SS_LAYOUT_FIXED || f->shift || f->bits ||
		     f->width > (f->type == SS_FIELD_DECIMAL ? 18 : 0))) {
			return false;
		}
		if (f->null_bit && (l->kind != SS_LAYOUT_FIXED ||
				    (uint32_t)(f->null_bit - 1) / 8 >= l->record_size)) {
			return false;
		}
		/* a text column has the width of its line; a fixed field needs one */
		if (w == 0 && l->kind == SS_LAYOUT_FIXED) {
			return false;
		}
		if (l->kind == SS_LAYOUT_FIXED && (uint32_t)f->offset + w > l->record_size) {
			return false;
		}
	}
	return true;
}

uint32_t fw_isp_create_check(const struct fw_req *rq, uint32_t *cap)
{
	struct ss_layout l;

	if (rq->flags & SS_CREATE_OBJ_OUTPUT) {
		return fw_path_check(rq->payload, rq->payload_len);
	}
	if (rq->flags & (SS_CREATE_EXCL | SS_CREATE_PARENTS)) {
		return SS_R_BAD_FIELD;
	}
	if (rq->payload_len < CT_SIZE ||
	    ss_get_le32(rq->payload + FIELD_OFF(params_len)) != rq->payload_len - CT_SIZE) {
		return SS_R_BAD_LENGTH;
	}
	if (ss_get_le32(rq->payload + FIELD_OFF(reserved))) {
		return SS_R_BAD_FIELD;
	}
	decode_layout(rq->payload + LAYOUT_OFF, &l);
	return layout_none(&l) || layout_ok(&l) ? SS_R_OK : SS_R_BAD_LAYOUT;
}

uint32_t fw_isp_execute_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t n = rq->payload_len / INPUT_SIZE;

	/* Any offset and length go: execute() clamps each range to its object. */
	if (rq->payload_len % INPUT_SIZE || n == 0 || n > SS_ISP_MAX_INPUTS) {
		return SS_R_BAD_LENGTH;
	}
	return rq->oid > UINT32_MAX ? SS_R_NO_SUCH_OBJECT : SS_R_OK;
}

uint32_t fw_isp_read_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	if (rq->reply_max < PROGRESS_SIZE || rq->length > rq->reply_max - PROGRESS_SIZE ||
	    rq->length > SS_PKT_MAX_PAYLOAD - PROGRESS_SIZE ||
	    rq->offset + rq->length < rq->offset) {
		return SS_R_BAD_FIELD;
	}
	*cap = PROGRESS_SIZE + (uint32_t)rq->length;
	return rq->oid > UINT32_MAX ? SS_R_NO_SUCH_OBJECT : SS_R_OK;
}

uint32_t fw_isp_destroy_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return rq->oid > UINT32_MAX ? SS_R_NO_SUCH_OBJECT : SS_R_OK;
}

/* No payload, no oid, offset or length: nothing to ask about but the whole queue. */
uint32_t fw_isp_queue_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = sizeof(struct ss_wire_isp_queue);
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	if (rq->oid || rq->offset || rq->length || rq->reply_max < *cap) {
		return SS_R_BAD_FIELD;
	}
	return SS_R_OK;
}

void fw_isp_queue(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct ss_isp_queue q;
	uint8_t *p = rep->payload;

	ss_isp_queue(fw->isp, &q);
	ss_put_le32(p + offsetof(struct ss_wire_isp_queue, instances), q.instances);
	ss_put_le32(p + offsetof(struct ss_wire_isp_queue, priced), q.priced);
	ss_put_le64(p + offsetof(struct ss_wire_isp_queue, pages_remaining), q.pages_remaining);
	ss_put_le64(p + offsetof(struct ss_wire_isp_queue, backlog_ns), q.backlog_ns);
	ss_put_le64(p + offsetof(struct ss_wire_isp_queue, page_ns), q.page_ns);
	rep->payload_len = sizeof(struct ss_wire_isp_queue);
	rep->value[0] = q.instances;
	rep->value[1] = q.pages_remaining;
	rep->value[2] = q.backlog_ns;
}

static struct fw_instance *instance_find(struct ss_fw *fw, uint64_t id)
{
	for (uint32_t i = 0; i < FW_MAX_INSTANCES; i++) {
		if (fw->instances[i].used && fw->instances[i].id == id) {
			return &fw->instances[i];
		}
	}
	return NULL;
}

int ss_fw_tasklet_work(struct ss_fw *fw, uint64_t instance, struct ss_fw_task_work *w)
{
	struct fw_instance *inst = instance_find(fw, instance);
	struct ss_isp_progress pr;
	int rc;

	if (!inst) {
		return -SS_ENOENT;
	}
	ss_memset(&pr, 0, sizeof(pr));
	rc = ss_isp_poll(fw->isp, inst->id, &pr);
	if (rc) {
		return rc;
	}
	w->pages = pr.pages_done;
	w->instructions = pr.instructions;
	w->dram_accesses = pr.dram_accesses;
	w->output_bytes = pr.output_bytes;
	return 0;
}

void fw_isp_forget_all(struct ss_fw *fw)
{
	for (uint32_t i = 0; i < FW_MAX_INSTANCES; i++) {
		fw->instances[i].used = 0;
	}
}

void fw_isp_drop_owner(struct ss_fw *fw, uint32_t owner)
{
	for (uint32_t i = 0; i < FW_MAX_INSTANCES; i++) {
		struct fw_instance *inst = &fw->instances[i];

		if (inst->used && inst->owner == owner) {
			/* stops a run still going; -SS_ENOENT: the engine forgot it already */
			(void)ss_isp_destroy(fw->isp, inst->id);
			inst->used = 0;
		}
	}
}

static void create_output(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	const uint8_t *name;
	uint32_t name_len;
	ss_oid_t dir, oid;
	int rc;

	rc = fw_path_parent(fw, rq->payload, rq->payload_len, rq->flags & SS_CREATE_PARENTS,
			    rq->now_ns, &dir, &name, &name_len);
	if (rc == -SS_EPERM) {
		rc = -SS_EEXIST;
	}
	if (rc == 0) {
		rc = ss_os_create(fw->os, dir, (const char *)name, name_len, SS_OBJ_OUTPUT,
				  (rq->flags & SS_CREATE_EXCL) ? SS_OS_EXCL : 0, rq->now_ns, &oid);
	}
	if (rc) {
		fw_rep_create_error(fw, rep, rc);
		return;
	}
	rep->value[0] = oid;
}

static void create_instance(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	const uint8_t *p = rq->payload;
	uint32_t tasklet_id = ss_get_le32(p + FIELD_OFF(tasklet_id));
	uint32_t budget = ss_get_le32(p + FIELD_OFF(mem_budget));
	uint64_t steps = ss_get_le64(p + FIELD_OFF(step_limit));
	ss_oid_t output = ss_get_le64(p + FIELD_OFF(output_oid));
	const struct ss_tasklet_desc *desc = ss_isp_find(fw->isp, tasklet_id);
	struct fw_instance *slot = NULL;
	struct ss_layout layout;
	const uint8_t *params;
	uint32_t instance, params_len;
	int rc;

	if (!desc) {
		fw_rep_error(rep, -SS_ENOENT, SS_R_UNKNOWN_TASKLET);
		return;
	}
	rc = fw_oid_hidden(fw, output) ? -SS_ENOENT : ss_os_stat(fw->os, output, &fw->st);
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	if (fw->st.type != SS_OBJ_OUTPUT) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_FIELD);
		return;
	}
	for (uint32_t i = 0; i < FW_MAX_INSTANCES && !slot; i++) {
		if (!fw->instances[i].used) {
			slot = &fw->instances[i];
		}
	}
	if (!slot) {
		fw_rep_error(rep, -SS_EAGAIN, SS_R_BUSY);
		return;
	}
	decode_layout(p + LAYOUT_OFF, &layout);
	if (layout_none(&layout) && desc->on_records) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_LAYOUT);
		return;
	}
	params = p + CT_SIZE;
	params_len = rq->payload_len - CT_SIZE;
	if (tasklet_id == SS_BT_BPF &&
	    fw_bpf_instance_params(fw, p + CT_SIZE, params_len,
				   layout_none(&layout) ? NULL : &layout, rep, &params, &params_len)) {
		return;
	}
	rc = ss_isp_create(fw->isp, tasklet_id, params, params_len,
			   layout_none(&layout) ? NULL : &layout, budget,
			   steps ? steps : FW_DEFAULT_STEP_LIMIT, output, &instance);
	if (rc == 0 && rq->length) {
		rc = ss_isp_set_output_limit(fw->isp, instance, rq->length);
		if (rc) {
			(void)ss_isp_destroy(fw->isp, instance);
		}
	}
	if (rc) {
		uint32_t reason = SS_R_TASKLET_FAILED;

		if (rc == -SS_EINVAL) {
			reason = SS_R_TASKLET_PARAMS;
		} else if (rc == -SS_ENOMEM) {
			reason = SS_R_TASKLET_BUDGET;
		} else if (rc == -SS_ENOSPC || rc == -SS_EAGAIN || rc == -SS_EBUSY) {
			/* the engine's instance table is full: destroy one, or retry */
			rc = -SS_EAGAIN;
			reason = SS_R_BUSY;
		} else if (rc == -SS_ENOENT) {
			reason = SS_R_NO_SUCH_OBJECT;
		} else if (rc == -SS_EIO) {
			reason = SS_R_MEDIA_ERROR;
		}
		fw_rep_error(rep, rc, reason);
		return;
	}
	slot->used = 1;
	slot->id = instance;
	slot->owner = fw->owner;
	slot->output = output;
	rep->value[0] = instance;
}

void fw_isp_execute(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct ss_isp_input *in = fw->inputs;
	uint32_t n = rq->payload_len / INPUT_SIZE;
	int rc;

	if (!instance_find(fw, rq->oid)) {
		fw_rep_error(rep, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = rq->payload + i * INPUT_SIZE;

		in[i].oid = ss_get_le64(p + offsetof(struct ss_wire_input, oid));
		in[i].offset = ss_get_le64(p + offsetof(struct ss_wire_input, offset));
		in[i].length = ss_get_le64(p + offsetof(struct ss_wire_input, length));
		rc = fw_oid_hidden(fw, in[i].oid) ? -SS_ENOENT : ss_os_stat(fw->os, in[i].oid, &fw->st);
		if (rc) {
			fw_rep_error(rep, rc, 0);
			return;
		}
		if (fw->st.type == SS_OBJ_DIR) {
			fw_rep_error(rep, -SS_EISDIR, SS_R_IS_DIR);
			return;
		}
		/* A range past the end stops there: length UINT64_MAX means "to the end", and
		 * offset + length may even overflow. A range starting past the end is empty. */
		if (in[i].offset >= fw->st.size) {
			in[i].length = 0;
		} else if (in[i].length > fw->st.size - in[i].offset) {
			in[i].length = fw->st.size - in[i].offset;
		}
	}
	rc = ss_isp_execute(fw->isp, (uint32_t)rq->oid, in, n);
	if (rc) {
		fw_rep_error(rep, rc, rc == -SS_EBUSY ? SS_R_TASKLET_RUNNING : 0);
		return;
	}
	rep->value[0] = rq->oid;
}

uint32_t fw_isp_failure_reason(int err)
{
	switch (err) {
	case -SS_ENOMEM:
		return SS_R_TASKLET_BUDGET;
	case -SS_ETIME:
		return SS_R_TASKLET_STEPS;
	case -SS_ETIMEDOUT:
		return SS_R_TASKLET_WATCHDOG;
	case -SS_EINVAL:
		return SS_R_TASKLET_PARAMS;
	case -SS_EIO:
	case -SS_EBADMSG:
		return SS_R_MEDIA_ERROR;
	case -SS_ENOSPC:
		return SS_R_DRIVE_FULL;
	case -SS_ENOSYS:
		return SS_R_INPUT_UNSUPPORTED;
	case -SS_EILSEQ:
		return SS_R_INPUT_MALFORMED;
	case -SS_ENODATA:
		return SS_R_PLAN_MISMATCH;
	default:
		return SS_R_TASKLET_FAILED;
	}
}

static void put_progress(uint8_t *p, const struct ss_isp_progress *pr)
{
	ss_put_le32(p + offsetof(struct ss_wire_progress, state), pr->state);
	ss_put_le32(p + offsetof(struct ss_wire_progress, error), (uint32_t)pr->error);
	ss_put_le64(p + offsetof(struct ss_wire_progress, pages_done), pr->pages_done);
	ss_put_le64(p + offsetof(struct ss_wire_progress, pages_total), pr->pages_total);
	ss_put_le64(p + offsetof(struct ss_wire_progress, records), pr->records);
	ss_put_le64(p + offsetof(struct ss_wire_progress, output_bytes), pr->output_bytes);
	ss_put_le64(p + offsetof(struct ss_wire_progress, instructions), pr->instructions);
	ss_put_le64(p + offsetof(struct ss_wire_progress, dram_accesses), pr->dram_accesses);
	ss_put_le64(p + offsetof(struct ss_wire_progress, started_ns), pr->started_ns);
	ss_put_le64(p + offsetof(struct ss_wire_progress, finished_ns), pr->finished_ns);
}

/* Progress, then output bytes when asked for. Runs no tasklet work: ss_fw_idle does. */
void fw_isp_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct fw_instance *inst = instance_find(fw, rq->oid);
	struct ss_isp_progress pr;
	uint32_t nread = 0;
	int rc;

	if (!inst) {
		fw_rep_error(rep, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
		return;
	}
	ss_memset(&pr, 0, sizeof(pr));
	rc = ss_isp_poll(fw->isp, inst->id, &pr);
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	if (rq->length) {
		rc = ss_os_read(fw->os, inst->output, rq->offset, rep->payload + PROGRESS_SIZE,
				(uint32_t)rq->length, &nread);
		if (rc) {
			fw_rep_error(rep, rc, 0);
			return;
		}
		nread = SS_MIN(nread, (uint32_t)rq->length);
		fw->life.lbas_read += SS_DIV_ROUND_UP(nread, SS_SECTOR);
	}
	ss_memset(rep->payload, 0, PROGRESS_SIZE);
	put_progress(rep->payload, &pr);
	rep->payload_len = PROGRESS_SIZE + nread;
	rep->value[0] = pr.pages_done;
	rep->value[1] = pr.pages_total;
	rep->value[2] = pr.output_bytes;
	if (pr.state == SS_ISP_FAILED) {
		rep->status = pr.error < 0 ? pr.error : -SS_ECANCELED;
		rep->reason = fw_isp_failure_reason(rep->status);
	}
	if (rep->slot && pr.state == SS_ISP_RUNNING && !rq->length) {
		rep->slot->idle_poll = 1;
	}
}

void fw_isp_destroy(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct fw_instance *inst = instance_find(fw, rq->oid);
	int rc;

	if (!inst) {
		fw_rep_error(rep, -SS_ENOENT, SS_R_NO_SUCH_OBJECT);
		return;
	}
	rc = ss_isp_destroy(fw->isp, inst->id);
	if (rc && rc != -SS_ENOENT) {
		fw_rep_error(rep, rc, rc == -SS_EBUSY ? SS_R_TASKLET_RUNNING : 0);
		return;
	}
	inst->used = 0;
	rep->value[0] = rq->oid;
}

void fw_isp_create(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	if (rq->flags & SS_CREATE_OBJ_OUTPUT) {
		create_output(fw, rq, rep);
	} else {
		create_instance(fw, rq, rep);
	}
}
