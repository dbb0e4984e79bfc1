/*
 * The six operations of the cache interface (Table 4.1) and the page program/read
 * helpers every source uses.
 */
#include "ssc_internal.h"

int ssc_program(struct ss_ssc *c, uint32_t ppn, const void *data, const struct ssc_spare *s)
{
	struct ssc_spare sp = *s;
	int rc;

	sp.erase_count = c->blocks[ppn / c->ppb].erase_count;
	sp.data_crc = ss_crc32c(0, data, c->page_size);
	ss_memset(c->spare, 0xFF, c->spare_size);
	ssc_spare_encode(c->spare, &sp);
	rc = ss_hal_page_program(c->hal, ppn, data, c->spare);
	c->st.nand_page_writes++;
	c->unsynced = true;
	return rc;
}

/* Read a page the cache programmed: its spare must decode and, when `data` is wanted,
 * match its CRC. */
int ssc_read_page(struct ss_ssc *c, uint32_t ppn, void *data, struct ssc_spare *s)
{
	int rc = ss_hal_page_read(c->hal, ppn, data, c->spare);

	c->st.nand_page_reads++;
	if (rc) {
		return rc;
	}
	if (ssc_spare_decode(c->spare, s) != SSC_SPARE_OK) {
		return -SS_EIO;
	}
	if (data != NULL && ss_crc32c(0, data, c->page_size) != s->data_crc) {
		return -SS_EIO;
	}
	return 0;
}

static uint32_t group_commit_limit(const struct ss_ssc *c)
{
	uint32_t per_page = ssc_recs_per_page(c);

	return c->params.group_commit_records == 0 ? per_page
						   : SS_MIN(c->params.group_commit_records, per_page);
}

static int maybe_group_commit(struct ss_ssc *c)
{
	return c->pending >= group_commit_limit(c) ? ssc_group_commit(c) : 0;
}

/*
 * Successors. A file's groups follow one another in the address space, but the next file
 * of a data set is elsewhere (sscache:// puts each file at a base of its own), so read-ahead
 * by address stops at a file's end and the next file's first group, on one die, is read
 * page after page while the link idles: 26.8 ms of a 55 ms 8 MiB file on kang-smartssd. A
 * data set is mostly read in the order it was filled or last read. So when a run of writes
 * or of reads jumps from group g to a group h that is neither g nor g + 1, the pair (g, h)
 * is kept (a table of SSC_SUCC_HINTS slots by a hash of g: the newest pair replaces what
 * its slot held, so a note and a look-up cost one slot each), and read-ahead that reaches
 * a group g + 1 with nothing cached goes on at h. A hint only chooses what is read ahead:
 * what is served is checked as any read ahead.
 */
/* The slot of group g's hint: Fibonacci hashing, as files' groups share their low bits
 * (sscache:// bases are 2^24 blocks apart). */
static struct ssc_succ *succ_slot(const struct ss_ssc *c, uint64_t g)
{
	return &c->ra_succ[((g * 0x9E3779B97F4A7C15ull) >> 32) % c->ra_succ_n];
}

static void succ_note(struct ss_ssc *c, uint64_t *last, uint64_t lba)
{
	uint64_t prev = *last, from = prev / c->ppb, to = lba / c->ppb;
	struct ssc_succ *e;

	*last = lba;
	if (c->ra_succ_n == 0 || prev == SSC_KEY_EMPTY || to == from || to == from + 1) {
		return;
	}
	e = succ_slot(c, from);
	e->from = from;
	e->to = to;
}

static bool group_cached(const struct ss_ssc *c, uint64_t g)
{
	uint32_t v;

	if (ssc_map_get(&c->block_map, g, &v) == 0) {
		return true;
	}
	for (uint32_t k = 0; k < c->ppb; k++) {
		if (ssc_map_get(&c->page_map, g * c->ppb + k, &v) == 0) {
			return true;
		}
	}
	return false;
}

/* The group read-ahead reads after g: g + 1 while it holds anything, else the group a
 * run left g for, else g + 1 (SSC_KEY_EMPTY past the address space). */
