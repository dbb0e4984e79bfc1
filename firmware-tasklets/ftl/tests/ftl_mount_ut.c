/* Mount: an unformatted flash, and crash consistency under kill -9. A child process writes,
 * trims and flushes at random, logging each step to the parent through a pipe before it
 * starts it (and each flush or FUA write once acknowledged); the parent kills it at a random
 * moment, mounts, and checks every page: it must hold its last acknowledged content or the
 * content of a step begun after that, never anything else. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ss_rt.h"
#include "ftl_test_env.h"

#define PPB 16u
#define INTERVAL 200u
#define CHILD_MAX_OPS 900u
#define SWEEP_BPD_FIRST 40u
#define SWEEP_BPD_LAST 100u
#define SWEEP_INTERVAL 64u
#define SWEEP_PPB 8u

enum rec_type { R_WRITE = 1, R_TRIM, R_FUA_DONE, R_FLUSH_DONE };

struct rec {
	uint32_t type;
	uint32_t lpn;
	uint64_t version;   /* 0 for a trim */
};

static void test_unformatted(void)
{
	struct ss_geometry g = fte_geo(16, PPB);
	struct fte e;

	fte_create(&e, &g, 0);
	CHECK_EQ(fte_mount(&e), -SS_ENODATA);
	fte_destroy(&e);
}

static void put(int fd, uint32_t type, uint32_t lpn, uint64_t version)
{
	struct rec r = { type, lpn, version };

	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r)) {
		_exit(4);
	}
}

static void child(struct fte *e, int fd, uint64_t seed, uint64_t first_version)
{
	static uint8_t buf[2048];
	uint64_t version = first_version;
	uint32_t cap;

	fte_reopen(e);
	if (fte_mount(e) != 0) {
		_exit(3);
	}
	cap = ss_ftl_capacity_pages(e->ftl);
	for (uint32_t i = 0; i < CHILD_MAX_OPS; i++) {
		uint32_t op = (uint32_t)(fte_rand(&seed) % 100);
		uint32_t lpn = (uint32_t)(fte_rand(&seed) % cap);

		if (op < 84) {
			unsigned fua = op < 4 ? SS_FTL_FUA : 0;

			fte_fill(buf, 2048, lpn, ++version);
			put(fd, R_WRITE, lpn, version);
			int rc = ss_ftl_write(e->ftl, lpn, buf, (enum ss_stream)(lpn % 3), fua);

			if (rc != 0) {
				struct ss_ftl_stats st;

				ss_ftl_get_stats(e->ftl, &st);
				fprintf(stderr, "child: write of lpn %u: %d (%u of %u blocks free)\n", lpn,
					rc, st.free_blocks, st.total_blocks);
				_exit(5);
			}
			if (fua) {
				put(fd, R_FUA_DONE, lpn, version);
			}
		} else if (op < 90) {
			uint32_t n = 1 + (uint32_t)(fte_rand(&seed) % 4);

			n = SS_MIN(n, cap - lpn);
			for (uint32_t k = 0; k < n; k++) {
				put(fd, R_TRIM, lpn + k, 0);
			}
			if (ss_ftl_trim(e->ftl, lpn, n) != 0) {
				_exit(6);
			}
		} else {
			if (ss_ftl_flush(e->ftl) != 0) {
				_exit(7);
			}
			put(fd, R_FLUSH_DONE, 0, 0);
		}
	}
	_exit(0);
}

/* Is `v` an allowed content of `lpn` after a crash at the end of log[0..n)? `base` is the
 * version each page held (durably) before the round. */
