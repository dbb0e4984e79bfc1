/*
 * The buffer's mechanism, shared by every policy, in five files: buf_init.c (policy names,
 * parameters, region sizes, set-up), buf_list.c (lists over the page and block arrays),
 * buf_index.c (page frames, block nodes and their hash index), buf_ftl.c (making room by
 * evicting what the policy chooses, writing victims to the FTL in LPN order) and buf_io.c
 * (host requests, FLUSH and FUA, the counters). Policies only order and choose.
 *
 * This one: policy names and parsing, the parameters' checks, the regions' sizes, set-up.
 */
#include "buf_internal.h"

#define ALIGN 64u

static const char *const names[SS_BUF_POLICY_COUNT] = {
	"none", "lru", "fab", "bplru", "lbclock", "hbm", "nv-wb", "nv-sub", "nv-sat",
};

static const char *const nv_reads[4] = { "", "+cache", "+prefetch", "+both" };

const char *ss_buf_policy_name(enum ss_buf_policy p)
{
	return (unsigned)p < SS_BUF_POLICY_COUNT ? names[p] : "?";
}

int ss_buf_policy_parse(const char *name, uint32_t len)
{
	for (int i = 0; i < (int)SS_BUF_POLICY_COUNT; i++) {
		if (ss_strnlen(names[i], 16) == len && ss_memcmp(names[i], name, len) == 0) {
			return i;
		}
	}
	return -1;
}

int ss_buf_parse(const char *name, uint32_t len, struct ss_buf_params *p)
{
	uint32_t base = 0;
	int pol;

	while (base < len && name[base] != '+') {
		base++;
	}
	pol = ss_buf_policy_parse(name, base);
	if (pol < 0) {
		return -1;
	}
	p->policy = (enum ss_buf_policy)pol;
	p->nv_read = 0;
	if (base == len) {
		return 0;
	}
	for (uint32_t i = 1; ss_buf_policy_is_nv((unsigned)pol) && i < 4; i++) {
		if (ss_strnlen(nv_reads[i], 16) == len - base &&
		    ss_memcmp(nv_reads[i], name + base, len - base) == 0) {
			p->nv_read = i;
			return 0;
		}
	}
	return -1;
}

#ifndef SS_BUF_BOARD   /* the board's info has no merge cache to name */
void ss_buf_format_name(const struct ss_buf_params *p, char *out, uint32_t size)
{
	const char *a = ss_buf_policy_name(p->policy);
	const char *b = ss_buf_policy_is_nv(p->policy) ? nv_reads[p->nv_read & 3] : "";
	uint32_t n = 0;

	for (; *a && n + 1 < size; a++) {
		out[n++] = *a;
	}
	for (; *b && n + 1 < size; b++) {
		out[n++] = *b;
	}
	if (size) {
		out[n] = 0;
	}
}
#endif

static const struct buf_policy_ops *ops_of(enum ss_buf_policy p)
{
	switch (p) {
	case SS_BUF_HBM: return &buf_hbm_ops;
#ifndef SS_BUF_BOARD
	case SS_BUF_LRU: return &buf_lru_ops;
	case SS_BUF_FAB: return &buf_fab_ops;
	case SS_BUF_BPLRU: return &buf_bplru_ops;
	case SS_BUF_LBCLOCK: return &buf_lbclock_ops;
#endif
	default: return NULL;
	}
}

uint32_t buf_hash_size(uint32_t pages)
{
	uint32_t h = 16;

	while (h < 2u * pages && h < (1u << 30)) {
		h <<= 1;
	}
	return h;
}

