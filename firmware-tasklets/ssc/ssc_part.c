/*
 * The partition label and the HAL views of the FTL's and the cache's blocks
 * (ss_ssc_part.h). The label page: 0 magic  4 version  8 share_permille  12 ftl_rows
 * 16 ssc_rows  20 blocks_per_die  24 dies  28 crc of bytes 0..27; the same in both copies,
 * on the first two good blocks of the last row (one block per die). A block that fails
 * its erase or program (factory bad) is skipped, as the FTL skips one; the reader scans
 * the row. Format erases the whole row first, so no older label is left beside the new.
 */
#include "ss_rt.h"
#include "ss_ssc_part.h"

#define PART_MAGIC 0x54505353u  /* "SSPT" */
#define PART_VERSION 1u
#define PART_BYTES 32u

int ss_ssc_part_plan(const struct ss_geometry *g, uint32_t share_permille,
		     struct ss_ssc_part *out)
{
	uint32_t rows;

	if (share_permille > SS_SSC_SHARE_MAX_PERMILLE || g->blocks_per_die < 3 ||
	    ss_geo_dies(g) < 2) {
		return -SS_EINVAL;
	}
	rows = g->blocks_per_die - 1;
	out->share_permille = share_permille;
	out->ssc_rows = (uint32_t)((uint64_t)rows * share_permille / 1000);
	out->ftl_rows = rows - out->ssc_rows;
	if (out->ftl_rows == 0 || (share_permille > 0 && out->ssc_rows == 0)) {
		return -SS_EINVAL;
	}
	return 0;
}

static uint32_t label_block(const struct ss_geometry *g, uint32_t i)
{
	return (g->blocks_per_die - 1) * ss_geo_dies(g) + i;
}

int ss_ssc_part_format(struct ss_hal *hal, uint32_t share_permille, void *scratch,
		       struct ss_ssc_part *out)
{
	const struct ss_geometry *g = &hal->geo;
	uint8_t *page = scratch, *spare = page + g->page_size;
	int rc = ss_ssc_part_plan(g, share_permille, out);
	uint32_t copies = 0;

	if (rc) {
		return rc;
	}
	ss_memset(page, 0, g->page_size);
	ss_memset(spare, 0xFF, g->spare_size);
	ss_put_le32(page, PART_MAGIC);
	ss_put_le32(page + 4, PART_VERSION);
	ss_put_le32(page + 8, out->share_permille);
	ss_put_le32(page + 12, out->ftl_rows);
	ss_put_le32(page + 16, out->ssc_rows);
	ss_put_le32(page + 20, g->blocks_per_die);
	ss_put_le32(page + 24, ss_geo_dies(g));
	ss_put_le32(page + 28, ss_crc32c(0, page, 28));
	/* the spare holds the same 32 bytes, so the label is found without ECC'd data */
	ss_memcpy(spare, page, PART_BYTES);
	for (uint32_t i = 0; i < ss_geo_dies(g); i++) {
		rc = ss_hal_block_erase(hal, label_block(g, i));
		if (rc && rc != -SS_EIO) {
			return rc;
		}
	}
	for (uint32_t i = 0; i < ss_geo_dies(g) && copies < 2; i++) {
		uint32_t b = label_block(g, i);

		rc = ss_hal_page_program(hal, b * g->pages_per_block, page, spare);
		if (rc == -SS_EIO) {
			continue;
		}
		if (rc) {
			return rc;
		}
		copies++;
	}
	/* one good block of the row is enough; none means the label cannot be kept */
	return copies ? ss_hal_sync(hal) : -SS_EIO;
}

int ss_ssc_part_read(struct ss_hal *hal, void *scratch, struct ss_ssc_part *out)
{
	const struct ss_geometry *g = &hal->geo;
	uint8_t *page = scratch, *spare = page + g->page_size;
	int found_any = 0;

	if (g->blocks_per_die < 3 || ss_geo_dies(g) < 2) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < ss_geo_dies(g); i++) {
		if (ss_hal_page_read(hal, label_block(g, i) * g->pages_per_block, page, spare) != 0) {
			continue;
		}
		/* Without the magic (in the data and the same bytes in the spare) the block holds
		 * no label: erased, factory bad, or an FTL's data on a flash formatted before
		 * labels existed (which is to be mounted as having no cache). */
		if (ss_get_le32(page) != PART_MAGIC || ss_memcmp(spare, page, PART_BYTES) != 0) {
			continue;
		}
		found_any = 1;
		if (ss_get_le32(page + 4) != PART_VERSION ||
		    ss_get_le32(page + 28) != ss_crc32c(0, page, 28)) {
			continue;
		}
		if (ss_get_le32(page + 20) != g->blocks_per_die ||
		    ss_get_le32(page + 24) != ss_geo_dies(g) ||
		    ss_ssc_part_plan(g, ss_get_le32(page + 8), out) != 0 ||
		    out->ftl_rows != ss_get_le32(page + 12) || out->ssc_rows != ss_get_le32(page + 16)) {
			return -SS_EBADMSG;
		}
		return 0;
	}
	return found_any ? -SS_EBADMSG : -SS_ENODATA;
}

