/*
 * Object data: small objects packed inline in their record, larger ones in extents of
 * logical pages written through the FTL (read-modify-write for partial pages), found
 * through the object's extent tree (extent.c).
 *
 * Placement: output objects and rewrites of existing pages go to the hot stream, first
 * writes of file data to the cold stream. A change builds the new record in a scratch copy
 * and installs it only once every page is written, so a failure leaves the object as it
 * was; pages it had already written go to the pending list, never straight to reuse.
 */
#include "objstore_internal.h"

static uint64_t max_bytes(const struct ss_objstore *os)
{
	return (uint64_t)os->data_pages * os->page_size;
}

static int ensure_space(struct ss_objstore *os, uint32_t need)
{
	int rc;

	if (need <= os_alloc_available(os)) {
		return 0;
	}
	if (os->npending != 0) {
		rc = ss_os_flush(os);   /* freed pages become reusable once durable */
		if (rc) {
			return rc;
		}
	}
	return need <= os_alloc_available(os) ? 0 : -SS_ENOSPC;
}

/* Page `pg` of the object as recorded in `old`, zero past its size. */
static int old_page(struct ss_objstore *os, const struct os_rec *old, uint64_t pg, uint8_t *buf)
{
	uint64_t pstart = pg * os->page_size;
	uint32_t lpn, valid;
	int rc;

	ss_memset(buf, 0, os->page_size);
	if (old->nextents == 0) {
		if (pg == 0) {
			ss_memcpy(buf, os_rec_inline(old), (size_t)old->size);
		}
		return 0;
	}
	rc = os_xt_lpn(os, old, pg, &lpn);
	if (rc) {
		return rc;
	}
	if (lpn == OS_NOSLOT) {
		return 0;
	}
	rc = os_io_read(os, lpn, buf);
	if (rc < 0) {
		return rc;
	}
	if (old->size < pstart + os->page_size) {
		valid = old->size > pstart ? (uint32_t)(old->size - pstart) : 0;
		ss_memset(buf + valid, 0, os->page_size - valid);
	}
	return 0;
}

static int write_page(struct ss_objstore *os, struct os_rec *nr, uint64_t pg, const void *src,
		      bool rewrite)
{
	enum ss_stream st = (nr->type == SS_OBJ_OUTPUT || rewrite) ? SS_STREAM_HOT : SS_STREAM_COLD;
	uint32_t lpn;
	int rc = os_xt_lpn(os, nr, pg, &lpn);

	if (rc) {
		return rc;
	}
	if (lpn == OS_NOSLOT) {
		return -SS_EBADMSG;   /* os_alloc_extend gave the page: a bug, never write blind */
	}
	rc = os_io_write(os, lpn, src, st);

	if (rc == 0) {
		nr->page_writes++;
		os->data_dirty = true;
	}
	return rc;
}

/*
 * Write [off, off+len) of `buf` (len may be 0) and make the size at least `new_size`, for an
 * object stored in extents afterwards. New pages are taken from the allocator, where every
 * page reads as zeros, so only the page holding the old end needs its tail cleared.
 */
static int extend_write(struct ss_objstore *os, uint32_t s, uint64_t off, const uint8_t *buf,
			uint32_t len, uint64_t new_size, uint64_t now_ns)
{
	const struct os_rec *old = &os->recs[s];
	struct os_rec *nr = &os->scratch;
	uint32_t P = os->page_size;
	uint64_t old_np = old->nextents ? os_rec_pages(old) : 0;
	uint64_t new_np = SS_DIV_ROUND_UP(SS_MAX(old->size, new_size), P);
	uint64_t first = off / P, last = len ? (off + len - 1) / P : 0;
	bool has_tail = old->size % P != 0;
	uint64_t tail = old->size / P;
	int rc;

	if (new_np - old_np > UINT32_MAX) {
		return -SS_ENOSPC;
	}
	rc = ensure_space(os, os_alloc_need(os, old, (uint32_t)(new_np - old_np)));
	if (rc == 0) {
		rc = os_jrnl_reserve(os, 1);
	}
	if (rc) {
		return rc;
	}
	*nr = *old;
	if (nr->nextents == 0) {
		ss_memset(os_rec_inline(nr), 0, os_rec_inline_cap(nr->name_len));
	}
	rc = os_xt_begin(os, nr, old_np);
	if (rc == 0) {
		rc = os_alloc_extend(os, s, nr, (uint32_t)(new_np - old_np));
	}
	if (rc == 0) {
		rc = os_xt_finish(os, nr);
	}
	if (rc) {
		goto fail;
	}
	if (has_tail && (len == 0 || tail < first)) {
		rc = old_page(os, old, tail, os->iobuf);
		if (rc == 0) {
			rc = write_page(os, nr, tail, os->iobuf, tail < old_np);
		}
		if (rc) {
			goto fail;
		}
	}
	for (uint64_t pg = first; len && pg <= last; pg++) {
		uint64_t pstart = pg * P;
		uint32_t a = pg == first ? (uint32_t)(off - pstart) : 0;
		uint32_t b = pg == last ? (uint32_t)(off + len - pstart) : P;
		const uint8_t *src = buf + (pstart + a - off);

		if (a != 0 || b != P) {
			rc = old_page(os, old, pg, os->iobuf);
			if (rc) {
				goto fail;
			}
			ss_memcpy(os->iobuf + a, src, b - a);
			src = os->iobuf;
		}
		rc = write_page(os, nr, pg, src, pg < old_np);
		if (rc) {
			goto fail;
		}
	}
	nr->size = SS_MAX(old->size, new_size);
	nr->mtime = now_ns;
	os_xt_commit(os, old, old_np);
	os->recs[s] = *nr;
	os_jrnl_add(os, s);
	return 0;
fail:
	os_alloc_drop_resv(os, s);
	os_xt_abort(os, nr, old_np);
	return rc;
}

