/*
 * The host block target over an open-channel drive (smartssd/blk.h), after pblk
 * (drivers/lightnvm/pblk-*): lines, a write buffer striped over the PUs, greedy GC of
 * whole lines, recovery from the out-of-band metadata.
 *
 * Layout. Line l is chunk l of every PU; lines 0 and 1 hold the map checkpoints, in turn,
 * the others data. The target numbers its PUs channel first, as pblk stripes
 * (pblk_luns_init): PU i is die i / groups of channel i % groups, so that the write units
 * placed one after another, PU after PU, go to different channels before a second die of
 * one. A block is 8 sectors of a chunk; its global address (gba) is
 * (line * pus + pu) * chunk_blocks + block. Each written block's OOB: sector 0's metadata
 * the LBA (or a mark: padding, trim record, checkpoint), sector 1's the sequence number
 * the block was placed with. Sequence numbers grow with every block placed, GC's moves
 * too, so replaying in their order gives the last word on every LBA.
 *
 * Why replay is enough: a checkpoint at sequence S holds the map of every record up to S.
 * A line is erased only once its valid blocks were moved and flushed, and, when it holds
 * a record after S, only after a new checkpoint: so every record after the newest
 * checkpoint that still matters (a write, or a trim, which supersedes older writes) is on
 * the flash at any crash.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "smartssd/blk.h"
#include "errinfo.h"
#include "ss_proto.h"
#include "ss_wire.h"

#define SPB 8u                              /* sectors of a block */
#define MAP_NONE UINT64_MAX
#define MAP_BUF (1ull << 62)                /* | buffer slot: not yet on the flash */
#define MARK_FOREIGN UINT64_MAX             /* OOB of a block written without metadata */
#define MARK_PAD (UINT64_MAX - 1)
#define MARK_TRIM (UINT64_MAX - 2)
#define MARK_CKPT (UINT64_MAX - 3)
#define CKPT_LINES 2u
#define CKPT_MAGIC 0x4B43424Cu              /* "LBCK" */
#define CKPT_COMMIT 0x4D43424Cu             /* "LBCM" */
#define CKPT_VERSION 2u                     /* 1: PUs numbered die first in a channel */
#define TRIM_MAGIC 0x4D54424Cu              /* "LBTM" */
#define BUF_MAX (SS_VECTOR_MAX / SPB)       /* one vector command */
#define GC_RESERVE 1u                       /* free lines only GC may take */
#define GC_SLACK (2 * BUF_MAX)              /* free blocks kept beyond GC's moves */

enum line_state { LINE_FREE, LINE_OPEN, LINE_FULL, LINE_GC };

struct line {
	enum line_state state;
	uint32_t valid;
	uint32_t next_pu;     /* round robin over its chunks */
	uint64_t max_seq;     /* of the records in it */
};

struct slot {
	uint64_t lba;         /* or MARK_PAD, MARK_TRIM */
	uint8_t data[SS_BLK_BLOCK];
};

struct ss_blk {
	struct ss_dev *d;
	pthread_mutex_t lock;
	struct ss_dev_geometry g;
	uint32_t npu, nlines, chunk_blocks, unit_blocks;
	uint64_t line_blocks, nlba;
	uint32_t op_permille, ckpt_lines;

	uint32_t *wp;         /* per chunk (line * npu + pu): written sectors */
	uint8_t *offline;     /* per chunk */
	struct line *lines;
	uint64_t *map;
	uint8_t *validmap;    /* a bit per gba */

	int cur;              /* the line being written, -1 none */
	int gc_line;          /* the line GC is collecting, -1 none */
	uint32_t *gc_next;    /* per PU: its next block GC looks at */
	uint32_t *pu_reads;   /* per PU: user reads since GC's last step, halved at each */
	uint32_t free_lines, lines_since_ckpt;
	bool in_gc;
	uint64_t gc_p, gc_q;  /* GC's rate: gc_p blocks moved to gc_q written by others */
	uint64_t seq;         /* the next to give */
	uint64_t ckpt_seq;    /* records up to it are in the newest checkpoint */
	uint64_t ckpt_gen;    /* that checkpoint's generation; it is in line gen % 2 */

	struct slot buf[BUF_MAX];
	uint32_t nbuf;
	struct ss_blk_stats st;
	struct ss_dev_queue *q;  /* ss_blk_read_many's, opened at its first call */
};

/* ---- addressing ----------------------------------------------------------------------- */

static uint32_t chunk_of(const struct ss_blk *b, uint32_t line, uint32_t pu)
{
	return line * b->npu + pu;
}

static uint64_t gba_of(const struct ss_blk *b, uint32_t line, uint32_t pu, uint32_t blk)
{
	return ((uint64_t)line * b->npu + pu) * b->chunk_blocks + blk;
}

static void gba_split(const struct ss_blk *b, uint64_t gba, uint32_t *line, uint32_t *pu,
		      uint32_t *blk)
{
	*blk = (uint32_t)(gba % b->chunk_blocks);
	*pu = (uint32_t)(gba / b->chunk_blocks % b->npu);
	*line = (uint32_t)(gba / b->chunk_blocks / b->npu);
}

/* The one definition of the PU order (see Layout): this and its inverses below. */
static struct ss_dev_ppa ppa_of(const struct ss_blk *b, uint32_t line, uint32_t pu,
				uint32_t sector)
{
	return (struct ss_dev_ppa){ .group = pu % b->g.groups, .pu = pu / b->g.groups,
				    .chunk = line, .sector = sector };
}

static uint32_t pu_of_ppa(const struct ss_blk *b, const struct ss_dev_ppa *ppa)
{
	return ppa->pu * b->g.groups + ppa->group;
}

/* The drive reports its chunks by group, then PU, then chunk. */
static uint64_t report_index(const struct ss_blk *b, uint32_t line, uint32_t pu)
{
	struct ss_dev_ppa p = ppa_of(b, line, pu, 0);

	return ((uint64_t)p.group * b->g.pus + p.pu) * b->nlines + line;
}

static void report_split(const struct ss_blk *b, uint64_t i, uint32_t *line, uint32_t *pu)
{
	struct ss_dev_ppa p = { .group = (uint32_t)(i / b->nlines / b->g.pus),
				.pu = (uint32_t)(i / b->nlines % b->g.pus) };

	*line = (uint32_t)(i % b->nlines);
	*pu = pu_of_ppa(b, &p);
}

static bool valid_get(const struct ss_blk *b, uint64_t gba)
{
	return b->validmap[gba / 8] & (1u << (gba % 8));
}

static void valid_set(struct ss_blk *b, uint64_t gba, bool on)
{
	uint32_t line = (uint32_t)(gba / b->line_blocks);

	if (on == valid_get(b, gba))
		return;
	if (on) {
		b->validmap[gba / 8] |= (uint8_t)(1u << (gba % 8));
		b->lines[line].valid++;
	} else {
		b->validmap[gba / 8] &= (uint8_t)~(1u << (gba % 8));
		b->lines[line].valid--;
	}
}

/* The LBA's flash copy is no longer its data. */
static void unmap(struct ss_blk *b, uint64_t lba)
{
	uint64_t m = b->map[lba];

	if (m != MAP_NONE && !(m & MAP_BUF))
		valid_set(b, m, false);
}

static void put_oob(uint8_t *meta, uint64_t lba, uint64_t seq)
{
	memset(meta, 0xFF, SPB * SS_SECTOR_META);
	ss_put_le64(meta, lba);
	ss_put_le64(meta + SS_SECTOR_META, seq);
}

/* ---- lines ----------------------------------------------------------------------------- */

