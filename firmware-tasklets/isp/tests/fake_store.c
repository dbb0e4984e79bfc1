/* Test doubles: see fake_store.h. */
#include "fake_store.h"

#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"

#define FAKE_MAX_OBJ 256

struct fake_obj {
	int used;
	uint32_t type;
	int inline_obj;
	uint8_t *data;
	uint64_t size;
	uint64_t mtime;
};

struct ss_objstore {
	struct fake_store *fs;
	struct fake_obj obj[FAKE_MAX_OBJ];
};

static struct ss_objstore *os_of(struct fake_store *fs)
{
	return (struct ss_objstore *)(fs + 1);
}

static void *hal_ctx_fs(void *ctx)
{
	return ctx;
}

static int h_read(void *ctx, uint32_t ppn, void *data, void *spare)
{
	struct fake_store *fs = hal_ctx_fs(ctx);
	struct fake_hal_log *l = &fs->log;

	if (l->timeline != SS_HAL_TL_ISP) {
		l->reads_off_isp++;
	}
	l->flash_busy = SS_MAX(l->flash_busy, l->issue) + FAKE_READ_NS;
	return 0;
}

static int h_prog(void *ctx, uint32_t ppn, const void *d, const void *s)
{
	return 0;
}

static int h_erase(void *ctx, uint32_t b)
{
	return 0;
}

static int h_sync(void *ctx)
{
	return 0;
}

static void h_barrier(void *ctx)
{
	struct fake_hal_log *l = &((struct fake_store *)ctx)->log;

	l->barriers++;
	l->issue = SS_MAX(l->issue, SS_MAX(l->flash_busy, l->isp_busy));
}

static void h_timeline(void *ctx, enum ss_hal_timeline tl)
{
	struct fake_hal_log *l = &((struct fake_store *)ctx)->log;

	l->timeline = tl;
	if (tl == SS_HAL_TL_ISP) {
		l->timeline_isp++;
	} else if (tl == SS_HAL_TL_HOST) {
		l->timeline_host++;
	}
}

static void h_account(void *ctx, uint64_t insn, uint64_t dram, uint64_t pages)
{
	struct fake_hal_log *l = &((struct fake_store *)ctx)->log;

	l->insn += insn;
	l->dram += dram;
	l->pages += pages;
	l->accounts++;
	l->max_account_pages = SS_MAX(l->max_account_pages, pages);
	l->isp_busy = SS_MAX(l->isp_busy, l->issue) + insn * FAKE_INSN_NS + dram * FAKE_DRAM_NS;
}

static uint64_t h_now(void *ctx)
{
	return ((struct fake_store *)ctx)->log.issue;
}

static const struct ss_hal_ops fake_ops = {
	.page_read = h_read,
	.page_program = h_prog,
	.block_erase = h_erase,
	.sync = h_sync,
	.barrier = h_barrier,
	.set_timeline = h_timeline,
	.isp_account = h_account,
	.now_ns = h_now,
};

struct fake_store *fake_store_new(uint32_t page_size)
{
	struct fake_store *fs = calloc(1, sizeof(*fs) + sizeof(struct ss_objstore));
	struct ss_objstore *os = os_of(fs);

	fs->page_size = page_size;
	fs->hal.ops = &fake_ops;
	fs->hal.ctx = fs;
	fs->hal.geo = (struct ss_geometry){ .channels = 1, .ways = 1, .blocks_per_die = 64,
					    .pages_per_block = 64, .page_size = page_size,
					    .spare_size = 64 };
	os->fs = fs;
	os->obj[SS_OID_ROOT].used = 1;
	os->obj[SS_OID_ROOT].type = SS_OBJ_DIR;
	return fs;
}

void fake_store_free(struct fake_store *fs)
{
	struct ss_objstore *os = os_of(fs);

	for (int i = 0; i < FAKE_MAX_OBJ; i++) {
		free(os->obj[i].data);
	}
	free(fs);
}

struct ss_objstore *fake_store_os(struct fake_store *fs)
{
	return os_of(fs);
}

static ss_oid_t new_obj(struct fake_store *fs, uint32_t type)
{
	struct ss_objstore *os = os_of(fs);

	for (ss_oid_t i = 2; i < FAKE_MAX_OBJ; i++) {
		if (!os->obj[i].used) {
			os->obj[i] = (struct fake_obj){ .used = 1, .type = type };
			return i;
		}
	}
	abort();
}

ss_oid_t fake_store_put(struct fake_store *fs, const void *data, uint64_t len, int inline_obj)
{
	ss_oid_t oid = new_obj(fs, SS_OBJ_FILE);
	struct fake_obj *o = &os_of(fs)->obj[oid];

	o->data = malloc(len ? len : 1);
	memcpy(o->data, data, len);
	o->size = len;
	o->inline_obj = inline_obj;
	return oid;
}

ss_oid_t fake_store_output(struct fake_store *fs)
{
	return new_obj(fs, SS_OBJ_OUTPUT);
}

