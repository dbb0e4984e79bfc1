/*
 * Open-channel and zoned drives (native/PROTOCOL.md 4.8): the host places the data, the
 * drive keeps the flash's rules. One chunk is one erase block; a zone is a chunk. Chunk
 * (group g, parallel unit p, chunk c) is block c * dies + p * channels + g: groups are
 * channels, parallel units the dies (ways) of a channel, and its index in LBA order is
 * (g * pus + p) * chunks + c, each chunk starting at index << zone_shift. A sector is 512
 * bytes, the minimum write unit one flash page.
 *
 * Kept on the flash:
 *   the label: the last row of blocks (ss_ssc_part.h's label row), page 0 of its first two
 *     good blocks: 0 magic "SSCI", 4 version, 8 interface, 12 blocks_per_die, 16 dies,
 *     20 crc of bytes 0..19. A cache label ("SSPT") or none means an FTL drive.
 *   the chunk table, after the label in the same blocks: one checkpoint is `tpages`
 *     pages, each 0 magic "SSCT", 4 sequence, 8 page index, 12 crc of the page from 16 on
 *     and bytes 0..11, then a u32 per chunk: its wear, OFFLINE_BIT, FINISHED_BIT. Written
 *     at FLUSH and shutdown, and at once when a chunk goes offline or is finished; when
 *     the blocks are full they are erased and rewritten one after the other.
 *   each programmed page's spare: 0 magic "SSCK", 4 the chunk's wear, 8 the host's
 *     out-of-band metadata of each of its sectors (SS_SECTOR_META bytes each, 0xFF when
 *     the write carried none), where the spare holds it.
 * At mount the write pointers come from the flash itself (pages are programmed in order:
 * the first erased page ends the chunk's data), the wear from the table or a page's
 * stamp, whichever is higher: a reset whose chunk was not written again before a power
 * loss may go uncounted.
 */
#include "cmd_internal.h"

#ifndef SS_FW_WITHOUT_CHUNKS

#define LABEL_MAGIC 0x49435353u  /* "SSCI" */
#define LABEL_VERSION 1u
#define TABLE_MAGIC 0x54435353u  /* "SSCT" */
#define STAMP_MAGIC 0x4B435353u  /* "SSCK" */
#define TABLE_HDR 16u
#define OFFLINE_BIT 0x80000000u
#define FINISHED_BIT 0x40000000u
#define WEAR_MASK 0x3FFFFFFFu
#define STAMP_BYTES 8u

static uint32_t label_row_block(const struct ss_geometry *g, uint32_t i)
{
	return (g->blocks_per_die - 1) * ss_geo_dies(g) + i;
}

static uint32_t table_per_page(const struct ss_geometry *g)
{
	return (g->page_size - TABLE_HDR) / 4;
}

int fw_chunks_plan(const struct ss_geometry *g, struct fw_chunks *c)
{
	uint32_t shift = 0;

	ss_memset(c, 0, sizeof(*c));
	if (g->blocks_per_die < 2 || ss_geo_dies(g) < 2 || g->page_size < SS_SECTOR ||
	    g->page_size % SS_SECTOR || g->spare_size < 8 || g->pages_per_block < 2) {
		return -SS_EINVAL;
	}
	c->groups = g->channels;
	c->pus = g->ways;
	c->chunks_per_pu = g->blocks_per_die - 1;
	c->count = c->groups * c->pus * c->chunks_per_pu;
	c->spp = g->page_size / SS_SECTOR;
	c->sectors = c->spp * g->pages_per_block;
	while ((1u << shift) < c->sectors) {
		shift++;
	}
	c->zone_shift = shift;
	c->tpages = SS_DIV_ROUND_UP(c->count, table_per_page(g));
	/* the label and two checkpoints fit a block */
	return 1 + 2 * c->tpages <= g->pages_per_block ? 0 : -SS_EINVAL;
}

