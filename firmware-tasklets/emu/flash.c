/*
 * The emulated NAND behind the hal: flash rules, wear-out, and the image file. Each
 * operation is also charged on the timing and energy model.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu_internal.h"
#include "ss_emu_flash.h"
#include "ss_rt.h"

#define EMU_FIRMWARE_REV "EMU0.1"

/* Record why an operation was refused; rule violations also count. */
static int refuse(struct ss_emu_flash *f, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(struct ss_emu_flash *f, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->last_err, sizeof(f->last_err), fmt, ap);
	va_end(ap);
	if (rc == -SS_EINVAL) {
		f->model.c.rule_violations++;
	}
	return rc;
}

static uint32_t die_of_block(const struct ss_emu_flash *f, uint32_t block)
{
	return block % ss_geo_dies(&f->info.geo);
}

static int page_out_of_range(struct ss_emu_flash *f, uint32_t ppn)
{
	return refuse(f, -SS_EINVAL, "page read: page number %u is out of range (%llu pages)",
		      ppn, (unsigned long long)ss_geo_pages(&f->info.geo));
}

/* page_read, the flash lock held. */
static int read_locked(struct ss_emu_flash *f, uint32_t ppn, void *data, void *spare)
{
	const struct ss_geometry *g = &f->info.geo;
	uint32_t block, page;
	int rc = 0;

	if (ppn >= ss_geo_pages(g)) {
		return page_out_of_range(f, ppn);
	}
	block = ppn / g->pages_per_block;
	page = ppn % g->pages_per_block;
	if (page >= f->blocks[block].write_ptr) {
		if (data != NULL) {
			memset(data, 0xff, g->page_size);
		}
		if (spare != NULL) {
			memset(spare, 0xff, g->spare_size);
		}
	} else if (data != NULL && spare != NULL) {
		rc = emu_image_read_page_spare(f, ppn, data, spare);
	} else if (data != NULL) {
		rc = emu_image_read_page(f, ppn, data, g->page_size, 0);
	} else if (spare != NULL) {
		rc = emu_image_read_page(f, ppn, spare, g->spare_size, g->page_size);
	}
	if (rc != 0) {
		return refuse(f, -SS_EIO, "page read: image I/O error at page %u: %s", ppn,
			      strerror(errno));
	}
	emu_model_read(&f->model, die_of_block(f, block),
		       (data ? g->page_size : 0) + (spare ? g->spare_size : 0));
	return 0;
}

static int op_page_read(void *ctx, uint32_t ppn, void *data, void *spare)
{
	struct ss_emu_flash *f = ctx;
	int rc;

	pthread_mutex_lock(&f->lock);
	rc = read_locked(f, ppn, data, spare);
	pthread_mutex_unlock(&f->lock);
	return rc;
}

/* The transfer thread, made at the first transfer or program: a drive that does neither
 * has none. */
static struct emu_dma *dma_of(struct ss_emu_flash *f)
{
	if (f->dma == NULL && f->map != NULL) {
		f->dma = emu_dma_new();
		if (f->dma != NULL) {
			emu_dma_set_spin(f->dma, f->dma_spin_us);
		}
	}
	return f->dma;
}

