/*
 * Metadata durability: the redo journal, table checkpoints and the superblock pair.
 *
 * Journal page: header unit (0 magic | 4 crc32c over [8, 512 * (1 + nrec)) | 8 seq u64 |
 * 16 nrec u32) then nrec record units. The open page collects full record images, one per
 * slot (a later change of the same slot overwrites its image), and is rewritten in place at
 * each commit: the FTL writes a page atomically, so a page holds a consistent state of
 * whole operations. One operation never spans two pages (os_jrnl_reserve), which makes
 * rename-replace atomic. Replay applies pages with consecutive sequence numbers from the
 * superblock's start; sequence numbers never repeat, so stale pages end the replay.
 *
 * Superblock (LPN seq & 1): 0 magic | 4 crc32c over [8, 128) | 8 version | 12 page_size |
 * 16 seq u64 | 24 ftl_capacity | 28 max_objects | 32 table_first | 36 table_pages |
 * 40 jrnl_first | 44 jrnl_pages | 48 data_first | 52 data_pages | 56 jstart | 64 jseq u64 |
 * 72 next_gen u64 | 80 root_extents | 84 node_extents (version 2; zero in version 1).
 */
#include "objstore_internal.h"

#define SB_LEN 128u

void os_table_mark_dirty(struct ss_objstore *os, uint32_t slot)
{
	uint32_t t = slot / os->recs_per_page;

	os->table_dirty[t >> 5] |= 1u << (t & 31);
}

static int write_open(struct ss_objstore *os)
{
	uint8_t *h = os->jbuf;
	int rc;

	/* Records may point at data pages written since the last flush: those go first, so a
	 * durable record never refers to data that is not. */
	if (os->data_dirty) {
		rc = os_io_flush(os);
		if (rc) {
			return rc;
		}
		os->data_dirty = false;
	}
	ss_memset(h, 0, OS_UNIT);
	ss_put_le32(h, OS_MAGIC_JRNL);
	ss_put_le64(h + 8, os->jhead_seq);
	ss_put_le32(h + 16, os->jcount);
	ss_put_le32(h + 4, ss_crc32c(0, h + 8, OS_UNIT * (1 + os->jcount) - 8));
	rc = os_meta_write(os, os->jrnl_first + os->jhead, os->jbuf);
	if (rc) {
		return rc;
	}
	os->jdirty = false;
	return 0;
}

int os_jrnl_commit(struct ss_objstore *os)
{
	int rc;

	if (os->jdirty) {
		rc = write_open(os);
		if (rc) {
			return rc;
		}
		os->journal_commits++;
	}
	rc = os_io_flush(os);
	if (rc == 0) {
		os->data_dirty = false;
	}
	return rc;
}

int os_jrnl_reserve(struct ss_objstore *os, uint32_t n)
{
	int rc;

	if (os->jcount + n <= os->jcap) {
		return 0;
	}
	if (os->jdirty) {
		rc = write_open(os);
		if (rc) {
			return rc;
		}
	}
	if ((os->jhead + 1) % os->jrnl_pages == os->jstart) {
		return os_checkpoint(os);   /* ring full: fold it into the table */
	}
	os->jhead = (os->jhead + 1) % os->jrnl_pages;
	os->jhead_seq++;
	os->jcount = 0;
	return 0;
}

static uint32_t jslot_pos(struct ss_objstore *os, uint32_t slot)
{
	uint32_t i;

	for (i = 0; i < os->jcount; i++) {
		if (os->jslots[i] == slot) {
			return i;
		}
	}
	os->jslots[os->jcount++] = slot;
	return i;
}

void os_jrnl_add(struct ss_objstore *os, uint32_t slot)
{
	uint32_t pos = jslot_pos(os, slot);

	os_rec_encode(&os->recs[slot], slot, os->jbuf + OS_UNIT * (1 + pos));
	os->jdirty = true;
	os_table_mark_dirty(os, slot);
}

void os_jrnl_add_free(struct ss_objstore *os, uint32_t slot, ss_oid_t oid)
{
	uint32_t pos = jslot_pos(os, slot);

	os_rec_encode_free(slot, oid, os->jbuf + OS_UNIT * (1 + pos));
	os->jdirty = true;
	os_table_mark_dirty(os, slot);
}