uint64_t fw_chunks_dram(const struct ss_geometry *g)
{
	struct fw_chunks c;

	if (fw_chunks_plan(g, &c)) {
		return 0;
	}
	return (uint64_t)c.count * sizeof(struct fw_chunk) + g->spare_size + 64;
}

static uint32_t block_of(const struct fw_chunks *c, const struct ss_geometry *g, uint32_t idx)
{
	uint32_t chunk = idx % c->chunks_per_pu;
	uint32_t pu = idx / c->chunks_per_pu % c->pus;
	uint32_t group = idx / c->chunks_per_pu / c->pus;

	return chunk * ss_geo_dies(g) + pu * g->channels + group;
}

static void put_label(const struct ss_geometry *g, uint8_t *page, uint32_t iface)
{
	ss_memset(page, 0, g->page_size);
	ss_put_le32(page, LABEL_MAGIC);
	ss_put_le32(page + 4, LABEL_VERSION);
	ss_put_le32(page + 8, iface);
	ss_put_le32(page + 12, g->blocks_per_die);
	ss_put_le32(page + 16, ss_geo_dies(g));
	ss_put_le32(page + 20, ss_crc32c(0, page, 20));
}

/* Checkpoint page `i` of the table into fw->page_buf. */
static void put_table_page(struct ss_fw *fw, uint32_t i)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	uint8_t *p = fw->page_buf;
	uint32_t per = table_per_page(g);
	uint32_t crc;

	ss_memset(p, 0, g->page_size);
	ss_put_le32(p, TABLE_MAGIC);
	ss_put_le32(p + 4, c->seq);
	ss_put_le32(p + 8, i);
	for (uint32_t k = 0; k < per && i * per + k < c->count; k++) {
		const struct fw_chunk *ch = &c->c[i * per + k];
		uint32_t v = ch->wear & WEAR_MASK;

		v |= ch->state == SS_CHUNK_OFFLINE ? OFFLINE_BIT : 0;
		v |= ch->finished ? FINISHED_BIT : 0;
		ss_put_le32(p + TABLE_HDR + 4 * k, v);
	}
	crc = ss_crc32c(0, p + TABLE_HDR, g->page_size - TABLE_HDR);
	ss_put_le32(p + 12, ss_crc32c(crc, p, 12));
}

static int program_meta(struct ss_fw *fw, uint32_t block, uint32_t page)
{
	const struct ss_geometry *g = &fw->hal->geo;

	ss_memset(fw->chunks.spare, 0xFF, g->spare_size);
	return ss_hal_page_program(fw->hal, block * g->pages_per_block + page, fw->page_buf,
				   fw->chunks.spare);
}

/* Erase a label block and write the label and the table into it. */
static int rewrite_copy(struct ss_fw *fw, uint32_t block)
{
	int rc = ss_hal_block_erase(fw->hal, block);

	if (rc) {
		return rc;
	}
	put_label(&fw->hal->geo, fw->page_buf, fw->interface);
	rc = program_meta(fw, block, 0);
	for (uint32_t i = 0; rc == 0 && i < fw->chunks.tpages; i++) {
		put_table_page(fw, i);
		rc = program_meta(fw, block, 1 + i);
	}
	return rc;
}

int fw_chunks_persist(struct ss_fw *fw)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	uint32_t kept = 0;
	int rc = 0;

	c->seq++;
	if (c->next_page + c->tpages > g->pages_per_block) {
		/* one copy at a time: a power loss leaves the other whole */
		for (uint32_t k = 0; k < c->copies; k++) {
			rc = rewrite_copy(fw, c->label_block[k]);
			if (rc == 0) {
				c->label_block[kept++] = c->label_block[k];
			} else if (rc != -SS_EIO) {
				return rc;
			}
			rc = ss_hal_sync(fw->hal);
			if (rc) {
				return rc;
			}
		}
		c->copies = kept;
		c->next_page = 1 + c->tpages;
		return kept ? 0 : -SS_EIO;
	}
	for (uint32_t k = 0; k < c->copies; k++) {
		for (uint32_t i = 0; rc == 0 && i < c->tpages; i++) {
			put_table_page(fw, i);
			rc = program_meta(fw, c->label_block[k], c->next_page + i);
		}
		if (rc == 0) {
			c->label_block[kept++] = c->label_block[k];
		} else if (rc != -SS_EIO) {
			return rc;
		}
		rc = 0;
	}
	c->copies = kept;
	c->next_page += c->tpages;
	return kept ? ss_hal_sync(fw->hal) : -SS_EIO;
}

