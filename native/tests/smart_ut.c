/*
 * SMART health through libatasmart, named by the drive's table, shows what the drive's own
 * counters say: the wear and write attributes match COUNTERS taken at the same quiet
 * moment, the host-written LBAs match what the test wrote, and the power-cycle count
 * follows close/open.
 */
#include <errno.h>
#include <stdlib.h>

#include "devtest.h"
#include "smartssd/smartssd.h"
#include "ut.h"

#define MAX_ATTRS 32

struct snap {
	struct ss_dev_smart h;
	struct ss_dev_smart_attr a[MAX_ATTRS];
	int n;
	struct ss_dev_counters c;
};

static const struct ss_dev_smart_attr *attr(const struct snap *s, uint8_t id)
{
	for (int i = 0; i < s->n; i++)
		if (s->a[i].id == id)
			return &s->a[i];
	return NULL;
}

static uint64_t raw(const struct snap *s, uint8_t id)
{
	const struct ss_dev_smart_attr *a = attr(s, id);

	CHECK(a != NULL);
	return a ? a->raw : 0;
}

/* SMART and COUNTERS at one moment: retried until COUNTERS did not move around SMART
 * (background work may write between two commands), for at most 60 s. */
static int quiet_snapshot(struct ss_dev *d, struct snap *s)
{
	struct ss_dev_counters before;
	long long deadline = ss_devd_spawn_now_ms() + 60000;

	while (ss_devd_spawn_now_ms() < deadline) {
		if (ss_dev_counters(d, &before))
			return -1;
		s->n = ss_dev_smart(d, &s->h, s->a, MAX_ATTRS);
		if (s->n < 0) {
			fprintf(stderr, "smart: %s\n", ss_dev_last_message());
			return -1;
		}
		if (ss_dev_counters(d, &s->c))
			return -1;
		if (before.nand_page_writes == s->c.nand_page_writes &&
		    before.block_erases == s->c.block_erases)
			return 0;
		usleep(1000);
	}
	fprintf(stderr, "smart: background writes did not pause for 60 s\n");
	return -1;
}

static void test_health(struct ss_dev *d)
{
	static uint8_t buf[256 * 1024];
	struct snap s1, s2;
	struct ss_dev_smart h;
	uint64_t oid;

	CHECK_EQ(quiet_snapshot(d, &s1), 0);
	CHECK_EQ(s1.h.overall, SS_DEV_SMART_GOOD);
	CHECK_EQ(s1.h.status_good, 1);
	CHECK_EQ(s1.h.bad_sectors, 0);
	CHECK_EQ(s1.h.nattrs, (uint32_t)s1.n);
	CHECK(s1.n >= 9);

	/* the drive's names and units, libatasmart's names where they mean the same, and
	 * thresholds */
	CHECK(attr(&s1, 5) && !strcmp(attr(&s1, 5)->name, "retired-blocks"));
	CHECK(attr(&s1, 5) && !strcmp(attr(&s1, 5)->unit, "blocks"));
	CHECK(attr(&s1, 5) && !strcmp(attr(&s1, 5)->atasmart_name, "reallocated-sector-count"));
	CHECK(attr(&s1, 9) && !strcmp(attr(&s1, 9)->name, "power-on-hours"));
	CHECK(attr(&s1, 12) && !strcmp(attr(&s1, 12)->name, "power-cycles"));
	CHECK(attr(&s1, 12) && !strcmp(attr(&s1, 12)->atasmart_name, "power-cycle-count"));
	CHECK(attr(&s1, 241) && !strcmp(attr(&s1, 241)->unit, "sectors"));
	CHECK(attr(&s1, 174) && !strcmp(attr(&s1, 174)->name, "unsafe-shutdowns"));
	CHECK(attr(&s1, 174) && !strcmp(attr(&s1, 174)->atasmart_name, ""));
	CHECK(attr(&s1, 5) && attr(&s1, 5)->threshold_valid && attr(&s1, 5)->threshold == 10);
	CHECK(attr(&s1, 5) && attr(&s1, 5)->prefailure);
	CHECK(attr(&s1, 177) && attr(&s1, 177)->current == 100);

	/* the drive's counters, as SMART shows them */
	CHECK_EQ(raw(&s1, 5), s1.c.retired_blocks);
	CHECK_EQ(raw(&s1, 177), s1.c.avg_erase_count);

	/* write 256 KiB in 64 writes of 4 KiB: 512 host LBAs */
	memset(buf, 0x5A, sizeof(buf));
	CHECK_EQ(ss_dev_create(d, "/smart", SS_DEV_FILE, 0, &oid), 0);
	for (int i = 0; i < 64; i++)
		CHECK_EQ(ss_dev_write(d, oid, (uint64_t)i * 4096, buf, 4096, 0), 4096);
	CHECK_EQ(ss_dev_flush(d), 0);
	CHECK_EQ(quiet_snapshot(d, &s2), 0);
	CHECK_EQ(raw(&s2, 241) - raw(&s1, 241), 512);
	CHECK_EQ(raw(&s2, 249) - raw(&s1, 249), s2.c.nand_page_writes - s1.c.nand_page_writes);
	CHECK(s2.c.nand_page_writes > s1.c.nand_page_writes);
	CHECK_EQ(raw(&s2, 177), s2.c.avg_erase_count);
	CHECK_EQ(raw(&s2, 5), s2.c.retired_blocks);

	/* a summary alone, no attributes */
	CHECK_EQ(ss_dev_smart(d, &h, NULL, 0), 0);
	CHECK_EQ(h.nattrs, (uint32_t)s2.n);
	CHECK_EQ(ss_dev_smart(d, NULL, NULL, 0), -EINVAL);
	CHECK_EQ(ss_dev_remove(d, "/smart", 0), 0);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	int unix_mode = !strcmp(transport, "unix");
	struct ss_dev *d = NULL;
	struct devtest t;
	struct snap a, b;

	if (devtest_format(&t, 0))
		return 1;
	if (unix_mode && devtest_start_daemon(&t)) {
		devtest_cleanup(&t);
		return 1;
	}
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	if (!d) {
		devtest_cleanup(&t);
		return 1;
	}
	test_health(d);
	CHECK_EQ(quiet_snapshot(d, &a), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	if (!unix_mode) {
		/* a clean close and reopen is one more power cycle, no unsafe shutdown */
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		if (d) {
			CHECK_EQ(quiet_snapshot(d, &b), 0);
			CHECK_EQ(raw(&b, 12), raw(&a, 12) + 1);
			CHECK_EQ(raw(&b, 174), raw(&a, 174));
			CHECK_EQ(ss_dev_close(d), 0);
		}
	}
	devtest_cleanup(&t);
	return ut_report(unix_mode ? "smart_ut unix" : "smart_ut emu");
}
