/*
 * smartssd-devd --metrics, from outside: a real daemon on an OS-chosen port, scraped over
 * TCP and its exposition parsed by a strict parser of the text format 0.0.4 (every line a
 * HELP, a TYPE or a sample; every family with both, before its samples; counters named
 * _total; no series twice; values that parse whole).
 *
 *   scrape      I/O, a grep tasklet run and an energy-ledger share through libsmartssd,
 *               then the scrape against readings of the same drive taken before and after
 *               it (model counters, COUNTERS, SMART, FSSTAT), the bytes the test moved,
 *               the run's progress and its share. A scrape is no command: the model
 *               counters read just before and just after it are equal, and so is it.
 *   ledger_uids 17 uids (as root) take energy-ledger shares: 15 series of their own, the
 *               rest together, the joules adding up to the shares.
 *   hostile     requests with no end, an oversized head, a POST, another path, HEAD, and
 *               more connections than the listener takes: each answered or closed, and
 *               the drive serving commands and scrapes meanwhile.
 *   prometheus [DASHBOARD]  the real Prometheus scraping the daemon (label full): its
 *               query API returns what the daemon's own scrape says, and evaluates every
 *               expression of the Grafana dashboard.
 *   docs FILE   docs/operations.md lists every metric family the daemon exports, and
 *               names no other.
 *   dashboard FILE  every metric a PromQL expression of the Grafana dashboard FILE names
 *               is exported by a live daemon.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <grp.h>
#include <sys/socket.h>

#include "devtest.h"
#include "smartssd/builtin_tasklets.h"
#include "smartssd/smartssd.h"
#include "ss_proto.h"
#include "ut.h"

#define IO_MS 20000
#define MAX_SERIES 1024
#define MAX_FAMILIES 256

/* ---- a strict parser of the exposition format ---- */

struct family {
	char name[128];
	int help, type_counter, type_gauge, samples;
};

struct series {
	char key[384];      /* name{labels} as written */
	char name[128];
	double v;
};

struct expo {
	struct family fam[MAX_FAMILIES];
	int nfam;
	struct series s[MAX_SERIES];
	int n;
	int errors;
};

static void expo_err(struct expo *e, int line, const char *why, const char *text)
{
	fprintf(stderr, "metrics_ut: exposition line %d: %s: '%.120s'\n", line, why, text);
	e->errors++;
}

static struct family *family_of(struct expo *e, const char *name, int create)
{
	for (int i = 0; i < e->nfam; i++) {
		if (strcmp(e->fam[i].name, name) == 0) {
			return &e->fam[i];
		}
	}
	if (!create || e->nfam == MAX_FAMILIES) {
		return NULL;
	}
	memset(&e->fam[e->nfam], 0, sizeof(e->fam[0]));
	snprintf(e->fam[e->nfam].name, sizeof(e->fam[0].name), "%s", name);
	return &e->fam[e->nfam++];
}

/* A metric name: [a-zA-Z_:][a-zA-Z0-9_:]*. \return its length, 0 when none. */
static size_t name_len(const char *p)
{
	size_t n = 0;

	if (!(isalpha((unsigned char)p[0]) || p[0] == '_' || p[0] == ':')) {
		return 0;
	}
	while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == ':') {
		n++;
	}
	return n;
}

/* `{k="v",...}` from p: \return its length, or 0 when malformed. */
static size_t labels_len(const char *p)
{
	size_t i = 1;

	if (p[0] != '{') {
		return 0;
	}
	if (p[i] == '}') {
		return i + 1;
	}
	for (;;) {
		size_t k = name_len(p + i);

		if (k == 0 || p[i + k] != '=' || p[i + k + 1] != '"') {
			return 0;
		}
		i += k + 2;
		while (p[i] != '"') {
			if (p[i] == '\0' || p[i] == '\n') {
				return 0;
			}
			if (p[i] == '\\') {
				if (p[i + 1] != '\\' && p[i + 1] != '"' && p[i + 1] != 'n') {
					return 0;
				}
				i++;
			}
			i++;
		}
		i++;
		if (p[i] == '}') {
			return i + 1;
		}
		if (p[i] != ',') {
			return 0;
		}
		i++;
	}
}

static int expo_parse(struct expo *e, char *text)
{
	char *line = text, *next;
	int ln = 0;

	memset(e, 0, sizeof(*e));
	for (; *line != '\0'; line = next) {
		size_t nl;

		next = strchr(line, '\n');
		if (next == NULL) {
			expo_err(e, ln + 1, "no newline at the end", line);
			break;
		}
		*next++ = '\0';
		ln++;
		if (strncmp(line, "# HELP ", 7) == 0 || strncmp(line, "# TYPE ", 7) == 0) {
			char name[128];
			struct family *f;

			nl = name_len(line + 7);
			if (nl == 0 || nl >= sizeof(name) || line[7 + nl] != ' ' ||
			    line[8 + nl] == '\0') {
				expo_err(e, ln, "malformed HELP or TYPE", line);
				continue;
			}
			memcpy(name, line + 7, nl);
			name[nl] = '\0';
			f = family_of(e, name, 1);
			if (f == NULL) {
				expo_err(e, ln, "too many families", line);
				continue;
			}
			if (f->samples) {
				expo_err(e, ln, "HELP or TYPE after the family's samples", line);
			}
			if (line[2] == 'H') {
				if (f->help++) {
					expo_err(e, ln, "second HELP", line);
				}
			} else if (f->type_counter || f->type_gauge) {
				expo_err(e, ln, "second TYPE", line);
			} else if (strcmp(line + 8 + nl, "counter") == 0) {
				f->type_counter = 1;
			} else if (strcmp(line + 8 + nl, "gauge") == 0) {
				f->type_gauge = 1;
			} else {
				expo_err(e, ln, "a type this daemon has no business with", line);
			}
			continue;
		}
		if (line[0] == '#' || line[0] == '\0') {
			expo_err(e, ln, "neither HELP, TYPE nor a sample", line);
			continue;
		}
		{
			struct series *s = &e->s[e->n];
			struct family *f;
			size_t ll;
			char *end;

			nl = name_len(line);
			if (nl == 0 || nl >= sizeof(s->name) || e->n == MAX_SERIES) {
				expo_err(e, ln, "bad metric name (or too many series)", line);
				continue;
			}
			ll = line[nl] == '{' ? labels_len(line + nl) : 0;
			if ((line[nl] == '{' && ll == 0) || line[nl + ll] != ' ' ||
			    nl + ll >= sizeof(s->key)) {
				expo_err(e, ln, "bad labels", line);
				continue;
			}
			memcpy(s->name, line, nl);
			s->name[nl] = '\0';
			memcpy(s->key, line, nl + ll);
			s->key[nl + ll] = '\0';
			errno = 0;
			s->v = strtod(line + nl + ll + 1, &end);
			if (errno != 0 || end == line + nl + ll + 1 || *end != '\0' || isnan(s->v)) {
				expo_err(e, ln, "value does not parse whole (or has a timestamp)", line);
				continue;
			}
			f = family_of(e, s->name, 0);
			if (f == NULL || !f->help || !(f->type_counter || f->type_gauge)) {
				expo_err(e, ln, "sample before its family's HELP and TYPE", line);
				continue;
			}
			if (strncmp(s->name, "smartssd_", 9) != 0) {
				expo_err(e, ln, "no smartssd_ prefix", line);
			}
			if (f->type_counter != (nl > 6 && strcmp(s->name + nl - 6, "_total") == 0)) {
				expo_err(e, ln, "counters, and only counters, end in _total", line);
			}
			if (f->type_counter && s->v < 0) {
				expo_err(e, ln, "negative counter", line);
			}
			for (int i = 0; i < e->n; i++) {
				if (strcmp(e->s[i].key, s->key) == 0) {
					expo_err(e, ln, "series twice", line);
				}
			}
			f->samples++;
			e->n++;
		}
	}
	for (int i = 0; i < e->nfam; i++) {
		if (!e->fam[i].help || !(e->fam[i].type_counter || e->fam[i].type_gauge)) {
			fprintf(stderr, "metrics_ut: family %s lacks HELP or TYPE\n", e->fam[i].name);
			e->errors++;
		}
	}
	return e->errors ? -EBADMSG : 0;
}