/* The chunk table's place in DRAM and the drive's interface, for a format or a mount. */
static int chunks_attach(struct ss_fw *fw, uint32_t iface, void *region, uint64_t size)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	int rc;

	rc = fw_chunks_plan(g, c);
	if (rc) {
		return rc;
	}
	if (size < fw_chunks_dram(g)) {
		return -SS_ENOMEM;
	}
	c->c = region;
	c->spare = (uint8_t *)region + (uint64_t)c->count * sizeof(struct fw_chunk);
	fw->interface = iface;
	return 0;
}

int fw_chunks_format(struct ss_fw *fw, uint32_t iface, void *region, uint64_t size)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	int rc;

	rc = chunks_attach(fw, iface, region, size);
	if (rc) {
		return rc;
	}
	c->seq = 1;   /* a checkpoint's sequence is never 0 */
	for (uint32_t i = 0; i < c->count; i++) {
		struct fw_chunk *ch = &c->c[i];

		ss_memset(ch, 0, sizeof(*ch));
		rc = ss_hal_block_erase(fw->hal, block_of(c, g, i));
		if (rc && rc != -SS_EIO) {
			return rc;
		}
		/* a block bad from the factory or worn out is an offline chunk from the start */
		ch->state = rc ? SS_CHUNK_OFFLINE : SS_CHUNK_FREE;
		ch->wear = 1;
	}
	for (uint32_t i = 0; i < ss_geo_dies(g) && c->copies < 2; i++) {
		rc = rewrite_copy(fw, label_row_block(g, i));
		if (rc == 0) {
			c->label_block[c->copies++] = label_row_block(g, i);
		} else if (rc != -SS_EIO) {
			return rc;
		}
	}
	if (c->copies == 0) {
		return -SS_EIO;
	}
	c->next_page = 1 + c->tpages;
	return ss_hal_sync(fw->hal);
}

int fw_chunks_label_read(struct ss_hal *hal, void *scratch, uint32_t *iface)
{
	const struct ss_geometry *g = &hal->geo;
	uint8_t *page = scratch;
	struct fw_chunks c;

	if (fw_chunks_plan(g, &c)) {
		return -SS_ENODATA;
	}
	for (uint32_t i = 0; i < ss_geo_dies(g); i++) {
		if (ss_hal_page_read(hal, label_row_block(g, i) * g->pages_per_block, page, NULL)) {
			continue;
		}
		if (ss_get_le32(page) != LABEL_MAGIC || ss_get_le32(page + 4) != LABEL_VERSION ||
		    ss_get_le32(page + 20) != ss_crc32c(0, page, 20)) {
			continue;
		}
		if (ss_get_le32(page + 12) != g->blocks_per_die ||
		    ss_get_le32(page + 16) != ss_geo_dies(g) ||
		    (ss_get_le32(page + 8) != SS_IFACE_OPEN_CHANNEL &&
		     ss_get_le32(page + 8) != SS_IFACE_ZONED)) {
			return -SS_EBADMSG;
		}
		*iface = ss_get_le32(page + 8);
		return 0;
	}
	return -SS_ENODATA;
}

/* Whether page `page` of a label block holds table page `i` of checkpoint `seq` (any seq
 * when *seq is 0, which it then takes). */