static int write_table(struct ss_objstore *os)
{
	for (uint32_t t = 0; t < os->table_pages; t++) {
		if (!(os->table_dirty[t >> 5] & (1u << (t & 31)))) {
			continue;
		}
		for (uint32_t i = 0; i < os->recs_per_page; i++) {
			uint32_t s = t * os->recs_per_page + i;
			uint8_t *u = os->iobuf + i * OS_UNIT;

			if (s < os->nslots && os->recs[s].type != 0) {
				os_rec_encode(&os->recs[s], s, u);
			} else {
				ss_memset(u, 0, OS_UNIT);
			}
		}
		int rc = os_meta_write(os, os->table_first + t, os->iobuf);

		if (rc) {
			return rc;
		}
	}
	return 0;
}

static void sb_encode(const struct ss_objstore *os, uint64_t seq, uint32_t jstart, uint64_t jseq,
		      uint8_t *p)
{
	ss_memset(p, 0, os->page_size);
	ss_put_le32(p, OS_MAGIC_SB);
	ss_put_le32(p + 8, OS_VERSION);
	ss_put_le32(p + 12, os->page_size);
	ss_put_le64(p + 16, seq);
	ss_put_le32(p + 24, os->ftl_capacity);
	ss_put_le32(p + 28, os->max_objects);
	ss_put_le32(p + 32, os->table_first);
	ss_put_le32(p + 36, os->table_pages);
	ss_put_le32(p + 40, os->jrnl_first);
	ss_put_le32(p + 44, os->jrnl_pages);
	ss_put_le32(p + 48, os->data_first);
	ss_put_le32(p + 52, os->data_pages);
	ss_put_le32(p + 56, jstart);
	ss_put_le64(p + 64, jseq);
	ss_put_le64(p + 72, os->next_gen);
	ss_put_le32(p + 80, os->root_limit);
	ss_put_le32(p + 84, os->node_cap == (os->page_size - OS_XT_HDR) / OS_EXT_SIZE ? 0 : os->node_cap);
	ss_put_le32(p + 4, ss_crc32c(0, p + 8, SB_LEN - 8));
}

static int sb_decode(const uint8_t *p, struct os_sb *sb)
{
	if (ss_get_le32(p) != OS_MAGIC_SB || ss_get_le32(p + 4) != ss_crc32c(0, p + 8, SB_LEN - 8)) {
		return -SS_EBADMSG;
	}
	sb->version = ss_get_le32(p + 8);
	if (sb->version < OS_VERSION_MIN) {
		return -SS_EBADMSG;
	}
	sb->page_size = ss_get_le32(p + 12);
	sb->seq = ss_get_le64(p + 16);
	sb->ftl_capacity = ss_get_le32(p + 24);
	sb->max_objects = ss_get_le32(p + 28);
	sb->table_first = ss_get_le32(p + 32);
	sb->table_pages = ss_get_le32(p + 36);
	sb->jrnl_first = ss_get_le32(p + 40);
	sb->jrnl_pages = ss_get_le32(p + 44);
	sb->data_first = ss_get_le32(p + 48);
	sb->data_pages = ss_get_le32(p + 52);
	sb->jstart = ss_get_le32(p + 56);
	sb->jseq = ss_get_le64(p + 64);
	sb->next_gen = ss_get_le64(p + 72);
	sb->root_extents = ss_get_le32(p + 80);
	sb->node_extents = ss_get_le32(p + 84);
	return 0;
}

int os_sb_load(struct ss_ftl *ftl, uint8_t *buf, struct os_sb *sb)
{
	bool found = false, mapped = false;

	for (uint32_t lpn = 0; lpn < OS_SB_PAGES; lpn++) {
		struct os_sb cand;
		int rc = ss_ftl_read(ftl, lpn, buf);

		if (rc < 0) {
			return rc;
		}
		if (rc == 1) {
			continue;
		}
		mapped = true;
		if (sb_decode(buf, &cand) == 0 && (cand.seq & 1u) == lpn &&
		    (!found || cand.seq > sb->seq)) {
			*sb = cand;
			found = true;
		}
	}
	if (!found) {
		return mapped ? -SS_EBADMSG : -SS_ENODATA;
	}
	/* A newer format is not corruption: say so, and touch nothing. */
	return sb->version > OS_VERSION ? -SS_EPROTO : 0;
}

