/*
 * Bringing the drive up and down: the flash split between the FTL and the solid-state
 * cache, the DRAM split among the layers, format, mount, shutdown and idle work. The
 * lifetime record that each power cycle updates is cmd_life.c's.
 *
 * Flash: with a cache share, a partition label (ss_ssc_part.h) gives the FTL (and the
 * object store on it) the first rows of blocks and the cache the next ones, each through a
 * HAL view. A flash without a label (share 0, or formatted before the cache existed) is
 * all the FTL's, as it always was.
 *
 * DRAM, in arena order: the command layer (its state, reply slots and reply heap, a page
 * buffer), the FTL (ss_ftl_dram_needed), the ISP engine (ss_isp_dram_needed), the cache
 * (ss_ssc_dram_needed, reserved for SSC-V's largest log), and all the rest for the object
 * store, which sizes itself from what it is given; the DRAM buffer (cmd_buffer.c) takes
 * what the store leaves.
 */
#include "smartssd/builtin_tasklets.h"

#include "cmd_internal.h"

#define REGION_ALIGN 64u

struct regions {
	void *ftl, *isp, *ssc, *os;
	uint64_t ftl_size, isp_size, ssc_size, os_size;
};

/* The cache's DRAM on its part of the flash: enough for either policy (SSC-V's 20 % log
 * reserves the most page-level mappings). \return 0 when the cache cannot run there. */
static uint64_t ssc_dram(const struct ss_geometry *cache_geo)
{
	struct ss_ssc_params sp;

	ss_ssc_default_params(&sp, SS_SSC_POLICY_SSC_V);
	return ss_ssc_dram_needed(cache_geo, &sp);
}

static uint64_t own_bytes(const struct ss_geometry *geo)
{
	return SS_ALIGN_UP(sizeof(struct ss_fw), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_SLOTS * sizeof(struct fw_reply), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_SLOTS * sizeof(uint16_t), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_REPLY_HEAP_BYTES, REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)geo->page_size, REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_LIST_BATCH * sizeof(struct ss_dirent), REGION_ALIGN) +
	       SS_ALIGN_UP((uint64_t)FW_EXTENTS_MAX * sizeof(struct ss_extent), REGION_ALIGN) +
	       SS_ALIGN_UP(fw_bpf_dram(), REGION_ALIGN) + REGION_ALIGN;
}

uint64_t ss_fw_dram_needed_with_buffer(const struct ss_geometry *geo, uint64_t buffer_bytes)
{
	struct ss_geometry cache_geo = *geo;
	struct ss_ssc_part part;
	uint64_t cache = 0;

	/* the FTL's and the object store's figures for the whole flash bound theirs on a part */
	if (ss_ssc_part_plan(geo, SS_SSC_SHARE_DEFAULT_PERMILLE, &part) == 0) {
		cache_geo.blocks_per_die = part.ssc_rows;
		cache = SS_ALIGN_UP(ssc_dram(&cache_geo), REGION_ALIGN);
	}
	return own_bytes(geo) + SS_ALIGN_UP(ss_ftl_dram_needed(geo), REGION_ALIGN) +
	       SS_ALIGN_UP(ss_isp_dram_needed(geo), REGION_ALIGN) + cache +
	       SS_ALIGN_UP(ss_os_dram_needed(geo, NULL), REGION_ALIGN) +
	       fw_buffer_dram(geo, buffer_bytes) + 2 * REGION_ALIGN;
}

uint64_t ss_fw_dram_needed(const struct ss_geometry *geo)
{
	return ss_fw_dram_needed_with_buffer(geo, 0);
}

