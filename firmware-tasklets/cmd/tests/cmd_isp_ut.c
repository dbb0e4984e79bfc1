/*
 * In-storage processing through the packet protocol: whole tasklet flows (output object,
 * instance, execute, poll while ss_fw_idle works, read the output) checked against answers
 * computed here, and every way creating or running an instance fails, with its reason.
 */
#include <stdlib.h>

#include "fixture.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/tasklet.h"
#include "ss_emu_profile.h"
#include "ss_test_file.h"

#define NREC 20000
#define RECSZ 16

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
}

/* struct ss_wire_create_tasklet (168 bytes) followed by params */
struct ct {
	uint8_t b[168 + 256];
	uint32_t len;
};

static void ct_init(struct ct *c, uint32_t tasklet, uint32_t budget, uint64_t steps,
		    uint64_t output, const void *params, uint32_t plen)
{
	memset(c, 0, sizeof(*c));
	put_le(c->b + 0, tasklet, 4);
	put_le(c->b + 4, budget, 4);
	put_le(c->b + 8, steps, 8);
	put_le(c->b + 16, output, 8);
	put_le(c->b + 24, plen, 4);
	memcpy(c->b + 168, params, plen);
	c->len = 168 + plen;
}

/* layout at 32: kind, delim, sep, nfields, record_size; fields of 8 bytes from 40 */
static void ct_layout(struct ct *c, uint8_t kind, uint8_t nfields, uint32_t record_size)
{
	c->b[32] = kind;
	c->b[33] = '\n';
	c->b[34] = ' ';
	c->b[35] = nfields;
	put_le(c->b + 36, record_size, 4);
}

static void ct_field(struct ct *c, int i, uint16_t offset, uint8_t type, uint8_t width)
{
	uint8_t *f = c->b + 40 + 8 * i;

	put_le(f, offset, 2);
	f[2] = type;
	f[3] = width;
}

static uint64_t create_output(struct fx *f, const char *path)
{
	struct fx_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .flags = SS_CREATE_OBJ_OUTPUT |
				    SS_CREATE_PARENTS, .payload = path,
			    .payload_len = (uint32_t)strlen(path) };
	struct fx_reply r;

	CHECK_EQ(fx_call(f, &p, &r), 0);
	return r.v[0];
}

static int32_t create_instance(struct fx *f, const struct ct *c, uint64_t *inst,
			       uint32_t *reason)
{
	struct fx_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .payload = c->b, .payload_len = c->len };
	struct fx_reply r;
	int32_t st = fx_call(f, &p, &r);

	*inst = r.v[0];
	*reason = r.reason;
	return st;
}

static int32_t execute(struct fx *f, uint64_t inst, uint64_t oid, uint64_t off, uint64_t len,
		       uint32_t *reason)
{
	uint8_t in[24];
	struct fx_pkt p = { .opcode = SS_OP_EXECUTE_OBJECT, .oid = inst, .payload = in,
			    .payload_len = 24 };
	struct fx_reply r;
	int32_t st;

	put_le(in, oid, 8);
	put_le(in + 8, off, 8);
	put_le(in + 16, len, 8);
	st = fx_call(f, &p, &r);
	*reason = r.reason;
	return st;
}

struct prog {
	int32_t status;
	uint32_t reason;
	uint32_t state;
	int32_t error;
	uint64_t pages_done, pages_total, records, output_bytes, instructions, dram_accesses;
	uint8_t *out;
	uint32_t out_len;
};

static void read_object(struct fx *f, uint64_t inst, uint64_t off, uint64_t len, struct prog *pr)
{
	struct fx_pkt p = { .opcode = SS_OP_READ_OBJECT, .oid = inst, .offset = off, .length = len };
	struct fx_reply r;

	memset(pr, 0, sizeof(*pr));
	pr->status = fx_call(f, &p, &r);
	pr->reason = r.reason;
	if (r.payload_len >= 72) {
		pr->state = (uint32_t)le(r.payload, 4);
		pr->error = (int32_t)le(r.payload + 4, 4);
		pr->pages_done = le(r.payload + 8, 8);
		pr->pages_total = le(r.payload + 16, 8);
		pr->records = le(r.payload + 24, 8);
		pr->output_bytes = le(r.payload + 32, 8);
		pr->instructions = le(r.payload + 40, 8);
		pr->dram_accesses = le(r.payload + 48, 8);
		CHECK_EQ(r.v[0], pr->pages_done);
		CHECK_EQ(r.v[1], pr->pages_total);
		CHECK_EQ(r.v[2], pr->output_bytes);
		pr->out_len = r.payload_len - 72;
		pr->out = malloc(pr->out_len + 1);
		memcpy(pr->out, r.payload + 72, pr->out_len);
	}
}

