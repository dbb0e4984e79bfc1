/*
 * The engine's tables: the tasklet registry, instances with their pool regions, and the
 * host-facing calls (create, execute, poll, destroy).
 */
#include "isp_internal.h"

#define ISP_ALIGN 8

struct isp_fixed {
	uint64_t isp;
	uint64_t batch;
	uint64_t lbas;
	uint64_t total;
};

static void fixed_layout(uint32_t page_size, struct isp_fixed *f)
{
	f->isp = SS_ALIGN_UP(sizeof(struct ss_isp), ISP_ALIGN);
	f->batch = (uint64_t)SS_ISP_BATCH_PAGES * page_size;
	f->lbas = SS_ALIGN_UP((uint64_t)SS_ISP_BATCH_PAGES * sizeof(uint64_t), ISP_ALIGN);
	f->total = f->isp + 2 * f->batch + 2 * f->lbas + ISP_ALIGN;
}

uint64_t ss_isp_dram_needed(const struct ss_geometry *geo)
{
	struct isp_fixed f;

	fixed_layout(geo->page_size, &f);
	return f.total + SS_ISP_POOL_BYTES;
}

int ss_isp_init(struct ss_isp **out, struct ss_objstore *os, struct ss_hal *hal, void *dram,
		uint64_t dram_size)
{
	struct isp_fixed f;
	struct ss_isp *isp;
	uint8_t *p;
	uintptr_t a;

	if (!out || !os || !hal || !dram || hal->geo.page_size < 512 ||
	    hal->geo.page_size % 512) {
		return -SS_EINVAL;
	}
	fixed_layout(hal->geo.page_size, &f);
	a = SS_ALIGN_UP((uintptr_t)dram, ISP_ALIGN);
	if (dram_size < f.total + hal->geo.page_size) {
		return -SS_ENOMEM;
	}
	p = (uint8_t *)a;
	isp = (struct ss_isp *)p;
	ss_memset(isp, 0, sizeof(*isp));
	isp->os = os;
	isp->hal = hal;
	isp->page_size = hal->geo.page_size;
	isp->watchdog_ms = ISP_WATCHDOG_MS;
	isp->call_work_max = ISP_CALL_WORK_MAX;
	p += f.isp;
	isp->batch[0] = p;
	isp->batch[1] = p + f.batch;
	p += 2 * f.batch;
	isp->lbas[0] = (uint64_t *)p;
	isp->lbas[1] = (uint64_t *)(p + f.lbas);
	p += 2 * f.lbas;
	isp->pool = p;
	isp->pool_size = (uint64_t)((uint8_t *)dram + dram_size - p) & ~(uint64_t)(ISP_ALIGN - 1);
	*out = isp;
	return 0;
}

static bool name_eq(const char *a, const char *b, uint32_t len)
{
	return ss_strnlen(a, SS_NAME_MAX + 1) == len && ss_memcmp(a, b, len) == 0;
}

int ss_isp_register(struct ss_isp *isp, const struct ss_tasklet_desc *d)
{
	if (!d || !d->id || !d->name || !d->init || !d->finish || !d->on_records == !d->on_page ||
	    (d->on_record_runs && !d->on_records)) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < isp->nreg; i++) {
		if (isp->reg[i]->id == d->id ||
		    name_eq(isp->reg[i]->name, d->name, (uint32_t)ss_strnlen(d->name, SS_NAME_MAX + 1))) {
			return -SS_EEXIST;
		}
	}
	if (isp->nreg == SS_ISP_MAX_TASKLETS) {
		return -SS_ENOSPC;
	}
	isp->reg[isp->nreg++] = d;
	return 0;
}

const struct ss_tasklet_desc *ss_isp_find(const struct ss_isp *isp, uint32_t id)
{
	for (uint32_t i = 0; i < isp->nreg; i++) {
		if (isp->reg[i]->id == id) {
			return isp->reg[i];
		}
	}
	return NULL;
}

const struct ss_tasklet_desc *ss_isp_find_name(const struct ss_isp *isp, const char *name,
					       uint32_t len)
{
	for (uint32_t i = 0; i < isp->nreg; i++) {
		if (name_eq(isp->reg[i]->name, name, len)) {
			return isp->reg[i];
		}
	}
	return NULL;
}