static int line_reset(struct ss_blk *b, uint32_t l)
{
	struct ss_dev_ppa ppa[SS_VECTOR_MAX];
	uint32_t n = 0;
	int rc;

	for (uint32_t pu = 0; pu < b->npu; pu++) {
		uint32_t c = chunk_of(b, l, pu);

		if (b->offline[c] || b->wp[c] == 0)
			continue;
		ppa[n++] = ppa_of(b, l, pu, 0);
		if (n == SS_VECTOR_MAX || pu + 1 == b->npu) {
			rc = ss_dev_chunk_reset(b->d, ppa, n);
			if (rc)
				return ss_err_context(rc, "block target: erasing line %u", l);
			n = 0;
		}
	}
	if (n) {
		rc = ss_dev_chunk_reset(b->d, ppa, n);
		if (rc)
			return ss_err_context(rc, "block target: erasing line %u", l);
	}
	for (uint32_t pu = 0; pu < b->npu; pu++)
		b->wp[chunk_of(b, l, pu)] = 0;
	return 0;
}

/* A chunk of the current line with room for a unit, round robin: 0 and *pu, or -1. */
static int line_next_pu(struct ss_blk *b, uint32_t l, uint32_t *pu)
{
	struct line *ln = &b->lines[l];

	for (uint32_t k = 0; k < b->npu; k++) {
		uint32_t p = (ln->next_pu + k) % b->npu, c = chunk_of(b, l, p);

		if (!b->offline[c] && b->wp[c] + b->unit_blocks * SPB <= b->g.chunk_sectors) {
			ln->next_pu = (p + 1) % b->npu;
			*pu = p;
			return 0;
		}
	}
	return -1;
}

static int checkpoint(struct ss_blk *b);
static int gc_one(struct ss_blk *b);

/* GC's reserve line may be opened: by GC, or by the user while GC runs at the rate
 * limiter's pace (gc_pace), which has its moves done before the free blocks run out. */
static bool may_take_reserve(const struct ss_blk *b)
{
	return b->in_gc || (b->gc_line >= 0 && b->gc_q > 0);
}

/* Make the current line one with room, closing a full one, collecting lines when the free
 * ones run down to GC's reserve, and checkpointing every ckpt_lines lines. */
static int ensure_room(struct ss_blk *b)
{
	uint32_t pu;
	int rc;

	if (b->cur >= 0 && line_next_pu(b, (uint32_t)b->cur, &pu) == 0) {
		b->lines[b->cur].next_pu = pu; /* undo the step: place() takes it */
		return 0;
	}
	if (b->cur >= 0) {
		b->lines[b->cur].state = LINE_FULL;
		b->cur = -1;
		b->lines_since_ckpt++;
	}
	for (uint32_t round = 0; !may_take_reserve(b) && b->free_lines <= GC_RESERVE; round++) {
		if (round == b->nlines)
			return ss_err(-ENOSPC, 0, "block target: GC of %u lines freed no space", round);
		rc = gc_one(b);
		if (rc)
			return rc;
		if (b->cur >= 0)
			return ensure_room(b);
	}
	for (uint32_t l = CKPT_LINES; l < b->nlines; l++) {
		if (b->lines[l].state != LINE_FREE)
			continue;
		if (b->free_lines <= GC_RESERVE && !may_take_reserve(b))
			break;
		b->lines[l].state = LINE_OPEN;
		b->lines[l].next_pu = 0;
		b->lines[l].max_seq = 0;
		b->free_lines--;
		b->cur = (int)l;
		if (line_next_pu(b, l, &pu) != 0)
			return ss_err(-EIO, 0, "block target: line %u has no usable chunk", l);
		b->lines[l].next_pu = pu;
		return 0;
	}
	return ss_err(-ENOSPC, 0, "block target: no free line (%u free, GC moved everything it "
		      "could)", b->free_lines);
}

/* ---- the write buffer ------------------------------------------------------------------ */

/* The write pointers of line l's chunks, from the drive. */
static int line_wp_reload(struct ss_blk *b, uint32_t l)
{
	for (uint32_t pu = 0; pu < b->npu; pu++) {
		struct ss_dev_chunk ch;
		int k = ss_dev_chunk_report(b->d, report_index(b, l, pu), &ch, 1);

		if (k != 1)
			return k < 0 ? k : -EPROTO;
		b->offline[chunk_of(b, l, pu)] = ch.state == SS_CHUNK_OFFLINE;
		b->wp[chunk_of(b, l, pu)] = (uint32_t)(ch.wp - ch.slba);
	}
	return 0;
}

/* Write the buffer's first blocks (whole units, at most one vector command) to the
 * current line, each unit to the next PU, and point the map at them. Making room may run
 * GC, which writes the buffer out itself: what is left is counted after it. */
static int write_units(struct ss_blk *b)
{
	static __thread struct {
		struct ss_dev_ppa ppa[SS_VECTOR_MAX];
		uint8_t data[SS_VECTOR_MAX * SS_SECTOR];
		uint8_t meta[SS_VECTOR_MAX * SS_SECTOR_META];
		uint64_t gba[BUF_MAX];
	} v;
	uint32_t l, k, nsec = 0;
	int rc;

	rc = ensure_room(b);
	if (rc)
		return rc;
	k = (b->nbuf < BUF_MAX ? b->nbuf : BUF_MAX) / b->unit_blocks * b->unit_blocks;
	if (k == 0)
		return 0;
	l = (uint32_t)b->cur;
	for (uint32_t i = 0; i < k; i += b->unit_blocks) {
		uint32_t pu, c;

		if (line_next_pu(b, l, &pu) != 0) {
			k = i;   /* the line filled: the rest goes to the next one */
			break;
		}
		c = chunk_of(b, l, pu);
		for (uint32_t j = 0; j < b->unit_blocks; j++) {
			uint32_t blk = b->wp[c] / SPB + j;

			v.gba[i + j] = gba_of(b, l, pu, blk);
			put_oob(v.meta + (size_t)(i + j) * SPB * SS_SECTOR_META, b->buf[i + j].lba,
				b->seq + i + j);
			memcpy(v.data + (size_t)(i + j) * SS_BLK_BLOCK, b->buf[i + j].data,
			       SS_BLK_BLOCK);
			for (uint32_t s = 0; s < SPB; s++)
				v.ppa[nsec++] = ppa_of(b, l, pu, blk * SPB + s);
		}
		b->wp[c] += b->unit_blocks * SPB;
	}
	rc = ss_dev_vector_write_meta(b->d, v.ppa, nsec, v.data, v.meta);
	if (rc) {
		char why[SS_DEV_MSG_MAX];
		int reason = ss_dev_last_reason();

		/* part of it may be on the flash: its sequence numbers are spent, the line is
		 * closed and its write pointers are the drive's. The reload's chunk reports
		 * clear the error, so the write's is kept across them. */
		ss_dev_last_message_copy(why, sizeof(why));
		b->seq += k;
		b->lines[l].state = LINE_FULL;
		b->cur = -1;
		(void)line_wp_reload(b, l);
		ss_err(rc, reason, "%s", why);
		return ss_err_context(rc, "block target: writing %u blocks to line %u", k, l);
	}
	for (uint32_t i = 0; i < k; i++) {
		uint64_t lba = b->buf[i].lba;

		b->lines[l].max_seq = b->seq + i;
		b->st.flash_blocks_written++;
		if (lba >= b->nlba)
			continue;
		if (b->map[lba] == (MAP_BUF | i)) {
			b->map[lba] = v.gba[i];
			valid_set(b, v.gba[i], true);
		}
	}
	b->seq += k;
	memmove(b->buf, b->buf + k, (b->nbuf - k) * sizeof(b->buf[0]));
	b->nbuf -= k;
	for (uint32_t i = 0; i < b->nbuf; i++)
		if (b->buf[i].lba < b->nlba)
			b->map[b->buf[i].lba] = MAP_BUF | i;
	return 0;
}