/* Poll, letting the drive work between polls; \return the final progress. */
static void run_to_end(struct fx *f, uint64_t inst, struct prog *pr)
{
	uint64_t last = 0;
	int polls = 0;

	for (;;) {
		read_object(f, inst, 0, 0, pr);
		free(pr->out);
		pr->out = NULL;
		CHECK(pr->pages_done >= last);
		last = pr->pages_done;
		if (pr->state == 3 || pr->state == 4 || ++polls > 10000) {
			break;
		}
		/* a run queued or under way is background work the firmware reports */
		CHECK(ss_fw_background_pending(f->fw) & SS_FW_BG_ISP);
		ss_fw_idle(f->fw);
	}
	CHECK(polls <= 10000);
	CHECK_EQ(ss_fw_background_pending(f->fw) & SS_FW_BG_ISP, 0);
}

static uint64_t make_records(struct fx *f, uint64_t *sum, uint64_t *cnt, uint64_t *mn, uint64_t *mx)
{
	uint8_t *recs = calloc(NREC, RECSZ);
	uint64_t oid;

	for (int k = 0; k < 10; k++) {
		cnt[k] = sum[k] = mx[k] = 0;
		mn[k] = UINT64_MAX;
	}
	for (uint32_t i = 0; i < NREC; i++) {
		uint8_t *r = recs + (size_t)i * RECSZ;
		uint32_t key = (i * 7919u) % 10, val = (i * 2654435761u) >> 12;

		r[0] = (uint8_t)key;
		r[4] = (uint8_t)(val >> 24);           /* big-endian u32 */
		r[5] = (uint8_t)(val >> 16);
		r[6] = (uint8_t)(val >> 8);
		r[7] = (uint8_t)val;
		memset(r + 8, 0xEE, 8);
		cnt[key]++;
		sum[key] += val;
		mn[key] = val < mn[key] ? val : mn[key];
		mx[key] = val > mx[key] ? val : mx[key];
	}
	CHECK_EQ(fx_create_path(f, "/in/records", 1, SS_CREATE_PARENTS, &oid), 0);
	CHECK_EQ(fx_write(f, oid, 0, recs, NREC * RECSZ), 0);
	free(recs);
	return oid;
}

static void agg_params(uint8_t *p, uint8_t nkeys)
{
	memset(p, 0, 16);
	p[0] = nkeys;      /* nkeys */
	p[1] = 0;          /* key1 = field 0 */
	p[3] = 1;          /* value = field 1 */
	p[4] = 0xF;        /* COUNT SUM MIN MAX */
}

static void agg_layout(struct ct *c)
{
	ct_layout(c, 1, 2, RECSZ);
	ct_field(c, 0, 0, 1, 0);   /* key: u8 at 0 */
	ct_field(c, 1, 4, 3, 0);   /* value: u32 at 4 */
}