static int op_page_read_start(void *ctx, uint32_t ppn, void *data,
			      int (*check)(const void *data, uint32_t len, const void *spare,
					   uint32_t arg),
			      uint32_t arg)
{
	struct ss_emu_flash *f = ctx;
	const struct ss_geometry *g = &f->info.geo;
	const uint32_t block = ppn / g->pages_per_block, page = ppn % g->pages_per_block;
	struct emu_dma *dma;
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	if (ppn >= ss_geo_pages(g)) {
		rc = page_out_of_range(f, ppn);
	} else if (page < f->blocks[block].write_ptr && (dma = dma_of(f)) != NULL) {
		const uint8_t *src = f->map + emu_page_offset(f, ppn);

		emu_dma_start(dma, src, src + g->page_size, data, g->page_size, check, arg);
		emu_model_read(&f->model, die_of_block(f, block), g->page_size + g->spare_size);
	} else {
		/* at once: an erased page (all 0xFF), or no mapping to copy from */
		uint8_t *spare = f->scratch + g->page_size;

		rc = read_locked(f, ppn, data, spare);
		if (rc == 0 && check != NULL) {
			rc = check(data, g->page_size, spare, arg);
		}
		if (rc != 0 && f->read_err == 0) {
			f->read_err = rc;
		}
		rc = 0;
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static int op_read_wait(void *ctx)
{
	struct ss_emu_flash *f = ctx;
	int rc = f->dma != NULL ? emu_dma_wait(f->dma) : 0;

	pthread_mutex_lock(&f->lock);
	if (rc == 0) {
		rc = f->read_err;
	}
	f->read_err = 0;
	pthread_mutex_unlock(&f->lock);
	return rc;
}

/* Pages of a block mapped ahead at once: 16 of kang's 8,640 B are 135 KiB, one system call */
#define EMU_MAP_AHEAD_PAGES 16u

/* With `write_ptr` pages of `block` programmed: when that completes EMU_MAP_AHEAD_PAGES of
 * them or the block, those since the last such point are mapped by the transfer thread
 * while it is idle (dma.c), so a scan soon after takes no faults. */
static void map_ahead(struct ss_emu_flash *f, uint32_t block, uint32_t write_ptr)
{
	const uint32_t ppb = f->info.geo.pages_per_block;
	const uint32_t first = (write_ptr - 1) / EMU_MAP_AHEAD_PAGES * EMU_MAP_AHEAD_PAGES;
	struct emu_dma *dma;

	if (write_ptr % EMU_MAP_AHEAD_PAGES != 0 && write_ptr != ppb) {
		return;
	}
	dma = dma_of(f);
	if (dma != NULL) {
		emu_dma_map_ahead(dma, f->map + emu_page_offset(f, block * ppb + first),
				  (size_t)(write_ptr - first) * f->stride);
	}
}

static int op_page_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	struct ss_emu_flash *f = ctx;
	const struct ss_geometry *g = &f->info.geo;
	struct emu_block *b;
	uint32_t block, page;
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	if (ppn >= ss_geo_pages(g)) {
		rc = refuse(f, -SS_EINVAL, "page program: page number %u is out of range (%llu "
			    "pages)", ppn, (unsigned long long)ss_geo_pages(g));
		goto out;
	}
	block = ppn / g->pages_per_block;
	page = ppn % g->pages_per_block;
	b = &f->blocks[block];
	if (b->flags & EMU_BLOCK_FAILED) {
		f->model.c.program_failures++;
		rc = refuse(f, -SS_EIO, "page program: block %u has failed (%s); retire it",
			    block, b->flags & EMU_BLOCK_FACTORY_BAD ? "factory bad block" :
			    "worn out");
		goto out;
	}
	if (page < b->write_ptr) {
		rc = refuse(f, -SS_EINVAL, "page programmed twice without an erase (block %u page "
			    "%u; next unprogrammed page is %u)", block, page, b->write_ptr);
		goto out;
	}
	if (page > b->write_ptr) {
		rc = refuse(f, -SS_EINVAL, "pages of a block must be programmed in order (expected "
			    "page %u, got %u) in block %u", b->write_ptr, page, block);
		goto out;
	}
	if (data != NULL) {
		memcpy(f->scratch, data, g->page_size);
	} else {
		memset(f->scratch, 0xff, g->page_size);
	}
	if (spare != NULL) {
		memcpy(f->scratch + g->page_size, spare, g->spare_size);
	} else {
		memset(f->scratch + g->page_size, 0xff, g->spare_size);
	}
	/* Data first, then the write pointer: a crash in between leaves the page erased. */
	rc = emu_image_write_page(f, ppn, f->scratch);
	if (rc == 0) {
		b->write_ptr++;
		rc = emu_image_write_block(f, block);
		if (rc != 0) {
			b->write_ptr--;
		}
	}
	if (rc != 0) {
		rc = refuse(f, -SS_EIO, "page program: image I/O error at page %u: %s", ppn,
			    strerror(errno));
		goto out;
	}
	emu_model_program(&f->model, die_of_block(f, block), f->stride);
	map_ahead(f, block, b->write_ptr);
out:
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static int op_block_erase(void *ctx, uint32_t block)
{
	struct ss_emu_flash *f = ctx;
	const struct ss_geometry *g = &f->info.geo;
	struct emu_block *b, old;
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	if (f->dma != NULL) {
		emu_dma_quiesce(f->dma);   /* a transfer may still be reading a page of it */
		emu_dma_map_ahead_erased(f->dma);
	}
	if (block >= ss_geo_blocks(g)) {
		rc = refuse(f, -SS_EINVAL, "block erase: block %u is out of range (%u blocks); "
			    "erases are per whole block", block, ss_geo_blocks(g));
		goto out;
	}
	b = &f->blocks[block];
	old = *b;
	if (b->flags & EMU_BLOCK_FAILED) {
		rc = refuse(f, -SS_EIO, "block erase: block %u has failed (%s); retire it", block,
			    b->flags & EMU_BLOCK_FACTORY_BAD ? "factory bad block" : "worn out");
		goto out;
	}
	if (b->erase_count >= b->endurance) {
		b->flags |= EMU_BLOCK_FAILED;
		if (emu_image_write_block(f, block) != 0) {
			*b = old;
			rc = refuse(f, -SS_EIO, "block erase: image I/O error at block %u", block);
			goto out;
		}
		f->model.c.erase_failures++;
		f->model.c.failed_blocks++;
		emu_model_erase(&f->model, die_of_block(f, block));
		rc = refuse(f, -SS_EIO, "block erase: block %u wore out: it failed after %u "
			    "erases, its endurance", block, b->erase_count);
		goto out;
	}
	b->erase_count++;
	b->write_ptr = 0;
	if (emu_image_write_block(f, block) != 0) {
		*b = old;
		rc = refuse(f, -SS_EIO, "block erase: image I/O error at block %u", block);
		goto out;
	}
	/* The pages are erased now whatever the file holds; free their space if we can. */
	if (old.write_ptr > 0 && f->punch_holes &&
	    fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)emu_page_offset(f, block * g->pages_per_block),
		      (off_t)(f->stride * old.write_ptr)) != 0) {
		f->punch_holes = 0;
	}
	f->model.c.block_erases++;
	emu_model_erase(&f->model, die_of_block(f, block));
out:
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static int op_sync(void *ctx)
{
	struct ss_emu_flash *f = ctx;
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	f->model.c.syncs++;
	emu_model_sync(&f->model);
	if (fdatasync(f->fd) != 0) {
		rc = refuse(f, -SS_EIO, "sync: %s", strerror(errno));
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static void op_barrier(void *ctx)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	emu_model_barrier(&f->model);
	pthread_mutex_unlock(&f->lock);
}

int emu_nvram_path(const struct ss_emu_flash *f, char *path, size_t len)
{
	return snprintf(path, len, "%s.nvram", f->path) < (int)len ? 0 : -SS_ENAMETOOLONG;
}

/* The drive's non-volatile RAM: the file <image>.nvram mapped shared, so every store is in
 * the host's page cache at once and survives the daemon's death (SIGKILL is the emulator's
 * power cut; the flash image is written the same way). Made (or remade) at the size asked
 * for only when asked to; otherwise the file is mapped as it is, whatever its size, for the
 * firmware to judge, and a missing file is -SS_ENOENT: the drive's acknowledged writes are
 * not there, which is never to be mistaken for an empty cache. MRAM's access time is taken
 * as the DRAM's, which the model charges nothing for on the I/O path [Smullen 2010, §IV-A:
 * "similar access times"]. */
static int op_nvram_map(void *ctx, int create, size_t *size, void **out)
{
	struct ss_emu_flash *f = ctx;
	char path[PATH_MAX];
	struct stat st;
	void *mem;
	int fd;

	if (f->nvram != NULL) {
		munmap(f->nvram, f->nvram_len);
		f->nvram = NULL;
	}
	if ((create && *size == 0) || emu_nvram_path(f, path, sizeof(path)) != 0) {
		return -SS_EINVAL;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
	if (fd < 0) {
		return errno == ENOENT ? -SS_ENOENT : -SS_EIO;
	}
	if (create && (ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)*size) != 0)) {
		close(fd);
		return -SS_EIO;
	}
	if (fstat(fd, &st) != 0 || st.st_size == 0 || (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return st.st_size == 0 ? -SS_ENOENT : -SS_EIO;   /* an empty file keeps nothing */
	}
	*size = (size_t)st.st_size;
	mem = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (mem == MAP_FAILED) {
		return -SS_EIO;
	}
	f->nvram = mem;
	f->nvram_len = *size;
	*out = mem;
	return 0;
}

static void op_read_ahead(void *ctx, int on)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	emu_model_read_ahead(&f->model, on);
	pthread_mutex_unlock(&f->lock);
}

static void op_read_ahead_wait(void *ctx)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	emu_model_read_ahead_wait(&f->model);
	pthread_mutex_unlock(&f->lock);
}