static int allowed(const struct rec *log, size_t n, const uint64_t *base, uint32_t lpn,
		   long long v)
{
	size_t last_flush = 0, i;
	uint64_t durable = base[lpn];
	int have_flush = 0;

	for (i = 0; i < n; i++) {
		if (log[i].type == R_FLUSH_DONE) {
			last_flush = i;
			have_flush = 1;
		}
	}
	/* the durable state: every step before the last acknowledged flush */
	for (i = 0; have_flush && i < last_flush; i++) {
		if ((log[i].type == R_WRITE || log[i].type == R_TRIM) && log[i].lpn == lpn) {
			durable = log[i].version;
		}
	}
	/* a FUA write acknowledged later is durable too, and supersedes what came before */
	i = have_flush ? last_flush : 0;
	for (size_t k = i; k < n; k++) {
		if (log[k].type == R_FUA_DONE && log[k].lpn == lpn) {
			durable = log[k].version;
			i = k;
		}
	}
	if (v == (long long)durable) {
		return 1;
	}
	for (size_t k = i; k < n; k++) {
		if ((log[k].type == R_WRITE || log[k].type == R_TRIM) && log[k].lpn == lpn &&
		    (long long)log[k].version == v) {
			/* a write begun before the FUA ack that made `durable` is older than it */
			return !(k < i);
		}
	}
	return 0;
}

static void crash_rounds(struct ss_geometry g)
{
	const char *env = getenv("SS_CRASH_ITERATIONS");
	unsigned iterations = env ? (unsigned)strtoul(env, NULL, 10) : 50;
	static struct rec log[CHILD_MAX_OPS * 6];
	static uint8_t got[2048];
	struct ss_ftl_params p;
	uint64_t rnd = 2024, *base;
	uint32_t cap, max_rf = 0, killed = 0, bad_total = 0, rounds = 0, width;
	struct fte e;

	ss_ftl_default_params(&p);
	p.checkpoint_interval_pages = INTERVAL;
	fte_create(&e, &g, 0);
	CHECK_EQ(fte_format(&e, &p), 0);
	cap = ss_ftl_capacity_pages(e.ftl);
	width = ss_ftl_stripe_dies(e.ftl);
	base = calloc(cap, sizeof(*base));
	fte_close(&e);

	for (unsigned it = 0; it < iterations; it++) {
		uint64_t seed = fte_rand(&rnd);
		size_t want = 1 + (size_t)(fte_rand(&rnd) % (CHILD_MAX_OPS * 2 / 3)), n = 0;
		struct ss_ftl_stats st;
		int fds[2], status;
		uint32_t bad = 0;
		pid_t pid;

		if (pipe(fds) != 0) {
			CHECK(0);
			break;
		}
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			child(&e, fds[1], seed, (uint64_t)(it + 1) << 32);
		}
		close(fds[1]);
		while (n < SS_ARRAY_SIZE(log)) {
			ssize_t r = ss_test_child_read(fds[0], &log[n], sizeof(log[n]), pid,
						       "the child's next operation");

			if (r != (ssize_t)sizeof(log[n])) {
				break;
			}
			if (++n == want) {
				kill(pid, SIGKILL);
				killed++;
			}
		}
		close(fds[0]);
		if (ss_test_child_wait(pid, &status, "the child's end") != 0) {
			break;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
			fprintf(stderr, "round %u: child failed with %d\n", it, WEXITSTATUS(status));
			ss_test_failures++;
			break;
		}
		fte_reopen(&e);
		CHECK_EQ(fte_mount(&e), 0);
		if (e.ftl == NULL) {
			break;
		}
		ss_ftl_get_stats(e.ftl, &st);
		max_rf = SS_MAX(max_rf, st.rollforward_pages);
		for (uint32_t l = 0; l < cap; l++) {
			long long v;

			if (ss_ftl_read(e.ftl, l, got) < 0) {
				v = -1;
			} else {
				v = fte_classify(got, 2048, l);
			}
			if (v < 0 || !allowed(log, n, base, l, v)) {
				if (bad < 5) {
					fprintf(stderr, "round %u: lpn %u reads version %llx (log %zu "
						"steps)\n", it, l, (unsigned long long)v, n);
				}
				bad++;
			} else {
				base[l] = (uint64_t)v;
			}
		}
		bad_total += bad;
		rounds++;
		/* what was read becomes the durable base of the next round */
		CHECK_EQ(ss_ftl_flush(e.ftl), 0);
		if (it % 4 == 3) {
			CHECK_EQ(ss_ftl_unmount(e.ftl), 0);
		}
		fte_close(&e);
		if (bad) {
			break;
		}
	}
	printf("crash consistency, %u x %u dies, %u striped: %u of %u iterations (%u killed "
	       "mid-run), max roll-forward %u pages, %u bad pages\n", g.channels, g.ways,
	       width, rounds, iterations, killed, max_rf, bad_total);
	CHECK_EQ(rounds, iterations);
	CHECK_EQ(bad_total, 0);
	CHECK(killed > 0 || iterations == 0);
	/* mount time is bounded by the checkpoint interval (plus one burst of GC copies) */
	CHECK(max_rf <= INTERVAL + 8 * PPB);
	free(base);
	fte_destroy(&e);
}