/* The value of series `key` (name{labels} exactly as the daemon writes it); NAN if none. */
static double val(const struct expo *e, const char *key)
{
	for (int i = 0; i < e->n; i++) {
		if (strcmp(e->s[i].key, key) == 0) {
			return e->s[i].v;
		}
	}
	fprintf(stderr, "metrics_ut: no series %s\n", key);
	return NAN;
}

static int has_series(const struct expo *e, const char *key)
{
	for (int i = 0; i < e->n; i++) {
		if (strcmp(e->s[i].key, key) == 0) {
			return 1;
		}
	}
	return 0;
}

static int has_metric(const struct expo *e, const char *name)
{
	for (int i = 0; i < e->n; i++) {
		if (strcmp(e->s[i].name, name) == 0) {
			return 1;
		}
	}
	return 0;
}

/* ---- HTTP over TCP ---- */

static int tcp_connect(const char *hostport)
{
	char host[64];
	const char *colon = strrchr(hostport, ':');
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd;

	if (colon == NULL || (size_t)(colon - hostport) >= sizeof(host)) {
		return -EINVAL;
	}
	memcpy(host, hostport, (size_t)(colon - hostport));
	host[colon - hostport] = '\0';
	a.sin_port = htons((uint16_t)atoi(colon + 1));
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -errno;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read until the peer closes, within IO_MS. \return the bytes (NUL-terminated, malloc'd)
 * in *out, or a negative errno (-ETIMEDOUT after saying what it waited for). */
static ssize_t recv_all(int fd, char **out, const char *what)
{
	size_t len = 0, cap = 65536;
	char *b = malloc(cap);
	long long deadline = ss_devd_spawn_now_ms() + IO_MS;

	if (b == NULL) {
		return -ENOMEM;
	}
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		long long left = deadline - ss_devd_spawn_now_ms();
		ssize_t r;

		if (left <= 0) {
			fprintf(stderr, "metrics_ut: %s: no end of the answer within %d ms\n", what,
				IO_MS);
			free(b);
			return -ETIMEDOUT;
		}
		if (poll(&pf, 1, (int)left) <= 0) {
			continue;
		}
		if (len + 1 == cap) {
			char *nb = realloc(b, cap * 2);

			if (nb == NULL) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = recv(fd, b + len, cap - 1 - len, 0);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0 && errno == ECONNRESET && len > 0) {
			break;
		}
		if (r < 0) {
			int rc = -errno;

			free(b);
			return rc;
		}
		if (r == 0) {
			break;
		}
		len += (size_t)r;
	}
	b[len] = '\0';
	*out = b;
	return (ssize_t)len;
}

/* One request, the whole answer. \return the HTTP status, or a negative errno. */
static int http(const char *hostport, const char *request, char **answer)
{
	int fd = tcp_connect(hostport), rc, status = 0;
	char *a = NULL;

	if (fd < 0) {
		return fd;   /* the caller says what it tried to reach */
	}
	rc = send_all(fd, request, strlen(request));
	if (rc == 0) {
		ssize_t n = recv_all(fd, &a, request);

		rc = n < 0 ? (int)n : 0;
	}
	close(fd);
	if (rc != 0) {
		return rc;
	}
	if (sscanf(a, "HTTP/1.%*d %d ", &status) != 1) {
		fprintf(stderr, "metrics_ut: not an HTTP answer: '%.80s'\n", a);
		free(a);
		return -EBADMSG;
	}
	*answer = a;
	return status;
}

/* GET /metrics, parsed strictly into e. \return 0, or a negative errno after a message. */
static int scrape(const char *hostport, struct expo *e)
{
	char *a = NULL, *body;
	int status = http(hostport, "GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n", &a);
	int rc;

	if (status != 200) {
		fprintf(stderr, "metrics_ut: GET http://%s/metrics: %s %d\n", hostport,
			status < 0 ? "error" : "status", status);
		free(a);
		return status < 0 ? status : -EPROTO;
	}
	CHECK(strstr(a, "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n") != NULL);
	body = strstr(a, "\r\n\r\n");
	if (body == NULL) {
		free(a);
		return -EBADMSG;
	}
	rc = expo_parse(e, body + 4);
	free(a);
	return rc;
}

/* ---- the daemon ---- */

struct daemon {
	struct devtest t;
	char metrics[64];    /* ADDRESS:PORT from its readiness message */
};

/* A daemon on a new drive, with further options `extra` (NULL-terminated, or NULL). */
static int daemon_start_with(struct daemon *dm, uint32_t cache_permille,
			     const char *const *extra)
{
	const char *args[16] = { "--image", dm->t.image, "--socket", dm->t.sock,
				 "--metrics", "127.0.0.1:0" };
	char err[256], notify[256] = "", *m, *nl;
	int rc = devtest_format_cache(&dm->t, 0, 64, cache_permille), n = 6;

	while (extra != NULL && *extra != NULL && n < 15) {
		args[n++] = *extra++;
	}
	args[n] = NULL;
	if (rc != 0) {
		return rc;
	}
	rc = ss_devd_spawn_notify(SS_DEVD_PATH, args, 60000, &dm->t.daemon, notify,
				  sizeof(notify), err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "metrics_ut: %s\n", err);
		dm->t.daemon = 0;
		return rc;
	}
	snprintf(dm->t.uri, sizeof(dm->t.uri), "unix:%s", dm->t.sock);
	m = strstr(notify, "METRICS=");
	nl = m ? strchr(m, '\n') : NULL;
	if (m == NULL || nl == NULL || (size_t)(nl - m - 8) >= sizeof(dm->metrics)) {
		fprintf(stderr, "metrics_ut: no METRICS= line after READY=1: '%s'\n", notify);
		return -EPROTO;
	}
	memcpy(dm->metrics, m + 8, (size_t)(nl - m - 8));
	dm->metrics[nl - m - 8] = '\0';
	CHECK(strncmp(dm->metrics, "127.0.0.1:", 10) == 0);
	CHECK(atoi(dm->metrics + 10) > 0);
	return 0;
}