/* Write out whole units; with `all`, the last one too, padded. */
static int drain(struct ss_blk *b, bool all)
{
	int rc;

	for (;;) {
		while (all && b->nbuf % b->unit_blocks) {
			b->buf[b->nbuf].lba = MARK_PAD;
			memset(b->buf[b->nbuf].data, 0, SS_BLK_BLOCK);
			b->nbuf++;
			b->st.pad_blocks++;
		}
		if (b->nbuf == 0 || (!all && b->nbuf < BUF_MAX))
			return 0;
		rc = write_units(b);
		if (rc)
			return rc;
	}
}

/* A slot for the next block: the buffer written out first when full. */
static int buf_take(struct ss_blk *b, struct slot **s)
{
	int rc;

	if (b->nbuf == BUF_MAX) {
		rc = drain(b, false);
		if (rc)
			return rc;
	}
	*s = &b->buf[b->nbuf++];
	return 0;
}

static int put_block(struct ss_blk *b, uint64_t lba, const uint8_t *data)
{
	uint64_t m = b->map[lba];
	struct slot *s;
	int rc;

	if (m != MAP_NONE && (m & MAP_BUF)) {
		/* not on the flash yet: the newer data takes its slot */
		memcpy(b->buf[m & ~MAP_BUF].data, data, SS_BLK_BLOCK);
		return 0;
	}
	rc = buf_take(b, &s);
	if (rc)
		return rc;
	s->lba = lba;
	memcpy(s->data, data, SS_BLK_BLOCK);
	unmap(b, lba);
	b->map[lba] = MAP_BUF | (uint64_t)(s - b->buf);
	return 0;
}

/* ---- GC --------------------------------------------------------------------------------- */

/* The full line with the fewest valid blocks (pblk's greedy choice), or -1. */
static int gc_victim(const struct ss_blk *b)
{
	int best = -1;

	for (uint32_t l = CKPT_LINES; l < b->nlines; l++) {
		if (b->lines[l].state != LINE_FULL)
			continue;
		if (best < 0 || b->lines[l].valid < b->lines[best].valid)
			best = (int)l;
	}
	return best;
}

/* The victim's PU for GC's next reads: of those with blocks left to look at, one the user
 * has read least since the last step -- so that GC's reads and the user's go to different
 * PUs where the victim allows (LightNVM's isolation of GC from reads). -1 when done. */
static int gc_pick_pu(struct ss_blk *b)
{
	uint32_t l = (uint32_t)b->gc_line;
	int best = -1;

	for (uint32_t pu = 0; pu < b->npu; pu++) {
		if (b->gc_next[pu] >= b->wp[chunk_of(b, l, pu)] / SPB)
			continue;
		if (best < 0 || b->pu_reads[pu] < b->pu_reads[best])
			best = (int)pu;
	}
	return best;
}

/* Move a valid block of the victim through the write buffer. */
static int gc_move(struct ss_blk *b, uint32_t l, uint32_t pu, uint32_t blk)
{
	static __thread uint8_t data[SPB * SS_SECTOR];
	static __thread uint8_t meta[SPB * SS_SECTOR_META];
	uint64_t gba = gba_of(b, l, pu, blk), lba;
	struct ss_dev_ppa ppa[SPB];
	int rc;

	for (uint32_t s = 0; s < SPB; s++)
		ppa[s] = ppa_of(b, l, pu, blk * SPB + s);
	rc = ss_dev_vector_read_meta(b->d, ppa, SPB, data, meta);
	if (rc)
		return ss_err_context(rc, "block target: GC reading line %u", l);
	lba = ss_get_le64(meta);
	if (lba >= b->nlba || b->map[lba] != gba)
		return ss_err(-EBADMSG, 0, "block target: GC: block %u of chunk %u of PU %u is "
			      "valid but its OOB names LBA %llu", blk, l, pu,
			      (unsigned long long)lba);
	b->st.gc_blocks_moved++;
	b->st.gc_moves_beside_reads += b->pu_reads[pu] > 0;
	return put_block(b, lba, data);
}

static int gc_start(struct ss_blk *b)
{
	int victim = gc_victim(b);

	if (victim < 0)
		return ss_err(-ENOSPC, 0, "block target: no line to collect");
	b->gc_line = victim;
	b->lines[victim].state = LINE_GC;
	b->gc_q = 0;  /* not paced unless gc_pace says so */
	memset(b->gc_next, 0, b->npu * sizeof(*b->gc_next));
	return 0;
}

/* Up to `budget` blocks of GC's work: a victim chosen when none is in hand, its valid
 * blocks moved a unit's worth from a PU at a time (gc_pick_pu), and once all are, the
 * moves made durable and the line erased -- after a checkpoint when it holds records the
 * newest checkpoint does not. */
static int gc_step(struct ss_blk *b, uint64_t budget)
{
	uint32_t l;
	int rc = 0, pu;

	if (b->gc_line < 0 && (rc = gc_start(b)))
		return rc;
	l = (uint32_t)b->gc_line;
	b->in_gc = true;
	while (budget && rc == 0 && (pu = gc_pick_pu(b)) >= 0) {
		uint32_t blocks = b->wp[chunk_of(b, l, (uint32_t)pu)] / SPB;

		for (uint32_t k = 0; k < b->unit_blocks && b->gc_next[pu] < blocks && budget &&
		     rc == 0; k++) {
			uint32_t blk = b->gc_next[pu]++;

			if (valid_get(b, gba_of(b, l, (uint32_t)pu, blk))) {
				rc = gc_move(b, l, (uint32_t)pu, blk);
				budget--;
			}
		}
	}
	for (uint32_t p = 0; p < b->npu; p++)
		b->pu_reads[p] /= 2;
	if (rc == 0 && gc_pick_pu(b) < 0) {
		rc = drain(b, true);
		if (rc == 0 && b->lines[l].max_seq > b->ckpt_seq)
			rc = checkpoint(b);
		if (rc == 0)
			rc = line_reset(b, l);
		if (rc == 0) {
			b->lines[l].state = LINE_FREE;
			b->lines[l].max_seq = 0;
			b->free_lines++;
			b->st.gc_lines_erased++;
			b->gc_line = -1;
		}
	}
	b->in_gc = false;
	return rc;
}

/* Collect the victim in hand, or a new one, to its end. */
static int gc_one(struct ss_blk *b)
{
	int rc;

	do {
		rc = gc_step(b, UINT64_MAX);
	} while (rc == 0 && b->gc_line >= 0);
	return rc;
}

/* ---- checkpoints -------------------------------------------------------------------------- */

/* The checkpoint's blocks: header, the map (512 entries a block), commit; the commit last,
 * after padding to a whole unit. */
static uint32_t ckpt_map_blocks(const struct ss_blk *b)
{
	return (uint32_t)((b->nlba * 8 + SS_BLK_BLOCK - 1) / SS_BLK_BLOCK);
}

static uint32_t ckpt_blocks(const struct ss_blk *b)
{
	uint32_t n = 2 + ckpt_map_blocks(b);

	return (n + b->unit_blocks - 1) / b->unit_blocks * b->unit_blocks;
}

/* Block i of the checkpoint area in line l: its chunk and block, a unit to each usable
 * chunk in turn as the data's stripe, so that a checkpoint's programs spread over every
 * die rather than queue on one (a 1 GiB target's 320 blocks took 50 ms on one die). */
