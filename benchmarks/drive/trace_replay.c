/*
 * Block-trace replay through the emulated drive's block interface, for the drive's DRAM
 * buffer policies (firmware-tasklets/buffer/): Gong's comparison of BPLRU, FAB, LB-CLOCK and
 * HBM [Gong 2010, §4.3, Figs. 4.1-4.8], and Smullen's of the non-volatile merge cache's
 * policies against no merge cache [Smullen 2010, §V-B, Figs. 4-7] (--page-kb 4: the
 * paper's 4 KB pages in 256 KB blocks).
 *
 * The drive: the kang-smartssd timing and energy model (its NAND timing is Gong's Table
 * 4.2) on Gong's geometry [Gong 2010, §4.2.2]: 2 KB pages, 64-page blocks, here 4 channels
 * x 2 ways, sized to the trace's footprint plus a quarter. The host LBA space belongs to the
 * object store, so one file covering the footprint is written and flushed first; the trace's
 * LBAs are mapped through its extents. Then the drive is reopened and every request is a
 * READ or WRITE DMA EXT command (split where the file's extents split it).
 *
 * Open loop in modelled time: request i arrives at the trace's timestamp a_i; the drive
 * serves one command at a time, so it starts at max(a_i, the previous completion) and takes
 * the modelled time the command took (the host clock's advance over it, counted
 * operations and profile constants only); its response time is completion - a_i.
 *
 *   usage: trace_replay --policy lru|fab|bplru|lbclock|hbm|none|nv-wb|nv-sub|nv-sat[+READ]
 *                       --buffer-mb N [--threshold N] [--page-kb 2|4] [--fua]
 *                       (--gen KIND [--requests N] [--footprint-mb N]
 *                       | --spc FILE | --msr FILE | --disksim FILE) [--csv FILE] [--dir D]
 * --fua sends every write as WRITE DMA FUA EXT: durable on completion, as every write to
 * the merge cache is (there FUA changes nothing), and as the paper's baseline's are.
 * Prints one CSV row (header with --header).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smartssd/sat.h"
#include "smartssd/smartssd.h"
#include "ss_buf.h"
#include "ss_emu.h"
#include "trace.h"

#define PPB 64u
#define CHANNELS 4u
#define WAYS 2u
#define MAX_EXT 65536u

struct run {
	const char *policy;
	uint32_t buffer_mb, threshold, page, fua;
	const char *trace_name;
	struct trace t;
	uint64_t footprint_sectors;
	char dir[256], image[320];
};

static void die(const char *what, const char *why)
{
	fprintf(stderr, "trace_replay: %s: %s\n", what, why);
	exit(2);
}

static struct ss_emu_drive_opts drive_opts(const struct run *r)
{
	struct ss_emu_drive_opts o;
	uint64_t pages = r->footprint_sectors / (r->page / 512);
	uint64_t per_row = (uint64_t)CHANNELS * WAYS * PPB;

	memset(&o, 0, sizeof(o));
	o.flash.profile = "kang-smartssd";
	o.flash.geo.channels = CHANNELS;
	o.flash.geo.ways = WAYS;
	o.flash.geo.pages_per_block = PPB;
	o.flash.geo.page_size = r->page;
	o.flash.geo.spare_size = r->page / 32;
	/* the footprint, a quarter more, and the object store's metadata */
	o.flash.geo.blocks_per_die = (uint32_t)((pages + pages / 4) / per_row + 16);
	o.flash.dram_bytes = 512ull << 20;
	o.buffer_policy = r->policy;
	o.buffer_bytes = (uint64_t)r->buffer_mb << 20;
	o.buffer_threshold = r->threshold;
	o.manual_background = 1;
	return o;
}

/* Format, write the file that owns the footprint, and return its extents. */
static uint32_t prepare(struct run *r, struct ss_dev_extent *ext)
{
	struct ss_emu_drive_opts o = drive_opts(r);
	uint64_t bytes = r->footprint_sectors * 512, oid = 0;
	static uint8_t chunk[1 << 20];
	struct ss_dev *d = NULL;
	char err[512], uri[400];
	int n;

	if (ss_emu_format(r->image, &o, NULL, err, sizeof(err)) != 0) {
		die("format", err);
	}
	snprintf(uri, sizeof(uri), "emu:%s?background=manual", r->image);
	if (ss_dev_open(uri, NULL, &d) != 0 || ss_dev_create(d, "/trace", SS_DEV_FILE, 0, &oid)) {
		die("prefill", ss_dev_last_message());
	}
	for (uint64_t off = 0; off < bytes; off += sizeof(chunk)) {
		size_t len = bytes - off < sizeof(chunk) ? (size_t)(bytes - off) : sizeof(chunk);

		memset(chunk, (int)(off >> 20), len);
		if (ss_dev_write(d, oid, off, chunk, len, 0) != (int64_t)len) {
			die("prefill write", ss_dev_last_message());
		}
	}
	if (ss_dev_flush(d) != 0) {
		die("prefill flush", ss_dev_last_message());
	}
	n = ss_dev_extents(d, oid, 0, bytes, ext, MAX_EXT);
	if (n <= 0 || n == (int)MAX_EXT) {
		die("extents", n <= 0 ? ss_dev_last_message() : "too many");
	}
	ss_dev_close(d);
	return (uint32_t)n;
}

