/*
 * Whole-drive commands: identity, space, durability, counters, the in-storage queue and
 * the emulator's model.
 */
#include <errno.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"
#include "ss_devd_frame.h"

void ss_copy_trimmed(char *dst, const uint8_t *src, size_t n)
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

int ss_dev_drive_info(struct ss_dev *d, struct ss_dev_info *out)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_DRIVE_INFO, sizeof(struct ss_drive_info), "DRIVE_INFO", &p);

	if (rc)
		return rc;
	SS_REPLY_DRIVE_INFO(SS_DECODE, ss_drive_info)
	return 0;
}

int ss_dev_fsstat(struct ss_dev *d, struct ss_dev_fsstat *out)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_FSSTAT, sizeof(struct ss_wire_fsstat), "FSSTAT", &p);

	if (rc)
		return rc;
	SS_REPLY_FSSTAT(SS_DECODE, ss_wire_fsstat)
	return 0;
}

int ss_dev_flush(struct ss_dev *d)
{
	struct ss_pkt_req req = {.opcode = SS_OP_FLUSH};
	struct ss_pkt_reply rep;

	ss_err_clear();
	return ss_obj_exec(d, &req, NULL, 0, &rep, NULL);
}

int ss_dev_counters(struct ss_dev *d, struct ss_dev_counters *out)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_COUNTERS, sizeof(struct ss_wire_counters), "COUNTERS", &p);

	if (rc)
		return rc;
	SS_REPLY_COUNTERS(SS_DECODE, ss_wire_counters)
	return 0;
}

int ss_dev_check(struct ss_dev *d, struct ss_dev_check *out)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_CHECK, sizeof(struct ss_wire_check), "CHECK", &p);

	if (rc)
		return rc;
	SS_REPLY_CHECK(SS_DECODE, ss_wire_check)
	return 0;
}

int ss_dev_isp_queue(struct ss_dev *d, struct ss_dev_isp_queue *out)
{
	const uint8_t *p;
	int rc = query_fixed(d, SS_OP_ISP_QUEUE, sizeof(struct ss_wire_isp_queue), "ISP_QUEUE",
			     &p);

	if (rc)
		return rc;
	SS_REPLY_ISP_QUEUE(SS_DECODE, ss_wire_isp_queue)
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

static int energy_ledger(struct ss_dev *d, uint32_t op, uint64_t arg, uint64_t *out,
			 uint32_t cap, const char *what)
{
	uint32_t n = 0;
	int rc;

	ss_err_clear();
	rc = d->tp->ops->ledger(d->tp, op, arg, out, cap, &n);
	if (rc == 0 && n < cap)
		return ss_err(-EBADMSG, 0, "energy %s: the drive sent %u of %u fields", what, n, cap);
	if (rc && !ss_dev_last_message()[0])
		ss_err(rc, 0, "energy %s of %llu: %s", what, (unsigned long long)arg,
		       rc == -EAGAIN ? "its period is still open (other tasks are running)"
		       : rc == -ENOENT ? "no such ticket or tasklet instance of this client"
		       : rc == -ENOSPC ? "the drive's ledger is full"
		       : rc == -EINVAL ? "the task has left already" : strerror(-rc));
	return rc;
}

int ss_dev_energy_join(struct ss_dev *d, uint64_t instance, uint64_t *ticket)
{
	if (!ticket)
		return ss_err(-EINVAL, 0, "energy join: NULL ticket");
	return energy_ledger(d, SS_LEDGER_JOIN, instance, ticket, 1, "join");
}

int ss_dev_energy_leave(struct ss_dev *d, uint64_t ticket, int abandon)
{
	return energy_ledger(d, abandon ? SS_LEDGER_ABANDON : SS_LEDGER_LEAVE, ticket, NULL, 0,
			     abandon ? "abandon" : "leave");
}

#define SHARE_FIELD(a, kind, name, bytes) \
	s->name = v[offsetof(struct ss_wire_task_share, name) / 8];

int ss_dev_energy_share(struct ss_dev *d, uint64_t ticket, struct ss_dev_task_share *s)
{
	uint64_t v[sizeof(struct ss_wire_task_share) / 8];
	int rc;

	if (!s)
		return ss_err(-EINVAL, 0, "energy share: NULL output");
	rc = energy_ledger(d, SS_LEDGER_SHARE, ticket, v, (uint32_t)(sizeof(v) / 8), "share");
	if (rc)
		return rc;
	SS_REPLY_TASK_SHARE(SHARE_FIELD, _)
	return 0;
}
