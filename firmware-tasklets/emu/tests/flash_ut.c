/* Emulated NAND: flash rules, persistence, wear-out and image validation. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "emu_test.h"
#include "ss_emu_flash.h"
#include "ss_rt.h"

#define CH 4
#define PPB 8
#define BPD 8
#define PAGE 8192
#define SPARE 256

static char dir[256];
static char path[320];

static struct ss_emu_flash_opts small_opts(int create)
{
	struct ss_emu_flash_opts o = { 0 };

	o.geo.channels = CH;
	o.geo.ways = 1;
	o.geo.blocks_per_die = BPD;
	o.geo.pages_per_block = PPB;
	o.geo.page_size = PAGE;
	o.geo.spare_size = SPARE;
	o.dram_bytes = 1 << 20;
	o.create = create;
	return o;
}

static struct ss_emu_flash *open_small(int create)
{
	struct ss_emu_flash_opts o = small_opts(create);
	struct ss_emu_flash *f = NULL;
	char err[512];
	int rc = ss_emu_flash_open(path, &o, &f, err, sizeof(err));

	if (rc != 0) {
		fprintf(stderr, "open %s: %d %s\n", path, rc, err);
		exit(2);
	}
	return f;
}

static void fill(uint8_t *buf, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		buf[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
	}
}

static int all_ff(const uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != 0xff) {
			return 0;
		}
	}
	return 1;
}

static void test_hal_fields(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);

	CHECK_EQ(h->geo.channels, CH);
	CHECK_EQ(h->geo.blocks_per_die, BPD);
	CHECK_EQ(h->geo.page_size, PAGE);
	CHECK_EQ(h->geo.spare_size, SPARE);
	/* zero fields take the default profile's: 7 % over-provisioning, 100000 P/E */
	CHECK_EQ(h->geo.overprovision_permille, 70);
	CHECK_EQ(h->endurance, 100000);
	CHECK_EQ(h->dram_size, 1 << 20);
	CHECK(h->dram != NULL);
	((uint8_t *)h->dram)[h->dram_size - 1] = 1;   /* the whole arena is usable */
	CHECK(strlen(h->model) > 0 && strlen(h->serial) > 0 && strlen(h->firmware_rev) > 0);
	CHECK_STR_HAS(ss_emu_flash_profile(f)->name, "kang-smartssd");
	ss_emu_flash_close(f);
}

static void test_erased_reads_ff(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE], spare[SPARE];
	uint32_t pages = CH * BPD * PPB;

	for (uint32_t ppn = 0; ppn < pages; ppn += 37) {
		memset(data, 0, sizeof(data));
		memset(spare, 0, sizeof(spare));
		CHECK_EQ(ss_hal_page_read(h, ppn, data, spare), 0);
		CHECK(all_ff(data, PAGE));
		CHECK(all_ff(spare, SPARE));
	}
	/* either buffer may be NULL */
	CHECK_EQ(ss_hal_page_read(h, 1, NULL, spare), 0);
	CHECK_EQ(ss_hal_page_read(h, 1, data, NULL), 0);
	ss_emu_flash_close(f);
}

static void test_rule_program_twice(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE], back[PAGE];
	struct ss_emu_counters c;

	fill(data, PAGE, 1);
	CHECK_EQ(ss_hal_page_program(h, 0, data, NULL), 0);
	fill(back, PAGE, 2);
	CHECK_EQ(ss_hal_page_program(h, 0, back, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "page programmed twice without an erase");
	/* nothing was written by the refused program */
	CHECK_EQ(ss_hal_page_read(h, 0, back, NULL), 0);
	CHECK(memcmp(back, data, PAGE) == 0);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.rule_violations, 1);
	CHECK_EQ(c.page_programs, 1);
	ss_emu_flash_close(f);
}

static void test_rule_program_in_order(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE];
	struct ss_emu_block_info bi;
	struct ss_emu_counters c;
	uint32_t blk = 5;

	fill(data, PAGE, 3);
	CHECK_EQ(ss_hal_page_program(h, blk * PPB + 2, data, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f),
		      "pages of a block must be programmed in order (expected page 0, got 2)");
	CHECK_EQ(ss_hal_page_program(h, blk * PPB + 0, data, NULL), 0);
	CHECK_EQ(ss_hal_page_program(h, blk * PPB + 1, data, NULL), 0);
	CHECK_EQ(ss_hal_page_program(h, blk * PPB + 3, data, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "(expected page 2, got 3)");
	CHECK_EQ(ss_emu_flash_block_info(f, blk, &bi), 0);
	CHECK_EQ(bi.write_ptr, 2);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.rule_violations, 2);
	ss_emu_flash_close(f);
}