/* One request's sectors, cut where the file's extents cut them. */
static void submit(struct ss_emu_drive *d, const struct ss_dev_extent *ext, uint32_t next,
		   uint64_t sector, uint32_t sectors, int write, int fua, uint8_t *buf)
{
	while (sectors > 0) {
		uint64_t off = sector * 512;
		uint32_t lo = 0, hi = next;
		uint8_t cdb[16], sense[32], st;

		while (hi - lo > 1) {   /* the extent holding off */
			uint32_t mid = (lo + hi) / 2;

			if (ext[mid].offset <= off) {
				lo = mid;
			} else {
				hi = mid;
			}
		}
		uint64_t in = (off - ext[lo].offset) / 512;
		uint32_t n = (uint32_t)(ext[lo].sectors - in);

		if (n > sectors) {
			n = sectors;
		}
		if (n > 65535) {
			n = 65535;
		}
		struct ss_sat_cmd cmd = {
			.command = write ? (fua ? 0x3D : 0x35) : 0x25, /* WRITE (FUA) / READ DMA EXT */
			.device = 0x40,
			.count = (uint16_t)n,
			.lba = ext[lo].lba + in,
			.protocol = SS_SAT_PROTO_DMA,
			.dir = write ? SS_SAT_DIR_OUT : SS_SAT_DIR_IN,
			.extend = 1,
		};

		ss_sat_encode16(&cmd, cdb);
		if (ss_emu_submit(d, cdb, buf, n * 512, write ? SS_EMU_DIR_TO_DRIVE
						       : SS_EMU_DIR_FROM_DRIVE,
				  sense, sizeof(sense), &st) != 0 || st != SS_EMU_SCSI_GOOD) {
			die("replay", "a command failed");
		}
		sector += n;
		sectors -= n;
	}
}

static void replay(struct run *r, FILE *out, int header)
{
	static struct ss_dev_extent ext[MAX_EXT];
	static uint8_t buf[1024 * 512];
	struct ss_emu_drive_opts o = drive_opts(r);
	struct ss_emu_counters c0, c1, c;
	struct ss_buf_params bp;
	struct ss_buf_stats bs;
	struct ss_emu_drive *d = NULL;
	uint32_t next = prepare(r, ext);
	uint64_t done = 0, resp_sum = 0, service_sum = 0;
	char err[512];

	if (ss_emu_open(r->image, &o, &d, err, sizeof(err)) != 0) {
		die("open", err);
	}
	ss_emu_get_counters(d, &c0);
	for (size_t i = 0; i < r->t.n; i++) {
		const struct trace_req *q = &r->t.r[i];
		uint64_t sector = q->lba % r->footprint_sectors, start, service;
		uint32_t sectors = q->sectors;

		if (sector + sectors > r->footprint_sectors) {
			sector = r->footprint_sectors - sectors;
		}
		ss_emu_get_counters(d, &c);
		start = q->t_ns > done ? q->t_ns : done;
		submit(d, ext, next, sector, sectors, q->write, (int)r->fua, buf);
		ss_emu_get_counters(d, &c1);
		service = c1.host_now_ns - c.host_now_ns;
		done = start + service;
		resp_sum += done - q->t_ns;
		service_sum += service;
	}
	ss_emu_buffer_stats(d, &bp, &bs);
	ss_emu_get_counters(d, &c1);
	if (header) {
		fprintf(out, "trace,policy,buffer_mb,threshold,requests,avg_response_ms,read_hit,"
			     "write_hit,hit_ratio,erases,nand_page_reads,nand_page_programs,"
			     "padding_reads,flushed_pages,w1,w2,w3_4,w5_8,w9_16,w17_32,w33_64,w65,"
			     "energy_nand_mj,final_threshold,block_region_pages,page_kb,fua,"
			     "nv_bypass_pages,nv_read_cached,nv_prefetched,nv_index_misses,"
			     "nv_ftl_flushes,merges,avg_service_ms\n");
	}
	fprintf(out, "%s,%s,%u,%u,%zu,%.4f,%.4f,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu",
		r->trace_name, r->policy, r->buffer_mb, r->threshold, r->t.n,
		(double)resp_sum / (double)r->t.n / 1e6,
		bs.read_pages ? (double)bs.read_hits / (double)bs.read_pages : 0.0,
		bs.write_pages ? (double)bs.write_hits / (double)bs.write_pages : 0.0,
		bs.read_pages + bs.write_pages
			? (double)(bs.read_hits + bs.write_hits) /
				  (double)(bs.read_pages + bs.write_pages)
			: 0.0,
		(unsigned long long)(c1.block_erases - c0.block_erases),
		(unsigned long long)(c1.page_reads - c0.page_reads),
		(unsigned long long)(c1.page_programs - c0.page_programs),
		(unsigned long long)bs.padding_reads, (unsigned long long)bs.flushed_pages);
	for (uint32_t i = 0; i < SS_BUF_LEN_BUCKETS; i++) {
		fprintf(out, ",%llu", (unsigned long long)bs.flushes_by_len[i]);
	}
	fprintf(out, ",%.3f,%u,%u", (double)(c1.energy_nand_read_nj - c0.energy_nand_read_nj +
					     c1.energy_nand_program_nj - c0.energy_nand_program_nj +
					     c1.energy_nand_erase_nj - c0.energy_nand_erase_nj) / 1e6,
		bs.threshold, bs.block_region_pages);
	fprintf(out, ",%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%.4f\n", r->page / 1024, r->fua,
		(unsigned long long)bs.nv_bypass_pages, (unsigned long long)bs.nv_read_cached,
		(unsigned long long)bs.nv_prefetched, (unsigned long long)bs.nv_index_misses,
		(unsigned long long)bs.nv_ftl_flushes, (unsigned long long)bs.merges,
		(double)service_sum / (double)r->t.n / 1e6);
	fflush(out);
	ss_emu_close(d);
}

