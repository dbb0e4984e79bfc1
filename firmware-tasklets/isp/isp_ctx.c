/*
 * The services of smartssd/tasklet.h: field access, counted DRAM loads, steps, the memory
 * budget and output. Everything a tasklet does is counted here so the timing model can
 * charge it.
 */
#include "isp_internal.h"

const struct ss_layout *ss_tasklet_layout(const struct ss_tasklet_ctx *ctx)
{
	return ctx->layout;
}

static void fail(struct ss_tasklet_ctx *ctx, int err)
{
	if (!ctx->err) {
		ctx->err = err;
	}
}

/* Stop the run: fail it and, where the hal has sections, leave the tasklet's callback at
 * once, so that a tasklet ignoring the error cannot go on. */
static void stop(struct ss_tasklet_ctx *ctx, int err)
{
	fail(ctx, err);
	if (ctx->in_call) {
		ss_hal_section_abort(ctx->isp->hal, err);
	}
}

/* The instruction budget of one callback, checked at every service the tasklet calls:
 * counted work, so the stop is deterministic (the same input stops at the same call). */
static void work_check(struct ss_tasklet_ctx *ctx)
{
	if (ctx->insn + ctx->dram - ctx->call_base > ctx->isp->call_work_max) {
		stop(ctx, -SS_ETIME);
	}
}

static bool is_signed(uint8_t type)
{
	return type == SS_FIELD_I32 || type == SS_FIELD_I64 || type > SS_FIELD_BYTES;
}

/* A FIXED record's NULL flag of `f`, counted as one more word of the record read. */
static bool fixed_null(struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
		       const struct ss_field *f)
{
	uint32_t k = (uint32_t)f->null_bit - 1;

	if (!f->null_bit) {
		return false;
	}
	ctx->dram++;
	return k / 8 >= rec->len || (rec->data[k / 8] & (0x80u >> (k % 8)));
}

/* Column `col` of a text line: its start and length, or false when the line is shorter. */
static bool text_column(struct ss_tasklet_ctx *ctx, const struct ss_record *rec, uint32_t col,
			const uint8_t **start, uint32_t *len)
{
	uint8_t sep = ctx->layout->field_sep;
	uint32_t i = 0, c = 0, b = 0;

	for (; i < rec->len; i++) {
		if (rec->data[i] != sep) {
			continue;
		}
		if (c == col) {
			break;
		}
		c++;
		b = i + 1;
	}
	ctx->insn += 2 * (uint64_t)i;
	ctx->dram += SS_DIV_ROUND_UP((uint64_t)i, 4);
	if (c != col) {
		return false;
	}
	*start = rec->data + b;
	*len = i - b;
	return true;
}

/* Decimal text to a 64-bit two's complement value; false when not a number. */
static bool parse_dec(const uint8_t *p, uint32_t n, bool sign_ok, uint64_t *out)
{
	bool neg = false;
	uint64_t v = 0;
	uint32_t i = 0;

	if (n && p[0] == '-' && sign_ok) {
		neg = true;
		i = 1;
	}
	if (i == n) {
		return false;
	}
	for (; i < n; i++) {
		uint64_t d;

		if (p[i] < '0' || p[i] > '9') {
			return false;
		}
		d = (uint64_t)(p[i] - '0');
		if (v > (UINT64_MAX - d) / 10) {
			return false;
		}
		v = v * 10 + d;
	}
	if (sign_ok && (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)) {
		return false;
	}
	*out = neg ? (uint64_t)0 - v : v;
	return true;
}

/* DRAM words a FIXED field of width w at `offset` spans. */
static uint32_t field_words(uint32_t offset, uint32_t w)
{
	return (offset + w - 1) / 4 - offset / 4 + 1;
}

static uint64_t extract(const struct ss_field *f, uint64_t raw)
{
	raw >>= f->shift;
	if (f->bits && f->bits < 64) {
		raw &= ((uint64_t)1 << f->bits) - 1;
	}
	return raw;
}