bool isp_layout_valid(const struct ss_layout *l)
{
	if (l->nfields > SS_LAYOUT_MAX_FIELDS || l->record_size == 0 ||
	    l->record_size > SS_ISP_MAX_RECORD) {
		return false;
	}
	if (l->kind == SS_LAYOUT_TEXT && l->line_delim == l->field_sep) {
		return false;
	}
	if (l->kind != SS_LAYOUT_FIXED && l->kind != SS_LAYOUT_TEXT) {
		return false;
	}
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct ss_field *f = &l->fields[i];
		uint32_t w = ss_field_width(f);

		if (f->type < SS_FIELD_U8 || f->type > SS_FIELD_DECIMAL || f->shift > 63 ||
		    f->bits > 64) {
			return false;
		}
		if (l->kind == SS_LAYOUT_FIXED && (w == 0 || (uint32_t)f->offset + w > l->record_size)) {
			return false;
		}
		if (f->type > SS_FIELD_BYTES &&
		    (l->kind != SS_LAYOUT_FIXED || f->shift || f->bits ||
		     (f->type == SS_FIELD_DECIMAL ? f->width > 18 : f->width))) {
			return false;
		}
		if (f->null_bit && (l->kind != SS_LAYOUT_FIXED ||
				    (uint32_t)(f->null_bit - 1) / 8 >= l->record_size)) {
			return false;
		}
	}
	return true;
}

struct isp_instance *isp_instance_get(struct ss_isp *isp, uint32_t id)
{
	struct isp_instance *in;

	if (!id) {
		return NULL;
	}
	in = &isp->inst[(id & 0xFF) % SS_ISP_MAX_INSTANCES];
	return in->id == id ? in : NULL;
}

/* First fit between the regions of live instances. */
int isp_region_alloc(struct ss_isp *isp, struct isp_instance *in, uint64_t size)
{
	uint64_t at = 0;
	bool moved = true;

	size = SS_ALIGN_UP(size, ISP_ALIGN);
	while (moved) {
		moved = false;
		for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
			const struct isp_region *r = &isp->inst[i].region;

			if (&isp->inst[i] == in || !isp->inst[i].id || !r->size) {
				continue;
			}
			if (at < r->start + r->size && r->start < at + size) {
				at = r->start + r->size;
				moved = true;
			}
		}
	}
	if (at + size > isp->pool_size || at + size < at) {
		return -SS_ENOMEM;
	}
	in->region.start = at;
	in->region.size = size;
	return 0;
}

void isp_region_free(struct isp_instance *in)
{
	in->region.start = 0;
	in->region.size = 0;
}

static uint32_t params_max(const struct ss_tasklet_desc *d)
{
#ifdef SS_FW_WITHOUT_BPF
	return SS_ISP_MAX_PARAMS;
#else
	return d->params_max ? d->params_max : SS_ISP_MAX_PARAMS;
#endif
}

int ss_isp_create(struct ss_isp *isp, uint32_t tasklet_id, const void *params,
		  uint32_t params_len, const struct ss_layout *layout, uint32_t mem_budget,
		  uint64_t step_limit, ss_oid_t output, uint32_t *instance)
{
	const struct ss_tasklet_desc *d = ss_isp_find(isp, tasklet_id);
	struct isp_instance *in = NULL;
	struct ss_obj_stat st;
	uint64_t carry, outb, pb, total;
	uint8_t *base;
	int rc;

	if (!d) {
		return -SS_ENOENT;
	}
	if (!instance || params_len > params_max(d) || (params_len && !params)) {
		return -SS_EINVAL;
	}
	if (layout ? !isp_layout_valid(layout) : !d->on_page) {
		return -SS_EINVAL;
	}
	rc = ss_os_stat(isp->os, output, &st);
	if (rc) {
		return rc == -SS_ENOENT ? -SS_ENOENT : rc;
	}
	if (st.type != SS_OBJ_OUTPUT) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		if (!isp->inst[i].id) {
			in = &isp->inst[i];
			break;
		}
	}
	if (!in) {
		return -SS_ENOSPC;
	}
	pb = SS_ALIGN_UP((uint64_t)params_len, ISP_ALIGN);
	carry = layout ? SS_ALIGN_UP((uint64_t)layout->record_size, ISP_ALIGN) : 0;
	outb = isp->page_size;
	total = pb + carry + outb + SS_ALIGN_UP((uint64_t)mem_budget, ISP_ALIGN);
	rc = isp_region_alloc(isp, in, total);
	if (rc) {
		return rc;
	}

	base = isp->pool + in->region.start;
	ss_memset(base, 0, pb + carry + outb);
	in->params = base;
	in->params_len = params_len;
	if (params_len) {
		ss_memcpy(in->params, params, params_len);
	}
	in->carry = base + pb;
	in->outbuf = in->carry + carry;
	in->budget_mem = in->outbuf + outb;
	in->budget = mem_budget;
	in->has_layout = layout != NULL;
	if (layout) {
		in->layout = *layout;
	} else {
		ss_memset(&in->layout, 0, sizeof(in->layout));
	}
	in->desc = d;
	in->output = output;
	in->out_limit = UINT64_MAX;
	in->state = SS_ISP_CREATED;
	in->error = 0;
	in->n_in = 0;
	in->started = false;
	ss_memset(&in->prog, 0, sizeof(in->prog));
	ss_memset(&in->ctx, 0, sizeof(in->ctx));
	in->ctx.step_limit = step_limit;
	isp->gen = (isp->gen + 1) & 0xFFFFFF;
	if (!isp->gen) {
		isp->gen = 1;
	}
	in->id = isp->gen << 8 | (uint32_t)(in - isp->inst);
	*instance = in->id;
	return 0;
}

