/*
 * dram-probe, the calibration of Kang Fig. 6.6: N counted loads per page. Checks the
 * matches against a count made here, that the DRAM accesses charged are exactly N per
 * page on top of a fixed cost, and that modelled ISP time, once compute outweighs the
 * reads, grows linearly with the accesses charged.
 */
#include "bt_test.h"

static uint64_t ref_matches(const uint8_t *d, uint64_t size, uint32_t ps, uint32_t n, uint32_t cmp)
{
	uint64_t m = 0;

	for (uint64_t off = 0; off < size; off += ps) {
		uint32_t words = (uint32_t)SS_MIN((uint64_t)ps, size - off) / 4;

		for (uint32_t i = 0; words && i < n; i++) {
			const uint8_t *p = d + off + 4 * (i % words);

			m += ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			      (uint32_t)p[3] << 24) == cmp;
		}
	}
	return m;
}

int main(void)
{
	static const uint32_t ns[] = { 0, 32, 128, 256, 1024, 2048, 4096 };
	struct tenv *e = bt_env();
	uint32_t ps = tenv_page_size(e);
	uint64_t pages = 48, size = pages * ps - 100;   /* the last page is partial */
	uint8_t *d = malloc(size);
	ss_oid_t f, out = tenv_output(e, "probe.out");
	struct ss_isp_input in;
	uint64_t dram[SS_ARRAY_SIZE(ns)], t[SS_ARRAY_SIZE(ns)];
	uint8_t prm[8];

	for (uint64_t i = 0; i < size; i += 4) {
		uint32_t v = (uint32_t)(rnd() % 16);

		memcpy(d + i, &v, SS_MIN(4, size - i));
	}
	f = tenv_put(e, "probe.bin", d, size);
	in = (struct ss_isp_input){ .oid = f, .offset = 0, .length = size };

	for (size_t k = 0; k < SS_ARRAY_SIZE(ns); k++) {
		struct ss_isp_progress p;
		uint64_t len, body;
		uint8_t *o;
		struct trailer tr;

		ss_put_le32(prm, ns[k]);
		ss_put_le32(prm + 4, 7);
		o = bt_run(e, SS_BT_DRAM_PROBE, prm, 8, NULL, 256, out, &in, 1, &len, &p);
		tr = get_trailer(o, len, SS_BT_DRAM_PROBE, &body);
		CHECK(p.state == SS_ISP_DONE && body == 0);
		CHECK(tr.records_in == pages && p.pages_done == pages);
		CHECK(tr.aux == ref_matches(d, size, ps, ns[k], 7));
		dram[k] = p.dram_accesses;
		t[k] = p.finished_ns - p.started_ns;
		free(o);
	}
	for (size_t k = 1; k < SS_ARRAY_SIZE(ns); k++) {
		/* exactly N loads per page are charged on top of the run's fixed cost */
		CHECK(dram[k] - dram[0] == pages * ns[k]);
		CHECK(t[k] >= t[k - 1]);
	}
	/* compute-bound from 1024 on: time per charged access is the same between each pair */
	{
		size_t a = 4, b = 5, c = 6;
		double s1 = (double)(t[b] - t[a]) / (double)(dram[b] - dram[a]);
		double s2 = (double)(t[c] - t[b]) / (double)(dram[c] - dram[b]);

		CHECK(t[c] > t[a] && s1 > 0);
		CHECK(s2 > 0.98 * s1 && s2 < 1.02 * s1);
		printf("dram-probe: %.2f ns per access; N=0: %llu ns, N=4096: %llu ns for %llu pages\n",
		       s1, (unsigned long long)t[0], (unsigned long long)t[c], (unsigned long long)pages);
	}
	/* bad params */
	{
		ss_put_le32(prm, SS_BT_PROBE_MAX_ACCESSES + 1);
		bt_fail(e, SS_BT_DRAM_PROBE, prm, 8, NULL, 256, out, &in, -SS_EINVAL);
		bt_fail(e, SS_BT_DRAM_PROBE, prm, 7, NULL, 256, out, &in, -SS_EINVAL);
		/* a step limit below N per page stops it */
		{
			uint32_t id;
			struct ss_isp_progress p;

			ss_put_le32(prm, 4096);
			CHECK(ss_isp_create(tenv_isp(e), SS_BT_DRAM_PROBE, prm, 8, NULL, 256, 10000, out,
					     &id) == 0);
			p = tenv_run(e, id, &in, 1);
			CHECK(p.state == SS_ISP_FAILED && p.error == -SS_ETIME);
			CHECK(ss_isp_destroy(tenv_isp(e), id) == 0);
		}
		bt_store_ok(e, "after-probe-failures");
	}
	free(d);
	tenv_close(e);
	printf("dram_probe_ut: ok\n");
	return 0;
}
