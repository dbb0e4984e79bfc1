/*
 * Helpers shared by the built-in tasklet tests: a WorldCup98-style fixed layout (the 20
 * trace bytes padded to 36 so records straddle pages), a deterministic generator, the
 * reference field decoders (written independently of the engine's), trailer parsing and
 * the engine setup.
 */
#ifndef BT_TEST_H
#define BT_TEST_H

#define _GNU_SOURCE
#include "ss_check.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartssd/builtin_tasklets.h"
#include "ss_isp.h"
#include "tenv.h"

#define WC_RS 36u   /* does not divide any power-of-two page size */

enum wc_field {
	WC_TIME = 0, WC_CLIENT, WC_OBJECT, WC_SIZE, WC_METHOD, WC_STATUS, WC_TYPE, WC_REGION,
	WC_SERVER, WC_DELTA, WC_TAG, WC_NFIELDS
};

static const struct ss_layout wc_layout = {
	.kind = SS_LAYOUT_FIXED,
	.record_size = WC_RS,
	.nfields = WC_NFIELDS,
	.fields = {
		[WC_TIME] = { .offset = 0, .type = SS_FIELD_U32 },
		[WC_CLIENT] = { .offset = 4, .type = SS_FIELD_U32 },
		[WC_OBJECT] = { .offset = 8, .type = SS_FIELD_U32 },
		[WC_SIZE] = { .offset = 12, .type = SS_FIELD_U32 },
		[WC_METHOD] = { .offset = 16, .type = SS_FIELD_U8 },
		[WC_STATUS] = { .offset = 17, .type = SS_FIELD_U8, .bits = 6 },
		[WC_TYPE] = { .offset = 18, .type = SS_FIELD_U8 },
		[WC_REGION] = { .offset = 19, .type = SS_FIELD_U8, .shift = 5, .bits = 3 },
		[WC_SERVER] = { .offset = 19, .type = SS_FIELD_U8, .bits = 5 },
		[WC_DELTA] = { .offset = 20, .type = SS_FIELD_I32 },
		[WC_TAG] = { .offset = 24, .type = SS_FIELD_BYTES, .width = 8 },
	},
};

static uint64_t bt_rng = 88172645463325252ull;

static inline uint64_t rnd(void)
{
	bt_rng ^= bt_rng << 13;
	bt_rng ^= bt_rng >> 7;
	bt_rng ^= bt_rng << 17;
	return bt_rng;
}

static inline uint32_t ref_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

struct wc_rec {
	uint32_t size, object;
	uint8_t type, region, status;
	int32_t delta;
	const uint8_t *tag;
};

static inline struct wc_rec wc_decode(const uint8_t *r)
{
	struct wc_rec w;

	w.object = ref_be32(r + 8);
	w.size = ref_be32(r + 12);
	w.status = r[17] & 63;
	w.type = r[18];
	w.region = r[19] >> 5;
	w.delta = (int32_t)ref_be32(r + 20);
	w.tag = r + 24;
	return w;
}

/* n records; type in [0, ntypes), sizes often repeated (ties) */
static inline uint8_t *wc_make(uint32_t n, uint32_t ntypes)
{
	uint8_t *d = calloc(n, WC_RS);
	static const char *tags[] = { "abcdefgh", "abxxxxxx", "zzzzzzzz", "qabq1234" };

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *r = d + (size_t)i * WC_RS;
		uint32_t size = (uint32_t)(rnd() % 5000);
		int32_t delta = (int32_t)(rnd() % 20001) - 10000;

		if (rnd() % 4 == 0) {
			size = 1000 * (uint32_t)(rnd() % 4);   /* ties */
		}
		r[0] = (uint8_t)(i >> 24); r[1] = (uint8_t)(i >> 16); r[2] = (uint8_t)(i >> 8); r[3] = (uint8_t)i;
		r[8] = (uint8_t)(rnd() % 3); r[11] = (uint8_t)i;
		r[12] = (uint8_t)(size >> 24); r[13] = (uint8_t)(size >> 16);
		r[14] = (uint8_t)(size >> 8); r[15] = (uint8_t)size;
		r[16] = (uint8_t)(rnd() % 3);
		r[17] = (uint8_t)((rnd() % 4) << 6 | (rnd() % 64));
		r[18] = (uint8_t)(rnd() % ntypes);
		r[19] = (uint8_t)((rnd() % 8) << 5 | (rnd() % 32));
		r[20] = (uint8_t)((uint32_t)delta >> 24); r[21] = (uint8_t)((uint32_t)delta >> 16);
		r[22] = (uint8_t)((uint32_t)delta >> 8); r[23] = (uint8_t)delta;
		memcpy(r + 24, tags[rnd() % 4], 8);
	}
	return d;
}

