/*
 * Namespace and object data opcodes (LOOKUP .. EXTENTS) onto the object store.
 */
#include "cmd_internal.h"

#define WIRE_STAT_SIZE ((uint32_t)sizeof(struct ss_wire_stat))
#define WIRE_DIRENT_SIZE ((uint32_t)sizeof(struct ss_wire_dirent))
#define WIRE_EXTENT_SIZE ((uint32_t)sizeof(struct ss_wire_extent))
#define KEEP_TIME UINT64_MAX

void fw_put_stat(uint8_t *p, const struct ss_obj_stat *st)
{
	uint32_t n = SS_MIN(st->name_len, SS_NAME_MAX);

	ss_memset(p, 0, WIRE_STAT_SIZE);
	ss_put_le64(p + offsetof(struct ss_wire_stat, oid), st->oid);
	ss_put_le64(p + offsetof(struct ss_wire_stat, parent), st->parent);
	ss_put_le32(p + offsetof(struct ss_wire_stat, type), st->type);
	ss_put_le32(p + offsetof(struct ss_wire_stat, nchildren), st->nchildren);
	ss_put_le64(p + offsetof(struct ss_wire_stat, size), st->size);
	ss_put_le64(p + offsetof(struct ss_wire_stat, ctime_ns), st->ctime_ns);
	ss_put_le64(p + offsetof(struct ss_wire_stat, mtime_ns), st->mtime_ns);
	ss_put_le64(p + offsetof(struct ss_wire_stat, atime_ns), st->atime_ns);
	ss_put_le64(p + offsetof(struct ss_wire_stat, page_writes), st->page_writes);
	ss_put_le32(p + offsetof(struct ss_wire_stat, extent_count), st->extent_count);
	ss_put_le16(p + offsetof(struct ss_wire_stat, name_len), (uint16_t)n);
	ss_memcpy(p + offsetof(struct ss_wire_stat, name), st->name, n);
}

/* Stat as the host sees it: the firmware's record and the eBPF programs' directory are not
 * among the root's children. */
static int stat_visible(struct ss_fw *fw, ss_oid_t oid, struct ss_obj_stat *st)
{
	int rc;

	if (fw_oid_hidden(fw, oid)) {
		return -SS_ENOENT;
	}
	rc = ss_os_stat(fw->os, oid, st);
	if (rc == 0 && oid == SS_OID_ROOT && fw->record_oid != SS_OID_NONE && st->nchildren) {
		st->nchildren--;
	}
	if (rc == 0 && oid == SS_OID_ROOT && fw_bpf_hidden_objects(fw) && st->nchildren) {
		st->nchildren--;   /* the programs' directory */
	}
	return rc;
}

/* A create that failed: -SS_ENOSPC is a full object table or a full drive. */
void fw_rep_create_error(struct ss_fw *fw, struct fw_rep *rep, int rc)
{
	struct ss_os_stats st;
	uint32_t reason = 0;

	if (rc == -SS_EINVAL) {
		reason = SS_R_BAD_PATH;
	} else if (rc == -SS_ENOSPC) {
		ss_os_get_stats(fw->os, &st);
		reason = st.objects >= st.max_objects ? SS_R_TOO_MANY_OBJECTS : SS_R_DRIVE_FULL;
	}
	fw_rep_error(rep, rc, reason);
}

static bool has_path(const struct fw_req *rq)
{
	return rq->payload_len > 0;
}

/* A path in the payload, or no payload and an oid. */
static uint32_t path_or_oid(const struct fw_req *rq)
{
	if (has_path(rq)) {
		return fw_path_check(rq->payload, rq->payload_len);
	}
	return rq->oid == SS_OID_NONE ? SS_R_BAD_PATH : SS_R_OK;
}

uint32_t fw_ns_lookup_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t r = fw_path_check(rq->payload, rq->payload_len);

	if (r) {
		return r;
	}
	if (rq->reply_max < WIRE_STAT_SIZE) {
		return SS_R_BAD_FIELD;
	}
	*cap = WIRE_STAT_SIZE;
	return SS_R_OK;
}

uint32_t fw_ns_create_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t r = fw_path_check(rq->payload, rq->payload_len);

	if (r) {
		return r;
	}
	if (rq->offset < SS_OBJ_FILE || rq->offset > SS_OBJ_OUTPUT) {
		return SS_R_BAD_FIELD;
	}
	return SS_R_OK;
}

uint32_t fw_ns_remove_check(const struct fw_req *rq, uint32_t *cap)
{
	return fw_path_check(rq->payload, rq->payload_len);
}

