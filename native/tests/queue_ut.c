/*
 * Per-thread submission queues (ss_dev_queue_*), in-process (argv[1] "emu") or through a
 * smartssd-devd child ("unix"): reads queued several deep return the bytes written (checked
 * against the pattern computed here), complete oldest first, refuse what is malformed, and
 * overlap in modelled time: depth 1 is modelled exactly as plain ss_dev_read, depth 4
 * on 4 channels at least halves the modelled time, and the same submissions give the same
 * modelled times twice. Queued writes (ss_dev_queue_write, ss_dev_write_queued) write
 * what a plain write does, overlap in modelled time when durable, and on a full drive
 * leave exactly the pieces before the first that failed. (That no later piece is written
 * past the hole a failed one leaves is the drive's ORDERED rule, tested in cmd_ns_ut: on
 * this object store a full drive cannot show it, since a write past a hole allocates the
 * hole too.) A drive out of room for more commands (reply slots or reply memory: BUSY)
 * makes the queues keep fewer in it, or wait, and never fails them: vectored reads of more
 * than the drive's reply memory, and several threads' queues at depth 32 on one handle.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devtest.h"
#include "ut.h"

#define PAGE 8192u
#define FILE_PAGES 1024u  /* 8 MiB: far past the drive's 1 MiB read-ahead window */
#define FILE_BYTES (FILE_PAGES * PAGE)
#define READ_BYTES 4096u
#define READS 64u
#define WRITE_BYTES ((4u << 20) - 5)   /* 4 pieces, the last one short */

static uint8_t want[FILE_BYTES];
static uint64_t offsets[READS];

/* A byte pattern no two 4 KiB pieces of the file share. */
static void make_pattern(void)
{
	for (uint32_t i = 0; i < FILE_BYTES; i++)
		want[i] = (uint8_t)(i * 2654435761u >> 13) ^ (uint8_t)(i / READ_BYTES);
	/* 4 KiB-aligned random offsets from a fixed LCG */
	uint32_t x = 12345;

	for (uint32_t i = 0; i < READS; i++) {
		do {
			x = x * 1103515245u + 12345u;
			offsets[i] = (uint64_t)((x >> 8) % (FILE_BYTES / READ_BYTES)) * READ_BYTES;
			/* a read that continues the page after the previous one would start the
			 * drive's sequential read-ahead: random reads never do */
		} while (i && offsets[i] / PAGE == offsets[i - 1] / PAGE + 1);
	}
}

static uint64_t host_now(struct ss_dev *d)
{
	struct ss_dev_model m;

	CHECK_EQ(ss_dev_model_counters(d, &m), 0);
	return m.host_now_ns;
}

/* READS reads through a queue `depth` deep, each checked. \return modelled ns they took. */
static uint64_t queued_reads(struct ss_dev *d, uint64_t oid, uint32_t depth)
{
	static uint8_t bufs[SS_DEV_QUEUE_DEPTH_MAX][READ_BYTES];
	uint64_t at[SS_DEV_QUEUE_DEPTH_MAX];
	struct ss_dev_queue *q;
	uint32_t sent = 0, done = 0;
	uint64_t t0 = host_now(d);

	CHECK_EQ(ss_dev_queue_open(d, depth, &q), 0);
	while (done < READS) {
		while (sent < READS && ss_dev_queue_pending(q) < depth) {
			uint32_t slot = sent % depth;

			memset(bufs[slot], 0, READ_BYTES);
			at[slot] = offsets[sent];
			CHECK_EQ(ss_dev_queue_read(q, oid, offsets[sent], bufs[slot], READ_BYTES), 0);
			sent++;
		}
		void *got = NULL;

		CHECK_EQ(ss_dev_queue_reap(q, &got), (int64_t)READ_BYTES);
		/* oldest first: the buffer of read `done` */
		CHECK(got == bufs[done % depth]);
		CHECK(memcmp(got, want + at[done % depth], READ_BYTES) == 0);
		done++;
	}
	CHECK_EQ(ss_dev_queue_reap(q, NULL), -ENODATA);
	ss_dev_queue_close(q);
	return host_now(d) - t0;
}

