/* Block trace readers and generators (trace.h). */
#define _GNU_SOURCE
#include "trace.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void trace_free(struct trace *t)
{
	free(t->r);
	t->r = NULL;
	t->n = t->cap = 0;
}

static int push(struct trace *t, uint64_t t_ns, uint64_t lba, uint32_t sectors, int write)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct trace_req *r = realloc(t->r, cap * sizeof(*r));

		if (!r) {
			return -1;
		}
		t->r = r;
		t->cap = cap;
	}
	t->r[t->n++] = (struct trace_req){ t_ns, lba, sectors ? sectors : 1, (uint8_t)write };
	return 0;
}

static long fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int skip(const char *line)
{
	while (isspace((unsigned char)*line)) {
		line++;
	}
	return *line == '\0' || *line == '#';
}

/* Split a CSV line in place into at most `max` fields. \return the count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p) {
			break;
		}
		*p++ = '\0';
	}
	return n;
}

static int num_u64(const char *s, uint64_t *out)
{
	char *end;

	while (isspace((unsigned char)*s)) {
		s++;
	}
	if (!isdigit((unsigned char)*s)) {
		return -1;
	}
	*out = strtoull(s, &end, 10);
	while (isspace((unsigned char)*end)) {
		end++;
	}
	return *end == '\0' ? 0 : -1;
}

static int num_double(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	while (isspace((unsigned char)*end)) {
		end++;
	}
	return end != s && *end == '\0' && *out >= 0 ? 0 : -1;
}

long trace_read_spc(FILE *f, uint64_t asu_sectors, struct trace *t, char *err, size_t errlen)
{
	char *line = NULL, *fl[6];
	size_t cap = 0;
	long no = 0;

	while (getline(&line, &cap, f) > 0) {
		uint64_t asu, lba, size;
		double ts;
		char op;

		no++;
		if (skip(line)) {
			continue;
		}
		if (split(line, fl, 6) != 5 || num_u64(fl[0], &asu) || num_u64(fl[1], &lba) ||
		    num_u64(fl[2], &size) || num_double(fl[4], &ts) || strlen(fl[3]) != 1 ||
		    !strchr("rRwW", fl[3][0]) || size == 0) {
			free(line);
			return fail(err, errlen, "SPC line %ld: not ASU,LBA,Size,Opcode,Timestamp "
				    "(numbers; opcode r or w; size > 0)", no);
		}
		if (asu != 0 && asu_sectors == 0) {
			free(line);
			return fail(err, errlen, "SPC line %ld: ASU %llu, but no ASU size was given "
				    "to lay ASUs end to end", no, (unsigned long long)asu);
		}
		op = fl[3][0];
		if (push(t, (uint64_t)(ts * 1e9), asu * asu_sectors + lba,
			 (uint32_t)((size + 511) / 512), op == 'w' || op == 'W')) {
			free(line);
			return fail(err, errlen, "out of memory");
		}
	}
	free(line);
	return (long)t->n;
}

long trace_read_msr(FILE *f, struct trace *t, char *err, size_t errlen)
{
	char *line = NULL, *fl[8];
	size_t cap = 0;
	long no = 0;
	uint64_t first = 0;

	while (getline(&line, &cap, f) > 0) {
		uint64_t ts, disk, off, size, resp;
		int w;

		no++;
		if (skip(line)) {
			continue;
		}
		if (split(line, fl, 8) != 7 || num_u64(fl[0], &ts) || num_u64(fl[2], &disk) ||
		    num_u64(fl[4], &off) || num_u64(fl[5], &size) || num_u64(fl[6], &resp) ||
		    (strcmp(fl[3], "Read") && strcmp(fl[3], "Write")) || size == 0) {
			free(line);
			return fail(err, errlen, "MSR line %ld: not Timestamp,Hostname,DiskNumber,"
				    "Type,Offset,Size,ResponseTime (Type Read or Write; size > 0)", no);
		}
		if (t->n == 0) {
			first = ts;
		}
		w = fl[3][0] == 'W';
		if (ts < first) {
			free(line);
			return fail(err, errlen, "MSR line %ld: timestamp before the first", no);
		}
		if (push(t, (ts - first) * 100, off / 512,
			 (uint32_t)((off % 512 + size + 511) / 512), w)) {
			free(line);
			return fail(err, errlen, "out of memory");
		}
	}
	free(line);
	return (long)t->n;
}

long trace_read_disksim(FILE *f, struct trace *t, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	long no = 0;

	while (getline(&line, &cap, f) > 0) {
		double ms;
		unsigned long long dev, blk, size, flags;
		char extra;

		no++;
		if (skip(line)) {
			continue;
		}
		if (sscanf(line, "%lf %llu %llu %llu %llu %c", &ms, &dev, &blk, &size, &flags,
			   &extra) != 5 || ms < 0 || size == 0) {
			free(line);
			return fail(err, errlen, "DiskSim line %ld: not \"arrival_ms device block "
				    "size flags\" (size > 0)", no);
		}
		if (push(t, (uint64_t)(ms * 1e6), blk, (uint32_t)size, !(flags & 1))) {
			free(line);
			return fail(err, errlen, "out of memory");
		}
	}
	free(line);
	return (long)t->n;
}

/* ---- generators -------------------------------------------------------------------- */

