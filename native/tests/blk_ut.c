/*
 * The host block target (smartssd/blk.h) over an open-channel drive, in-process (emu:) or
 * over smartssd-devd (unix:): reads of what was written and zeros elsewhere; writes striped
 * over every PU; the OOB metadata of each block; reads of many blocks at a queue depth
 * (ss_blk_read_many) against ss_blk_read; trim; GC under rewrites checked against a
 * model of every LBA; and recovery after the host process dies (a child that writes and
 * _exits without closing: the map rebuilt from the checkpoint and the OOB) -- the last
 * version of an LBA written twice in one line wins whatever the order the chunks are
 * scanned in; a trim stays a trim. The refusals: a zoned drive, an FTL drive, chunks
 * written by something else, ranges past the end, and a write the drive refuses, whose
 * error keeps the drive's reason and message.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "blk_test.h"
#include "ss_proto.h"
#include "ss_wire.h"

static int unix_mode;

static struct ss_dev *drive(struct devtest *t, uint32_t blocks_per_die)
{
	struct ss_dev *d = NULL;

	if (blktest_format(t, blocks_per_die))
		return NULL;
	if (unix_mode)
		CHECK_EQ(devtest_start_daemon(t), 0);
	CHECK_EQ(ss_dev_open(t->uri, NULL, &d), 0);
	return d;
}

static void test_read_write(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	struct ss_blk_info info;
	struct ss_blk_stats st;
	static uint8_t w[16 * SS_BLK_BLOCK], r[16 * SS_BLK_BLOCK];

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	/* 7 chunks a PU (a row holds the label): 5 data lines, 3 of them for LBAs, at 90% */
	CHECK_EQ(info.pus, 8);
	CHECK_EQ(info.line_blocks, 8 * 64);
	CHECK_EQ(info.unit_blocks, 2);
	CHECK_EQ(info.lines, 5);
	CHECK_EQ(info.blocks, 3 * 512 * 900 / 1000);
	for (uint32_t i = 0; i < 16; i++)
		blktest_fill(w + i * SS_BLK_BLOCK, 100 + i, 1);
	/* a block short of a unit stays in the host's buffer until a flush */
	CHECK_EQ(ss_blk_write(b, 99, 1, w, 0), 0);
	CHECK_EQ(ss_blk_stats(b, &st), 0);
	CHECK_EQ(st.buffered_blocks, 1);
	CHECK_EQ(ss_blk_flush(b), 0);
	CHECK_EQ(ss_blk_stats(b, &st), 0);
	CHECK_EQ(st.buffered_blocks, 0);
	CHECK_EQ(ss_blk_write(b, 100, 16, w, 0), 0);
	/* from the write buffer, then from the flash */
	CHECK_EQ(ss_blk_read(b, 100, 16, r), 0);
	CHECK_MEM(r, w, sizeof(w));
	CHECK_EQ(ss_blk_flush(b), 0);
	memset(r, 0xAA, sizeof(r));
	CHECK_EQ(ss_blk_read(b, 100, 16, r), 0);
	CHECK_MEM(r, w, sizeof(w));
	/* never written: zeros */
	CHECK_EQ(ss_blk_read(b, 0, 1, r), 0);
	CHECK_EQ(blktest_version(r, 0), 0);
	/* past the end */
	CHECK_EQ(ss_blk_read(b, info.blocks, 1, r), -ERANGE);
	CHECK_EQ(ss_blk_write(b, info.blocks - 1, 2, w, 0), -ERANGE);
	CHECK_EQ(ss_blk_trim(b, info.blocks, 1), -ERANGE);
	CHECK_EQ(ss_blk_write(b, 0, 1, w, 0x8), -EINVAL);
	/* a trimmed block reads as zeros, its neighbours not */
	CHECK_EQ(ss_blk_trim(b, 104, 2), 0);
	CHECK_EQ(ss_blk_read(b, 103, 4, r), 0);
	CHECK_EQ(blktest_version(r, 103), 1);
	CHECK_EQ(blktest_version(r + SS_BLK_BLOCK, 104), 0);
	CHECK_EQ(blktest_version(r + 2 * SS_BLK_BLOCK, 105), 0);
	CHECK_EQ(blktest_version(r + 3 * SS_BLK_BLOCK, 106), 1);
	/* closed and opened again: the same */
	CHECK_EQ(ss_blk_close(b), 0);
	b = NULL;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_read(b, 100, 16, r), 0);
	for (uint32_t i = 0; i < 16; i++)
		CHECK_EQ(blktest_version(r + i * SS_BLK_BLOCK, 100 + i),
			 i == 4 || i == 5 ? 0 : 1);
	/* options other than the checkpoint's */
	{
		struct ss_blk_opts o = { .op_permille = 200 };
		struct ss_blk *b2 = NULL;

		CHECK_EQ(ss_blk_close(b), 0);
		b = NULL;
		CHECK_EQ(ss_blk_open(d, &o, &b2), -EINVAL);
		CHECK(strstr(ss_dev_last_message(), "over-provisioning") != NULL);
		CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	}