static bool params_ok(const struct ss_buf_params *p, uint32_t page_size)
{
	if (p->policy >= SS_BUF_POLICY_COUNT || page_size == 0) {
		return false;
	}
	if (p->read_ahead_pages > (1u << 16)) {
		return false;
	}
	if (p->policy == SS_BUF_NONE) {
		return true;
	}
#ifndef SS_BUF_BOARD   /* the board has no non-volatile RAM */
	if (ss_buf_policy_is_nv(p->policy)) {
		/* sectors of a page fit a 64-bit mask; two blocks at least, as below */
		return page_size % BUF_SECTOR == 0 && page_size / BUF_SECTOR <= 64 &&
		       p->nv_read <= SS_BUF_NV_READ_BOTH && p->pages_per_block >= 1 &&
		       p->pages_per_block <= 4096 && p->pages >= 2 * p->pages_per_block &&
		       (uint64_t)p->pages * (page_size / BUF_SECTOR) <= (1u << 26);
	}
#endif
	if (!ops_of(p->policy)) {
		return false;   /* not in this build (SS_BUF_BOARD) */
	}
	/* two whole blocks at least, so a block victim never has to take the page being
	 * inserted; the limits keep every index in 32 bits */
	return p->pages_per_block >= 1 && p->pages_per_block <= 4096 && p->pages >= 2 &&
	       p->pages >= 2 * p->pages_per_block && p->pages <= (1u << 28) &&
	       p->hbm_threshold <= p->pages_per_block + 1;
}

/* What the buffer carves from its DRAM, in order: one table for sizing and for carving.
 * \return the count of regions (2 without a policy: itself and the staging area). */
static uint32_t regions(const struct ss_buf_params *p, uint32_t page_size, uint64_t sz[10])
{
	uint64_t n = p->pages, h = buf_hash_size(p->pages), ppb = p->pages_per_block;

#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(p->policy)) {
		return buf_nv_regions(p, page_size, sz);
	}
#endif

	sz[0] = sizeof(struct ss_buf);
	sz[1] = (uint64_t)p->read_ahead_pages * page_size;
	sz[2] = n * page_size;                   /* frames */
	sz[3] = n * sizeof(struct buf_page);
	sz[4] = n * sizeof(struct buf_block);
	sz[5] = h * 4u;                          /* page hash */
	sz[6] = h * 4u;                          /* block hash */
	sz[7] = ppb * 4u;                        /* sorted */
	sz[8] = ppb * 4u;                        /* written */
	sz[9] = page_size;                       /* padding */
	return p->policy == SS_BUF_NONE ? 2 : 10;
}

uint64_t ss_buf_dram_needed(const struct ss_buf_params *p, uint32_t page_size)
{
	uint64_t sz[10], total = ALIGN;
	uint32_t k;

	if (!p || !params_ok(p, page_size)) {
		return 0;
	}
	k = regions(p, page_size, sz);
	for (uint32_t i = 0; i < k; i++) {
		total += SS_ALIGN_UP(sz[i], ALIGN);
	}
	return total + ss_buf_nvram_needed(p, page_size);
}

uint64_t ss_buf_nvram_needed(const struct ss_buf_params *p, uint32_t page_size)
{
#ifndef SS_BUF_BOARD
	if (p && ss_buf_policy_is_nv(p->policy) && params_ok(p, page_size)) {
		return buf_nv_nvram(p, page_size);
	}
#endif
	(void)p, (void)page_size;
	return 0;
}

static void hbm_bounds(struct ss_buf *b)
{
	uint64_t bytes = (uint64_t)b->p.pages * b->page_size;
	uint32_t ppb = b->p.pages_per_block;

	/* Table 3.1 [Gong 2010, §3.6, p. 36]: alpha is 128 pages (two of its 64-page blocks:
	 * here two logical blocks), beta 10 % of a small buffer and 20 % of a large one
	 * (small: up to 8 MB, as in §4.3.4); when alpha > beta, beta is 256 pages (four
	 * blocks). */
	b->alpha_pages = 2 * ppb;
	b->beta_pages = (uint32_t)((uint64_t)b->p.pages * (bytes <= (8ull << 20) ? 10u : 20u) / 100u);
	if (b->alpha_pages > b->beta_pages) {
		b->beta_pages = 4 * ppb;
	}
}

int ss_buf_init(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		const struct ss_buf_params *p)
{
	return ss_buf_init_nv(out, ftl, dram, dram_size, NULL, 0, p, 0, NULL, NULL);
}

