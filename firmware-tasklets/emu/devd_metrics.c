/*
 * smartssd-devd --metrics: the drive's figures in Prometheus's text exposition format
 * (version 0.0.4) on GET /metrics, for an operator's scraper.
 *
 * One thread of its own runs a poll loop over the listening socket and at most
 * MAX_CLIENTS connections: the command path never waits for it. A scrape copies a snapshot
 * under the firmware's lock, one reading at a time (ss_emu_read_reply, which is no command:
 * scraping moves none of the figures it reports), and the daemon's own counts under its
 * lock (the stats callback). What a client can make it hold is bounded: a request of at
 * most REQ_MAX bytes that must arrive, and its answer be taken, within REQ_TIMEOUT_MS of
 * the connection; past either, the connection is closed. Every answer closes the
 * connection (no keep-alive): a client holds a place for one request only, and what it
 * sends after its request is read and dropped until it closes or its time is up.
 *
 * The metrics are one table (metrics[]), each entry naming the wire field it reads by
 * offsetof into the reply's wire struct (the field lists of protocol/include/
 * ss_proto_replies.h), so a renamed field fails the build here. SMART's attributes come
 * from SS_PROTO_SMART_ATTRS, names and units as the host shows them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "devd_internal.h"
#include "ss_emu.h"
#include "ss_fw.h"
#include "ss_proto.h"
#include "ss_rt.h"

#define MAX_CLIENTS 8
#define REQ_MAX 8192
#define REQ_TIMEOUT_MS 5000

enum source {
	SRC_COUNTERS,
	SRC_MODEL,
	SRC_FSSTAT,
	SRC_ISP_QUEUE,
	SRC_SSC,     /* only on a drive with a solid-state cache */
	SRC_COUNT,
};

enum scale {
	RAW,         /* the field as it is */
	NANO,        /* ns -> s, nJ -> J */
	MILLI,       /* thousandths -> ratio */
};

struct metric {
	const char *name;
	const char *type;        /* "counter" or "gauge" */
	const char *help;
	const char *labels;      /* "" or `key="value"` */
	enum source src;
	uint16_t off;
	uint8_t size;            /* 4 or 8 */
	enum scale scale;
};

#define F(st, field) offsetof(struct st, field), sizeof(((struct st *)0)->field)
#define C(field) SRC_COUNTERS, F(ss_wire_counters, field)
#define M(field) SRC_MODEL, F(ss_wire_model, field)
#define S(field) SRC_SSC, F(ss_wire_ssc_info, field)

