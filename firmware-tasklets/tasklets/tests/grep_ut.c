/*
 * grep / line count against counts made here: lines straddling pages (some longer than a
 * page), an unterminated last line, empty lines, splits at odd offsets whose counts add up
 * and whose emitted lines concatenate to the whole answer, and bad params.
 */
#include "bt_test.h"

static uint32_t params(uint8_t *p, uint8_t flags, const char *pat)
{
	uint16_t n = (uint16_t)strlen(pat);

	p[0] = flags;
	p[1] = 0;
	ss_put_le16(p + 2, n);
	memcpy(p + 4, pat, n);
	return 4u + n;
}

static const struct ss_layout text = {
	.kind = SS_LAYOUT_TEXT, .line_delim = '\n', .field_sep = ' ', .record_size = 20000,
};

int main(void)
{
	struct tenv *e = bt_env();
	size_t cap = 400000, at = 0, nexp = 0;
	char *txt = malloc(cap), *exp = malloc(cap);
	uint64_t lines = 0, hits = 0;
	uint8_t prm[64];
	uint32_t plen;

	while (at < cap - 20000) {
		size_t start = at;
		uint32_t len = (uint32_t)(rnd() % 200);

		if (rnd() % 60 == 0) {
			len = 9000 + (uint32_t)(rnd() % 9000);   /* longer than a page */
		}
		for (uint32_t k = 0; k < len; k++) {
			txt[at++] = (char)('a' + rnd() % 20);
		}
		if (len > 10 && rnd() % 5 == 0) {
			memcpy(txt + start + rnd() % (len - 6), "needle", 6);
		}
		if (memmem(txt + start, at - start, "needle", 6)) {
			memcpy(exp + nexp, txt + start, at - start);
			nexp += at - start;
			exp[nexp++] = '\n';
			hits++;
		}
		txt[at++] = '\n';
		lines++;
	}
	/* an unterminated last line holding the pattern */
	memcpy(txt + at, "last needle", 11);
	at += 11;
	memcpy(exp + nexp, "last needle\n", 12);
	nexp += 12;
	lines++;
	hits++;

	ss_oid_t f = tenv_put(e, "grep.txt", txt, at), out = tenv_output(e, "grep.out");
	uint64_t cuts[6];

	odd_cuts(at, cuts, 5);
	cuts[2] = (uint64_t)(strchr(txt + cuts[2], '\n') - txt) + 1;   /* right at a line start */

	/* count lines (empty pattern), count matches, emit matches: over five splits */
	for (int mode = 0; mode < 3; mode++) {
		uint64_t sum_lines = 0, sum_hits = 0, got = 0;

		plen = params(prm, mode == 2 ? SS_BT_GREP_EMIT : 0, mode == 0 ? "" : "needle");
		for (int s = 0; s < 5; s++) {
			struct ss_isp_input in = { .oid = f, .offset = cuts[s], .length = cuts[s + 1] - cuts[s] };
			uint64_t len, body;
			uint8_t *o = bt_run(e, SS_BT_GREP, prm, plen, &text, 1024, out, &in, 1, &len, NULL);
			struct trailer tr = get_trailer(o, len, SS_BT_GREP, &body);

			sum_lines += tr.records_in;
			sum_hits += tr.aux;
			if (mode == 2) {
				CHECK(got + body <= nexp && memcmp(o, exp + got, body) == 0);
				got += body;
			} else {
				CHECK(body == 0 && tr.items_out == 0);
			}
			free(o);
		}
		CHECK(sum_lines == lines);
		CHECK(sum_hits == (mode == 0 ? lines : hits));
		if (mode == 2) {
			CHECK(got == nexp);
		}
	}

	/* bad params: a FIXED layout, length mismatch, unknown flags, reserved byte */
	{
		struct ss_isp_input in = { .oid = f, .offset = 0, .length = at };

		plen = params(prm, 0, "x");
		bt_fail(e, SS_BT_GREP, prm, plen, &wc_layout, 1024, out, &in, -SS_EINVAL);
		bt_fail(e, SS_BT_GREP, prm, plen + 1, &text, 1024, out, &in, -SS_EINVAL);
		plen = params(prm, 0x40, "x");
		bt_fail(e, SS_BT_GREP, prm, plen, &text, 1024, out, &in, -SS_EINVAL);
		plen = params(prm, 0, "x");
		prm[1] = 1;
		bt_fail(e, SS_BT_GREP, prm, plen, &text, 1024, out, &in, -SS_EINVAL);
		/* a line longer than the layout allows */
		{
			struct ss_layout shortl = text;

			shortl.record_size = 5000;
			plen = params(prm, 0, "x");
			bt_fail(e, SS_BT_GREP, prm, plen, &shortl, 1024, out, &in, -SS_E2BIG);
		}
		bt_store_ok(e, "after-grep-failures");
	}
	free(txt);
	free(exp);
	tenv_close(e);
	printf("grep_ut: ok\n");
	return 0;
}