uint64_t ss_field_u64(struct ss_tasklet_ctx *ctx, const struct ss_record *rec, unsigned field,
		      int *ok)
{
	const struct ss_layout *l = ctx->layout;
	const struct ss_field *f;
	uint64_t raw = 0;
	uint32_t w;

	work_check(ctx);
	if (ok) {
		*ok = 0;
	}
	if (!l || field >= l->nfields) {
		return 0;
	}
	f = &l->fields[field];
	w = f->type == SS_FIELD_BYTES ? 0 : ss_field_width(f);
	if (!w) {
		return 0;
	}
	ctx->insn += ISP_INSN_PER_FIELD;
	if (l->kind == SS_LAYOUT_FIXED) {
		const uint8_t *p = rec->data + f->offset;

		if ((uint32_t)f->offset + w > rec->len || fixed_null(ctx, rec, f)) {
			return 0;
		}
		ctx->dram += field_words(f->offset, w);
		for (uint32_t i = 0; i < w; i++) {
			raw = raw << 8 | p[i];
		}
		if (f->type == SS_FIELD_I32 || f->type == SS_FIELD_DATE) {
			raw = (uint64_t)(int64_t)(int32_t)(uint32_t)raw;
		} else if (f->type == SS_FIELD_F32) {
			raw = ss_f32_key((uint32_t)raw);
		} else if (f->type == SS_FIELD_F64) {
			raw = ss_f64_key(raw);
		}
	} else {
		const uint8_t *p;
		uint32_t n;

		if (!text_column(ctx, rec, f->offset, &p, &n)) {
			return 0;
		}
		ctx->insn += 3 * (uint64_t)n;
		if (!parse_dec(p, n, is_signed(f->type), &raw)) {
			return 0;
		}
		if (w < 8) {
			uint64_t lo = is_signed(f->type) ? (uint64_t)INT32_MIN : 0;
			uint64_t hi = is_signed(f->type) ? (uint64_t)INT32_MAX : (((uint64_t)1 << (8 * w)) - 1);

			if (is_signed(f->type) ? ((int64_t)raw < (int64_t)lo || (int64_t)raw > (int64_t)hi)
					       : raw > hi) {
				return 0;
			}
		}
	}
	if (ok) {
		*ok = 1;
	}
	return extract(f, raw);
}

int64_t ss_field_i64(struct ss_tasklet_ctx *ctx, const struct ss_record *rec, unsigned field,
		     int *ok)
{
	return (int64_t)ss_field_u64(ctx, rec, field, ok);
}

const uint8_t *ss_field_bytes(struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			      unsigned field, uint32_t *len)
{
	const struct ss_layout *l = ctx->layout;
	const struct ss_field *f;
	const uint8_t *p;
	uint32_t w;

	work_check(ctx);
	*len = 0;
	if (!l || field >= l->nfields) {
		return NULL;
	}
	f = &l->fields[field];
	ctx->insn += ISP_INSN_PER_FIELD;
	if (l->kind == SS_LAYOUT_TEXT) {
		if (!text_column(ctx, rec, f->offset, &p, &w)) {
			return NULL;
		}
		*len = w;
		return p;
	}
	w = ss_field_width(f);
	if ((uint32_t)f->offset + w > rec->len || fixed_null(ctx, rec, f)) {
		return NULL;
	}
	*len = w;
	return rec->data + f->offset;
}

int ss_field_reader_init(const struct ss_tasklet_ctx *ctx, unsigned field,
			 struct ss_field_reader *r)
{
	const struct ss_layout *l = ctx->layout;
	const struct ss_field *f;
	uint32_t w;