/* SIGTERM, and a clean exit: 0, so a sanitizer's report (a leak in the listener) fails. */
static void daemon_exit(struct devtest *t)
{
	char err[256];
	int status = 0;

	if (t->daemon <= 0) {
		return;
	}
	kill(t->daemon, SIGTERM);
	if (ss_devd_wait_exit(t->daemon, 60000, &status, "smartssd-devd, signalled,", err,
			      sizeof(err)) != 0) {
		fprintf(stderr, "metrics_ut: %s\n", err);
		ut_failures++;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "metrics_ut: smartssd-devd ended with wait status 0x%x after SIGTERM\n",
			(unsigned)status);
		ut_failures++;
	}
	t->daemon = 0;
}

static int daemon_start(struct daemon *dm, uint32_t cache_permille)
{
	return daemon_start_with(dm, cache_permille, NULL);
}

static void daemon_stop(struct daemon *dm)
{
	daemon_exit(&dm->t);
	devtest_cleanup(&dm->t);
}

static uint64_t smart_raw(const struct ss_dev_smart_attr *a, int n, uint8_t id)
{
	for (int i = 0; i < n; i++) {
		if (a[i].id == id) {
			return a[i].raw;
		}
	}
	return UINT64_MAX;
}

/* A grep run over `file` in a ledger period of its own; its progress and share. */
static int run_tasklet(struct ss_dev *d, uint64_t file, struct ss_dev_progress *p,
		       struct ss_dev_task_share *sh)
{
	uint8_t params[4 + 6] = {0, 0, 6, 0, 'n', 'e', 'e', 'd', 'l', 'e'};
	struct ss_dev_tasklet_spec spec = {0};
	struct ss_dev_input in = { .oid = file, .offset = 0, .length = UINT64_MAX };
	long long deadline = ss_devd_spawn_now_ms() + 120000;
	uint64_t out_oid, inst, ticket;
	uint8_t buf[4096];
	int rc;