/* Series of one family are consecutive: HELP and TYPE go before the first. */
static const struct metric metrics[] = {
	/* the FTL: wear and write amplification (COUNTERS) */
	{ "smartssd_erase_count", "gauge", "Erase count of the drive's blocks (erases).",
	  "stat=\"min\"", C(min_erase_count), RAW },
	{ "smartssd_erase_count", "gauge", NULL, "stat=\"avg\"", C(avg_erase_count), RAW },
	{ "smartssd_erase_count", "gauge", NULL, "stat=\"max\"", C(max_erase_count), RAW },
	{ "smartssd_retired_blocks", "gauge", "Erase blocks retired as worn out or failed.", "",
	  C(retired_blocks), RAW },
	{ "smartssd_free_blocks", "gauge", "Erase blocks free for writing.", "",
	  C(free_blocks), RAW },
	{ "smartssd_block_erases_total", "counter", "Block erases by the FTL since power-on.", "",
	  C(block_erases), RAW },
	{ "smartssd_gc_page_moves_total", "counter",
	  "Pages moved by garbage collection since power-on.", "", C(gc_page_moves), RAW },
	{ "smartssd_host_pages_total", "counter", "Pages read and written by hosts since power-on.",
	  "op=\"read\"", C(host_page_reads), RAW },
	{ "smartssd_host_pages_total", "counter", NULL, "op=\"write\"", C(host_page_writes), RAW },
	{ "smartssd_nand_pages_total", "counter", "Flash pages read and programmed since power-on.",
	  "op=\"read\"", C(nand_page_reads), RAW },
	{ "smartssd_nand_pages_total", "counter", NULL, "op=\"write\"", C(nand_page_writes), RAW },
	{ "smartssd_write_amplification_ratio", "gauge",
	  "Flash page writes per host page write since power-on.", "",
	  C(write_amplification_milli), MILLI },
	/* the DRAM buffer (COUNTERS) */
	{ "smartssd_buffer_pages_total", "counter",
	  "Pages asked of the DRAM buffer, and those it had (hits).", "op=\"read\"",
	  C(buffer_read_pages), RAW },
	{ "smartssd_buffer_pages_total", "counter", NULL, "op=\"read_hit\"", C(buffer_read_hits),
	  RAW },
	{ "smartssd_buffer_pages_total", "counter", NULL, "op=\"write\"", C(buffer_write_pages),
	  RAW },
	{ "smartssd_buffer_pages_total", "counter", NULL, "op=\"write_hit\"",
	  C(buffer_write_hits), RAW },
	{ "smartssd_buffer_pages_total", "counter", NULL, "op=\"flushed\"",
	  C(buffer_flushed_pages), RAW },
	{ "smartssd_buffer_pages_total", "counter", NULL, "op=\"padding_read\"",
	  C(buffer_padding_reads), RAW },
	{ "smartssd_buffer_merges_total", "counter", "Writes merged into a buffered page.", "",
	  C(buffer_merges), RAW },
	{ "smartssd_buffer_evictions_total", "counter", "Pages evicted from the DRAM buffer.", "",
	  C(buffer_evictions), RAW },
	{ "smartssd_buffer_capacity_pages", "gauge", "Pages the DRAM buffer holds.", "",
	  C(buffer_pages), RAW },
	/* the emulator's model: link, busy time, energy, flash traffic (model counters) */
	{ "smartssd_link_bytes_total", "counter", "Bytes over the host link.", "direction=\"in\"",
	  M(link_bytes_in), RAW },
	{ "smartssd_link_bytes_total", "counter", NULL, "direction=\"out\"", M(link_bytes_out),
	  RAW },
	{ "smartssd_host_commands_total", "counter", "Host commands the drive executed.", "",
	  M(host_commands), RAW },
	{ "smartssd_flash_bytes_total", "counter", "Bytes read from and programmed to the flash.",
	  "op=\"read\"", M(bytes_read), RAW },
	{ "smartssd_flash_bytes_total", "counter", NULL, "op=\"program\"", M(bytes_programmed),
	  RAW },
	{ "smartssd_flash_failures_total", "counter",
	  "Erases that found a block worn out, programs refused on a failed block.",
	  "op=\"erase\"", M(erase_failures), RAW },
	{ "smartssd_flash_failures_total", "counter", NULL, "op=\"program\"",
	  M(program_failures), RAW },
	{ "smartssd_busy_seconds_total", "counter", "Modelled busy time by component.",
	  "component=\"die\"", M(die_busy_ns), NANO },
	{ "smartssd_busy_seconds_total", "counter", NULL, "component=\"channel\"",
	  M(channel_busy_ns), NANO },
	{ "smartssd_busy_seconds_total", "counter", NULL, "component=\"link\"", M(link_busy_ns),
	  NANO },
	{ "smartssd_busy_seconds_total", "counter", NULL, "component=\"isp\"", M(isp_busy_ns),
	  NANO },
	{ "smartssd_isp_pages_total", "counter", "Pages processed by in-storage tasklets.", "",
	  M(isp_pages), RAW },
	{ "smartssd_isp_instructions_total", "counter", "Instructions run by in-storage tasklets.",
	  "", M(isp_instructions), RAW },
	{ "smartssd_isp_dram_accesses_total", "counter",
	  "DRAM accesses by in-storage tasklets.", "", M(isp_dram_accesses), RAW },
	{ "smartssd_energy_joules_total", "counter", "Modelled energy by component.",
	  "component=\"nand_read\"", M(energy_nand_read_nj), NANO },
	{ "smartssd_energy_joules_total", "counter", NULL, "component=\"nand_program\"",
	  M(energy_nand_program_nj), NANO },
	{ "smartssd_energy_joules_total", "counter", NULL, "component=\"nand_erase\"",
	  M(energy_nand_erase_nj), NANO },
	{ "smartssd_energy_joules_total", "counter", NULL, "component=\"link\"",
	  M(energy_link_nj), NANO },
	{ "smartssd_energy_joules_total", "counter", NULL, "component=\"isp\"", M(energy_isp_nj),
	  NANO },
	{ "smartssd_energy_joules_total", "counter", NULL, "component=\"idle\"",
	  M(energy_idle_nj), NANO },
	{ "smartssd_device_time_seconds_total", "counter",
	  "Modelled device time since power-on (COUNTERS' power_on_ns).", "", M(now_ns), NANO },
	/* space (FSSTAT) */
	{ "smartssd_capacity_bytes", "gauge", "Bytes the object store can hold.", "",
	  SRC_FSSTAT, F(ss_wire_fsstat, capacity_bytes), RAW },
	{ "smartssd_free_bytes", "gauge", "Bytes free in the object store.", "", SRC_FSSTAT,
	  F(ss_wire_fsstat, free_bytes), RAW },
	{ "smartssd_objects", "gauge", "Objects the drive holds for hosts.", "", SRC_FSSTAT,
	  F(ss_wire_fsstat, objects), RAW },
	{ "smartssd_max_objects", "gauge", "Objects the drive can hold.", "", SRC_FSSTAT,
	  F(ss_wire_fsstat, max_objects), RAW },
	/* the in-storage queue (ISP_QUEUE) */
	{ "smartssd_isp_queue_instances", "gauge", "Tasklet runs executing (queued or running).",
	  "", SRC_ISP_QUEUE, F(ss_wire_isp_queue, instances), RAW },
	{ "smartssd_isp_queue_pages", "gauge", "Pages the executing runs have left.", "",
	  SRC_ISP_QUEUE, F(ss_wire_isp_queue, pages_remaining), RAW },
	{ "smartssd_isp_queue_backlog_seconds", "gauge",
	  "The drive's estimate of ISP core time the executing runs still need.", "",
	  SRC_ISP_QUEUE, F(ss_wire_isp_queue, backlog_ns), NANO },
	/* the solid-state cache (SSC_INFO), on a drive that has one */
	{ "smartssd_cache_capacity_blocks", "gauge", "Cache blocks (flash pages) of the cache.",
	  "", S(capacity_blocks), RAW },
	{ "smartssd_cache_blocks", "gauge", "Cache blocks held now, and of them dirty.",
	  "state=\"cached\"", S(cached_blocks), RAW },
	{ "smartssd_cache_blocks", "gauge", NULL, "state=\"dirty\"", S(dirty_blocks), RAW },
	{ "smartssd_cache_reads_total", "counter", "Cache block reads since power-on, by result.",
	  "result=\"hit\"", S(read_hits), RAW },
	{ "smartssd_cache_reads_total", "counter", NULL, "result=\"miss\"", S(read_misses), RAW },
	{ "smartssd_cache_bytes_total", "counter",
	  "Cache traffic since format: bytes read as hits, filled (write-clean), written dirty, "
	  "turned clean.", "op=\"hit\"", S(hit_bytes), RAW },
	{ "smartssd_cache_bytes_total", "counter", NULL, "op=\"fill\"", S(filled_bytes), RAW },
	{ "smartssd_cache_bytes_total", "counter", NULL, "op=\"write_dirty\"",
	  S(dirty_written_bytes), RAW },
	{ "smartssd_cache_bytes_total", "counter", NULL, "op=\"clean\"", S(cleaned_bytes), RAW },
	{ "smartssd_cache_clean_operations_total", "counter",
	  "SSC_CLEAN commands completed since format.", "", S(clean_ops), RAW },
	{ "smartssd_cache_evictions_total", "counter",
	  "Cache blocks evicted: by SSC_EVICT since format, silently by garbage collection since "
	  "power-on.", "kind=\"evict\"", S(evicted_blocks), RAW },
	{ "smartssd_cache_evictions_total", "counter", NULL, "kind=\"silent\"",
	  S(silent_evicted_pages), RAW },
	{ "smartssd_cache_write_amplification_ratio", "gauge",
	  "Cache flash page writes per host page write.", "", S(write_amplification_milli),
	  MILLI },
	{ "smartssd_cache_retired_blocks", "gauge", "Erase blocks of the cache worn out in use.",
	  "", S(retired_blocks), RAW },
};

