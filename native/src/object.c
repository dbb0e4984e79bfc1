/*
 * Namespace and object data commands (SS_OP_LOOKUP .. SS_OP_EXTENTS).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"
#include "errinfo.h"

/* Largest data chunk of one WRITE/READ command. */
#define DATA_CHUNK (1u << 20)
#define PATH_MAX_BYTES 4096

struct subject {
	char s[64];
};

static const char *oid_subject(struct subject *s, uint64_t oid)
{
	snprintf(s->s, sizeof(s->s), "oid %" PRIu64, oid);
	return s->s;
}

static int check_path(const char *what, const char *path)
{
	if (!path)
		return ss_err(-EINVAL, 0, "%s: NULL path", what);
	if (strnlen(path, PATH_MAX_BYTES + 1) > PATH_MAX_BYTES)
		return ss_err(-ENAMETOOLONG, SS_R_NAME_TOO_LONG, "%s: path longer than %d bytes",
			      what, PATH_MAX_BYTES);
	return 0;
}

static struct ss_pkt_seg path_seg(const char *path)
{
	struct ss_pkt_seg s = {path, strlen(path)};

	return s;
}

/* A request whose one payload segment is a path checked by check_path. */
static int path_exec(struct ss_dev *d, const struct ss_pkt_req *req, const char *path,
		     struct ss_pkt_reply *rep)
{
	struct ss_pkt_seg seg = path_seg(path);

	return ss_obj_exec(d, req, &seg, 1, rep, path);
}

static void copy_name(char *dst, const uint8_t *src, uint16_t len)
{
	if (len > SS_DEV_NAME_MAX)
		len = SS_DEV_NAME_MAX;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

_Static_assert(sizeof(((struct ss_dev_stat *)0)->name) == SS_DEV_NAME_MAX + 1,
	       "a stat's name holds the longest name");

static int decode_stat(const struct ss_pkt_reply *rep, struct ss_dev_stat *out)
{
	const uint8_t *p = rep->payload;
	uint16_t name_len;

	if (rep->payload_len < sizeof(struct ss_wire_stat))
		return ss_err(-EPROTO, 0, "stat reply of %u bytes is short", rep->payload_len);
	name_len = SS_WIRE16(p, ss_wire_stat, name_len);
	if (name_len > SS_DEV_NAME_MAX)
		return ss_err(-EPROTO, 0, "stat reply name_len %u too long", name_len);
	if (!out)
		return 0;
	SS_REPLY_STAT(SS_DECODE, ss_wire_stat)
	return 0;
}

int ss_dev_lookup(struct ss_dev *d, const char *path, struct ss_dev_stat *st)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_LOOKUP,
		.reply_max = sizeof(struct ss_wire_stat),
	};
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = check_path("lookup", path);
	if (rc)
		return rc;
	rc = path_exec(d, &req, path, &rep);
	if (rc)
		return rc;
	return decode_stat(&rep, st);
}

int ss_dev_stat(struct ss_dev *d, uint64_t oid, struct ss_dev_stat *st)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_STAT,
		.oid = oid,
		.reply_max = sizeof(struct ss_wire_stat),
	};
	struct ss_pkt_reply rep;
	struct subject sj;
	int rc;

	ss_err_clear();
	if (!oid)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "stat: oid 0 names no object");
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, oid_subject(&sj, oid));
	if (rc)
		return rc;
	return decode_stat(&rep, st);
}

int ss_dev_create(struct ss_dev *d, const char *path, uint32_t type, uint32_t flags,
		  uint64_t *oid)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_CREATE,
		.flags = flags,
		.offset = type,
	};
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = check_path("create", path);
	if (rc)
		return rc;
	if (flags & ~(SS_DEV_CREATE_EXCL | SS_DEV_CREATE_PARENTS))
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "create %s: unknown flags 0x%x", path,
			      flags);
	rc = path_exec(d, &req, path, &rep);
	if (rc)
		return rc;
	if (oid)
		*oid = rep.value0;
	return 0;
}