static void test_rule_addresses(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE];
	const uint32_t pages = CH * BPD * PPB, blocks = CH * BPD;
	struct ss_emu_counters c;
	struct ss_emu_block_info bi;

	CHECK_EQ(ss_hal_page_read(h, pages, data, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "out of range");
	CHECK_EQ(ss_hal_page_program(h, pages, data, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "out of range");
	CHECK_EQ(ss_hal_block_erase(h, blocks), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "erases are per whole block");
	CHECK_EQ(ss_hal_block_erase(h, UINT32_MAX), -SS_EINVAL);
	CHECK_EQ(ss_emu_flash_block_info(f, blocks, &bi), -SS_EINVAL);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.rule_violations, 4);
	CHECK_EQ(c.page_reads + c.page_programs + c.block_erases, 0);
	ss_emu_flash_close(f);
}

static void test_erase_whole_block(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE], back[PAGE], spare[SPARE];
	struct ss_emu_block_info bi;
	uint32_t blk = 3;

	for (uint32_t p = 0; p < PPB; p++) {
		fill(data, PAGE, p);
		CHECK_EQ(ss_hal_page_program(h, blk * PPB + p, data, NULL), 0);
	}
	/* the neighbouring block is untouched by the erase */
	fill(data, PAGE, 99);
	CHECK_EQ(ss_hal_page_program(h, (blk + 1) * PPB, data, NULL), 0);
	CHECK_EQ(ss_hal_block_erase(h, blk), 0);
	for (uint32_t p = 0; p < PPB; p++) {
		CHECK_EQ(ss_hal_page_read(h, blk * PPB + p, back, spare), 0);
		CHECK(all_ff(back, PAGE) && all_ff(spare, SPARE));
	}
	CHECK_EQ(ss_hal_page_read(h, (blk + 1) * PPB, back, NULL), 0);
	CHECK(memcmp(back, data, PAGE) == 0);
	CHECK_EQ(ss_emu_flash_block_info(f, blk, &bi), 0);
	CHECK_EQ(bi.erase_count, 1);
	CHECK_EQ(bi.write_ptr, 0);
	/* after the erase the block programs from page 0 again */
	CHECK_EQ(ss_hal_page_program(h, blk * PPB, data, NULL), 0);
	ss_emu_flash_close(f);
}

/* page_read_start's check: the page holds fill(arg) with spare fill(arg + 100), or is
 * erased when arg is 0xFF. */
static int check_filled(const void *data, uint32_t len, const void *spare, uint32_t arg)
{
	static _Thread_local uint8_t want[PAGE], want_spare[SPARE];

	if (arg == 0xFF) {
		return all_ff(data, len) && all_ff(spare, SPARE) ? 0 : -SS_EIO;
	}
	fill(want, PAGE, arg);
	fill(want_spare, SPARE, arg + 100);
	return len == PAGE && memcmp(data, want, PAGE) == 0 &&
	       memcmp(spare, want_spare, SPARE) == 0 ? 0 : -SS_EIO;
}

/* Reads started now and finished later (on the transfer thread) land, are checked, and
 * are charged as page_read charges; an erase waits for the transfers reading its block. */
