/*
 * Named attributes: every (name, value) pair of an object in one metadata page.
 *
 * Attribute page (little-endian):
 *   0 magic u32 "OSXA" | 4 crc32c u32 over [8, page_size) | 8 oid u64 | 16 count u32
 *   20 bytes u32 (of the entries) | 24 entries: name_len u8, value_len u16, name, value
 * Pages are never changed in place: a change writes the whole new set to a new page, then
 * journals the record pointing at it, and the old page is freed once that is durable (as
 * extent-tree nodes are), so a crash recovers the old set or the new one.
 */
#include "objstore_internal.h"

#define ATTR_HDR 24u
#define ATTR_ENT_HDR 3u

_Static_assert(ATTR_HDR + SS_OS_ATTRS_MAX <= OS_MIN_PAGE, "an attribute set fits the smallest page");

int os_attr_read(struct ss_objstore *os, const struct os_rec *r, uint8_t *buf)
{
	uint32_t lpn = r->attr_lpn, count, bytes, off = 0;
	int rc;

	if (lpn < os->data_first || lpn - os->data_first >= os->data_pages) {
		return -SS_EBADMSG;
	}
	rc = ss_ftl_read(os->ftl, lpn, buf);
	if (rc < 0) {
		return rc;
	}
	count = ss_get_le32(buf + 16);
	bytes = ss_get_le32(buf + 20);
	if (rc == 1 || ss_get_le32(buf) != OS_MAGIC_ATTR ||
	    ss_get_le32(buf + 4) != ss_crc32c(0, buf + 8, os->page_size - 8) ||
	    ss_get_le64(buf + 8) != r->oid || count == 0 || bytes > SS_OS_ATTRS_MAX) {
		return -SS_EBADMSG;
	}
	for (uint32_t i = 0; i < count; i++) {
		if (bytes - off < ATTR_ENT_HDR) {
			return -SS_EBADMSG;
		}
		uint32_t nl = buf[ATTR_HDR + off], vl = ss_get_le16(buf + ATTR_HDR + off + 1);

		if (nl == 0 || bytes - off - ATTR_ENT_HDR < nl + vl) {
			return -SS_EBADMSG;
		}
		off += ATTR_ENT_HDR + nl + vl;
	}
	return off == bytes ? 0 : -SS_EBADMSG;
}

static bool has_nul(const char *s, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		if (s[i] == '\0') {
			return true;
		}
	}
	return false;
}

/* Object and name checks shared by every operation; *buf holds the set (count 0: none). */
static int attr_load(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		     uint32_t *slot)
{
	uint32_t s = os_slot(os, oid);
	int rc;

	if (s == 0) {
		return -SS_ENOENT;
	}
	if (name != NULL) {
		if (name_len == 0 || has_nul(name, name_len)) {
			return -SS_EINVAL;
		}
		if (name_len > SS_OS_ATTR_NAME_MAX) {
			return -SS_ENAMETOOLONG;
		}
	}
	*slot = s;
	if (os->recs[s].attr_lpn == 0) {
		ss_memset(os->iobuf, 0, ATTR_HDR);
		return 0;
	}
	rc = os_attr_read(os, &os->recs[s], os->iobuf);
	return rc;
}

/* Offset of the entry called `name` in the loaded set, or -SS_ENODATA. */
static int64_t attr_find(const uint8_t *buf, const char *name, uint32_t name_len)
{
	uint32_t count = ss_get_le32(buf + 16), off = 0;

	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = buf + ATTR_HDR + off;
		uint32_t nl = e[0], vl = ss_get_le16(e + 1);

		if (nl == name_len && ss_memcmp(e + ATTR_ENT_HDR, name, nl) == 0) {
			return off;
		}
		off += ATTR_ENT_HDR + nl + vl;
	}
	return -SS_ENODATA;
}

/* Load the set and find `name` in it: *off is its entry's offset. */
static int attr_entry(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		      uint32_t *slot, uint32_t *off)
{
	int rc = attr_load(os, oid, name, name_len, slot);
	int64_t at;

	if (rc) {
		return rc;
	}
	at = attr_find(os->iobuf, name, name_len);
	if (at < 0) {
		return (int)at;
	}
	*off = (uint32_t)at;
	return 0;
}