struct client {
	int fd;                   /* -1: free */
	long long deadline;
	char in[REQ_MAX];
	size_t in_len;
	char *out;
	size_t out_len, out_off;
	int draining;             /* answered: what the client still sends is read and dropped */
};

struct devd_metrics {
	int lfd;
	int stop_fd;
	pthread_t thread;
	struct ss_emu_drive *drive;
	devd_stats_fn stats;
	struct client clients[MAX_CLIENTS];
	/* the listener's own counts, its thread's */
	uint64_t scrapes, refused_busy, bad[4];
};

enum bad_request { BAD_NOT_FOUND, BAD_METHOD, BAD_MALFORMED, BAD_TOO_LARGE };
static const char *const bad_names[] = { "not_found", "method", "malformed", "too_large" };

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A growing text buffer; on running out of memory it stays short and says so. */
struct text {
	char *p;
	size_t len, cap;
	int oom;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0 || t->oom) {
			return;
		}
		if (t->p != NULL && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		{
			size_t cap = t->cap ? t->cap * 2 : 16384;
			char *p;

			while (cap <= t->len + (size_t)n) {
				cap *= 2;
			}
			p = realloc(t->p, cap);
			if (p == NULL) {
				t->oom = 1;
				return;
			}
			t->p = p;
			t->cap = cap;
		}
	}
}