static void test_read_start(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE], spare[SPARE], back[PPB][PAGE];
	struct ss_emu_counters c0, c1, c2;
	const uint32_t blk = 5;

	CHECK(ss_hal_can_read_start(h));
	for (uint32_t p = 0; p < PPB; p++) {
		fill(data, PAGE, p);
		fill(spare, SPARE, p + 100);
		CHECK_EQ(ss_hal_page_program(h, blk * PPB + p, data, spare), 0);
	}
	ss_hal_barrier(h);
	ss_emu_flash_get_counters(f, &c0);
	for (uint32_t p = 0; p < PPB; p++) {
		CHECK_EQ(ss_hal_page_read(h, blk * PPB + p, back[p], spare), 0);
	}
	ss_hal_barrier(h);
	ss_emu_flash_get_counters(f, &c1);
	memset(back, 0, sizeof(back));
	for (uint32_t p = 0; p < PPB; p++) {
		CHECK_EQ(ss_hal_page_read_start(h, blk * PPB + p, back[p], check_filled, p), 0);
	}
	ss_hal_barrier(h);
	ss_emu_flash_get_counters(f, &c2);
	CHECK_EQ(ss_hal_read_wait(h), 0);
	for (uint32_t p = 0; p < PPB; p++) {
		fill(data, PAGE, p);
		CHECK(memcmp(back[p], data, PAGE) == 0);
	}
	/* the same charges as page_read, made when the reads start */
	CHECK_EQ(c2.page_reads - c1.page_reads, c1.page_reads - c0.page_reads);
	CHECK_EQ(c2.bytes_read - c1.bytes_read, c1.bytes_read - c0.bytes_read);
	CHECK_EQ(c2.now_ns - c1.now_ns, c1.now_ns - c0.now_ns);

	/* a failed check is reported once; an erased page is all 0xFF; a bad address at once */
	CHECK_EQ(ss_hal_page_read_start(h, blk * PPB + 1, back[1], check_filled, 2), 0);
	CHECK_EQ(ss_hal_page_read_start(h, (blk + 1) * PPB, back[2], check_filled, 0xFF), 0);
	CHECK_EQ(ss_hal_read_wait(h), -SS_EIO);
	CHECK(all_ff(back[2], PAGE));
	CHECK_EQ(ss_hal_read_wait(h), 0);
	CHECK_EQ(ss_hal_page_read_start(h, CH * BPD * PPB, back[0], check_filled, 0), -SS_EINVAL);

	/* an erase right after the reads start: they still read what was there */
	memset(back, 0, sizeof(back));
	for (uint32_t p = 0; p < PPB; p++) {
		CHECK_EQ(ss_hal_page_read_start(h, blk * PPB + p, back[p], check_filled, p), 0);
	}
	CHECK_EQ(ss_hal_block_erase(h, blk), 0);
	CHECK_EQ(ss_hal_read_wait(h), 0);
	for (uint32_t p = 0; p < PPB; p++) {
		fill(data, PAGE, p);
		CHECK(memcmp(back[p], data, PAGE) == 0);
	}
	ss_emu_flash_close(f);
}

static void test_roundtrip_reopen(void)
{
	struct ss_emu_flash *f = open_small(1);
	struct ss_hal *h = ss_emu_flash_hal(f);
	static uint8_t data[PAGE], spare[SPARE], back[PAGE], bspare[SPARE];
	const uint32_t ppns[] = { 0, 1, 2, PPB * 7, PPB * 7 + 1, PPB * 31 };

	for (size_t i = 0; i < SS_ARRAY_SIZE(ppns); i++) {
		fill(data, PAGE, (uint32_t)i + 10);
		fill(spare, SPARE, (uint32_t)i + 50);
		CHECK_EQ(ss_hal_page_program(h, ppns[i], data, i == 2 ? NULL : spare), 0);
	}
	CHECK_EQ(ss_hal_block_erase(h, 9), 0);
	CHECK_EQ(ss_hal_sync(h), 0);
	ss_emu_flash_close(f);

	f = open_small(0);
	h = ss_emu_flash_hal(f);
	for (size_t i = 0; i < SS_ARRAY_SIZE(ppns); i++) {
		fill(data, PAGE, (uint32_t)i + 10);
		fill(spare, SPARE, (uint32_t)i + 50);
		CHECK_EQ(ss_hal_page_read(h, ppns[i], back, bspare), 0);
		CHECK(memcmp(back, data, PAGE) == 0);
		if (i == 2) {
			CHECK(all_ff(bspare, SPARE));   /* a NULL spare programs as erased */
		} else {
			CHECK(memcmp(bspare, spare, SPARE) == 0);
		}
		/* spare alone, as a mount scan reads it */
		CHECK_EQ(ss_hal_page_read(h, ppns[i], NULL, bspare), 0);
		CHECK(i == 2 || memcmp(bspare, spare, SPARE) == 0);
	}
	CHECK_EQ(ss_hal_page_read(h, 3, back, NULL), 0);
	CHECK(all_ff(back, PAGE));
	{
		struct ss_emu_block_info bi;

		CHECK_EQ(ss_emu_flash_block_info(f, 0, &bi), 0);
		CHECK_EQ(bi.write_ptr, 3);
		CHECK_EQ(ss_emu_flash_block_info(f, 9, &bi), 0);
		CHECK_EQ(bi.erase_count, 1);
	}
	/* the write pointer persisted: page 2 of block 0 cannot be programmed again */
	CHECK_EQ(ss_hal_page_program(h, 2, data, NULL), -SS_EINVAL);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "page programmed twice without an erase");
	ss_emu_flash_close(f);
}