static void test_group_aggregate(struct fx *f)
{
	uint64_t sum[10], cnt[10], mn[10], mx[10], got_sum[10] = { 0 }, got_cnt[10] = { 0 };
	uint64_t got_mn[10], got_mx[10] = { 0 };
	uint64_t in, out, inst, prev;
	uint8_t params[16];
	uint32_t reason;
	struct prog pr, pr2;
	struct ct c;

	in = make_records(f, sum, cnt, mn, mx);
	out = create_output(f, "/out/agg");
	agg_params(params, 1);
	ct_init(&c, 1, 64 * 1024, 0, out, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), 0);
	read_object(f, inst, 0, 0, &pr);
	CHECK_EQ(pr.status, 0);
	CHECK_EQ(pr.state, 1);                      /* created */
	free(pr.out);
	CHECK_EQ(execute(f, inst, in, 0, NREC * RECSZ, &reason), 0);
	/* already queued: a second run is refused */
	CHECK_EQ(execute(f, inst, in, 0, NREC * RECSZ, &reason), -SS_EBUSY);
	CHECK_EQ(reason, SS_R_TASKLET_RUNNING);
	/* polling alone does no tasklet work */
	ss_fw_idle(f->fw);
	read_object(f, inst, 0, 0, &pr);
	read_object(f, inst, 0, 0, &pr2);
	CHECK_EQ(pr.pages_done, pr2.pages_done);
	free(pr.out);
	free(pr2.out);
	prev = pr.pages_done;
	run_to_end(f, inst, &pr);
	CHECK_EQ(pr.status, 0);
	CHECK_EQ(pr.state, 3);
	CHECK(pr.pages_done >= prev);
	CHECK_EQ(pr.pages_total, (NREC * RECSZ + FX_PAGE_SIZE - 1) / FX_PAGE_SIZE);
	CHECK_EQ(pr.pages_done, pr.pages_total);
	CHECK_EQ(pr.records, NREC);

	/* the output: 48-byte items, then a 32-byte trailer */
	read_object(f, inst, 0, pr.output_bytes, &pr2);
	CHECK_EQ(pr2.status, 0);
	CHECK_EQ(pr2.out_len, pr.output_bytes);
	CHECK(pr2.out_len >= 32 && (pr2.out_len - 32) % 48 == 0);
	for (int k = 0; k < 10; k++) {
		got_mn[k] = UINT64_MAX;
	}
	for (uint32_t off = 0; off + 32 < pr2.out_len; off += 48) {
		const uint8_t *it = pr2.out + off;
		uint64_t key = le(it, 8);

		CHECK(key < 10);
		if (key >= 10) {
			continue;
		}
		got_cnt[key] += le(it + 16, 8);
		got_sum[key] += le(it + 24, 8);
		got_mn[key] = le(it + 32, 8) < got_mn[key] ? le(it + 32, 8) : got_mn[key];
		got_mx[key] = le(it + 40, 8) > got_mx[key] ? le(it + 40, 8) : got_mx[key];
	}
	for (int k = 0; k < 10; k++) {
		CHECK_EQ(got_cnt[k], cnt[k]);
		CHECK_EQ(got_sum[k], sum[k]);
		CHECK_EQ(got_mn[k], mn[k]);
		CHECK_EQ(got_mx[k], mx[k]);
	}
	CHECK_EQ(le(pr2.out + pr2.out_len - 32, 4), 0x52545353u);   /* trailer magic */
	CHECK_EQ(le(pr2.out + pr2.out_len - 24, 8), NREC);          /* records in */
	free(pr2.out);
	/* part of the output, from an offset */
	read_object(f, inst, 48, 10, &pr2);
	CHECK_EQ(pr2.out_len, 10);
	free(pr2.out);

	/* the output object is an ordinary object too */
	struct fx_pkt p = { .opcode = SS_OP_STAT, .oid = out };
	struct fx_reply r;

	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[1], pr.output_bytes);
	CHECK_EQ(r.v[2], 3);

	/* DESTROY, and the instance is gone */
	p = (struct fx_pkt){ .opcode = SS_OP_DESTROY_OBJECT, .oid = inst };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	read_object(f, inst, 0, 0, &pr);
	CHECK_EQ(pr.status, -SS_ENOENT);
	CHECK_EQ(pr.reason, SS_R_NO_SUCH_OBJECT);
	CHECK_EQ(fx_call(f, &p, &r), -SS_ENOENT);
	CHECK_EQ(execute(f, inst, in, 0, 100, &reason), -SS_ENOENT);
	CHECK_EQ(reason, SS_R_NO_SUCH_OBJECT);
}

/* grep over text lines: the count and the emitted lines match a scan done here. */
static void test_grep(struct fx *f)
{
	char *text = malloc(200000), *want = malloc(200000);
	size_t len = 0, wlen = 0;
	uint64_t lines = 0, matches = 0, in, out, inst;
	uint8_t params[4 + 3] = { 1, 0, 3, 0, 'E', 'R', 'R' };
	uint32_t reason;
	struct prog pr;
	struct ct c;

	for (int i = 0; len < 150000; i++) {
		char line[96];
		int n = snprintf(line, sizeof(line), "%06d %s request %d took %d ms\n", i,
				 (i % 7 == 3) ? "ERR" : "INFO", i * 31 % 1000, i % 97);

		memcpy(text + len, line, (size_t)n);
		len += (size_t)n;
		lines++;
		if (strstr(line, "ERR")) {
			memcpy(want + wlen, line, (size_t)n);
			wlen += (size_t)n;
			matches++;
		}
	}
	CHECK_EQ(fx_create_path(f, "/in/log.txt", 1, SS_CREATE_PARENTS, &in), 0);
	CHECK_EQ(fx_write(f, in, 0, text, (uint32_t)len), 0);
	out = create_output(f, "/out/grep");
	ct_init(&c, 4, 16 * 1024, 0, out, params, sizeof(params));
	ct_layout(&c, 2, 0, 256);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), 0);
	CHECK_EQ(execute(f, inst, in, 0, len, &reason), 0);
	run_to_end(f, inst, &pr);
	CHECK_EQ(pr.state, 3);
	read_object(f, inst, 0, pr.output_bytes, &pr);
	CHECK_EQ(pr.out_len, wlen + 32);
	CHECK(memcmp(pr.out, want, wlen) == 0);
	CHECK_EQ(le(pr.out + wlen + 8, 8), lines);     /* records_in */
	CHECK_EQ(le(pr.out + wlen + 24, 8), matches);  /* aux */
	free(pr.out);
	/* an instance runs again from scratch: the second half only */
	CHECK_EQ(execute(f, inst, in, len / 2, len, &reason), 0);
	run_to_end(f, inst, &pr);
	CHECK_EQ(pr.state, 3);
	CHECK(pr.records < lines);
	/* length UINT64_MAX: to the object's end, although offset + length overflows; the
	 * same lines as the explicit range above: those starting at or after len / 2 */
	{
		uint64_t second = 0, explicit_records = pr.records;

		for (size_t i = len / 2; i < len; i++) {
			second += text[i - 1] == '\n';
		}
		CHECK_EQ(explicit_records, second);
		CHECK_EQ(execute(f, inst, in, len / 2, UINT64_MAX, &reason), 0);
		run_to_end(f, inst, &pr);
		CHECK_EQ(pr.state, 3);
		CHECK_EQ(pr.records, second);
		/* from 0: every line */
		CHECK_EQ(execute(f, inst, in, 0, UINT64_MAX, &reason), 0);
		run_to_end(f, inst, &pr);
		CHECK_EQ(pr.state, 3);
		CHECK_EQ(pr.records, lines);
		/* a range starting past the end is empty, not an error */
		CHECK_EQ(execute(f, inst, in, len + 4096, UINT64_MAX, &reason), 0);
		run_to_end(f, inst, &pr);
		CHECK_EQ(pr.state, 3);
		CHECK_EQ(pr.records, 0);
		CHECK_EQ(pr.pages_total, 0);
	}
	free(text);
	free(want);
}

