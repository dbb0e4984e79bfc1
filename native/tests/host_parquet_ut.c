/*
 * ss_dev_parquet_scan through the host library, in-process (emu) and over smartssd-devd
 * (unix): the Parquet files of firmware-tasklets/tasklets/tests/pq_vectors stored as
 * objects, every plan there run in the drive and its result compared byte for byte with
 * DuckDB's answer (gen_pq_scan.py); then plans the drive refuses, each with its errno and
 * reason, and a right answer after them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devtest.h"
#include "ss_proto.h"
#include "smartssd/smartssd.h"
#include "ut.h"

#define BUDGET (2u << 20)

static uint8_t *slurp(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	uint8_t *b;
	long n;

	snprintf(path, sizeof(path), "%s/%s", PQ_SCAN_VECTORS, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* The file `name` of the vectors as an object of the drive (once). */
static uint64_t file_oid(struct ss_dev *d, const char *name)
{
	static char names[8][64];
	static uint64_t oids[8];
	static int n;
	char path[128];
	size_t len;
	uint8_t *b;

	for (int i = 0; i < n; i++) {
		if (!strcmp(names[i], name))
			return oids[i];
	}
	b = slurp(name, &len);
	snprintf(path, sizeof(path), "/parquet/%s", name);
	CHECK_EQ(ss_dev_create(d, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oids[n]), 0);
	CHECK_EQ(ss_dev_write(d, oids[n], 0, b, len, 0), (int64_t)len);
	free(b);
	snprintf(names[n], sizeof(names[n]), "%s", name);
	return oids[n++];
}

static int scan(struct ss_dev *d, uint64_t out, uint64_t file, const uint8_t *plan, size_t plen,
		uint8_t **res, size_t *rlen, struct ss_dev_progress *p)
{
	struct ss_dev_parquet_scan s = { .file_oid = file, .plan = plan, .plan_len = (uint32_t)plen,
					 .mem_budget = BUDGET, .output_oid = out };

	return ss_dev_parquet_scan(d, &s, res, rlen, p);
}

static void run_plans(struct ss_dev *d, uint64_t out, int *scans)
{
	size_t len;
	uint8_t *list = slurp("scans.txt", &len);
	char *save = NULL, *line;

	list[len] = 0;
	for (line = strtok_r((char *)list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128], file[128], fn[160];
		size_t plen, wlen, rlen = 0;
		uint8_t *plan, *want, *res = NULL;
		struct ss_dev_progress p;

		CHECK_EQ(sscanf(line, "%127s %127s", name, file), 2);
		snprintf(fn, sizeof(fn), "%s.plan", name);
		plan = slurp(fn, &plen);
		if (!strncmp(name, "v2_", 3)) {
			/* v2 data pages: the drive says so, the host reads that file itself */
			CHECK_EQ(scan(d, out, file_oid(d, file), plan, plen, &res, &rlen, &p), -ENOSYS);
			CHECK_EQ(ss_dev_last_reason(), SS_R_INPUT_UNSUPPORTED);
			CHECK(res == NULL);
			free(plan);
			continue;
		}
		snprintf(fn, sizeof(fn), "%s.expect", name);
		want = slurp(fn, &wlen);
		CHECK_EQ(scan(d, out, file_oid(d, file), plan, plen, &res, &rlen, &p), 0);
		CHECK_EQ(p.state, SS_DEV_TASKLET_DONE);
		CHECK(p.instructions > 0 && p.finished_ns > p.started_ns);
		if (rlen != wlen || memcmp(res, want, wlen) != 0) {
			fprintf(stderr, "%s: %zu result bytes, DuckDB's answer %zu\n", name, rlen, wlen);
			CHECK(0);
		}
		(*scans)++;
		free(res);
		free(plan);
		free(want);
	}
	free(list);
}

static void refusals(struct ss_dev *d, uint64_t out)
{
	size_t plen, rlen;
	uint8_t *good = slurp("dict_snappy-count.plan", &plen), *p = malloc(plen), *res = (void *)1;
	uint64_t file = file_oid(d, "dict_snappy.parquet");
	struct ss_dev_progress pr;

	/* the COUNT plan: 24-byte header, 1 column, 3 row groups, then 32-byte chunks */
	memcpy(p, good, plen);
	p[24 + 8 + 24 + 28] = 2;                         /* GZIP */
	CHECK_EQ(scan(d, out, file, p, plen, &res, &rlen, &pr), -ENOSYS);
	CHECK_EQ(ss_dev_last_reason(), SS_R_INPUT_UNSUPPORTED);
	CHECK(strstr(ss_dev_last_message(), "parquet scan") != NULL);
	CHECK(res == NULL && rlen == 0);
	memcpy(p, good, plen);
	p[24 + 8 + 24 + 32 + 28] = 0;                    /* a SNAPPY chunk said uncompressed */
	CHECK_EQ(scan(d, out, file, p, plen, &res, &rlen, &pr), -EILSEQ);
	CHECK_EQ(ss_dev_last_reason(), SS_R_INPUT_MALFORMED);
	CHECK_EQ(pr.state, SS_DEV_TASKLET_FAILED);
	memcpy(p, good, plen);
	p[24 + 8 + 24 + 64 + 3] = 0x40;                  /* a chunk past the object's end, */
	p[24 + 8 + 24 + 64 + 8 + 3] = 0x40;              /* its dictionary page with it */
	CHECK_EQ(scan(d, out, file, p, plen, &res, &rlen, &pr), -ENODATA);
	CHECK_EQ(ss_dev_last_reason(), SS_R_PLAN_MISMATCH);
	CHECK_EQ(scan(d, out, file, good, plen - 1, &res, &rlen, &pr), -EINVAL);
	CHECK_EQ(ss_dev_last_reason(), SS_R_TASKLET_PARAMS);
	CHECK_EQ(scan(d, out, file, good, plen, &res, &rlen, &pr), 0);   /* still right */
	free(res);
	free(p);
	free(good);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	int unix_mode = !strcmp(transport, "unix");
	struct ss_dev *d = NULL;
	struct devtest t;
	uint64_t out;
	int scans = 0;

	if (devtest_format(&t, 0))
		return 1;
	if (unix_mode && devtest_start_daemon(&t)) {
		devtest_cleanup(&t);
		return 1;
	}
	if (ss_dev_open(t.uri, NULL, &d)) {
		fprintf(stderr, "open %s: %s\n", t.uri, ss_dev_last_message());
		devtest_cleanup(&t);
		return 1;
	}
	CHECK_EQ(ss_dev_create_output(d, "/parquet/result", SS_DEV_CREATE_PARENTS, &out), 0);
	run_plans(d, out, &scans);
	CHECK_EQ(scans, 30);
	refusals(d, out);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
	return ut_report(unix_mode ? "host_parquet_ut unix" : "host_parquet_ut emu");
}