static bool table_page_ok(struct ss_fw *fw, uint32_t block, uint32_t page, uint32_t i,
			  uint32_t *seq)
{
	const struct ss_geometry *g = &fw->hal->geo;
	uint8_t *p = fw->page_buf;
	uint32_t crc;

	if (ss_hal_page_read(fw->hal, block * g->pages_per_block + page, p, NULL)) {
		return false;
	}
	crc = ss_crc32c(0, p + TABLE_HDR, g->page_size - TABLE_HDR);
	if (ss_get_le32(p) != TABLE_MAGIC || ss_get_le32(p + 8) != i ||
	    ss_get_le32(p + 12) != ss_crc32c(crc, p, 12) ||
	    (*seq && ss_get_le32(p + 4) != *seq)) {
		return false;
	}
	*seq = ss_get_le32(p + 4);
	return true;
}

/* Load the newest whole checkpoint of the label blocks into the chunk entries. */
static int load_table(struct ss_fw *fw)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	uint32_t best_seq = 0, best_block = 0, best_page = 0, per = table_per_page(g);

	for (uint32_t k = 0; k < c->copies; k++) {
		for (uint32_t pg = 1; pg + c->tpages <= g->pages_per_block; pg += c->tpages) {
			uint32_t seq = 0, i;

			for (i = 0; i < c->tpages; i++) {
				if (!table_page_ok(fw, c->label_block[k], pg + i, i, &seq)) {
					break;
				}
			}
			if (i < c->tpages) {
				break;
			}
			if (seq > best_seq) {
				best_seq = seq;
				best_block = c->label_block[k];
				best_page = pg;
			}
		}
	}
	if (best_seq == 0) {
		return -SS_EBADMSG;
	}
	c->seq = best_seq;
	/* a checkpoint torn by a power loss may have left half-programmed pages: the next one
	 * rewrites the blocks rather than append after them */
	c->next_page = g->pages_per_block;
	for (uint32_t i = 0; i < c->tpages; i++) {
		uint32_t seq = best_seq;

		if (!table_page_ok(fw, best_block, best_page + i, i, &seq)) {
			return -SS_EIO;
		}
		for (uint32_t k = 0; k < per && i * per + k < c->count; k++) {
			uint32_t v = ss_get_le32(fw->page_buf + TABLE_HDR + 4 * k);
			struct fw_chunk *ch = &c->c[i * per + k];

			ss_memset(ch, 0, sizeof(*ch));
			ch->wear = v & WEAR_MASK;
			ch->state = v & OFFLINE_BIT ? SS_CHUNK_OFFLINE : SS_CHUNK_FREE;
			ch->finished = (v & FINISHED_BIT) != 0;
		}
	}
	return 0;
}

/* Page `page` of block: 1 programmed (its stamp's wear in *wear), 0 erased, <0 unreadable. */
static int page_written(struct ss_fw *fw, uint32_t block, uint32_t page, uint32_t *wear)
{
	const struct ss_geometry *g = &fw->hal->geo;
	uint8_t *s = fw->chunks.spare;
	int rc = ss_hal_page_read(fw->hal, block * g->pages_per_block + page, NULL, s);

	if (rc) {
		return rc;
	}
	if (ss_get_le32(s) != STAMP_MAGIC) {
		for (uint32_t i = 0; i < 8; i++) {
			if (s[i] != 0xFF) {
				return -SS_EBADMSG;
			}
		}
		return 0;
	}
	*wear = ss_get_le32(s + 4);
	return 1;
}

/* The chunk's write pointer from its pages, which are programmed in order. */
static int recover_chunk(struct ss_fw *fw, uint32_t idx)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	struct fw_chunk *ch = &c->c[idx];
	uint32_t block = block_of(c, g, idx), lo = 0, hi = g->pages_per_block, wear = 0;
	int rc;

	if (ch->state == SS_CHUNK_OFFLINE) {
		return 0;
	}
	/* pages [0, lo) written, [hi, end) erased */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, w = 0;

		rc = page_written(fw, block, mid, &w);
		if (rc < 0) {
			return rc;
		}
		if (rc) {
			lo = mid + 1;
			wear = wear > w ? wear : w;
		} else {
			hi = mid;
		}
	}
	ch->written = lo * c->spp;
	ch->wear = ch->wear > wear ? ch->wear : wear;
	if (ch->finished) {
		ch->wp = c->sectors;
	} else {
		ch->wp = ch->written;
	}
	if (ch->wp == 0) {
		ch->state = SS_CHUNK_FREE;
	} else if (ch->wp == c->sectors) {
		ch->state = SS_CHUNK_FULL;
	} else {
		/* a power cycle closes open zones; an open-channel chunk stays open */
		ch->state = fw->interface == SS_IFACE_ZONED ? SS_CHUNK_CLOSED : SS_CHUNK_OPEN;
	}
	return 0;
}