uint32_t fw_ns_stat_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t r = path_or_oid(rq);

	if (r) {
		return r;
	}
	if (rq->reply_max < WIRE_STAT_SIZE) {
		return SS_R_BAD_FIELD;
	}
	*cap = WIRE_STAT_SIZE;
	return SS_R_OK;
}

uint32_t fw_ns_list_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t r = path_or_oid(rq);

	if (r) {
		return r;
	}
	if (rq->reply_max < WIRE_DIRENT_SIZE) {
		return SS_R_BAD_FIELD;
	}
	*cap = SS_MIN(rq->reply_max / WIRE_DIRENT_SIZE, FW_LIST_MAX) * WIRE_DIRENT_SIZE;
	return SS_R_OK;
}

uint32_t fw_ns_rename_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t i = 0, r;

	while (i < rq->payload_len && rq->payload[i] != 0) {
		i++;
	}
	if (i == rq->payload_len) {
		return SS_R_BAD_PATH;
	}
	r = fw_path_check(rq->payload, i);
	return r ? r : fw_path_check(rq->payload + i + 1, rq->payload_len - i - 1);
}

uint32_t fw_ns_write_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->oid == SS_OID_NONE || rq->offset + rq->payload_len < rq->offset) {
		return SS_R_BAD_FIELD;
	}
	return SS_R_OK;
}

uint32_t fw_ns_read_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->oid == SS_OID_NONE || rq->payload_len || rq->length > rq->reply_max ||
	    rq->length > SS_PKT_MAX_PAYLOAD || rq->offset + rq->length < rq->offset) {
		return rq->payload_len ? SS_R_BAD_LENGTH : SS_R_BAD_FIELD;
	}
	*cap = (uint32_t)rq->length;
	return SS_R_OK;
}

/* TRUNCATE and SET_TIMES: an oid and header fields only. */
uint32_t fw_ns_oid_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return rq->oid == SS_OID_NONE ? SS_R_BAD_FIELD : SS_R_OK;
}

uint32_t fw_ns_extents_check(const struct fw_req *rq, uint32_t *cap)
{
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	if (rq->oid == SS_OID_NONE || rq->reply_max < WIRE_EXTENT_SIZE ||
	    rq->offset + rq->length < rq->offset) {
		return SS_R_BAD_FIELD;
	}
	*cap = SS_MIN(rq->reply_max / WIRE_EXTENT_SIZE, FW_EXTENTS_MAX) * WIRE_EXTENT_SIZE;
	return SS_R_OK;
}

void fw_ns_lookup(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ss_oid_t oid;
	int rc = fw_path_resolve(fw, rq->payload, rq->payload_len, &oid);

	if (rc == 0) {
		rc = stat_visible(fw, oid, &fw->st);
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	fw_put_stat(rep->payload, &fw->st);
	rep->payload_len = WIRE_STAT_SIZE;
	rep->value[0] = oid;
	rep->value[1] = fw->st.size;
	rep->value[2] = fw->st.type;
}

void fw_ns_create(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	const uint8_t *name;
	uint32_t name_len;
	ss_oid_t dir, oid;
	unsigned flags = (rq->flags & SS_CREATE_EXCL) ? SS_OS_EXCL : 0;
	int rc;

	rc = fw_path_parent(fw, rq->payload, rq->payload_len, rq->flags & SS_CREATE_PARENTS,
			    rq->now_ns, &dir, &name, &name_len);
	if (rc == -SS_EPERM) {
		/* "/": mkdir -p of the root succeeds, anything else exists already */
		if (rq->offset == SS_OBJ_DIR && !(rq->flags & SS_CREATE_EXCL)) {
			rep->value[0] = SS_OID_ROOT;
			return;
		}
		fw_rep_error(rep, -SS_EEXIST, SS_R_EXISTS);
		return;
	}
	if (rc == 0) {
		rc = ss_os_create(fw->os, dir, (const char *)name, name_len,
				  (enum ss_obj_type)rq->offset, flags, rq->now_ns, &oid);
	}
	if (rc) {
		fw_rep_create_error(fw, rep, rc);
		return;
	}
	rep->value[0] = oid;
}

void fw_ns_write(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc;

	bool ordered = (rq->flags & SS_WRITE_ORDERED) != 0;

	if (ordered && fw_reply_ordered_write_failed(fw, rq->tag, rq->oid)) {
		fw_rep_error(rep, -SS_ECANCELED, SS_R_CANCELED);
		rep->slot->failed_ordered_oid = rq->oid;   /* the pieces after this one stop too */
		return;
	}
	rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT
					: ss_os_write(fw->os, rq->oid, rq->offset, rq->payload,
						      rq->payload_len,
						      (rq->flags & SS_WRITE_FUA) ? SS_OS_FUA : 0,
						      rq->now_ns);
	if (rc) {
		fw_rep_error(rep, rc, 0);
		if (ordered) {
			rep->slot->failed_ordered_oid = rq->oid;
		}
		return;
	}
	fw->life.lbas_written += SS_DIV_ROUND_UP(rq->payload_len, SS_SECTOR);
	rep->value[0] = rq->payload_len;
}

void fw_ns_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t nread = 0;
	int rc;

	if (fw_oid_hidden(fw, rq->oid)) {
		fw_rep_error(rep, -SS_ENOENT, 0);
		return;
	}
	/* sequential reads are fetched ahead by the buffer (cmd_buffer.c) */
	rc = ss_os_read(fw->os, rq->oid, rq->offset, rep->payload, (uint32_t)rq->length, &nread);
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	nread = SS_MIN(nread, (uint32_t)rq->length);
	fw->life.lbas_read += SS_DIV_ROUND_UP(nread, SS_SECTOR);
	rep->payload_len = nread;
	rep->value[0] = nread;
}