/* Write the set in iobuf to a new page (none when it is empty) and journal slot s over it. */
static int attr_store(struct ss_objstore *os, uint32_t s)
{
	struct os_rec *r = &os->recs[s];
	uint32_t count = ss_get_le32(os->iobuf + 16), bytes = ss_get_le32(os->iobuf + 20);
	uint32_t lpn = 0;
	int rc = os_jrnl_reserve(os, 1);

	if (rc) {
		return rc;
	}
	if (count != 0) {
		rc = os_alloc_one(os, &lpn);
		if (rc) {
			return rc;
		}
		ss_memset(os->iobuf + ATTR_HDR + bytes, 0, os->page_size - ATTR_HDR - bytes);
		ss_put_le32(os->iobuf, OS_MAGIC_ATTR);
		ss_put_le64(os->iobuf + 8, r->oid);
		ss_put_le32(os->iobuf + 4, ss_crc32c(0, os->iobuf + 8, os->page_size - 8));
		rc = os_meta_write(os, lpn, os->iobuf);
		if (rc) {
			os_alloc_pend(os, lpn, 1);
			return rc;
		}
		os->data_dirty = true;
	}
	if (r->attr_lpn != 0) {
		os_alloc_pend(os, r->attr_lpn, 1);
	}
	r->attr_lpn = lpn;
	os_jrnl_add(os, s);
	return 0;
}

/* Cut the entry at `off` out of the set in iobuf. */
static void attr_cut(uint8_t *buf, uint32_t off)
{
	uint32_t bytes = ss_get_le32(buf + 20);
	uint8_t *e = buf + ATTR_HDR + off;
	uint32_t len = ATTR_ENT_HDR + e[0] + ss_get_le16(e + 1);

	ss_memmove(e, e + len, bytes - off - len);
	ss_put_le32(buf + 16, ss_get_le32(buf + 16) - 1);
	ss_put_le32(buf + 20, bytes - len);
}

int ss_os_set_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		   const void *value, uint32_t value_len, unsigned flags)
{
	uint32_t s, bytes, old_len = 0;
	int64_t off;
	int rc = attr_load(os, oid, name, name_len, &s);

	if (rc) {
		return rc;
	}
	if (value == NULL && value_len != 0) {
		return -SS_EINVAL;
	}
	off = attr_find(os->iobuf, name, name_len);
	if (off >= 0 && (flags & SS_OS_ATTR_CREATE)) {
		return -SS_EEXIST;
	}
	if (off < 0 && (flags & SS_OS_ATTR_REPLACE)) {
		return -SS_ENODATA;
	}
	if (off >= 0) {
		const uint8_t *e = os->iobuf + ATTR_HDR + off;

		old_len = ATTR_ENT_HDR + e[0] + ss_get_le16(e + 1);
	}
	bytes = ss_get_le32(os->iobuf + 20);
	if ((uint64_t)bytes - old_len + ATTR_ENT_HDR + name_len + value_len > SS_OS_ATTRS_MAX) {
		return -SS_E2BIG;
	}
	if (off >= 0) {
		attr_cut(os->iobuf, (uint32_t)off);
		bytes -= old_len;
	}
	uint8_t *e = os->iobuf + ATTR_HDR + bytes;

	e[0] = (uint8_t)name_len;
	ss_put_le16(e + 1, (uint16_t)value_len);
	ss_memcpy(e + ATTR_ENT_HDR, name, name_len);
	if (value_len != 0) {
		ss_memcpy(e + ATTR_ENT_HDR + name_len, value, value_len);
	}
	ss_put_le32(os->iobuf + 16, ss_get_le32(os->iobuf + 16) + 1);
	ss_put_le32(os->iobuf + 20, bytes + ATTR_ENT_HDR + name_len + value_len);
	return attr_store(os, s);
}

int ss_os_get_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		   void *buf, uint32_t max)
{
	uint32_t s, off = 0;   /* set by attr_entry when it returns 0 */
	int rc = attr_entry(os, oid, name, name_len, &s, &off);

	if (rc) {
		return rc;
	}
	const uint8_t *e = os->iobuf + ATTR_HDR + off;
	uint32_t vl = ss_get_le16(e + 1);

	if (buf != NULL && max != 0) {
		ss_memcpy(buf, e + ATTR_ENT_HDR + e[0], SS_MIN(vl, max));
	}
	return (int)vl;
}

int ss_os_list_attrs(struct ss_objstore *os, ss_oid_t oid, char *buf, uint32_t max)
{
	uint32_t s, count, off = 0, out = 0;
	int rc = attr_load(os, oid, NULL, 0, &s);

	if (rc) {
		return rc;
	}
	count = ss_get_le32(os->iobuf + 16);
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = os->iobuf + ATTR_HDR + off;
		uint32_t nl = e[0];

		for (uint32_t k = 0; k <= nl; k++, out++) {
			if (buf != NULL && out < max) {
				buf[out] = k < nl ? (char)e[ATTR_ENT_HDR + k] : '\0';
			}
		}
		off += ATTR_ENT_HDR + nl + ss_get_le16(e + 1);
	}
	return (int)out;
}

int ss_os_remove_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len)
{
	uint32_t s, off = 0;   /* set by attr_entry when it returns 0 */
	int rc = attr_entry(os, oid, name, name_len, &s, &off);

	if (rc) {
		return rc;
	}
	attr_cut(os->iobuf, off);
	return attr_store(os, s);
}