static int obj_slot(struct ss_objstore *os, ss_oid_t oid, uint32_t *s)
{
	*s = os_slot(os, oid);
	if (*s == 0) {
		return -SS_ENOENT;
	}
	return os->recs[*s].type == SS_OBJ_DIR ? -SS_EISDIR : 0;
}

int ss_os_write(struct ss_objstore *os, ss_oid_t oid, uint64_t off, const void *buf,
		uint32_t len, unsigned flags, uint64_t now_ns)
{
	struct os_rec *r;
	uint32_t s;
	int rc = obj_slot(os, oid, &s);

	if (rc) {
		return rc;
	}
	if (len == 0) {
		return (flags & SS_OS_FUA) ? ss_os_flush(os) : 0;
	}
	if (buf == NULL) {
		return -SS_EINVAL;
	}
	if (off + len < off) {
		return -SS_EFBIG;
	}
	/* Bytes past the drive's data capacity can never be stored: the drive is full for
	 * them, as it is for a write that finds no free page (a caller sees one error). */
	if (off + len > max_bytes(os)) {
		return -SS_ENOSPC;
	}
	r = &os->recs[s];
	if (r->nextents == 0 && off + len <= os_rec_inline_cap(r->name_len)) {
		uint8_t *inl = os_rec_inline(r);

		rc = os_jrnl_reserve(os, 1);
		if (rc) {
			return rc;
		}
		if (off > r->size) {
			ss_memset(inl + r->size, 0, (size_t)(off - r->size));
		}
		ss_memcpy(inl + off, buf, len);
		r->size = SS_MAX(r->size, off + len);
		r->mtime = now_ns;
		os_jrnl_add(os, s);
	} else {
		rc = extend_write(os, s, off, buf, len, off + len, now_ns);
		if (rc) {
			return rc;
		}
	}
	return (flags & SS_OS_FUA) ? ss_os_flush(os) : 0;
}

int ss_os_read(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf, uint32_t len,
	       uint32_t *nread)
{
	uint32_t s, P = os->page_size, done = 0, n;
	const struct os_rec *r;
	uint8_t *out = buf;
	int rc = obj_slot(os, oid, &s);

	*nread = 0;
	if (rc) {
		return rc;
	}
	r = &os->recs[s];
	if (off >= r->size || len == 0) {
		return 0;
	}
	if (buf == NULL) {
		return -SS_EINVAL;
	}
	n = (uint32_t)SS_MIN((uint64_t)len, r->size - off);
	if (r->nextents == 0) {
		ss_memcpy(out, os_rec_inline(r) + off, n);
		*nread = n;
		return 0;
	}
	while (done < n) {
		uint64_t pos = off + done, pg = pos / P;
		uint32_t a = (uint32_t)(pos % P), chunk = SS_MIN(P - a, n - done);
		uint32_t lpn;

		rc = os_xt_lpn(os, r, pg, &lpn);
		if (rc == 0 && lpn == OS_NOSLOT) {
			rc = -SS_EBADMSG;
		}
		if (rc) {
			*nread = done;
			return rc;
		}
		if (a == 0 && chunk == P) {
			rc = os_io_read_page(os, lpn, out + done);
		} else {
			rc = os_io_read(os, lpn, os->iobuf);
			if (rc >= 0) {
				ss_memcpy(out + done, os->iobuf + a, chunk);
			}
		}
		if (rc < 0) {
			*nread = done;
			return rc;
		}
		done += chunk;
	}
	*nread = done;
	return 0;
}