int main(int argc, char **argv)
{
	struct run r = { .policy = "hbm", .buffer_mb = 1, .page = 2048 };
	const char *gen = NULL, *spc = NULL, *msr = NULL, *disksim = NULL, *csv = NULL;
	const char *dir = "/tmp";
	size_t requests = 20000;
	uint64_t footprint_mb = 64;
	int header = 0;
	FILE *out = stdout;
	char err[256] = "";
	long n = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--header")) {
			header = 1;
			continue;
		}
		if (!strcmp(a, "--fua")) {
			r.fua = 1;
			continue;
		}
		if (!v) {
			die(a, "needs a value");
		}
		i++;
		if (!strcmp(a, "--policy")) r.policy = v;
		else if (!strcmp(a, "--buffer-mb")) r.buffer_mb = (uint32_t)atoi(v);
		else if (!strcmp(a, "--threshold")) r.threshold = (uint32_t)atoi(v);
		else if (!strcmp(a, "--page-kb")) r.page = (uint32_t)atoi(v) * 1024;
		else if (!strcmp(a, "--gen")) gen = v;
		else if (!strcmp(a, "--requests")) requests = (size_t)atol(v);
		else if (!strcmp(a, "--footprint-mb")) footprint_mb = (uint64_t)atol(v);
		else if (!strcmp(a, "--spc")) spc = v;
		else if (!strcmp(a, "--msr")) msr = v;
		else if (!strcmp(a, "--disksim")) disksim = v;
		else if (!strcmp(a, "--csv")) csv = v;
		else if (!strcmp(a, "--dir")) dir = v;
		else die(a, "unknown option");
	}
	if (r.page != 2048 && r.page != 4096) {
		die("--page-kb", "2 or 4");
	}
	r.footprint_sectors = footprint_mb << 11;
	if (gen) {
		int k = trace_kind_parse(gen);

		if (k < 0 || trace_generate((enum trace_kind)k, requests, r.footprint_sectors, 42,
					    &r.t)) {
			die(gen, "unknown trace kind (financial, msnfs, exchange, camwebdev, synthetic, "
				 "smullen-exchange, smullen-maps, smullen-msnfs, smullen-radius)");
		}
		r.trace_name = gen;
	} else {
		const char *path = spc ? spc : msr ? msr : disksim;
		FILE *f = path ? fopen(path, "r") : NULL;

		if (!f) {
			die(path ? path : "trace", path ? strerror(errno) : "none given");
		}
		n = spc ? trace_read_spc(f, 0, &r.t, err, sizeof(err))
		    : msr ? trace_read_msr(f, &r.t, err, sizeof(err))
			  : trace_read_disksim(f, &r.t, err, sizeof(err));
		fclose(f);
		if (n <= 0) {
			die(path, n < 0 ? err : "no requests");
		}
		r.trace_name = path;
	}
	snprintf(r.dir, sizeof(r.dir), "%s/trace_replay.XXXXXX", dir);
	if (!mkdtemp(r.dir)) {
		die("mkdtemp", strerror(errno));
	}
	snprintf(r.image, sizeof(r.image), "%s/drive.img", r.dir);
	if (csv && !(out = fopen(csv, "a"))) {
		die(csv, strerror(errno));
	}
	replay(&r, out, header);
	if (csv) {
		fclose(out);
	}
	unlink(r.image);
	rmdir(r.dir);
	trace_free(&r.t);
	return 0;
}