static uint64_t plain_reads(struct ss_dev *d, uint64_t oid)
{
	static uint8_t buf[READ_BYTES];
	uint64_t t0 = host_now(d);

	for (uint32_t i = 0; i < READS; i++) {
		CHECK_EQ(ss_dev_read(d, oid, offsets[i], buf, READ_BYTES), (int64_t)READ_BYTES);
		CHECK(memcmp(buf, want + offsets[i], READ_BYTES) == 0);
	}
	return host_now(d) - t0;
}

static void test_refusals(struct ss_dev *d, uint64_t oid)
{
	static uint8_t buf[2][READ_BYTES];
	struct ss_dev_queue *q;

	CHECK_EQ(ss_dev_queue_open(d, 0, &q), -EINVAL);
	CHECK(strstr(ss_dev_last_message(), "depth 0") != NULL);
	CHECK_EQ(ss_dev_queue_open(d, SS_DEV_QUEUE_DEPTH_MAX + 1, &q), -EINVAL);
	CHECK_EQ(ss_dev_queue_open(d, 1, &q), 0);
	CHECK_EQ(ss_dev_queue_read(q, oid, 0, buf[0], SS_DEV_QUEUE_READ_MAX + 1), -EINVAL);
	CHECK_EQ(ss_dev_queue_pending(q), 0);
	CHECK_EQ(ss_dev_queue_read(q, oid, 0, buf[0], READ_BYTES), 0);
	CHECK_EQ(ss_dev_queue_read(q, oid, READ_BYTES, buf[1], READ_BYTES), -EBUSY);
	CHECK(strstr(ss_dev_last_message(), "outstanding") != NULL);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), (int64_t)READ_BYTES);
	CHECK(memcmp(buf[0], want, READ_BYTES) == 0);
	/* a read of an object that does not exist fails at its reap, by name */
	CHECK_EQ(ss_dev_queue_read(q, oid + 1000, 0, buf[0], READ_BYTES), 0);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), -ENOENT);
	/* the end of the object: short */
	CHECK_EQ(ss_dev_queue_read(q, oid, FILE_BYTES - 100, buf[0], READ_BYTES), 0);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), 100);
	CHECK(memcmp(buf[0], want + FILE_BYTES - 100, 100) == 0);
	/* closing with a read outstanding takes its reply: the drive holds none after */
	CHECK_EQ(ss_dev_queue_read(q, oid, 0, buf[0], READ_BYTES), 0);
	ss_dev_queue_close(q);
}

/* Vectored reads: ranges back to back, one longer than a queued read, one crossing the
 * end, one empty, one of a missing object. */
static void test_ranges(struct ss_dev *d, uint64_t oid)
{
	static uint8_t buf[(3u << 20) + 3 * READ_BYTES];
	uint64_t off[5] = { 5, (1u << 20) + 3, 0, FILE_BYTES - 1000, 77 };
	uint32_t len[5] = { READ_BYTES, (2u << 20) + 9, 0, READ_BYTES, 100 }, cnt[5];
	uint32_t at = 0;

	for (uint32_t depth = 1; depth <= 8; depth *= 8) {
		memset(buf, 0, sizeof(buf));
		CHECK_EQ(ss_dev_read_ranges(d, oid, 5, off, len, buf, depth, cnt),
			 READ_BYTES + (2 << 20) + 9 + 1000 + 100);
		CHECK_EQ(cnt[0], READ_BYTES);
		CHECK_EQ(cnt[1], (2u << 20) + 9);
		CHECK_EQ(cnt[2], 0);
		CHECK_EQ(cnt[3], 1000);
		CHECK_EQ(cnt[4], 100);
		at = 0;
		for (int i = 0; i < 5; i++) {
			CHECK(memcmp(buf + at, want + off[i], cnt[i]) == 0);
			at += len[i];
		}
	}
	CHECK_EQ(ss_dev_read_ranges(d, oid + 1000, 2, off, len, buf, 4, cnt), -ENOENT);
	CHECK(!strcmp(ss_dev_reason_name(ss_dev_last_reason()), "NO_SUCH_OBJECT"));
	CHECK_EQ(ss_dev_read_ranges(d, oid, 1, off, len, buf, 0, cnt), -EINVAL);
}

