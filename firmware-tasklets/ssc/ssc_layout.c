/*
 * Geometry and parameter checks, the metadata layout on flash, and the DRAM the cache
 * carves from its arena: nothing is allocated after this.
 *
 * DRAM per cache: the block table (sizeof(struct ssc_block) per block), three bitmaps
 * (valid, dirty, data-block layout: one bit per page), the page map sized for the log ceiling (log_cap *
 * pages_per_block entries) and the block map (one entry per block of the pool), 12 B per map bucket at
 * most 3/4 full, three page-sized buffers, and the block lists of two checkpoints.
 */
#include "ssc_internal.h"

#define ARENA_ALIGN 8u
/* the smallest cache part that runs: a log block, a free block for merges, data blocks */
#define MIN_CACHE_BLOCKS 6u

void ss_ssc_default_params(struct ss_ssc_params *p, enum ss_ssc_policy policy)
{
	ss_memset(p, 0, sizeof(*p));
	p->policy = policy;
	p->log_permille = policy == SS_SSC_POLICY_SSC ? SS_SSC_LOG_PERMILLE_SSC
						      : SS_SSC_LOG_PERMILLE_MAX;
	p->group_commit_records = 0;
}

/* The metadata layout depends on the geometry only (sized for the largest log share), so
 * mount finds the checkpoints before it knows the parameters. */
void ssc_meta_layout(const struct ss_geometry *g, uint32_t *body_pages, uint32_t *ckpt_blocks,
		     uint32_t *log_area_blocks)
{
	uint32_t nblocks = ss_geo_blocks(g), ppb = g->pages_per_block;
	uint64_t bm_bytes = 3ull * SS_DIV_ROUND_UP(ppb, 32) * 4;
	uint64_t max_log_pages = SS_DIV_ROUND_UP((uint64_t)nblocks * SS_SSC_LOG_PERMILLE_MAX, 1000) * ppb;
	uint64_t body = (uint64_t)nblocks * (SSC_BLK_ENTRY_FIXED + bm_bytes) + max_log_pages * 12;

	*body_pages = (uint32_t)SS_DIV_ROUND_UP(body, g->page_size);
	*ckpt_blocks = SS_DIV_ROUND_UP(*body_pages + 1, ppb);
	*log_area_blocks = SS_MAX(1u, *ckpt_blocks);
}

int ssc_params_check(const struct ss_geometry *g, const struct ss_ssc_params *p)
{
	uint32_t body, ck, la;

	if (g->pages_per_block < 4 || g->pages_per_block > SSC_MAX_PPB || g->page_size < 512 ||
	    g->spare_size < SSC_SPARE_BYTES || ss_geo_blocks(g) == 0) {
		return -SS_EINVAL;
	}
	if (p->policy != SS_SSC_POLICY_SSC && p->policy != SS_SSC_POLICY_SSC_V) {
		return -SS_EINVAL;
	}
	if (p->log_permille == 0 || p->log_permille > SS_SSC_LOG_PERMILLE_MAX) {
		return -SS_EINVAL;
	}
	ssc_meta_layout(g, &body, &ck, &la);
	/* the checkpoints' reserve, their blocks listed in a header page, and a cache that runs */
	if ((uint64_t)SSC_META_RESERVE * (ck + la) + MIN_CACHE_BLOCKS > ss_geo_blocks(g) ||
	    SSC_CKPT_HDR_LIST_OFF + 4ull * (ck + la) > g->page_size) {
		return -SS_EINVAL;
	}
	return 0;
}

struct sizes {
	uint32_t cache_blocks, slot_blocks, log_cap, data_cap, bm_words;
	uint64_t blocks, bitmaps, meta_lists, page_map, block_map, buffers, total;
};