static void expect_failed_run(struct fx *f, struct ct *c, uint64_t in, uint32_t want_reason,
			      int32_t want_status)
{
	uint64_t inst;
	uint32_t reason;
	struct prog pr;

	CHECK_EQ(create_instance(f, c, &inst, &reason), 0);
	CHECK_EQ(execute(f, inst, in, 0, NREC * RECSZ, &reason), 0);
	run_to_end(f, inst, &pr);
	CHECK_EQ(pr.state, 4);
	CHECK_EQ(pr.error, want_status);
	CHECK_EQ(pr.status, want_status);
	CHECK_EQ(pr.reason, want_reason);
	struct fx_pkt p = { .opcode = SS_OP_DESTROY_OBJECT, .oid = inst };
	struct fx_reply r;

	CHECK_EQ(fx_call(f, &p, &r), 0);
}

static void test_failures(struct fx *f)
{
	uint64_t in, out, file, dir, inst, insts[20];
	uint8_t params[16];
	uint32_t reason;
	struct ss_ata_result res;
	struct fx_pkt p;
	struct fx_reply r;
	struct ct c;
	int n;

	CHECK_EQ(fx_create_path(f, "/in/records", 1, 0, &in), 0);   /* exists: same oid */
	CHECK_EQ(fx_create_path(f, "/in/plain", 1, 0, &file), 0);
	CHECK_EQ(fx_create_path(f, "/in", 2, 0, &dir), 0);
	out = create_output(f, "/out/fail");
	agg_params(params, 1);

	/* unknown tasklet */
	ct_init(&c, 77, 4096, 0, out, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), -SS_ENOENT);
	CHECK_EQ(reason, SS_R_UNKNOWN_TASKLET);
	/* the output must be an output object */
	ct_init(&c, 1, 4096, 0, file, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), -SS_EINVAL);
	CHECK_EQ(reason, SS_R_BAD_FIELD);
	ct_init(&c, 1, 4096, 0, 987654, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), -SS_ENOENT);
	CHECK_EQ(reason, SS_R_NO_SUCH_OBJECT);
	/* a budget the engine cannot give */
	ct_init(&c, 1, 0x7FFFFFFF, 0, out, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), -SS_ENOMEM);
	CHECK_EQ(reason, SS_R_TASKLET_BUDGET);
	/* a record tasklet without a layout */
	ct_init(&c, 1, 4096, 0, out, params, 16);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), -SS_EINVAL);
	CHECK_EQ(reason, SS_R_BAD_LAYOUT);

	/* refused at SEND: layouts and lengths */
	ct_init(&c, 1, 4096, 0, out, params, 16);
	ct_layout(&c, 1, 2, RECSZ);
	ct_field(&c, 0, 0, 1, 0);
	ct_field(&c, 1, 14, 3, 0);                 /* u32 at 14 of a 16-byte record */
	p = (struct fx_pkt){ .opcode = SS_OP_CREATE_OBJECT, .payload = c.b, .payload_len = c.len,
			     .tag = fx_tag(f), .reply_max = 64 };
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	ct_layout(&c, 9, 0, RECSZ);                /* unknown kind */
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	agg_layout(&c);
	put_le(c.b + 40 + 8 + 6, 8 * RECSZ + 1, 2); /* a null flag past the record */
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	put_le(c.b + 40 + 8 + 6, 0, 2);
	agg_layout(&c);
	ct_field(&c, 1, 8, SS_FIELD_DECIMAL, 19);  /* a decimal scale past 18 */
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	ct_layout(&c, SS_LAYOUT_TEXT, 2, RECSZ);   /* typed fields are FIXED only */
	ct_field(&c, 1, 1, SS_FIELD_F64, 0);
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	ct_field(&c, 1, 1, SS_FIELD_DECIMAL + 1, 0); /* past the last type */
	ct_layout(&c, 1, 2, RECSZ);
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LAYOUT));
	agg_layout(&c);
	put_le(c.b + 24, 99, 4);                   /* params_len disagrees */
	p.tag = fx_tag(f);
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	p = (struct fx_pkt){ .opcode = SS_OP_EXECUTE_OBJECT, .oid = 1, .payload = params,
			     .payload_len = 16, .tag = fx_tag(f) };
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	p = (struct fx_pkt){ .opcode = SS_OP_READ_OBJECT, .oid = 1, .reply_max = 71, .tag = fx_tag(f) };
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));

	/* bad parameters: init refuses them when the run starts */
	params[0] = 5;                             /* nkeys > SS_BT_AGG_MAX_KEYS */
	ct_init(&c, 1, 4096, 0, out, params, 16);
	agg_layout(&c);
	expect_failed_run(f, &c, in, SS_R_TASKLET_PARAMS, -SS_EINVAL);
	agg_params(params, 1);
	/* too small a budget */
	ct_init(&c, 1, 16, 0, out, params, 16);
	agg_layout(&c);
	expect_failed_run(f, &c, in, SS_R_TASKLET_BUDGET, -SS_ENOMEM);
	/* past the step limit */
	ct_init(&c, 1, 64 * 1024, 100, out, params, 16);
	agg_layout(&c);
	expect_failed_run(f, &c, in, SS_R_TASKLET_STEPS, -SS_ETIME);
	/* a text line longer than the layout allows: another failure */
	uint8_t gp[4] = { 0, 0, 0, 0 };

	ct_init(&c, 4, 4096, 0, out, gp, 4);
	ct_layout(&c, 2, 0, 4);
	expect_failed_run(f, &c, in, SS_R_TASKLET_FAILED, -SS_E2BIG);
	/* the output cap given at create */
	ct_init(&c, 4, 4096, 0, out, (uint8_t[]){ 1, 0, 0, 0 }, 4);
	ct_layout(&c, 2, 0, 256);
	p = (struct fx_pkt){ .opcode = SS_OP_CREATE_OBJECT, .payload = c.b, .payload_len = c.len,
			     .length = 100 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	inst = r.v[0];
	uint64_t log;

	CHECK_EQ(fx_create_path(f, "/in/log.txt", 1, 0, &log), 0);
	CHECK_EQ(execute(f, inst, log, 0, 100000, &reason), 0);
	struct prog pr;

	run_to_end(f, inst, &pr);
	CHECK_EQ(pr.state, 4);
	CHECK_EQ(pr.status, -SS_ENOSPC);
	CHECK_EQ(pr.reason, SS_R_DRIVE_FULL);
	CHECK(pr.output_bytes <= 100);

	/* inputs: a directory, a missing object */
	ct_init(&c, 1, 4096, 0, out, params, 16);
	agg_layout(&c);
	CHECK_EQ(create_instance(f, &c, &inst, &reason), 0);
	CHECK_EQ(execute(f, inst, dir, 0, 10, &reason), -SS_EISDIR);
	CHECK_EQ(reason, SS_R_IS_DIR);
	CHECK_EQ(execute(f, inst, 55555, 0, 10, &reason), -SS_ENOENT);
	CHECK_EQ(reason, SS_R_NO_SUCH_OBJECT);

	/* the engine's instance table fills: BUSY */
	for (n = 0; n < 20; n++) {
		if (create_instance(f, &c, &insts[n], &reason)) {
			break;
		}
	}
	CHECK(n < 20);
	CHECK_EQ(reason, SS_R_BUSY);
	/* output paths */
	p = (struct fx_pkt){ .opcode = SS_OP_CREATE_OBJECT,
			     .flags = SS_CREATE_OBJ_OUTPUT | SS_CREATE_EXCL, .payload = "/out/fail",
			     .payload_len = 9 };
	CHECK_EQ(fx_call(f, &p, &r), -SS_EEXIST);
	CHECK_EQ(r.reason, SS_R_EXISTS);
	p = (struct fx_pkt){ .opcode = SS_OP_CREATE_OBJECT, .flags = SS_CREATE_OBJ_OUTPUT,
			     .payload = "/nodir/o", .payload_len = 8 };
	CHECK_EQ(fx_call(f, &p, &r), -SS_ENOENT);
}

