/*
 * smartssd-replay: block-trace replay through the emulated drive's block interface, for the
 * drive's DRAM buffer policies (firmware-tasklets/buffer/). The one replayer: `smartssd
 * replay` (smartssd-cli, ReplayCommand) runs it on a user's trace, and
 * benchmarks/run-buffer-replay.sh on generated ones for Gong's comparison of BPLRU, FAB,
 * LB-CLOCK and HBM [Gong 2010, §4.3, Figs. 4.1-4.8] and Smullen's of the non-volatile merge
 * cache's policies against no merge cache [Smullen 2010, §V-B, Figs. 4-7] (--page-kb 4: the
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
 * The footprint: --footprint-mb, else for a trace file the span of its addresses (rounded
 * up to a MiB), else 64 MiB. Addresses past the footprint fold back onto it (modulo).
 *
 *   usage: smartssd-replay --policy lru|fab|bplru|lbclock|hbm|none|nv-wb|nv-sub|nv-sat[+READ]
 *                       (--buffer-mb N | --buffer-bytes N) [--threshold N] [--page-kb 2|4]
 *                       [--fua] (--gen KIND [--requests N] | --spc FILE [--asu-mb N]
 *                       | --msr FILE | --disksim FILE) [--footprint-mb N]
 *                       [--report | [--header] [--csv FILE]] [--dir D]
 * --fua sends every write as WRITE DMA FUA EXT: durable on completion, as every write to
 * the merge cache is (there FUA changes nothing), and as the paper's baseline's are.
 * --asu-mb lays an SPC trace's ASUs end to end, each that long (else only ASU 0 is taken).
 * Prints one CSV row (header with --header), or with --report the report for people.
 * Exit status as the smartssd command's (ExitCodes.java): 1 bad argument or malformed
 * trace, 2 no such trace file, 3 the drive failed.
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

/* exit statuses, as the smartssd command's (ExitCodes.java) */
enum { EXIT_USAGE = 1, EXIT_NOT_FOUND = 2, EXIT_DRIVE = 3 };

struct run {
	const char *policy;
	uint64_t buffer_bytes;
	uint32_t threshold, page, fua;
	const char *trace_name, *format;
	struct trace t;
	uint64_t footprint_sectors;
	char dir[256], image[320];
};

/* what the replay measured, for the CSV row and the report */
struct result {
	size_t reads, writes;
	uint64_t bytes_read, bytes_written, folded;
	uint64_t resp_sum_ns, service_sum_ns;
	struct ss_emu_counters c0, c1;
	struct ss_buf_params bp;
	struct ss_buf_stats bs;
};

/* the run whose drive image a failure removes */
static const struct run *current;

static void die_status(int status, const char *what, const char *why)
{
	fprintf(stderr, "smartssd-replay: %s: %s\n", what, why);
	if (current && current->image[0]) {
		unlink(current->image);
		rmdir(current->dir);
	}
	exit(status);
}

static void die(const char *what, const char *why)
{
	die_status(EXIT_DRIVE, what, why);
}