	if ((rc = ss_dev_create_output(d, "/out/grep", SS_DEV_CREATE_PARENTS, &out_oid)) != 0)
		return rc;
	spec.tasklet_id = SS_BT_GREP;
	spec.mem_budget = 64 * 1024;
	spec.output_oid = out_oid;
	spec.layout.kind = 2;
	spec.layout.line_delim = '\n';
	spec.layout.field_sep = ' ';
	spec.layout.record_size = 4096;
	if ((rc = ss_dev_tasklet_create(d, &spec, params, sizeof(params), &inst)) != 0 ||
	    (rc = ss_dev_energy_join(d, inst, &ticket)) != 0 ||
	    (rc = ss_dev_tasklet_execute(d, inst, &in, 1)) != 0 ||
	    (rc = devtest_wait_tasklet(d, inst, p)) != 0)
		return rc;
	if (p->state != SS_DEV_TASKLET_DONE)
		return -EIO;
	if (ss_dev_tasklet_read(d, inst, 0, buf, sizeof(buf), p) < 0)
		return -EIO;
	if ((rc = ss_dev_energy_leave(d, ticket, 0)) != 0)
		return rc;
	while ((rc = ss_dev_energy_share(d, ticket, sh)) == -EAGAIN) {
		if (ss_devd_spawn_now_ms() > deadline) {
			fprintf(stderr, "metrics_ut: ledger period still open after 120 s\n");
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	if (rc == 0)
		rc = ss_dev_tasklet_destroy(d, inst);
	return rc;
}

static void test_scrape(void)
{
	static char data[512 * 1024];
	struct daemon dm;
	struct ss_dev *d = NULL;
	struct ss_dev_model m0, m1;
	struct ss_dev_counters c0, c1;
	struct ss_dev_fsstat f0, f1;
	struct ss_dev_smart h;
	struct ss_dev_smart_attr a0[64], a1[64];
	struct ss_dev_progress p;
	struct ss_dev_task_share sh;
	struct expo *e = calloc(1, sizeof(*e));
	uint64_t oid;
	int n0, n1;
	char key[160];

	if (e == NULL || daemon_start(&dm, 100) != 0) {
		CHECK(!"daemon started with --metrics");
		free(e);
		return;
	}
	CHECK_EQ(ss_dev_open(dm.t.uri, NULL, &d), 0);
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (i % 64 == 63) ? '\n' : (i % 4096 == 100 ? 'n' : 'a' + (char)(i % 23));
	}
	memcpy(data + 5000, "needle", 6);
	CHECK_EQ(ss_dev_create(d, "/data/in.txt", SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, data, sizeof(data), 0), (int64_t)sizeof(data));
	CHECK_EQ(ss_dev_flush(d), 0);
	{
		static char back[sizeof(data)];

		CHECK_EQ(ss_dev_read(d, oid, 0, back, sizeof(back)), (int64_t)sizeof(back));
	}
	CHECK_EQ(run_tasklet(d, oid, &p, &sh), 0);
	CHECK(p.pages_done > 0);
	CHECK(sh.task_nj > 0);

	/* the drive's readings around the scrape: nothing but the scrape between them */
	n0 = ss_dev_smart(d, &h, a0, 64);
	CHECK_EQ(ss_dev_counters(d, &c0), 0);
	CHECK_EQ(ss_dev_fsstat(d, &f0), 0);
	CHECK_EQ(ss_dev_model_counters(d, &m0), 0);
	CHECK_EQ(scrape(dm.metrics, e), 0);
	CHECK_EQ(ss_dev_model_counters(d, &m1), 0);
	CHECK_EQ(ss_dev_fsstat(d, &f1), 0);
	CHECK_EQ(ss_dev_counters(d, &c1), 0);
	n1 = ss_dev_smart(d, &h, a1, 64);
	CHECK(n0 > 0 && n1 == n0);

	/* a scrape is no command: the link and command counts did not move across it */
	CHECK_EQ(m1.link_bytes_in, m0.link_bytes_in);
	CHECK_EQ(m1.link_bytes_out, m0.link_bytes_out);
	CHECK_EQ(m1.host_commands, m0.host_commands);
	CHECK(val(e, "smartssd_link_bytes_total{direction=\"in\"}") == (double)m0.link_bytes_in);
	CHECK(val(e, "smartssd_link_bytes_total{direction=\"out\"}") == (double)m0.link_bytes_out);
	CHECK(val(e, "smartssd_host_commands_total") == (double)m0.host_commands);
	/* and the test's own bytes went over the link */
	CHECK(val(e, "smartssd_link_bytes_total{direction=\"in\"}") >= (double)sizeof(data));
	CHECK(val(e, "smartssd_link_bytes_total{direction=\"out\"}") >= (double)sizeof(data));
	CHECK(val(e, "smartssd_isp_pages_total") >= (double)p.pages_done);
	CHECK(val(e, "smartssd_isp_instructions_total") >= (double)p.instructions);
	CHECK(val(e, "smartssd_busy_seconds_total{component=\"isp\"}") > 0);
	/* energy by component: in joules, the model's nJ over the bracket */
	CHECK(val(e, "smartssd_energy_joules_total{component=\"isp\"}") >=
	      (double)m0.energy_isp_nj / 1e9 - 1e-9);
	CHECK(val(e, "smartssd_energy_joules_total{component=\"isp\"}") <=
	      (double)m1.energy_isp_nj / 1e9 + 1e-9);
	CHECK(val(e, "smartssd_energy_joules_total{component=\"nand_erase\"}") >=
	      (double)m0.energy_nand_erase_nj / 1e9 - 1e-9);

	/* wear as COUNTERS and SMART say, read on both sides */
#define BETWEEN(k, lo, hi) CHECK(val(e, k) >= (double)(lo) && val(e, k) <= (double)(hi))
	BETWEEN("smartssd_device_time_seconds_total", (double)c0.power_on_ns / 1e9 - 1e-9,
		(double)c1.power_on_ns / 1e9 + 1e-9);
	BETWEEN("smartssd_erase_count{stat=\"min\"}", c0.min_erase_count, c1.min_erase_count);
	BETWEEN("smartssd_erase_count{stat=\"avg\"}", c0.avg_erase_count, c1.avg_erase_count);
	BETWEEN("smartssd_erase_count{stat=\"max\"}", c0.max_erase_count, c1.max_erase_count);
	BETWEEN("smartssd_block_erases_total", c0.block_erases, c1.block_erases);
	BETWEEN("smartssd_retired_blocks", c0.retired_blocks, c1.retired_blocks);
	BETWEEN("smartssd_host_pages_total{op=\"write\"}", c0.host_page_writes,
		c1.host_page_writes);
	BETWEEN("smartssd_nand_pages_total{op=\"write\"}", c0.nand_page_writes,
		c1.nand_page_writes);
	CHECK(val(e, "smartssd_host_pages_total{op=\"write\"}") >= (double)(sizeof(data) / 8192));
	BETWEEN("smartssd_free_bytes", f1.free_bytes < f0.free_bytes ? f1.free_bytes : f0.free_bytes,
		f1.free_bytes < f0.free_bytes ? f0.free_bytes : f1.free_bytes);
	CHECK(val(e, "smartssd_capacity_bytes") == (double)f0.capacity_bytes);
	CHECK(val(e, "smartssd_objects") == (double)f0.objects);
	snprintf(key, sizeof(key), "smartssd_smart_attribute_raw{id=\"%u\",attribute=\"%s\","
		 "unit=\"blocks\"}", SS_SMART_RETIRED_BLOCKS, "retired-blocks");
	BETWEEN(key, smart_raw(a0, n0, SS_SMART_RETIRED_BLOCKS),
		smart_raw(a1, n1, SS_SMART_RETIRED_BLOCKS));
	snprintf(key, sizeof(key), "smartssd_smart_attribute_raw{id=\"%u\",attribute=\"%s\","
		 "unit=\"erases\"}", SS_SMART_AVG_ERASE_COUNT, "average-erase-count");
	BETWEEN(key, smart_raw(a0, n0, SS_SMART_AVG_ERASE_COUNT),
		smart_raw(a1, n1, SS_SMART_AVG_ERASE_COUNT));
	snprintf(key, sizeof(key), "smartssd_smart_attribute_raw{id=\"%u\",attribute=\"%s\","
		 "unit=\"pages\"}", SS_SMART_NAND_PAGE_WRITES, "nand-page-writes");
	BETWEEN(key, smart_raw(a0, n0, SS_SMART_NAND_PAGE_WRITES),
		smart_raw(a1, n1, SS_SMART_NAND_PAGE_WRITES));
	/* the solid-state cache's figures are there on a drive that has one */
	CHECK(has_metric(e, "smartssd_cache_reads_total"));
	CHECK(has_metric(e, "smartssd_cache_read_hit_ratio"));

	/* the ledger: the share this connection's uid was given, exactly */
	snprintf(key, sizeof(key), "smartssd_ledger_energy_joules_total{uid=\"%u\"}",
		 (unsigned)getuid());
	CHECK(val(e, key) == (double)(sh.task_nj / 1000000000u) +
			     (double)(sh.task_nj % 1000000000u) / 1e9);
	snprintf(key, sizeof(key), "smartssd_ledger_tasks_total{uid=\"%u\"}", (unsigned)getuid());
	CHECK(val(e, key) == 1);
	/* the daemon: this connection is open, and was accepted */
	CHECK(val(e, "smartssd_daemon_connections") >= 1);
	CHECK(val(e, "smartssd_daemon_connections_accepted_total") >= 1);
	CHECK(val(e, "smartssd_daemon_refusals_total{reason=\"access_denied\"}") == 0);
	CHECK(val(e, "smartssd_metrics_scrapes_total") == 1);
#undef BETWEEN
	ss_dev_close(d);
	daemon_stop(&dm);
	free(e);
}

/* ---- the ledger's uids ---- */

#define LEDGER_UIDS 17
#define LEDGER_UID0 61000

/* A child as uid `uid`: one task with no work in a period of its own; its share's nJ on
 * out_fd, or UINT64_MAX when anything failed. */
static void ledger_child(const char *uri, uid_t uid, int out_fd)
{
	struct ss_dev_task_share sh;
	struct ss_dev *d = NULL;
	uint64_t ticket, nj = UINT64_MAX;
	long long deadline = ss_devd_spawn_now_ms() + 60000;
	int rc;

	if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)
		goto out;
	if (ss_dev_open(uri, NULL, &d) != 0 || ss_dev_energy_join(d, 0, &ticket) != 0 ||
	    ss_dev_energy_leave(d, ticket, 0) != 0)
		goto out;
	while ((rc = ss_dev_energy_share(d, ticket, &sh)) == -EAGAIN &&
	       ss_devd_spawn_now_ms() < deadline)
		usleep(1000);
	if (rc == 0)
		nj = sh.task_nj;
out:
	if (write(out_fd, &nj, sizeof(nj)) != (ssize_t)sizeof(nj))
		_exit(3);
	_exit(nj == UINT64_MAX ? 1 : 0);
}