static void family(struct text *t, const char *name, const char *type, const char *help)
{
	put(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void value(struct text *t, uint64_t v, enum scale s)
{
	switch (s) {
	case NANO:
		put(t, "%llu.%09llu\n", (unsigned long long)(v / 1000000000u),
		    (unsigned long long)(v % 1000000000u));
		break;
	case MILLI:
		put(t, "%llu.%03llu\n", (unsigned long long)(v / 1000u),
		    (unsigned long long)(v % 1000u));
		break;
	default:
		put(t, "%llu\n", (unsigned long long)v);
		break;
	}
}

static void sample_u64(struct text *t, const char *name, const char *labels, uint64_t v,
		       enum scale s)
{
	put(t, "%s%s%s%s ", name, labels[0] ? "{" : "", labels, labels[0] ? "}" : "");
	value(t, v, s);
}

static void ratio(struct text *t, const char *name, const char *help, uint64_t num,
		  uint64_t den)
{
	family(t, name, "gauge", help);
	put(t, "%s %.6f\n", name, den ? (double)num / (double)den : 0.0);
}

static uint64_t field(const uint8_t *b, const struct metric *m)
{
	return m->size == 8 ? ss_get_le64(b + m->off) : ss_get_le32(b + m->off);
}

/* SMART's attributes, named by SS_PROTO_SMART_ATTRS. */
static void smart(struct text *t, struct ss_emu_drive *d)
{
	static const struct {
		uint8_t id;
		const char *name;
		const char *unit;
	} names[] = {
#define SMART_NAME_(sym, id, name, unit, atasmart) { id, name, unit },
		SS_PROTO_SMART_ATTRS(SMART_NAME_)
#undef SMART_NAME_
	};
	static const char *const kinds[] = { "value", "worst", "raw" };
	struct ss_fw_smart_attr a[SS_FW_SMART_ATTRS_MAX];
	int n = ss_emu_smart_attributes(d, a, SS_FW_SMART_ATTRS_MAX);

	for (int k = 0; k < 3 && n > 0; k++) {
		char fam[64];

		snprintf(fam, sizeof(fam), "smartssd_smart_attribute_%s", kinds[k]);
		family(t, fam, "gauge", k == 0 ? "SMART attribute's normalised value (100 best)." :
				  k == 1 ? "SMART attribute's worst normalised value." :
					   "SMART attribute's raw value, in its unit.");
		for (int i = 0; i < n; i++) {
			const char *name = "unknown", *unit = "";
			uint64_t v = k == 0 ? a[i].value : k == 1 ? a[i].worst : a[i].raw;

			for (size_t j = 0; j < sizeof(names) / sizeof(names[0]); j++) {
				if (names[j].id == a[i].id) {
					name = names[j].name;
					unit = names[j].unit;
				}
			}
			put(t, "%s{id=\"%u\",attribute=\"%s\",unit=\"%s\"} %llu\n", fam,
			    (unsigned)a[i].id, name, unit, (unsigned long long)v);
		}
	}
}

static void daemon_stats(struct text *t, struct devd_metrics *m)
{
	struct devd_stats st;

	memset(&st, 0, sizeof(st));
	m->stats(&st);
	family(t, "smartssd_daemon_connections", "gauge", "Connections open to the daemon.");
	put(t, "smartssd_daemon_connections %d\n", st.conns);
	family(t, "smartssd_daemon_max_connections", "gauge", "--max-connections.");
	put(t, "smartssd_daemon_max_connections %d\n", st.max_conns);
	family(t, "smartssd_daemon_connections_accepted_total", "counter",
	       "Connections the daemon accepted and served.");
	put(t, "smartssd_daemon_connections_accepted_total %llu\n",
	    (unsigned long long)st.accepted);
	family(t, "smartssd_daemon_refusals_total", "counter",
	       "Connections refused: peer not allowed, or --max-connections reached.");
	put(t, "smartssd_daemon_refusals_total{reason=\"access_denied\"} %llu\n",
	    (unsigned long long)st.refused_access);
	put(t, "smartssd_daemon_refusals_total{reason=\"too_many_connections\"} %llu\n",
	    (unsigned long long)st.refused_limit);
	family(t, "smartssd_ledger_energy_joules_total", "counter",
	       "Energy-ledger shares delivered to clients, by the connection's uid.");
	for (int i = 0; i < st.nledger; i++) {
		put(t, "smartssd_ledger_energy_joules_total{uid=\"%u\"} ", st.ledger[i].uid);
		value(t, st.ledger[i].nj, NANO);
	}
	family(t, "smartssd_ledger_tasks_total", "counter",
	       "Energy-ledger shares delivered to clients (settled tasks), by uid.");
	for (int i = 0; i < st.nledger; i++) {
		put(t, "smartssd_ledger_tasks_total{uid=\"%u\"} %llu\n", st.ledger[i].uid,
		    (unsigned long long)st.ledger[i].tasks);
	}
	family(t, "smartssd_metrics_scrapes_total", "counter", "Scrapes of /metrics answered.");
	put(t, "smartssd_metrics_scrapes_total %llu\n", (unsigned long long)m->scrapes);
	family(t, "smartssd_metrics_rejected_requests_total", "counter",
	       "HTTP requests to the metrics listener refused, by reason.");
	for (int i = 0; i < 4; i++) {
		put(t, "smartssd_metrics_rejected_requests_total{reason=\"%s\"} %llu\n",
		    bad_names[i], (unsigned long long)m->bad[i]);
	}
	put(t, "smartssd_metrics_rejected_requests_total{reason=\"busy\"} %llu\n",
	    (unsigned long long)m->refused_busy);
}

/* The exposition: the drive read now. */
static void exposition(struct text *t, struct devd_metrics *m)
{
	uint8_t buf[SRC_COUNT][sizeof(struct ss_wire_model) + sizeof(struct ss_wire_counters)];
	int have[SRC_COUNT] = { 0 };
	struct ss_emu_counters cn;
	const char *prev = "";
	const uint8_t *c = buf[SRC_COUNTERS];

	have[SRC_COUNTERS] = ss_emu_read_reply(m->drive, SS_OP_COUNTERS, buf[SRC_COUNTERS],
					       sizeof(struct ss_wire_counters)) ==
			     (int)sizeof(struct ss_wire_counters);
	have[SRC_FSSTAT] = ss_emu_read_reply(m->drive, SS_OP_FSSTAT, buf[SRC_FSSTAT],
					     sizeof(struct ss_wire_fsstat)) > 0;
	have[SRC_ISP_QUEUE] = ss_emu_read_reply(m->drive, SS_OP_ISP_QUEUE, buf[SRC_ISP_QUEUE],
						sizeof(struct ss_wire_isp_queue)) > 0;
	have[SRC_SSC] = ss_emu_read_reply(m->drive, SS_OP_SSC_INFO, buf[SRC_SSC],
					  sizeof(struct ss_wire_ssc_info)) ==
				(int)sizeof(struct ss_wire_ssc_info) &&
			ss_get_le32(buf[SRC_SSC] + offsetof(struct ss_wire_ssc_info, block_size)) != 0;
	ss_emu_get_counters(m->drive, &cn);
#define MODEL_PUT_(b, kind, name, bytes) \
	ss_put_le64((b) + offsetof(struct ss_wire_model, name), cn.name);
	SS_REPLY_MODEL(MODEL_PUT_, buf[SRC_MODEL])
#undef MODEL_PUT_
	have[SRC_MODEL] = 1;

	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		const struct metric *e = &metrics[i];

		if (!have[e->src]) {
			continue;
		}
		if (strcmp(prev, e->name) != 0) {
			family(t, e->name, e->type, e->help);
			prev = e->name;
		}
		sample_u64(t, e->name, e->labels, field(buf[e->src], e), e->scale);
	}
	if (have[SRC_COUNTERS]) {
		uint32_t endurance = ss_emu_endurance(m->drive);
		uint32_t avg = ss_get_le32(c + offsetof(struct ss_wire_counters, avg_erase_count));

		family(t, "smartssd_endurance_erases", "gauge",
		       "Rated erases (P/E cycles) of a block.");
		put(t, "smartssd_endurance_erases %u\n", endurance);
		ratio(t, "smartssd_endurance_remaining_ratio",
		      "Share of the rated endurance left, by the average erase count.",
		      endurance > avg ? endurance - avg : 0, endurance);
		ratio(t, "smartssd_buffer_read_hit_ratio",
		      "DRAM buffer page reads that hit, since power-on.",
		      ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_read_hits)), ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_read_pages)));
		ratio(t, "smartssd_buffer_write_hit_ratio",
		      "DRAM buffer page writes that hit, since power-on.",
		      ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_write_hits)), ss_get_le64(c + offsetof(struct ss_wire_counters, buffer_write_pages)));
	}
	if (have[SRC_SSC]) {
		const uint8_t *s = buf[SRC_SSC];
		uint64_t hits = ss_get_le64(s + offsetof(struct ss_wire_ssc_info, read_hits));
		uint64_t misses = ss_get_le64(s + offsetof(struct ss_wire_ssc_info, read_misses));

		ratio(t, "smartssd_cache_read_hit_ratio",
		      "Solid-state cache block reads that hit, since power-on.", hits,
		      hits + misses);
	}
	smart(t, m->drive);
	daemon_stats(t, m);
}