static int ckpt_place(const struct ss_blk *b, uint32_t l, uint32_t i, uint32_t *pu,
		      uint32_t *blk)
{
	uint32_t usable = 0, unit = i / b->unit_blocks, k;

	for (uint32_t p = 0; p < b->npu; p++)
		usable += !b->offline[chunk_of(b, l, p)];
	if (usable == 0 || (uint64_t)unit / usable * b->unit_blocks >= b->chunk_blocks)
		return -1;
	k = unit % usable;
	for (uint32_t p = 0; p < b->npu; p++) {
		if (b->offline[chunk_of(b, l, p)] || k--)
			continue;
		*pu = p;
		*blk = unit / usable * b->unit_blocks + i % b->unit_blocks;
		return 0;
	}
	return -1;
}

static void ckpt_block(const struct ss_blk *b, uint32_t i, uint32_t total, uint32_t crc,
		       uint8_t *out)
{
	uint32_t mb = ckpt_map_blocks(b);

	memset(out, 0, SS_BLK_BLOCK);
	if (i == 0) {
		ss_put_le32(out, CKPT_MAGIC);
		ss_put_le32(out + 4, CKPT_VERSION);
		ss_put_le64(out + 8, b->ckpt_gen + 1);
		ss_put_le64(out + 16, b->seq - 1);
		ss_put_le64(out + 24, b->nlba);
		ss_put_le32(out + 32, mb);
		ss_put_le32(out + 36, total);
		ss_put_le32(out + 40, b->op_permille);
	} else if (i <= mb) {
		uint64_t first = (uint64_t)(i - 1) * (SS_BLK_BLOCK / 8);

		for (uint64_t k = 0; k < SS_BLK_BLOCK / 8 && first + k < b->nlba; k++)
			ss_put_le64(out + k * 8, b->map[first + k]);
	} else if (i == total - 1) {
		ss_put_le32(out, CKPT_COMMIT);
		ss_put_le32(out + 4, crc);
		ss_put_le64(out + 8, b->ckpt_gen + 1);
	}
}

/* Write the map (every buffered block flushed first) to the checkpoint line not holding
 * the newest one; the commit block, written last, makes it the newest. */
static int checkpoint(struct ss_blk *b)
{
	static __thread uint8_t data[SS_VECTOR_MAX * SS_SECTOR];
	static __thread uint8_t meta[SS_VECTOR_MAX * SS_SECTOR_META];
	uint32_t l, total = ckpt_blocks(b), crc = 0, i = 0;
	int rc;

	/* (a drain may collect a line, and checkpoint before that: the line is chosen after) */
	rc = drain(b, true);
	if (rc)
		return rc;
	l = (uint32_t)((b->ckpt_gen + 1) % CKPT_LINES);
	rc = line_reset(b, l);
	if (rc)
		return rc;
	while (i < total) {
		struct ss_dev_ppa ppa[SS_VECTOR_MAX];
		uint32_t pu[BUF_MAX], blk[BUF_MAX], n = 0;

		/* whole units, each at its chunk's write pointer, one command */
		do {
			uint8_t *blockp = data + (size_t)n * SS_BLK_BLOCK;

			if (ckpt_place(b, l, i, &pu[n], &blk[n]))
				return ss_err(-ENOSPC, 0, "block target: the map's checkpoint (%u "
					      "blocks) does not fit in line %u", total, l);
			ckpt_block(b, i, total, crc, blockp);
			if (i + 1 < total)
				crc = ss_crc32c(crc, blockp, SS_BLK_BLOCK);
			put_oob(meta + (size_t)n * SPB * SS_SECTOR_META, MARK_CKPT, b->ckpt_gen + 1);
			for (uint32_t s = 0; s < SPB; s++)
				ppa[n * SPB + s] = ppa_of(b, l, pu[n], blk[n] * SPB + s);
			n++;
			i++;
		} while (n < BUF_MAX && i < total);
		rc = ss_dev_vector_write_meta(b->d, ppa, n * SPB, data, meta);
		if (rc)
			return ss_err_context(rc, "block target: writing checkpoint to line %u", l);
		for (uint32_t k = 0; k < n; k++)
			b->wp[chunk_of(b, l, pu[k])] = (blk[k] + 1) * SPB;
		b->st.checkpoint_blocks += n;
	}
	/* the drive keeps its chunks' wear in a table it writes at FLUSH: without one, the
	 * erases of chunks not written again since are forgotten at a power loss */
	rc = ss_dev_flush(b->d);
	if (rc)
		return ss_err_context(rc, "block target: flushing the drive after a checkpoint");
	b->ckpt_gen++;
	b->ckpt_seq = b->seq - 1;
	b->lines_since_ckpt = 0;
	b->st.checkpoints++;
	return 0;
}

/* ---- recovery ------------------------------------------------------------------------------- */

static int read_blocks(struct ss_blk *b, uint32_t l, uint32_t pu, uint32_t blk, uint32_t n,
		       uint8_t *data, uint8_t *meta)
{
	struct ss_dev_ppa ppa[SS_VECTOR_MAX];

	for (uint32_t i = 0; i < n * SPB; i++)
		ppa[i] = ppa_of(b, l, pu, blk * SPB + i);
	return ss_dev_vector_read_meta(b->d, ppa, n * SPB, data, meta);
}

/* The checkpoint in line l: 0 and its map loaded into b->map (when newer than *gen), or
 * 1 when there is none whole there. */
static int ckpt_load(struct ss_blk *b, uint32_t l, uint64_t *gen, uint64_t *seq)
{
	static __thread uint8_t blockp[SS_BLK_BLOCK];
	static __thread uint8_t meta[SPB * SS_SECTOR_META];
	uint32_t pu, blk, total, mb, crc = 0;
	uint64_t g, s;
	int rc;

	if (ckpt_place(b, l, 0, &pu, &blk) || b->wp[chunk_of(b, l, pu)] == 0)
		return 1;
	rc = read_blocks(b, l, pu, blk, 1, blockp, meta);
	if (rc)
		return rc;
	if (ss_get_le32(blockp) != CKPT_MAGIC)
		return 1;
	if (ss_get_le32(blockp + 4) != CKPT_VERSION)
		return ss_err(-EPROTO, SS_R_BAD_VERSION, "block target: the checkpoint in line %u "
			      "is of format version %u; this library reads version %u (PUs "
			      "numbered channel first): format the drive for it (ss_blk_format)", l,
			      ss_get_le32(blockp + 4), CKPT_VERSION);
	g = ss_get_le64(blockp + 8);
	s = ss_get_le64(blockp + 16);
	mb = ss_get_le32(blockp + 32);
	total = ss_get_le32(blockp + 36);
	if (g <= *gen)
		return 1;
	if (ss_get_le64(blockp + 24) != b->nlba || mb != ckpt_map_blocks(b) ||
	    total != ckpt_blocks(b))
		return ss_err(-EINVAL, 0, "block target: the checkpoint in line %u is of %llu "
			      "blocks at %u per mille over-provisioning; this open asks %llu at %u",
			      l, (unsigned long long)ss_get_le64(blockp + 24),
			      ss_get_le32(blockp + 40), (unsigned long long)b->nlba,
			      b->op_permille);
	/* every block present and the commit's CRC right, before any of the map is taken */
	for (uint32_t i = 0; i < total; i++) {
		if (ckpt_place(b, l, i, &pu, &blk) ||
		    (blk + 1) * SPB > b->wp[chunk_of(b, l, pu)])
			return 1;
		rc = read_blocks(b, l, pu, blk, 1, blockp, meta);
		if (rc)
			return rc;
		if (i + 1 < total) {
			crc = ss_crc32c(crc, blockp, SS_BLK_BLOCK);
			continue;
		}
		if (ss_get_le32(blockp) != CKPT_COMMIT || ss_get_le32(blockp + 4) != crc ||
		    ss_get_le64(blockp + 8) != g)
			return 1;
	}
	for (uint32_t i = 1; i <= mb; i++) {
		uint64_t first = (uint64_t)(i - 1) * (SS_BLK_BLOCK / 8);

		(void)ckpt_place(b, l, i, &pu, &blk);
		rc = read_blocks(b, l, pu, blk, 1, blockp, meta);
		if (rc)
			return rc;
		for (uint64_t k = 0; k < SS_BLK_BLOCK / 8 && first + k < b->nlba; k++)
			b->map[first + k] = ss_get_le64(blockp + k * 8);
	}
	*gen = g;
	*seq = s;
	return 0;
}