/* 17 uids take a share each, one after another: the first 15 are series of their own, the
 * other 2 are counted together under uid 4294967295 from the first of them on (no uid's
 * series is ever renamed); the joules add up to the shares'. */
static void test_ledger_uids(void)
{
	char allow[LEDGER_UIDS * 8 + 8] = "0", key[96];
	const char *extra[] = { "--allow-uid", allow, "--socket-mode", "0666", NULL };
	struct daemon dm;
	struct expo *e;
	uint64_t total_nj = 0;
	double joules = 0, tasks = 0;

	if (geteuid() != 0)
		UT_SKIP("the ledger's uid table needs clients of 17 uids: root switches users");
	e = calloc(1, sizeof(*e));
	for (int i = 0; i < LEDGER_UIDS; i++) {
		snprintf(allow + strlen(allow), sizeof(allow) - strlen(allow), ",%d",
			 LEDGER_UID0 + i);
	}
	if (e == NULL || daemon_start_with(&dm, 0, extra) != 0) {
		CHECK(!"daemon started with --metrics");
		free(e);
		return;
	}
	CHECK_EQ(chmod(dm.t.dir, 0755), 0);
	for (int i = 0; i < LEDGER_UIDS; i++) {
		int p[2], status = -1;
		uint64_t nj = UINT64_MAX;
		pid_t child;

		CHECK_EQ(pipe(p), 0);
		child = fork();
		if (child == 0) {
			close(p[0]);
			ledger_child(dm.t.uri, (uid_t)(LEDGER_UID0 + i), p[1]);
		}
		close(p[1]);
		CHECK_EQ(read(p[0], &nj, sizeof(nj)), (ssize_t)sizeof(nj));
		close(p[0]);
		CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0);
		CHECK(nj != UINT64_MAX);
		total_nj += nj;
		if (i == 15) {
			/* the 16th uid is the first past the named ones: counted as the rest */
			CHECK_EQ(scrape(dm.metrics, e), 0);
			CHECK(val(e, "smartssd_ledger_tasks_total{uid=\"4294967295\"}") == 1);
			CHECK(!has_series(e, "smartssd_ledger_tasks_total{uid=\"61015\"}"));
		}
	}
	CHECK_EQ(scrape(dm.metrics, e), 0);
	for (int i = 0; i < LEDGER_UIDS; i++) {
		snprintf(key, sizeof(key), "smartssd_ledger_tasks_total{uid=\"%d\"}", LEDGER_UID0 + i);
		if (i < 15) {
			CHECK(val(e, key) == 1);
		} else {
			CHECK(!has_series(e, key));
		}
	}
	CHECK(val(e, "smartssd_ledger_tasks_total{uid=\"4294967295\"}") == 2);
	for (int i = 0; i < e->n; i++) {
		if (strcmp(e->s[i].name, "smartssd_ledger_tasks_total") == 0) {
			tasks += e->s[i].v;
		} else if (strcmp(e->s[i].name, "smartssd_ledger_energy_joules_total") == 0) {
			joules += e->s[i].v;
		}
	}
	CHECK(tasks == LEDGER_UIDS);
	CHECK(fabs(joules - (double)total_nj / 1e9) <= LEDGER_UIDS * 1e-9);
	daemon_stop(&dm);
	free(e);
}

/* ---- hostile clients ---- */

/* \return 1 when the listener closed fd (EOF or reset) within IO_MS, else 0. */
static int closed_by_peer(int fd, const char *what)
{
	char *a = NULL;
	ssize_t n = recv_all(fd, &a, what);

	free(a);
	return n >= 0 || n == -ECONNRESET;
}

/* The drive serves a command while fd is held open. */
static void drive_serves(struct ss_dev *d, const char *while_what)
{
	struct ss_dev_fsstat st;
	int rc = ss_dev_fsstat(d, &st);

	if (rc != 0)
		fprintf(stderr, "metrics_ut: FSSTAT failed (%d) while %s\n", rc, while_what);
	CHECK_EQ(rc, 0);
}

/* --metrics that cannot be served: the daemon exits before it is ready, naming the
 * problem (2: a bad command line; 1: an address it cannot listen on), and leaves no socket
 * behind. */
static void refused_arguments(struct devtest *t)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int taken = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char busy[32], err[256];
	const char *bad[] = { "127.0.0.1:65536", "127.0.0.1:", "[]:80", "x:y", "nohost.invalid:80",
			      busy };
	const int status[] = { 2, 2, 2, 2, 1, 1 };

	CHECK(taken >= 0 && bind(taken, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	      listen(taken, 1) == 0 && getsockname(taken, (struct sockaddr *)&a, &al) == 0);
	snprintf(busy, sizeof(busy), "127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "--image", t->image, "--socket", t->sock, "--metrics", bad[i],
				       NULL };
		struct stat st;
		pid_t pid;
		int rc = ss_devd_spawn(SS_DEVD_PATH, args, 60000, &pid, err, sizeof(err));

		if (rc == 0) {
			fprintf(stderr, "metrics_ut: --metrics %s was served\n", bad[i]);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		char want[40];

		snprintf(want, sizeof(want), "exited with status %d", status[i]);
		CHECK_EQ(rc, -ECHILD);
		if (strstr(err, want) == NULL) {
			fprintf(stderr, "metrics_ut: --metrics %s: %s, not %s\n", bad[i], err, want);
			ut_failures++;
		}
		CHECK(stat(t->sock, &st) != 0);
	}
	close(taken);
}