static void client_close(struct client *c)
{
	close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static void respond(struct client *c, const char *status, const char *extra,
		    const char *body, size_t body_len, int head)
{
	struct text t = { 0 };

	put(&t, "HTTP/1.1 %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
	    body_len, extra);
	if (!head && body_len > 0) {
		size_t need = t.len + body_len + 1;

		if (t.cap < need) {
			char *p = realloc(t.p, need);

			if (p == NULL) {
				t.oom = 1;
			} else {
				t.p = p;
				t.cap = need;
			}
		}
		if (!t.oom) {
			memcpy(t.p + t.len, body, body_len);
			t.len += body_len;
		}
	}
	if (t.oom) {
		free(t.p);
		client_close(c);
		return;
	}
	c->out = t.p;
	c->out_len = t.len;
	c->out_off = 0;
}

static void refuse(struct devd_metrics *m, struct client *c, enum bad_request why)
{
	static const char text_plain[] = "Content-Type: text/plain; charset=utf-8\r\n";
	static const struct {
		const char *status, *extra, *body;
	} answers[] = {
		[BAD_NOT_FOUND] = { "404 Not Found", text_plain, "only /metrics is served\n" },
		[BAD_METHOD] = { "405 Method Not Allowed",
				 "Allow: GET, HEAD\r\nContent-Type: text/plain; charset=utf-8\r\n",
				 "only GET and HEAD\n" },
		[BAD_MALFORMED] = { "400 Bad Request", text_plain, "malformed request\n" },
		[BAD_TOO_LARGE] = { "431 Request Header Fields Too Large", text_plain,
				    "request larger than 8192 bytes\n" },
	};

	m->bad[why]++;
	respond(c, answers[why].status, answers[why].extra, answers[why].body,
		strlen(answers[why].body), 0);
}

/* A whole request head is in c->in: answer it. */
static void handle(struct devd_metrics *m, struct client *c)
{
	char *sp1, *sp2, *path_end;
	int head;
	struct text body = { 0 };

	c->in[c->in_len] = '\0';
	sp1 = strchr(c->in, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (sp1 == NULL || sp2 == NULL || strncmp(sp2 + 1, "HTTP/1.", 7) != 0 || sp1[1] != '/') {
		refuse(m, c, BAD_MALFORMED);
		return;
	}
	*sp1 = '\0';
	*sp2 = '\0';
	head = strcmp(c->in, "HEAD") == 0;
	if (!head && strcmp(c->in, "GET") != 0) {
		refuse(m, c, BAD_METHOD);
		return;
	}
	path_end = strchr(sp1 + 1, '?');
	if (path_end != NULL) {
		*path_end = '\0';
	}
	if (strcmp(sp1 + 1, "/metrics") != 0) {
		refuse(m, c, BAD_NOT_FOUND);
		return;
	}
	m->scrapes++;
	exposition(&body, m);
	if (body.oom) {
		free(body.p);
		client_close(c);
		return;
	}
	respond(c, "200 OK", "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n",
		body.p, body.len, head);
	free(body.p);
}

static void client_read(struct devd_metrics *m, struct client *c)
{
	ssize_t r = recv(c->fd, c->in + c->in_len, REQ_MAX - 1 - c->in_len, MSG_DONTWAIT);

	if (r <= 0) {
		if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
			client_close(c);
		}
		return;
	}
	if (c->draining) {
		return;
	}
	c->in_len += (size_t)r;
	if (memmem(c->in, c->in_len, "\r\n\r\n", 4) != NULL ||
	    memmem(c->in, c->in_len, "\n\n", 2) != NULL) {
		handle(m, c);
	} else if (c->in_len >= REQ_MAX - 1) {
		refuse(m, c, BAD_TOO_LARGE);
	}
}

static void client_write(struct client *c)
{
	ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);

	if (w < 0) {
		if (errno != EAGAIN && errno != EINTR) {
			client_close(c);
		}
		return;
	}
	c->out_off += (size_t)w;
	if (c->out_off == c->out_len) {
		/* The answer is out. A close with unread input (the rest of an oversized head, a
		 * POST's body) would reset the connection and could drop the answer before the
		 * client read it: the input is drained until the client closes, or the deadline. */
		shutdown(c->fd, SHUT_WR);
		free(c->out);
		c->out = NULL;
		c->in_len = 0;
		c->draining = 1;
	}
}

