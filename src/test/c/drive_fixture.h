/*
 * A kang-smartssd emulated drive in a temp directory, opened through libsmartssd: what the
 * end-to-end C tests and the drive benchmarks share.
 */
#ifndef SS_DRIVE_FIXTURE_H
#define SS_DRIVE_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "smartssd/smartssd.h"

struct drive_fixture {
	char dir[256];
	char image[300];
	struct ss_dev *dev;
};

/** Format an image with `blocks_per_die` blocks per die (0: the profile's) and open it.
 *  Exits the process with a message on failure. */
void drive_fixture_open(struct drive_fixture *f, const char *profile, uint32_t blocks_per_die,
			const char *uri_options);
void drive_fixture_close(struct drive_fixture *f);

/** Write `bytes` of 20-byte WorldCup98-style records (padded to `entry_size`) to `path`,
 *  counting records per region (3 top bits of the server byte) into region_counts[8].
 *  \return the object id. */
uint64_t drive_fixture_write_records(struct drive_fixture *f, const char *path, uint64_t bytes,
				     uint32_t entry_size, uint64_t region_counts[8]);

/** Run tasklet `spec` over the whole object and wait; fills progress. Exits on failure. */
void drive_fixture_run(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
		       const void *params, uint32_t params_len, uint64_t oid,
		       struct ss_dev_progress *p, uint64_t *instance);
/** The same, but returns a failed run too (p->state FAILED, p->error). */
void drive_fixture_run_to_end(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
			      const void *params, uint32_t params_len, uint64_t oid,
			      struct ss_dev_progress *p, uint64_t *instance);

/** The two halves of drive_fixture_run_to_end: create an output and an instance of `spec`
 *  and execute it over the whole object; then poll it until it is done or failed (bounded:
 *  exits after 600 s). */
void drive_fixture_start(struct drive_fixture *f, struct ss_dev_tasklet_spec *spec,
			 const void *params, uint32_t params_len, uint64_t oid,
			 uint64_t *instance);
void drive_fixture_wait(struct drive_fixture *f, uint64_t instance, struct ss_dev_progress *p);

/** Pin the calling thread (and what it forks or execs) to one CPU. Exits on failure. */
void drive_fixture_pin(int cpu);

/** Start smartssd-devd serving `image` on `sock` (ss_devd_spawn.h), pinned to `cpu` unless
 *  it is < 0 (the caller is then pinned there too until it pins itself elsewhere), with
 *  --spin-us spin_us unless NULL. \return its pid. Exits on failure. */
pid_t drive_fixture_devd_start(const char *devd, const char *image, const char *sock, int cpu,
			       const char *spin_us);

#define DIE(...)                                                                           \
	do {                                                                               \
		fprintf(stderr, __VA_ARGS__);                                              \
		fprintf(stderr, " (%s: %s)\n", ss_dev_reason_name(ss_dev_last_reason()),  \
			ss_dev_last_message());                                            \
		exit(2);                                                                   \
	} while (0)

#endif
