/*
 * Parquet scans in the drive: a plan run by the parquet-scan tasklet over a file object,
 * waited for and its output read, on the tasklet calls of host_isp.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device_internal.h"
#include "errinfo.h"

#define SCAN_TIMEOUT_MS 120000u
#define POLL_MIN_US 100u
#define POLL_MAX_US 5000u
#define READ_CHUNK (1u << 20)

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Poll until the run leaves RUNNING; sleeps grow from 100 us to 5 ms between polls. */
static int wait_run(struct ss_dev *d, uint64_t inst, uint32_t timeout_ms,
		    struct ss_dev_progress *p)
{
	uint64_t deadline = now_ms() + (timeout_ms ? timeout_ms : SCAN_TIMEOUT_MS);
	uint32_t us = POLL_MIN_US;

	for (;;) {
		int rc = ss_dev_tasklet_poll(d, inst, p);

		if (rc || p->state == SS_DEV_TASKLET_DONE || p->state == SS_DEV_TASKLET_FAILED)
			return rc;
		if (now_ms() > deadline)
			return ss_err(-ETIMEDOUT, 0, "parquet scan (instance %" PRIu64 ") not done "
				      "after %u ms: %" PRIu64 " of %" PRIu64 " pages", inst,
				      timeout_ms ? timeout_ms : SCAN_TIMEOUT_MS, p->pages_done,
				      p->pages_total);
		struct timespec ts = { 0, (long)us * 1000 };

		nanosleep(&ts, NULL);
		us = us * 2 > POLL_MAX_US ? POLL_MAX_US : us * 2;
	}
}

static int read_all(struct ss_dev *d, uint64_t inst, uint64_t bytes, uint8_t **out,
		    size_t *out_len)
{
	uint8_t *buf = malloc(bytes ? bytes : 1);
	uint64_t off = 0;

	if (!buf)
		return ss_err(-ENOMEM, 0, "parquet scan: no memory for a %" PRIu64 "-byte result",
			      bytes);
	while (off < bytes) {
		size_t want = bytes - off > READ_CHUNK ? READ_CHUNK : (size_t)(bytes - off);
		int64_t n = ss_dev_tasklet_read(d, inst, off, buf + off, want, NULL);

		if (n <= 0) {
			free(buf);
			return n < 0 ? (int)n : ss_err(-EPROTO, 0, "parquet scan: output ends at %"
						      PRIu64 " of %" PRIu64 " bytes", off, bytes);
		}
		off += (uint64_t)n;
	}
	*out = buf;
	*out_len = (size_t)bytes;
	return 0;
}

int ss_dev_parquet_scan(struct ss_dev *d, const struct ss_dev_parquet_scan *s, uint8_t **out,
			size_t *out_len, struct ss_dev_progress *p)
{
	struct ss_dev_tasklet_spec spec;
	struct ss_dev_input in = { .oid = s ? s->file_oid : 0, .offset = 0, .length = UINT64_MAX };
	struct ss_dev_progress prog;
	char msg[512];
	uint64_t inst;
	int rc, drc, reason;

	if (!d || !s || !s->plan || !out || !out_len)
		return ss_err(-EINVAL, 0, "parquet scan: a NULL argument");
	*out = NULL;
	*out_len = 0;
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = SS_DEV_PARQUET_SCAN_ID;
	spec.mem_budget = s->mem_budget;
	spec.output_oid = s->output_oid;
	rc = ss_dev_tasklet_create(d, &spec, s->plan, s->plan_len, &inst);
	if (rc)
		return rc;
	memset(&prog, 0, sizeof(prog));
	rc = ss_dev_tasklet_execute(d, inst, &in, 1);
	if (rc == 0)
		rc = wait_run(d, inst, s->timeout_ms, &prog);
	if (rc == 0)
		rc = read_all(d, inst, prog.output_bytes, out, out_len);
	if (p)
		*p = prog;
	/* the run's failure is what the caller is told, not the cleanup's outcome */
	reason = ss_dev_last_reason();
	ss_dev_last_message_copy(msg, sizeof(msg));
	drc = ss_dev_tasklet_destroy(d, inst);
	if (drc && rc == 0) {
		free(*out);
		*out = NULL;
		*out_len = 0;
		return drc;
	}
	if (rc)
		return ss_err(rc, reason, "parquet scan of object %" PRIu64 ": %s", s->file_oid, msg);
	return 0;
}