struct queue {
	uint64_t instances, priced, pages_remaining, backlog_ns, page_ns;
};

static uint8_t queue_payload[32];   /* the last reply's, as sent */

static void isp_queue(struct fx *f, struct queue *q)
{
	struct fx_pkt p = { .opcode = SS_OP_ISP_QUEUE, .reply_max = 32 };
	struct fx_reply r;

	memset(q, 0xEE, sizeof(*q));
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 32);
	if (r.payload_len < 32) {
		return;
	}
	memcpy(queue_payload, r.payload, 32);
	q->instances = le(r.payload, 4);
	q->priced = le(r.payload + 4, 4);
	q->pages_remaining = le(r.payload + 8, 8);
	q->backlog_ns = le(r.payload + 16, 8);
	q->page_ns = le(r.payload + 24, 8);
	CHECK_EQ(r.v[0], q->instances);
	CHECK_EQ(r.v[1], q->pages_remaining);
	CHECK_EQ(r.v[2], q->backlog_ns);
}

/* A progress poll's counted work: pages done, instructions, DRAM accesses; pages total. */
static void counted(struct fx *f, uint64_t inst, uint64_t *pages, uint64_t *insn, uint64_t *dram,
		    uint64_t *total)
{
	struct prog pr;

	read_object(f, inst, 0, 0, &pr);
	CHECK_EQ(pr.status, 0);
	free(pr.out);
	*pages = pr.pages_done;
	*total = pr.pages_total;
	*insn = pr.instructions;
	*dram = pr.dram_accesses;
}