static int carve(struct ss_hal *hal, const struct ss_ssc_part *part, struct ss_fw **out,
		 struct regions *r)
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
	fw->part = *part;
	fw->ftl_hal = hal;
	if (part->ssc_rows) {
		ss_ssc_part_views(hal, part, &fw->ftl_view, &fw->ssc_view);
		fw->ftl_hal = &fw->ftl_view.hal;
	}
	fw->replies = ss_arena_alloc(&a, FW_REPLY_SLOTS * sizeof(struct fw_reply), REGION_ALIGN);
	fw->heap_order = ss_arena_alloc(&a, FW_REPLY_SLOTS * sizeof(uint16_t), REGION_ALIGN);
	fw->heap = ss_arena_alloc(&a, FW_REPLY_HEAP_BYTES, REGION_ALIGN);
	fw->page_buf = ss_arena_alloc(&a, geo->page_size, REGION_ALIGN);
	fw->dirents = ss_arena_alloc(&a, FW_LIST_BATCH * sizeof(struct ss_dirent), REGION_ALIGN);
	fw->extents = ss_arena_alloc(&a, FW_EXTENTS_MAX * sizeof(struct ss_extent), REGION_ALIGN);
	fw->heap_size = FW_REPLY_HEAP_BYTES;
	fw_bpf_carve(fw, &a);
	r->ftl_size = ss_ftl_dram_needed(&fw->ftl_hal->geo);
	r->isp_size = ss_isp_dram_needed(geo);
	r->ftl = ss_arena_alloc(&a, (size_t)r->ftl_size, REGION_ALIGN);
	r->isp = ss_arena_alloc(&a, (size_t)r->isp_size, REGION_ALIGN);
	r->ssc = NULL;
	r->ssc_size = 0;
	if (part->ssc_rows) {
		r->ssc_size = ssc_dram(&fw->ssc_view.hal.geo);
		if (r->ssc_size == 0) {
			return -SS_EINVAL;
		}
#ifndef SS_FW_WITHOUT_SSC
		/* the cache's read-ahead, when it takes at most an eighth of the DRAM (16 MiB of
		 * kang-smartssd's 256; never on jasmine-openssd, whose 32 KiB pages make it 64) */
		if (ss_ssc_dram_read_ahead(&fw->ssc_view.hal.geo) <= hal->dram_size / 8) {
			r->ssc_size += ss_ssc_dram_read_ahead(&fw->ssc_view.hal.geo);
		}
#endif
		r->ssc = ss_arena_alloc(&a, (size_t)r->ssc_size, REGION_ALIGN);
	}
	if (!fw->replies || !fw->heap_order || !fw->heap || !fw->page_buf || !fw->dirents ||
	    !fw->extents || !r->ftl || !r->isp || (part->ssc_rows && !r->ssc)) {
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

/* The buffer in what the object store left of its region. */
static int start_buffer(struct ss_fw *fw, const struct regions *r,
			const struct ss_fw_format_params *p, bool format, bool discard_nvram,
			struct ss_fw_mount_report *mr)
{
	uint64_t used = SS_ALIGN_UP(ss_os_dram_used(fw->os), REGION_ALIGN);

	if (used > r->os_size) {
		return -SS_ENOMEM;
	}
	return fw_buffer_start(fw, (uint8_t *)r->os + used, r->os_size - used, p, format,
			       discard_nvram, mr);
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
	rc = fw_bpf_register(fw);
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

/* Scratch for the partition label before the arena is carved: its first bytes. */
static void *label_scratch(const struct ss_hal *hal)
{
	uint64_t need = (uint64_t)hal->geo.page_size + hal->geo.spare_size;

	return hal->dram && hal->dram_size >= need ? hal->dram : NULL;
}

#ifndef SS_FW_WITHOUT_CHUNKS
/* An open-channel or zoned drive: the label, the chunk table and nothing else. */
static int come_up_chunked(struct ss_hal *hal, uint32_t iface, bool format, struct ss_fw **out)
{
	struct ss_ssc_part part = { 0 };
	struct regions r;
	struct ss_fw *fw;
	int rc;

	rc = carve(hal, &part, &fw, &r);
	if (rc) {
		return rc;
	}
	fw->ftl = NULL;
	fw->os = NULL;
	fw->isp = NULL;
	fw->buf = NULL;
	rc = format ? fw_chunks_format(fw, iface, r.os, r.os_size)
		    : fw_chunks_mount(fw, iface, r.os, r.os_size);
	if (rc) {
		return rc;
	}
	fw->page_size = hal->geo.page_size;
	fw->sectors_per_page = fw->page_size / SS_SECTOR;
	fw->capacity_sectors = (uint64_t)fw->chunks.count << fw->chunks.zone_shift;
	fw->state = FW_CHUNKED;
	*out = fw;
	return 0;
}
#endif

int ss_fw_format(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_format_params *p)
{
	struct ss_fw_format_params fp_buf = { 0 };
	uint32_t share = p ? p->cache_share_permille : 0;
	struct ss_ssc_part part = { 0 };
	struct ss_ssc_params sp;
	struct ss_ftl_params fp;
	struct ss_os_params op;
	struct regions r;
	struct ss_fw *fw;
	int rc;

	if (!out || !hal) {
		return -SS_EINVAL;
	}
	if (p && p->interface != SS_IFACE_FTL) {
#ifdef SS_FW_WITHOUT_CHUNKS
		return -SS_ENOSYS;
#else
		if (p->interface != SS_IFACE_OPEN_CHANNEL && p->interface != SS_IFACE_ZONED) {
			return -SS_EINVAL;
		}
		return come_up_chunked(hal, p->interface, true, out);
#endif
	}
	if (share) {
		/* plan before the label is written, so a cache that cannot run (too small a
		 * flash, or a firmware built without the cache) leaves the flash untouched */
		uint32_t want = share == SS_FW_CACHE_SHARE_DEFAULT ? SS_SSC_SHARE_DEFAULT_PERMILLE
								     : share;
		struct ss_geometry cache_geo = hal->geo;

		rc = ss_ssc_part_plan(&hal->geo, want, &part);
		cache_geo.blocks_per_die = part.ssc_rows;
		if (rc == 0 && ssc_dram(&cache_geo) == 0) {
			rc = -SS_EINVAL;
		}
		ss_memset(&part, 0, sizeof(part));
		if (rc != 0 && share != SS_FW_CACHE_SHARE_DEFAULT) {
			return rc;
		}
		share = rc == 0 ? want : 0;   /* the default: no cache where none can run */
	}
	if (share) {
		if (!label_scratch(hal)) {
			return -SS_ENOMEM;
		}
		rc = ss_ssc_part_format(hal, share, label_scratch(hal), &part);
		if (rc) {
			return rc;
		}
	}
	rc = carve(hal, &part, &fw, &r);
	if (rc) {
		return rc;
	}
	ss_ftl_default_params(&fp);
	rc = ss_ftl_format(&fw->ftl, fw->ftl_hal, r.ftl, r.ftl_size, &fp);
	if (rc) {
		return rc;
	}
	if (part.ssc_rows) {
		ss_ssc_default_params(&sp, SS_SSC_POLICY_SSC_V);
		rc = ss_ssc_format(&fw->ssc, &fw->ssc_view.hal, r.ssc, r.ssc_size, &sp);
		if (rc) {
			return rc;
		}
	}
	ss_os_default_params(fw->ftl, &op);
	if (p && p->max_objects) {
		op.max_objects = p->max_objects;
	}
	if (ss_os_dram_needed(&fw->ftl_hal->geo, &op) > r.os_size) {
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
	fw_bpf_mount(fw);
	fw_life_power_cycle(fw);
	if (p) {
		fp_buf = *p;
	}
	{
		struct ss_fw_mount_report mr;

		ss_memset(&mr, 0, sizeof(mr));
		rc = start_buffer(fw, &r, &fp_buf, true, false, &mr);
	}
	if (rc) {
		return rc;
	}
	fw->state = FW_UP;
	/* the format's own programs are part of the drive's life */
	fw->mount_nand_writes = 0;
	*out = fw;
	return 0;
}

int ss_fw_mount(struct ss_fw **out, struct ss_hal *hal)
{
	return ss_fw_mount_with(out, hal, NULL);
}

int ss_fw_mount_with(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_format_params *p)
{
	struct ss_fw_mount_opts o = { .buffer = p };

	return ss_fw_mount_ex(out, hal, &o, NULL);
}

int ss_fw_mount_ex(struct ss_fw **out, struct ss_hal *hal, const struct ss_fw_mount_opts *o,
		   struct ss_fw_mount_report *rep)
{
	struct ss_ssc_part part = { 0 };
	struct ss_fw_mount_report mr;
	struct regions r;
	struct ss_fw *fw;
	int rc;

	ss_memset(&mr, 0, sizeof(mr));
	rep = rep ? rep : &mr;
	ss_memset(rep, 0, sizeof(*rep));
	if (!out || !hal || !o) {
		return -SS_EINVAL;
	}
	if (!label_scratch(hal)) {
		return -SS_ENOMEM;
	}
	rep->layer = SS_FW_LAYER_CACHE_LABEL;
	rc = ss_ssc_part_read(hal, label_scratch(hal), &part);
	/* no label (share 0 or formatted before the cache), or a geometry too small for one:
	 * the whole flash is the FTL's */
	if (rc == -SS_ENODATA || rc == -SS_EINVAL) {
		ss_memset(&part, 0, sizeof(part));
	} else if (rc) {
		return rc;
	}
#ifndef SS_FW_WITHOUT_CHUNKS
	if (rc) {
		uint32_t iface;
		int rc2 = fw_chunks_label_read(hal, label_scratch(hal), &iface);

		if (rc2 == 0) {
			rep->layer = SS_FW_LAYER_CHUNKS;
			rc2 = come_up_chunked(hal, iface, false, out);
			if (rc2 == 0) {
				rep->layer = SS_FW_LAYER_NONE;
			}
			return rc2;
		}
		if (rc2 != -SS_ENODATA) {
			return rc2;
		}
	}
#endif
	rep->layer = SS_FW_LAYER_NONE;
	rc = carve(hal, &part, &fw, &r);
	if (rc) {
		return rc;
	}
	rep->layer = SS_FW_LAYER_FTL;
	rc = ss_ftl_mount_report(&fw->ftl, fw->ftl_hal, r.ftl, r.ftl_size, &rep->ftl_part);
	if (rc) {
		return rc;
	}
	if (part.ssc_rows) {
		rep->layer = SS_FW_LAYER_CACHE;
		rc = ss_ssc_mount(&fw->ssc, &fw->ssc_view.hal, r.ssc, r.ssc_size);
		if (rc) {
			return rc;
		}
	}
	rep->layer = SS_FW_LAYER_STORE;
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
	fw_bpf_mount(fw);
	fw_life_power_cycle(fw);
	rep->layer = SS_FW_LAYER_BUFFER;
	rc = start_buffer(fw, &r, o->buffer, false, o->discard_nvram != 0, rep);
	if (rc) {
		return rc;
	}
	fw->state = FW_UP;
	rep->layer = SS_FW_LAYER_NONE;
	*out = fw;
	return 0;
}

int ss_fw_shutdown(struct ss_fw *fw)
{
	int rc, rc2;

#ifndef SS_FW_WITHOUT_CHUNKS
	if (fw && fw->state == FW_CHUNKED) {
		fw->state = FW_DOWN;
		rc = fw_chunks_persist(fw);
		fw_replies_init(fw);
		return rc;
	}
#endif
	if (fw && fw->state == FW_DAMAGED) {
		fw->state = FW_DOWN;
		return ss_ftl_unmount(fw->ftl);   /* the store, never mounted, writes nothing */
	}
	if (!fw || fw->state != FW_UP) {
		return fw ? 0 : -SS_EINVAL;
	}
	fw->life.clean = 1;
	(void)fw_smart_record_store(fw, true);
	rc = ss_os_unmount(fw->os);
	if (fw->ssc) {
		rc2 = ss_ssc_unmount(fw->ssc);
		rc = rc ? rc : rc2;
	}
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

void ss_fw_isp_not_before(struct ss_fw *fw, uint64_t t)
{
	if (fw && fw->state == FW_UP) {
		ss_isp_not_before(fw->isp, t);
	}
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
