/*
 * Block traces for the buffer replay (trace_replay.c): readers for the formats users have
 * and generators shaped like the traces of Gong's and Smullen's evaluations, which are not
 * available here. A request is an arrival time, a 512-byte LBA, a length in sectors and a
 * direction.
 */
#ifndef SS_BENCH_TRACE_H
#define SS_BENCH_TRACE_H

#include <stdint.h>
#include <stdio.h>

struct trace_req {
	uint64_t t_ns;      /* arrival, from the trace's start */
	uint64_t lba;       /* 512-byte sectors */
	uint32_t sectors;
	uint8_t write;
};

struct trace {
	struct trace_req *r;
	size_t n, cap;
};

void trace_free(struct trace *t);

/*
 * Readers. Each takes the whole file, skips blank lines and '#' comments, and stops at the
 * first malformed line with -1 and a message naming the line (err). \return requests read.
 *   SPC (UMass Financial1/2, WebSearch): "ASU,LBA,Size,Opcode,Timestamp": LBA in 512-byte
 *     sectors, Size in bytes, Opcode r/R or w/W, Timestamp in seconds. The ASUs are laid
 *     end to end, each `asu_sectors` long (0: ASU 0 only, others refused).
 *   MSR Cambridge CSV (Exchange, MSNFS, CAMWEBDEV...): "Timestamp,Hostname,DiskNumber,Type,
 *     Offset,Size,ResponseTime": Timestamp in 100 ns Windows ticks, Type Read/Write,
 *     Offset and Size in bytes.
 *   DiskSim ASCII: "arrival_ms device block size flags": block and size in 512-byte
 *     blocks, flags bit 0 set for a read.
 */
long trace_read_spc(FILE *f, uint64_t asu_sectors, struct trace *t, char *err, size_t errlen);
long trace_read_msr(FILE *f, struct trace *t, char *err, size_t errlen);
long trace_read_disksim(FILE *f, struct trace *t, char *err, size_t errlen);

/* Generators shaped by Gong Table 4.1 [Gong 2010, §4.1, p. 40] (mean request size, write
 * share, sequential share, mean inter-arrival time) and Table 4.3 (the DiskSim synthetic
 * trace). The locality that gives hit ratios is not in the tables: chosen here (see
 * trace.c) and the same for every policy.
 * The smullen-* kinds are shaped by Smullen's Table I [Smullen 2010, §III]: the read/write
 * ratio, the share of writes smaller than a 4 KB page (not page-aligned), and the share of
 * written pages written again; sizes, arrival rates and locality are chosen in trace.c. */
enum trace_kind {
	TRACE_FINANCIAL = 0,
	TRACE_MSNFS,
	TRACE_EXCHANGE,
	TRACE_CAMWEBDEV,
	TRACE_SYNTHETIC,
	TRACE_GONG_KINDS,
	TRACE_SM_EXCHANGE = TRACE_GONG_KINDS,
	TRACE_SM_MAPS,
	TRACE_SM_MSNFS,
	TRACE_SM_RADIUS,
	TRACE_KINDS,
};

/** Smullen Table I's figures for a smullen-* kind: write share, small-write share of the
 *  writes, overwritten share of the written pages. \return 0, or -1 for another kind. */
int trace_smullen_shape(enum trace_kind k, double *write, double *small, double *overwritten);

const char *trace_kind_name(enum trace_kind k);
int trace_kind_parse(const char *name);
/** `n` requests over `footprint_sectors`, deterministic for `seed`. */
int trace_generate(enum trace_kind k, size_t n, uint64_t footprint_sectors, uint64_t seed,
		   struct trace *t);

#endif
