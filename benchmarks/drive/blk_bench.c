/*
 * The host block target (smartssd/blk.h) on an emulated open-channel kang-smartssd drive
 * (in this process, virtual time): sustained random 4 KiB writes over the whole LBA space
 * (twice its size: GC runs throughout), then random 4 KiB reads. For each phase: modelled
 * time per I/O (the drive's host clock), host CPU per I/O (getrusage: the target, the
 * library and the emulated drive together, so an upper bound of the target's own), and
 * the write amplification GC caused; then the host memory of the map. Every read is
 * checked against what was written last. One CSV row per phase on stdout.
 *   usage: blk_bench IMAGE [capacity MiB, default 1024] [reads, default 20000]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "smartssd/blk.h"
#include "smartssd/smartssd.h"

#define DIE(...)                                                                           \
	do {                                                                               \
		fprintf(stderr, "blk_bench: " __VA_ARGS__);                                \
		fprintf(stderr, ": %s\n", ss_dev_last_message());                          \
		exit(1);                                                                   \
	} while (0)

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec +
	       u.ru_stime.tv_usec / 1e6;
}

static uint64_t host_ns(struct ss_dev *d)
{
	struct ss_dev_model m;

	if (ss_dev_model_counters(d, &m))
		DIE("model counters");
	return m.host_now_ns;
}

static void fill(uint8_t *p, uint64_t lba, uint32_t ver)
{
	uint64_t w = lba << 32 | ver;

	for (uint32_t i = 0; i < SS_BLK_BLOCK; i += 8)
		memcpy(p + i, &w, 8);
}

int main(int argc, char **argv)
{
	uint64_t cap_mib = argc > 2 ? strtoull(argv[2], NULL, 0) : 1024;
	uint64_t nreads = argc > 3 ? strtoull(argv[3], NULL, 0) : 20000, seed = 42;
	static uint8_t buf[SS_BLK_BLOCK];
	char uri[4200], err[512];
	struct ss_blk_stats st;
	struct ss_blk_info info;
	struct ss_dev *d = NULL;
	struct ss_blk *b = NULL;
	uint32_t *ver;
	uint64_t t0, writes;
	double c0;

	if (argc < 2) {
		fprintf(stderr, "usage: blk_bench IMAGE [capacity MiB] [reads]\n");
		return 2;
	}
	snprintf(uri, sizeof(uri), "emu:%s?interface=open-channel&force=1", argv[1]);
	if (ss_dev_format(uri, "kang-smartssd", cap_mib << 20, err, sizeof(err)))
		DIE("format %s (%s)", argv[1], err);
	snprintf(uri, sizeof(uri), "emu:%s", argv[1]);
	if (ss_dev_open(uri, NULL, &d) || ss_blk_open(d, NULL, &b) || ss_blk_info(b, &info))
		DIE("open %s", uri);
	ver = calloc(info.blocks, sizeof(*ver));
	writes = 2 * info.blocks;
	printf("phase,ios,modelled_us_per_io,host_cpu_us_per_io,write_amplification,"
	       "gc_blocks_moved,gc_lines_erased,checkpoints\n");

	t0 = host_ns(d);
	c0 = cpu_s();
	for (uint64_t i = 0; i < writes; i++) {
		uint64_t lba = rnd(&seed) % info.blocks;

		fill(buf, lba, ++ver[lba]);
		if (ss_blk_write(b, lba, 1, buf, 0))
			DIE("write %llu", (unsigned long long)lba);
	}
	if (ss_blk_flush(b) || ss_blk_stats(b, &st))
		DIE("flush");
	printf("random-write,%llu,%.2f,%.2f,%.3f,%llu,%llu,%llu\n", (unsigned long long)writes,
	       (host_ns(d) - t0) / 1e3 / writes, (cpu_s() - c0) * 1e6 / writes,
	       (double)st.flash_blocks_written / st.user_blocks_written,
	       (unsigned long long)st.gc_blocks_moved, (unsigned long long)st.gc_lines_erased,
	       (unsigned long long)st.checkpoints);

	t0 = host_ns(d);
	c0 = cpu_s();
	for (uint64_t i = 0; i < nreads; i++) {
		uint64_t lba = rnd(&seed) % info.blocks, w;

		if (ss_blk_read(b, lba, 1, buf))
			DIE("read %llu", (unsigned long long)lba);
		memcpy(&w, buf, 8);
		if (w != (ver[lba] ? (lba << 32 | ver[lba]) : 0)) {
			fprintf(stderr, "blk_bench: LBA %llu reads %llx, wrote version %u\n",
				(unsigned long long)lba, (unsigned long long)w, ver[lba]);
			return 1;
		}
	}
	printf("random-read,%llu,%.2f,%.2f,,,,\n", (unsigned long long)nreads,
	       (host_ns(d) - t0) / 1e3 / nreads, (cpu_s() - c0) * 1e6 / nreads);
	fprintf(stderr, "blk_bench: %llu blocks over %u PUs, lines of %u blocks; map %llu bytes "
		"of host memory (%.2f bytes a block)\n", (unsigned long long)info.blocks, info.pus,
		info.line_blocks, (unsigned long long)info.map_bytes,
		(double)info.map_bytes / info.blocks);
	free(ver);
	if (ss_blk_close(b) || ss_dev_close(d))
		DIE("close");
	return 0;
}