static uint64_t ra_next_group(const struct ss_ssc *c, uint64_t g)
{
	uint64_t last_group = (SSC_KEY_EMPTY - 1) / c->ppb;

	if (g < last_group && group_cached(c, g + 1)) {
		return g + 1;
	}
	if (c->ra_succ_n != 0 && succ_slot(c, g)->from == g) {
		return succ_slot(c, g)->to;
	}
	return g < last_group ? g + 1 : SSC_KEY_EMPTY;
}

static int cache_write(struct ss_ssc *c, uint64_t lba, const void *buf, bool dirty)
{
	struct ssc_rec r = { .type = SSC_R_MAP, .dirty = dirty, .key = lba };
	struct ssc_spare s = { .kind = SSC_KIND_DATA, .dirty = dirty, .lba = lba };
	struct ssc_loc loc;
	bool present;
	uint32_t ppn;
	int rc;

	if (lba == SSC_KEY_EMPTY || buf == NULL) {
		return -SS_EINVAL;
	}
	succ_note(c, &c->last_write, lba);
	present = ssc_locate(c, lba, &loc) == 0;
	/* Until the host writes it back, a dirty block is the only copy of its data: a fill
	 * that read the backing store before the write would put an older copy over it (the
	 * host's own "is it dirty" check and its write are not atomic). Dropping the clean copy
	 * is what silent eviction may do to it anyway. */
	if (!dirty && present && loc.dirty) {
		c->st.clean_over_dirty_dropped++;
		return 0;
	}
	rc = ssc_open_log_page(c, &ppn);
	if (rc) {
		return rc;
	}
	s.seq = c->seq + 1;
	rc = ssc_program(c, ppn, buf, &s);
	if (rc) {
		c->open = SSC_NONE;   /* never program that block again before it is erased */
		return rc;
	}
	r.block = ppn;
	rc = ssc_log(c, &r);
	if (rc) {
		return rc;
	}
	c->st.host_page_writes++;
	/* a write-clean over cached data must not let the old copy come back after a crash */
	if (dirty || present) {
		return ssc_commit(c);
	}
	return maybe_group_commit(c);
}

int ss_ssc_write_dirty(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	return cache_write(c, lba, buf, true);
}

int ss_ssc_write_clean(struct ss_ssc *c, uint64_t lba, const void *buf)
{
	int rc;

	c->commit_behind = true;
	rc = cache_write(c, lba, buf, false);
	c->commit_behind = false;
	return rc;
}

/*
 * Read-ahead. A group's pages sit in one erase block, on one die, so a scan reading one
 * group at a time reads one page after another on one channel (25 us tR + 175 us for 8 KiB
 * at 46.875 MB/s on kang-smartssd: 25.6 ms a group, 41 MB/s), however many dies the drive
 * has. Once a run of sequential reads covers half a group, the next SSC_RA_HALF groups are
 * read ahead, as the hal's read-ahead (the host command does not wait for them): they sit in
 * as many erase blocks, usually on as many dies and channels (allocation takes the least
 * erased free block, the lowest numbered among equals, and consecutive blocks sit on
 * consecutive dies), and are read in parallel while the host moves the current group. Reaching a
 * group of the other half waits for its reads and reads the next SSC_RA_HALF groups into
 * the half just consumed. A half reads SSC_RA_HALF groups' worth of pages, in up to
 * SSC_RA_PARTIAL more slots for groups only partly cached (a file's last): a half of 8
 * slots with one such group moved over the link in 24.8 ms, less than the 26.8 ms the next
 * half's groups take off their dies, and the scan waited 2 ms at most switches. What was
 * read ahead is checked as any read (spare, CRC, reverse map; a page that fails is left to
 * the direct read) and dropped by every record, so a write, eviction, clean or merge never
 * leaves an older copy to be served.
 */
uint64_t ssc_ra_slot_bytes(const struct ss_geometry *g)
{
	return SS_ALIGN_UP((uint64_t)g->pages_per_block * g->page_size, 8) +
	       SS_ALIGN_UP((uint64_t)SS_DIV_ROUND_UP(g->pages_per_block, 32) * 4, 8) + 8;
}