static void op_set_timeline(void *ctx, enum ss_hal_timeline tl)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	if ((unsigned)tl < EMU_TIMELINES) {
		f->model.tl = (int)tl;
	} else {
		refuse(f, -SS_EINVAL, "set_timeline: no timeline %d", (int)tl);
	}
	pthread_mutex_unlock(&f->lock);
}

static void op_isp_account(void *ctx, uint64_t instructions, uint64_t dram_accesses,
			   uint64_t pages)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	emu_model_isp(&f->model, instructions, dram_accesses, pages);
	pthread_mutex_unlock(&f->lock);
}

static uint64_t op_isp_price_ns(void *ctx, uint64_t instructions, uint64_t dram_accesses,
			       uint64_t pages)
{
	struct ss_emu_flash *f = ctx;

	/* the profile is fixed while the image is open: no lock */
	return emu_model_isp_ns(&f->prof, instructions, dram_accesses, pages);
}

static uint64_t op_now_ns(void *ctx)
{
	struct ss_emu_flash *f = ctx;
	uint64_t now;

	pthread_mutex_lock(&f->lock);
	now = emu_model_now(&f->model);
	pthread_mutex_unlock(&f->lock);
	return now;
}

static void op_not_before(void *ctx, uint64_t t)
{
	struct ss_emu_flash *f = ctx;

	pthread_mutex_lock(&f->lock);
	emu_model_not_before(&f->model, f->model.tl, t);
	pthread_mutex_unlock(&f->lock);
}

