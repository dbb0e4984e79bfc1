/*
 * Sequential object I/O through the kang-smartssd drive: read-ahead and write-behind let
 * 1 MiB reads and non-FUA writes of a 64 MiB object run at the modelled link rate, while
 * FUA writes and FLUSH still complete only after their NAND programs, and read-ahead never
 * returns stale data.
 */
#include <string.h>

#include "drive_fixture.h"

#define LINK_BYTES_PER_S 300e6   /* kang-smartssd: SATA 3 Gb/s after 8b/10b */
#define CHANNELS 16u
#define PAGE_BYTES 8192u
#define SPARE_BYTES 448u
#define CHANNEL_BYTES_PER_S 46875000.0
#define PROGRAM_NS 200000.0
#define OBJECT_BYTES (64ull << 20)
#define IO (1u << 20)

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

static uint64_t host_now(struct drive_fixture *f)
{
	struct ss_dev_model m;

	if (ss_dev_model_counters(f->dev, &m) != 0) {
		DIE("model counters");
	}
	return m.host_now_ns;
}

static void fill(uint8_t *buf, size_t n, uint64_t off, uint32_t salt)
{
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = ((off + i) / 8) * 0x9E3779B97F4A7C15ull ^ salt;

		memcpy(buf + i, &v, 8);
	}
}

/* Lower bound of a 1 MiB write that waits for its programs: the data crosses the link,
 * then each channel moves at least its share of the 128 pages, then the last tPROG. */
static double programmed_write_ns(void)
{
	double pages_per_channel = (double)(IO / PAGE_BYTES) / CHANNELS;

	return IO * 1e9 / LINK_BYTES_PER_S +
	       pages_per_channel * (PAGE_BYTES + SPARE_BYTES) * 1e9 / CHANNEL_BYTES_PER_S +
	       PROGRAM_NS;
}

static void sequential(struct drive_fixture *f, uint64_t oid, uint8_t *buf, uint8_t *want)
{
	uint64_t t0 = host_now(f), t1;
	int same = 1;

	for (uint64_t off = 0; off < OBJECT_BYTES; off += IO) {
		fill(buf, IO, off, 1);
		if (ss_dev_write(f->dev, oid, off, buf, IO, 0) != (int64_t)IO) {
			DIE("write at %llu", (unsigned long long)off);
		}
	}
	t1 = host_now(f);
	double wr = OBJECT_BYTES * 1e9 / (double)(t1 - t0);

	printf("sequential 1 MiB writes: %.1f MB/s (%.0f %% of the link)\n", wr / 1e6,
	       100 * wr / LINK_BYTES_PER_S);
	/* 71 % here, the same on every run. With the controller thread, background work done
	 * in the wall-clock gaps between commands (not modelled as idle time) lifted this to
	 * 83-99 % depending on the machine's load: a figure no test can hold. */
	check(wr >= 0.70 * LINK_BYTES_PER_S, "non-FUA writes reach 70 % of the link");
	if (ss_dev_flush(f->dev) != 0) {
		DIE("flush");
	}
	t0 = host_now(f);
	for (uint64_t off = 0; off < OBJECT_BYTES; off += IO) {
		if (ss_dev_read(f->dev, oid, off, buf, IO) != (int64_t)IO) {
			DIE("read at %llu", (unsigned long long)off);
		}
		fill(want, IO, off, 1);
		same &= memcmp(buf, want, IO) == 0;
	}
	t1 = host_now(f);
	double rd = OBJECT_BYTES * 1e9 / (double)(t1 - t0);

	printf("sequential 1 MiB reads: %.1f MB/s (%.0f %% of the link)\n", rd / 1e6,
	       100 * rd / LINK_BYTES_PER_S);
	check(rd >= 0.85 * LINK_BYTES_PER_S, "reads reach 85 % of the link");
	check(same, "every byte read is the byte written");
}