static void accept_client(struct devd_metrics *m)
{
	int fd = accept4(m->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0) {
		return;
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &m->clients[i];

		if (c->fd < 0) {
			c->fd = fd;
			c->deadline = now_ms() + REQ_TIMEOUT_MS;
			return;
		}
	}
	m->refused_busy++;
	close(fd);
}

static void *metrics_thread(void *arg)
{
	struct devd_metrics *m = arg;

	for (;;) {
		struct pollfd p[2 + MAX_CLIENTS];
		int slot[MAX_CLIENTS], n = 2;
		long long now = now_ms(), wake = now + 60000;

		p[0] = (struct pollfd){ .fd = m->stop_fd, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = m->lfd, .events = POLLIN };
		for (int i = 0; i < MAX_CLIENTS; i++) {
			struct client *c = &m->clients[i];

			if (c->fd < 0) {
				continue;
			}
			if (now >= c->deadline) {
				client_close(c);
				continue;
			}
			wake = SS_MIN(wake, c->deadline);
			slot[n - 2] = i;
			p[n++] = (struct pollfd){ .fd = c->fd,
						  .events = c->out ? POLLOUT : POLLIN };
		}
		if (poll(p, (nfds_t)n, (int)(wake - now)) < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (p[0].revents) {
			break;
		}
		for (int k = 2; k < n; k++) {
			struct client *c = &m->clients[slot[k - 2]];

			if (p[k].revents == 0 || c->fd < 0) {
				continue;
			}
			if (c->out) {
				client_write(c);
			} else {
				client_read(m, c);
			}
			/* an answer is tried at once: most fit the socket's buffer */
			if (c->fd >= 0 && c->out && c->out_off == 0) {
				client_write(c);
			}
		}
		if (p[1].revents & POLLIN) {
			accept_client(m);
		}
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		if (m->clients[i].fd >= 0) {
			client_close(&m->clients[i]);
		}
	}
	return NULL;
}

int devd_metrics_addr(const char *arg, struct devd_metrics_addr *a)
{
	const char *colon = strrchr(arg, ':'), *port;
	size_t hl;

	/* PORT alone: loopback. [V6]:PORT, HOST:PORT: that address. */
	if (colon == NULL) {
		snprintf(a->host, sizeof(a->host), "127.0.0.1");
		port = arg;
	} else {
		const char *host = arg;

		hl = (size_t)(colon - arg);
		if (hl >= 2 && arg[0] == '[' && arg[hl - 1] == ']') {
			host++;
			hl -= 2;
		}
		if (hl == 0 || hl >= sizeof(a->host)) {
			goto bad;
		}
		memcpy(a->host, host, hl);
		a->host[hl] = '\0';
		port = colon + 1;
	}
	if (strlen(port) == 0 || strlen(port) >= sizeof(a->port) ||
	    strspn(port, "0123456789") != strlen(port) || atol(port) > 65535) {
		goto bad;
	}
	snprintf(a->port, sizeof(a->port), "%s", port);
	return 0;
bad:
	fprintf(stderr, "smartssd-devd: --metrics takes PORT, ADDRESS:PORT or [IPV6]:PORT "
		"(port 0: one the system chooses), not '%s'\n", arg);
	return -1;
}

int devd_metrics_listen(const struct devd_metrics_addr *a, char *bound, size_t bound_cap)
{
	char h[NI_MAXHOST], s[NI_MAXSERV];
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = -1, one = 1, rc;

	rc = getaddrinfo(a->host, a->port, &hints, &ai);
	if (rc != 0) {
		fprintf(stderr, "smartssd-devd: --metrics %s: %s\n", a->host, gai_strerror(rc));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 16) != 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), s, sizeof(s),
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		fprintf(stderr, "smartssd-devd: --metrics: cannot listen on %s port %s: %s\n",
			a->host, a->port, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	snprintf(bound, bound_cap, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", h, s);
	return fd;
}

int devd_metrics_start(int lfd, struct ss_emu_drive *drive, devd_stats_fn stats,
		       struct devd_metrics **out)
{
	struct devd_metrics *m = calloc(1, sizeof(*m));
	int rc;

	if (m == NULL) {
		return -ENOMEM;
	}
	m->lfd = lfd;
	m->drive = drive;
	m->stats = stats;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		m->clients[i].fd = -1;
	}
	m->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (m->stop_fd < 0) {
		free(m);
		return -errno;
	}
	rc = pthread_create(&m->thread, NULL, metrics_thread, m);
	if (rc != 0) {
		close(m->stop_fd);
		free(m);
		return -rc;
	}
	*out = m;
	return 0;
}

void devd_metrics_stop(struct devd_metrics *m)
{
	uint64_t one = 1;

	if (m == NULL) {
		return;
	}
	(void)!write(m->stop_fd, &one, sizeof(one));
	pthread_join(m->thread, NULL);
	close(m->stop_fd);
	close(m->lfd);
	free(m);
}