/*
 * ISP_QUEUE: the runs executing, their pages left and the backlog, against figures computed
 * here from each run's progress (its counted work) and the profile's prices, read from the
 * profile: a run part way owes its pages left at its own cost per page so far
 * (left x floor(cost / done)); a run with no page done owes its pages at a page's price
 * (fw_page_overhead_ns). Then nothing once they end; and the frames it refuses.
 */
static void test_isp_queue(struct fx *f)
{
	static uint8_t data[1u << 20];
	struct ss_emu_profile prof;
	struct ss_bt_probe_params probe = { .accesses = 64, .compare = 7 };
	uint64_t in, out_a, out_b, a, b, done, insn, dram, total_a, total_b, cost, want, b_done;
	uint32_t reason;
	char err[256];
	struct ss_ata_result res;
	struct queue q;
	struct prog pr;
	struct ct c;
	int idles = 0;

	CHECK_EQ(ss_emu_profile_load(NULL, &prof, err, sizeof(err)), 0);
	CHECK(prof.fw_page_overhead_ns > 0);
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 13 + (i >> 11));
	}
	CHECK_EQ(fx_create_path(f, "/q/in", 1, SS_CREATE_PARENTS, &in), 0);
	for (uint32_t k = 0; k < 3; k++) {    /* 3 MiB: 384 pages, three slices' work */
		CHECK_EQ(fx_write(f, in, (uint64_t)k * sizeof(data), data, sizeof(data)), 0);
	}
	fx_idle(f);   /* whatever the writes left to do (GC, checkpoints), before the runs */

	isp_queue(f, &q);
	CHECK_EQ(q.instances, 0);
	CHECK_EQ(q.pages_remaining, 0);
	CHECK_EQ(q.backlog_ns, 0);
	CHECK_EQ(q.priced, 1);
	CHECK_EQ(q.page_ns, prof.fw_page_overhead_ns);

	out_a = create_output(f, "/q/a.out");
	out_b = create_output(f, "/q/b.out");
	ct_init(&c, SS_BT_DRAM_PROBE, 4096, 0, out_a, &probe, sizeof(probe));
	CHECK_EQ(create_instance(f, &c, &a, &reason), 0);
	ct_init(&c, SS_BT_DRAM_PROBE, 4096, 0, out_b, &probe, sizeof(probe));
	CHECK_EQ(create_instance(f, &c, &b, &reason), 0);
	/* created, not executed: not in the queue */
	isp_queue(f, &q);
	CHECK_EQ(q.instances, 0);

	CHECK_EQ(execute(f, a, in, 0, UINT64_MAX, &reason), 0);
	counted(f, a, &done, &insn, &dram, &total_a);
	CHECK_EQ(total_a, 3 * sizeof(data) / FX_PAGE_SIZE);
	CHECK_EQ(done, 0);
	isp_queue(f, &q);
	CHECK_EQ(q.instances, 1);
	CHECK_EQ(q.pages_remaining, total_a);
	CHECK_EQ(q.backlog_ns, total_a * prof.fw_page_overhead_ns);
	{
		/* PROTOCOL.md section 8: this reply's payload on a kang-smartssd drive */
		static const uint8_t doc[32] = { 0x01, [4] = 0x01, [8] = 0x80, 0x01,
						 [16] = 0x00, 0xe3, 0x58, [24] = 0x42, 0x3b };

		CHECK(memcmp(queue_payload, doc, 32) == 0);
	}

	/* run a part way: slices until some but not all of its pages are done */
	while (done == 0 && idles++ < 1000) {
		ss_fw_idle(f->fw);
		counted(f, a, &done, &insn, &dram, &total_a);
	}
	CHECK(done > 0 && done < total_a);
	CHECK(insn > 0 && dram >= 64 * done);
	cost = done * prof.fw_page_overhead_ns + (insn * prof.isp_ps_per_instruction + 999) / 1000 +
	       dram * prof.dram_access_ns;
	isp_queue(f, &q);
	CHECK_EQ(q.instances, 1);
	CHECK_EQ(q.pages_remaining, total_a - done);
	CHECK_EQ(q.backlog_ns, (total_a - done) * (cost / done));
	/* b executed now: queued, no page done */
	CHECK_EQ(execute(f, b, in, FX_PAGE_SIZE, 2 * FX_PAGE_SIZE, &reason), 0);
	counted(f, b, &b_done, &insn, &dram, &total_b);
	CHECK_EQ(total_b, 2);
	CHECK_EQ(b_done, 0);
	counted(f, a, &done, &insn, &dram, &total_a);
	cost = done * prof.fw_page_overhead_ns + (insn * prof.isp_ps_per_instruction + 999) / 1000 +
	       dram * prof.dram_access_ns;
	want = (total_a - done) * (cost / done) + total_b * prof.fw_page_overhead_ns;
	isp_queue(f, &q);
	CHECK_EQ(q.instances, 2);
	CHECK_EQ(q.pages_remaining, total_a - done + total_b);
	CHECK_EQ(q.backlog_ns, want);
	/* the same counts, the same figures: polls and queries do no work */
	isp_queue(f, &q);
	CHECK_EQ(q.backlog_ns, want);
	printf("isp queue: %llu of %llu pages done, %llu ns counted, backlog %llu ns\n",
	       (unsigned long long)done, (unsigned long long)total_a, (unsigned long long)cost,
	       (unsigned long long)q.backlog_ns);

	/* first come, first served: b waits for a, so a is done once b is */
	run_to_end(f, b, &pr);
	CHECK_EQ(pr.state, 3);
	read_object(f, a, 0, 0, &pr);
	free(pr.out);
	pr.out = NULL;
	CHECK_EQ(pr.state, 3);
	isp_queue(f, &q);
	CHECK_EQ(q.instances, 0);
	CHECK_EQ(q.pages_remaining, 0);
	CHECK_EQ(q.backlog_ns, 0);

	/* what it does not take: a payload, an oid, offset or length, flags, a short reply */
	{
		struct fx_pkt bad[] = {
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 32, .payload = "x", .payload_len = 1 },
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 32, .oid = a },
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 32, .offset = 1 },
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 32, .length = 1 },
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 32, .flags = 1 },
			{ .opcode = SS_OP_ISP_QUEUE, .reply_max = 31 },
		};
		const uint32_t want_reason[] = { SS_R_BAD_LENGTH, SS_R_BAD_FIELD, SS_R_BAD_FIELD,
						 SS_R_BAD_FIELD, SS_R_BAD_FIELD, SS_R_BAD_FIELD };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			bad[i].tag = fx_tag(f);
			fx_send(f, &bad[i], &res);
			if (!FX_ABORTED(res, want_reason[i])) {
				fprintf(stderr, "bad ISP_QUEUE frame %zu: status %#x reason %llu\n", i,
					res.status, (unsigned long long)res.lba);
			}
			CHECK(FX_ABORTED(res, want_reason[i]));
		}
	}
	for (int i = 0; i < 2; i++) {
		struct fx_pkt p = { .opcode = SS_OP_DESTROY_OBJECT, .oid = i ? b : a };
		struct fx_reply r;

		CHECK_EQ(fx_call(f, &p, &r), 0);
	}
}

