#define _GNU_SOURCE
#include "drive_fixture.h"

#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ss_devd_spawn.h"
#include "ss_emu.h"

void drive_fixture_open(struct drive_fixture *f, const char *profile, uint32_t blocks_per_die,
			const char *uri_options)
{
	struct ss_emu_drive_opts o;
	char err[256], uri[320];
	const char *tmp = getenv("TMPDIR");

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s/ssdrive.XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(f->dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(f->image, sizeof(f->image), "%s/dev0.img", f->dir);
	memset(&o, 0, sizeof(o));
	o.flash.profile = profile;
	o.flash.geo.blocks_per_die = blocks_per_die;
	o.time_mode = SS_EMU_TIME_VIRTUAL;
	if (ss_emu_format(f->image, &o, NULL, err, sizeof(err)) != 0) {
		fprintf(stderr, "format %s: %s\n", f->image, err);
		exit(2);
	}
	snprintf(uri, sizeof(uri), "emu:%s%s", f->image, uri_options ? uri_options : "");
	if (ss_dev_open(uri, NULL, &f->dev) != 0) {
		DIE("open %s", uri);
	}
}

void drive_fixture_close(struct drive_fixture *f)
{
	ss_dev_close(f->dev);
	unlink(f->image);
	rmdir(f->dir);
}

/* A deterministic record stream with a skewed region mix (most traffic to the first
 * regions, as in the trace). */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

uint64_t drive_fixture_write_records(struct drive_fixture *f, const char *path, uint64_t bytes,
				     uint32_t entry_size, uint64_t region_counts[8])
{
	const size_t chunk = 4u << 20;
	uint8_t *buf = malloc(chunk);
	uint64_t oid, seed = 42, off = 0;
	static const uint8_t region_of[16] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 0 };

	if (buf == NULL || entry_size < 20 || entry_size > chunk) {
		fprintf(stderr, "bad record stream parameters\n");
		exit(2);
	}
	memset(region_counts, 0, 8 * sizeof(uint64_t));
	if (ss_dev_create(f->dev, path, SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid) != 0) {
		DIE("create %s", path);
	}
	bytes -= bytes % entry_size;
	while (off < bytes) {
		size_t n = (size_t)(bytes - off < chunk ? bytes - off : chunk);
		size_t nrec = n / entry_size;

		n = nrec * entry_size;
		memset(buf, 0, n);
		for (size_t i = 0; i < nrec; i++) {
			uint8_t *r = buf + i * entry_size;
			uint64_t x = lcg(&seed);
			uint8_t region = region_of[x & 15];

			r[0] = (uint8_t)(off >> 24); r[3] = (uint8_t)i;          /* timestamp */
			r[7] = (uint8_t)(x >> 8);                                 /* client */
			r[11] = (uint8_t)(x >> 16);                               /* object */
			r[14] = (uint8_t)(x >> 24); r[15] = (uint8_t)(x >> 32);   /* size */
			r[16] = 1;                                                /* method */
			r[17] = (uint8_t)((1 << 6) | 0x08);                       /* HTTP/1.0, 200 */
			r[18] = (uint8_t)(x >> 40) & 7;                           /* type */
			r[19] = (uint8_t)((region << 5) | ((x >> 44) & 31));      /* server */
			region_counts[region]++;
		}
		if (ss_dev_write(f->dev, oid, off, buf, n, 0) != (int64_t)n) {
			DIE("write %s at %llu", path, (unsigned long long)off);
		}
		off += n;
	}
	if (ss_dev_flush(f->dev) != 0) {
		DIE("flush");
	}
	free(buf);
	return oid;
}

void drive_fixture_run(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
		       const void *params, uint32_t params_len, uint64_t oid,
		       struct ss_dev_progress *p, uint64_t *instance)
{
	drive_fixture_run_to_end(f, spec, params, params_len, oid, p, instance);
	if (p->state == SS_DEV_TASKLET_FAILED) {
		fprintf(stderr, "tasklet failed: %d\n", p->error);
		exit(2);
	}
}

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * The wait before the next progress poll, as the Java client's AdaptivePoller chooses it
 * (native/java, org.smartssd.device): half the time the progress rate says is left but at
 * most twice the span that rate was measured over, twice the last wait while no page got
 * done, within 50 us and 200 ms. A poll every 200 us took a tenth of a 2-core machine
 * from the drive's two threads during a scan.
 */