/* The whole file as 1 MiB ranges at `depth` into buf. \return the bytes read when every
 * one matches, else a negative errno. */
static int64_t whole_file_ranges(struct ss_dev *d, uint64_t oid, uint32_t depth, uint8_t *buf)
{
	uint64_t off[FILE_BYTES >> 20];
	uint32_t len[FILE_BYTES >> 20], cnt[FILE_BYTES >> 20];
	uint32_t n = FILE_BYTES >> 20;
	int64_t got;

	for (uint32_t i = 0; i < n; i++) {
		off[i] = (uint64_t)i << 20;
		len[i] = 1u << 20;
	}
	memset(buf, 0, FILE_BYTES);
	got = ss_dev_read_ranges(d, oid, n, off, len, buf, depth, cnt);
	if (got < 0)
		return got;
	for (uint32_t i = 0; i < n; i++)
		if (cnt[i] != len[i])
			return -EIO;
	return memcmp(buf, want, FILE_BYTES) ? -EILSEQ : got;
}

/* 8 MiB of ranges at depth 32: more than the drive's reply memory holds at once (4 MiB), so
 * it refuses some BUSY; the read keeps fewer in the drive and completes. */
static void test_ranges_past_reply_memory(struct ss_dev *d, uint64_t oid)
{
	uint8_t *buf = malloc(FILE_BYTES);
	uint64_t t0, t1, t32;

	CHECK(buf != NULL);
	t0 = host_now(d);
	CHECK_EQ(whole_file_ranges(d, oid, 1, buf), (int64_t)FILE_BYTES);
	t1 = host_now(d) - t0;
	t0 = host_now(d);
	CHECK_EQ(whole_file_ranges(d, oid, SS_DEV_QUEUE_DEPTH_MAX, buf), (int64_t)FILE_BYTES);
	t32 = host_now(d) - t0;
	printf("modelled 8 MiB in 1 MiB ranges: depth 1 %llu ns, depth 32 %llu ns\n",
	       (unsigned long long)t1, (unsigned long long)t32);
	free(buf);
}

#define THREADS 4
#define ROUNDS 3

struct worker {
	struct ss_dev *d;
	uint64_t oid;           /* readers: the file; the writer: its own object */
	int writer;
	int64_t rc[ROUNDS];
	char msg[SS_DEV_MSG_MAX];
	pthread_t t;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf = malloc(FILE_BYTES);

	for (int r = 0; r < ROUNDS; r++) {
		if (!buf)
			w->rc[r] = -ENOMEM;
		else if (w->writer)
			w->rc[r] = ss_dev_write_queued(w->d, w->oid, 0, want, FILE_BYTES, 0,
						       SS_DEV_QUEUE_DEPTH_MAX);
		else
			w->rc[r] = whole_file_ranges(w->d, w->oid, SS_DEV_QUEUE_DEPTH_MAX, buf);
		if (w->rc[r] < 0 && !w->msg[0])
			ss_dev_last_message_copy(w->msg, sizeof(w->msg));
	}
	free(buf);
	return NULL;
}

/* Three threads reading the whole file and one writing 8 MiB, each at depth 32, on one
 * handle (one session: 32 reply slots): all of it completes, byte for byte. */