static void test_hostile(void)
{
	struct daemon dm;
	struct ss_dev *d = NULL;
	struct expo *e = calloc(1, sizeof(*e));
	char *a = NULL, big[16384 + 64];
	int slow, held[12], nheld = 0;

	if (e == NULL || daemon_start(&dm, 0) != 0) {
		CHECK(!"daemon started with --metrics");
		free(e);
		return;
	}
	CHECK_EQ(ss_dev_open(dm.t.uri, NULL, &d), 0);

	/* a request with no end: the drive and other scrapes are served meanwhile, and the
	 * listener closes it at its timeout */
	slow = tcp_connect(dm.metrics);
	CHECK(slow >= 0);
	CHECK_EQ(send_all(slow, "GET /metrics HTTP/1.1\r\nHost: x\r\n", 32), 0);
	drive_serves(d, "a request hangs unfinished");
	CHECK_EQ(scrape(dm.metrics, e), 0);
	CHECK(closed_by_peer(slow, "a request with no end"));
	close(slow);

	/* an oversized head: 431, closed */
	memcpy(big, "GET /metrics HTTP/1.1\r\nX-Pad: ", 30);
	memset(big + 30, 'x', sizeof(big) - 31);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ(http(dm.metrics, big, &a), 431);
	free(a);
	a = NULL;
	/* other methods: 405 with Allow; other paths: 404; HEAD: the head only */
	CHECK_EQ(http(dm.metrics, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &a), 405);
	CHECK(a != NULL && strstr(a, "\r\nAllow: GET, HEAD\r\n") != NULL);
	free(a);
	a = NULL;
	CHECK_EQ(http(dm.metrics, "GET /metricsX HTTP/1.1\r\n\r\n", &a), 404);
	free(a);
	a = NULL;
	CHECK_EQ(http(dm.metrics, "GET / HTTP/1.1\r\n\r\n", &a), 404);
	free(a);
	a = NULL;
	CHECK_EQ(http(dm.metrics, "garbage\r\n\r\n", &a), 400);
	free(a);
	a = NULL;
	CHECK_EQ(http(dm.metrics, "HEAD /metrics HTTP/1.1\r\n\r\n", &a), 200);
	CHECK(a != NULL && strstr(a, "\r\n\r\n") != NULL && strstr(a, "\r\n\r\n")[4] == '\0');
	free(a);
	a = NULL;

	/* more silent connections than the listener keeps: the extra ones are closed at
	 * once, the drive serves, and once the held ones time out a scrape is answered */
	for (nheld = 0; nheld < 12; nheld++) {
		held[nheld] = tcp_connect(dm.metrics);
		CHECK(held[nheld] >= 0);
	}
	drive_serves(d, "the listener is full of silent connections");
	for (int i = 0; i < nheld; i++) {
		CHECK(closed_by_peer(held[i], "a silent connection"));
		close(held[i]);
	}
	CHECK_EQ(scrape(dm.metrics, e), 0);
	CHECK(val(e, "smartssd_metrics_rejected_requests_total{reason=\"busy\"}") >= 4);
	CHECK(val(e, "smartssd_metrics_rejected_requests_total{reason=\"method\"}") == 1);
	CHECK(val(e, "smartssd_metrics_rejected_requests_total{reason=\"not_found\"}") == 2);
	CHECK(val(e, "smartssd_metrics_rejected_requests_total{reason=\"too_large\"}") == 1);
	CHECK(val(e, "smartssd_metrics_rejected_requests_total{reason=\"malformed\"}") == 1);
	drive_serves(d, "after the hostile clients");
	ss_dev_close(d);
	daemon_exit(&dm.t);
	refused_arguments(&dm.t);
	devtest_cleanup(&dm.t);
	free(e);
}

/* ---- the Grafana dashboard's queries ---- */

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	if (f == NULL) {
		fprintf(stderr, "metrics_ut: cannot read %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* The next "expr" string of the dashboard's JSON after *cursor, unescaped into out.
 * \return 1, or 0 at the end (or on a string that does not end). */
static int next_expr(const char **cursor, char *out, size_t cap)
{
	const char *p = strstr(*cursor, "\"expr\"");
	size_t n = 0;

	if (p == NULL || (p = strchr(p + 6, '"')) == NULL) {
		return 0;
	}
	for (p++; *p != '"'; p++) {
		char c = *p;

		if (c == '\0' || n + 1 >= cap) {
			return 0;
		}
		if (c == '\\') {
			c = *++p;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;   /* \" \\ \/ stand for themselves */
		}
		out[n++] = c;
	}
	out[n] = '\0';
	*cursor = p + 1;
	return 1;
}

/* ---- the real Prometheus ---- */

#define PROM_WAIT_MS 90000
#define PROM_PORT_TRIES 10

/* The value of the first sample of a /api/v1/query answer: 1 and *v, 0 when the result is
 * still empty, -1 when the answer is not a success. */
static int prom_value(const char *answer, double *v)
{
	const char *p = strstr(answer, "\"status\":\"success\"");
	char *end;

	if (p == NULL) {
		return -1;
	}
	p = strstr(p, "\"value\":[");
	if (p == NULL) {
		return 0;
	}
	p = strchr(p, ',');
	if (p == NULL || p[1] != '"') {
		return -1;
	}
	*v = strtod(p + 2, &end);
	return *end == '"' ? 1 : -1;
}

/* GET path of Prometheus at hostport. \return the HTTP status and the answer's body. */
static int prom_get(const char *hostport, const char *path, char **body)
{
	char req[8192], *a = NULL;
	int status;

	snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
		 path, hostport);
	status = http(hostport, req, &a);
	if (status < 0) {
		return status;
	}
	*body = a;
	return status;
}

/* Start Prometheus on a port of its own, scraping `target` every second; bounded retries
 * on a port taken meanwhile. \return 0, its pid and address, or a negative errno. */
static int prom_start(const char *dir, const char *target, pid_t *pid, char *addr,
		      size_t addr_cap)
{
	char conf[160], tsdb[160], log[160], listen[100], line[512];
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/prometheus.yml", dir);
	snprintf(log, sizeof(log), "%s/prometheus.log", dir);
	f = fopen(conf, "w");
	if (f == NULL) {
		return -errno;
	}
	fprintf(f, "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
		   "scrape_configs:\n  - job_name: smartssd\n    static_configs:\n"
		   "      - targets: ['%s']\n", target);
	fclose(f);
	srand((unsigned)getpid() ^ (unsigned)ss_devd_spawn_now_ms());
	for (int attempt = 0; attempt < PROM_PORT_TRIES; attempt++) {
		int port = 20000 + rand() % 20000, status, in_use = 0;
		long long deadline = ss_devd_spawn_now_ms() + PROM_WAIT_MS;
		pid_t child;

		snprintf(addr, addr_cap, "127.0.0.1:%d", port);
		snprintf(listen, sizeof(listen), "--web.listen-address=%s", addr);
		snprintf(tsdb, sizeof(tsdb), "--storage.tsdb.path=%s/tsdb%d", dir, attempt);
		snprintf(line, sizeof(line), "--config.file=%s", conf);
		child = fork();
		if (child < 0) {
			return -errno;
		}
		if (child == 0) {
			int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execlp("prometheus", "prometheus", line, tsdb, listen, (char *)NULL);
			_exit(127);
		}
		/* readiness is Prometheus's /-/ready: polled, bounded, until it answers 200 */
		for (;;) {
			char *body = NULL;
			int st = prom_get(addr, "/-/ready", &body);

			free(body);
			if (st == 200) {
				*pid = child;
				return 0;
			}
			if (waitpid(child, &status, WNOHANG) == child) {
				break;
			}
			if (ss_devd_spawn_now_ms() > deadline) {
				kill(child, SIGKILL);
				waitpid(child, &status, 0);
				fprintf(stderr, "metrics_ut: prometheus on %s not ready within %d ms "
					"(its log: %s)\n", addr, PROM_WAIT_MS, log);
				return -ETIMEDOUT;
			}
			usleep(100000);
		}
		/* it ended: a port taken since we chose it is retried, anything else is not */
		f = fopen(log, "r");
		while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
			in_use |= strstr(line, "address already in use") != NULL;
		}
		if (f != NULL) {
			fclose(f);
		}
		if (!in_use) {
			fprintf(stderr, "metrics_ut: prometheus exited (status %d) before it was "
				"ready; its log: %s\n", status, log);
			return -ECHILD;
		}
		fprintf(stderr, "metrics_ut: port %d taken; trying another\n", port);
	}
	fprintf(stderr, "metrics_ut: no free port for prometheus in %d tries\n", PROM_PORT_TRIES);
	return -EADDRINUSE;
}