int fw_chunks_mount(struct ss_fw *fw, uint32_t iface, void *region, uint64_t size)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	int rc;

	rc = chunks_attach(fw, iface, region, size);
	if (rc) {
		return rc;
	}
	for (uint32_t i = 0; i < ss_geo_dies(g) && c->copies < 2; i++) {
		uint32_t b = label_row_block(g, i);

		if (ss_hal_page_read(fw->hal, b * g->pages_per_block, fw->page_buf, NULL) == 0 &&
		    ss_get_le32(fw->page_buf) == LABEL_MAGIC) {
			c->label_block[c->copies++] = b;
		}
	}
	rc = load_table(fw);
	for (uint32_t i = 0; rc == 0 && i < c->count; i++) {
		rc = recover_chunk(fw, i);
	}
	return rc;
}

uint32_t ss_fw_interface(const struct ss_fw *fw)
{
	return fw->interface;
}

int ss_fw_chunks_written(const struct ss_fw *fw, uint32_t *n)
{
	if (!fw || fw->state != FW_CHUNKED) {
		return -SS_EINVAL;
	}
	*n = 0;
	for (uint32_t i = 0; i < fw->chunks.count; i++) {
		*n += fw->chunks.c[i].state != SS_CHUNK_FREE &&
		      fw->chunks.c[i].state != SS_CHUNK_OFFLINE;
	}
	return 0;
}

/* ---- the rules ------------------------------------------------------------------------ */

void fw_chunks_geometry(struct ss_fw *fw, uint8_t *p)
{
	const struct fw_chunks *c = &fw->chunks;
	uint32_t offline = 0;

	for (uint32_t i = 0; i < c->count; i++) {
		offline += c->c[i].state == SS_CHUNK_OFFLINE;
	}
	ss_memset(p, 0, sizeof(struct ss_wire_geometry));
	ss_put_le32(p + offsetof(struct ss_wire_geometry, iface), fw->interface);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, groups), c->groups);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, pus), c->pus);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, chunks), c->chunks_per_pu);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, sector_bytes), SS_SECTOR);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, chunk_sectors), c->sectors);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, ws_min), c->spp);
	/* a page on every die of a group's channel: what the channel's dies program at once */
	ss_put_le32(p + offsetof(struct ss_wire_geometry, ws_opt), c->spp * c->pus);
	ss_put_le64(p + offsetof(struct ss_wire_geometry, zone_sectors), 1ull << c->zone_shift);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, offline_chunks), offline);
	ss_put_le32(p + offsetof(struct ss_wire_geometry, endurance), fw->hal->endurance);
}

void fw_chunks_describe(struct ss_fw *fw, uint32_t idx, uint8_t *p)
{
	const struct fw_chunks *c = &fw->chunks;
	const struct fw_chunk *ch = &c->c[idx];
	uint64_t slba = (uint64_t)idx << c->zone_shift;

	ss_put_le32(p + offsetof(struct ss_wire_chunk, state), ch->state);
	ss_put_le32(p + offsetof(struct ss_wire_chunk, wear), ch->wear);
	ss_put_le64(p + offsetof(struct ss_wire_chunk, slba), slba);
	ss_put_le64(p + offsetof(struct ss_wire_chunk, wp), slba + ch->wp);
	ss_put_le64(p + offsetof(struct ss_wire_chunk, capacity), c->sectors);
}