uint64_t emu_flash_cmd_begin(struct ss_emu_flash *f, uint64_t floor, uint64_t bytes_in,
			     enum emu_cmd_kind kind, uint32_t tag,
			     int (*live)(void *arg, uint32_t tag), void *arg)
{
	uint64_t t;

	pthread_mutex_lock(&f->lock);
	emu_model_queue_prune(&f->model, live, arg);
	t = emu_model_cmd_begin(&f->model, floor, bytes_in, kind, tag);
	pthread_mutex_unlock(&f->lock);
	return t;
}

uint64_t emu_flash_release_at(struct ss_emu_flash *f, uint64_t t)
{
	pthread_mutex_lock(&f->lock);
	t = emu_model_release_at(&f->model, t);
	pthread_mutex_unlock(&f->lock);
	return t;
}

void emu_flash_release(struct ss_emu_flash *f, int tl, uint64_t t)
{
	pthread_mutex_lock(&f->lock);
	emu_model_release(&f->model, tl, t);
	pthread_mutex_unlock(&f->lock);
}

uint64_t emu_flash_writes(struct ss_emu_flash *f)
{
	uint64_t n;

	pthread_mutex_lock(&f->lock);
	n = f->model.c.page_programs + f->model.c.block_erases + f->model.c.erase_failures;
	pthread_mutex_unlock(&f->lock);
	return n;
}

uint64_t emu_flash_cmd_end(struct ss_emu_flash *f, uint64_t bytes_out, int queued)
{
	uint64_t t;

	pthread_mutex_lock(&f->lock);
	t = emu_model_cmd_end(&f->model, bytes_out, queued);
	pthread_mutex_unlock(&f->lock);
	return t;
}

/* The model and its queue's entries in use: the rest of q is 8 KiB nobody reads. */
static void model_copy(struct emu_model *to, const struct emu_model *from)
{
	memcpy(to, from, offsetof(struct emu_model, q) + from->qn * sizeof(from->q[0]));
}