void ssc_ra_drop(struct ss_ssc *c)
{
	for (uint32_t i = 0; i < 2 * c->ra_half; i++) {
		c->ra_group[i] = SSC_KEY_EMPTY;
	}
	c->ra_tail[0] = SSC_KEY_EMPTY;
	c->ra_tail[1] = SSC_KEY_EMPTY;
	c->ra_cur = -1;
}

static void ra_fill(struct ss_ssc *c, uint32_t half, uint64_t group)
{
	uint64_t g = group;
	uint32_t pages = 0;

	ss_hal_read_ahead(c->hal, 1);
	c->ra_tail[half] = SSC_KEY_EMPTY;
	for (uint32_t i = 0; i < c->ra_half; i++) {
		uint32_t slot = half * c->ra_half + i;
		uint32_t *held = c->ra_held + (size_t)slot * c->bm_words;
		uint8_t *mem = c->ra_mem + (size_t)slot * c->ppb * c->page_size;

		if (i > 0 && g != SSC_KEY_EMPTY) {
			g = pages < c->ra_budget ? ra_next_group(c, g) : SSC_KEY_EMPTY;
		}
		ss_memset(held, 0, (size_t)c->bm_words * 4);
		c->ra_group[slot] = g;
		if (g == SSC_KEY_EMPTY) {
			continue;
		}
		c->ra_tail[half] = g;
		for (uint32_t k = 0; k < c->ppb; k++) {
			uint64_t lba = g * c->ppb + k;
			struct ssc_spare s;
			struct ssc_loc loc;

			if (ssc_locate(c, lba, &loc) ||
			    ssc_read_page(c, loc.ppn, mem + (size_t)k * c->page_size, &s) ||
			    s.kind != SSC_KIND_DATA || s.lba != lba) {
				continue;
			}
			held[k / 32] |= 1u << (k % 32);
			c->st.read_ahead_pages++;
			pages++;
		}
	}
	ss_hal_read_ahead(c->hal, 0);
	c->ra_inflight = true;
}

/* \return true with the block in buf when it was read ahead. */
static bool ra_serve(struct ss_ssc *c, uint64_t lba, void *buf)
{
	uint64_t g = lba / c->ppb;
	uint32_t k = (uint32_t)(lba % c->ppb), slot, half;

	for (slot = 0; slot < 2 * c->ra_half && c->ra_group[slot] != g; slot++) {
	}
	if (slot == 2 * c->ra_half ||
	    !(c->ra_held[(size_t)slot * c->bm_words + k / 32] & (1u << (k % 32)))) {
		return false;
	}
	half = slot / c->ra_half;
	if ((int)half != c->ra_cur) {
		if (c->ra_inflight) {
			ss_hal_read_ahead_wait(c->hal);
			c->ra_inflight = false;
		}
		c->ra_cur = (int)half;
		if (c->ra_tail[half] != SSC_KEY_EMPTY) {
			uint64_t next = ra_next_group(c, c->ra_tail[half]);

			if (next != SSC_KEY_EMPTY) {
				ra_fill(c, half ^ 1, next);
			}
		}
	}
	ss_memcpy(buf, c->ra_mem + ((size_t)slot * c->ppb + k) * c->page_size, c->page_size);
	c->st.read_ahead_hits++;
	return true;
}

static bool ra_holds(const struct ss_ssc *c, uint64_t g)
{
	for (uint32_t slot = 0; slot < 2 * c->ra_half; slot++) {
		if (c->ra_group[slot] == g) {
			return true;
		}
	}
	return false;
}

/* Read ahead the groups after group g, unless they are read ahead already. */
static void ra_start(struct ss_ssc *c, uint64_t g)
{
	uint64_t next = ra_next_group(c, g);

	if (next == SSC_KEY_EMPTY || ra_holds(c, next)) {
		return;
	}
	if (c->ra_inflight) {
		ss_hal_read_ahead_wait(c->hal);
		c->ra_inflight = false;
	}
	c->ra_cur = -1;
	ra_fill(c, 0, next);
}

