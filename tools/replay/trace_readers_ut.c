/* The trace readers on a few lines in each format's documented layout, their refusals,
 * and the generators' shapes against Gong's Table 4.1. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "ss_test.h"
#include "trace.h"

static long read_str(const char *text, int kind, uint64_t asu, struct trace *t, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	long n;

	memset(t, 0, sizeof(*t));
	n = kind == 0 ? trace_read_spc(f, asu, t, err, 256)
	    : kind == 1 ? trace_read_msr(f, t, err, 256)
			: trace_read_disksim(f, t, err, 256);
	fclose(f);
	return n;
}

static int is(const struct trace_req *q, uint64_t t_ns, uint64_t lba, uint32_t sectors, int w)
{
	return q->t_ns == t_ns && q->lba == lba && q->sectors == sectors && q->write == w;
}

int main(void)
{
	struct trace t;
	char err[256];

	/* SPC (Financial1.spc): ASU,LBA,Size,Opcode,Timestamp */
	CHECK(read_str("0,303567,3584,w,0.000000\n"
		       "1,55590,512,r,0.000001\n"
		       "# comment\n\n"
		       "0,9000,4096,R,1.5\n", 0, 1000000, &t, err) == 3);
	CHECK(is(&t.r[0], 0, 303567, 7, 1));
	CHECK(is(&t.r[1], 1000, 1000000 + 55590, 1, 0));
	CHECK(is(&t.r[2], 1500000000, 9000, 8, 0));
	trace_free(&t);
	CHECK(read_str("1,5,512,r,0\n", 0, 0, &t, err) == -1 && strstr(err, "ASU 1"));
	trace_free(&t);
	CHECK(read_str("0,5,512,x,0\n", 0, 0, &t, err) == -1 && strstr(err, "SPC line 1"));
	trace_free(&t);

	/* MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime */
	CHECK(read_str("128166372003061629,exchange,0,Read,3154665472,4096,1332\n"
		       "128166372003061629,exchange,0,Write,1024,1536,100\n"
		       "128166372003161629,exchange,1,Write,512,512,100\n", 1, 0, &t, err) == 3);
	CHECK(is(&t.r[0], 0, 3154665472ull / 512, 8, 0));
	CHECK(is(&t.r[1], 0, 2, 3, 1));
	CHECK(is(&t.r[2], 10000000, 1, 1, 1));   /* 100000 ticks of 100 ns = 10 ms */
	trace_free(&t);
	CHECK(read_str("1,h,0,Erase,0,512,1\n", 1, 0, &t, err) == -1 && strstr(err, "MSR line 1"));
	trace_free(&t);

	/* DiskSim ASCII: arrival_ms device block size flags (bit 0: read) */
	CHECK(read_str("0.000000 0 1000 8 1\n52.5 0 2000 16 0\n", 2, 0, &t, err) == 2);
	CHECK(is(&t.r[0], 0, 1000, 8, 0));
	CHECK(is(&t.r[1], 52500000, 2000, 16, 1));
	trace_free(&t);
	CHECK(read_str("0.0 0 1000\n", 2, 0, &t, err) == -1 && strstr(err, "DiskSim line 1"));
	trace_free(&t);

	/* generators: the write share and mean size of Table 4.1 within a few per cent */
	for (int k = 0; k < TRACE_GONG_KINDS; k++) {
		static const double write[] = { 0.18, 0.33, 0.72, 0.99, 0.70 };
		static const double kb[] = { 3.89, 9.81, 12.01, 8.14, 20.32 };
		double w = 0, s = 0;

		memset(&t, 0, sizeof(t));
		CHECK(trace_generate((enum trace_kind)k, 20000, 1u << 20, 42, &t) == 0);
		for (size_t i = 0; i < t.n; i++) {
			w += t.r[i].write;
			s += t.r[i].sectors / 2.0;
			CHECK(t.r[i].lba + t.r[i].sectors <= (1u << 20));
			CHECK(i == 0 || t.r[i].t_ns >= t.r[i - 1].t_ns);
		}
		w /= (double)t.n;
		s /= (double)t.n;
		if (w < write[k] - 0.02 || w > write[k] + 0.02 || s < kb[k] * 0.9 || s > kb[k] * 1.1) {
			fprintf(stderr, "%s: write share %.3f (table %.2f), mean %.2f KB (table %.2f)\n",
				trace_kind_name((enum trace_kind)k), w, write[k], s, kb[k]);
			ss_test_failures++;
		}
		trace_free(&t);
	}
	/* Smullen Table I: the write share, small writes (under 4 KB, not page-aligned) among
	 * the writes, and overwritten pages among the written ones, within a few per cent */
	for (int k = TRACE_GONG_KINDS; k < TRACE_KINDS; k++) {
		double want_w, want_small, want_over, w = 0, small = 0, unaligned = 0;
		static uint8_t seen[(1u << 24) / 8];   /* 4 KB pages written before */
		double pages = 0, again = 0;

		CHECK(trace_smullen_shape((enum trace_kind)k, &want_w, &want_small, &want_over) == 0);
		memset(&t, 0, sizeof(t));
		memset(seen, 0, sizeof(seen));
		/* a footprint large enough that fresh writes seldom land on written pages */
		CHECK(trace_generate((enum trace_kind)k, 20000, 1u << 24, 42, &t) == 0);
		for (size_t i = 0; i < t.n; i++) {
			const struct trace_req *q = &t.r[i];

			CHECK(q->lba + q->sectors <= (1u << 24));
			if (!q->write)
				continue;
			w++;
			small += q->sectors < 8;
			unaligned += q->sectors < 8 && q->lba / 8 == (q->lba + q->sectors - 1) / 8;
			for (uint64_t p = q->lba / 8; p <= (q->lba + q->sectors - 1) / 8; p++) {
				pages++;
				again += seen[p];
				seen[p] = 1;
			}
		}
		CHECK(unaligned == small);   /* a small write stays within its page */
		small /= w;
		w /= (double)t.n;
		/* "overwritten pages" read as the share of page writes to a page written before */
		again /= pages;
		if (w < want_w - 0.02 || w > want_w + 0.02 || small < want_small - 0.02 ||
		    small > want_small + 0.02 || again < want_over - 0.05 || again > want_over + 0.05) {
			fprintf(stderr, "%s: write share %.3f (Table I %.3f), small %.3f (%.3f), "
				"overwrites %.3f (%.3f)\n", trace_kind_name((enum trace_kind)k), w,
				want_w, small, want_small, again, want_over);
			ss_test_failures++;
		}
		fprintf(stderr, "%s: write share %.3f, small %.3f, overwrites %.3f\n",
			trace_kind_name((enum trace_kind)k), w, small, again);
		trace_free(&t);
	}
	fprintf(stderr, "%s\n", ss_test_failures ? "FAILED" : "trace readers: all checks passed");
	return ss_test_failures ? 1 : 0;
}
