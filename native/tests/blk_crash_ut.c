/*
 * Crash rounds of the host block target: a child process writes, trims and flushes
 * through ss_blk_* behind a real smartssd-devd, telling the parent over a pipe what it is
 * about to write (before each call) and what became durable (after each FUA write or
 * flush returned: blk.h's definition of acknowledged); the parent SIGKILLs it after a
 * random number of messages, so the kill lands anywhere (in a write, a GC, a checkpoint),
 * and on every other round SIGKILLs the daemon too (a power loss). Then it opens the
 * target again and reads every LBA: each must hold its acknowledged version or one written
 * after it (or zeros, trimmed after it) -- an acknowledged block found older or garbled is
 * 4 KiB lost. The drive is not formatted between rounds, so GC and checkpoints run across
 * them. SS_CRASH_ITERATIONS sets the rounds (default 5).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "blk_test.h"

enum { MSG_WRITE = 1, MSG_TRIM = 2, MSG_DURABLE = 3 };

struct msg {
	uint32_t type;
	uint32_t n;     /* blocks (MSG_TRIM) */
	uint64_t lba;
	uint64_t ver;   /* MSG_WRITE */
};

/* Per LBA: the acknowledged version (0: zeros) and those written since (0 for a trim). */
struct lba_state {
	uint32_t durable;
	uint32_t npending, cap;
	uint32_t *pending;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void send_msg(int fd, uint32_t type, uint64_t lba, uint32_t n, uint64_t ver)
{
	struct msg m = { type, n, lba, ver };

	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(3);
}

/* The child: writes until killed (or a failure, which it reports and exits on). */
static void child(const char *uri, int fd, uint64_t seed, uint32_t ver)
{
	static uint8_t w[8 * SS_BLK_BLOCK];
	struct ss_dev *d = NULL;
	struct ss_blk *b = NULL;
	struct ss_blk_info info;

	if (ss_dev_open(uri, NULL, &d) || ss_blk_open(d, NULL, &b) || ss_blk_info(b, &info)) {
		fprintf(stderr, "crash child: open: %s\n", ss_dev_last_message());
		_exit(2);
	}
	for (;;) {
		uint64_t r = rnd(&seed) % 100, lba = rnd(&seed) % info.blocks;
		uint32_t n = 1 + (uint32_t)(rnd(&seed) % 8);
		int rc;

		if (lba + n > info.blocks)
			n = (uint32_t)(info.blocks - lba);
		if (r < 8) {
			send_msg(fd, MSG_TRIM, lba, n, 0);
			rc = ss_blk_trim(b, lba, n);
		} else if (r < 16) {
			rc = ss_blk_flush(b);
			if (rc == 0)
				send_msg(fd, MSG_DURABLE, 0, 0, 0);
		} else {
			uint32_t fua = r < 28 ? SS_BLK_FUA : 0;

			ver++;
			for (uint32_t i = 0; i < n; i++) {
				blktest_fill(w + i * SS_BLK_BLOCK, lba + i, ver);
				send_msg(fd, MSG_WRITE, lba + i, 1, ver);
			}
			rc = ss_blk_write(b, lba, n, w, fua);
			if (rc == 0 && fua)
				send_msg(fd, MSG_DURABLE, 0, 0, 0);
		}
		if (rc) {
			fprintf(stderr, "crash child: %s\n", ss_dev_last_message());
			_exit(1);
		}
	}
}

static void pend(struct lba_state *s, uint32_t ver)
{
	if (s->npending == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4;
		s->pending = realloc(s->pending, s->cap * sizeof(*s->pending));
	}
	s->pending[s->npending++] = ver;
}

/* Everything written so far is acknowledged: each LBA's last version is its durable one. */
static void acknowledge(struct lba_state *st, uint32_t *dirty, uint32_t *ndirty)
{
	for (uint32_t i = 0; i < *ndirty; i++) {
		struct lba_state *s = &st[dirty[i]];

		if (s->npending)
			s->durable = s->pending[s->npending - 1];
		s->npending = 0;
	}
	*ndirty = 0;
}

static void note(struct lba_state *st, uint32_t *dirty, uint32_t *ndirty, uint64_t lba,
		 uint32_t ver)
{
	if (st[lba].npending == 0)
		dirty[(*ndirty)++] = (uint32_t)lba;
	pend(&st[lba], ver);
}

int main(void)
{
	const char *env = getenv("SS_CRASH_ITERATIONS");
	int rounds = env ? atoi(env) : 5;
	uint64_t seed = 0x9E3779B97F4A7C15ull, acked_blocks = 0, lost_blocks = 0, kills = 0;
	uint64_t recovered = 0, erases = 0;
	struct ss_dev_chunk ch;
	struct ss_blk_stats bst;
	struct lba_state *st = NULL;
	uint32_t *dirty = NULL, ndirty = 0;
	struct ss_blk_info info;
	struct devtest t;
	struct ss_dev *d = NULL;
	struct ss_blk *b = NULL;
	static uint8_t r[SS_BLK_BLOCK];

	if (blktest_format(&t, 8) || devtest_start_daemon(&t))
		return 1;
	/* the geometry, from a target opened once */
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	CHECK_EQ(ss_blk_open(d, NULL, &b), 0);
	if (!b)
		return 1;
	CHECK_EQ(ss_blk_info(b, &info), 0);
	CHECK_EQ(ss_blk_close(b), 0);
	CHECK_EQ(ss_dev_close(d), 0);
	st = calloc(info.blocks, sizeof(*st));
	dirty = calloc(info.blocks, sizeof(*dirty));
	for (int round = 0; round < rounds && ut_failures == 0; round++) {
		uint32_t target = 20 + (uint32_t)(rnd(&seed) % 2000), got = 0;
		bool power_loss = round % 2 == 1;
		int fds[2], status;
		struct msg m;
		pid_t pid;

		CHECK_EQ(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			child(t.uri, fds[1], rnd(&seed) ^ (uint64_t)round, (uint32_t)(round + 1) << 20);
		}
		close(fds[1]);
		/* the kill after `target` messages, wherever the child is then */
		while (got < target && read(fds[0], &m, sizeof(m)) == sizeof(m)) {
			got++;
			if (m.type == MSG_WRITE) {
				note(st, dirty, &ndirty, m.lba, (uint32_t)m.ver);
			} else if (m.type == MSG_TRIM) {
				for (uint32_t i = 0; i < m.n; i++)
					note(st, dirty, &ndirty, m.lba + i, 0);
			} else {
				acknowledge(st, dirty, &ndirty);
			}
		}
		kill(pid, SIGKILL);
		/* what it wrote to the pipe before dying still counts */
		while (read(fds[0], &m, sizeof(m)) == sizeof(m)) {
			if (m.type == MSG_WRITE) {
				note(st, dirty, &ndirty, m.lba, (uint32_t)m.ver);
			} else if (m.type == MSG_TRIM) {
				for (uint32_t i = 0; i < m.n; i++)
					note(st, dirty, &ndirty, m.lba + i, 0);
			} else {
				acknowledge(st, dirty, &ndirty);
			}
		}
		close(fds[0]);
		CHECK_EQ(waitpid(pid, &status, 0), pid);
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			fprintf(stderr, "round %d: the child ended before the kill (status 0x%x)\n",
				round, status);
			ut_failures++;
			break;
		}
		kills++;
		if (power_loss) {
			devtest_kill_daemon(&t, SIGKILL);
			CHECK_EQ(devtest_start_daemon(&t), 0);
			kills++;
		}
		d = NULL;
		b = NULL;
		CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
		if (ss_blk_open(d, NULL, &b) != 0) {
			fprintf(stderr, "round %d: reopen: %s\n", round, ss_dev_last_message());
			ut_failures++;
			break;
		}
		CHECK_EQ(ss_blk_stats(b, &bst), 0);
		recovered += bst.recovered_records;
		for (uint64_t lba = 0; lba < info.blocks; lba++) {
			struct lba_state *s = &st[lba];
			long long v;
			bool ok;

			CHECK_EQ(ss_blk_read(b, lba, 1, r), 0);
			v = blktest_version(r, lba);
			ok = v == (long long)s->durable;
			for (uint32_t i = 0; !ok && v >= 0 && i < s->npending; i++)
				ok = s->pending[i] == (uint32_t)v;
			acked_blocks += s->durable != 0;
			if (!ok) {
				lost_blocks++;
				if (lost_blocks <= 10)
					fprintf(stderr, "round %d: LBA %llu holds v%lld, acknowledged "
						"v%u (%u written since)\n", round,
						(unsigned long long)lba, v, s->durable, s->npending);
			}
			/* what the reopened target holds is the next round's acknowledged state */
			s->durable = v < 0 ? s->durable : (uint32_t)v;
			s->npending = 0;
		}
		ndirty = 0;
		CHECK_EQ(ss_blk_close(b), 0);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	CHECK_EQ(lost_blocks, 0);
	CHECK(acked_blocks > 0);
	CHECK(recovered > 0);
	/* the rounds went through GC: data chunks erased again and again */
	CHECK_EQ(ss_dev_open(t.uri, NULL, &d), 0);
	for (uint64_t i = 0; d && ss_dev_chunk_report(d, i, &ch, 1) == 1; i++)
		erases += ch.wear > 1 && i % (info.lines + 2) >= 2 ? ch.wear - 1 : 0;
	if (d)
		CHECK_EQ(ss_dev_close(d), 0);
	if (rounds >= 20)
		CHECK(erases > 2 * (uint64_t)info.lines * info.pus);
	fprintf(stderr, "blk_crash_ut: %llu SIGKILLs in %d rounds, %llu acknowledged blocks "
		"checked, %llu acknowledged bytes lost; %llu blocks replayed from OOB at the "
		"reopens, %llu chunk erases\n", (unsigned long long)kills, rounds,
		(unsigned long long)acked_blocks, (unsigned long long)lost_blocks * SS_BLK_BLOCK,
		(unsigned long long)recovered, (unsigned long long)erases);
	for (uint64_t i = 0; i < info.blocks; i++)
		free(st[i].pending);
	free(st);
	free(dirty);
	devtest_cleanup(&t);
	return ut_report("blk_crash_ut");
}