out:
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

static uint64_t rnd_lba(uint64_t *s, uint64_t n)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (*s >> 33) % n;
}

static uint64_t host_ns(struct ss_dev *d)
{
	struct ss_dev_model m;

	CHECK_EQ(ss_dev_model_counters(d, &m), 0);
	return m.host_now_ns;
}

/* ss_blk_read_many gives what ss_blk_read gives, block by block, at every depth: blocks on
 * the flash, in the write buffer, trimmed, never written, repeated, in any order; it
 * refuses an LBA past the end before reading anything; and blocks striped over the PUs
 * read 8 at once take less modelled time than one at a time. */
static void test_read_many(void)
{
	static const uint32_t depths[] = { 1, 4, 32 };
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	struct ss_blk_info info;
	static uint8_t w[SS_BLK_BLOCK], want[64 * SS_BLK_BLOCK], got[64 * SS_BLK_BLOCK];
	uint64_t lbas[64], seed = 7, t1, t8;

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	for (uint64_t lba = 0; lba < 200; lba++) {
		blktest_fill(w, lba, 1);
		CHECK_EQ(ss_blk_write(b, lba, 1, w, 0), 0);
	}
	CHECK_EQ(ss_blk_flush(b), 0);
	CHECK_EQ(ss_blk_trim(b, 10, 2), 0);
	for (uint64_t lba = 50; lba < 53; lba++) {
		blktest_fill(w, lba, 2);
		CHECK_EQ(ss_blk_write(b, lba, 1, w, 0), 0);   /* in the write buffer */
	}
	for (uint32_t i = 0; i < 64; i++)
		lbas[i] = rnd_lba(&seed, 220);
	lbas[0] = 10;    /* trimmed */
	lbas[1] = 51;    /* buffered */
	lbas[2] = 210;   /* never written */
	lbas[3] = 51;    /* again */
	lbas[4] = 100;
	for (uint32_t i = 0; i < 64; i++)
		CHECK_EQ(ss_blk_read(b, lbas[i], 1, want + (size_t)i * SS_BLK_BLOCK), 0);
	CHECK_EQ(blktest_version(want, 10), 0);
	CHECK_EQ(blktest_version(want + SS_BLK_BLOCK, 51), 2);
	CHECK_EQ(blktest_version(want + 2 * SS_BLK_BLOCK, 210), 0);
	CHECK_EQ(blktest_version(want + 4 * SS_BLK_BLOCK, 100), 1);
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		memset(got, 0xAA, sizeof(got));
		CHECK_EQ(ss_blk_read_many(b, lbas, 64, got, depths[k]), 0);
		CHECK_MEM(got, want, sizeof(want));
	}
	/* refusals: nothing read */
	memset(got, 0xAA, sizeof(got));
	lbas[5] = info.blocks;
	CHECK_EQ(ss_blk_read_many(b, lbas, 64, got, 4), -ERANGE);
	CHECK_EQ(ss_dev_last_reason(), SS_R_LBA_RANGE);
	CHECK_EQ(got[0], 0xAA);
	CHECK_EQ(ss_blk_read_many(b, lbas, 4, got, 0), -EINVAL);
	CHECK_EQ(ss_blk_read_many(b, lbas, 4, got, SS_DEV_QUEUE_DEPTH_MAX + 1), -EINVAL);
	CHECK_EQ(ss_blk_read_many(b, lbas, 0, NULL, 1), 0);
	/* 64 blocks in a row were written over the 8 PUs a unit at a time */
	for (uint32_t i = 0; i < 64; i++)
		lbas[i] = 120 + i;
	t1 = host_ns(d);
	CHECK_EQ(ss_blk_read_many(b, lbas, 64, got, 1), 0);
	t1 = host_ns(d) - t1;
	t8 = host_ns(d);
	CHECK_EQ(ss_blk_read_many(b, lbas, 64, want, 8), 0);
	t8 = host_ns(d) - t8;
	CHECK_MEM(got, want, sizeof(want));
	CHECK(t8 > 0 && t8 < t1);
	CHECK_EQ(ss_blk_close(b), 0);
