/*
 * The scheduler: runs instances in slices, batch by batch, with batch k+1 read while
 * batch k is computed, and drives the tasklet's callbacks through a run's life
 * (init, records or pages, finish) or stops it at its first failure.
 */
#include "isp_internal.h"

#include "isp_input.h"

/* A callback's result, with the sticky failures (budget, steps, output) taking priority. */
static int verdict(const struct ss_tasklet_ctx *ctx, int rc)
{
	if (ctx->err) {
		return ctx->err;
	}
	if (rc < 0) {
		return rc;
	}
	return rc > 0 ? SS_TASKLET_DONE : 0;
}

/* One call into a tasklet, run as a hal section: the watchdog, or a budget the tasklet
 * passes in a service (stop() in isp_ctx.c), leaves it at once with an error. */
enum isp_call_kind { CALL_INIT, CALL_RECORDS, CALL_RUNS, CALL_PAGE, CALL_FINISH };

struct isp_call {
	struct isp_instance *in;
	enum isp_call_kind kind;
	const struct ss_record *recs;
	const struct ss_record_run *runs;
	uint32_t n;
	const uint8_t *data;
	uint32_t len;
	uint64_t lba;
};

static int call_fn(void *arg)
{
	struct isp_call *c = arg;
	struct ss_tasklet_ctx *ctx = &c->in->ctx;
	const struct ss_tasklet_desc *d = c->in->desc;

	switch (c->kind) {
	case CALL_INIT:
		return d->init(ctx, c->in->params, c->in->params_len);
	case CALL_RECORDS:
		return d->on_records(ctx, c->recs, c->n);
	case CALL_RUNS:
		return d->on_record_runs(ctx, c->runs, c->n);
	case CALL_PAGE:
		return d->on_page(ctx, c->data, c->len, c->lba);
	case CALL_FINISH:
		return d->finish(ctx);
	}
	return -SS_EINVAL;
}

static int call_tasklet(struct ss_isp *isp, struct isp_call *c)
{
	struct ss_tasklet_ctx *ctx = &c->in->ctx;
	int rc;

	ctx->insn += ISP_INSN_PER_CALL;
	ctx->call_base = ctx->insn + ctx->dram;
	ctx->in_call = true;
	rc = ss_hal_section_run(isp->hal, call_fn, c);
	ctx->in_call = false;
	return rc;
}

static void account(struct ss_isp *isp, struct isp_instance *in, uint32_t pages)
{
	struct ss_tasklet_ctx *ctx = &in->ctx;

	ctx->insn += in->rd.insn + (uint64_t)pages * ISP_INSN_PER_PAGE;
	ctx->dram += in->rd.dram;
	in->rd.insn = 0;
	in->rd.dram = 0;
	if (ctx->insn || ctx->dram || pages) {
		ss_hal_isp_account(isp->hal, ctx->insn, ctx->dram, pages);
	}
	in->prog.instructions += ctx->insn;
	in->prog.dram_accesses += ctx->dram;
	ctx->insn = 0;
	ctx->dram = 0;
}

int isp_output_flush(struct ss_isp *isp, struct isp_instance *in)
{
	int rc;

	if (!in->out_fill) {
		return 0;
	}
	rc = ss_os_write(isp->os, in->output, in->out_off, in->outbuf, in->out_fill, 0,
			 in->out_mtime);
	if (rc) {
		return rc;
	}
	in->out_off += in->out_fill;
	in->out_fill = 0;
	in->prog.output_bytes = in->out_off;
	return 0;
}

void isp_fail(struct ss_isp *isp, struct isp_instance *in, int err)
{
	account(isp, in, 0);
	ss_hal_barrier(isp->hal);
	isp->nrecs = 0;
	in->state = SS_ISP_FAILED;
	in->error = err;
	in->prog.output_bytes = in->out_off;
	in->prog.finished_ns = ss_hal_now_ns(isp->hal);
	isp_share_ended(isp, in);
}

static int deliver(struct ss_isp *isp, struct isp_instance *in)
{
	struct ss_tasklet_ctx *ctx = &in->ctx;
	uint32_t n = isp->nrecs;
	struct isp_call c = { .in = in, .kind = CALL_RECORDS, .recs = isp->recs, .n = n };
	int rc;

	if (!n) {
		return 0;
	}
#ifndef SS_TASKLETS_NO_FAST_PATH
	if (in->runs) {
		c = (struct isp_call){ .in = in, .kind = CALL_RUNS, .runs = isp->runs,
				       .n = isp->nruns };
		ctx->runs = isp->runs;
		ctx->run_at = isp->run_at;
		ctx->nruns = isp->nruns;
	}
#endif
	ctx->recs = c.recs;
	ctx->rec_off = isp->rec_off;
	ctx->nrecs = c.recs ? n : 0;
	rc = call_tasklet(isp, &c);
	isp->nrecs = 0;
	ctx->recs = NULL;
	ctx->nrecs = 0;
#ifndef SS_TASKLETS_NO_FAST_PATH
	ctx->runs = NULL;
	ctx->nruns = 0;
#endif
	in->prog.records += n;
	return verdict(ctx, rc);
}

