/*
 * Geometry checks, the capacity the FTL offers, and the carving of its DRAM. Everything is
 * a function of the geometry alone, so format and every later mount agree on capacity and
 * on where a checkpoint's header page sits.
 */
#include "ftl_internal.h"

#define DRAM_ALIGN 64u

struct ftl_dims {
	uint32_t nblocks;
	uint32_t ppb;
	uint32_t page_size;
	uint64_t total_pages;
	uint32_t capacity;
	uint32_t l2p_pages;
	uint32_t blk_pages;
	uint32_t ckpt_pages;
	uint32_t ckpt_blocks;
	uint32_t trims_per_page;
	uint32_t trims_cap;
	uint32_t width;
};

void ss_ftl_default_params(struct ss_ftl_params *p)
{
	p->gc_policy = SS_GC_GREEDY;
	/* [Kang 2014, §4.1-4.3.2, Fig. 4.3, p. 36]: metadata segments are cleaned only at
	 * <= 60 % live data because their live data dies soon; data segments at <= 80 %. */
	p->clean_threshold_permille[SS_STREAM_META] = 600;
	p->clean_threshold_permille[SS_STREAM_HOT] = 800;
	p->clean_threshold_permille[SS_STREAM_COLD] = 800;
	p->wear_level_delta = 32;
	p->checkpoint_interval_pages = 4096;
}

int ftl_geometry_check(const struct ss_geometry *g)
{
	if (g->channels == 0 || g->ways == 0 || g->blocks_per_die == 0 ||
	    g->pages_per_block < 2 || g->pages_per_block > FTL_MAX_PPB ||
	    g->page_size < 512 || g->page_size % 8 != 0 || g->spare_size < FTL_SPARE_BYTES ||
	    g->overprovision_permille >= 1000) {
		return -SS_EINVAL;
	}
	if ((uint64_t)g->channels * g->ways * g->blocks_per_die > 0x7FFFFFFFu ||
	    ss_geo_pages(g) >= FTL_NONE) {
		return -SS_EINVAL;
	}
	return 0;
}

static int dims(const struct ss_geometry *g, struct ftl_dims *d)
{
	uint64_t cap_upper, l2p_upper, reserved, cap;
	uint32_t c_upper;

	if (ftl_geometry_check(g) != 0) {
		return -SS_EINVAL;
	}
	d->nblocks = ss_geo_blocks(g);
	d->ppb = g->pages_per_block;
	d->page_size = g->page_size;
	d->total_pages = ss_geo_pages(g);
	d->width = ftl_stripe_width(g);
	/* Whole entries per page: an entry never straddles two pages. */
	d->blk_pages = (uint32_t)SS_DIV_ROUND_UP((uint64_t)d->nblocks,
						 d->page_size / FTL_BLK_ENTRY_BYTES);
	/* Size the checkpoint for the largest capacity first; the reserve it implies only
	 * lowers the capacity, so the final checkpoint is never larger. */
	cap_upper = d->total_pages * (1000 - g->overprovision_permille) / 1000;
	l2p_upper = SS_DIV_ROUND_UP(cap_upper * 4, d->page_size);
	c_upper = (uint32_t)SS_DIV_ROUND_UP(l2p_upper + d->blk_pages + 1, d->ppb);
	/* Two checkpoints, an open block per stripe lane of every stream and of GC, and slack
	 * for GC to progress (a fresh block per GC lane, plus a few). */
	reserved = 2ull * c_upper + ftl_open_blocks_max(d->width) + d->width + 3;
	if (d->nblocks < reserved + 2) {
		return -SS_EINVAL;
	}
	cap = (d->nblocks - reserved) * (uint64_t)d->ppb * (1000 - g->overprovision_permille) /
	      1000;
	if (cap == 0 || cap >= FTL_NONE) {
		return -SS_EINVAL;
	}
	d->capacity = (uint32_t)cap;
	d->l2p_pages = (uint32_t)SS_DIV_ROUND_UP(cap * 4, d->page_size);
	d->ckpt_pages = d->l2p_pages + d->blk_pages + 1;
	d->ckpt_blocks = SS_DIV_ROUND_UP(d->ckpt_pages, d->ppb);
	if (d->ckpt_blocks > FTL_MAX_CKPT_BLOCKS ||
	    FTL_CKPT_HDR_FIXED + 4 * d->ckpt_blocks > d->page_size) {
		return -SS_EINVAL;
	}
	d->trims_per_page = (d->page_size - 8) / sizeof(struct ftl_trim_range);
	d->trims_cap = d->trims_per_page * 2;
	return 0;
}