void fw_ns_truncate(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	int rc = fw_oid_hidden(fw, rq->oid) ? -SS_ENOENT :
		 ss_os_truncate(fw->os, rq->oid, rq->length, rq->now_ns);

	if (rc) {
		fw_rep_error(rep, rc, 0);
	}
}

/* Post-order removal without recursion: descend to a leaf, remove it, climb back. */
static int remove_tree(struct ss_fw *fw, ss_oid_t top)
{
	ss_oid_t cur = top;
	int rc;

	for (;;) {
		uint64_t cursor = 0;

		rc = ss_os_stat(fw->os, cur, &fw->st);
		if (rc) {
			return rc;
		}
		if (fw->st.type == SS_OBJ_DIR) {
			rc = ss_os_list(fw->os, cur, &cursor, fw->dirents, 1);
			if (rc < 0) {
				return rc;
			}
			if (rc == 1) {
				cur = fw->dirents[0].oid;
				continue;
			}
		}
		ss_oid_t parent = fw->st.parent;

		rc = ss_os_remove(fw->os, cur);
		if (rc) {
			return rc;
		}
		if (cur == top) {
			return 0;
		}
		cur = parent;
	}
}

void fw_ns_remove(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ss_oid_t oid;
	int rc;

	if (rq->payload_len == 1) {
		fw_rep_error(rep, -SS_EBUSY, SS_R_ROOT);
		return;
	}
	rc = fw_path_resolve(fw, rq->payload, rq->payload_len, &oid);
	if (rc == 0) {
		rc = (rq->flags & SS_REMOVE_RECURSIVE) ? remove_tree(fw, oid) :
							 ss_os_remove(fw->os, oid);
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	rep->value[0] = oid;
}

static bool path_below(const uint8_t *dst, uint32_t dst_len, const uint8_t *src,
		       uint32_t src_len)
{
	return dst_len > src_len && dst[src_len] == '/' && ss_memcmp(dst, src, src_len) == 0;
}

void fw_ns_rename(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t src_len = 0;
	const uint8_t *dst, *name;
	uint32_t dst_len, name_len;
	ss_oid_t oid, dir;
	int rc;

	while (rq->payload[src_len] != 0) {
		src_len++;
	}
	dst = rq->payload + src_len + 1;
	dst_len = rq->payload_len - src_len - 1;
	if (src_len == 1 || dst_len == 1) {
		fw_rep_error(rep, -SS_EBUSY, SS_R_ROOT);
		return;
	}
	if (path_below(dst, dst_len, rq->payload, src_len)) {
		fw_rep_error(rep, -SS_EINVAL, SS_R_RENAME_INTO_SELF);
		return;
	}
	rc = fw_path_resolve(fw, rq->payload, src_len, &oid);
	if (rc == 0) {
		rc = fw_path_parent(fw, dst, dst_len, false, 0, &dir, &name, &name_len);
	}
	if (rc == 0) {
		rc = ss_os_rename(fw->os, oid, dir, (const char *)name, name_len,
				  (rq->flags & SS_RENAME_NOREPLACE) ? SS_OS_NOREPLACE : 0,
				  rq->now_ns);
	}
	if (rc) {
		fw_rep_error(rep, rc, rc == -SS_EINVAL ? SS_R_RENAME_INTO_SELF : 0);
		return;
	}
	rep->value[0] = oid;
}

static int target_oid(struct ss_fw *fw, const struct fw_req *rq, ss_oid_t *oid)
{
	if (has_path(rq)) {
		return fw_path_resolve(fw, rq->payload, rq->payload_len, oid);
	}
	*oid = rq->oid;
	return 0;
}

void fw_ns_stat(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	ss_oid_t oid;
	int rc = target_oid(fw, rq, &oid);

	if (rc == 0) {
		rc = stat_visible(fw, oid, &fw->st);
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	fw_put_stat(rep->payload, &fw->st);
	rep->payload_len = WIRE_STAT_SIZE;
	rep->value[0] = oid;
	rep->value[1] = fw->st.size;
	rep->value[2] = fw->st.type;
}

void fw_ns_list(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t max = rep->cap / WIRE_DIRENT_SIZE;
	uint64_t cursor = rq->offset;
	uint32_t n = 0;
	bool end = false;
	ss_oid_t dir;
	int rc = target_oid(fw, rq, &dir);

	if (rc == 0 && fw_oid_hidden(fw, dir)) {
		rc = -SS_ENOENT;
	}
	while (rc == 0 && n < max && !end) {
		uint32_t want = SS_MIN(FW_LIST_BATCH, max - n);

		rc = ss_os_list(fw->os, dir, &cursor, fw->dirents, want);
		if (rc < 0) {
			break;
		}
		end = (uint32_t)rc < want;
		for (int i = 0; i < rc; i++) {
			const struct ss_dirent *d = &fw->dirents[i];
			uint8_t *p = rep->payload + n * WIRE_DIRENT_SIZE;
			uint16_t nl = (uint16_t)SS_MIN(d->name_len, SS_NAME_MAX);

			if (fw_oid_hidden(fw, d->oid)) {
				continue;
			}
			ss_memset(p, 0, WIRE_DIRENT_SIZE);
			ss_put_le64(p + offsetof(struct ss_wire_dirent, oid), d->oid);
			ss_put_le32(p + offsetof(struct ss_wire_dirent, type), d->type);
			ss_put_le16(p + offsetof(struct ss_wire_dirent, name_len), nl);
			ss_memcpy(p + offsetof(struct ss_wire_dirent, name), d->name, nl);
			n++;
		}
		rc = 0;
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
		return;
	}
	rep->payload_len = n * WIRE_DIRENT_SIZE;
	rep->value[0] = end ? 0 : cursor;
	rep->value[1] = n;
}

void fw_ns_set_times(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint64_t mtime = rq->offset, atime = rq->length;
	int rc = stat_visible(fw, rq->oid, &fw->st);

	if (rc == 0) {
		rc = ss_os_set_times(fw->os, rq->oid, mtime == KEEP_TIME ? fw->st.mtime_ns : mtime,
				     atime == KEEP_TIME ? fw->st.atime_ns : atime);
	}
	if (rc) {
		fw_rep_error(rep, rc, 0);
	}
}

void fw_ns_extents(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t max = rep->cap / WIRE_EXTENT_SIZE;
	uint32_t spp = fw->sectors_per_page;
	uint32_t n = 0;
	int got;

	if (fw_oid_hidden(fw, rq->oid)) {
		fw_rep_error(rep, -SS_ENOENT, 0);
		return;
	}
	got = ss_os_extents(fw->os, rq->oid, rq->offset, rq->length, fw->extents, max);
	if (got < 0) {
		fw_rep_error(rep, got, 0);
		return;
	}
	for (int i = 0; i < got && (uint32_t)i < max; i++) {
		uint8_t *p = rep->payload + n * WIRE_EXTENT_SIZE;
		uint64_t sectors = (uint64_t)fw->extents[i].pages * spp;

		ss_memset(p, 0, WIRE_EXTENT_SIZE);
		ss_put_le64(p + offsetof(struct ss_wire_extent, offset), fw->extents[i].offset);
		ss_put_le64(p + offsetof(struct ss_wire_extent, lba),
			    (uint64_t)fw->extents[i].lpn * spp);
		ss_put_le32(p + offsetof(struct ss_wire_extent, sectors),
			    sectors > UINT32_MAX ? UINT32_MAX : (uint32_t)sectors);
		n++;
	}
	rep->payload_len = n * WIRE_EXTENT_SIZE;
	rep->value[0] = n;
}