/* A file of the parquet-scan vectors (tasklets/tests/pq_vectors), malloc'd. */
static uint8_t *pq_vector(const char *name, uint32_t *len)
{
	char path[512];
	size_t n;
	uint8_t *b;

	snprintf(path, sizeof(path), "%s/%s", PQ_SCAN_VECTORS, name);
	b = ss_test_read_file(path, &n);
	CHECK(n > 0 && n <= UINT32_MAX);
	*len = (uint32_t)n;
	return b;
}

/* One parquet-scan run through the protocol: its final progress (output read when DONE). */
static void pq_run(struct fx *f, uint64_t file, uint64_t out, const uint8_t *plan, uint32_t plen,
		   struct prog *pr)
{
	uint8_t *b = calloc(1, 168 + plen);
	struct fx_pkt p = { .opcode = SS_OP_CREATE_OBJECT, .payload = b, .payload_len = 168 + plen };
	struct fx_pkt d = { .opcode = SS_OP_DESTROY_OBJECT };
	struct fx_reply r;
	uint32_t reason;

	put_le(b + 0, SS_BT_PARQUET_SCAN, 4);
	put_le(b + 4, 1u << 20, 4);
	put_le(b + 16, out, 8);
	put_le(b + 24, plen, 4);
	memcpy(b + 168, plan, plen);
	CHECK_EQ(fx_call(f, &p, &r), 0);
	d.oid = r.v[0];
	CHECK_EQ(execute(f, d.oid, file, 0, UINT64_MAX, &reason), 0);
	run_to_end(f, d.oid, pr);
	if (pr->state == 3) {
		read_object(f, d.oid, 0, pr->output_bytes, pr);
	}
	CHECK_EQ(fx_call(f, &d, &r), 0);
	free(b);
}