uint32_t fake_store_lpn(ss_oid_t oid, uint64_t page)
{
	return (uint32_t)(oid * 100000 + (page / 3) * 10 + page % 3);
}

const uint8_t *fake_store_data(struct fake_store *fs, ss_oid_t oid, uint64_t *len)
{
	struct fake_obj *o = &os_of(fs)->obj[oid];

	*len = o->size;
	return o->data;
}

int fake_store_remove(struct fake_store *fs, ss_oid_t oid)
{
	struct fake_obj *o = &os_of(fs)->obj[oid];

	free(o->data);
	memset(o, 0, sizeof(*o));
	return 0;
}

static struct fake_obj *get(struct ss_objstore *os, ss_oid_t oid)
{
	if (oid >= FAKE_MAX_OBJ || !os->obj[oid].used) {
		return NULL;
	}
	return &os->obj[oid];
}

int ss_os_stat(struct ss_objstore *os, ss_oid_t oid, struct ss_obj_stat *st)
{
	struct fake_obj *o = get(os, oid);

	if (!o) {
		return -SS_ENOENT;
	}
	memset(st, 0, sizeof(*st));
	st->oid = oid;
	st->type = o->type;
	st->size = o->size;
	st->mtime_ns = o->mtime;
	return 0;
}

int ss_os_read(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf, uint32_t len,
	       uint32_t *nread)
{
	struct fake_obj *o = get(os, oid);
	uint32_t ps = os->fs->page_size;
	uint64_t n;

	if (!o) {
		return -SS_ENOENT;
	}
	if (o->type == SS_OBJ_DIR) {
		return -SS_EISDIR;
	}
	n = off >= o->size ? 0 : SS_MIN((uint64_t)len, o->size - off);
	memcpy(buf, o->data + off, n);
	*nread = (uint32_t)n;
	for (uint64_t p = off / ps; n && p <= (off + n - 1) / ps; p++) {
		os->fs->reads++;
		os->fs->hal.ops->page_read(os->fs, 0, NULL, NULL);
		if (os->fs->bad_page == p + 1) {
			return -SS_EIO;
		}
	}
	return 0;
}

/* The fake store has no drive buffer: a scan reads as any read does. */
int ss_os_read_scan(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
		    uint32_t len, uint32_t *nread)
{
	return ss_os_read(os, oid, off, buf, len, nread);
}

/* As a drive whose reads finish later: a bad page's failure waits for ss_os_read_wait. */
int ss_os_read_scan_start(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
			  uint32_t len, uint32_t *nread)
{
	int rc = ss_os_read(os, oid, off, buf, len, nread);

	if (rc == -SS_EIO) {
		os->fs->read_err = os->fs->read_err ? os->fs->read_err : rc;
		*nread = len;
		rc = 0;
	}
	return rc;
}

int ss_os_read_wait(struct ss_objstore *os)
{
	int rc = os->fs->read_err;

	os->fs->read_err = 0;
	return rc;
}

int ss_os_write(struct ss_objstore *os, ss_oid_t oid, uint64_t off, const void *buf,
		uint32_t len, unsigned flags, uint64_t now_ns)
{
	struct fake_obj *o = get(os, oid);

	if (!o) {
		return -SS_ENOENT;
	}
	if (os->fs->fail_writes) {
		return -SS_ENOSPC;
	}
	if (off + len > o->size) {
		uint64_t old = o->size;

		o->data = realloc(o->data, off + len);
		if (off > old) {
			memset(o->data + old, 0, off - old);
		}
		o->size = off + len;
	}
	memcpy(o->data + off, buf, len);
	o->mtime = now_ns;
	os->fs->log.flash_busy = SS_MAX(os->fs->log.flash_busy, os->fs->log.issue) + FAKE_WRITE_NS;
	return 0;
}

int ss_os_truncate(struct ss_objstore *os, ss_oid_t oid, uint64_t size, uint64_t now_ns)
{
	struct fake_obj *o = get(os, oid);

	if (!o) {
		return -SS_ENOENT;
	}
	if (size > o->size) {
		o->data = realloc(o->data, size);
		memset(o->data + o->size, 0, size - o->size);
	}
	o->size = size;
	return 0;
}

int ss_os_extents(struct ss_objstore *os, ss_oid_t oid, uint64_t off, uint64_t len,
		  struct ss_extent *out, uint32_t max)
{
	struct fake_obj *o = get(os, oid);
	uint32_t ps = os->fs->page_size;
	uint64_t end;
	uint32_t n = 0;

	if (!o) {
		return -SS_ENOENT;
	}
	if (o->inline_obj || off >= o->size || !len) {
		return 0;
	}
	end = SS_MIN(off + len, o->size);
	for (uint64_t run = off / ps / 3; run * 3 * ps < end && n < max; run++) {
		uint64_t first = run * 3;
		uint64_t pages = SS_MIN(3, SS_DIV_ROUND_UP(o->size, ps) - first);

		out[n].offset = first * ps;
		out[n].lpn = fake_store_lpn(oid, first);
		out[n].pages = (uint32_t)pages;
		n++;
	}
	return (int)n;
}