struct shape {
	const char *name;
	double mean_kb;        /* Table 4.1 Avg.Req.Size */
	double write;          /* Table 4.1 Write(%) */
	double seq;            /* Table 4.1 Seq.(%) */
	double interarrival_ms;
	/* chosen here, not in the tables: the share of random requests that go to a hot set
	 * of `hot` of the footprint (temporal locality), and whether sizes are exponential */
	double hot_share, hot;
};

/* Gong Table 4.1 [Gong 2010, §4.1, p. 40]; the synthetic row is Table 4.3's DiskSim
 * specification (sequential 0.8, local 0.2, read 0.3, inter-arrival normal(52, 52) ms,
 * sizes exponential with mean 20 KB as Table 4.1 reports 20.32 KB). */
static const struct shape shapes[TRACE_GONG_KINDS] = {
	{ "financial", 3.89, 0.18, 0.006, 11080.98, 0.8, 0.05 },
	{ "msnfs", 9.81, 0.33, 0.061, 586.79, 0.7, 0.10 },
	{ "exchange", 12.01, 0.72, 0.105, 3780.67, 0.7, 0.10 },
	{ "camwebdev", 8.14, 0.99, 0.002, 707.10, 0.7, 0.10 },
	{ "synthetic", 20.32, 0.70, 0.80, 52.22, 0.2, 0.01 },
};

/* Smullen Table I [Smullen 2010, §III]: write share from the read/write ratio (Exchange
 * 0.35:1, Maps 4.21:1, MSN-FS 2.08:1, Radius 0.12:1), small writes (under 4 KB) and
 * overwritten pages as the table gives them. Chosen here, as the paper does not give them:
 * the mean inter-arrival time (Exchange and MSN-FS the intense ones, Maps and Radius the
 * light ones, as §V-B1 describes them), the mean size of the other requests (16 KB, whole
 * 4 KB pages), reads continuing the previous read for 20 % of the reads (the sequential
 * runs selective prefetching is for) and half the other reads to the hot set. */
struct sm_shape {
	const char *name;
	double write, small, overwritten, interarrival_ms;
};

static const struct sm_shape sm_shapes[TRACE_KINDS - TRACE_GONG_KINDS] = {
	{ "smullen-exchange", 1.0 / 1.35, 0.212, 0.784, 1.0 },
	{ "smullen-maps", 1.0 / 5.21, 0.021, 0.462, 5.0 },
	{ "smullen-msnfs", 1.0 / 3.08, 0.150, 0.343, 0.5 },
	{ "smullen-radius", 1.0 / 1.12, 0.394, 0.828, 10.0 },
};

const char *trace_kind_name(enum trace_kind k)
{
	if ((unsigned)k < TRACE_GONG_KINDS) {
		return shapes[k].name;
	}
	return (unsigned)k < TRACE_KINDS ? sm_shapes[k - TRACE_GONG_KINDS].name : "?";
}

int trace_kind_parse(const char *name)
{
	for (int k = 0; k < TRACE_KINDS; k++) {
		if (!strcmp(name, trace_kind_name((enum trace_kind)k))) {
			return k;
		}
	}
	return -1;
}

int trace_smullen_shape(enum trace_kind k, double *write, double *small, double *overwritten)
{
	const struct sm_shape *sh;

	if (k < TRACE_GONG_KINDS || k >= TRACE_KINDS) {
		return -1;
	}
	sh = &sm_shapes[k - TRACE_GONG_KINDS];
	*write = sh->write;
	*small = sh->small;
	*overwritten = sh->overwritten;
	return 0;
}

static double uni(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)(*s >> 11) / 9007199254740992.0;
}

/* A Smullen-shaped trace. Overwrites: a write goes, with the table's overwritten share, to
 * where one of the last 4096 writes went (uniformly chosen: a small write into the first
 * page of any of them, a large one over all of a large one), and otherwise
 * anywhere in the footprint. A small request is 1 to 7 sectors at any sector of its page,
 * reads as often as writes (Table I gives the share for writes only; unaligned reads are
 * what selective caching is for, §IV-C); the other requests are whole 4 KB pages,
 * exponential with a 16 KB mean. A read that continues the previous one starts where it
 * ended, so a run of them is unaligned when its first was. */
#define SM_HISTORY 4096u
#define SS_BENCH_MIN(a, b) ((a) < (b) ? (a) : (b))