/* parquet-scan's failures reach the host as the reasons that name them: a plan the drive
 * cannot execute (INPUT_UNSUPPORTED), bytes that are not Parquet where the plan says
 * (INPUT_MALFORMED), a chunk past the object (PLAN_MISMATCH); the next scan is right. */
static void test_parquet_reasons(struct fx *f)
{
	static const struct {
		const char *what;
		uint32_t at;       /* byte of the plan to set */
		uint8_t v;
		int32_t status;
		uint32_t reason;
	} bad[] = {
		/* the COUNT plan: 24-byte header, 1 column, 3 row groups, then the chunks */
		{ "GZIP codec", 24 + 8 + 24 + 28, 2, -SS_ENOSYS, SS_R_INPUT_UNSUPPORTED },
		{ "SNAPPY said UNCOMPRESSED", 24 + 8 + 24 + 32 + 28, 0, -SS_EILSEQ,
		  SS_R_INPUT_MALFORMED },
		{ "chunk past the object", 24 + 8 + 24 + 64 + 3, 0x40, -SS_ENODATA,
		  SS_R_PLAN_MISMATCH },
		{ "reserved byte", 20, 1, -SS_EINVAL, SS_R_TASKLET_PARAMS },
	};
	uint32_t flen, plen, elen, v2len, v2plen;
	uint8_t *file = pq_vector("dict_snappy.parquet", &flen);
	uint8_t *plan = pq_vector("dict_snappy-count.plan", &plen);
	uint8_t *want = pq_vector("dict_snappy-count.expect", &elen);
	uint8_t *v2 = pq_vector("v2_snappy.parquet", &v2len);
	uint8_t *v2plan = pq_vector("v2_snappy-count.plan", &v2plen);
	uint8_t *p = malloc(plen);
	uint64_t oid, v2oid, out = create_output(f, "/pq/out");
	struct prog pr;

	CHECK_EQ(fx_create_path(f, "/pq/t.parquet", 1, SS_CREATE_PARENTS, &oid), 0);
	CHECK_EQ(fx_write(f, oid, 0, file, flen), 0);
	CHECK_EQ(fx_create_path(f, "/pq/v2.parquet", 1, 0, &v2oid), 0);
	CHECK_EQ(fx_write(f, v2oid, 0, v2, v2len), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(p, plan, plen);
		p[bad[i].at] = bad[i].v;
		if (bad[i].at >= 24 + 8 + 24 + 64 && bad[i].at < 24 + 8 + 24 + 72) {
			p[bad[i].at + 8] = p[bad[i].at];   /* the dictionary page moves with it */
		}
		pq_run(f, oid, out, p, plen, &pr);
		if (pr.state != 4 || pr.status != bad[i].status ||
		    pr.reason != bad[i].reason) {
			fprintf(stderr, "%s: state %u status %d reason %u\n", bad[i].what, pr.state,
				pr.status, pr.reason);
		}
		CHECK_EQ(pr.state, 4);   /* FAILED */
		CHECK_EQ(pr.status, bad[i].status);
		CHECK_EQ(pr.reason, bad[i].reason);
	}
	pq_run(f, v2oid, out, v2plan, v2plen, &pr);
	CHECK_EQ(pr.state, 4);   /* FAILED */
	CHECK_EQ(pr.reason, SS_R_INPUT_UNSUPPORTED);
	/* still serving: the good plan's answer, DuckDB's */
	pq_run(f, oid, out, plan, plen, &pr);
	CHECK_EQ(pr.state, 3);   /* DONE */
	CHECK_EQ(pr.out_len, elen);
	CHECK(memcmp(pr.out, want, elen) == 0);
	free(pr.out);
	free(p);
	free(file);
	free(plan);
	free(want);
	free(v2);
	free(v2plan);
}

int main(void)
{
	struct fx f;

	fx_create(&f, 0);
	fx_open_session(&f);
	test_parquet_reasons(&f);
	test_isp_queue(&f);
	test_group_aggregate(&f);
	test_grep(&f);
	test_failures(&f);
	/* instances do not outlive a power cycle; outputs do */
	fx_remount(&f);
	fx_open_session(&f);
	struct prog pr;

	read_object(&f, 1, 0, 0, &pr);
	CHECK_EQ(pr.status, -SS_ENOENT);
	struct fx_pkt p = { .opcode = SS_OP_LOOKUP, .payload = "/out/agg", .payload_len = 8 };
	struct fx_reply r;

	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK(r.v[1] > 32);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