static int compute(const struct ss_geometry *g, const struct ss_ssc_params *p, struct sizes *z)
{
	uint32_t body, ck, la, nblocks = ss_geo_blocks(g);
	int rc = ssc_params_check(g, p);

	if (rc) {
		return rc;
	}
	ssc_meta_layout(g, &body, &ck, &la);
	z->slot_blocks = ck + la;
	z->cache_blocks = nblocks - SSC_META_RESERVE * z->slot_blocks;
	z->log_cap = SS_MAX(1u, (uint32_t)SS_DIV_ROUND_UP((uint64_t)z->cache_blocks * p->log_permille,
							  1000));
	/* one free block always stays for the target of a merge */
	z->data_cap = p->policy == SS_SSC_POLICY_SSC ? z->cache_blocks - z->log_cap - 1
						     : z->cache_blocks - 2;
	z->bm_words = SS_DIV_ROUND_UP(g->pages_per_block, 32);
	z->blocks = SS_ALIGN_UP((uint64_t)nblocks * sizeof(struct ssc_block), ARENA_ALIGN);
	z->bitmaps = 3 * SS_ALIGN_UP((uint64_t)nblocks * z->bm_words * 4, ARENA_ALIGN);
	z->meta_lists = 2 * SS_ALIGN_UP((uint64_t)z->slot_blocks * 4, ARENA_ALIGN);
	z->page_map = ssc_map_bytes(z->log_cap * g->pages_per_block);
	/* a switch merge turns a log block into a data block past the data cap, so data
	 * blocks may take any block of the pool but the checkpoint's */
	z->block_map = ssc_map_bytes(nblocks);
	if (z->page_map == 0 || z->block_map == 0) {
		return -SS_EINVAL;
	}
	z->buffers = 2 * SS_ALIGN_UP((uint64_t)g->page_size, ARENA_ALIGN) +
		     SS_ALIGN_UP(g->spare_size, ARENA_ALIGN);
	z->total = SS_ALIGN_UP(sizeof(struct ss_ssc), ARENA_ALIGN) + z->blocks + z->bitmaps +
		   z->meta_lists +
		   z->page_map + z->block_map + z->buffers + 64 /* arena alignment slack */;
	return 0;
}

uint64_t ss_ssc_dram_needed(const struct ss_geometry *geo, const struct ss_ssc_params *p)
{
	struct sizes z;

	return compute(geo, p, &z) ? 0 : z.total;
}

uint64_t ss_ssc_dram_read_ahead(const struct ss_geometry *geo)
{
	return 2 * (SSC_RA_HALF + SSC_RA_PARTIAL) * ssc_ra_slot_bytes(geo) + SSC_SUCC_HINTS * sizeof(struct ssc_succ) +
	       5 * ARENA_ALIGN;
}

int ssc_exclude_bad(struct ss_ssc *c, uint32_t bad)
{
	/* the caps were computed for every block good; the log keeps its share, and the
	 * checkpoints' reserve stays outside cache_blocks */
	if ((uint64_t)bad + c->log_cap + 2 > c->cache_blocks) {
		return -SS_EIO;
	}
	c->bad_count = bad;
	c->data_cap -= bad;
	return 0;
}

void ssc_shrink_for_retired(struct ss_ssc *c)
{
	c->retired_count++;
	if (c->data_cap > 0) {
		c->data_cap--;
	}
}