void emu_flash_model_save(struct ss_emu_flash *f, struct emu_model *out)
{
	pthread_mutex_lock(&f->lock);
	model_copy(out, &f->model);
	pthread_mutex_unlock(&f->lock);
}

void emu_flash_model_restore(struct ss_emu_flash *f, const struct emu_model *in)
{
	pthread_mutex_lock(&f->lock);
	model_copy(&f->model, in);
	pthread_mutex_unlock(&f->lock);
}

void emu_flash_set_spin(struct ss_emu_flash *f, uint32_t spin_us)
{
	pthread_mutex_lock(&f->lock);
	f->dma_spin_us = spin_us;
	if (f->dma != NULL) {
		emu_dma_set_spin(f->dma, spin_us);
	}
	pthread_mutex_unlock(&f->lock);
}

uint64_t emu_flash_device_now(struct ss_emu_flash *f)
{
	uint64_t n;

	pthread_mutex_lock(&f->lock);
	n = f->model.now;
	pthread_mutex_unlock(&f->lock);
	return n;
}

static const struct ss_hal_ops emu_hal_ops = {
	.page_read = op_page_read,
	.page_program = op_page_program,
	.block_erase = op_block_erase,
	.page_read_start = op_page_read_start,
	.read_wait = op_read_wait,
	.sync = op_sync,
	.barrier = op_barrier,
	.set_timeline = op_set_timeline,
	.isp_account = op_isp_account,
	.isp_price_ns = op_isp_price_ns,
	.now_ns = op_now_ns,
	.not_before = op_not_before,
	.read_ahead = op_read_ahead,
	.read_ahead_wait = op_read_ahead_wait,
	.nvram_map = op_nvram_map,
	.watchdog_arm = emu_watchdog_arm,
	.section_run = emu_section_run,
	.section_abort = emu_section_abort,
	.section_mask = emu_section_mask,
};

/* The geometry and endurance of a new image: the options, else the profile. */
static int plan_create(struct ss_emu_flash *f, const struct ss_emu_flash_opts *o, char *err,
		       size_t errlen)
{
	const struct ss_emu_profile *p = &f->prof;
	struct emu_image_info *in = &f->info;
	struct ss_geometry g = o->geo;

	g.channels = g.channels ? g.channels : p->geo.channels;
	g.ways = g.ways ? g.ways : p->geo.ways;
	g.blocks_per_die = g.blocks_per_die ? g.blocks_per_die : p->geo.blocks_per_die;
	g.pages_per_block = g.pages_per_block ? g.pages_per_block : p->geo.pages_per_block;
	g.page_size = g.page_size ? g.page_size : p->geo.page_size;
	g.spare_size = g.spare_size ? g.spare_size : p->geo.spare_size;
	g.overprovision_permille = g.overprovision_permille ? g.overprovision_permille :
				   p->geo.overprovision_permille;
	if (ss_emu_geometry_check(&g, err, errlen) != 0) {
		return -SS_EINVAL;
	}
	memset(in, 0, sizeof(*in));
	in->geo = g;
	in->endurance = o->endurance ? o->endurance : p->endurance;
	in->endurance_spread_permille = p->endurance_spread_permille;
	in->factory_bad_permille = p->factory_bad_permille;
	in->dram_bytes = o->dram_bytes ? o->dram_bytes : p->dram_bytes;
	snprintf(in->profile, sizeof(in->profile), "%s", p->name);
	snprintf(in->model, sizeof(in->model), "%s", p->model);
	snprintf(in->firmware_rev, sizeof(in->firmware_rev), "%s", EMU_FIRMWARE_REV);
	f->stride = (uint64_t)g.page_size + g.spare_size;
	f->blocks = calloc(ss_geo_blocks(&g), sizeof(*f->blocks));
	if (f->blocks == NULL) {
		emu_errf(err, errlen, "out of memory for %u blocks", ss_geo_blocks(&g));
		return -SS_ENOMEM;
	}
	return 0;
}