struct rec {
	uint64_t seq, lba, gba;
};

static int rec_cmp(const void *x, const void *y)
{
	const struct rec *a = x, *c = y;

	return a->seq < c->seq ? -1 : a->seq > c->seq;
}

/* The records after the checkpoint in chunk (l, pu): appended to *recs. */
static int scan_chunk(struct ss_blk *b, uint32_t l, uint32_t pu, struct rec **recs,
		      size_t *n, size_t *cap)
{
	static __thread uint8_t meta[SS_VECTOR_MAX * SS_SECTOR_META];
	static __thread uint8_t data[SS_VECTOR_MAX * SS_SECTOR];
	uint32_t c = chunk_of(b, l, pu), blocks = b->wp[c] / SPB;
	struct ss_dev_ppa ppa[SS_VECTOR_MAX];
	int rc;

	/* the last block has the chunk's newest sequence number */
	rc = read_blocks(b, l, pu, blocks - 1, 1, data, meta);
	if (rc)
		return rc;
	if (ss_get_le64(meta) == MARK_FOREIGN)
		return ss_err(-EBADMSG, 0, "block target: chunk %u of PU %u holds data without "
			      "the target's metadata; format the drive for the target (ss_blk_format)",
			      l, pu);
	if (ss_get_le64(meta + SS_SECTOR_META) > b->lines[l].max_seq)
		b->lines[l].max_seq = ss_get_le64(meta + SS_SECTOR_META);
	if (ss_get_le64(meta + SS_SECTOR_META) <= b->ckpt_seq)
		return 0;
	/* sectors 0 and 1 of each block: its LBA and sequence number */
	for (uint32_t first = 0; first < blocks; first += SS_VECTOR_MAX / 2) {
		uint32_t k = blocks - first < SS_VECTOR_MAX / 2 ? blocks - first : SS_VECTOR_MAX / 2;

		for (uint32_t i = 0; i < k; i++) {
			ppa[2 * i] = ppa_of(b, l, pu, (first + i) * SPB);
			ppa[2 * i + 1] = ppa_of(b, l, pu, (first + i) * SPB + 1);
		}
		rc = ss_dev_vector_read_meta(b->d, ppa, 2 * k, data, meta);
		if (rc)
			return ss_err_context(rc, "block target: scanning chunk %u of PU %u", l, pu);
		for (uint32_t i = 0; i < k; i++) {
			uint64_t lba = ss_get_le64(meta + 2 * i * SS_SECTOR_META);
			uint64_t seq = ss_get_le64(meta + (2 * i + 1) * SS_SECTOR_META);

			if (seq <= b->ckpt_seq || lba == MARK_PAD)
				continue;
			if (lba != MARK_TRIM && lba >= b->nlba)
				return ss_err(-EBADMSG, 0, "block target: block %u of chunk %u of PU %u "
					      "names LBA %llu, past the %llu blocks", first + i, l, pu,
					      (unsigned long long)lba, (unsigned long long)b->nlba);
			if (*n == *cap) {
				size_t nc = *cap ? *cap * 2 : 1024;
				struct rec *r = realloc(*recs, nc * sizeof(**recs));

				if (!r)
					return ss_err(-ENOMEM, 0, "block target: recovery records");
				*recs = r;
				*cap = nc;
			}
			(*recs)[(*n)++] = (struct rec){ seq, lba, gba_of(b, l, pu, first + i) };
		}
	}
	return 0;
}

static int replay_trim(struct ss_blk *b, uint64_t gba)
{
	static __thread uint8_t data[SS_BLK_BLOCK];
	static __thread uint8_t meta[SPB * SS_SECTOR_META];
	uint32_t l, pu, blk;
	uint64_t lba, n;
	int rc;

	gba_split(b, gba, &l, &pu, &blk);
	rc = read_blocks(b, l, pu, blk, 1, data, meta);
	if (rc)
		return rc;
	lba = ss_get_le64(data + 8);
	n = ss_get_le64(data + 16);
	if (ss_get_le32(data) != TRIM_MAGIC || lba > b->nlba || n > b->nlba - lba)
		return ss_err(-EBADMSG, 0, "block target: trim record %llu: bad range",
			      (unsigned long long)gba);
	for (uint64_t i = 0; i < n; i++)
		b->map[lba + i] = MAP_NONE;
	return 0;
}

/* The map from the newest checkpoint and the records after it; line states and valid
 * counts from the map. */
static int recover(struct ss_blk *b)
{
	struct rec *recs = NULL;
	size_t n = 0, cap = 0;
	uint64_t gen = 0, seq = 0, top = 0;
	int open_line = -1, rc = 0;

	for (uint64_t i = 0; i < b->nlba; i++)
		b->map[i] = MAP_NONE;
	for (uint32_t l = 0; l < CKPT_LINES && rc >= 0; l++)
		rc = ckpt_load(b, l, &gen, &seq);
	if (rc < 0)
		return rc;
	rc = 0;
	b->ckpt_gen = gen;
	b->ckpt_seq = seq;
	top = seq;
	for (uint32_t l = CKPT_LINES; l < b->nlines && rc >= 0; l++)
		for (uint32_t pu = 0; pu < b->npu && rc >= 0; pu++)
			if (!b->offline[chunk_of(b, l, pu)] && b->wp[chunk_of(b, l, pu)])
				rc = scan_chunk(b, l, pu, &recs, &n, &cap);
	if (rc < 0)
		goto out;
	if (n)
		qsort(recs, n, sizeof(*recs), rec_cmp);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (recs[i].lba == MARK_TRIM)
			rc = replay_trim(b, recs[i].gba);
		else
			b->map[recs[i].lba] = recs[i].gba;
	}
	if (rc)
		goto out;
	b->st.recovered_records = n;
	for (uint64_t lba = 0; lba < b->nlba; lba++) {
		uint64_t gba = b->map[lba];
		uint32_t l, pu, blk;

		if (gba == MAP_NONE)
			continue;
		gba_split(b, gba, &l, &pu, &blk);
		if (l < CKPT_LINES || l >= b->nlines || (blk + 1) * SPB > b->wp[chunk_of(b, l, pu)]) {
			rc = ss_err(-EBADMSG, 0, "block target: LBA %llu maps to block %u of chunk "
				    "%u of PU %u, which holds no data", (unsigned long long)lba,
				    blk, l, pu);
			goto out;
		}
		valid_set(b, gba, true);
	}
	b->free_lines = 0;
	for (uint32_t l = CKPT_LINES; l < b->nlines; l++) {
		uint32_t used = 0, full = 0, usable = 0;

		for (uint32_t pu = 0; pu < b->npu; pu++) {
			uint32_t c = chunk_of(b, l, pu);

			if (b->offline[c])
				continue;
			usable++;
			used += b->wp[c] > 0;
			full += b->wp[c] + b->unit_blocks * SPB > b->g.chunk_sectors;
		}
		if (b->lines[l].max_seq > top)
			top = b->lines[l].max_seq;
		if (used == 0) {
			b->lines[l].state = usable ? LINE_FREE : LINE_FULL;
			b->free_lines += usable > 0;
		} else {
			b->lines[l].state = LINE_FULL;
			/* the line written last goes on; others half written wait for GC */
			if (full < usable && (open_line < 0 ||
					      b->lines[l].max_seq > b->lines[open_line].max_seq))
				open_line = (int)l;
		}
	}
	if (open_line >= 0) {
		b->lines[open_line].state = LINE_OPEN;
		b->cur = open_line;
	}
	b->seq = top + 1;