static int v_read(void *ctx, uint32_t ppn, void *d, void *s)
{
	struct ss_hal_view *v = ctx;

	if ((uint64_t)ppn >= ss_geo_pages(&v->hal.geo)) {
		return -SS_EINVAL;
	}
	return ss_hal_page_read(v->parent, ppn + v->page_offset, d, s);
}

static int v_program(void *ctx, uint32_t ppn, const void *d, const void *s)
{
	struct ss_hal_view *v = ctx;

	if ((uint64_t)ppn >= ss_geo_pages(&v->hal.geo)) {
		return -SS_EINVAL;
	}
	return ss_hal_page_program(v->parent, ppn + v->page_offset, d, s);
}

static int v_erase(void *ctx, uint32_t block)
{
	struct ss_hal_view *v = ctx;

	if (block >= ss_geo_blocks(&v->hal.geo)) {
		return -SS_EINVAL;
	}
	return ss_hal_block_erase(v->parent, block + v->block_offset);
}

static int v_sync(void *ctx) { return ss_hal_sync(((struct ss_hal_view *)ctx)->parent); }
static void v_barrier(void *ctx) { ss_hal_barrier(((struct ss_hal_view *)ctx)->parent); }
static void v_timeline(void *ctx, enum ss_hal_timeline tl)
{
	ss_hal_set_timeline(((struct ss_hal_view *)ctx)->parent, tl);
}
static void v_isp(void *ctx, uint64_t i, uint64_t d, uint64_t p)
{
	ss_hal_isp_account(((struct ss_hal_view *)ctx)->parent, i, d, p);
}
static uint64_t v_now(void *ctx) { return ss_hal_now_ns(((struct ss_hal_view *)ctx)->parent); }
#ifndef SS_FW_WITHOUT_SSC
/* the cache's commits off the command's path (ssc_log.c); a board without it saves this */
static void v_not_before(void *ctx, uint64_t t)
{
	ss_hal_not_before(((struct ss_hal_view *)ctx)->parent, t);
}
#endif
static void v_ra(void *ctx, int on) { ss_hal_read_ahead(((struct ss_hal_view *)ctx)->parent, on); }
static void v_ra_wait(void *ctx) { ss_hal_read_ahead_wait(((struct ss_hal_view *)ctx)->parent); }
/* The tasklet watchdog is the core's, not a region's: a view passes it through. */
static void v_wd_arm(void *ctx, uint32_t ms)
{
	ss_hal_watchdog_arm(((struct ss_hal_view *)ctx)->parent, ms);
}
static int v_section_run(void *ctx, int (*fn)(void *arg), void *arg)
{
	return ss_hal_section_run(((struct ss_hal_view *)ctx)->parent, fn, arg);
}
static void v_section_abort(void *ctx, int err)
{
	ss_hal_section_abort(((struct ss_hal_view *)ctx)->parent, err);
}
static void v_section_mask(void *ctx, int on)
{
	ss_hal_section_mask(((struct ss_hal_view *)ctx)->parent, on);
}

static void view_init(struct ss_hal_view *v, struct ss_hal *parent, uint32_t first_row,
		      uint32_t rows)
{
	uint32_t dies = ss_geo_dies(&parent->geo);

	ss_memset(v, 0, sizeof(*v));
	v->parent = parent;
	v->block_offset = first_row * dies;
	v->page_offset = v->block_offset * parent->geo.pages_per_block;
	v->ops = (struct ss_hal_ops){
		.page_read = v_read, .page_program = v_program, .block_erase = v_erase,
		.sync = v_sync, .barrier = v_barrier, .set_timeline = v_timeline,
		.isp_account = v_isp, .now_ns = v_now, .read_ahead = v_ra,
		.read_ahead_wait = v_ra_wait, .watchdog_arm = v_wd_arm,
		.section_run = v_section_run, .section_abort = v_section_abort,
		.section_mask = v_section_mask,
#ifndef SS_FW_WITHOUT_SSC
		.not_before = v_not_before,
#endif
		/* no nvram, no pricing: the ISP engine holds the drive's own hal */
	};
	v->hal = *parent;
	v->hal.geo.blocks_per_die = rows;
	v->hal.ops = &v->ops;
	v->hal.ctx = v;
}

void ss_ssc_part_views(struct ss_hal *hal, const struct ss_ssc_part *p,
		       struct ss_hal_view *ftl_view, struct ss_hal_view *ssc_view)
{
	view_init(ftl_view, hal, 0, p->ftl_rows);
	view_init(ssc_view, hal, p->ftl_rows, p->ssc_rows);
}