/* 64 blocks stripe over 2 of 4 dies; 256 blocks over all 8 dies of 4 channels x 2 ways
 * (and need 4 block-table pages of 85 entries, the last one holding a single entry). */
static void test_crash_consistency(void)
{
	crash_rounds(fte_geo(16, PPB));
}

static void test_crash_consistency_striped(void)
{
	struct ss_geometry g = fte_geo(32, PPB);

	g.ways = 2;
	crash_rounds(g);
}

/* A drive is formatted, shut down and mounted again before its first write, so the
 * checkpoint mount loads describes its own blocks as they were while it was being written:
 * a checkpoint block whose first page comes after the block-table page holding its entry
 * is saved with write pointer 0. Sweep the geometry (at 8 pages a block that is every
 * blocks_per_die from 64 on, where a checkpoint takes two blocks), fill every page in
 * sequence with frequent checkpoints, so released checkpoint blocks are handed out again,
 * and read every page back, also after a remount. The flash refuses a page programmed
 * twice without an erase. */
static uint32_t sweep_check(struct fte *e, uint32_t cap, uint64_t version, uint32_t bpd)
{
	static uint8_t got[2048];
	uint32_t bad = 0;

	for (uint32_t l = 0; l < cap; l++) {
		if (ss_ftl_read(e->ftl, l, got) < 0 || fte_classify(got, 2048, l) != (long long)version) {
			if (bad++ == 0) {
				fprintf(stderr, "blocks_per_die %u: lpn %u does not read back version %llu\n",
					bpd, l, (unsigned long long)version);
			}
		}
	}
	return bad;
}

static void test_remount_fill_sweep(void)
{
	static uint8_t buf[2048];

	for (uint32_t bpd = SWEEP_BPD_FIRST; bpd <= SWEEP_BPD_LAST; bpd++) {
		struct ss_geometry g = fte_geo(bpd, SWEEP_PPB);
		struct ss_ftl_params p;
		uint32_t cap, failed = 0;
		struct fte e;

		ss_ftl_default_params(&p);
		p.checkpoint_interval_pages = SWEEP_INTERVAL;
		fte_create(&e, &g, 0);
		REQUIRE(fte_format(&e, &p) == 0);
		CHECK_EQ(ss_ftl_unmount(e.ftl), 0);
		fte_close(&e);
		fte_reopen(&e);
		REQUIRE(fte_mount(&e) == 0);
		cap = ss_ftl_capacity_pages(e.ftl);
		for (uint32_t l = 0; l < cap && !failed; l++) {
			int rc;

			fte_fill(buf, 2048, l, 1);
			rc = ss_ftl_write(e.ftl, l, buf, SS_STREAM_COLD, 0);
			if (rc != 0) {
				fprintf(stderr, "blocks_per_die %u: write of lpn %u: %d (%s)\n", bpd, l,
					rc, ss_emu_flash_last_error(e.flash));
				failed = 1;
			}
		}
		CHECK_EQ(failed, 0);
		if (!failed) {
			CHECK_EQ(sweep_check(&e, cap, 1, bpd), 0);
			CHECK_EQ(ss_ftl_unmount(e.ftl), 0);
			fte_close(&e);
			fte_reopen(&e);
			REQUIRE(fte_mount(&e) == 0);
			CHECK_EQ(sweep_check(&e, cap, 1, bpd), 0);
		}
		fte_destroy(&e);
	}
}

int main(void)
{
	RUN(test_unformatted);
	RUN(test_remount_fill_sweep);
	RUN(test_crash_consistency);
	RUN(test_crash_consistency_striped);
	return ss_test_failures ? 1 : 0;
}
