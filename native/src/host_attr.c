/*
 * Named attributes of an object (SS_OP_SET_ATTR .. SS_OP_REMOVE_ATTR, PROTOCOL.md 4.6).
 * The limits are checked here too, so that the message names them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

_Static_assert(SS_DEV_ATTR_NAME_MAX == SS_ATTR_NAME_MAX, "one name limit");
_Static_assert(SS_DEV_ATTRS_MAX == SS_ATTRS_MAX, "one size limit");

struct attr_subject {
	char s[SS_DEV_ATTR_NAME_MAX + 48];
};

static int check_name(const char *op, uint64_t oid, const char *name, struct attr_subject *sj)
{
	size_t len;

	if (!name || !*name)
		return ss_err(-EINVAL, SS_R_BAD_LENGTH, "%s oid %" PRIu64 ": empty attribute name",
			      op, oid);
	len = strlen(name);
	if (len > SS_DEV_ATTR_NAME_MAX)
		return ss_err(-ENAMETOOLONG, SS_R_NAME_TOO_LONG,
			      "%s oid %" PRIu64 ": attribute name of %zu bytes (at most %u)", op,
			      oid, len, SS_DEV_ATTR_NAME_MAX);
	snprintf(sj->s, sizeof(sj->s), "oid %" PRIu64 " attribute %s", oid, name);
	return 0;
}

int ss_dev_set_attr(struct ss_dev *d, uint64_t oid, const char *name, const void *value,
		    size_t value_len, uint32_t flags)
{
	struct ss_pkt_reply rep;
	struct attr_subject sj;
	int rc;

	ss_err_clear();
	rc = check_name("SET_ATTR", oid, name, &sj);
	if (rc)
		return rc;
	if (flags & ~(SS_DEV_ATTR_CREATE | SS_DEV_ATTR_REPLACE))
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "SET_ATTR %s: unknown flags 0x%x", sj.s,
			      flags);
	if (value_len > SS_DEV_ATTRS_MAX)
		return ss_err(-E2BIG, SS_R_BAD_LENGTH,
			      "SET_ATTR %s: value of %zu bytes (an object holds at most %u bytes "
			      "of attribute names and values)", sj.s, value_len, SS_DEV_ATTRS_MAX);
	if (!value && value_len)
		return ss_err(-EINVAL, 0, "SET_ATTR %s: NULL value", sj.s);

	struct ss_pkt_req req = {
		.opcode = SS_OP_SET_ATTR,
		.flags = flags,
		.oid = oid,
		.length = strlen(name),
	};
	struct ss_pkt_seg segs[2] = {{name, strlen(name)}, {value, value_len}};

	rc = ss_obj_exec(d, &req, segs, 2, &rep, sj.s);
	if (rc == -E2BIG)
		return ss_err(rc, SS_R_BAD_LENGTH,
			      "SET_ATTR %s: the object's attributes would pass %u bytes of names "
			      "and values (+3 per attribute)", sj.s, SS_DEV_ATTRS_MAX);
	return rc;
}

/* GET_ATTR or LIST_ATTRS: value0 is the full length, the payload its start. */
static int64_t get_bytes(struct ss_dev *d, struct ss_pkt_req *req, const char *name,
			 const char *subject, void *buf, size_t max)
{
	struct ss_pkt_seg seg = {name, name ? strlen(name) : 0};
	struct ss_pkt_reply rep;
	int rc;

	if (!buf && max)
		return ss_err(-EINVAL, 0, "%s: NULL buffer", subject);
	req->reply_max = SS_DEV_ATTRS_MAX;
	rc = ss_obj_exec(d, req, name ? &seg : NULL, name ? 1 : 0, &rep, subject);
	if (rc)
		return rc;
	if (rep.value0 > SS_DEV_ATTRS_MAX || rep.payload_len != rep.value0)
		return ss_err(-EPROTO, 0, "%s: %u bytes returned of %" PRIu64, subject,
			      rep.payload_len, rep.value0);
	if (max)
		memcpy(buf, rep.payload, rep.payload_len < max ? rep.payload_len : max);
	return (int64_t)rep.value0;
}

int64_t ss_dev_get_attr(struct ss_dev *d, uint64_t oid, const char *name, void *buf,
			size_t max)
{
	struct ss_pkt_req req = {.opcode = SS_OP_GET_ATTR, .oid = oid};
	struct attr_subject sj;
	int rc;

	ss_err_clear();
	rc = check_name("GET_ATTR", oid, name, &sj);
	if (rc)
		return rc;
	return get_bytes(d, &req, name, sj.s, buf, max);
}

int64_t ss_dev_list_attrs(struct ss_dev *d, uint64_t oid, char *buf, size_t max)
{
	struct ss_pkt_req req = {.opcode = SS_OP_LIST_ATTRS, .oid = oid};
	struct attr_subject sj;

	ss_err_clear();
	snprintf(sj.s, sizeof(sj.s), "oid %" PRIu64, oid);
	return get_bytes(d, &req, NULL, sj.s, buf, max);
}

int ss_dev_remove_attr(struct ss_dev *d, uint64_t oid, const char *name)
{
	struct ss_pkt_req req = {.opcode = SS_OP_REMOVE_ATTR, .oid = oid};
	struct ss_pkt_seg seg;
	struct ss_pkt_reply rep;
	struct attr_subject sj;
	int rc;

	ss_err_clear();
	rc = check_name("REMOVE_ATTR", oid, name, &sj);
	if (rc)
		return rc;
	seg = (struct ss_pkt_seg){name, strlen(name)};
	return ss_obj_exec(d, &req, &seg, 1, &rep, sj.s);
}