struct poll_pace {
	double last_s, rate, delay_s;
	uint64_t last_pages;
};

static double poll_pace_next(struct poll_pace *pace, const struct ss_dev_progress *p, double now)
{
	if (p->pages_done > pace->last_pages && now > pace->last_s) {
		double r = (double)(p->pages_done - pace->last_pages) / (now - pace->last_s);

		pace->rate = pace->rate == 0 ? r : (pace->rate + r) / 2;
		if (p->pages_total > p->pages_done) {
			pace->delay_s = (double)(p->pages_total - p->pages_done) / pace->rate / 2;
		} else if (p->pages_total != 0) {
			pace->delay_s = 0;   /* only the finish is left */
		}   /* no total known: keep pace */
		if (pace->delay_s > 2 * (now - pace->last_s)) {
			pace->delay_s = 2 * (now - pace->last_s);
		}
	} else {
		pace->delay_s *= 2;
	}
	pace->delay_s = pace->delay_s < 50e-6 ? 50e-6 : pace->delay_s > 0.2 ? 0.2 : pace->delay_s;
	pace->last_pages = p->pages_done;
	pace->last_s = now;
	return pace->delay_s;
}

void drive_fixture_start(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
			 const void *params, uint32_t params_len, uint64_t oid,
			 uint64_t *instance)
{
	static unsigned outputs;
	char path[64];
	struct ss_dev_input in = { .oid = oid, .offset = 0, .length = 0 };
	struct ss_dev_stat st;

	if (ss_dev_stat(f->dev, oid, &st) != 0) {
		DIE("stat input");
	}
	in.length = st.size;
	snprintf(path, sizeof(path), "/.out/run%u", outputs++);
	if (ss_dev_create_output(f->dev, path, SS_DEV_CREATE_PARENTS, &spec->output_oid) != 0) {
		DIE("create output %s", path);
	}
	if (ss_dev_tasklet_create(f->dev, spec, params, params_len, instance) != 0) {
		DIE("create tasklet %u", spec->tasklet_id);
	}
	if (ss_dev_tasklet_execute(f->dev, *instance, &in, 1) != 0) {
		DIE("execute");
	}
}

void drive_fixture_wait(struct drive_fixture *f, uint64_t instance, struct ss_dev_progress *p)
{
	struct poll_pace pace = { 0 };
	double start = pace.last_s = mono_s();

	for (;;) {
		double now;

		p->state = 0;
		/* a failed run's poll fails too, and still reports its progress */
		if (ss_dev_tasklet_poll(f->dev, instance, p) != 0 &&
		    p->state != SS_DEV_TASKLET_FAILED) {
			DIE("poll");
		}
		if (p->state == SS_DEV_TASKLET_DONE || p->state == SS_DEV_TASKLET_FAILED) {
			return;
		}
		now = mono_s();
		/* a bound for a broken run on a loaded machine, not a measurement */
		if (now - start > 600) {
			DIE("tasklet instance %llu still running after 600 s",
			    (unsigned long long)instance);
		}
		usleep((useconds_t)(poll_pace_next(&pace, p, now) * 1e6));
	}
}

void drive_fixture_run_to_end(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
			      const void *params, uint32_t params_len, uint64_t oid,
			      struct ss_dev_progress *p, uint64_t *instance)
{
	drive_fixture_start(f, spec, params, params_len, oid, instance);
	drive_fixture_wait(f, *instance, p);
}

void drive_fixture_pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s) != 0) {
		perror("sched_setaffinity");
		exit(2);
	}
}

pid_t drive_fixture_devd_start(const char *devd, const char *image, const char *sock, int cpu,
			       const char *spin_us)
{
	const char *args[] = { "--image", image, "--socket", sock, "--spin-us", spin_us, NULL };
	char err[256];
	pid_t pid = -1;

	if (spin_us == NULL) {
		args[4] = NULL;
	}
	if (cpu >= 0) {
		drive_fixture_pin(cpu);   /* the daemon inherits it; the caller pins itself after */
	}
	if (ss_devd_spawn(devd, args, 30000, &pid, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", devd, err);
		exit(2);
	}
	return pid;
}