struct trailer {
	uint32_t magic, id;
	uint64_t records_in, items_out, aux;
};

/* The trailer at the end of an output; *body_len receives the bytes before it. */
static inline struct trailer get_trailer(const uint8_t *o, uint64_t len, uint32_t id,
					 uint64_t *body_len)
{
	struct trailer t;
	const uint8_t *p;

	CHECK(len >= 32);
	p = o + len - 32;
	t.magic = ss_get_le32(p);
	t.id = ss_get_le32(p + 4);
	t.records_in = ss_get_le64(p + 8);
	t.items_out = ss_get_le64(p + 16);
	t.aux = ss_get_le64(p + 24);
	CHECK(t.magic == SS_BT_TRAILER_MAGIC && t.id == id);
	*body_len = len - 32;
	return t;
}

static inline struct tenv *bt_env(void)
{
	struct tenv *e = tenv_open();

	CHECK(ss_builtin_tasklets_register(tenv_isp(e)) == 0);
	CHECK(ss_builtin_tasklets_register(tenv_isp(e)) == -SS_EEXIST);
	CHECK(ss_isp_find_name(tenv_isp(e), "group-aggregate", 15)->id == SS_BT_GROUP_AGG);
	return e;
}

/* Create, run over `in`, and return the output (malloc'd) with the final progress. */
static inline uint8_t *bt_run(struct tenv *e, uint32_t id, const void *params, uint32_t plen,
			      const struct ss_layout *lay, uint32_t budget, ss_oid_t out,
			      const struct ss_isp_input *in, uint32_t n, uint64_t *len,
			      struct ss_isp_progress *pp)
{
	struct ss_isp_progress p;
	uint32_t inst;
	uint8_t *o;

	CHECK(ss_isp_create(tenv_isp(e), id, params, plen, lay, budget, 0, out, &inst) == 0);
	p = tenv_run(e, inst, in, n);
	CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
	o = tenv_read(e, out, len);
	if (pp) {
		*pp = p;
	}
	if (p.state != SS_ISP_DONE) {
		fprintf(stderr, "run failed: state %u error %d\n", p.state, p.error);
	}
	return o;
}

/* Expect a run to fail with `err`. */
static inline void bt_fail(struct tenv *e, uint32_t id, const void *params, uint32_t plen,
			   const struct ss_layout *lay, uint32_t budget, ss_oid_t out,
			   const struct ss_isp_input *in, int err)
{
	struct ss_isp_progress p;
	uint32_t inst;

	CHECK(ss_isp_create(tenv_isp(e), id, params, plen, lay, budget, 0, out, &inst) == 0);
	p = tenv_run(e, inst, in, 1);
	if (p.state != SS_ISP_FAILED || p.error != err) {
		fprintf(stderr, "expected failure %d, got state %u error %d\n", err, p.state, p.error);
		abort();
	}
	CHECK(ss_isp_destroy(tenv_isp(e), inst) == 0);
}

/* After a failure the store still reads and writes. */
static inline void bt_store_ok(struct tenv *e, const char *name)
{
	uint8_t buf[3000], *back;
	uint64_t len;
	ss_oid_t oid;

	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] = (uint8_t)rnd();
	}
	oid = tenv_put(e, name, buf, sizeof(buf));
	back = tenv_read(e, oid, &len);
	CHECK(len == sizeof(buf) && memcmp(back, buf, len) == 0);
	free(back);
}

/* Cuts of [0, size) at odd offsets into `n` splits. */
static inline void odd_cuts(uint64_t size, uint64_t *cuts, int n)
{
	cuts[0] = 0;
	cuts[n] = size;
	for (int i = 1; i < n; i++) {
		cuts[i] = size * (uint64_t)i / (uint64_t)n + 13 * (uint64_t)i + 1;
	}
}

#endif