out:
	free(recs);
	return rc;
}

/* ---- the API ------------------------------------------------------------------------------- */

static int load_chunks(struct ss_blk *b)
{
	struct ss_dev_chunk rep[256];
	uint64_t total = (uint64_t)b->npu * b->nlines, i = 0;

	while (i < total) {
		int k = ss_dev_chunk_report(b->d, i, rep, 256);

		if (k < 0)
			return k;
		if (k == 0)
			return ss_err(-EPROTO, 0, "block target: %llu chunks reported of %llu",
				      (unsigned long long)i, (unsigned long long)total);
		for (int j = 0; j < k; j++, i++) {
			uint32_t pu, l, c;

			report_split(b, i, &l, &pu);
			c = chunk_of(b, l, pu);

			b->offline[c] = rep[j].state == SS_CHUNK_OFFLINE;
			b->wp[c] = (uint32_t)(rep[j].wp - rep[j].slba);
			if (!b->offline[c] && b->wp[c] % (b->unit_blocks * SPB))
				return ss_err(-EBADMSG, 0, "block target: chunk %u of PU %u is written "
					      "to sector %u, not a whole write unit of the target", l,
					      pu, b->wp[c]);
		}
	}
	return 0;
}

static int geometry(struct ss_blk *b)
{
	struct ss_dev_geometry *g = &b->g;
	uint64_t data_lines;
	int rc = ss_dev_geometry(b->d, g);

	if (rc)
		return rc;
	if (g->iface != SS_DEV_IFACE_OPEN_CHANNEL)
		return ss_err(-EOPNOTSUPP, SS_R_WRONG_INTERFACE, "block target: the drive's "
			      "interface is %s, not open-channel",
			      g->iface == SS_DEV_IFACE_ZONED ? "zoned" : "ftl");
	if (g->sector_bytes != SS_SECTOR || g->chunk_sectors % SPB || g->ws_min == 0 ||
	    (g->ws_min % SPB && SPB % g->ws_min))
		return ss_err(-EINVAL, 0, "block target: %u-byte sectors, %u-sector chunks and "
			      "%u-sector write units do not hold whole 4 KiB blocks",
			      g->sector_bytes, g->chunk_sectors, g->ws_min);
	b->unit_blocks = g->ws_min > SPB ? g->ws_min / SPB : 1;
	b->npu = g->groups * g->pus;
	b->nlines = g->chunks;
	b->chunk_blocks = g->chunk_sectors / SPB;
	b->line_blocks = (uint64_t)b->npu * b->chunk_blocks;
	if (BUF_MAX % b->unit_blocks || b->chunk_blocks % b->unit_blocks)
		return ss_err(-EINVAL, 0, "block target: a write unit of %u sectors is more than "
			      "one vector command or does not divide the chunk", g->ws_min);
	/* two checkpoint lines, GC's reserve and the open line hold no LBAs */
	if (b->nlines < CKPT_LINES + 4)
		return ss_err(-EINVAL, 0, "block target: %u chunks per PU; it needs %u or more",
			      b->nlines, CKPT_LINES + 4);
	data_lines = b->nlines - CKPT_LINES - 2;
	b->nlba = data_lines * b->line_blocks * (1000 - b->op_permille) / 1000;
	return 0;
}

int ss_blk_format(struct ss_dev *d)
{
	struct ss_blk tmp;
	int rc;

	ss_err_clear();
	memset(&tmp, 0, sizeof(tmp));
	tmp.d = d;
	tmp.op_permille = 100;
	rc = geometry(&tmp);
	if (rc)
		return rc;
	tmp.wp = calloc((size_t)tmp.npu * tmp.nlines, sizeof(*tmp.wp));
	tmp.offline = calloc((size_t)tmp.npu * tmp.nlines, 1);
	if (!tmp.wp || !tmp.offline) {
		rc = ss_err(-ENOMEM, 0, "block target: chunk table");
		goto out;
	}
	/* chunks written by anything: not only whole units */
	for (uint64_t i = 0; rc == 0 && i < (uint64_t)tmp.npu * tmp.nlines; i++) {
		struct ss_dev_chunk ch;
		struct ss_dev_ppa ppa;
		uint32_t l, pu;
		int k = ss_dev_chunk_report(d, i, &ch, 1);

		if (k != 1) {
			rc = k < 0 ? k : ss_err(-EPROTO, 0, "block target: chunk %llu unreported",
						(unsigned long long)i);
			break;
		}
		if (ch.state == SS_CHUNK_OFFLINE || ch.wp == ch.slba)
			continue;
		report_split(&tmp, i, &l, &pu);
		ppa = ppa_of(&tmp, l, pu, 0);
		rc = ss_dev_chunk_reset(d, &ppa, 1);
	}
out:
	free(tmp.wp);
	free(tmp.offline);
	return rc;
}