void isp_input_pages(const struct isp_instance *in, uint32_t page_size, uint32_t i,
		     uint64_t *first, uint64_t *end)
{
	struct isp_reader r;
	enum isp_rd_kind kind = !in->desc->on_records ? ISP_RD_PAGES :
				in->layout.kind == SS_LAYOUT_FIXED ? ISP_RD_FIXED : ISP_RD_TEXT;

	isp_reader_begin(&r, kind, &in->layout, page_size, in->in_size[i], in->in[i].offset,
			 in->in[i].length, NULL);
	if (isp_reader_done(&r)) {
		*first = *end = 0;
		return;
	}
	*first = r.rd_start / page_size;
	*end = SS_DIV_ROUND_UP(r.rd_end, page_size);
}

static int queue_run(struct ss_isp *isp, struct isp_instance *in, uint32_t n_inputs);

int ss_isp_execute(struct ss_isp *isp, uint32_t instance, const struct ss_isp_input *inputs,
		   uint32_t n_inputs)
{
	struct isp_instance *in = isp_instance_get(isp, instance);
	struct ss_obj_stat st;
	int rc;

	if (!in) {
		return -SS_ENOENT;
	}
	if (in->state == SS_ISP_RUNNING) {
		return -SS_EBUSY;
	}
	if (!inputs || n_inputs == 0 || n_inputs > SS_ISP_MAX_INPUTS) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < n_inputs; i++) {
		if (inputs[i].oid == in->output) {
			return -SS_EINVAL;
		}
		rc = ss_os_stat(isp->os, inputs[i].oid, &st);
		if (rc) {
			return rc;
		}
		if (st.type != SS_OBJ_FILE && st.type != SS_OBJ_OUTPUT) {
			return -SS_EINVAL;
		}
		in->in[i] = inputs[i];
		in->in_size[i] = st.size;
	}
	rc = queue_run(isp, in, n_inputs);
	in->floor_open = rc == 0;
	return rc;
}

/* Queue a run over the n inputs already in in->in. */
static int queue_run(struct ss_isp *isp, struct isp_instance *in, uint32_t n_inputs)
{
	struct ss_obj_stat st;
	uint64_t total = 0;
	int rc;

	rc = ss_os_stat(isp->os, in->output, &st);
	if (rc) {
		return rc;
	}
	in->out_mtime = st.mtime_ns;
	in->n_in = n_inputs;
	for (uint32_t i = 0; i < n_inputs; i++) {
		uint64_t first, end;

		isp_input_pages(in, isp->page_size, i, &first, &end);
		total += end - first;
	}
	ss_memset(&in->prog, 0, sizeof(in->prog));
	in->prog.pages_total = total;
	in->state = SS_ISP_RUNNING;
	in->error = 0;
	in->queued = isp->queued_next++;
	in->not_before = 0;
	in->floor_open = false;
	in->shared_final = false;
	in->started = false;
	in->input_open = false;
	in->cur = 0;
	return 0;
}

void ss_isp_not_before(struct ss_isp *isp, uint64_t t)
{
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		struct isp_instance *in = &isp->inst[i];

		if (in->id && in->floor_open) {
			in->not_before = t;
			in->floor_open = false;
		}
	}
}