int ss_os_truncate(struct ss_objstore *os, ss_oid_t oid, uint64_t size, uint64_t now_ns)
{
	struct os_rec *r;
	uint32_t s;
	int rc = obj_slot(os, oid, &s);

	if (rc) {
		return rc;
	}
	if (size > max_bytes(os)) {
		return -SS_EFBIG;
	}
	r = &os->recs[s];
	if (r->nextents == 0 && size <= os_rec_inline_cap(r->name_len)) {
		uint8_t *inl = os_rec_inline(r);

		rc = os_jrnl_reserve(os, 1);
		if (rc) {
			return rc;
		}
		if (size > r->size) {
			ss_memset(inl + r->size, 0, (size_t)(size - r->size));
		} else {
			ss_memset(inl + size, 0, (size_t)(r->size - size));
		}
	} else if (size > r->size) {
		return extend_write(os, s, size, NULL, 0, size, now_ns);
	} else {
		struct os_rec *nr = &os->scratch;
		uint64_t keep = SS_DIV_ROUND_UP(size, os->page_size);

		rc = ensure_space(os, r->depth);   /* the cut path's new nodes */
		if (rc == 0) {
			rc = os_jrnl_reserve(os, 1);
		}
		if (rc) {
			return rc;
		}
		*nr = *r;
		rc = os_xt_begin(os, nr, keep);
		if (rc == 0) {
			rc = os_xt_finish(os, nr);
		}
		if (rc) {
			os_xt_abort(os, nr, UINT64_MAX);
			return rc;
		}
		os_alloc_drop_resv(os, s);
		os_xt_commit(os, r, keep);
		*r = *nr;
	}
	r->size = size;
	r->mtime = now_ns;
	os_jrnl_add(os, s);
	return 0;
}

struct extents_arg {
	struct ss_extent *out;
	uint32_t n, max, page_size;
};

static int put_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	struct extents_arg *ea = arg;

	(void)os;
	if (ea->n == ea->max) {
		return 1;   /* full: stop the walk */
	}
	ea->out[ea->n].offset = pg * ea->page_size;
	ea->out[ea->n].lpn = lpn;
	ea->out[ea->n].pages = pages;
	ea->n++;
	return 0;
}

int ss_os_extents(struct ss_objstore *os, ss_oid_t oid, uint64_t off, uint64_t len,
		  struct ss_extent *out, uint32_t max)
{
	const struct os_rec *r;
	uint32_t s, P;
	uint64_t end;
	int rc = obj_slot(os, oid, &s);

	if (rc) {
		return rc;
	}
	if (out == NULL && max > 0) {
		return -SS_EINVAL;
	}
	r = &os->recs[s];
	P = os->page_size;
	if (r->nextents == 0 || off >= r->size || len == 0 || max == 0) {
		return 0;
	}
	end = (len > r->size - off) ? r->size : off + len;

	struct extents_arg ea = { out, 0, max, P };
	struct os_xt_visit v = { .from = off / P, .to = SS_DIV_ROUND_UP(end, P),
				 .extent = put_extent, .arg = &ea };

	rc = os_xt_walk(os, r, &v);
	return rc < 0 ? rc : (int)ea.n;
}

int os_data_spill(struct ss_objstore *os, uint32_t slot, struct os_rec *nr)
{
	const struct os_rec *old = &os->recs[slot];
	int rc = ensure_space(os, 1);

	if (rc) {
		return rc;
	}
	ss_memset(os_rec_inline(nr), 0, os_rec_inline_cap(nr->name_len));
	nr->nextents = 0;
	rc = os_xt_begin(os, nr, 0);
	if (rc == 0) {
		rc = os_alloc_extend(os, slot, nr, 1);
	}
	if (rc == 0) {
		rc = os_xt_finish(os, nr);
	}
	if (rc == 0) {
		rc = old_page(os, old, 0, os->iobuf);
	}
	if (rc == 0) {
		rc = write_page(os, nr, 0, os->iobuf, false);
	}
	if (rc) {
		os_xt_abort(os, nr, 0);
	}
	return rc;
}

void os_data_free_all(struct ss_objstore *os, uint32_t slot, const struct os_rec *r)
{
	os_alloc_drop_resv(os, slot);
	os_xt_release(os, r, 0);
}
