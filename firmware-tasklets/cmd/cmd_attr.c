/*
 * Named attributes of an object (SET_ATTR, GET_ATTR, LIST_ATTRS, REMOVE_ATTR) over the
 * object store's ss_os_*_attr. A change is durable at the next FLUSH, as every namespace
 * change is.
 */
#include "cmd_internal.h"

_Static_assert(SS_ATTR_NAME_MAX == SS_OS_ATTR_NAME_MAX, "one name limit");
_Static_assert(SS_ATTRS_MAX == SS_OS_ATTRS_MAX, "one size limit");

static uint32_t name_check(uint64_t oid, uint64_t name_len)
{
	if (oid == SS_OID_NONE) {
		return SS_R_BAD_FIELD;
	}
	if (name_len == 0) {
		return SS_R_BAD_LENGTH;
	}
	return name_len > SS_ATTR_NAME_MAX ? SS_R_NAME_TOO_LONG : SS_R_OK;
}

uint32_t fw_attr_set_check(const struct fw_req *rq, uint32_t *cap)
{
	(void)cap;
	if ((rq->flags & SS_ATTR_CREATE) && (rq->flags & SS_ATTR_REPLACE)) {
		return SS_R_BAD_FIELD;
	}
	if (rq->length > rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return name_check(rq->oid, rq->length);
}

/* GET_ATTR and REMOVE_ATTR: the payload is the name. */
uint32_t fw_attr_name_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->opcode == SS_OP_GET_ATTR) {
		*cap = SS_MIN(rq->reply_max, SS_ATTRS_MAX);
	}
	return name_check(rq->oid, rq->payload_len);
}

uint32_t fw_attr_list_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	*cap = SS_MIN(rq->reply_max, SS_ATTRS_MAX);
	return rq->oid == SS_OID_NONE ? SS_R_BAD_FIELD : SS_R_OK;
}

static void attr_error(struct fw_rep *rep, int rc)
{
	fw_rep_error(rep, rc, rc == -SS_ENODATA ? SS_R_NO_SUCH_ATTR : 0);
}

void fw_attr_set(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t nl = (uint32_t)rq->length;
	unsigned flags = ((rq->flags & SS_ATTR_CREATE) ? SS_OS_ATTR_CREATE : 0) |
			 ((rq->flags & SS_ATTR_REPLACE) ? SS_OS_ATTR_REPLACE : 0);
	int rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT :
		 ss_os_set_attr(fw->os, rq->oid, (const char *)rq->payload, nl,
				rq->payload + nl, rq->payload_len - nl, flags);

	if (rc) {
		attr_error(rep, rc);
	}
}

void fw_attr_get(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT :
		 ss_os_get_attr(fw->os, rq->oid, (const char *)rq->payload, rq->payload_len,
				rep->payload, rep->cap);

	if (rc < 0) {
		attr_error(rep, rc);
		return;
	}
	rep->value[0] = (uint32_t)rc;
	rep->payload_len = SS_MIN((uint32_t)rc, rep->cap);
}

void fw_attr_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT :
		 ss_os_list_attrs(fw->os, rq->oid, (char *)rep->payload, rep->cap);

	if (rc < 0) {
		attr_error(rep, rc);
		return;
	}
	rep->value[0] = (uint32_t)rc;
	rep->payload_len = SS_MIN((uint32_t)rc, rep->cap);
}

void fw_attr_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT :
		 ss_os_remove_attr(fw->os, rq->oid, (const char *)rq->payload, rq->payload_len);

	if (rc) {
		attr_error(rep, rc);
	}
}