uint32_t fw_chunks_locate(const struct ss_fw *fw, uint64_t lba, uint32_t *idx, uint32_t *sector)
{
	const struct fw_chunks *c = &fw->chunks;
	uint64_t i = lba >> c->zone_shift;
	uint64_t s = lba & ((1ull << c->zone_shift) - 1);

	if (i >= c->count || s >= c->sectors) {
		return SS_R_LBA_RANGE;
	}
	*idx = (uint32_t)i;
	*sector = (uint32_t)s;
	return SS_R_OK;
}

uint32_t fw_chunks_write_check(const struct ss_fw *fw, uint32_t idx, uint32_t sector,
			       uint32_t n)
{
	const struct fw_chunks *c = &fw->chunks;
	const struct fw_chunk *ch = &c->c[idx];

	if (ch->state == SS_CHUNK_OFFLINE) {
		return SS_R_CHUNK_OFFLINE;
	}
	if (ch->state == SS_CHUNK_FULL || ch->wp >= c->sectors) {
		return SS_R_CHUNK_FULL;
	}
	if (sector != ch->wp) {
		return SS_R_NOT_WRITE_POINTER;
	}
	if (n == 0 || n % c->spp) {
		return SS_R_WRITE_UNIT;
	}
	if ((uint64_t)sector + n > c->sectors) {
		return SS_R_CHUNK_FULL;
	}
	return SS_R_OK;
}

bool fw_chunks_meta_fits(const struct ss_fw *fw)
{
	return STAMP_BYTES + (uint64_t)fw->chunks.spp * SS_SECTOR_META <= fw->hal->geo.spare_size;
}

int fw_chunks_write(struct ss_fw *fw, uint32_t idx, const uint8_t *data, const uint8_t *meta,
		    uint32_t n)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	struct fw_chunk *ch = &c->c[idx];
	uint32_t block = block_of(c, g, idx);

	for (uint32_t done = 0; done < n; done += c->spp) {
		uint32_t page = ch->wp / c->spp;
		int rc;

		ss_memset(c->spare, 0xFF, g->spare_size);
		ss_put_le32(c->spare, STAMP_MAGIC);
		ss_put_le32(c->spare + 4, ch->wear);
		if (meta) {
			ss_memcpy(c->spare + STAMP_BYTES, meta + (uint64_t)done * SS_SECTOR_META,
				  (uint64_t)c->spp * SS_SECTOR_META);
		}
		rc = ss_hal_page_program(fw->hal, block * g->pages_per_block + page,
					 data + (uint64_t)done * SS_SECTOR, c->spare);
		if (rc) {
			/* a page that failed its program is not data: the chunk is finished
			 * there, its data below stays readable */
			ch->state = SS_CHUNK_FULL;
			ch->wp = c->sectors;
			ch->finished = 1;
			(void)fw_chunks_persist(fw);
			return rc;
		}
		ch->wp += c->spp;
		ch->written = ch->wp;
		if (ch->state == SS_CHUNK_FREE || ch->state == SS_CHUNK_CLOSED) {
			ch->state = SS_CHUNK_OPEN;
		}
	}
	if (ch->wp == c->sectors) {
		ch->state = SS_CHUNK_FULL;
	}
	return 0;
}

uint32_t fw_chunks_read_check(const struct ss_fw *fw, uint32_t idx, uint32_t sector, uint32_t n)
{
	const struct fw_chunk *ch = &fw->chunks.c[idx];

	if (ch->state == SS_CHUNK_OFFLINE) {
		return SS_R_CHUNK_OFFLINE;
	}
	return (uint64_t)sector + n > ch->wp ? SS_R_READ_UNWRITTEN : SS_R_OK;
}