static void test_endurance(void)
{
	struct ss_emu_flash_opts o = small_opts(1);
	struct ss_emu_flash *f;
	struct ss_emu_block_info bi;
	struct ss_emu_counters c;
	static uint8_t data[PAGE];
	char err[512];
	const uint32_t E = 20, blk = 6;
	uint32_t n = 0, lo = UINT32_MAX, hi = 0;

	o.endurance = E;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	CHECK_EQ(ss_emu_flash_hal(f)->endurance, E);
	/* per-block endurance spreads within +-10 % of the rated one (kang profile) */
	for (uint32_t b = 0; b < CH * BPD; b++) {
		CHECK_EQ(ss_emu_flash_block_info(f, b, &bi), 0);
		CHECK(bi.endurance >= E - E / 10 && bi.endurance <= E + E / 10);
		lo = bi.endurance < lo ? bi.endurance : lo;
		hi = bi.endurance > hi ? bi.endurance : hi;
	}
	CHECK(lo < hi);
	CHECK_EQ(ss_emu_flash_block_info(f, blk, &bi), 0);
	while (n < 10 * E && ss_hal_block_erase(ss_emu_flash_hal(f), blk) == 0) {
		n++;
	}
	CHECK_EQ(n, bi.endurance);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "wore out");
	CHECK_EQ(ss_hal_block_erase(ss_emu_flash_hal(f), blk), -SS_EIO);
	CHECK_EQ(ss_hal_page_program(ss_emu_flash_hal(f), blk * PPB, data, NULL), -SS_EIO);
	CHECK_STR_HAS(ss_emu_flash_last_error(f), "has failed");
	/* other blocks still work */
	CHECK_EQ(ss_hal_block_erase(ss_emu_flash_hal(f), blk + 1), 0);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.failed_blocks, 1);
	CHECK_EQ(c.erase_failures, 1);
	CHECK_EQ(c.block_erases, n + 1);
	CHECK_EQ(c.program_failures, 1);
	CHECK_EQ(c.rule_violations, 0);
	ss_emu_flash_close(f);

	/* the block stays failed across reopen */
	o.create = 0;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	CHECK_EQ(ss_emu_flash_block_info(f, blk, &bi), 0);
	CHECK(bi.failed && !bi.factory_bad);
	CHECK_EQ(bi.erase_count, n);
	CHECK_EQ(ss_hal_block_erase(ss_emu_flash_hal(f), blk), -SS_EIO);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.failed_blocks, 1);
	ss_emu_flash_close(f);

	/* the spread is fixed by the block number: a new image gives the same endurance */
	o.create = 1;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	{
		struct ss_emu_block_info again;

		CHECK_EQ(ss_emu_flash_block_info(f, blk, &again), 0);
		CHECK_EQ(again.endurance, bi.endurance);
		CHECK(!again.failed);
	}
	ss_emu_flash_close(f);
}