static void test_threads(struct ss_dev *d, uint64_t oid)
{
	struct worker w[THREADS];
	uint64_t woid;
	uint8_t *back = malloc(FILE_BYTES);

	CHECK(back != NULL);
	CHECK_EQ(ss_dev_create(d, "/threads", SS_DEV_FILE, 0, &woid), 0);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < THREADS; i++) {
		w[i].d = d;
		w[i].writer = i == THREADS - 1;
		w[i].oid = w[i].writer ? woid : oid;
		CHECK_EQ(pthread_create(&w[i].t, NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(w[i].t, NULL);
		for (int r = 0; r < ROUNDS; r++) {
			if (w[i].rc[r] != (int64_t)FILE_BYTES)
				printf("thread %d (%s) round %d: %lld: %s\n", i,
				       w[i].writer ? "writer" : "reader", r, (long long)w[i].rc[r],
				       w[i].msg);
			CHECK_EQ(w[i].rc[r], (int64_t)FILE_BYTES);
		}
	}
	CHECK_EQ(ss_dev_read(d, woid, 0, back, FILE_BYTES), (int64_t)FILE_BYTES);
	CHECK(memcmp(back, want, FILE_BYTES) == 0);
	CHECK_EQ(ss_dev_remove(d, "/threads", 0), 0);
	free(back);
}

/* Another process on the same daemon reading the whole file at depth 32 while this one
 * does: the drive's 4 MiB of reply memory is shared by both sessions, and neither read
 * fails. */
static void test_processes(const char *uri, struct ss_dev *d, uint64_t oid)
{
	uint8_t *buf = malloc(FILE_BYTES);
	int status = -1;
	pid_t child;

	CHECK(buf != NULL);
	fflush(stdout);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct ss_dev *d2 = NULL;
		int bad = ss_dev_open(uri, NULL, &d2) != 0;

		for (int r = 0; r < ROUNDS && !bad; r++) {
			int64_t got = whole_file_ranges(d2, oid, SS_DEV_QUEUE_DEPTH_MAX, buf);

			if (got != (int64_t)FILE_BYTES) {
				fprintf(stderr, "child round %d: %lld: %s\n", r, (long long)got,
					ss_dev_last_message());
				bad = 1;
			}
		}
		if (d2)
			ss_dev_close(d2);
		_exit(bad);
	}
	for (int r = 0; r < ROUNDS; r++)
		CHECK_EQ(whole_file_ranges(d, oid, SS_DEV_QUEUE_DEPTH_MAX, buf), (int64_t)FILE_BYTES);
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(buf);
}

/* An object written by ss_dev_write_queued from `want` at `depth`. \return its modelled ns. */
static uint64_t queued_write(struct ss_dev *d, const char *path, size_t len, uint32_t flags,
			     uint32_t depth)
{
	static uint8_t back[FILE_BYTES];
	uint64_t oid, t0;
	struct ss_dev_stat st;

	CHECK_EQ(ss_dev_create(d, path, SS_DEV_FILE, 0, &oid), 0);
	t0 = host_now(d);
	CHECK_EQ(ss_dev_write_queued(d, oid, 0, want, len, flags, depth), (int64_t)len);
	t0 = host_now(d) - t0;
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	CHECK_EQ(st.size, len);
	memset(back, 0, len);
	CHECK_EQ(ss_dev_read(d, oid, 0, back, len), (int64_t)len);
	CHECK(memcmp(back, want, len) == 0);
	CHECK_EQ(ss_dev_remove(d, path, 0), 0);
	return t0;
}