#ifndef SS_BUF_BOARD
void ss_buf_nv_check(const struct ss_buf *b, struct ss_buf_nv_report *rep)
{
	if (b && ss_buf_policy_is_nv(b->p.policy)) {
		buf_nv_check(b, rep);
	} else {
		ss_memset(rep, 0, sizeof(*rep));
	}
}
#endif

int ss_buf_init_nv(struct ss_buf **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		   void *nvram, uint64_t nvram_size, const struct ss_buf_params *p, int format,
		   const struct ss_buf_nv_owner *owner, struct ss_buf_nv_report *rep)
{
	uint32_t page_size = ftl ? ss_ftl_page_size(ftl) : 0;
	uintptr_t at = SS_ALIGN_UP((uintptr_t)dram, ALIGN);
	uint64_t sz[10];
	void *r[10];
	struct ss_buf *b;
	uint32_t h, k;

	if (!out || !ftl || !dram || !p || !params_ok(p, page_size)) {
		return -SS_EINVAL;
	}
	if (ss_buf_policy_is_nv(p->policy) &&
	    (!nvram || nvram_size < ss_buf_nvram_needed(p, page_size))) {
		return -SS_EINVAL;
	}
	/* the NVM is counted in the DRAM budget (it takes DRAM's place) but is not carved */
	if (dram_size < ss_buf_dram_needed(p, page_size)) {
		return -SS_ENOMEM;
	}
	/* nothing but the state is cleared: every frame is written before it is read, every
	 * node set up as it is taken */
	k = regions(p, page_size, sz);
	for (uint32_t i = 0; i < k; i++) {
		r[i] = (void *)at;
		at += (uintptr_t)SS_ALIGN_UP(sz[i], ALIGN);
	}
	b = r[0];
	ss_memset(b, 0, sizeof(*b));
	b->p = *p;
	b->ftl = ftl;
	b->page_size = page_size;
	b->capacity = ss_ftl_capacity_pages(ftl);
	b->ops = ops_of(p->policy);
	b->ra_buf = p->read_ahead_pages ? r[1] : NULL;
	*out = b;
#ifndef SS_BUF_BOARD
	if (ss_buf_policy_is_nv(p->policy)) {
		int rc = buf_nv_init(b, r, nvram, format != 0, owner, rep);

		if (rc) {
			*out = NULL;
		}
		return rc;
	}
#else
	(void)nvram, (void)format, (void)owner, (void)rep;
#endif
	if (!b->ops) {
		return 0;
	}
	b->frames = r[2];
	b->pages = r[3];
	b->blocks = r[4];
	b->page_hash = r[5];
	b->block_hash = r[6];
	b->sorted = r[7];
	b->written = r[8];
	b->pad_buf = r[9];
	h = buf_hash_size(p->pages);
	b->hash_mask = h - 1;
	for (uint32_t i = 0; i < h; i++) {
		b->page_hash[i] = BUF_NIL;
		b->block_hash[i] = BUF_NIL;
	}
	/* whole entries: the DRAM holds whatever it held, and a free block's counts are read
	 * (ss_buf_writeback looks at every block's npages) */
	for (uint32_t i = 0; i < p->pages; i++) {
		uint32_t next = i + 1 < p->pages ? i + 1 : BUF_NIL;

		b->pages[i] = (struct buf_page){ .hnext = next };
		b->blocks[i] = (struct buf_block){ .hnext = next };
	}
	b->free_page = 0;
	b->free_block = 0;
	b->page_lru.head = b->page_lru.tail = BUF_NIL;
	b->block_list.head = b->block_list.tail = BUF_NIL;
	b->hand = b->anchor = BUF_NIL;
	b->thr = p->hbm_threshold ? p->hbm_threshold : 1; /* Algorithm 3.4 starts at 1 */
	hbm_bounds(b);
	return 0;
}

void ss_buf_set_observer(struct ss_buf *b, ss_buf_observer fn, void *ctx)
{
	b->obs = fn;
	b->obs_ctx = ctx;
}