#ifndef SS_TASKLETS_NO_FAST_PATH
/* `n` records of `size` bytes from `data` at object offset `off`, in the batch at bo
 * (lbas), or one record at `lba` (lbas NULL), onto the batch's runs: the last one grows
 * when they follow it in the same batch. */
static void run_add(struct ss_isp *isp, uint32_t size, const uint8_t *data, uint32_t n,
		    uint64_t off, uint64_t bo, const uint64_t *lbas, uint64_t lba)
{
	if (isp->nrecs == 0) {
		isp->nruns = 0;
	} else {
		struct ss_record_run *last = &isp->runs[isp->nruns - 1];
		const struct isp_run_at *at = &isp->run_at[isp->nruns - 1];

		if (lbas && at->lbas == lbas && at->bo == bo &&
		    last->data + (size_t)last->n * size == data) {
			last->n += n;
			return;
		}
	}
	isp->runs[isp->nruns] = (struct ss_record_run){ data, n };
	isp->run_at[isp->nruns++] = (struct isp_run_at){ off, bo, lbas, lba };
}
#endif

static int sink_flush(void *arg)
{
	struct isp_instance *in = arg;

	return deliver(in->ctx.isp, in);
}

static int sink_emit(void *arg, const uint8_t *data, uint32_t len, uint64_t off, uint64_t lba)
{
	struct isp_instance *in = arg;
	struct ss_tasklet_ctx *ctx = &in->ctx;
	struct ss_isp *isp = ctx->isp;
	struct ss_record *r;

	if (in->desc->on_page) {
		struct isp_call c = { .in = in, .kind = CALL_PAGE, .data = data, .len = len, .lba = lba };
		int rc;

		in->prog.records++;
#ifndef SS_TASKLETS_NO_PARQUET
		ctx->page_off = off;
		ctx->in_page = true;
#endif
		rc = verdict(ctx, call_tasklet(isp, &c));
#ifndef SS_TASKLETS_NO_PARQUET
		ctx->in_page = false;
#endif
		return rc;
	}
#ifndef SS_TASKLETS_NO_FAST_PATH
	if (in->runs) {
		run_add(isp, len, data, 1, off, 0, NULL, lba);
	} else
#endif
	{
		r = &isp->recs[isp->nrecs];
		r->data = data;
		r->len = len;
		r->lba = lba;
		isp->rec_off[isp->nrecs] = off;
	}
	isp->nrecs++;
	ctx->insn += ISP_INSN_PER_RECORD;
	return isp->nrecs == ISP_REC_CHUNK ? deliver(isp, in) : 0;
}

/* Descriptors of `k` records of `size` bytes from object offset `off` in the batch at bo,
 * a page's records at a time (one LBA for all of them). */
static void add_descriptors(struct ss_isp *isp, const uint8_t *buf, uint64_t bo,
			    const uint64_t *lbas, uint64_t off, uint32_t size, uint32_t k)
{
	struct ss_record *r = &isp->recs[isp->nrecs];
	uint64_t *ro = &isp->rec_off[isp->nrecs];
	const uint32_t ps = isp->page_size;
	uint64_t page = (off - bo) / ps;
	uint64_t page_end = bo + (page + 1) * ps;

	for (uint32_t j = 0; j < k;) {
		for (; off >= page_end; page_end += ps) {
			page++;
		}
		const uint64_t lba = lbas[page];
		const uint32_t end = j + (uint32_t)SS_MIN((uint64_t)(k - j),
							 (page_end - off + size - 1) / size);
		const uint8_t *d = buf + (off - bo);

		for (; j < end; j++, off += size, d += size) {
			r[j].data = d;
			r[j].len = size;
			r[j].lba = lba;
			ro[j] = off;
		}
	}
}

static int sink_emit_fixed(void *arg, const uint8_t *buf, uint64_t bo, const uint64_t *lbas,
			   uint64_t off, uint32_t size, uint32_t count, uint32_t *emitted)
{
	struct isp_instance *in = arg;
	struct ss_isp *isp = in->ctx.isp;

	*emitted = 0;
	while (*emitted < count) {
		uint32_t k = SS_MIN(count - *emitted, ISP_REC_CHUNK - isp->nrecs);
		int rc;

#ifndef SS_TASKLETS_NO_FAST_PATH
		if (in->runs) {
			/* no descriptors: ss_tasklet_run_record makes one when it is asked for */
			run_add(isp, size, buf + (off - bo), k, off, bo, lbas, 0);
		} else
#endif
		{
			add_descriptors(isp, buf, bo, lbas, off, size, k);
		}
		off += (uint64_t)k * size;
		isp->nrecs += k;
		*emitted += k;
		in->ctx.insn += (uint64_t)k * ISP_INSN_PER_RECORD;
		if (isp->nrecs == ISP_REC_CHUNK) {
			rc = deliver(isp, in);
			if (rc) {
				return rc;
			}
		}
	}
	return 0;
}