/* On open, options given must agree with what the image was created with. */
static int check_open_opts(struct ss_emu_flash *f, const struct ss_emu_flash_opts *o,
			   char *err, size_t errlen)
{
	const struct ss_geometry *w = &o->geo, *h = &f->info.geo;
	const uint32_t want[7] = { w->channels, w->ways, w->blocks_per_die, w->pages_per_block,
				   w->page_size, w->spare_size, w->overprovision_permille };
	const uint32_t have[7] = { h->channels, h->ways, h->blocks_per_die, h->pages_per_block,
				   h->page_size, h->spare_size, h->overprovision_permille };
	static const char *const names[7] = { "channels", "ways", "blocks_per_die",
					      "pages_per_block", "page_size", "spare_size",
					      "overprovision_permille" };

	for (int i = 0; i < 7; i++) {
		if (want[i] != 0 && want[i] != have[i]) {
			emu_errf(err, errlen, "image %s has %s %u, not the %u asked for (geometry is "
				 "fixed when an image is created)", f->path, names[i], have[i],
				 want[i]);
			return -SS_EINVAL;
		}
	}
	if (o->endurance != 0 && o->endurance != f->info.endurance) {
		emu_errf(err, errlen, "image %s has endurance %u, not the %u asked for", f->path,
			 f->info.endurance, o->endurance);
		return -SS_EINVAL;
	}
	return 0;
}

static int lock_image(struct ss_emu_flash *f, char *err, size_t errlen)
{
	if (flock(f->fd, LOCK_EX | LOCK_NB) == 0) {
		return 0;
	}
	if (errno == EWOULDBLOCK) {
		emu_errf(err, errlen, "image %s is in use by another process; to share one drive "
			 "between processes run the daemon (smartssd-devd --image %s --socket SOCK) "
			 "and open unix:SOCK", f->path, f->path);
		return -SS_EBUSY;
	}
	emu_errf(err, errlen, "image %s: cannot lock: %s", f->path, strerror(errno));
	return -SS_EIO;
}

static int setup_hal(struct ss_emu_flash *f, const struct ss_emu_flash_opts *o, char *err,
		     size_t errlen)
{
	struct ss_hal *h = &f->hal;
	uint64_t dram = o->dram_bytes ? o->dram_bytes : f->info.dram_bytes;
	void *mem;

	if (dram == 0 || dram > SIZE_MAX / 2) {
		emu_errf(err, errlen, "bad DRAM size %llu", (unsigned long long)dram);
		return -SS_EINVAL;
	}
	/* Zeroed and lazily backed: only the DRAM the firmware touches costs host memory. */
	mem = mmap(NULL, (size_t)dram, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		emu_errf(err, errlen, "cannot map %llu bytes of device DRAM: %s",
			 (unsigned long long)dram, strerror(errno));
		return -SS_ENOMEM;
	}
	h->ops = &emu_hal_ops;
	h->ctx = f;
	h->geo = f->info.geo;
	h->dram = mem;
	h->dram_size = (size_t)dram;
	h->endurance = f->info.endurance;
	h->temperature_c = (int16_t)f->prof.temperature_c;
	snprintf(h->model, sizeof(h->model), "%s", f->info.model);
	snprintf(h->serial, sizeof(h->serial), "%s", f->info.serial);
	snprintf(h->firmware_rev, sizeof(h->firmware_rev), "%s", f->info.firmware_rev);
	return 0;
}

int ss_emu_flash_open(const char *path, const struct ss_emu_flash_opts *o,
		      struct ss_emu_flash **out, char *err, size_t errlen)
{
	static const struct ss_emu_flash_opts defaults;
	struct ss_emu_flash *f;
	int rc;

	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (path == NULL || out == NULL) {
		emu_errf(err, errlen, "no image path given");
		return -SS_EINVAL;
	}
	o = o ? o : &defaults;
	f = calloc(1, sizeof(*f));
	if (f == NULL || (f->path = strdup(path)) == NULL) {
		free(f);
		emu_errf(err, errlen, "out of memory");
		return -SS_ENOMEM;
	}
	f->fd = -1;
	f->punch_holes = 1;
	pthread_mutex_init(&f->lock, NULL);