int os_checkpoint(struct ss_objstore *os)
{
	uint32_t jstart = os->jhead;
	uint64_t jseq = os->jhead_seq;
	int rc;

	rc = os_jrnl_commit(os);
	if (rc) {
		return rc;
	}
	/* DRAM now equals the durable journal state, so the table pages hold nothing a
	 * replay from the old start would not also produce. */
	rc = write_table(os);
	if (rc == 0) {
		rc = os_io_flush(os);
	}
	if (rc) {
		return rc;
	}
	if (os->jcount > 0) {
		jstart = (os->jhead + 1) % os->jrnl_pages;
		jseq = os->jhead_seq + 1;
	}
	sb_encode(os, os->sb_seq + 1, jstart, jseq, os->iobuf);
	rc = os_meta_write(os, (uint32_t)((os->sb_seq + 1) & 1u), os->iobuf);
	if (rc == 0) {
		rc = os_io_flush(os);
	}
	if (rc) {
		return rc;
	}
	os->sb_seq++;
	os->jstart = os->jhead = jstart;
	os->jstart_seq = os->jhead_seq = jseq;
	os->jcount = 0;
	os->jdirty = false;
	ss_memset(os->table_dirty, 0, SS_DIV_ROUND_UP(os->table_pages, 32) * sizeof(uint32_t));
	os->checkpoints++;
	return 0;
}

static void note_gen(struct ss_objstore *os, ss_oid_t oid)
{
	uint64_t gen = oid >> 32;

	if (gen + 1 > os->next_gen) {
		os->next_gen = gen + 1;
	}
}

/* Decode a unit into `slot`'s place (from a table page at `expect_slot`, or the journal). */
static int apply_unit(struct ss_objstore *os, const uint8_t *u, uint32_t expect_slot)
{
	struct os_rec *r = &os->scratch;
	uint32_t slot;
	int live = os_rec_decode(u, r, &slot);

	if (live < 0) {
		return live;
	}
	if (slot == OS_NOSLOT) {
		return expect_slot == OS_NOSLOT ? -SS_EBADMSG : 0;
	}
	if (slot == 0 || slot >= os->nslots || (expect_slot != OS_NOSLOT && slot != expect_slot)) {
		return -SS_EBADMSG;
	}
	note_gen(os, r->oid);
	if (expect_slot == OS_NOSLOT) {
		os_table_mark_dirty(os, slot);
	}
	if (live) {
		os->recs[slot] = *r;
	} else {
		ss_memset(&os->recs[slot], 0, sizeof(os->recs[slot]));
	}
	return 0;
}

int os_table_load(struct ss_objstore *os)
{
	for (uint32_t t = 0; t < os->table_pages; t++) {
		int rc = ss_ftl_read(os->ftl, os->table_first + t, os->iobuf);

		if (rc < 0) {
			return os_problem(os, SS_OS_P_TABLE_UNREADABLE, 0, os->table_first + t, 0);
		}
		if (rc == 1) {
			continue;   /* never written: all free */
		}
		for (uint32_t i = 0; i < os->recs_per_page; i++) {
			uint32_t s = t * os->recs_per_page + i;

			if (s >= os->nslots) {
				break;
			}
			rc = apply_unit(os, os->iobuf + i * OS_UNIT, s);
			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

static bool jpage_valid(const struct ss_objstore *os, const uint8_t *p, uint64_t *seq, uint32_t *nrec)
{
	if (ss_get_le32(p) != OS_MAGIC_JRNL) {
		return false;
	}
	*seq = ss_get_le64(p + 8);
	*nrec = ss_get_le32(p + 16);
	return *nrec <= os->jcap &&
	       ss_get_le32(p + 4) == ss_crc32c(0, p + 8, OS_UNIT * (1 + *nrec) - 8);
}

int os_jrnl_replay(struct ss_objstore *os)
{
	uint64_t expect = os->jstart_seq, max_seq = 0;
	uint32_t end = os->jstart;
	bool replaying = true;

	for (uint32_t i = 0; i < os->jrnl_pages; i++) {
		uint32_t pos = (os->jstart + i) % os->jrnl_pages, nrec = 0;
		uint64_t seq = 0;
		int rc = ss_ftl_read(os->ftl, os->jrnl_first + pos, os->iobuf);

		if (rc < 0) {
			return os_problem(os, SS_OS_P_JOURNAL_UNREADABLE, 0, os->jrnl_first + pos, 0);
		}
		bool valid = rc == 0 && jpage_valid(os, os->iobuf, &seq, &nrec);

		if (valid && seq > max_seq) {
			max_seq = seq;
		}
		if (!(replaying && valid && seq == expect)) {
			replaying = false;
			continue;
		}
		for (uint32_t k = 0; k < nrec; k++) {
			rc = apply_unit(os, os->iobuf + OS_UNIT * (1 + k), OS_NOSLOT);
			if (rc) {
				return rc;
			}
		}
		expect++;
		end = (pos + 1) % os->jrnl_pages;
	}
	/* Continue past every sequence number the ring holds, stale pages included. */
	os->jhead = end;
	os->jhead_seq = SS_MAX(expect, max_seq + 1);
	os->jcount = 0;
	os->jdirty = false;
	return 0;
}