int ss_check_write_args(const void *buf, size_t len, uint64_t offset)
{
	if (!buf && len)
		return ss_err(-EINVAL, 0, "write: NULL buffer");
	if (len > INT64_MAX || offset + len < offset)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "write: offset+length overflows");
	return 0;
}

int64_t ss_dev_write(struct ss_dev *d, uint64_t oid, uint64_t offset, const void *buf,
		     size_t len, uint32_t flags)
{
	struct ss_pkt_reply rep;
	struct subject sj;
	size_t done = 0;
	int rc;

	ss_err_clear();
	rc = ss_check_write_args(buf, len, offset);
	if (rc < 0)
		return rc;
	oid_subject(&sj, oid);
	do {
		size_t n = len - done < DATA_CHUNK ? len - done : DATA_CHUNK;
		struct ss_pkt_req req = {
			.opcode = SS_OP_WRITE,
			.oid = oid,
			.offset = offset + done,
			.length = n,
			.flags = flags,
		};
		struct ss_pkt_seg seg = {(const uint8_t *)buf + done, n};

		rc = ss_obj_exec(d, &req, &seg, 1, &rep, sj.s);
		if (rc)
			return rc;
		done += n;
	} while (done < len);
	return (int64_t)done;
}

int64_t ss_dev_read(struct ss_dev *d, uint64_t oid, uint64_t offset, void *buf, size_t len)
{
	struct ss_pkt_reply rep;
	struct subject sj;
	size_t done = 0;
	int rc;

	ss_err_clear();
	if (!buf && len)
		return ss_err(-EINVAL, 0, "read: NULL buffer");
	if (len > INT64_MAX)
		return ss_err(-EINVAL, SS_R_BAD_FIELD, "read: length too large");
	oid_subject(&sj, oid);
	while (done < len) {
		size_t n = len - done < DATA_CHUNK ? len - done : DATA_CHUNK;
		struct ss_pkt_req req = {
			.opcode = SS_OP_READ,
			.oid = oid,
			.offset = offset + done,
			.length = n,
			.reply_max = (uint32_t)n,
		};

		rc = ss_obj_exec(d, &req, NULL, 0, &rep, sj.s);
		if (rc)
			return rc;
		if (rep.payload_len > n)
			return ss_err(-EPROTO, 0, "READ %s: %u bytes returned for %zu asked",
				      sj.s, rep.payload_len, n);
		memcpy((uint8_t *)buf + done, rep.payload, rep.payload_len);
		done += rep.payload_len;
		if (rep.payload_len < n)
			break;
	}
	return (int64_t)done;
}

int ss_dev_truncate(struct ss_dev *d, uint64_t oid, uint64_t size)
{
	struct ss_pkt_req req = {.opcode = SS_OP_TRUNCATE, .oid = oid, .length = size};
	struct ss_pkt_reply rep;
	struct subject sj;

	ss_err_clear();
	return ss_obj_exec(d, &req, NULL, 0, &rep, oid_subject(&sj, oid));
}

int ss_dev_remove(struct ss_dev *d, const char *path, uint32_t flags)
{
	struct ss_pkt_req req = {.opcode = SS_OP_REMOVE, .flags = flags};
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = check_path("remove", path);
	if (rc)
		return rc;
	return path_exec(d, &req, path, &rep);
}

int ss_dev_rename(struct ss_dev *d, const char *src, const char *dst, uint32_t flags)
{
	struct ss_pkt_req req = {.opcode = SS_OP_RENAME, .flags = flags};
	struct ss_pkt_seg segs[2];
	struct ss_pkt_reply rep;
	int rc;

	ss_err_clear();
	rc = check_path("rename", src);
	if (!rc)
		rc = check_path("rename", dst);
	if (rc)
		return rc;
	segs[0].data = src;
	segs[0].len = strlen(src) + 1; /* with its NUL: the separator */
	segs[1] = path_seg(dst);
	return ss_obj_exec(d, &req, segs, 2, &rep, src);
}

