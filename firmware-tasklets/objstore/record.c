/*
 * Object records: the variable area and the 512-byte on-flash encoding shared by table
 * pages and journal pages.
 *
 * Encoded record (little-endian):
 *   0 magic u32 | 4 crc32c u32 over [8, 512) | 8 slot u32 | 12 type u8 | 13 flags u8
 *   14 name_len u16 | 16 nextents u16 | 18 depth u8 | 19 pad u8 | 20 attr_lpn u32 | 24 oid | 32 parent | 40 size
 *   48 ctime | 56 mtime | 64 atime | 72 page_writes | 80 var[432]
 * A free slot is all zeros in a table page; in the journal it is an ODEL image.
 */
#include "objstore_internal.h"

uint32_t os_rec_inline_cap(uint32_t name_len)
{
	return OS_REC_VAR - os_align4(name_len);
}

uint32_t os_rec_max_extents(uint32_t name_len)
{
	return os_rec_inline_cap(name_len) / OS_EXT_SIZE;
}

void os_rec_set_name(struct os_rec *r, const char *name, uint32_t len)
{
	ss_memcpy(r->var, name, len);
	r->name_len = (uint16_t)len;
}

uint32_t os_rec_root_cap(const struct ss_objstore *os, const struct os_rec *r)
{
	uint32_t cap = os_rec_max_extents(r->name_len);

	return os->root_limit != 0 && os->root_limit < cap ? os->root_limit : cap;
}

uint8_t *os_rec_inline(const struct os_rec *r)
{
	return (uint8_t *)r->var + os_align4(r->name_len);
}

void os_rec_ext_get(const struct os_rec *r, uint32_t i, uint32_t *lpn, uint32_t *pages)
{
	const uint8_t *p = r->var + os_align4(r->name_len) + i * OS_EXT_SIZE;

	*lpn = ss_get_le32(p);
	*pages = ss_get_le32(p + 4);
}

void os_rec_ext_set(struct os_rec *r, uint32_t i, uint32_t lpn, uint32_t pages)
{
	uint8_t *p = r->var + os_align4(r->name_len) + i * OS_EXT_SIZE;

	ss_put_le32(p, lpn);
	ss_put_le32(p + 4, pages);
}

uint64_t os_rec_pages(const struct os_rec *r)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < r->nextents; i++) {
		uint32_t lpn, pages;

		os_rec_ext_get(r, i, &lpn, &pages);
		n += pages;
	}
	return n;
}

static void put_u64s(uint8_t *p, const struct os_rec *r)
{
	ss_put_le64(p + 24, r->oid);
	ss_put_le64(p + 32, r->parent);
	ss_put_le64(p + 40, r->size);
	ss_put_le64(p + 48, r->ctime);
	ss_put_le64(p + 56, r->mtime);
	ss_put_le64(p + 64, r->atime);
	ss_put_le64(p + 72, r->page_writes);
}

static void seal(uint8_t *out, uint32_t magic, uint32_t slot)
{
	ss_put_le32(out, magic);
	ss_put_le32(out + 8, slot);
	ss_put_le32(out + 4, ss_crc32c(0, out + 8, OS_UNIT - 8));
}

void os_rec_encode(const struct os_rec *r, uint32_t slot, uint8_t *out)
{
	ss_memset(out, 0, OS_REC_HDR);
	out[12] = r->type;
	out[13] = r->flags;
	ss_put_le16(out + 14, r->name_len);
	ss_put_le16(out + 16, r->nextents);
	out[18] = r->depth;
	ss_put_le32(out + 20, r->attr_lpn);
	put_u64s(out, r);
	ss_memcpy(out + OS_REC_HDR, r->var, OS_REC_VAR);
	seal(out, OS_MAGIC_REC, slot);
}

void os_rec_encode_free(uint32_t slot, ss_oid_t oid, uint8_t *out)
{
	ss_memset(out, 0, OS_UNIT);
	ss_put_le64(out + 24, oid);
	seal(out, OS_MAGIC_DEL, slot);
}

static bool all_zero(const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (p[i]) {
			return false;
		}
	}
	return true;
}

int os_rec_decode(const uint8_t *in, struct os_rec *r, uint32_t *slot)
{
	uint32_t magic = ss_get_le32(in);

	if (magic == 0 && all_zero(in, OS_UNIT)) {
		*slot = OS_NOSLOT;
		return 0;
	}
	if ((magic != OS_MAGIC_REC && magic != OS_MAGIC_DEL) ||
	    ss_get_le32(in + 4) != ss_crc32c(0, in + 8, OS_UNIT - 8)) {
		return -SS_EBADMSG;
	}
	*slot = ss_get_le32(in + 8);
	ss_memset(r, 0, sizeof(*r));
	r->oid = ss_get_le64(in + 24);
	if (magic == OS_MAGIC_DEL) {
		return 0;
	}
	r->type = in[12];
	r->flags = in[13];
	r->name_len = ss_get_le16(in + 14);
	r->nextents = ss_get_le16(in + 16);
	r->depth = in[18];
	r->attr_lpn = ss_get_le32(in + 20);
	r->parent = ss_get_le64(in + 32);
	r->size = ss_get_le64(in + 40);
	r->ctime = ss_get_le64(in + 48);
	r->mtime = ss_get_le64(in + 56);
	r->atime = ss_get_le64(in + 64);
	r->page_writes = ss_get_le64(in + 72);
	ss_memcpy(r->var, in + OS_REC_HDR, OS_REC_VAR);
	if (r->type < SS_OBJ_FILE || r->type > SS_OBJ_OUTPUT || r->name_len > SS_NAME_MAX ||
	    r->nextents > os_rec_max_extents(r->name_len) || r->depth > OS_XT_MAXDEPTH ||
	    (r->depth != 0 && r->nextents == 0) ||
	    (r->nextents == 0 && r->size > os_rec_inline_cap(r->name_len))) {
		return -SS_EBADMSG;
	}
	return 1;
}
