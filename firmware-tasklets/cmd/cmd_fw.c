/*
 * Bringing the drive up and down: the DRAM split among the layers, format, mount,
 * shutdown and idle work. The lifetime record that each power cycle updates is
 * cmd_life.c's.
 *
 * DRAM, in arena order: the command layer (its state, reply slots and reply heap, a page
 * buffer), the FTL (ss_ftl_dram_needed), the ISP engine (ss_isp_dram_needed), and all the
 * rest for the object store, which sizes itself from what it is given.
 */
#include "smartssd/builtin_tasklets.h"

#include "cmd_internal.h"

#define REGION_ALIGN 64u

struct regions {
	void *ftl, *isp, *os;
	uint64_t ftl_size, isp_size, os_size;
};

static uint64_t own_bytes(const struct ss_geometry *geo)
{
	return SS_ALIGN_UP(sizeof(struct ss_fw), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_SLOTS * sizeof(struct fw_reply), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_SLOTS * sizeof(uint16_t), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_HEAP_BYTES, REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)geo->page_size, REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_READAHEAD_BYTES, REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_LIST_BATCH * sizeof(struct ss_dirent), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_EXTENTS_MAX * sizeof(struct ss_extent), REGION_ALIGN) +
	       REGION_ALIGN;
}

uint64_t ss_fw_dram_needed(const struct ss_geometry *geo)
{
	return own_bytes(geo) + SS_ALIGN_UP(ss_ftl_dram_needed(geo), REGION_ALIGN) +
	       SS_ALIGN_UP(ss_isp_dram_needed(geo), REGION_ALIGN) +
	       ss_os_dram_needed(geo, NULL) + 2 * REGION_ALIGN;
}

static int carve(struct ss_hal *hal, struct ss_fw **out, struct regions *r)
{
	const struct ss_geometry *geo = &hal->geo;
	struct ss_arena a;
	struct ss_fw *fw;
	uintptr_t start, end;

	if (!hal->ops || !hal->dram || geo->page_size < SS_SECTOR || geo->page_size % SS_SECTOR) {
		return -SS_EINVAL;
	}
	ss_arena_init(&a, hal->dram, hal->dram_size);
	fw = ss_arena_alloc(&a, sizeof(*fw), REGION_ALIGN);
	if (!fw) {
		return -SS_ENOMEM;
	}
	fw->hal = hal;
	fw->replies = ss_arena_alloc(&a, FW_REPLY_SLOTS * sizeof(struct fw_reply), REGION_ALIGN);
	fw->heap_order = ss_arena_alloc(&a, FW_REPLY_SLOTS * sizeof(uint16_t), REGION_ALIGN);
	fw->heap = ss_arena_alloc(&a, FW_REPLY_HEAP_BYTES, REGION_ALIGN);
	fw->page_buf = ss_arena_alloc(&a, geo->page_size, REGION_ALIGN);
	fw->ra_buf = ss_arena_alloc(&a, FW_READAHEAD_BYTES, REGION_ALIGN);
	ss_memset(&fw->ra, 0, sizeof(fw->ra));
	fw->dirents = ss_arena_alloc(&a, FW_LIST_BATCH * sizeof(struct ss_dirent), REGION_ALIGN);
	fw->extents = ss_arena_alloc(&a, FW_EXTENTS_MAX * sizeof(struct ss_extent), REGION_ALIGN);
	fw->heap_size = FW_REPLY_HEAP_BYTES;
	r->ftl_size = ss_ftl_dram_needed(geo);
	r->isp_size = ss_isp_dram_needed(geo);
	r->ftl = ss_arena_alloc(&a, (size_t)r->ftl_size, REGION_ALIGN);
	r->isp = ss_arena_alloc(&a, (size_t)r->isp_size, REGION_ALIGN);
	if (!fw->replies || !fw->heap_order || !fw->heap || !fw->page_buf || !fw->ra_buf || !fw->dirents ||
	    !fw->extents || !r->ftl || !r->isp) {
		return -SS_ENOMEM;
	}
	/* The rest, taken by hand: the object store clears what it uses, and clearing
	 * hundreds of megabytes on every mount would be wasted time. */
	start = SS_ALIGN_UP((uintptr_t)a.base + a.used, REGION_ALIGN);
	end = (uintptr_t)a.base + a.size;
	if (start >= end || end - start < REGION_ALIGN) {
		return -SS_ENOMEM;
	}
	r->os = (void *)start;
	r->os_size = end - start;
	fw_replies_init(fw);
	fw->next_session = 1;
	*out = fw;
	return 0;
}

/* Everything that follows from the layers once they are up. */
static int bring_up(struct ss_fw *fw, const struct regions *r)
{
	uint32_t first = 0, count = 0;
	int rc;

	rc = ss_isp_init(&fw->isp, fw->os, fw->hal, r->isp, r->isp_size);
	if (rc) {
		return rc;
	}
	rc = ss_builtin_tasklets_register(fw->isp);
	if (rc) {
		return rc;
	}
	fw->page_size = ss_ftl_page_size(fw->ftl);
	if (fw->page_size < SS_SECTOR || fw->page_size % SS_SECTOR) {
		return -SS_EINVAL;
	}
	fw->sectors_per_page = fw->page_size / SS_SECTOR;
	fw->capacity_sectors = (uint64_t)ss_ftl_capacity_pages(fw->ftl) * fw->sectors_per_page;
	ss_os_metadata_range(fw->os, &first, &count);
	fw->meta_first_lpn = first;
	fw->meta_pages = count;
	fw_isp_forget_all(fw);
	return 0;
}