int fw_chunks_read(struct ss_fw *fw, uint32_t idx, uint32_t sector, uint8_t *out, uint8_t *meta,
		   uint32_t n)
{
	struct fw_chunks *c = &fw->chunks;
	const struct ss_geometry *g = &fw->hal->geo;
	const struct fw_chunk *ch = &c->c[idx];
	uint32_t block = block_of(c, g, idx);

	while (n) {
		uint32_t page = sector / c->spp, in = sector % c->spp;
		uint32_t k = SS_MIN(n, c->spp - in);

		if (sector >= ch->written) {
			/* finished past its data: the unwritten sectors read as zeros */
			ss_memset(out, 0, (uint64_t)k * SS_SECTOR);
			if (meta) {
				ss_memset(meta, 0xFF, (uint64_t)k * SS_SECTOR_META);
			}
		} else {
			int rc = ss_hal_page_read(fw->hal, block * g->pages_per_block + page,
						  fw->page_buf, meta ? c->spare : NULL);

			if (rc) {
				return rc;
			}
			ss_memcpy(out, fw->page_buf + (uint64_t)in * SS_SECTOR,
				  (uint64_t)k * SS_SECTOR);
			if (meta) {
				ss_memcpy(meta, c->spare + STAMP_BYTES + (uint64_t)in * SS_SECTOR_META,
					  (uint64_t)k * SS_SECTOR_META);
			}
		}
		if (meta) {
			meta += (uint64_t)k * SS_SECTOR_META;
		}
		out += (uint64_t)k * SS_SECTOR;
		sector += k;
		n -= k;
	}
	return 0;
}

uint32_t fw_chunks_reset(struct ss_fw *fw, uint32_t idx, int *err)
{
	struct fw_chunks *c = &fw->chunks;
	struct fw_chunk *ch = &c->c[idx];
	bool was_finished;
	int rc;

	*err = 0;
	if (ch->state == SS_CHUNK_OFFLINE) {
		*err = -SS_EIO;
		return SS_R_CHUNK_OFFLINE;
	}
	was_finished = ch->finished;
	rc = ss_hal_block_erase(fw->hal, block_of(c, &fw->hal->geo, idx));
	ch->wear++;
	ch->wp = 0;
	ch->written = 0;
	ch->finished = 0;
	if (rc == 0 && was_finished) {
		/* else a power loss brings back the finished chunk (as full, reading zeros) */
		(void)fw_chunks_persist(fw);
	}
	if (rc == -SS_EIO) {
		ch->state = SS_CHUNK_OFFLINE;
		/* an offline chunk must stay offline whatever happens next */
		(void)fw_chunks_persist(fw);
		*err = -SS_EIO;
		return SS_R_CHUNK_OFFLINE;
	}
	if (rc) {
		*err = rc;
		return SS_R_MEDIA_ERROR;
	}
	ch->state = SS_CHUNK_FREE;
	return SS_R_OK;
}

uint32_t fw_chunks_transition(struct ss_fw *fw, uint32_t idx, uint16_t opcode)
{
	struct fw_chunks *c = &fw->chunks;
	struct fw_chunk *ch = &c->c[idx];

	if (ch->state == SS_CHUNK_OFFLINE) {
		return SS_R_CHUNK_OFFLINE;
	}
	switch (opcode) {
	case SS_OP_ZONE_OPEN:
		if (ch->state == SS_CHUNK_FULL) {
			return SS_R_ZONE_STATE;
		}
		ch->state = SS_CHUNK_OPEN_EXPLICIT;
		return SS_R_OK;
	case SS_OP_ZONE_CLOSE:
		if (ch->state == SS_CHUNK_OPEN || ch->state == SS_CHUNK_OPEN_EXPLICIT) {
			ch->state = ch->wp ? SS_CHUNK_CLOSED : SS_CHUNK_FREE;
			return SS_R_OK;
		}
		return ch->state == SS_CHUNK_CLOSED ? SS_R_OK : SS_R_ZONE_STATE;
	case SS_OP_ZONE_FINISH:
		if (ch->state != SS_CHUNK_FULL) {
			ch->state = SS_CHUNK_FULL;
			ch->wp = c->sectors;
			ch->finished = ch->written < c->sectors;
			if (ch->finished && fw_chunks_persist(fw)) {
				return SS_R_MEDIA_ERROR;
			}
		}
		return SS_R_OK;
	default:
		return SS_R_BAD_OPCODE;
	}
}

#endif