static void blk_free(struct ss_blk *b)
{
	ss_dev_queue_close(b->q);
	free(b->wp);
	free(b->offline);
	free(b->lines);
	free(b->map);
	free(b->validmap);
	free(b->gc_next);
	free(b->pu_reads);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

int ss_blk_open(struct ss_dev *d, const struct ss_blk_opts *o, struct ss_blk **out)
{
	struct ss_blk *b;
	size_t chunks;
	int rc;

	ss_err_clear();
	if (!d || !out)
		return ss_err(-EINVAL, 0, "block target: NULL drive or output");
	if (o && o->op_permille > 900)
		return ss_err(-EINVAL, 0, "block target: over-provisioning of %u per mille (at "
			      "most 900)", o->op_permille);
	b = calloc(1, sizeof(*b));
	if (!b)
		return ss_err(-ENOMEM, 0, "block target");
	pthread_mutex_init(&b->lock, NULL);
	b->d = d;
	b->cur = -1;
	b->gc_line = -1;
	b->op_permille = o && o->op_permille ? o->op_permille : 100;
	b->ckpt_lines = o && o->ckpt_lines ? o->ckpt_lines : 4;
	rc = geometry(b);
	if (rc)
		goto fail;
	chunks = (size_t)b->npu * b->nlines;
	b->wp = calloc(chunks, sizeof(*b->wp));
	b->offline = calloc(chunks, 1);
	b->lines = calloc(b->nlines, sizeof(*b->lines));
	b->map = malloc(b->nlba * sizeof(*b->map));
	b->validmap = calloc((b->nlines * b->line_blocks + 7) / 8, 1);
	b->gc_next = calloc(b->npu, sizeof(*b->gc_next));
	b->pu_reads = calloc(b->npu, sizeof(*b->pu_reads));
	if (!b->wp || !b->offline || !b->lines || !b->map || !b->validmap || !b->gc_next ||
	    !b->pu_reads) {
		rc = ss_err(-ENOMEM, 0, "block target: a map of %llu blocks",
			    (unsigned long long)b->nlba);
		goto fail;
	}
	if (ckpt_blocks(b) > b->line_blocks) {
		rc = ss_err(-EINVAL, 0, "block target: the map's checkpoint (%u blocks) is larger "
			    "than a line (%llu)", ckpt_blocks(b), (unsigned long long)b->line_blocks);
		goto fail;
	}
	rc = load_chunks(b);
	if (rc == 0)
		rc = recover(b);
	/* killed in a GC that had taken the reserve line: finish one into the open line, which
	 * has room for the rest of its victim, before users write there */
	if (rc == 0 && b->free_lines < GC_RESERVE && b->cur >= 0)
		rc = gc_one(b);
	if (rc)
		goto fail;
	*out = b;
	return 0;
fail:
	blk_free(b);
	return rc;
}

int ss_blk_close(struct ss_blk *b)
{
	int rc;

	ss_err_clear();
	if (!b)
		return 0;
	pthread_mutex_lock(&b->lock);
	rc = checkpoint(b);
	pthread_mutex_unlock(&b->lock);
	blk_free(b);
	return rc;
}

int ss_blk_info(struct ss_blk *b, struct ss_blk_info *out)
{
	ss_err_clear();
	if (!b || !out)
		return ss_err(-EINVAL, 0, "block target: NULL target or output");
	*out = (struct ss_blk_info){
		.blocks = b->nlba, .pus = b->npu, .lines = b->nlines - CKPT_LINES,
		.line_blocks = (uint32_t)b->line_blocks, .unit_blocks = b->unit_blocks,
		.map_bytes = b->nlba * sizeof(*b->map) + (b->nlines * b->line_blocks + 7) / 8,
	};
	return 0;
}

static int check_range(const struct ss_blk *b, uint64_t lba, uint64_t n, const void *buf,
		       const char *what)
{
	if (!b || (!buf && what))
		return ss_err(-EINVAL, 0, "block target %s: NULL target or buffer",
			      what ? what : "trim");
	if (lba > b->nlba || n > b->nlba - lba)
		return ss_err(-ERANGE, SS_R_LBA_RANGE, "block target %s: blocks %llu+%llu past "
			      "the last (%llu blocks)", what ? what : "trim",
			      (unsigned long long)lba, (unsigned long long)n,
			      (unsigned long long)b->nlba);
	return 0;
}

/* A block the map points at on the flash, or its contents here: zeros for one never
 * written or trimmed, the write buffer's for one not on the flash yet (as ss_blk_read).
 * \return 1 when it is on the flash (its PPAs in ppa), 0 when out was filled. */
static int block_source(const struct ss_blk *b, uint64_t lba, uint8_t *out,
			struct ss_dev_ppa *ppa)
{
	uint64_t m = b->map[lba];
	uint32_t l, pu, blk;

	if (m == MAP_NONE) {
		memset(out, 0, SS_BLK_BLOCK);
		return 0;
	}
	if (m & MAP_BUF) {
		memcpy(out, b->buf[m & ~MAP_BUF].data, SS_BLK_BLOCK);
		return 0;
	}
	gba_split(b, m, &l, &pu, &blk);
	for (uint32_t s = 0; s < SPB; s++)
		ppa[s] = ppa_of(b, l, pu, blk * SPB + s);
	return 1;
}

/* The OOB of a block read for lba names it. */
static int check_oob(const uint8_t *meta, uint64_t lba)
{
	uint64_t got = ss_get_le64(meta);

	if (got != lba)
		return ss_err(-EBADMSG, 0, "block target: LBA %llu maps to a block of LBA %llu",
			      (unsigned long long)lba, (unsigned long long)got);
	return 0;
}

/* Reap the queue's oldest read (block `lba`, its metadata in meta). */
static int reap_one(struct ss_blk *b, uint64_t lba, const uint8_t *meta)
{
	int64_t got = ss_dev_queue_reap(b->q, NULL);

	if (got < 0)
		return (int)got;
	if (got != SS_BLK_BLOCK)
		return ss_err(-EPROTO, 0, "block target: a queued read of LBA %llu gave %lld bytes",
			      (unsigned long long)lba, (long long)got);
	return check_oob(meta, lba);
}

int ss_blk_read(struct ss_blk *b, uint64_t lba, uint32_t n, void *buf)
{
	uint8_t *out = buf, meta[SS_VECTOR_MAX * SS_SECTOR_META];
	int rc;

	ss_err_clear();
	rc = check_range(b, lba, n, buf, "read");
	if (rc)
		return rc;
	pthread_mutex_lock(&b->lock);
	for (uint32_t i = 0; i < n && rc == 0;) {
		struct ss_dev_ppa ppa[SS_VECTOR_MAX];
		uint32_t k = 0;

		/* the flash blocks in a row, up to one vector command */
		while (i + k < n && k < BUF_MAX) {
			uint64_t m = b->map[lba + i + k];
			uint32_t l, pu, blk;

			if (m == MAP_NONE || (m & MAP_BUF))
				break;
			gba_split(b, m, &l, &pu, &blk);
			for (uint32_t s = 0; s < SPB; s++)
				ppa[k * SPB + s] = ppa_of(b, l, pu, blk * SPB + s);
			b->pu_reads[pu]++;
			k++;
		}
		if (k) {
			rc = ss_dev_vector_read_meta(b->d, ppa, k * SPB, out + (size_t)i * SS_BLK_BLOCK,
						     meta);
			for (uint32_t j = 0; rc == 0 && j < k; j++)
				rc = check_oob(meta + j * SPB * SS_SECTOR_META, lba + i + j);
			i += k;
			continue;
		}
		if (b->map[lba + i] == MAP_NONE)
			memset(out + (size_t)i * SS_BLK_BLOCK, 0, SS_BLK_BLOCK);
		else
			memcpy(out + (size_t)i * SS_BLK_BLOCK,
			       b->buf[b->map[lba + i] & ~MAP_BUF].data, SS_BLK_BLOCK);
		i++;
	}
	if (rc == 0)
		b->st.user_blocks_read += n;
	pthread_mutex_unlock(&b->lock);
	return rc;
}

int ss_blk_read_many(struct ss_blk *b, const uint64_t *lbas, uint32_t n, void *buf,
		     uint32_t depth)
{
	uint8_t *out = buf, meta[SS_DEV_QUEUE_DEPTH_MAX][SPB * SS_SECTOR_META];
	uint32_t owner[SS_DEV_QUEUE_DEPTH_MAX], head = 0, i = 0, pending = 0;
	char why[SS_DEV_MSG_MAX];
	int rc = 0, reason = 0;

	ss_err_clear();
	if (!b || (n && (!lbas || !buf)))
		return ss_err(-EINVAL, 0, "block target read: NULL target, LBAs or buffer");
	if (depth < 1 || depth > SS_DEV_QUEUE_DEPTH_MAX)
		return ss_err(-EINVAL, 0, "block target read: depth %u is outside 1..%u", depth,
			      SS_DEV_QUEUE_DEPTH_MAX);
	for (uint32_t k = 0; k < n; k++)
		if (lbas[k] >= b->nlba)
			return ss_err(-ERANGE, SS_R_LBA_RANGE, "block target read: LBA %llu "
				      "(entry %u) past the last (%llu blocks)",
				      (unsigned long long)lbas[k], k, (unsigned long long)b->nlba);
	pthread_mutex_lock(&b->lock);
	if (!b->q && (rc = ss_dev_queue_open(b->d, SS_DEV_QUEUE_DEPTH_MAX, &b->q))) {
		pthread_mutex_unlock(&b->lock);
		return rc;
	}
	/* in order, up to `depth` in the drive; after a failure, only what is out is reaped */
	while (rc == 0 ? i < n || pending : pending) {
		struct ss_dev_ppa ppa[SPB];
		uint32_t slot = (head + pending) % depth;
		int r;

		if (rc == 0 && i < n && pending < depth) {
			uint8_t *dst = out + (size_t)i * SS_BLK_BLOCK;

			if (!block_source(b, lbas[i], dst, ppa)) {
				i++;
				continue;
			}
			r = ss_dev_queue_vector_read(b->q, ppa, SPB, dst, meta[slot]);
			if (r == -EAGAIN && ss_dev_last_reason() == SS_R_BUSY && pending)
				goto reap;  /* room comes back with our oldest reply */
			b->pu_reads[pu_of_ppa(b, &ppa[0])]++;
			if (r == 0) {
				owner[slot] = i++;
				pending++;
				continue;
			}
			if (r == -EAGAIN && ss_dev_last_reason() == SS_R_BUSY) {
				/* the session's slots are other threads': the plain read waits */
				r = ss_dev_vector_read_meta(b->d, ppa, SPB, dst, meta[slot]);
				if (r == 0)
					r = check_oob(meta[slot], lbas[i]);
			}
			if (r) {
				rc = r;
				reason = ss_dev_last_reason();
				ss_dev_last_message_copy(why, sizeof(why));
			}
			i++;
			continue;
		}
reap:
		r = reap_one(b, lbas[owner[head]], meta[head]);
		head = (head + 1) % depth;
		pending--;
		if (r && rc == 0) {
			rc = r;
			reason = ss_dev_last_reason();
			ss_dev_last_message_copy(why, sizeof(why));
		}
	}
	if (rc == 0)
		b->st.user_blocks_read += n;
	pthread_mutex_unlock(&b->lock);
	return rc ? ss_err(rc, reason, "%s", why) : 0;
}

static int gc_pace(struct ss_blk *b);

static int write_locked(struct ss_blk *b, uint64_t lba, uint32_t n, const uint8_t *in)
{
	int rc = 0;

	for (uint32_t i = 0; i < n && rc == 0; i++) {
		rc = put_block(b, lba + i, in + (size_t)i * SS_BLK_BLOCK);
		b->st.user_blocks_written += rc == 0;
		if (rc == 0)
			rc = gc_pace(b);
	}
	return rc;
}

/* Free blocks: the open line's room and the free lines', less what the write buffer
 * holds. */
static int64_t free_room(const struct ss_blk *b)
{
	int64_t room = (int64_t)b->free_lines * (int64_t)b->line_blocks - (int64_t)b->nbuf;

	if (b->cur < 0)
		return room;
	for (uint32_t pu = 0; pu < b->npu; pu++) {
		uint32_t c = chunk_of(b, (uint32_t)b->cur, pu);

		if (!b->offline[c])
			room += (b->g.chunk_sectors - b->wp[c]) / SPB / b->unit_blocks *
				b->unit_blocks;
	}
	return room;
}

/* The rate limiter (pblk-rl's role): user writes and GC's moves share the free blocks A.
 * A victim is taken once less than a line and GC_SLACK are free -- the reserve line and
 * the open line's last blocks, as late and so as empty a victim as before -- with v valid
 * blocks: GC then moves p = v blocks to every q = A - GC_SLACK - v others write, keeping
 * the r blocks it has left to move at (1 + p/q) r <= (p/q) (A - GC_SLACK), so that its
 * moves are done, and the victim erased, before the free blocks fall below GC_SLACK; the
 * user may so take the reserve line meanwhile. Called after each block the user puts (a
 * trim's record too; a flush's padding, less than a unit, is caught up at the next), a
 * write moves at most ceil(p/q) blocks per block it writes; q is at least
 * line_blocks - unit_blocks - v (the previous victim left A >= GC_SLACK, its erase a line
 * more, less a padded unit), so per block ceil(v / (line_blocks - unit_blocks - v)): no
 * write runs a whole line's GC. */
static int gc_pace(struct ss_blk *b)
{
	int64_t a = free_room(b), r, need;

	if (b->gc_line < 0) {
		int64_t v;
		int rc;

		if (a >= (int64_t)b->line_blocks + GC_SLACK || gc_victim(b) < 0)
			return 0;
		rc = gc_start(b);
		if (rc)
			return rc;
		v = b->lines[b->gc_line].valid;
		b->gc_p = (uint64_t)v;
		/* no room to pace it (a target opened full): the victim goes at once */
		b->gc_q = a - GC_SLACK - v > 0 ? (uint64_t)(a - GC_SLACK - v) : 0;
	}
	r = b->lines[b->gc_line].valid;
	if (b->gc_q == 0)
		return gc_one(b);
	/* moves m so that (p + q)(r - m) <= p (A - m - GC_SLACK): each move takes a block */
	need = (int64_t)(b->gc_p + b->gc_q) * r - (int64_t)b->gc_p * (a - GC_SLACK);
	if (need <= 0 && r > 0)
		return 0;
	return gc_step(b, need <= 0 ? 1 : (uint64_t)((need + (int64_t)b->gc_q - 1) /
						       (int64_t)b->gc_q));
}

/* Checkpoint every ckpt_lines lines, so that a recovery scans at most that many. */
static int maybe_checkpoint(struct ss_blk *b)
{
	return b->lines_since_ckpt >= b->ckpt_lines ? checkpoint(b) : 0;
}

int ss_blk_write(struct ss_blk *b, uint64_t lba, uint32_t n, const void *buf, uint32_t flags)
{
	int rc;

	ss_err_clear();
	rc = check_range(b, lba, n, buf, "write");
	if (rc)
		return rc;
	if (flags & ~SS_BLK_FUA)
		return ss_err(-EINVAL, 0, "block target write: flags 0x%x (only SS_BLK_FUA)", flags);
	pthread_mutex_lock(&b->lock);
	rc = write_locked(b, lba, n, buf);
	if (rc == 0 && (flags & SS_BLK_FUA))
		rc = drain(b, true);
	if (rc == 0)
		rc = maybe_checkpoint(b);
	pthread_mutex_unlock(&b->lock);
	return rc;
}

int ss_blk_trim(struct ss_blk *b, uint64_t lba, uint64_t n)
{
	struct slot *s;
	int rc;

	ss_err_clear();
	rc = check_range(b, lba, n, NULL, NULL);
	if (rc || n == 0)
		return rc;
	pthread_mutex_lock(&b->lock);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t m = b->map[lba + i];

		if (m != MAP_NONE && (m & MAP_BUF))
			b->buf[m & ~MAP_BUF].lba = MARK_PAD; /* goes out as padding */
		unmap(b, lba + i);
		b->map[lba + i] = MAP_NONE;
	}
	/* a record, so that a recovery does not bring the blocks back */
	rc = buf_take(b, &s);
	if (rc == 0) {
		s->lba = MARK_TRIM;
		memset(s->data, 0, SS_BLK_BLOCK);
		ss_put_le32(s->data, TRIM_MAGIC);
		ss_put_le64(s->data + 8, lba);
		ss_put_le64(s->data + 16, n);
		b->st.blocks_trimmed += n;
		rc = gc_pace(b);
		if (rc == 0)
			rc = maybe_checkpoint(b);
	}
	pthread_mutex_unlock(&b->lock);
	return rc;
}

int ss_blk_flush(struct ss_blk *b)
{
	int rc;

	ss_err_clear();
	if (!b)
		return ss_err(-EINVAL, 0, "block target flush: NULL target");
	pthread_mutex_lock(&b->lock);
	rc = drain(b, true);
	pthread_mutex_unlock(&b->lock);
	return rc;
}

int ss_blk_stats(struct ss_blk *b, struct ss_blk_stats *out)
{
	ss_err_clear();
	if (!b || !out)
		return ss_err(-EINVAL, 0, "block target stats: NULL target or output");
	pthread_mutex_lock(&b->lock);
	*out = b->st;
	out->buffered_blocks = b->nbuf;
	out->free_lines = b->free_lines;
	out->valid_blocks = 0;
	for (uint32_t l = CKPT_LINES; l < b->nlines; l++)
		out->valid_blocks += b->lines[l].valid;
	pthread_mutex_unlock(&b->lock);
	return 0;
}