static void test_write_refusals(struct ss_dev *d, uint64_t oid)
{
	static uint8_t buf[READ_BYTES];
	struct ss_dev_queue *q;

	CHECK_EQ(ss_dev_queue_open(d, 1, &q), 0);
	CHECK_EQ(ss_dev_queue_write(q, oid, 0, buf, SS_DEV_QUEUE_WRITE_MAX + 1, 0), -EINVAL);
	CHECK(strstr(ss_dev_last_message(), "exceed") != NULL);
	CHECK_EQ(ss_dev_queue_write(q, oid, 0, buf, READ_BYTES, 0x80), -EINVAL);
	CHECK(strstr(ss_dev_last_message(), "flags") != NULL);
	CHECK_EQ(ss_dev_queue_write(q, oid, UINT64_MAX - 10, buf, READ_BYTES, 0), -EINVAL);
	CHECK_EQ(ss_dev_queue_write(q, oid, 0, NULL, READ_BYTES, 0), -EINVAL);
	CHECK_EQ(ss_dev_queue_pending(q), 0);
	/* a write and a read in one queue, oldest first: the read sees the write */
	memcpy(buf, want, READ_BYTES);
	CHECK_EQ(ss_dev_queue_write(q, oid, 0, buf, READ_BYTES, 0), 0);
	CHECK_EQ(ss_dev_queue_read(q, oid, 0, buf, READ_BYTES), -EBUSY);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), (int64_t)READ_BYTES);
	CHECK_EQ(ss_dev_queue_read(q, oid, 0, buf, READ_BYTES), 0);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), (int64_t)READ_BYTES);
	CHECK(memcmp(buf, want, READ_BYTES) == 0);
	/* a write to an object that does not exist fails at its reap, by name */
	CHECK_EQ(ss_dev_queue_write(q, oid + 1000, 0, buf, READ_BYTES, 0), 0);
	CHECK_EQ(ss_dev_queue_reap(q, NULL), -ENOENT);
	CHECK(!strcmp(ss_dev_reason_name(ss_dev_last_reason()), "NO_SUCH_OBJECT"));
	ss_dev_queue_close(q);
	CHECK_EQ(ss_dev_write_queued(d, oid, 0, want, READ_BYTES, 0, 0), -EINVAL);
	CHECK_EQ(ss_dev_write_queued(d, oid + 1000, 0, want, 3u << 20, 0, 4), -ENOENT);
	CHECK(!strcmp(ss_dev_reason_name(ss_dev_last_reason()), "NO_SUCH_OBJECT"));
}

/*
 * A queued write larger than the free space, 4 pieces in the drive at once: it fails with
 * the drive's DRIVE_FULL (not the CANCELED of the pieces after it), and the object holds
 * exactly the pieces before the one that failed: whole pieces, the written bytes, and no
 * later piece (which would have made it longer).
 */