static void open_input(struct ss_isp *isp, struct isp_instance *in)
{
	const struct ss_isp_input *inp = &in->in[in->cur];
	enum isp_rd_kind kind = in->desc->on_page ? ISP_RD_PAGES :
				in->layout.kind == SS_LAYOUT_FIXED ? ISP_RD_FIXED : ISP_RD_TEXT;

	isp_reader_begin(&in->rd, kind, &in->layout, isp->page_size, in->in_size[in->cur],
			 inp->offset, inp->length, in->carry);
#ifndef SS_TASKLETS_NO_FAST_PATH
	in->runs = kind == ISP_RD_FIXED && in->desc->on_record_runs != NULL;
#endif
	in->next_off = in->rd.rd_start / isp->page_size * isp->page_size;
	in->ctx.cur_oid = inp->oid;
	in->input_open = true;
}

static void start_run(struct ss_isp *isp, struct isp_instance *in)
{
	struct ss_tasklet_ctx *ctx = &in->ctx;
	int rc;

	isp_ctx_reset(isp, in);
	in->started = true;
	ss_hal_not_before(isp->hal, in->not_before);
	in->prog.started_ns = ss_hal_now_ns(isp->hal);
	isp_share_started(isp, in);
	rc = ss_os_truncate(isp->os, in->output, 0, in->out_mtime);
	if (rc) {
		isp_fail(isp, in, rc);
		return;
	}
	struct isp_call c = { .in = in, .kind = CALL_INIT };

	rc = verdict(ctx, call_tasklet(isp, &c));
	account(isp, in, 0);
	if (rc < 0) {
		isp_fail(isp, in, rc);
	} else if (rc == SS_TASKLET_DONE) {
		in->cur = in->n_in;
	}
}

static void finish_run(struct ss_isp *isp, struct isp_instance *in)
{
	struct ss_tasklet_ctx *ctx = &in->ctx;
	int rc;

	struct isp_call c = { .in = in, .kind = CALL_FINISH };

	rc = verdict(ctx, call_tasklet(isp, &c));
	if (rc >= 0) {
		rc = isp_output_flush(isp, in);
	}
	if (rc < 0) {
		isp_fail(isp, in, rc);
		return;
	}
	account(isp, in, 0);
	ss_hal_barrier(isp->hal);
	in->state = SS_ISP_DONE;
	in->prog.output_bytes = in->out_off;
	in->prog.finished_ns = ss_hal_now_ns(isp->hal);
	isp_share_ended(isp, in);
}

static int process(struct ss_isp *isp, struct isp_instance *in, const struct isp_batch *b, int slot)
{
	struct isp_sink sink = { .emit = sink_emit, .emit_fixed = sink_emit_fixed,
				 .flush = sink_flush, .arg = in };
	int rc;

	rc = isp_reader_feed(&in->rd, isp->batch[slot], b->off, b->len, isp->lbas[slot], &sink);
	if (!rc) {
		rc = deliver(isp, in);
	}
	isp->nrecs = 0;
	return rc;
}

static void run_batches(struct ss_isp *isp, struct isp_instance *in, uint32_t max_pages,
			struct isp_prefetch *pf)
{
	uint32_t ps = isp->page_size;
	uint32_t slice = max_pages ? max_pages : 1;
	uint32_t left = slice;
	struct isp_batch b;
	int rc, read_rc;