/* Sizes of every DRAM structure, in carving order. */
static void dram_items(const struct ftl_dims *d, const struct ss_geometry *g, uint64_t sz[13])
{
	sz[0] = sizeof(struct ss_ftl);
	sz[1] = (uint64_t)d->capacity * 4;                       /* l2p */
	sz[2] = d->total_pages * 4;                              /* p2l */
	sz[3] = (uint64_t)d->nblocks * sizeof(struct ftl_block);
	sz[4] = (uint64_t)d->nblocks * sizeof(struct ftl_cursor);
	sz[5] = d->page_size;                                    /* buf */
	sz[6] = (uint64_t)d->page_size * FTL_GC_BATCH;           /* gcbuf */
	sz[7] = g->spare_size;
	sz[8] = (uint64_t)g->spare_size * FTL_GC_BATCH;
	sz[9] = (uint64_t)d->trims_cap * sizeof(struct ftl_trim_range);
	sz[10] = (uint64_t)d->ckpt_blocks * 4;
	sz[11] = (uint64_t)d->ckpt_blocks * 4;
	sz[12] = (uint64_t)ftl_open_blocks_max(d->width) * 4;     /* open */
}

uint64_t ss_ftl_dram_needed(const struct ss_geometry *geo)
{
	struct ftl_dims d;
	uint64_t sz[13], total = DRAM_ALIGN;   /* the arena base may be unaligned */

	if (geo == NULL || dims(geo, &d) != 0) {
		return 0;
	}
	dram_items(&d, geo, sz);
	for (unsigned i = 0; i < SS_ARRAY_SIZE(sz); i++) {
		total += SS_ALIGN_UP(sz[i], DRAM_ALIGN);
	}
	return total;
}

int ftl_layout(struct ss_ftl **out, struct ss_hal *hal, void *dram, uint64_t dram_size)
{
	struct ss_arena arena;
	struct ftl_dims d;
	struct ss_ftl *f;
	uint64_t sz[13];
	void *p[13];
	int rc;

	if (out == NULL || hal == NULL || hal->ops == NULL || dram == NULL) {
		return -SS_EINVAL;
	}
	rc = dims(&hal->geo, &d);
	if (rc != 0) {
		return rc;
	}
	if (dram_size < ss_ftl_dram_needed(&hal->geo) || dram_size > (uint64_t)SIZE_MAX) {
		return -SS_ENOMEM;
	}
	dram_items(&d, &hal->geo, sz);
	ss_arena_init(&arena, dram, (size_t)dram_size);
	for (unsigned i = 0; i < SS_ARRAY_SIZE(sz); i++) {
		p[i] = ss_arena_alloc(&arena, (size_t)SS_ALIGN_UP(sz[i], DRAM_ALIGN), DRAM_ALIGN);
		if (p[i] == NULL) {
			return -SS_ENOMEM;
		}
	}
	f = p[0];
	f->hal = hal;
	f->geo = hal->geo;
	f->nblocks = d.nblocks;
	f->ppb = d.ppb;
	f->page_size = d.page_size;
	f->total_pages = d.total_pages;
	f->capacity = d.capacity;
	f->ckpt_l2p_pages = d.l2p_pages;
	f->ckpt_blk_pages = d.blk_pages;
	f->ckpt_pages = d.ckpt_pages;
	f->ckpt_blocks = d.ckpt_blocks;
	f->l2p = p[1];
	f->p2l = p[2];
	f->blocks = p[3];
	f->rf = p[4];
	f->buf = p[5];
	f->gcbuf = p[6];
	f->spare_raw = p[7];
	f->spare_gc = p[8];
	f->trims = p[9];
	f->trims_cap = d.trims_cap;
	f->trims_per_page = d.trims_per_page;
	f->ckpt_cur = p[10];
	f->ckpt_prev = p[11];
	f->width = d.width;
	f->open = p[12];
	ss_memset(f->open, 0xFF, sz[12]);
	ss_memset(f->l2p, 0xFF, sz[1]);
	ss_memset(f->p2l, 0xFF, sz[2]);
	f->next_seq = 1;
	f->st.total_blocks = d.nblocks;
	*out = f;
	return 0;
}