int ss_dev_list(struct ss_dev *d, const char *path, uint64_t *cursor,
		struct ss_dev_dirent *ents, uint32_t max)
{
	const uint32_t esz = sizeof(struct ss_wire_dirent);
	struct ss_pkt_req req = {.opcode = SS_OP_LIST};
	struct ss_pkt_reply rep;
	uint32_t n;
	int rc;

	ss_err_clear();
	rc = check_path("list", path);
	if (rc)
		return rc;
	if (!cursor || (!ents && max))
		return ss_err(-EINVAL, 0, "list %s: NULL cursor or entries", path);
	if (max == 0)
		return ss_err(-EINVAL, 0, "list %s: room for no entries", path);
	if (max > SS_PKT_MAX_PAYLOAD / esz)
		max = SS_PKT_MAX_PAYLOAD / esz;
	req.offset = *cursor;
	req.reply_max = max * esz;
	rc = path_exec(d, &req, path, &rep);
	if (rc)
		return rc;
	if (rep.payload_len % esz || rep.payload_len / esz > max)
		return ss_err(-EPROTO, 0, "LIST %s: reply of %u bytes is not whole entries",
			      path, rep.payload_len);
	n = rep.payload_len / esz;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = rep.payload + (size_t)i * esz;
		uint16_t nl = SS_WIRE16(p, ss_wire_dirent, name_len);

		if (nl > SS_DEV_NAME_MAX)
			return ss_err(-EPROTO, 0, "LIST %s: entry name_len %u", path, nl);
		ents[i].oid = SS_WIRE64(p, ss_wire_dirent, oid);
		ents[i].type = SS_WIRE32(p, ss_wire_dirent, type);
		copy_name(ents[i].name, p + offsetof(struct ss_wire_dirent, name), nl);
	}
	*cursor = rep.value0;
	return (int)n;
}

int ss_dev_set_times(struct ss_dev *d, uint64_t oid, uint64_t mtime_ns, uint64_t atime_ns)
{
	struct ss_pkt_req req = {
		.opcode = SS_OP_SET_TIMES,
		.oid = oid,
		.offset = mtime_ns,
		.length = atime_ns,
	};
	struct ss_pkt_reply rep;
	struct subject sj;

	ss_err_clear();
	return ss_obj_exec(d, &req, NULL, 0, &rep, oid_subject(&sj, oid));
}

int ss_dev_extents(struct ss_dev *d, uint64_t oid, uint64_t offset, uint64_t len,
		   struct ss_dev_extent *ext, uint32_t max)
{
	const uint32_t esz = sizeof(struct ss_wire_extent);
	struct ss_pkt_req req = {
		.opcode = SS_OP_EXTENTS,
		.oid = oid,
		.offset = offset,
		.length = len,
	};
	struct ss_pkt_reply rep;
	struct subject sj;
	uint32_t n;
	int rc;

	ss_err_clear();
	if (!ext || !max)
		return ss_err(-EINVAL, 0, "extents: room for no extents");
	if (max > SS_PKT_MAX_PAYLOAD / esz)
		max = SS_PKT_MAX_PAYLOAD / esz;
	req.reply_max = max * esz;
	rc = ss_obj_exec(d, &req, NULL, 0, &rep, oid_subject(&sj, oid));
	if (rc)
		return rc;
	if (rep.payload_len % esz || rep.payload_len / esz > max)
		return ss_err(-EPROTO, 0, "EXTENTS %s: reply of %u bytes is not whole extents",
			      sj.s, rep.payload_len);
	n = rep.payload_len / esz;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = rep.payload + (size_t)i * esz;

		ext[i].offset = SS_WIRE64(p, ss_wire_extent, offset);
		ext[i].lba = SS_WIRE64(p, ss_wire_extent, lba);
		ext[i].sectors = SS_WIRE32(p, ss_wire_extent, sectors);
	}
	return (int)n;
}