	if (!in->started) {
		start_run(isp, in);
	}
	while (in->state == SS_ISP_RUNNING) {
		if (!in->input_open) {
			if (in->cur >= in->n_in) {
				finish_run(isp, in);
				return;
			}
			open_input(isp, in);
		}
		if (!left) {
			return;
		}
		if (!isp_batch_plan(isp, in, in->next_off, left, false, &b)) {
			in->input_open = false;
			in->cur++;
			continue;
		}
		if (!pf->have || pf->b.off != b.off || pf->b.pages != b.pages) {
			rc = isp_batch_read(isp, in, &b, pf->slot, false);
			if (rc) {
				isp_fail(isp, in, rc);
				return;
			}
			ss_hal_barrier(isp->hal);
		}
		/* Batch k+1's reads are issued before batch k's compute is charged, so the two
		 * overlap on the model's timelines; the barrier below joins them. At a slice's
		 * end the next slice's first batch (slices are alike) is fetched already. */
		pf->have = isp_batch_plan(isp, in, b.off + (uint64_t)b.pages * ps,
					  left > b.pages ? left - b.pages : slice,
					  true, &pf->b);
		if (pf->have) {
			rc = isp_batch_read(isp, in, &pf->b, 1 - pf->slot, true);
			if (rc) {
				ss_os_read_wait(isp->os);
				isp_fail(isp, in, rc);
				return;
			}
		}
		rc = process(isp, in, &b, pf->slot);
		/* Batch k+1's pages arrive while batch k is computed, as on the model's timelines
		 * (on the emulator, copied and checked by another thread): a page of k+1 that fails
		 * its read fails the run after batch k, when its completion is seen. */
		read_rc = pf->have ? ss_os_read_wait(isp->os) : 0;
		account(isp, in, b.pages);
		ss_hal_barrier(isp->hal);
		if (b.tail) {
			in->prog.pages_total += b.pages;
		}
		in->prog.pages_done += b.pages;
		left = left > b.pages ? left - b.pages : 0;
		in->next_off = b.off + (uint64_t)b.pages * ps;
		pf->slot = 1 - pf->slot;
		if (rc < 0) {
			isp_fail(isp, in, rc);
			return;
		}
		if (rc == SS_TASKLET_DONE) {
			/* done without batch k+1: its reads, failed or not, are not needed */
			in->input_open = false;
			in->cur = in->n_in;
			pf->have = false;
		} else if (read_rc < 0) {
			isp_fail(isp, in, read_rc);
			return;
		}
	}
}

void isp_run(struct ss_isp *isp, struct isp_instance *in, uint32_t max_pages)
{
	/* The batch buffers are the engine's: a prefetch is kept only while the instance that
	 * made it is the next to run. */
	struct isp_prefetch pf = { .have = false, .slot = 0 };

	if (isp->pref_owner == in && in->started) {
		pf = isp->pref;
	}
	if (!in->started) {
		isp->pref_owner = NULL;
	}
	run_batches(isp, in, max_pages, &pf);
	isp->pref = pf;
	isp->pref_owner = pf.have && in->state == SS_ISP_RUNNING ? in : NULL;
}

/*
 * Runs are computed first come, first served, each to its end before the next starts.
 * Taking turns instead (round robin) made two runs' modelled times depend on when, in
 * wall-clock time, the second execute reached the drive: it decided where the first run's
 * slices were interleaved with the second's. Turns also cost flash reads: a run's
 * read-ahead batch is dropped when another run takes the core. The core is shared in
 * modelled time instead, from the spans computed here (isp_share.c).
 */
static struct isp_instance *oldest_running(struct ss_isp *isp)
{
	struct isp_instance *first = NULL;

	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		struct isp_instance *in = &isp->inst[i];

		if (in->id && in->state == SS_ISP_RUNNING &&
		    (!first || (int32_t)(in->queued - first->queued) < 0)) {
			first = in;
		}
	}
	return first;
}

int ss_isp_run_slice(struct ss_isp *isp, uint32_t max_pages)
{
	struct isp_instance *in = oldest_running(isp);

	if (!in) {
		return 0;
	}
	ss_hal_set_timeline(isp->hal, SS_HAL_TL_ISP);
	ss_hal_watchdog_arm(isp->hal, isp->watchdog_ms);
	isp_run(isp, in, max_pages);
	ss_hal_watchdog_arm(isp->hal, 0);
	ss_hal_set_timeline(isp->hal, SS_HAL_TL_HOST);
	return ss_isp_busy(isp);
}

int ss_isp_busy(const struct ss_isp *isp)
{
	if (!isp) {
		return 0;
	}
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		if (isp->inst[i].id && isp->inst[i].state == SS_ISP_RUNNING) {
			return 1;
		}
	}
	return 0;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void ss_isp_queue(struct ss_isp *isp, struct ss_isp_queue *q)
{
	ss_memset(q, 0, sizeof(*q));
	q->priced = ss_hal_can_price_isp(isp->hal) ? 1u : 0u;
	q->page_ns = ss_hal_isp_price_ns(isp->hal, 0, 0, 1);
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		const struct isp_instance *in = &isp->inst[i];
		const struct ss_isp_progress *p = &in->prog;
		uint64_t left, per_page, owed;

		if (!in->id || in->state != SS_ISP_RUNNING) {
			continue;
		}
		left = p->pages_total > p->pages_done ? p->pages_total - p->pages_done : 0;
		per_page = p->pages_done ? ss_hal_isp_price_ns(isp->hal, p->instructions,
							       p->dram_accesses, p->pages_done) /
						   p->pages_done
					 : q->page_ns;
		owed = mul_sat(left, per_page);
		q->instances++;
		q->pages_remaining += left;
		q->backlog_ns = q->backlog_ns > UINT64_MAX - owed ? UINT64_MAX : q->backlog_ns + owed;
	}
}
