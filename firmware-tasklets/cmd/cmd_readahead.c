/*
 * Read-ahead for sequential object reads: when a READ starts where the previous READ on
 * the same object ended, the next range is read into a DRAM buffer as read-ahead (the
 * command issuing it does not wait for it), so it overlaps the reply's link transfer; the
 * READ that asks for it is then served from DRAM. The buffer is dropped on any command
 * that may change object data, and checked against the object's size, times and page-write
 * count before use, so a change made any other way (a tasklet's output) is never missed.
 */
#include "cmd_internal.h"

void fw_ra_invalidate(struct ss_fw *fw)
{
	fw->ra.valid = false;
}

static bool same_version(const struct fw_readahead *ra, const struct ss_obj_stat *st)
{
	return st->size == ra->size && st->mtime_ns == ra->mtime_ns &&
	       st->ctime_ns == ra->ctime_ns && st->page_writes == ra->page_writes;
}

bool fw_ra_serve(struct ss_fw *fw, ss_oid_t oid, uint64_t off, uint32_t len, uint8_t *out,
		 uint32_t *nread)
{
	struct fw_readahead *ra = &fw->ra;
	uint32_t n;

	if (!ra->valid || ra->oid != oid || off < ra->off ||
	    ss_os_stat(fw->os, oid, &fw->st) != 0 || !same_version(ra, &fw->st) ||
	    off >= fw->st.size) {
		return false;
	}
	n = (uint32_t)SS_MIN((uint64_t)len, fw->st.size - off);
	if (off + n > ra->off + ra->len) {
		return false;
	}
	ss_hal_read_ahead_wait(fw->hal);
	ss_memcpy(out, fw->ra_buf + (off - ra->off), n);
	*nread = n;
	return true;
}

void fw_ra_advance(struct ss_fw *fw, ss_oid_t oid, uint64_t off, uint32_t len, uint32_t nread)
{
	struct fw_readahead *ra = &fw->ra;
	bool sequential = oid == ra->last_oid && off == ra->last_end;
	uint64_t end = off + nread;
	uint32_t got = 0;

	ra->last_oid = oid;
	ra->last_end = end;
	if (!sequential || nread != len || len > FW_READAHEAD_BYTES ||
	    (ra->valid && ra->oid == oid && end >= ra->off && end + len <= ra->off + ra->len) ||
	    ss_os_stat(fw->os, oid, &fw->st) != 0 || end >= fw->st.size) {
		return;
	}
	ra->valid = false;
	ss_hal_read_ahead(fw->hal, 1);
	if (ss_os_read(fw->os, oid, end, fw->ra_buf, FW_READAHEAD_BYTES, &got) == 0 && got > 0) {
		ra->valid = true;
		ra->oid = oid;
		ra->off = end;
		ra->len = got;
		ra->size = fw->st.size;
		ra->mtime_ns = fw->st.mtime_ns;
		ra->ctime_ns = fw->st.ctime_ns;
		ra->page_writes = fw->st.page_writes;
	}
	ss_hal_read_ahead(fw->hal, 0);
}
