/*
 * The object store's page I/O. Object data goes through the drive's buffer when one is
 * attached (ss_os_attach_buffer); metadata (journal, table, superblocks, extent nodes) goes
 * straight to the FTL, and its pages are first dropped from the buffer, so a raw read that
 * cached one never serves it stale. Every FTL flush the store does writes the buffer's
 * dirty data back first: a durable record never refers to data that is not.
 */
#include "objstore_internal.h"

int os_io_read(struct ss_objstore *os, uint32_t lpn, void *buf)
{
	if (!os->buf) {
		return ss_ftl_read(os->ftl, lpn, buf);
	}
	return os->scan ? ss_buf_read_scan(os->buf, lpn, 1, buf)
			: ss_buf_read_stream(os->buf, lpn, 1, buf);
}

/* A whole page into its destination: with read_start, it may arrive (and fail) only by
 * ss_os_read_wait. */
int os_io_read_page(struct ss_objstore *os, uint32_t lpn, void *buf)
{
	if (!os->read_start) {
		return os_io_read(os, lpn, buf);
	}
	return os->buf ? ss_buf_read_scan_start(os->buf, lpn, 1, buf)
		       : ss_ftl_read_start(os->ftl, lpn, buf);
}

int os_io_write(struct ss_objstore *os, uint32_t lpn, const void *src, enum ss_stream st)
{
	return os->buf ? ss_buf_write(os->buf, lpn, 1, src, st, 0)
		       : ss_ftl_write(os->ftl, lpn, src, st, 0);
}

int os_io_trim(struct ss_objstore *os, uint32_t lpn, uint32_t count)
{
	return os->buf ? ss_buf_trim(os->buf, lpn, count) : ss_ftl_trim(os->ftl, lpn, count);
}

int os_io_flush(struct ss_objstore *os)
{
	return os->buf ? ss_buf_flush(os->buf) : ss_ftl_flush(os->ftl);
}

int os_meta_write(struct ss_objstore *os, uint32_t lpn, const void *src)
{
	ss_buf_invalidate(os->buf, lpn, 1);
	return ss_ftl_write(os->ftl, lpn, src, SS_STREAM_META, 0);
}

/* Tasklet input: `start` lets whole pages arrive later (os_io_read_page). */
static int read_scan(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
		     uint32_t len, uint32_t *nread, bool start)
{
	int rc;

	os->scan = true;
	os->read_start = start;
	rc = ss_os_read(os, oid, off, buf, len, nread);
	os->scan = false;
	os->read_start = false;
	return rc;
}

int ss_os_read_scan(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
		    uint32_t len, uint32_t *nread)
{
	return read_scan(os, oid, off, buf, len, nread, false);
}

int ss_os_read_scan_start(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
			  uint32_t len, uint32_t *nread)
{
	return read_scan(os, oid, off, buf, len, nread, true);
}

int ss_os_read_wait(struct ss_objstore *os)
{
	return ss_ftl_read_wait(os->ftl);
}

void ss_os_attach_buffer(struct ss_objstore *os, struct ss_buf *buf)
{
	os->buf = buf;
}

uint64_t ss_os_dram_used(const struct ss_objstore *os)
{
	return os->dram_used;
}