static void write_profile(const char *p, uint32_t bad_permille)
{
	char src[512], line[512];
	FILE *in, *out;

	snprintf(src, sizeof(src), "%s/kang-smartssd.profile", SS_EMU_PROFILE_DIR);
	in = fopen(src, "r");
	out = fopen(p, "w");
	if (in == NULL || out == NULL) {
		perror("profile");
		exit(2);
	}
	while (fgets(line, sizeof(line), in) != NULL) {
		if (strncmp(line, "factory_bad_permille", 20) == 0) {
			fprintf(out, "factory_bad_permille = %u  # source: test\n", bad_permille);
		} else if (strncmp(line, "name =", 6) == 0) {
			fprintf(out, "name = test-bad  # source: test\n");
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	fclose(out);
}

static void test_factory_bad_blocks(void)
{
	struct ss_emu_flash_opts o = small_opts(1);
	struct ss_emu_flash *f;
	struct ss_emu_counters c;
	struct ss_emu_block_info bi;
	static uint8_t data[PAGE];
	char prof[400], err[512];
	uint32_t bad = 0, blocks = CH * BPD;
	uint8_t first[CH * BPD];

	o.geo.blocks_per_die = BPD;
	snprintf(prof, sizeof(prof), "%s/bad.profile", dir);
	write_profile(prof, 250);
	o.profile = prof;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	for (uint32_t b = 0; b < blocks; b++) {
		CHECK_EQ(ss_emu_flash_block_info(f, b, &bi), 0);
		first[b] = (uint8_t)bi.factory_bad;
		if (bi.factory_bad) {
			bad++;
			CHECK(bi.failed);
			CHECK_EQ(ss_hal_block_erase(ss_emu_flash_hal(f), b), -SS_EIO);
			CHECK_STR_HAS(ss_emu_flash_last_error(f), "factory bad block");
			CHECK_EQ(ss_hal_page_program(ss_emu_flash_hal(f), b * PPB, data, NULL), -SS_EIO);
		} else {
			CHECK_EQ(ss_hal_block_erase(ss_emu_flash_hal(f), b), 0);
		}
	}
	/* about a quarter of 32 blocks; a fixed hash, so bounds are loose but not vacuous */
	CHECK(bad >= 2 && bad <= 16);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.failed_blocks, bad);
	ss_emu_flash_close(f);

	/* deterministic: the same blocks on a new image */
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	for (uint32_t b = 0; b < blocks; b++) {
		CHECK_EQ(ss_emu_flash_block_info(f, b, &bi), 0);
		CHECK_EQ(bi.factory_bad, first[b]);
	}
	ss_emu_flash_close(f);
	/* a reopen without a profile names the missing profile */
	o.create = 0;
	o.profile = NULL;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), -SS_ENOENT);
	CHECK_STR_HAS(err, "test-bad");
}

static void patch(const char *p, long off, const void *bytes, size_t n)
{
	int fd = open(p, O_WRONLY);

	if (fd < 0 || pwrite(fd, bytes, n, off) != (ssize_t)n) {
		perror("patch");
		exit(2);
	}
	close(fd);
}

static int open_err(char *err, size_t errlen)
{
	struct ss_emu_flash_opts o = small_opts(0);
	struct ss_emu_flash *f = NULL;
	int rc = ss_emu_flash_open(path, &o, &f, err, errlen);

	if (rc == 0) {
		ss_emu_flash_close(f);
	}
	return rc;
}

static void test_corrupt_images(void)
{
	char err[512];
	struct stat st;
	uint8_t b;

	/* bad magic */
	ss_emu_flash_close(open_small(1));
	patch(path, 0, "X", 1);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EBADMSG);
	CHECK_STR_HAS(err, "bad magic");

	/* unsupported version (little-endian u32 after the 8-byte magic) */
	ss_emu_flash_close(open_small(1));
	patch(path, 8, "\x07\x00\x00\x00", 4);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EPROTO);
	CHECK_STR_HAS(err, "format version 7");

	/* a flipped header byte fails the CRC */
	ss_emu_flash_close(open_small(1));
	b = 5;
	patch(path, 20, &b, 1);   /* inside the geometry */
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EBADMSG);
	CHECK_STR_HAS(err, "header checksum mismatch");

	/* a corrupt block table entry */
	ss_emu_flash_close(open_small(1));
	b = 0x42;
	patch(path, 4096 + 16 * 3 + 1, &b, 1);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EBADMSG);
	CHECK_STR_HAS(err, "block table entry 3");

	/* truncated: data area cut short, then shorter than the header */
	ss_emu_flash_close(open_small(1));
	CHECK_EQ(stat(path, &st), 0);
	CHECK_EQ(truncate(path, st.st_size - 1), 0);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EBADMSG);
	CHECK_STR_HAS(err, "truncated");
	CHECK_EQ(truncate(path, 100), 0);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_EBADMSG);
	CHECK_STR_HAS(err, "truncated");

	/* missing */
	unlink(path);
	CHECK_EQ(open_err(err, sizeof(err)), -SS_ENOENT);
	CHECK_STR_HAS(err, "does not exist");
}