	f->fd = open(path, O_RDWR | O_CLOEXEC | (o->create ? O_CREAT : 0), 0660);
	if (f->fd < 0) {
		rc = errno == ENOENT ? -SS_ENOENT : -SS_EIO;
		emu_errf(err, errlen, errno == ENOENT ? "image %s does not exist (create it first)" :
			 "cannot open image %s: %s", path, strerror(errno));
		goto fail;
	}
	rc = lock_image(f, err, errlen);
	if (rc != 0) {
		goto fail;
	}
	if (o->create) {
		rc = ss_emu_profile_load(o->profile, &f->prof, err, errlen);
		if (rc == 0) {
			rc = plan_create(f, o, err, errlen);
		}
		if (rc == 0) {
			rc = emu_image_create(f, err, errlen);
		}
	} else {
		rc = emu_image_load(f, err, errlen);
		if (rc == 0) {
			rc = check_open_opts(f, o, err, errlen);
		}
		if (rc == 0) {
			rc = ss_emu_profile_load(o->profile ? o->profile : f->info.profile, &f->prof,
						 err, errlen);
			if (rc == -SS_ENOENT && o->profile == NULL) {
				emu_errf(err, errlen, "image %s was made with profile '%s', which is not "
					 "built in: give the path of its profile file", path,
					 f->info.profile);
			}
		}
	}
	if (rc != 0) {
		goto fail;
	}
	emu_image_map(f);
	for (uint32_t b = 0; b < ss_geo_blocks(&f->info.geo); b++) {
		f->model.c.failed_blocks += (f->blocks[b].flags & EMU_BLOCK_FAILED) ? 1 : 0;
	}
	f->scratch = malloc(f->stride);
	if (f->scratch == NULL) {
		rc = -SS_ENOMEM;
		emu_errf(err, errlen, "out of memory");
		goto fail;
	}
	{
		uint64_t failed = f->model.c.failed_blocks;

		rc = emu_model_init(&f->model, &f->prof, &f->info.geo);
		f->model.c.failed_blocks = failed;
	}
	if (rc != 0) {
		emu_errf(err, errlen, "out of memory");
		goto fail;
	}
	rc = setup_hal(f, o, err, errlen);
	if (rc != 0) {
		goto fail;
	}
	*out = f;
	return 0;
fail:
	ss_emu_flash_close(f);
	return rc;
}

struct ss_hal *ss_emu_flash_hal(struct ss_emu_flash *f)
{
	return &f->hal;
}

void ss_emu_flash_close(struct ss_emu_flash *f)
{
	if (f == NULL) {
		return;
	}
	emu_dma_free(f->dma);   /* its transfers write the DRAM and read the mapping */
	if (f->hal.dram != NULL) {
		munmap(f->hal.dram, f->hal.dram_size);
	}
	if (f->nvram != NULL) {
		munmap(f->nvram, f->nvram_len);
	}
	if (f->map != NULL) {
		munmap((void *)f->map, f->map_len);
	}
	if (f->fd >= 0) {
		close(f->fd);   /* releases the lock */
	}
	emu_model_fini(&f->model);
	pthread_mutex_destroy(&f->lock);
	free(f->scratch);
	free(f->blocks);
	free(f->path);
	free(f);
}

const char *ss_emu_flash_last_error(struct ss_emu_flash *f)
{
	return f->last_err;
}

const struct ss_emu_profile *ss_emu_flash_profile(struct ss_emu_flash *f)
{
	return &f->prof;
}

int ss_emu_flash_block_info(struct ss_emu_flash *f, uint32_t block, struct ss_emu_block_info *bi)
{
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	if (block >= ss_geo_blocks(&f->info.geo)) {
		rc = -SS_EINVAL;
	} else {
		const struct emu_block *b = &f->blocks[block];

		bi->erase_count = b->erase_count;
		bi->write_ptr = b->write_ptr;
		bi->endurance = b->endurance;
		bi->failed = (b->flags & EMU_BLOCK_FAILED) != 0;
		bi->factory_bad = (b->flags & EMU_BLOCK_FACTORY_BAD) != 0;
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

void ss_emu_flash_get_counters(struct ss_emu_flash *f, struct ss_emu_counters *c)
{
	pthread_mutex_lock(&f->lock);
	emu_model_snapshot(&f->model, c);
	pthread_mutex_unlock(&f->lock);
}