out:
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

/* One unit (2 blocks) per PU in turn, channel first as pblk stripes: the 16 blocks
 * written reach all 8 PUs of the line, units 0-3 the first die of channels 0-3 and units
 * 4-7 the second, and each block's OOB names its LBA; the map's checkpoint is striped
 * alike. */
static void test_striping_and_oob(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	static uint8_t w[16 * SS_BLK_BLOCK], data[16 * 512];
	struct ss_dev_chunk ch[7 * 8];
	uint8_t meta[16 * SS_SECTOR_META];

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	for (uint32_t i = 0; i < 16; i++)
		blktest_fill(w + i * SS_BLK_BLOCK, 500 + i, 7);
	CHECK_EQ(ss_blk_write(b, 500, 16, w, SS_BLK_FUA), 0);
	CHECK_EQ(ss_dev_chunk_report(d, 0, ch, 7 * 8), 7 * 8);
	for (uint32_t unit = 0; unit < 8; unit++) {
		uint32_t group = unit % 4, die = unit / 4;
		/* chunk 2 (the first data line) of each PU (reported by group, die, chunk): one
		 * unit, 16 sectors */
		struct ss_dev_chunk *c = &ch[(group * 2 + die) * 7 + 2];
		struct ss_dev_ppa ppa[16];

		CHECK_EQ(c->wp - c->slba, 16);
		for (uint32_t s = 0; s < 16; s++)
			ppa[s] = (struct ss_dev_ppa){ group, die, 2, s };
		CHECK_EQ(ss_dev_vector_read_meta(d, ppa, 16, data, meta), 0);
		/* the unit's blocks: LBAs 500 + 2 unit and the next, in sector 0's metadata */
		for (uint32_t k = 0; k < 2; k++) {
			uint64_t lba;

			memcpy(&lba, meta + k * 8 * SS_SECTOR_META, 8);
			CHECK_EQ(lba, 500 + 2 * unit + k);
			CHECK_EQ(blktest_version(data + k * SS_BLK_BLOCK, lba), 7);
		}
	}
	/* the close's checkpoint (header, 3 map blocks, commit, padding: 3 units) in line 1,
	 * striped as the data: a unit on each of the first 3 PUs, not all on one die */
	CHECK_EQ(ss_blk_close(b), 0);
	b = NULL;
	CHECK_EQ(ss_dev_chunk_report(d, 0, ch, 7 * 8), 7 * 8);
	for (uint32_t unit = 0; unit < 8; unit++) {
		struct ss_dev_chunk *c = &ch[((unit % 4) * 2 + unit / 4) * 7 + 1];

		CHECK_EQ(c->wp - c->slba, unit < 3 ? 16 : 0);
	}
out:
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_model(struct ss_blk *b, const uint32_t *model, uint64_t n, const char *when)
{
	static uint8_t r[SS_BLK_BLOCK];
	uint32_t bad = 0;

	for (uint64_t lba = 0; lba < n; lba++) {
		CHECK_EQ(ss_blk_read(b, lba, 1, r), 0);
		if (blktest_version(r, lba) != model[lba] && bad++ < 5)
			fprintf(stderr, "%s: LBA %llu holds v%lld, expected v%u\n", when,
				(unsigned long long)lba, blktest_version(r, lba), model[lba]);
	}
	CHECK_EQ(bad, 0);
}

/* Rewrites of 4x the capacity force GC; every LBA reads its last version throughout, and
 * after a close and an open. */
static void test_gc(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	struct ss_blk_info info;
	struct ss_blk_stats st;
	static uint8_t w[4 * SS_BLK_BLOCK];
	uint32_t *model = NULL, ver = 0;
	uint64_t seed = 0x243F6A8885A308D3ull, written = 0;

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	model = calloc(info.blocks, sizeof(*model));
	while (written < 4 * info.blocks) {
		uint64_t lba = rnd(&seed) % info.blocks;
		uint32_t n = 1 + (uint32_t)(rnd(&seed) % 4);

		if (lba + n > info.blocks)
			n = (uint32_t)(info.blocks - lba);
		if (rnd(&seed) % 16 == 0) {
			CHECK_EQ(ss_blk_trim(b, lba, n), 0);
			for (uint32_t i = 0; i < n; i++)
				model[lba + i] = 0;
			continue;
		}
		ver++;
		for (uint32_t i = 0; i < n; i++) {
			blktest_fill(w + i * SS_BLK_BLOCK, lba + i, ver);
			model[lba + i] = ver;
		}
		if (ss_blk_write(b, lba, n, w, 0) != 0) {
			fprintf(stderr, "write %llu+%u: %s\n", (unsigned long long)lba, n,
				ss_dev_last_message());
			ut_failures++;
			break;
		}
		written += n;
	}
	CHECK_EQ(ss_blk_stats(b, &st), 0);
	CHECK(st.gc_lines_erased > 0);
	CHECK(st.gc_blocks_moved > 0);
	CHECK(st.checkpoints > 0);
	fprintf(stderr, "gc: %llu user blocks, %llu flash blocks, %llu moved, %llu lines "
		"erased, %llu checkpoints, %llu padding\n",
		(unsigned long long)st.user_blocks_written,
		(unsigned long long)st.flash_blocks_written,
		(unsigned long long)st.gc_blocks_moved, (unsigned long long)st.gc_lines_erased,
		(unsigned long long)st.checkpoints, (unsigned long long)st.pad_blocks);
	check_model(b, model, info.blocks, "after GC");
	CHECK_EQ(ss_blk_close(b), 0);
	b = NULL;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (b)
		check_model(b, model, info.blocks, "reopened after GC");
out:
	free(model);
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

/* The rate limiter: over a full target (15 chunks a PU: 13 data lines of 512 blocks,
 * 5068 LBAs), random one-block writes of three times its capacity never make one write
 * do a whole line's GC. The bound, derived from the limiter's rule (blk.c, gc_pace): a
 * victim is taken when less than a line and GC_SLACK are free, so with 1 line free and 1
 * open, 11 full: it holds v <= 5068 / 11 = 460 valid blocks; the previous victim's erase
 * left a line less a padded unit (2 blocks), so GC moves at most
 * ceil(v / (512 - 2 - v)) = 10 blocks per block written, a trim's record counted as one.
 * A line's GC in one write is v, hundreds here. Every LBA reads its last version at the
 * end. */
static void test_gc_rate(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 16);
	struct ss_blk *b = NULL;
	struct ss_blk_info info;
	struct ss_blk_stats st;
	static uint8_t w[SS_BLK_BLOCK];
	uint32_t *model = NULL;
	uint64_t seed = 0x9E3779B97F4A7C15ull, moved = 0, worst = 0, vmax, bound;

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	CHECK_EQ(info.lines, 13);
	vmax = info.blocks / (info.lines - 2);
	bound = (vmax + info.line_blocks - info.unit_blocks - vmax - 1) /
		(info.line_blocks - info.unit_blocks - vmax);
	CHECK_EQ(bound, 10);
	model = calloc(info.blocks, sizeof(*model));
	for (uint64_t lba = 0; lba < info.blocks; lba++) {
		blktest_fill(w, lba, 1);
		CHECK_EQ(ss_blk_write(b, lba, 1, w, 0), 0);
		model[lba] = 1;
	}
	CHECK_EQ(ss_blk_stats(b, &st), 0);
	moved = st.gc_blocks_moved;
	for (uint32_t ver = 2; ver < 2 + 3 * info.blocks; ver++) {
		uint64_t lba = rnd(&seed) % info.blocks;

		/* now and then a run of one-block trims: each record takes a block as a write's */
		for (uint32_t k = 0; ver % 1024 == 0 && k < 600; k++) {
			uint64_t tl = rnd(&seed) % info.blocks;

			CHECK_EQ(ss_blk_trim(b, tl, 1), 0);
			model[tl] = 0;
			CHECK_EQ(ss_blk_stats(b, &st), 0);
			if (st.gc_blocks_moved - moved > worst)
				worst = st.gc_blocks_moved - moved;
			moved = st.gc_blocks_moved;
		}
		blktest_fill(w, lba, ver);
		model[lba] = ver;
		if (ss_blk_write(b, lba, 1, w, 0) != 0) {
			fprintf(stderr, "write %llu: %s\n", (unsigned long long)lba,
				ss_dev_last_message());
			ut_failures++;
			break;
		}
		CHECK_EQ(ss_blk_stats(b, &st), 0);
		if (st.gc_blocks_moved - moved > worst)
			worst = st.gc_blocks_moved - moved;
		moved = st.gc_blocks_moved;
	}
	fprintf(stderr, "gc rate: %llu lines erased, %llu moved, at most %llu in one call "
		"(bound %llu)\n", (unsigned long long)st.gc_lines_erased,
		(unsigned long long)st.gc_blocks_moved, (unsigned long long)worst,
		(unsigned long long)bound);
	CHECK(st.gc_lines_erased >= 10);
	CHECK(worst <= bound);
	check_model(b, model, info.blocks, "after rate-limited GC");
out:
	free(model);
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

/* GC keeps off the PUs the user reads. Every LBA written in order (LBAs 512-1023 fill line
 * 3, two a PU in turn), then LBAs 0-400 rewritten until line 2 (111 blocks valid, on every
 * PU) is collected in steps beside the writes; while the first steps run, the user reads
 * LBAs of line 3 on PUs 0 and 1 after every write: GC moves line 2's blocks from the other
 * PUs first, and by the time it comes to PUs 0 and 1 their reads have stopped and decayed.
 * Moving PU by PU in order instead reads PU 0 beside the user's reads. */
static void test_gc_avoids_read_pus(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	struct ss_blk_info info;
	struct ss_blk_stats st = { 0 };
	static uint8_t w[SS_BLK_BLOCK], r[SS_BLK_BLOCK];
	uint32_t steps = 0;

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	for (uint64_t lba = 0; lba < info.blocks; lba++) {
		blktest_fill(w, lba, 1);
		CHECK_EQ(ss_blk_write(b, lba, 1, w, 0), 0);
	}
	for (uint32_t v = 2; st.gc_lines_erased == 0 && v < 100000; v++) {
		blktest_fill(w, v % 401, v);
		CHECK_EQ(ss_blk_write(b, v % 401, 1, w, 0), 0);
		CHECK_EQ(ss_blk_stats(b, &st), 0);
		steps += st.gc_blocks_moved > 0;
		if (steps < 4) {
			/* LBAs 512 + 16 k (+1) are on PU 0, 514 + 16 k (+1) on PU 1 */
			uint64_t k = v % 32;

			CHECK_EQ(ss_blk_read(b, 512 + 16 * k, 1, r), 0);
			CHECK_EQ(blktest_version(r, 512 + 16 * k), 1);
			CHECK_EQ(ss_blk_read(b, 514 + 16 * k, 1, r), 0);
			CHECK_EQ(blktest_version(r, 514 + 16 * k), 1);
		}
	}
	CHECK_EQ(st.gc_lines_erased, 1);
	CHECK(st.gc_blocks_moved >= 111);
	CHECK(steps > 4);
	CHECK_EQ(st.gc_moves_beside_reads, 0);
out:
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

/* A child opens the target, runs `steps`, and _exits without closing: the host crashed. */
static void crash_child_opts(struct devtest *t, const struct ss_blk_opts *o,
			     void (*steps)(struct ss_blk *))
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct ss_dev *d = NULL;
		struct ss_blk *b = NULL;

		if (ss_dev_open(t->uri, NULL, &d) || ss_blk_open(d, o, &b)) {
			fprintf(stderr, "child: %s\n", ss_dev_last_message());
			_exit(2);
		}
		steps(b);
		_exit(ut_failures ? 1 : 0);
	}
	CHECK(pid > 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void crash_child(struct devtest *t, void (*steps)(struct ss_blk *))
{
	crash_child_opts(t, NULL, steps);
}

/* LBA 7 written 12 times, each durable at once: unit after unit over the PUs, so its last
 * version sits on a PU scanned before the one holding an older version. */
static void steps_rewrite(struct ss_blk *b)
{
	static uint8_t w[SS_BLK_BLOCK];

	for (uint32_t v = 1; v <= 12; v++) {
		blktest_fill(w, 7, v);
		CHECK_EQ(ss_blk_write(b, 7, 1, w, SS_BLK_FUA), 0);
	}
}

/* LBAs 20-29 written and flushed, then 22-24 trimmed and flushed. */
static void steps_trim(struct ss_blk *b)
{
	static uint8_t w[10 * SS_BLK_BLOCK];

	for (uint32_t i = 0; i < 10; i++)
		blktest_fill(w + i * SS_BLK_BLOCK, 20 + i, 3);
	CHECK_EQ(ss_blk_write(b, 20, 10, w, 0), 0);
	CHECK_EQ(ss_blk_flush(b), 0);
	CHECK_EQ(ss_blk_trim(b, 22, 3), 0);
	CHECK_EQ(ss_blk_flush(b), 0);
}

static void test_recovery(void)
{
	struct devtest t;
	struct ss_dev *d;
	struct ss_blk *b = NULL;
	struct ss_blk_stats st;
	static uint8_t r[10 * SS_BLK_BLOCK];

	/* the child needs its own connection to the drive: the daemon's */
	if (!unix_mode)
		return;
	if (blktest_format(&t, 8) || devtest_start_daemon(&t)) {
		ut_failures++;
		return;
	}
	crash_child(&t, steps_rewrite);
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_stats(b, &st), 0);
	/* no checkpoint was written: the 12 versions came from the OOB (and the padding) */
	CHECK_EQ(st.recovered_records, 12);
	CHECK_EQ(ss_blk_read(b, 7, 1, r), 0);
	CHECK_EQ(blktest_version(r, 7), 12);
	/* this open's close checkpoints; the next crash recovers from it plus the OOB */
	CHECK_EQ(ss_blk_close(b), 0);
	b = NULL;
	crash_child(&t, steps_trim);
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_blk_read(b, 20, 10, r), 0);
	for (uint32_t i = 0; i < 10; i++)
		CHECK_EQ(blktest_version(r + i * SS_BLK_BLOCK, 20 + i), i >= 2 && i <= 4 ? 0 : 3);
	CHECK_EQ(ss_blk_read(b, 7, 1, r), 0);
	CHECK_EQ(blktest_version(r, 7), 12);
out:
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

/* A crash after GC. Phase 1 writes every LBA (v1), each line's 512 in order, and closes:
 * a checkpoint. The child rewrites the hot LBAs [hot_first, +hot_blocks), none made
 * durable, and dies. */
struct gc_case {
	uint32_t hot_first, hot_blocks, trimmed;
	void (*steps)(struct ss_blk *);
};

static const struct ss_blk_opts no_periodic = { .ckpt_lines = 1000000 };

/* Hot LBAs 0-400: line 2 keeps 111 valid blocks, the fewest, older than the checkpoint.
 * GC moves them through the write buffer (after 8 user blocks: 7 left, 6 written in whole
 * units) and erases line 2; the child dies at once. The last moved block is lost unless GC
 * flushed its moves before the erase. */
static void steps_gc_then_die(struct ss_blk *b)
{
	static uint8_t w[SS_BLK_BLOCK];
	struct ss_blk_stats st = { 0 };

	for (uint32_t v = 2; st.gc_lines_erased == 0 && v < 100000; v++) {
		blktest_fill(w, v % 401, v);
		CHECK_EQ(ss_blk_write(b, v % 401, 1, w, 0), 0);
		CHECK_EQ(ss_blk_stats(b, &st), 0);
	}
	CHECK_EQ(st.gc_lines_erased, 1);
}

/* Hot LBAs 100-299, rewritten into a fresh line, a trim of 0-49 made durable there, then
 * more rewrites until 8 lines were collected (the trim record's among them), with no
 * periodic checkpoint: the trim comes back unless GC checkpoints before erasing a line
 * newer than the last checkpoint. */
static void steps_trim_gc_then_die(struct ss_blk *b)
{
	static uint8_t w[SS_BLK_BLOCK];
	struct ss_blk_stats st = { 0 };
	uint32_t v = 2;

	for (; v < 2 + 8 * 64 * 2; v++) {
		blktest_fill(w, 100 + v % 200, v);
		CHECK_EQ(ss_blk_write(b, 100 + v % 200, 1, w, 0), 0);
	}
	CHECK_EQ(ss_blk_trim(b, 0, 50), 0);
	CHECK_EQ(ss_blk_flush(b), 0);
	for (; st.gc_lines_erased < 8 && v < 100000; v++) {
		blktest_fill(w, 100 + v % 200, v);
		CHECK_EQ(ss_blk_write(b, 100 + v % 200, 1, w, 0), 0);
		CHECK_EQ(ss_blk_stats(b, &st), 0);
	}
	CHECK(st.gc_lines_erased >= 8);
}

/* After the child: every LBA reads v1, or (hot) a version the child wrote, or (trimmed
 * and flushed by the child) zeros. */
static void test_gc_crash(void)
{
	static const struct gc_case cases[] = {
		{ 0, 401, 0, steps_gc_then_die },
		{ 100, 200, 50, steps_trim_gc_then_die },
	};
	static uint8_t w[SS_BLK_BLOCK], r[SS_BLK_BLOCK];

	if (!unix_mode)
		return;
	for (uint32_t k = 0; k < 2; k++) {
		const struct gc_case *c = &cases[k];
		struct devtest t;
		struct ss_dev *d = NULL;
		struct ss_blk *b = NULL;
		struct ss_blk_info info;
		uint32_t bad = 0;

		if (blktest_format(&t, 8) || devtest_start_daemon(&t)) {
			ut_failures++;
			return;
		}
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
		if (!b)
			goto next;
		CHECK_EQ(ss_blk_info(b, &info), 0);
		for (uint64_t lba = 0; lba < info.blocks; lba++) {
			blktest_fill(w, lba, 1);
			CHECK_EQ(ss_blk_write(b, lba, 1, w, 0), 0);
		}
		CHECK_EQ(ss_blk_close(b), 0);
		b = NULL;
		crash_child_opts(&t, &no_periodic, c->steps);
		CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
		if (!b) {
			fprintf(stderr, "gc crash %u: %s\n", k, ss_dev_last_message());
			goto next;
		}
		for (uint64_t lba = 0; lba < info.blocks; lba++) {
			long long v;
			bool ok;

			CHECK_EQ(ss_blk_read(b, lba, 1, r), 0);
			v = blktest_version(r, lba);
			if (lba < c->trimmed)
				ok = v == 0;
			else if (lba >= c->hot_first && lba < c->hot_first + c->hot_blocks)
				ok = v >= 1;
			else
				ok = v == 1;
			if (!ok && bad++ < 5)
				fprintf(stderr, "gc crash %u: LBA %llu holds v%lld\n", k,
					(unsigned long long)lba, v);
		}
		CHECK_EQ(bad, 0);
next:
		if (b)
			CHECK_EQ(ss_blk_close(b), 0);
		if (d)
			CHECK_EQ(ss_dev_close(d), 0);
		devtest_cleanup(&t);
	}
}

/* A write the drive refuses says so: here every chunk the target could write next is
 * written behind its back, so its next vector write is not at the write pointer. The
 * error names the write and keeps the drive's reason and message (the write pointers'
 * reload after it once cleared them: "reopen: " with nothing after, in a crash round). */
static void test_refused_write_names_itself(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	struct ss_dev_geometry g;
	static uint8_t w[SS_BLK_BLOCK], junk[64 * SS_SECTOR];
	struct ss_dev_ppa ppa[64];
	const char *msg;

	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		goto out;
	CHECK_EQ(ss_dev_geometry(d, &g), 0);
	CHECK(g.ws_min > 0 && g.ws_min <= 64);
	for (uint32_t grp = 0; grp < g.groups; grp++) {
		for (uint32_t pu = 0; pu < g.pus; pu++) {
			for (uint32_t c = 0; c < g.chunks; c++) {
				struct ss_dev_chunk ch;
				uint64_t at = ((uint64_t)grp * g.pus + pu) * g.chunks + c;

				CHECK_EQ(ss_dev_chunk_report(d, at, &ch, 1), 1);
				if (ch.state == SS_CHUNK_OFFLINE || ch.wp + g.ws_min > ch.slba + ch.capacity)
					continue;
				for (uint32_t s = 0; s < g.ws_min; s++)
					ppa[s] = (struct ss_dev_ppa){ grp, pu, c,
								      (uint32_t)(ch.wp - ch.slba) + s };
				CHECK_EQ(ss_dev_vector_write(d, ppa, g.ws_min, junk), 0);
			}
		}
	}
	blktest_fill(w, 7, 1);
	CHECK(ss_blk_write(b, 7, 1, w, SS_BLK_FUA) < 0);
	msg = ss_dev_last_message();
	CHECK(strncmp(msg, "block target: writing ", 22) == 0);
	CHECK(strstr(msg, ": ") != NULL && strlen(strstr(msg, ": ")) > 2);
	CHECK(strstr(msg, "NOT_WRITE_POINTER") != NULL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_NOT_WRITE_POINTER);
	if (ut_failures)
		fprintf(stderr, "refused write: %s\n", msg);
out:
	if (b)
		(void)ss_blk_close(b);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

static void test_refusals(void)
{
	struct devtest t;
	struct ss_dev *d = drive(&t, 8);
	struct ss_blk *b = NULL;
	static uint8_t data[16 * 512];
	struct ss_dev_ppa ppa[16];

	if (!d)
		return;
	/* a chunk written without the target's metadata */
	for (uint32_t s = 0; s < 16; s++)
		ppa[s] = (struct ss_dev_ppa){ 1, 0, 4, s };
	CHECK_EQ(ss_dev_vector_write(d, ppa, 16, data), 0);
	CHECK_EQ(ss_blk_open(d, NULL, &b), -EBADMSG);
	CHECK(strstr(ss_dev_last_message(), "without the target's metadata") != NULL);
	CHECK_EQ(ss_blk_format(d), 0);
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);

	/* a checkpoint of format version 1 (PUs numbered die first): its map's addresses
	 * would name other PUs, so the open refuses it, naming the version */
	d = drive(&t, 8);
	if (!d)
		return;
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);   /* checkpoint generation 1, in line 1 */
	b = NULL;
	{
		static uint8_t meta[16 * SS_SECTOR_META];
		struct ss_dev_ppa chunk = { 0, 0, 1, 0 };
		uint64_t mark = UINT64_MAX - 3, gen = 5;

		memset(data, 0, sizeof(data));
		memset(meta, 0xFF, sizeof(meta));
		ss_put_le32(data, 0x4B43424Cu);       /* "LBCK" */
		ss_put_le32(data + 4, 1);
		ss_put_le64(data + 8, gen);
		for (uint32_t k = 0; k < 2; k++) {
			memcpy(meta + k * 8 * SS_SECTOR_META, &mark, 8);
			memcpy(meta + (k * 8 + 1) * SS_SECTOR_META, &gen, 8);
		}
		for (uint32_t s = 0; s < 16; s++)
			ppa[s] = (struct ss_dev_ppa){ 0, 0, 1, s };
		CHECK_EQ(ss_dev_chunk_reset(d, &chunk, 1), 0);
		CHECK_EQ(ss_dev_vector_write_meta(d, ppa, 16, data, meta), 0);
	}
	CHECK_EQ(ss_blk_open(d, NULL, &b), -EPROTO);
	CHECK(b == NULL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_BAD_VERSION);
	CHECK(strstr(ss_dev_last_message(), "format version 1") != NULL);
	CHECK_EQ(ss_blk_format(d), 0);
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (b)
		CHECK_EQ(ss_blk_close(b), 0);
	b = NULL;
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);

	/* not an open-channel drive */
	CHECK_EQ(devtest_format(&t, 0), 0);
	if (unix_mode)
		CHECK_EQ(devtest_start_daemon(&t), 0);
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	b = NULL;
	CHECK_EQ(ss_blk_open(d, NULL, &b), -EOPNOTSUPP);
	CHECK(b == NULL);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
}

int main(int argc, char **argv)
{
	unix_mode = argc > 1 && strcmp(argv[1], "unix") == 0;
	test_read_write();
	test_striping_and_oob();
	test_read_many();
	test_gc();
	test_gc_rate();
	test_gc_avoids_read_pus();
	test_recovery();
	test_gc_crash();
	test_refusals();
	test_refused_write_names_itself();
	return ut_report(unix_mode ? "blk_ut unix" : "blk_ut emu");
}