/*
 * The object store failed its mount check: come up anyway, as a drive does, so the host can
 * identify it and ask CHECK what is wrong; every other object command fails with
 * STORE_DAMAGED and raw sector I/O is refused. Nothing is written.
 */
static int come_up_damaged(struct ss_fw *fw, struct ss_fw **out)
{
	fw->os = NULL;
	fw->isp = NULL;
	fw->page_size = ss_ftl_page_size(fw->ftl);
	fw->sectors_per_page = fw->page_size / SS_SECTOR;
	fw->capacity_sectors = (uint64_t)ss_ftl_capacity_pages(fw->ftl) * fw->sectors_per_page;
	fw->state = FW_DAMAGED;
	*out = fw;
	return 0;
}

/* ---- entry points --------------------------------------------------------------------- */

int ss_fw_format(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_format_params *p)
{
	struct ss_ftl_params fp;
	struct ss_os_params op;
	struct regions r;
	struct ss_fw *fw;
	int rc;

	if (!out || !hal) {
		return -SS_EINVAL;
	}
	rc = carve(hal, &fw, &r);
	if (rc) {
		return rc;
	}
	ss_ftl_default_params(&fp);
	rc = ss_ftl_format(&fw->ftl, hal, r.ftl, r.ftl_size, &fp);
	if (rc) {
		return rc;
	}
	ss_os_default_params(fw->ftl, &op);
	if (p && p->max_objects) {
		op.max_objects = p->max_objects;
	}
	if (ss_os_dram_needed(&hal->geo, &op) > r.os_size) {
		return -SS_ENOMEM;
	}
	rc = ss_os_format(&fw->os, fw->ftl, r.os, r.os_size, &op);
	if (rc == 0) {
		rc = bring_up(fw, &r);
	}
	if (rc) {
		return rc;
	}
	fw_life_load(fw);
	fw_life_power_cycle(fw);
	fw->state = FW_UP;
	/* the format's own programs are part of the drive's life */
	fw->mount_nand_writes = 0;
	*out = fw;
	return 0;
}

int ss_fw_mount(struct ss_fw **out, struct ss_hal *hal)
{
	struct regions r;
	struct ss_fw *fw;
	int rc;

	if (!out || !hal) {
		return -SS_EINVAL;
	}
	rc = carve(hal, &fw, &r);
	if (rc) {
		return rc;
	}
	rc = ss_ftl_mount(&fw->ftl, hal, r.ftl, r.ftl_size);
	if (rc) {
		return rc;
	}
	rc = ss_os_mount_report(&fw->os, fw->ftl, r.os, r.os_size, &fw->store_problem);
	if (rc == -SS_EBADMSG) {
		return come_up_damaged(fw, out);
	}
	if (rc == 0) {
		rc = bring_up(fw, &r);
	}
	if (rc) {
		return rc;
	}
	fw_life_load(fw);
	fw_life_power_cycle(fw);
	fw->state = FW_UP;
	*out = fw;
	return 0;
}

int ss_fw_shutdown(struct ss_fw *fw)
{
	int rc, rc2;

	if (fw && fw->state == FW_DAMAGED) {
		fw->state = FW_DOWN;
		return ss_ftl_unmount(fw->ftl);   /* the store, never mounted, writes nothing */
	}
	if (!fw || fw->state != FW_UP) {
		return fw ? 0 : -SS_EINVAL;
	}
	fw->life.clean = 1;
	(void)fw_record_store(fw, true);
	rc = ss_os_unmount(fw->os);
	rc2 = ss_ftl_unmount(fw->ftl);
	fw->state = FW_DOWN;
	fw_replies_init(fw);
	return rc ? rc : rc2;
}

int ss_fw_idle(struct ss_fw *fw)
{
	int more = 0;

	if (!fw || fw->state != FW_UP) {
		return 0;
	}
	if (ss_isp_run_slice(fw->isp, SS_ISP_BATCH_PAGES) > 0) {
		more = 1;
	}
	ss_hal_set_timeline(fw->hal, SS_HAL_TL_BACKGROUND);
	if (ss_ftl_background(fw->ftl, fw->hal->geo.pages_per_block) > 0) {
		more = 1;
	}
	ss_hal_set_timeline(fw->hal, SS_HAL_TL_HOST);
	return more;
}

int ss_fw_background_pending(const struct ss_fw *fw)
{
	int bg = 0;

	if (!fw || fw->state != FW_UP) {
		return 0;
	}
	if (ss_isp_busy(fw->isp)) {
		bg |= SS_FW_BG_ISP;
	}
	if (ss_ftl_background_pending(fw->ftl)) {
		bg |= SS_FW_BG_FTL;
	}
	return bg;
}