/* A sequential run of half a group starts the read-ahead of the groups after it; a longer
 * run checks again at each group it enters (a record may have dropped the read-ahead). */
static void ra_track(struct ss_ssc *c, uint64_t lba)
{
	uint32_t at = SS_MAX(c->ppb / 2, 1u);

	c->ra_run = lba == c->ra_next_lba ? c->ra_run + 1 : 1;
	c->ra_next_lba = lba + 1;
	if (c->ra_half == 0 || c->ra_run < at || (c->ra_run > at && lba % c->ppb != 0)) {
		return;
	}
	ra_start(c, lba / c->ppb);
}

int ss_ssc_read(struct ss_ssc *c, uint64_t lba, void *buf)
{
	struct ssc_spare s;
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY || buf == NULL) {
		return -SS_EINVAL;
	}
	succ_note(c, &c->last_read, lba);
	if (c->ra_half && ra_serve(c, lba, buf)) {
		c->ra_run = lba == c->ra_next_lba ? c->ra_run + 1 : 1;
		c->ra_next_lba = lba + 1;
		c->st.read_hits++;
		c->st.hit_blocks++;
		return 0;
	}
	ra_track(c, lba);
	if (ssc_locate(c, lba, &loc)) {
		c->st.read_misses++;
		return SS_SSC_MISS;
	}
	rc = ssc_read_page(c, loc.ppn, buf, &s);
	if (rc == 0 && (s.kind != SSC_KIND_DATA || s.lba != lba)) {
		rc = -SS_EIO;  /* the reverse map disagrees with the forward map */
	}
	if (rc) {
		return rc < 0 ? rc : -SS_EIO;
	}
	c->st.read_hits++;
	c->st.hit_blocks++;
	return 0;
}

int ss_ssc_evict(struct ss_ssc *c, uint64_t lba)
{
	struct ssc_rec r = { .type = SSC_R_UNMAP, .dirty = SSC_UNMAP_HOST, .key = lba };
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY) {
		return -SS_EINVAL;
	}
	if (ssc_locate(c, lba, &loc) == 0) {
		rc = ssc_log(c, &r);
		if (rc) {
			return rc;
		}
	}
	/* also when absent: a pending record may be what made it absent */
	return ssc_commit(c);
}

int ss_ssc_clean(struct ss_ssc *c, uint64_t lba)
{
	struct ssc_rec r = { .type = SSC_R_CLEAN, .key = lba };
	struct ssc_loc loc;
	int rc;

	if (lba == SSC_KEY_EMPTY) {
		return -SS_EINVAL;
	}
	if (ssc_locate(c, lba, &loc) || !loc.dirty) {
		return 0;
	}
	rc = ssc_log(c, &r);
	return rc ? rc : maybe_group_commit(c);
}

int ss_ssc_clean_range(struct ss_ssc *c, uint64_t lba, uint64_t count)
{
	if (count == 0 || lba > SSC_KEY_EMPTY - count) {
		return -SS_EINVAL;
	}
	c->commit_behind = true;
	for (uint64_t i = 0; i < count; i++) {
		int rc = ss_ssc_clean(c, lba + i);

		if (rc) {
			c->commit_behind = false;
			return rc;
		}
	}
	c->commit_behind = false;
	c->st.clean_ops++;
	return 0;
}

int ss_ssc_exists(const struct ss_ssc *c, uint64_t lba, uint32_t count, uint8_t *bitmap)
{
	if (count == 0 || count > SS_SSC_EXISTS_MAX || bitmap == NULL ||
	    lba > SSC_KEY_EMPTY - count) {
		return -SS_EINVAL;
	}
	ss_memset(bitmap, 0, SS_DIV_ROUND_UP(count, 8));
	for (uint32_t i = 0; i < count; i++) {
		struct ssc_loc loc;

		if (ssc_locate(c, lba + i, &loc) == 0 && loc.dirty) {
			bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
		}
	}
	return 0;
}

int ss_ssc_flush(struct ss_ssc *c)
{
	return ssc_commit(c);
}

uint32_t ss_ssc_block_size(const struct ss_ssc *c)
{
	return c->page_size;
}