/* Poll a PromQL query (URL-encoded) until it has a sample, bounded. \return 0 and *v. */
static int prom_query(const char *addr, const char *query, const char *what, double *v)
{
	long long deadline = ss_devd_spawn_now_ms() + PROM_WAIT_MS;
	char path[512];

	snprintf(path, sizeof(path), "/api/v1/query?query=%s", query);
	for (;;) {
		char *body = NULL;
		int st = prom_get(addr, path, &body), rc = -1;

		if (st == 200) {
			char *b = strstr(body, "\r\n\r\n");

			rc = prom_value(b ? b + 4 : body, v);
		}
		if (rc < 0 && st >= 0) {
			fprintf(stderr, "metrics_ut: prometheus query %s: status %d: %.300s\n", what,
				st, body ? body : "");
		}
		free(body);
		if (rc == 1) {
			return 0;
		}
		if (rc < 0 && st >= 0) {
			return -EPROTO;
		}
		if (ss_devd_spawn_now_ms() > deadline) {
			fprintf(stderr, "metrics_ut: prometheus had no sample of %s within %d ms\n",
				what, PROM_WAIT_MS);
			return -ETIMEDOUT;
		}
		usleep(200000);
	}
}

/* The dashboard's expressions as Grafana would send them ($__rate_interval 1m, every
 * drive for $instance), each evaluated by Prometheus: PromQL it accepts. */