static void test_write_full(struct ss_dev *d)
{
	struct ss_dev_fsstat fs;
	struct ss_dev_stat st;
	struct ss_dev_check c;
	uint8_t *big, *back;
	uint64_t oid;
	size_t len;

	CHECK_EQ(ss_dev_fsstat(d, &fs), 0);
	/* past the capacity: free_bytes counts only what is free now, not what GC will free */
	len = (size_t)fs.capacity_bytes + (8u << 20);
	big = malloc(len);
	back = malloc(len);
	CHECK(big != NULL && back != NULL);
	for (size_t i = 0; i < len; i++)
		big[i] = want[i % FILE_BYTES] ^ (uint8_t)(i / FILE_BYTES);
	CHECK_EQ(ss_dev_create(d, "/big", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write_queued(d, oid, 0, big, len, 0, 4), -ENOSPC);
	CHECK(!strcmp(ss_dev_reason_name(ss_dev_last_reason()), "DRIVE_FULL"));
	CHECK_EQ(ss_dev_stat(d, oid, &st), 0);
	printf("full drive: %llu free bytes, a queued write of %zu left %llu bytes\n",
	       (unsigned long long)fs.free_bytes, len, (unsigned long long)st.size);
	CHECK(st.size > 0);
	CHECK(st.size < len);
	CHECK_EQ(st.size % SS_DEV_QUEUE_WRITE_MAX, 0);
	CHECK_EQ(ss_dev_read(d, oid, 0, back, st.size), (int64_t)st.size);
	CHECK(memcmp(back, big, st.size) == 0);
	CHECK_EQ(ss_dev_check(d, &c), 0);
	CHECK_EQ(c.problem, 0);
	CHECK_EQ(ss_dev_remove(d, "/big", 0), 0);
	free(big);
	free(back);
}

int main(int argc, char **argv)
{
	const char *transport = argc > 1 ? argv[1] : "emu";
	struct ss_emu_drive_opts o;
	struct devtest t;
	struct ss_dev *d = NULL;
	char err[256] = "";
	uint64_t oid, plain, q1, q4, q4b, w1, w4, f1, f4;

	make_pattern();
	/* the fixture's geometry (4 channels x 1 way), with no DRAM buffer, so every read
	 * reaches the flash */
	if (devtest_format(&t, 0))
		return 1;
	memset(&o, 0, sizeof(o));
	o.flash.geo.channels = 4;
	o.flash.geo.ways = 1;
	o.flash.geo.blocks_per_die = 64;
	o.flash.geo.pages_per_block = 32;
	o.flash.geo.page_size = PAGE;
	o.flash.geo.spare_size = 256;
	o.buffer_policy = "none";
	if (ss_emu_format(t.image, &o, NULL, err, sizeof(err))) {
		fprintf(stderr, "format: %s\n", err);
		devtest_cleanup(&t);
		return 1;
	}
	if (!strcmp(transport, "unix") && devtest_start_daemon(&t)) {
		devtest_cleanup(&t);
		return 1;
	}
	/* in-process: background work (GC, checkpoints) only when asked, one exact
	 * interleaving; the buffer stays off either way */
	if (strcmp(transport, "unix"))
		snprintf(t.uri, sizeof(t.uri), "emu:%s?buffer=none&background=manual", t.image);
	if (ss_dev_open(t.uri, NULL, &d)) {
		fprintf(stderr, "open %s: %s\n", t.uri, ss_dev_last_message());
		devtest_cleanup(&t);
		return 1;
	}
	CHECK_EQ(ss_dev_create(d, "/data", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, want, FILE_BYTES, 0), (int64_t)FILE_BYTES);
	CHECK_EQ(ss_dev_flush(d), 0);

	test_refusals(d, oid);
	test_ranges(d, oid);
	test_ranges_past_reply_memory(d, oid);
	test_threads(d, oid);
	if (!strcmp(transport, "unix"))
		test_processes(t.uri, d, oid);
	plain_reads(d, oid);       /* the object store's metadata comes into DRAM once */
	plain = plain_reads(d, oid);
	q1 = queued_reads(d, oid, 1);
	q4 = queued_reads(d, oid, 4);
	q4b = queued_reads(d, oid, 4);
	printf("modelled %u reads of 4 KiB: plain %llu ns, depth 1 %llu ns, depth 4 %llu ns "
	       "and %llu ns\n", READS, (unsigned long long)plain, (unsigned long long)q1,
	       (unsigned long long)q4, (unsigned long long)q4b);
	CHECK_EQ(q1, plain);       /* depth 1 is modelled as plain commands are */
	CHECK_EQ(q4, q4b);         /* one submission order, one set of modelled times */
	CHECK(q4 * 2 < q1);        /* 4 channels: reads overlap */

	test_write_refusals(d, oid);
	/* 4 writes of 4 MiB on a drive with room for them: no garbage collection between
	 * them, so each starts in the same state */
	f1 = queued_write(d, "/w", WRITE_BYTES, SS_DEV_WRITE_FUA, 1);
	f4 = queued_write(d, "/w", WRITE_BYTES, SS_DEV_WRITE_FUA, 4);
	w1 = queued_write(d, "/w", WRITE_BYTES, 0, 1);
	w4 = queued_write(d, "/w", WRITE_BYTES, 0, 4);
	printf("modelled write of %u bytes: FUA depth 1 %llu ns, depth 4 %llu ns; buffered "
	       "depth 1 %llu ns, depth 4 %llu ns\n", WRITE_BYTES, (unsigned long long)f1,
	       (unsigned long long)f4, (unsigned long long)w1, (unsigned long long)w4);
	/* durable pieces: the next one's transfer overlaps the programs of those before */
	CHECK(f4 < f1);
	/* buffered, the drive's write buffer overlaps them already at depth 1 */
	CHECK(w4 <= w1);
	test_write_full(d);
	CHECK_EQ(ss_dev_close(d), 0);
	devtest_cleanup(&t);
	return ut_report("queue_ut");
}
