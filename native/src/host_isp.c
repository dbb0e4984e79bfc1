/*
 * In-storage processing commands (Kang §6.4.3): create_object, execute_object,
 * read_object (also the progress poll) and destroy.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

struct subject {
	char s[64];
};

static const char *inst_subject(struct subject *s, uint64_t id)
{
	snprintf(s->s, sizeof(s->s), "instance %" PRIu64, id);
	return s->s;
}

static void encode_layout(uint8_t *p, const struct ss_dev_layout *l)
{
	p[offsetof(struct ss_wire_layout, kind)] = l->kind;
	p[offsetof(struct ss_wire_layout, line_delim)] = l->line_delim;
	p[offsetof(struct ss_wire_layout, field_sep)] = l->field_sep;
	p[offsetof(struct ss_wire_layout, nfields)] = l->nfields;
	ss_put_le32(p + offsetof(struct ss_wire_layout, record_size), l->record_size);
	for (int i = 0; i < SS_DEV_LAYOUT_MAX_FIELDS; i++) {
		uint8_t *f = p + offsetof(struct ss_wire_layout, fields) +
			     (size_t)i * sizeof(struct ss_wire_field);

		ss_put_le16(f + offsetof(struct ss_wire_field, offset), l->fields[i].offset);
		f[offsetof(struct ss_wire_field, type)] = l->fields[i].type;
		f[offsetof(struct ss_wire_field, width)] = l->fields[i].width;
		f[offsetof(struct ss_wire_field, shift)] = l->fields[i].shift;
		f[offsetof(struct ss_wire_field, bits)] = l->fields[i].bits;
		ss_put_le16(f + offsetof(struct ss_wire_field, null_bit), l->fields[i].null_bit);
	}
}

static int decode_progress(const uint8_t *p, uint32_t len, struct ss_dev_progress *out)
{
	if (len < sizeof(struct ss_wire_progress))
		return ss_err(-EPROTO, 0, "progress reply of %u bytes is short", len);
	if (!out)
		return 0;
	SS_REPLY_PROGRESS(SS_DECODE, ss_wire_progress)
	return 0;
}

int ss_dev_create_output(struct ss_dev *d, const char *path, uint32_t flags, uint64_t *oid)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_CREATE_OBJECT,
		.flags = SS_CREATE_OBJ_OUTPUT | flags,
	};
	struct ss_pkt_seg seg;
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	if (!path)
		return ss_err(-EINVAL, 0, "create output: NULL path");
	if (flags & ~(SS_DEV_CREATE_EXCL | SS_DEV_CREATE_PARENTS))
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "create output %s: unknown flags 0x%x",
			      path, flags);
	seg.data = path;
	seg.len = strlen(path);
	rc = ss_obj_exec(d, &req, &seg, 1, &rep, path);
	if (rc)
		return rc;
	if (oid)
		*oid = rep.value0;
	return 0;
}

int ss_dev_tasklet_create(struct ss_dev *d, const struct ss_dev_tasklet_spec *spec,
			  const void *params, uint32_t params_len, uint64_t *instance)
{
	uint8_t hdr[sizeof(struct ss_wire_create_tasklet)];
	struct ss_pkt_req req = {.opcode = SS_OP_CREATE_OBJECT};
	struct ss_pkt_seg segs[2];
	struct ss_pkt_reply rep;
	char subj[48];
	int rc;

	ss_err_clear();
	if (!spec || (!params && params_len))
		return ss_err(-EINVAL, 0, "tasklet create: NULL spec or params");
	req.length = spec->output_limit;
	if (spec->layout.nfields > SS_DEV_LAYOUT_MAX_FIELDS)
		return ss_err(-EINVAL, SS_R_BAD_LAYOUT, "tasklet create: %u fields (max %d)",
			      spec->layout.nfields, SS_DEV_LAYOUT_MAX_FIELDS);
	memset(hdr, 0, sizeof(hdr));
	ss_put_le32(hdr + offsetof(struct ss_wire_create_tasklet, tasklet_id), spec->tasklet_id);
	ss_put_le32(hdr + offsetof(struct ss_wire_create_tasklet, mem_budget), spec->mem_budget);
	ss_put_le64(hdr + offsetof(struct ss_wire_create_tasklet, step_limit), spec->step_limit);
	ss_put_le64(hdr + offsetof(struct ss_wire_create_tasklet, output_oid), spec->output_oid);
	ss_put_le32(hdr + offsetof(struct ss_wire_create_tasklet, params_len), params_len);
	encode_layout(hdr + offsetof(struct ss_wire_create_tasklet, layout), &spec->layout);
	segs[0].data = hdr;
	segs[0].len = sizeof(hdr);
	segs[1].data = params;
	segs[1].len = params_len;
	snprintf(subj, sizeof(subj), "tasklet %u", spec->tasklet_id);
	rc = ss_obj_exec(d, &req, segs, 2, &rep, subj);
	if (rc && ss_dev_last_reason() == SS_R_PROGRAM_REFUSED)
		return ss_program_refused(rc, &rep, "CREATE_OBJECT bpf");
	if (rc)
		return rc;
	if (instance)
		*instance = rep.value0;
	return 0;
}

int ss_dev_tasklet_execute(struct ss_dev *d, uint64_t instance,
			   const struct ss_dev_input *in, uint32_t n)
{
	uint8_t wire[SS_EXECUTE_MAX_INPUTS * sizeof(struct ss_wire_input)];
	struct ss_pkt_req req = {.opcode = SS_OP_EXECUTE_OBJECT, .oid = instance};
	struct ss_pkt_seg seg;
	struct ss_pkt_reply rep;
	struct subject sj;

	ss_err_clear();
	inst_subject(&sj, instance);
	if (!in || n == 0)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "EXECUTE_OBJECT %s: no inputs", sj.s);
	if (n > SS_EXECUTE_MAX_INPUTS)
		return ss_err(-E2BIG, SS_R_BAD_LENGTH, "EXECUTE_OBJECT %s: %u inputs (max %u)",
			      sj.s, n, SS_EXECUTE_MAX_INPUTS);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *p = wire + (size_t)i * sizeof(struct ss_wire_input);

		ss_put_le64(p + offsetof(struct ss_wire_input, oid), in[i].oid);
		ss_put_le64(p + offsetof(struct ss_wire_input, offset), in[i].offset);
		ss_put_le64(p + offsetof(struct ss_wire_input, length), in[i].length);
	}
	seg.data = wire;
	seg.len = (size_t)n * sizeof(struct ss_wire_input);
	return ss_obj_exec(d, &req, &seg, 1, &rep, sj.s);
}

int64_t ss_dev_tasklet_read(struct ss_dev *d, uint64_t instance, uint64_t offset,
			    void *buf, size_t len, struct ss_dev_progress *p)
{
	const uint32_t psz = sizeof(struct ss_wire_progress);
	struct ss_pkt_req req = {
		.opcode = SS_OP_READ_OBJECT,
		.oid = instance,
		.offset = offset,
	};
	struct ss_pkt_reply rep;
	struct subject sj;
	uint32_t n;
	int rc;

	ss_err_clear();
	if (!buf && len)
		return ss_err(-EINVAL, 0, "tasklet read: NULL buffer");
	if (len > SS_PKT_MAX_PAYLOAD - psz)
		len = SS_PKT_MAX_PAYLOAD - psz;
	req.length = len;
	req.reply_max = psz + (uint32_t)len;
	memset(&rep, 0, sizeof(rep));
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, inst_subject(&sj, instance));
	if (rc) {
		/* a failed run still reports its progress */
		if (p && rep.payload_len >= psz && rep.payload)
			decode_progress(rep.payload, rep.payload_len, p);
		return rc;
	}
	rc = decode_progress(rep.payload, rep.payload_len, p);
	if (rc)
		return rc;
	n = rep.payload_len - psz;
	if (n > len)
		return ss_err(-EPROTO, 0, "READ_OBJECT %s: %u bytes returned for %zu asked",
			      sj.s, n, len);
	if (n)
		memcpy(buf, rep.payload + psz, n);
	return n;
}

int ss_dev_tasklet_poll(struct ss_dev *d, uint64_t instance, struct ss_dev_progress *p)
{
	int64_t rc = ss_dev_tasklet_read(d, instance, 0, NULL, 0, p);

	return rc < 0 ? (int)rc : 0;
}

int ss_dev_tasklet_destroy(struct ss_dev *d, uint64_t instance)
{
	struct ss_pkt_req req = {.opcode = SS_OP_DESTROY_OBJECT, .oid = instance};
	struct ss_pkt_reply rep;
	struct subject sj;

	ss_err_clear();
	return ss_obj_exec(d, &req, NULL, 0, &rep, inst_subject(&sj, instance));
}