	if (!l || l->kind != SS_LAYOUT_FIXED || field >= l->nfields) {
		return -SS_EINVAL;
	}
	f = &l->fields[field];
	w = f->type == SS_FIELD_BYTES ? 0 : ss_field_width(f);
	if (!w || (uint32_t)f->offset + w > l->record_size) {
		return -SS_EINVAL;
	}
	r->offset = f->offset;
	r->width = (uint8_t)w;
	r->shift = f->shift;
	r->sign32 = f->type == SS_FIELD_I32 || f->type == SS_FIELD_DATE;
	r->fkey = f->type == SS_FIELD_F32 || f->type == SS_FIELD_F64;
	r->null_byte = f->null_bit ? (uint16_t)((f->null_bit - 1u) / 8) : 0;
	r->null_mask = f->null_bit ? (uint8_t)(0x80u >> ((f->null_bit - 1u) % 8)) : 0;
	r->work = (uint8_t)(ISP_INSN_PER_FIELD + field_words(f->offset, w) + !!f->null_bit);
	r->mask = f->bits && f->bits < 64 ? ((uint64_t)1 << f->bits) - 1 : ~(uint64_t)0;
	return 0;
}

void ss_field_count(struct ss_tasklet_ctx *ctx, unsigned field, uint32_t n)
{
	const struct ss_field *f = &ctx->layout->fields[field];

	work_check(ctx);
	ctx->insn += (uint64_t)n * ISP_INSN_PER_FIELD;
	ctx->dram += (uint64_t)n * field_words(f->offset, ss_field_width(f));
}

uint64_t ss_tasklet_room(const struct ss_tasklet_ctx *ctx, uint64_t *steps)
{
	uint64_t used = ctx->insn + ctx->dram - ctx->call_base;
	uint64_t max = ctx->isp->call_work_max;

	if (!ctx->step_limit) {
		*steps = UINT64_MAX;
	} else {
		*steps = ctx->steps < ctx->step_limit ? ctx->step_limit - ctx->steps : 0;
	}
	return ctx->err ? 0 : used < max ? max - used : 0;
}

uint32_t ss_load32(struct ss_tasklet_ctx *ctx, const void *p)
{
	work_check(ctx);
	ctx->insn++;
	ctx->dram++;
	return ss_get_le32(p);
}

void ss_tasklet_dram(struct ss_tasklet_ctx *ctx, uint32_t n)
{
	/* Tasklet state that fits the controller's on-chip SRAM is placed there: an access
	 * costs a core cycle, not a trip to device DRAM. Page data always sits in DRAM. */
	work_check(ctx);
	if (ctx->budget.size <= SS_ISP_SRAM_STATE_BYTES) {
		ctx->insn += n;
	} else {
		ctx->dram += n;
	}
}

int ss_tasklet_step(struct ss_tasklet_ctx *ctx, uint32_t n)
{
	ctx->insn += n;
	ctx->steps += n;
	if (ctx->step_limit && ctx->steps > ctx->step_limit) {
		stop(ctx, -SS_ETIME);
	}
	work_check(ctx);
	return ctx->err == -SS_ETIME ? -SS_ETIME : 0;
}

void *ss_tasklet_alloc(struct ss_tasklet_ctx *ctx, uint32_t size)
{
	void *p;

	work_check(ctx);
	p = ss_arena_alloc(&ctx->budget, size ? size : 1, 8);
	if (!p) {
		fail(ctx, -SS_ENOMEM);
		return NULL;
	}
	ctx->insn += SS_DIV_ROUND_UP((uint64_t)size, 4);
	ctx->dram += SS_DIV_ROUND_UP((uint64_t)size, 4);
	return p;
}

#ifndef SS_TASKLETS_NO_FAST_PATH
void *ss_tasklet_memo(struct ss_tasklet_ctx *ctx)
{
	return ctx->memo;
}
#endif

uint32_t ss_tasklet_mem_left(const struct ss_tasklet_ctx *ctx)
{
	size_t used = SS_ALIGN_UP(ctx->budget.used, 8);

	return used >= ctx->budget.size ? 0 : (uint32_t)(ctx->budget.size - used) & ~7u;
}

int ss_tasklet_record_origin(const struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			     struct ss_record_origin *o)
{
	uint32_t i;

	if (!ctx->recs || rec < ctx->recs || rec >= ctx->recs + ctx->nrecs) {
		return -SS_EINVAL;
	}
	i = (uint32_t)(rec - ctx->recs);
	o->oid = ctx->cur_oid;
	o->offset = ctx->rec_off[i];
	o->page_offset = o->offset / ctx->page_size * ctx->page_size;
	return 0;
}