static void prom_check_dashboard(const char *addr, const char *path)
{
	char *text = read_file(path), expr[2048], q[6144], url[6400];
	const char *cursor = text;
	int n = 0;

	CHECK(text != NULL);
	while (text != NULL && next_expr(&cursor, expr, sizeof(expr))) {
		size_t k = 0;
		char *body = NULL;
		int st;

		for (const char *s = expr; *s != '\0' && k + 8 < sizeof(q); s++) {
			if (strncmp(s, "$__rate_interval", 16) == 0) {
				k += (size_t)snprintf(q + k, sizeof(q) - k, "1m");
				s += 15;
			} else if (strncmp(s, "$instance", 9) == 0) {
				k += (size_t)snprintf(q + k, sizeof(q) - k, ".%%2A");
				s += 8;
			} else if (isalnum((unsigned char)*s) || strchr("_.-~", *s) != NULL) {
				q[k++] = *s;
			} else {
				k += (size_t)snprintf(q + k, sizeof(q) - k, "%%%02X", (unsigned char)*s);
			}
		}
		q[k] = '\0';
		snprintf(url, sizeof(url), "/api/v1/query?query=%s", q);
		st = prom_get(addr, url, &body);
		if (st != 200 || strstr(body, "\"status\":\"success\"") == NULL) {
			fprintf(stderr, "metrics_ut: prometheus refused the dashboard's '%s': %d %.300s\n",
				expr, st, body ? body : "");
			ut_failures++;
		}
		free(body);
		n++;
	}
	fprintf(stderr, "metrics_ut: prometheus evaluated the dashboard's %d expressions\n", n);
	CHECK(n >= 8);
	free(text);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

static void test_prometheus(const char *dashboard)
{
	static char data[256 * 1024];
	struct daemon dm;
	struct ss_dev *d = NULL;
	struct expo *e = calloc(1, sizeof(*e));
	char addr[64], err[256];
	double in = NAN, erases = NAN, up = NAN, samples = NAN, isp = NAN;
	uint64_t oid;
	pid_t prom = 0;
	int status;

	if (system("command -v prometheus >/dev/null 2>&1") != 0) {
		free(e);
		UT_SKIP("no prometheus on PATH (bin/ensure-deps installs Debian's)");
	}
	if (e == NULL || daemon_start(&dm, 0) != 0) {
		CHECK(!"daemon started with --metrics");
		free(e);
		return;
	}
	/* the drive's work is done before Prometheus starts: every scrape sees one state */
	CHECK_EQ(ss_dev_open(dm.t.uri, NULL, &d), 0);
	memset(data, 'x', sizeof(data));
	CHECK_EQ(ss_dev_create(d, "/f", SS_DEV_FILE, 0, &oid), 0);
	CHECK_EQ(ss_dev_write(d, oid, 0, data, sizeof(data), 0), (int64_t)sizeof(data));
	CHECK_EQ(ss_dev_flush(d), 0);
	ss_dev_close(d);
	CHECK_EQ(scrape(dm.metrics, e), 0);
	if (prom_start(dm.t.dir, dm.metrics, &prom, addr, sizeof(addr)) != 0) {
		CHECK(!"prometheus started");
		goto out;
	}
	CHECK_EQ(prom_query(addr, "up%7Bjob%3D%22smartssd%22%7D", "up", &up), 0);
	/* up is 1 once a scrape succeeded, so the samples below are from one */
	CHECK_EQ(prom_query(addr, "smartssd_link_bytes_total%7Bdirection%3D%22in%22%7D",
			    "smartssd_link_bytes_total{direction=\"in\"}", &in), 0);
	CHECK_EQ(prom_query(addr, "smartssd_block_erases_total", "smartssd_block_erases_total",
			    &erases), 0);
	CHECK_EQ(prom_query(addr, "smartssd_isp_queue_instances", "smartssd_isp_queue_instances",
			    &isp), 0);
	CHECK_EQ(prom_query(addr, "scrape_samples_scraped%7Bjob%3D%22smartssd%22%7D",
			    "scrape_samples_scraped", &samples), 0);
	fprintf(stderr, "metrics_ut: prometheus on %s: up %g, link bytes in %g (daemon: %g), "
		"%g samples a scrape (test's parser: %d)\n", addr, up, in,
		val(e, "smartssd_link_bytes_total{direction=\"in\"}"), samples, e->n);
	CHECK(up == 1);
	CHECK(in == val(e, "smartssd_link_bytes_total{direction=\"in\"}"));
	CHECK(in >= (double)sizeof(data));
	CHECK(erases == val(e, "smartssd_block_erases_total"));
	CHECK(isp == val(e, "smartssd_isp_queue_instances"));
	/* Prometheus took every series the test's parser found, no more, no fewer */
	CHECK(samples == (double)e->n);
	if (dashboard != NULL) {
		prom_check_dashboard(addr, dashboard);
	}
	kill(prom, SIGTERM);
	if (ss_devd_wait_exit(prom, 60000, &status, "prometheus", err, sizeof(err)) != 0) {
		fprintf(stderr, "metrics_ut: %s\n", err);
	}
out:
	daemon_stop(&dm);
	/* Prometheus's files, which devtest_cleanup does not know */
	if (nftw(dm.t.dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT) {
		fprintf(stderr, "metrics_ut: cannot remove %s: %s\n", dm.t.dir, strerror(errno));
	}
	free(e);
}

/* ---- the dashboard ---- */

/* Every metric name in the dashboard's "expr" strings (identifiers that start smartssd_)
 * is a family a live daemon with a solid-state cache declares. */
static void test_dashboard(const char *path)
{
	struct daemon dm;
	struct expo *e = calloc(1, sizeof(*e));
	char *text = read_file(path), expr[2048];
	const char *cursor = text;
	int exprs = 0, names = 0;

	if (text == NULL || e == NULL || daemon_start(&dm, 100) != 0) {
		CHECK(!"dashboard read, daemon started with --metrics");
		free(text);
		free(e);
		return;
	}
	CHECK_EQ(scrape(dm.metrics, e), 0);
	while (next_expr(&cursor, expr, sizeof(expr))) {
		exprs++;
		for (char *s = expr; *s != '\0'; s++) {
			char name[128];
			size_t n;

			if (strncmp(s, "smartssd_", 9) != 0 ||
			    (s > expr && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))) {
				continue;
			}
			n = name_len(s);
			if (n >= sizeof(name)) {
				continue;
			}
			memcpy(name, s, n);
			name[n] = '\0';
			names++;
			/* exported: a family the exposition declares (the ledger's has samples
			 * only once a share was delivered) */
			if (family_of(e, name, 0) == NULL) {
				fprintf(stderr, "metrics_ut: the dashboard queries %s, which the daemon "
					"does not export\n", name);
				ut_failures++;
			}
			s += n - 1;
		}
	}
	fprintf(stderr, "metrics_ut: %d expressions, %d metric names checked\n", exprs, names);
	CHECK(exprs >= 8);
	CHECK(names >= exprs);
	daemon_stop(&dm);
	free(text);
	free(e);
}

/* The operator's list (docs/operations.md) and the exposition name the same metrics: every
 * family a live daemon with a cache declares is in the file as `name`, and every `smartssd_`
 * name there is a family. */
static void test_docs(const char *path)
{
	struct daemon dm;
	struct expo *e = calloc(1, sizeof(*e));
	char *text = read_file(path);
	int listed = 0;

	if (text == NULL || e == NULL || daemon_start(&dm, 100) != 0) {
		CHECK(!"docs read, daemon started with --metrics");
		free(text);
		free(e);
		return;
	}
	CHECK_EQ(scrape(dm.metrics, e), 0);
	for (int i = 0; i < e->nfam; i++) {
		char quoted[140];

		snprintf(quoted, sizeof(quoted), "`%s`", e->fam[i].name);
		if (strstr(text, quoted) == NULL) {
			fprintf(stderr, "metrics_ut: %s does not list %s\n", path, e->fam[i].name);
			ut_failures++;
		}
	}
	for (const char *p = text; (p = strstr(p, "`smartssd_")) != NULL; p++) {
		size_t n = name_len(p + 1);
		char name[128];

		if (n >= sizeof(name) || p[1 + n] != '`' || p[n] == '_') {
			continue;   /* not a whole name: a prefix (`smartssd_cache_`) or an expression */
		}
		memcpy(name, p + 1, n);
		name[n] = '\0';
		listed++;
		if (family_of(e, name, 0) == NULL) {
			fprintf(stderr, "metrics_ut: %s lists %s, which the daemon does not export\n",
				path, name);
			ut_failures++;
		}
	}
	fprintf(stderr, "metrics_ut: %d families exported, %d names listed in %s\n", e->nfam,
		listed, path);
	CHECK(listed >= e->nfam);
	daemon_stop(&dm);
	free(text);
	free(e);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	signal(SIGPIPE, SIG_IGN);
	if (strcmp(what, "scrape") == 0) {
		test_scrape();
	} else if (strcmp(what, "hostile") == 0) {
		test_hostile();
	} else if (strcmp(what, "ledger_uids") == 0) {
		test_ledger_uids();
		if (ut_skips) {
			return UT_SKIPPED;
		}
	} else if (strcmp(what, "prometheus") == 0) {
		test_prometheus(argc > 2 ? argv[2] : NULL);
		if (ut_skips) {
			return UT_SKIPPED;
		}
	} else if (strcmp(what, "docs") == 0 && argc == 3) {
		test_docs(argv[2]);
	} else if (strcmp(what, "dashboard") == 0 && argc == 3) {
		test_dashboard(argv[2]);
	} else {
		fprintf(stderr, "usage: metrics_ut scrape|hostile|ledger_uids|prometheus [DASHBOARD]|dashboard DASHBOARD|docs "
			"OPERATIONS_MD\n");
		return 2;
	}
	return ut_report("metrics_ut");
}