int ssc_layout(struct ss_ssc **out, struct ss_hal *hal, void *dram, uint64_t dram_size,
	       const struct ss_ssc_params *p)
{
	struct ss_arena a;
	struct ss_ssc *c;
	struct sizes z;
	void *pm, *bm;
	int rc = compute(&hal->geo, p, &z);

	if (rc) {
		return rc;
	}
	if (dram == NULL || dram_size < z.total) {
		return -SS_ENOMEM;
	}
	ss_arena_init(&a, dram, (size_t)dram_size);
	c = ss_arena_alloc(&a, sizeof(*c), ARENA_ALIGN);
	if (c == NULL) {
		return -SS_ENOMEM;
	}
	c->hal = hal;
	c->params = *p;
	c->nblocks = ss_geo_blocks(&hal->geo);
	c->ppb = hal->geo.pages_per_block;
	c->page_size = hal->geo.page_size;
	c->spare_size = hal->geo.spare_size;
	c->bm_words = z.bm_words;
	ssc_meta_layout(&hal->geo, &c->ckpt_body_pages, &c->ckpt_blocks, &c->log_area_blocks);
	c->slot_blocks = c->ckpt_blocks + c->log_area_blocks;
	c->cache_blocks = z.cache_blocks;
	c->log_cap = z.log_cap;
	c->data_cap = z.data_cap;
	c->blocks = ss_arena_alloc(&a, (size_t)z.blocks, ARENA_ALIGN);
	c->valid_bm = ss_arena_alloc(&a, (size_t)z.bitmaps / 3, ARENA_ALIGN);
	c->dirty_bm = ss_arena_alloc(&a, (size_t)z.bitmaps / 3, ARENA_ALIGN);
	c->layout_bm = ss_arena_alloc(&a, (size_t)z.bitmaps / 3, ARENA_ALIGN);
	c->meta_cur = ss_arena_alloc(&a, (size_t)z.meta_lists / 2, ARENA_ALIGN);
	c->meta_new = ss_arena_alloc(&a, (size_t)z.meta_lists / 2, ARENA_ALIGN);
	pm = ss_arena_alloc(&a, (size_t)z.page_map, ARENA_ALIGN);
	bm = ss_arena_alloc(&a, (size_t)z.block_map, ARENA_ALIGN);
	c->buf = ss_arena_alloc(&a, c->page_size, ARENA_ALIGN);
	c->logbuf = ss_arena_alloc(&a, c->page_size, ARENA_ALIGN);
	c->spare = ss_arena_alloc(&a, c->spare_size, ARENA_ALIGN);
	if (!c->blocks || !c->valid_bm || !c->dirty_bm || !c->layout_bm || !c->meta_cur ||
	    !c->meta_new || !pm || !bm || !c->buf || !c->logbuf || !c->spare) {
		return -SS_ENOMEM;
	}
	rc = ssc_map_init(&c->page_map, pm, z.log_cap * c->ppb);
	if (rc == 0) {
		rc = ssc_map_init(&c->block_map, bm, c->nblocks);
	}
	if (rc) {
		return rc;
	}
	/* what the caller gave beyond the need: read-ahead, when it holds two groups */
	{
		uint64_t slot = ssc_ra_slot_bytes(&hal->geo);
		uint64_t left = a.size - a.used;
		uint64_t succ = SSC_SUCC_HINTS * sizeof(struct ssc_succ);
		uint32_t half = (uint32_t)SS_MIN((uint64_t)SSC_RA_HALF + SSC_RA_PARTIAL,
						 left > 5 * ARENA_ALIGN + succ ?
						 (left - 5 * ARENA_ALIGN - succ) / slot / 2 : 0);

		if (half > 0) {
			c->ra_mem = ss_arena_alloc(&a, (size_t)2 * half * c->ppb * c->page_size,
						   ARENA_ALIGN);
			c->ra_held = ss_arena_alloc(&a, (size_t)2 * half * c->bm_words * 4,
						    ARENA_ALIGN);
			c->ra_group = ss_arena_alloc(&a, (size_t)2 * half * 8, ARENA_ALIGN);
			c->ra_succ = ss_arena_alloc(&a, (size_t)succ, ARENA_ALIGN);
			c->ra_half = c->ra_mem && c->ra_held && c->ra_group && c->ra_succ ? half : 0;
			c->ra_budget = SS_MIN(half, SSC_RA_HALF) * c->ppb;
			c->ra_succ_n = c->ra_half ? SSC_SUCC_HINTS : 0;
			for (uint32_t i = 0; i < c->ra_succ_n; i++) {
				c->ra_succ[i].from = SSC_KEY_EMPTY;
			}
		}
		ssc_ra_drop(c);
	}
	c->map_dram = z.blocks + z.bitmaps + z.page_map + z.block_map;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		c->blocks[b].state = SSC_BLK_FREE;
	}
	c->free_count = c->nblocks;
	c->open = SSC_NONE;
	c->last_read = SSC_KEY_EMPTY;
	c->last_write = SSC_KEY_EMPTY;
	c->wl_delta = SS_SSC_WEAR_DELTA;
	c->wl_every = SSC_WL_EVERY;
	*out = c;
	return 0;
}