#ifndef SS_TASKLETS_NO_PARQUET
int ss_tasklet_page_origin(const struct ss_tasklet_ctx *ctx, struct ss_record_origin *o)
{
	if (!ctx->in_page) {
		return -SS_EINVAL;
	}
	o->oid = ctx->cur_oid;
	o->offset = ctx->page_off;
	o->page_offset = ctx->page_off;
	return 0;
}
#endif

int ss_tasklet_run_record(const struct ss_tasklet_ctx *ctx, const struct ss_record_run *run,
			  uint32_t i, struct ss_record *rec, struct ss_record_origin *o)
{
#ifndef SS_TASKLETS_NO_FAST_PATH
	const struct isp_run_at *at;
	uint32_t size;
	uint64_t off;

	if (!ctx->runs || run < ctx->runs || run >= ctx->runs + ctx->nruns || i >= run->n) {
		return -SS_EINVAL;
	}
	at = &ctx->run_at[run - ctx->runs];
	size = ctx->layout->record_size;
	off = at->off + (uint64_t)i * size;
	rec->data = run->data + (size_t)i * size;
	rec->len = size;
	rec->lba = at->lbas ? at->lbas[(off - at->bo) / ctx->page_size] : at->lba;
	if (o) {
		o->oid = ctx->cur_oid;
		o->offset = off;
		o->page_offset = off / ctx->page_size * ctx->page_size;
	}
	return 0;
#else
	(void)ctx;
	(void)run;
	(void)i;
	(void)rec;
	(void)o;
	return -SS_EINVAL;   /* no runs are delivered in this build */
#endif
}

int ss_tasklet_emit(struct ss_tasklet_ctx *ctx, const void *data, uint32_t len)
{
	struct isp_instance *in = ctx->inst;
	uint32_t ps = ctx->page_size;
	const uint8_t *src = data;
	int rc;

	work_check(ctx);
	if (ctx->err) {
		return ctx->err;
	}
	if (in->out_off + in->out_fill + len > in->out_limit ||
	    in->out_off + in->out_fill + len < in->out_off) {
		fail(ctx, -SS_ENOSPC);
		return -SS_ENOSPC;
	}
	ctx->insn += SS_DIV_ROUND_UP((uint64_t)len, 4);
	ctx->dram += 2 * SS_DIV_ROUND_UP((uint64_t)len, 4);
	while (len) {
		uint32_t n = SS_MIN(len, ps - in->out_fill);

		ss_memcpy(in->outbuf + in->out_fill, src, n);
		in->out_fill += n;
		src += n;
		len -= n;
		if (in->out_fill == ps) {
			/* the store's write must not be cut half way by the watchdog */
			ss_hal_section_mask(ctx->isp->hal, 1);
			rc = isp_output_flush(ctx->isp, in);
			ss_hal_section_mask(ctx->isp->hal, 0);
			if (rc) {
				fail(ctx, rc);
				return rc;
			}
		}
	}
	return 0;
}

void ss_tasklet_set_state(struct ss_tasklet_ctx *ctx, void *state)
{
	ctx->state = state;
}

void *ss_tasklet_state(const struct ss_tasklet_ctx *ctx)
{
	return ctx->state;
}

void isp_ctx_reset(struct ss_isp *isp, struct isp_instance *in)
{
	struct ss_tasklet_ctx *ctx = &in->ctx;
	uint64_t limit = ctx->step_limit;

	ss_memset(ctx, 0, sizeof(*ctx));
	ctx->isp = isp;
	ctx->inst = in;
	ctx->layout = in->has_layout ? &in->layout : NULL;
	ctx->step_limit = limit;
	ctx->page_size = isp->page_size;
	ss_arena_init(&ctx->budget, in->budget_mem, in->budget);
	in->out_fill = 0;
	in->out_off = 0;
}