/* Writes, truncates and block writes into the read-ahead window are seen by later reads. */
static void no_stale_reads(struct drive_fixture *f, uint64_t oid, uint8_t *buf, uint8_t *want)
{
	const uint32_t patch = 64u << 10;
	uint64_t before, after;
	struct ss_dev_model m0, m1;

	/* A sequential stream: the third read is served from the read-ahead buffer. */
	for (uint64_t off = 0; off < 2 * IO; off += IO) {
		if (ss_dev_read(f->dev, oid, off, buf, IO) != (int64_t)IO) {
			DIE("read");
		}
	}
	ss_dev_model_counters(f->dev, &m0);
	if (ss_dev_read(f->dev, oid, 2 * IO, buf, IO) != (int64_t)IO) {
		DIE("read");
	}
	ss_dev_model_counters(f->dev, &m1);
	fill(want, IO, 2 * IO, 1);
	check(memcmp(buf, want, IO) == 0, "read-ahead hit returns the data");
	/* Served from DRAM: quicker than any read that moves its pages off the flash first. */
	check(m1.host_now_ns - m0.host_now_ns < IO * 1e9 / LINK_BYTES_PER_S +
	      (double)(IO / PAGE_BYTES) / CHANNELS * (PAGE_BYTES + SPARE_BYTES) * 1e9 /
	      CHANNEL_BYTES_PER_S, "the hit is served from DRAM");

	/* Now 3..4 MiB is ahead; patch it between two reads of the stream. */
	fill(buf, patch, 3 * IO + 4096, 7);
	if (ss_dev_write(f->dev, oid, 3 * IO + 4096, buf, patch, 0) != (int64_t)patch) {
		DIE("patch");
	}
	if (ss_dev_read(f->dev, oid, 3 * IO, buf, IO) != (int64_t)IO) {
		DIE("read");
	}
	fill(want, IO, 3 * IO, 1);
	fill(want + 4096, patch, 3 * IO + 4096, 7);
	check(memcmp(buf, want, IO) == 0, "a write into the read-ahead window is read back");

	/* Truncate inside the window that is now ahead (4..5 MiB), then extend again: zeros. */
	if (ss_dev_truncate(f->dev, oid, 4 * IO + 100) != 0 ||
	    ss_dev_truncate(f->dev, oid, OBJECT_BYTES) != 0) {
		DIE("truncate");
	}
	if (ss_dev_read(f->dev, oid, 4 * IO, buf, IO) != (int64_t)IO) {
		DIE("read");
	}
	fill(want, IO, 4 * IO, 1);
	memset(want + 100, 0, IO - 100);
	check(memcmp(buf, want, IO) == 0, "a truncate in the read-ahead window is read back");

	/* FUA and FLUSH wait for the programs; a plain write does not. Appends, after a
	 * flush: no rewritten pages waiting for a sync of their own. */
	if (ss_dev_flush(f->dev) != 0) {
		DIE("flush");
	}
	fill(buf, IO, 0, 9);
	before = host_now(f);
	if (ss_dev_write(f->dev, oid, OBJECT_BYTES, buf, IO, 0) != (int64_t)IO) {
		DIE("write");
	}
	after = host_now(f);
	printf("1 MiB write %.0f us; waiting for its programs takes at least %.0f us\n",
	       (after - before) / 1e3, programmed_write_ns() / 1e3);
	check(after - before < programmed_write_ns(), "a plain write is acknowledged from DRAM");
	if (ss_dev_flush(f->dev) != 0) {
		DIE("flush");
	}
	after = host_now(f);
	check(after - before >= programmed_write_ns(), "FLUSH completes after the programs");
	before = after;
	if (ss_dev_write(f->dev, oid, OBJECT_BYTES + IO, buf, IO, SS_DEV_WRITE_FUA) !=
	    (int64_t)IO) {
		DIE("FUA write");
	}
	after = host_now(f);
	check(after - before >= programmed_write_ns(), "a FUA write completes after its programs");
	for (uint64_t off = OBJECT_BYTES; off < OBJECT_BYTES + 2 * IO; off += IO) {
		if (ss_dev_read(f->dev, oid, off, want, IO) != (int64_t)IO) {
			DIE("read");
		}
		check(memcmp(buf, want, IO) == 0, "the plain and FUA writes are read back");
	}
}

int main(void)
{
	struct drive_fixture f;
	uint8_t *buf = malloc(IO), *want = malloc(IO);
	uint64_t oid;

	if (buf == NULL || want == NULL) {
		return 2;
	}
	/* No controller thread: background work (GC) interleaves with the host's commands
	 * the same way on every run, so the modelled times asserted here are the same too. */
	drive_fixture_open(&f, "kang-smartssd", 32, "?background=manual");
	if (ss_dev_create(f.dev, "/seq.bin", SS_DEV_FILE, 0, &oid) != 0) {
		DIE("create");
	}
	sequential(&f, oid, buf, want);
	no_stale_reads(&f, oid, buf, want);
	drive_fixture_close(&f);
	free(buf);
	free(want);
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