static int generate_smullen(const struct sm_shape *sh, size_t n, uint64_t footprint_sectors,
			    uint64_t seed, struct trace *t)
{
	uint64_t s = seed | 1, now = 0, next_read = 0, written = 0, large = 0;
	/* (lba << 11 | sectors) of the last writes, and of the last large ones */
	uint64_t *hist = malloc(2 * SM_HISTORY * sizeof(*hist)), *hist_large = hist + SM_HISTORY;
	int rc = 0;

	if (!hist) {
		return -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		bool write = uni(&s) < sh->write;
		bool small = uni(&s) < sh->small;
		uint32_t sectors;
		uint64_t lba;
		bool cont = false;

		if (small) {
			sectors = 1 + (uint32_t)(uni(&s) * 7.0);
		} else {
			double kb = -log(1.0 - uni(&s)) * 16.0;

			sectors = 8 * (1 + (uint32_t)(kb / 4.0));
			if (sectors > 1024) {
				sectors = 1024;
			}
		}
		if (write && (small ? written : large) && uni(&s) < sh->overwritten) {
			uint64_t h = SS_BENCH_MIN(small ? written : large, SM_HISTORY);
			uint64_t e = (small ? hist : hist_large)[(uint64_t)(uni(&s) * (double)h)];

			/* the same pages again: a large write rewrites an earlier large one whole */
			lba = e >> 11 & ~7ull;
			if (!small) {
				sectors = (uint32_t)(e & 2047);
			}
			if (lba + sectors + 8 > footprint_sectors) {
				lba = footprint_sectors - sectors - 8;
			}
		} else if (!write && i > 0 && uni(&s) < 0.2 &&
			   next_read + sectors + 8 <= footprint_sectors) {
			lba = next_read;
			cont = true;
		} else {
			/* reads: half of them where writes went */
			uint64_t h = written < SM_HISTORY ? written : SM_HISTORY;

			if (!write && written && uni(&s) < 0.5) {
				lba = hist[(uint64_t)(uni(&s) * (double)h)] >> 11;
			} else {
				lba = (uint64_t)(uni(&s) * (double)(footprint_sectors - sectors - 8));
			}
			lba &= ~7ull;
			if (lba + sectors + 8 > footprint_sectors) {
				lba = footprint_sectors - sectors - 8;
			}
		}
		if (!cont) {
			lba &= ~7ull;
			if (small) {
				lba += (uint64_t)(uni(&s) * (double)(8 - sectors + 1));
			}
		}
		if (write) {
			hist[written++ % SM_HISTORY] = lba << 11 | sectors;   /* sectors <= 1024 */
			if (!small) {
				hist_large[large++ % SM_HISTORY] = lba << 11 | sectors;
			}
		} else {
			next_read = lba + sectors;
		}
		now += (uint64_t)(-log(1.0 - uni(&s)) * sh->interarrival_ms * 1e6);
		rc = push(t, now, lba, sectors, write);
	}
	free(hist);
	return rc ? -1 : 0;
}

int trace_generate(enum trace_kind k, size_t n, uint64_t footprint_sectors, uint64_t seed,
		   struct trace *t)
{
	const struct shape *sh;
	uint64_t s = seed | 1, now = 0, next = 0;

	if ((unsigned)k >= TRACE_KINDS || footprint_sectors < 4096) {
		return -1;
	}
	if (k >= TRACE_GONG_KINDS) {
		return generate_smullen(&sm_shapes[k - TRACE_GONG_KINDS], n, footprint_sectors,
					seed, t);
	}
	sh = &shapes[k];
	for (size_t i = 0; i < n; i++) {
		/* sizes: exponential with the table's mean, in 512-byte sectors, at least one */
		double kb = -log(1.0 - uni(&s)) * sh->mean_kb;
		uint32_t sectors = (uint32_t)(kb * 2.0 + 0.5);
		uint64_t lba;

		if (sectors == 0) {
			sectors = 1;
		}
		if (sectors > 1024) {
			sectors = 1024;
		}
		if (i > 0 && uni(&s) < sh->seq && next + sectors <= footprint_sectors) {
			lba = next;                   /* continues the previous request */
		} else if (uni(&s) < sh->hot_share) {
			uint64_t hot = (uint64_t)(footprint_sectors * sh->hot);

			lba = (uint64_t)(uni(&s) * (double)(hot - sectors)) & ~7ull;
		} else {
			lba = (uint64_t)(uni(&s) * (double)(footprint_sectors - sectors)) & ~7ull;
		}
		if (k == TRACE_SYNTHETIC) {
			/* normal(52, 52) ms, cut at 0 */
			double g = sqrt(-2.0 * log(1.0 - uni(&s))) * cos(6.283185307179586 * uni(&s));
			double ms = 52.0 + 52.0 * g;

			now += (uint64_t)((ms > 0 ? ms : 0) * 1e6);
		} else {
			now += (uint64_t)(-log(1.0 - uni(&s)) * sh->interarrival_ms * 1e6);
		}
		if (push(t, now, lba, sectors, uni(&s) < sh->write)) {
			return -1;
		}
		next = lba + sectors;
	}
	return 0;
}