int ss_isp_run_source(struct ss_isp *isp, uint32_t instance, const struct ss_isp_source *src,
		      const struct ss_isp_input *ranges, uint32_t n_ranges)
{
	struct isp_instance *in = isp_instance_get(isp, instance);
	int rc;

	if (!in) {
		return -SS_ENOENT;
	}
	if (in->state == SS_ISP_RUNNING) {
		return -SS_EBUSY;
	}
	if (!src || !src->read || !ranges || n_ranges == 0 || n_ranges > SS_ISP_MAX_INPUTS) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < n_ranges; i++) {
		in->in[i] = ranges[i];
		in->in[i].oid = 0;
		in->in_size[i] = src->size;
	}
	in->src = src;
	rc = queue_run(isp, in, n_ranges);
	if (rc) {
		in->src = NULL;
		return rc;
	}
	ss_hal_set_timeline(isp->hal, SS_HAL_TL_ISP);
	while (in->state == SS_ISP_RUNNING) {
		ss_hal_watchdog_arm(isp->hal, isp->watchdog_ms);
		isp_run(isp, in, SS_ISP_BATCH_PAGES);
	}
	ss_hal_watchdog_arm(isp->hal, 0);
	ss_hal_set_timeline(isp->hal, SS_HAL_TL_HOST);
	in->src = NULL;
	in->shared_final = true;  /* run now, in the calling command: not shared */
	return in->state == SS_ISP_DONE ? 0 : (in->error < 0 ? in->error : -SS_ECANCELED);
}

uint32_t ss_isp_fixed_record_size(struct ss_isp *isp, uint32_t instance)
{
	const struct isp_instance *in = isp_instance_get(isp, instance);

	if (!in || !in->has_layout || !in->desc->on_records ||
	    in->layout.kind != SS_LAYOUT_FIXED) {
		return 0;
	}
	return in->layout.record_size;
}

int ss_isp_poll(struct ss_isp *isp, uint32_t instance, struct ss_isp_progress *p)
{
	struct isp_instance *in = isp_instance_get(isp, instance);

	if (!in || !p) {
		return -SS_ENOENT;
	}
	/* A run computed is reported done once its shared times are fixed (isp_share.c): until
	 * then a run still to be computed may share the core before its end. */
	bool fixed = in->state == SS_ISP_RUNNING || !in->started || isp_share_report(isp, in);

	*p = in->prog;
	p->state = fixed ? in->state : SS_ISP_RUNNING;
	p->error = fixed ? in->error : 0;
	if (!fixed) {
		p->started_ns = 0;
		p->finished_ns = 0;
	}
	return 0;
}

int ss_isp_set_output_limit(struct ss_isp *isp, uint32_t instance, uint64_t max_bytes)
{
	struct isp_instance *in = isp_instance_get(isp, instance);

	if (!in) {
		return -SS_ENOENT;
	}
	if (in->state == SS_ISP_RUNNING) {
		return -SS_EBUSY;
	}
	in->out_limit = max_bytes;
	return 0;
}

int ss_isp_destroy(struct ss_isp *isp, uint32_t instance)
{
	struct isp_instance *in = isp_instance_get(isp, instance);

	if (!in) {
		return -SS_ENOENT;
	}
	isp_region_free(in);
	in->id = 0;
	in->state = 0;
	return 0;
}

uint32_t ss_field_width(const struct ss_field *f)
{
	switch (f->type) {
	case SS_FIELD_U8:
		return 1;
	case SS_FIELD_U16:
		return 2;
	case SS_FIELD_U32:
	case SS_FIELD_I32:
	case SS_FIELD_F32:
	case SS_FIELD_DATE:
		return 4;
	case SS_FIELD_U64:
	case SS_FIELD_I64:
	case SS_FIELD_F64:
	case SS_FIELD_TIMESTAMP:
	case SS_FIELD_DECIMAL:
		return 8;
	case SS_FIELD_BYTES:
		return f->width;
	default:
		return 0;
	}
}

int ss_isp_set_limits(struct ss_isp *isp, uint32_t watchdog_ms, uint64_t call_work_max)
{
	if (isp == NULL || watchdog_ms == 0 || call_work_max == 0) {
		return -SS_EINVAL;
	}
	isp->watchdog_ms = watchdog_ms;
	isp->call_work_max = call_work_max;
	return 0;
}
