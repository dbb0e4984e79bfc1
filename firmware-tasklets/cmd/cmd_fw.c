/*
 * Bringing the drive up and down: the DRAM split among the layers, format, mount,
 * shutdown, idle work, and the firmware's lifetime record (SMART counters that outlive a
 * power cycle).
 *
 * DRAM, in arena order: the command layer (its state, reply slots and reply heap, a page
 * buffer), the FTL (ss_ftl_dram_needed), the ISP engine (ss_isp_dram_needed), and all the
 * rest for the object store, which sizes itself from what it is given.
 */
#include "smartssd/builtin_tasklets.h"

#include "cmd_internal.h"

#define REGION_ALIGN 64u
#define HOUR_NS 3600000000000ull

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

/* ---- lifetime record ------------------------------------------------------------------ */

void fw_life_sync(struct ss_fw *fw)
{
	struct ss_ftl_stats st;

	ss_ftl_get_stats(fw->ftl, &st);
	fw->life.power_on_ns = fw_power_on_ns(fw);
	fw->life.nand_writes = fw->base_nand_writes +
			       (st.nand_page_writes >= fw->mount_nand_writes ?
				st.nand_page_writes - fw->mount_nand_writes : 0);
}

static void take_base(struct ss_fw *fw)
{
	struct ss_ftl_stats st;

	ss_ftl_get_stats(fw->ftl, &st);
	fw->mount_now_ns = ss_hal_now_ns(fw->hal);
	fw->mount_nand_writes = st.nand_page_writes;
	fw->base_power_on_ns = fw->life.power_on_ns;
	fw->base_nand_writes = fw->life.nand_writes;
}

static void encode(const struct fw_lifetime *l, uint8_t *b)
{
	ss_memset(b, 0, FW_RECORD_SIZE);
	ss_put_le32(b + 0, FW_RECORD_MAGIC);
	ss_put_le32(b + 4, FW_RECORD_VERSION);
	ss_put_le64(b + 8, l->mounts);
	ss_put_le64(b + 16, l->unsafe_shutdowns);
	ss_put_le64(b + 24, l->lbas_written);
	ss_put_le64(b + 32, l->lbas_read);
	ss_put_le64(b + 40, l->power_on_ns);
	ss_put_le64(b + 48, l->nand_writes);
	ss_put_le32(b + 56, (l->smart_disabled ? 1u : 0u) | (l->clean ? 2u : 0u));
	ss_memcpy(b + 60, l->worst, FW_SMART_ATTRS);
	ss_put_le32(b + 76, ss_crc32c(0, b, 76));
}

/* Version 1 (64 bytes, CRC at 60) has no worst values: they start from what is seen next. */
static bool decode(const uint8_t *b, uint32_t len, struct fw_lifetime *l)
{
	uint32_t flags, version = ss_get_le32(b + 4);
	uint32_t crc_at = version == 1 ? 60u : 76u;

	if (ss_get_le32(b) != FW_RECORD_MAGIC || (version != 1 && version != FW_RECORD_VERSION) ||
	    len < crc_at + 4 || ss_get_le32(b + crc_at) != ss_crc32c(0, b, crc_at)) {
		return false;
	}
	if (version == FW_RECORD_VERSION) {
		ss_memcpy(l->worst, b + 60, FW_SMART_ATTRS);
	}
	l->mounts = ss_get_le64(b + 8);
	l->unsafe_shutdowns = ss_get_le64(b + 16);
	l->lbas_written = ss_get_le64(b + 24);
	l->lbas_read = ss_get_le64(b + 32);
	l->power_on_ns = ss_get_le64(b + 40);
	l->nand_writes = ss_get_le64(b + 48);
	flags = ss_get_le32(b + 56);
	l->smart_disabled = flags & 1u;
	l->clean = (flags >> 1) & 1u;
	return true;
}

/* Worth a write: a counter moved, or power-on time crossed an hour (SMART's unit). The
 * NAND-write count rides along, or every record write would call for the next. */
static bool record_dirty(const struct fw_lifetime *a, const struct fw_lifetime *b)
{
	return a->mounts != b->mounts || a->unsafe_shutdowns != b->unsafe_shutdowns ||
	       a->lbas_written != b->lbas_written || a->lbas_read != b->lbas_read ||
	       a->smart_disabled != b->smart_disabled || a->clean != b->clean ||
	       ss_memcmp(a->worst, b->worst, FW_SMART_ATTRS) != 0 ||
	       a->power_on_ns / HOUR_NS != b->power_on_ns / HOUR_NS;
}

/** Write the lifetime record when it changed (always with force); not flushed here. */
int fw_record_store(struct ss_fw *fw, bool force)
{
	uint8_t b[FW_RECORD_SIZE];
	int rc;

	fw_life_sync(fw);
	fw_smart_fold_worst(fw);
	if (!force && !record_dirty(&fw->life, &fw->persisted)) {
		return 0;
	}
	if (fw->record_oid == SS_OID_NONE) {
		rc = ss_os_create(fw->os, SS_OID_ROOT, FW_RECORD_NAME, FW_RECORD_NAME_LEN, SS_OBJ_FILE,
				  0, 0, &fw->record_oid);
		if (rc) {
			fw->record_oid = SS_OID_NONE;
			return rc;
		}
	}
	encode(&fw->life, b);
	rc = ss_os_write(fw->os, fw->record_oid, 0, b, FW_RECORD_SIZE, 0, 0);
	if (rc == 0) {
		fw->persisted = fw->life;
	}
	return rc;
}

static void record_load(struct ss_fw *fw)
{
	uint8_t b[FW_RECORD_SIZE];
	uint32_t n = 0;
	ss_oid_t oid;

	ss_memset(&fw->life, 0, sizeof(fw->life));
	fw->life.clean = 1;   /* a drive without a record has never run: nothing was lost */
	fw->record_oid = SS_OID_NONE;
	if (ss_os_lookup(fw->os, SS_OID_ROOT, FW_RECORD_NAME, FW_RECORD_NAME_LEN, &oid)) {
		return;
	}
	fw->record_oid = oid;
	if (ss_os_read(fw->os, oid, 0, b, FW_RECORD_SIZE, &n) ||
	    (n != FW_RECORD_SIZE && n != FW_RECORD_V1_SIZE)) {
		return;
	}
	(void)decode(b, n, &fw->life);
}

/* A new power cycle: count it, and note whether the last one ended cleanly. */
static void power_cycle(struct ss_fw *fw)
{
	take_base(fw);
	fw->life.mounts++;
	if (!fw->life.clean) {
		fw->life.unsafe_shutdowns++;
	}
	fw->life.clean = 0;
	ss_memset(&fw->persisted, 0, sizeof(fw->persisted));
	if (fw_record_store(fw, true) == 0) {
		(void)ss_os_flush(fw->os);
	}
	fw->state = FW_UP;
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
	record_load(fw);
	power_cycle(fw);
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
	rc = ss_os_mount(&fw->os, fw->ftl, r.os, r.os_size);
	if (rc == 0) {
		rc = bring_up(fw, &r);
	}
	if (rc) {
		return rc;
	}
	record_load(fw);
	power_cycle(fw);
	*out = fw;
	return 0;
}

int ss_fw_shutdown(struct ss_fw *fw)
{
	int rc, rc2;

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