static void usage_error(const char *what, const char *why)
{
	die_status(EXIT_USAGE, what, why);
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
	o.buffer_bytes = r->buffer_bytes;
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
			char what[64];

			snprintf(what, sizeof(what), "prefill write at MiB %llu of %llu",
				 (unsigned long long)(off >> 20), (unsigned long long)(bytes >> 20));
			die(what, ss_dev_last_message());
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

static void replay(struct run *r, struct result *res)
{
	static struct ss_dev_extent ext[MAX_EXT];
	static uint8_t buf[1024 * 512];
	struct ss_emu_drive_opts o = drive_opts(r);
	struct ss_emu_counters c, c1;
	struct ss_emu_drive *d = NULL;
	uint32_t next = prepare(r, ext);
	uint64_t done = 0;
	char err[512];

	if (ss_emu_open(r->image, &o, &d, err, sizeof(err)) != 0) {
		die("open", err);
	}
	ss_emu_get_counters(d, &res->c0);
	for (size_t i = 0; i < r->t.n; i++) {
		const struct trace_req *q = &r->t.r[i];
		uint64_t sector = q->lba % r->footprint_sectors, start, service;
		uint32_t sectors = q->sectors;

		if (q->lba + sectors > r->footprint_sectors) {
			res->folded++;
		}
		if (sector + sectors > r->footprint_sectors) {
			sector = r->footprint_sectors - sectors;
		}
		if (q->write) {
			res->writes++;
			res->bytes_written += (uint64_t)sectors * 512;
		} else {
			res->reads++;
			res->bytes_read += (uint64_t)sectors * 512;
		}
		ss_emu_get_counters(d, &c);
		start = q->t_ns > done ? q->t_ns : done;
		submit(d, ext, next, sector, sectors, q->write, (int)r->fua, buf);
		ss_emu_get_counters(d, &c1);
		service = c1.host_now_ns - c.host_now_ns;
		done = start + service;
		res->resp_sum_ns += done - q->t_ns;
		res->service_sum_ns += service;
	}
	ss_emu_buffer_stats(d, &res->bp, &res->bs);
	ss_emu_get_counters(d, &res->c1);
	ss_emu_close(d);
}

static double ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

static double energy_mj(const struct result *x)
{
	const struct ss_emu_counters *a = &x->c0, *b = &x->c1;

	return (double)(b->energy_nand_read_nj - a->energy_nand_read_nj +
			b->energy_nand_program_nj - a->energy_nand_program_nj +
			b->energy_nand_erase_nj - a->energy_nand_erase_nj) / 1e6;
}

static void print_csv(const struct run *r, const struct result *x, FILE *out, int header)
{
	const struct ss_buf_stats *bs = &x->bs;

	if (header) {
		fprintf(out, "trace,policy,buffer_mb,threshold,requests,avg_response_ms,read_hit,"
			     "write_hit,hit_ratio,erases,nand_page_reads,nand_page_programs,"
			     "padding_reads,flushed_pages,w1,w2,w3_4,w5_8,w9_16,w17_32,w33_64,w65,"
			     "energy_nand_mj,final_threshold,block_region_pages,page_kb,fua,"
			     "nv_bypass_pages,nv_read_cached,nv_prefetched,nv_index_misses,"
			     "nv_ftl_flushes,merges,avg_service_ms,buffer_bytes,reads,bytes_read,"
			     "bytes_written,nv_index_hits\n");
	}
	fprintf(out, "%s,%s,%llu,%u,%zu,%.4f,%.4f,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu",
		r->trace_name, r->policy, (unsigned long long)(r->buffer_bytes >> 20), r->threshold,
		r->t.n, ratio(x->resp_sum_ns, r->t.n) / 1e6, ratio(bs->read_hits, bs->read_pages),
		ratio(bs->write_hits, bs->write_pages),
		ratio(bs->read_hits + bs->write_hits, bs->read_pages + bs->write_pages),
		(unsigned long long)(x->c1.block_erases - x->c0.block_erases),
		(unsigned long long)(x->c1.page_reads - x->c0.page_reads),
		(unsigned long long)(x->c1.page_programs - x->c0.page_programs),
		(unsigned long long)bs->padding_reads, (unsigned long long)bs->flushed_pages);
	for (uint32_t i = 0; i < SS_BUF_LEN_BUCKETS; i++) {
		fprintf(out, ",%llu", (unsigned long long)bs->flushes_by_len[i]);
	}
	fprintf(out, ",%.3f,%u,%u", energy_mj(x), bs->threshold, bs->block_region_pages);
	fprintf(out, ",%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%.4f", r->page / 1024, r->fua,
		(unsigned long long)bs->nv_bypass_pages, (unsigned long long)bs->nv_read_cached,
		(unsigned long long)bs->nv_prefetched, (unsigned long long)bs->nv_index_misses,
		(unsigned long long)bs->nv_ftl_flushes, (unsigned long long)bs->merges,
		ratio(x->service_sum_ns, r->t.n) / 1e6);
	fprintf(out, ",%llu,%zu,%llu,%llu,%llu\n", (unsigned long long)r->buffer_bytes, x->reads,
		(unsigned long long)x->bytes_read, (unsigned long long)x->bytes_written,
		(unsigned long long)bs->nv_index_hits);
	fflush(out);
}

static void print_report(const struct run *r, const struct result *x, FILE *out)
{
	static const char *const len_names[SS_BUF_LEN_BUCKETS] = {
		"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+",
	};
	const struct ss_buf_stats *bs = &x->bs;
	char policy[32];

	ss_buf_format_name(&x->bp, policy, sizeof(policy));
	fprintf(out, "trace:            %s (%s)\n", r->trace_name, r->format);
	fprintf(out, "requests:         %zu (%zu reads, %zu writes; read share %.4f)\n", r->t.n,
		x->reads, x->writes, ratio(x->reads, r->t.n));
	fprintf(out, "bytes:            %llu read, %llu written\n",
		(unsigned long long)x->bytes_read, (unsigned long long)x->bytes_written);
	fprintf(out, "drive:            %llu MiB footprint, %u KiB pages, %u x %u, %s\n",
		(unsigned long long)(r->footprint_sectors >> 11), r->page / 1024, CHANNELS, WAYS,
		"kang-smartssd model");
	if (x->folded) {
		fprintf(out, "folded:           %llu requests past the footprint, wrapped onto it\n",
			(unsigned long long)x->folded);
	}
	fprintf(out, "buffer:           %s, %llu bytes (%u pages)%s\n", policy,
		(unsigned long long)r->buffer_bytes, x->bp.pages, r->fua ? ", every write FUA" : "");
	fprintf(out, "avg response:     %.4f ms (avg service %.4f ms, modelled time)\n",
		ratio(x->resp_sum_ns, r->t.n) / 1e6, ratio(x->service_sum_ns, r->t.n) / 1e6);
	fprintf(out, "hit ratio:        %.4f (read %.4f of %llu pages, write %.4f of %llu pages)\n",
		ratio(bs->read_hits + bs->write_hits, bs->read_pages + bs->write_pages),
		ratio(bs->read_hits, bs->read_pages), (unsigned long long)bs->read_pages,
		ratio(bs->write_hits, bs->write_pages), (unsigned long long)bs->write_pages);
	fprintf(out, "erases:           %llu\n",
		(unsigned long long)(x->c1.block_erases - x->c0.block_erases));
	fprintf(out, "nand pages:       %llu read, %llu programmed\n",
		(unsigned long long)(x->c1.page_reads - x->c0.page_reads),
		(unsigned long long)(x->c1.page_programs - x->c0.page_programs));
	fprintf(out, "extra reads:      %llu (padding and merge reads)\n",
		(unsigned long long)bs->padding_reads);
	fprintf(out, "merges:           %llu\n", (unsigned long long)bs->merges);
	fprintf(out, "flushed pages:    %llu; flushes by length (pages):", 
		(unsigned long long)bs->flushed_pages);
	for (uint32_t i = 0; i < SS_BUF_LEN_BUCKETS; i++) {
		fprintf(out, " %s:%llu", len_names[i], (unsigned long long)bs->flushes_by_len[i]);
	}
	fprintf(out, "\n");
	if (ss_buf_nvram_needed(&x->bp, r->page)) {
		fprintf(out, "merge cache:      %llu pages bypassed, %llu read-cached, "
			     "%llu prefetched, %llu FTL flushes\n",
			(unsigned long long)bs->nv_bypass_pages,
			(unsigned long long)bs->nv_read_cached,
			(unsigned long long)bs->nv_prefetched,
			(unsigned long long)bs->nv_ftl_flushes);
		fprintf(out, "index cache:      %llu hits, %llu misses\n",
			(unsigned long long)bs->nv_index_hits,
			(unsigned long long)bs->nv_index_misses);
	}
	if (bs->block_region_pages || x->bp.policy == SS_BUF_HBM) {
		fprintf(out, "hbm:              threshold %u at the end, %u pages in the block "
			     "region\n", bs->threshold, bs->block_region_pages);
	}
	fprintf(out, "energy:           %.3f mJ (NAND read, program, erase)\n", energy_mj(x));
	fflush(out);
}

static uint64_t parse_number(const char *opt, const char *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-') {
		usage_error(opt, "not a whole number");
	}
	return n;
}