static void test_second_opener(void)
{
	struct ss_emu_flash *f = open_small(1), *g = NULL;
	struct ss_emu_flash_opts o = small_opts(0);
	char err[1024], want[1024];

	CHECK_EQ(ss_emu_flash_open(path, &o, &g, err, sizeof(err)), -SS_EBUSY);
	snprintf(want, sizeof(want), "image %s is in use by another process; to share one drive "
		 "between processes run the daemon (smartssd-devd --image %s --socket SOCK) and "
		 "open unix:SOCK", path, path);
	CHECK(strcmp(err, want) == 0);
	/* creating over an image in use is refused too, and leaves it intact */
	o.create = 1;
	CHECK_EQ(ss_emu_flash_open(path, &o, &g, err, sizeof(err)), -SS_EBUSY);
	ss_emu_flash_close(f);
	o.create = 0;
	CHECK_EQ(ss_emu_flash_open(path, &o, &g, err, sizeof(err)), 0);
	ss_emu_flash_close(g);
}

static void test_reopen_geometry_mismatch(void)
{
	struct ss_emu_flash_opts o = small_opts(0);
	struct ss_emu_flash *f = NULL;
	char err[512];

	ss_emu_flash_close(open_small(1));
	o.geo.pages_per_block = PPB * 2;
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), -SS_EINVAL);
	CHECK_STR_HAS(err, "pages_per_block");
	/* zero fields mean "whatever the image has" */
	memset(&o.geo, 0, sizeof(o.geo));
	CHECK_EQ(ss_emu_flash_open(path, &o, &f, err, sizeof(err)), 0);
	CHECK_EQ(ss_emu_flash_hal(f)->geo.pages_per_block, PPB);
	ss_emu_flash_close(f);
}

/* Programs acknowledged before a SIGKILL survive it; the rest read as erased. */
static void test_kill_during_programs(void)
{
	int fds[2];
	pid_t pid;
	uint32_t acked = 0, v;
	static uint8_t data[PAGE], back[PAGE];
	const uint32_t total = CH * BPD * PPB;

	ss_emu_flash_close(open_small(1));
	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct ss_emu_flash *f = open_small(0);

		close(fds[0]);
		for (uint32_t i = 0; i < total; i++) {
			uint32_t ppn = (i % (CH * BPD)) * PPB + i / (CH * BPD);

			fill(data, PAGE, ppn);
			if (ss_hal_page_program(ss_emu_flash_hal(f), ppn, data, NULL) != 0 ||
			    write(fds[1], &i, sizeof(i)) != sizeof(i)) {
				_exit(3);
			}
		}
		pause();
		_exit(0);
	}
	close(fds[1]);
	while (acked < total / 3 && read(fds[0], &v, sizeof(v)) == sizeof(v)) {
		acked = v + 1;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	while (read(fds[0], &v, sizeof(v)) == sizeof(v)) {
		acked = v + 1;
	}
	close(fds[0]);
	{
		struct ss_emu_flash *f = open_small(0);
		uint32_t programmed = 0;

		for (uint32_t i = 0; i < total; i++) {
			uint32_t ppn = (i % (CH * BPD)) * PPB + i / (CH * BPD);

			CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), ppn, back, NULL), 0);
			if (i < acked) {
				fill(data, PAGE, ppn);
				CHECK(memcmp(back, data, PAGE) == 0);
			}
			programmed += !all_ff(back, PAGE);
		}
		/* at most the one program in flight at the kill went beyond the acks */
		CHECK(programmed == acked || programmed == acked + 1);
		ss_emu_flash_close(f);
	}
}

int main(void)
{
	emu_test_mkdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/flash.img", dir);
	RUN(test_hal_fields);
	RUN(test_erased_reads_ff);
	RUN(test_rule_program_twice);
	RUN(test_rule_program_in_order);
	RUN(test_rule_addresses);
	RUN(test_erase_whole_block);
	RUN(test_read_start);
	RUN(test_roundtrip_reopen);
	RUN(test_endurance);
	RUN(test_factory_bad_blocks);
	RUN(test_corrupt_images);
	RUN(test_second_opener);
	RUN(test_reopen_geometry_mismatch);
	RUN(test_kill_during_programs);
	emu_test_rmdir(dir);
	return ss_test_failures ? 1 : 0;
}