/* the trace's span in 512-byte sectors */
static uint64_t span_sectors(const struct trace *t)
{
	uint64_t end = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (t->r[i].lba + t->r[i].sectors > end) {
			end = t->r[i].lba + t->r[i].sectors;
		}
	}
	return end;
}

int main(int argc, char **argv)
{
	struct run r = { .policy = "hbm", .buffer_bytes = 1u << 20, .page = 2048 };
	struct result res;
	struct ss_buf_params check;
	const char *gen = NULL, *spc = NULL, *msr = NULL, *disksim = NULL, *csv = NULL;
	const char *dir = "/tmp";
	size_t requests = 20000;
	uint64_t footprint_mb = 0, asu_mb = 0, max_sectors = 0;
	int header = 0, report = 0;
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
		if (!strcmp(a, "--report")) {
			report = 1;
			continue;
		}
		if (strncmp(a, "--", 2)) {
			usage_error(a, "unexpected argument (the trace is given as --spc, --msr or "
				       "--disksim FILE)");
		}
		if (!v) {
			usage_error(a, "needs a value");
		}
		i++;
		if (!strcmp(a, "--policy")) r.policy = v;
		else if (!strcmp(a, "--buffer-mb")) r.buffer_bytes = parse_number(a, v) << 20;
		else if (!strcmp(a, "--buffer-bytes")) r.buffer_bytes = parse_number(a, v);
		else if (!strcmp(a, "--threshold")) r.threshold = (uint32_t)parse_number(a, v);
		else if (!strcmp(a, "--page-kb")) r.page = (uint32_t)parse_number(a, v) * 1024;
		else if (!strcmp(a, "--gen")) gen = v;
		else if (!strcmp(a, "--requests")) requests = (size_t)parse_number(a, v);
		else if (!strcmp(a, "--footprint-mb")) footprint_mb = parse_number(a, v);
		else if (!strcmp(a, "--asu-mb")) asu_mb = parse_number(a, v);
		else if (!strcmp(a, "--spc")) spc = v;
		else if (!strcmp(a, "--msr")) msr = v;
		else if (!strcmp(a, "--disksim")) disksim = v;
		else if (!strcmp(a, "--csv")) csv = v;
		else if (!strcmp(a, "--dir")) dir = v;
		else usage_error(a, "unknown option");
	}
	if (r.page != 2048 && r.page != 4096) {
		usage_error("--page-kb", "2 or 4");
	}
	memset(&check, 0, sizeof(check));
	if (ss_buf_parse(r.policy, (uint32_t)strlen(r.policy), &check) != 0) {
		usage_error(r.policy, "no such buffer policy (none, lru, fab, bplru, lbclock, hbm, "
				      "nv-wb, nv-sub, nv-sat; the nv-* with +cache, +prefetch or "
				      "+both)");
	}
	if (check.policy != SS_BUF_NONE &&
	    (r.buffer_bytes % r.page || r.buffer_bytes < 2ull * PPB * r.page)) {
		char why[96];

		snprintf(why, sizeof(why), "%llu bytes: a multiple of the %u-byte page, at least "
			 "two %u-page blocks", (unsigned long long)r.buffer_bytes, r.page, PPB);
		usage_error("buffer size", why);
	}
	if (!!gen + !!spc + !!msr + !!disksim != 1) {
		usage_error("trace", "give exactly one of --gen KIND, --spc FILE, --msr FILE, "
				     "--disksim FILE");
	}
	if (gen) {
		int k = trace_kind_parse(gen);

		r.footprint_sectors = (footprint_mb ? footprint_mb : 64) << 11;
		if (k < 0 || trace_generate((enum trace_kind)k, requests, r.footprint_sectors, 42,
					    &r.t)) {
			usage_error(gen, "unknown trace kind (financial, msnfs, exchange, camwebdev, "
					 "synthetic, smullen-exchange, smullen-maps, smullen-msnfs, "
					 "smullen-radius)");
		}
		r.trace_name = gen;
		r.format = "generated";
	} else {
		const char *path = spc ? spc : msr ? msr : disksim;
		FILE *f = fopen(path, "r");

		if (!f) {
			die_status(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_USAGE, path, strerror(errno));
		}
		n = spc ? trace_read_spc(f, asu_mb << 11, &r.t, err, sizeof(err))
		    : msr ? trace_read_msr(f, &r.t, err, sizeof(err))
			  : trace_read_disksim(f, &r.t, err, sizeof(err));
		fclose(f);
		if (n <= 0) {
			usage_error(path, n < 0 ? err : "no requests in the trace");
		}
		r.trace_name = path;
		r.format = spc ? "spc" : msr ? "msr" : "disksim";
		r.footprint_sectors = footprint_mb ? footprint_mb << 11
						   : (span_sectors(&r.t) + 2047) / 2048 * 2048;
	}
	if (r.footprint_sectors == 0) {
		usage_error("--footprint-mb", "must be more than 0");
	}
	for (size_t i = 0; i < r.t.n; i++) {
		if (r.t.r[i].sectors > max_sectors) {
			max_sectors = r.t.r[i].sectors;
		}
	}
	if (max_sectors > r.footprint_sectors) {
		usage_error("--footprint-mb", "smaller than the trace's largest request");
	}
	snprintf(r.dir, sizeof(r.dir), "%s/smartssd_replay.XXXXXX", dir);
	if (!mkdtemp(r.dir)) {
		die_status(EXIT_USAGE, dir, strerror(errno));
	}
	snprintf(r.image, sizeof(r.image), "%s/drive.img", r.dir);
	current = &r;
	if (csv && !(out = fopen(csv, "a"))) {
		die_status(EXIT_USAGE, csv, strerror(errno));
	}
	memset(&res, 0, sizeof(res));
	replay(&r, &res);
	if (report) {
		print_report(&r, &res, out);
	} else {
		print_csv(&r, &res, out, header);
	}
	if (csv) {
		fclose(out);
	}
	unlink(r.image);
	rmdir(r.dir);
	trace_free(&r.t);
	return 0;
}
