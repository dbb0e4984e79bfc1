/*
 * The emulated drive: the firmware, single-threaded under one lock. A submitter runs its
 * command on its own thread as soon as it holds the lock (no hand-off, no wake-up); a
 * controller thread runs the firmware's background work (tasklet slices, GC, checkpoints)
 * one slice at a time between commands. Host commands keep priority: a submitter waiting
 * for the lock gets it before the next slice starts. Submitters block until their command
 * is done, as under SG_IO.
 *
 * Waiting: with spin_us set, the controller polls for work for that long after its last
 * slice before it sleeps, and a submitter or the controller finding fw_lock held polls for
 * it that long before it sleeps on it: waking a thread that slept on another CPU is most
 * of an in-process round trip on a virtual machine. Nobody polls while the thread it waits
 * for last ran on its own CPU (the poll would only delay it), and nothing polls while the
 * drive is idle past the bound.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "drive_internal.h"
#include "emu_internal.h"
#include "emu_sat.h"
#include "ss_emu.h"
#include "ss_ftl.h"
#include "ss_fw.h"
#include "ss_proto.h"
#include "ss_rt.h"
#include "ss_ssc_part.h"

struct cmd {
	const uint8_t *cdb;
	void *data;
	uint32_t len;
	int dir;
	uint8_t *sense;
	uint32_t sense_cap;
	uint8_t status;
	uint32_t sense_len;
	uint64_t completion_ns;
	uint32_t owner;            /* ss_emu_submit_as */
};

struct ss_emu_drive {
	struct ss_emu_flash *flash;
	struct ss_hal *hal;
	struct ss_fw *fw;
	enum ss_emu_time_mode mode;
	struct timespec epoch;     /* CLOCK_MONOTONIC at modelled time 0 (realtime mode) */

	pthread_mutex_t fw_lock;   /* held for every firmware call */
	atomic_uint waiting;       /* submitters waiting for fw_lock: they go before a slice */
	atomic_uint users;         /* submitters inside ss_emu_submit (close waits for them) */
	atomic_int stopping;
	sem_t slots;               /* queue depth */

	pthread_mutex_t lock;      /* background, and the controller's sleep */
	pthread_cond_t work;       /* the controller waits for background work */
	pthread_cond_t handoff;    /* and for waiting submitters to take fw_lock */
	atomic_int parked;         /* the controller waits on handoff */
	atomic_int background;     /* the firmware may have background work (set under lock) */
	uint32_t spin_us;          /* ss_emu_drive_opts.spin_us */
	atomic_int host_cpu;       /* the CPU the latest submitter ran on */
	atomic_uint_fast64_t slice_started; /* wall_ns when the controller's slice began, or 0 */
	atomic_int controller_cpu; /* the CPU the controller last ran on */
	int manual;                /* no controller: ss_emu_run_background() only */
	pthread_t thread;
	int thread_started;

	struct emu_ledger *ledger; /* energy per task (ledger.c) */
	char notice[512];          /* what bringing it up dropped as asked (ss_emu_notice) */
};

static uint64_t wall_ns(const struct ss_emu_drive *d)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - d->epoch.tv_sec) * 1000000000u +
	       (uint64_t)t.tv_nsec - (uint64_t)d->epoch.tv_nsec;
}

/* Poll done(d) for up to d->spin_us, unless the thread it waits for last ran on this CPU
 * (`other_cpu`): the poll would only delay it. \return true when done(d) came true. */
static bool spin_until(struct ss_emu_drive *d, const atomic_int *other_cpu,
		       bool (*done)(void *d))
{
	if (sched_getcpu() == atomic_load(other_cpu)) {
		return done(d);
	}
	return emu_poll(d->spin_us, done, d);
}

static bool fw_lock_taken(void *arg)
{
	struct ss_emu_drive *d = arg;

	return pthread_mutex_trylock(&d->fw_lock) == 0;
}

/* fw_lock, polled for a while before sleeping on it (the holder runs on `holder_cpu`). */
static void take_fw_lock(struct ss_emu_drive *d, const atomic_int *holder_cpu)
{
	if (!spin_until(d, holder_cpu, fw_lock_taken)) {
		pthread_mutex_lock(&d->fw_lock);
	}
}

/* A submitter's fw_lock: not polled for while the controller is in a slice that has run
 * longer than the poll would last already (a tasklet's slices run for hundreds of
 * microseconds): a submitter polling through one only takes a CPU from the controller and
 * the transfer thread. A slice just begun (a run just executed) is polled for. */
static void take_fw_lock_submitter(struct ss_emu_drive *d)
{
	uint64_t started = atomic_load(&d->slice_started);

	if (started != 0 && d->spin_us != 0 &&
	    wall_ns(d) - started > (uint64_t)d->spin_us * 1000u) {
		pthread_mutex_lock(&d->fw_lock);
		return;
	}
	take_fw_lock(d, &d->controller_cpu);
}

static struct timespec at_model_ns(const struct ss_emu_drive *d, uint64_t ns)
{
	struct timespec t = d->epoch;
	uint64_t nsec = (uint64_t)t.tv_nsec + ns % 1000000000u;

	t.tv_sec += (time_t)(ns / 1000000000u + nsec / 1000000000u);
	t.tv_nsec = (long)(nsec % 1000000000u);
	return t;
}

/* Whether the firmware holds a reply under the tag (the model's queue, emu_model_queue_prune). */
static int reply_held(void *fw, uint32_t tag)
{
	return ss_fw_reply_waiting(fw, tag);
}

/*
 * Run one command; fw_lock held. The ISP and background timelines move up to the command
 * only when they had nothing queued at its arrival: work already under way keeps its own
 * modelled pace whatever the host does meanwhile (how often it polls, say).
 * \return 1 when the controller should look for background work afterwards.
 */
static int execute(struct ss_emu_drive *d, struct cmd *c)
{
	struct emu_sat_cmd sc;
	struct ss_ata_result res;
	const char *why = NULL;
	uint64_t floor = d->mode == SS_EMU_TIME_REALTIME ? wall_ns(d) : 0;
	uint64_t writes;
	int asc = emu_sat_decode(c->cdb, c->len, c->dir, &sc, &why);
	enum emu_cmd_kind kind;
	uint32_t tag;
	int bg, queued, idle_recv = 0;
	struct emu_model before;

	if (asc != 0) {
		/* Rejected by the translation layer: the drive never sees it. */
		c->sense_len = emu_sat_reject((uint8_t)asc, 0, c->sense, c->sense_cap, &c->status);
		c->completion_ns = 0;
		return 0;
	}
	bg = ss_fw_background_pending(d->fw);
	writes = emu_flash_writes(d->flash);
	kind = sc.tf.command == SS_ATA_OBJ_SEND   ? EMU_CMD_SEND
	       : sc.tf.command == SS_ATA_OBJ_RECV ? EMU_CMD_RECV
						   : EMU_CMD_PLAIN;
	tag = (uint32_t)sc.tf.lba;
	/* A progress poll that finds its run still going is not charged (model.c, "Progress
	 * polls"): how many of those the host sends follows its wall clock. */
	if (kind == EMU_CMD_RECV) {
		idle_recv = ss_fw_reply_idle_poll(d->fw, tag);
	}
	if (kind == EMU_CMD_SEND || idle_recv) {
		emu_flash_model_save(d->flash, &before);
	}
	emu_flash_cmd_begin(d->flash, floor, c->dir == SS_EMU_DIR_TO_DRIVE ? c->len : 0, kind,
			    tag, reply_held, d->fw);
	ss_hal_set_timeline(d->hal, SS_HAL_TL_HOST);
	memset(&res, 0, sizeof(res));
	ss_fw_set_owner(d->fw, c->owner);
	ss_fw_ata_command(d->fw, &sc.tf, c->data, c->len, &res);
	queued = kind == EMU_CMD_SEND && !(res.status & SS_ATA_STATUS_ERR) &&
		 ss_fw_reply_waiting(d->fw, tag);
	/* No barrier: the command completes with its own work, not with its write-behind
	 * programs or read-ahead (emu_model_cmd_end). */
	c->completion_ns = emu_flash_cmd_end(d->flash,
		c->dir == SS_EMU_DIR_FROM_DRIVE && !(res.status & SS_ATA_STATUS_ERR) ? c->len : 0,
		queued);
	if (idle_recv || (queued && ss_fw_reply_idle_poll(d->fw, tag))) {
		emu_flash_model_restore(d->flash, &before);
	}
	/* A run this command queued (only a SEND carries EXECUTE_OBJECT) starts after it,
	 * as when it found the ISP idle (below), whether or not earlier runs are still going
	 * in wall-clock time; the floor is fixed now, not when the run starts, which later
	 * host commands must not move. */
	if (kind == EMU_CMD_SEND) {
		ss_fw_isp_not_before(d->fw, emu_flash_release_at(d->flash, c->completion_ns));
	}
	if (!(bg & SS_FW_BG_ISP)) {
		emu_flash_release(d->flash, SS_HAL_TL_ISP, c->completion_ns);
	}
	if (!(bg & SS_FW_BG_FTL)) {
		emu_flash_release(d->flash, SS_HAL_TL_BACKGROUND, c->completion_ns);
	}
	c->sense_len = emu_sat_complete(&sc, &res, c->sense, c->sense_cap, &c->status);
	/* New flash writes may call for GC or wear-levelling the cheap query does not see. */
	return ss_fw_background_pending(d->fw) != 0 || emu_flash_writes(d->flash) != writes;
}

/* One slice of background work; fw_lock held. \return 1 when more remains. */
static int slice(struct ss_emu_drive *d)
{
	int more;

	ss_hal_set_timeline(d->hal, SS_HAL_TL_BACKGROUND);
	more = ss_fw_idle(d->fw);
	pthread_mutex_lock(&d->lock);
	d->background = more;
	pthread_mutex_unlock(&d->lock);
	return more;
}

static void kick(struct ss_emu_drive *d)
{
	pthread_mutex_lock(&d->lock);
	if (!d->background) {
		d->background = 1;
		pthread_cond_signal(&d->work);
	}
	pthread_mutex_unlock(&d->lock);
}

/* Realtime mode paces background work too: it may not run ahead of the wall clock. */
static int background_ahead(struct ss_emu_drive *d, struct timespec *until)
{
	uint64_t now;

	if (d->mode != SS_EMU_TIME_REALTIME) {
		return 0;
	}
	now = emu_flash_device_now(d->flash);
	if (now <= wall_ns(d)) {
		return 0;
	}
	*until = at_model_ns(d, now);
	return 1;
}

static bool handed_off(void *arg)
{
	struct ss_emu_drive *d = arg;

	return atomic_load(&d->waiting) == 0 || atomic_load(&d->stopping);
}

static bool has_work(void *arg)
{
	struct ss_emu_drive *d = arg;

	return atomic_load(&d->background) || atomic_load(&d->stopping);
}

/* Until the submitters waiting for fw_lock have it: polled for a while (spin_until), then
 * asleep, not yielding in a loop (on a busy machine the woken submitter may wait long for
 * a CPU, all of it spent in sched_yield). ss_emu_submit wakes it when the last of them
 * takes the lock. */
static void wait_handoff(struct ss_emu_drive *d)
{
	if (spin_until(d, &d->host_cpu, handed_off)) {
		return;
	}
	pthread_mutex_lock(&d->lock);
	atomic_store(&d->parked, 1);
	while (atomic_load(&d->waiting) > 0 && !atomic_load(&d->stopping)) {
		pthread_cond_wait(&d->handoff, &d->lock);
	}
	atomic_store(&d->parked, 0);
	pthread_mutex_unlock(&d->lock);
}

static void *controller(void *arg)
{
	struct ss_emu_drive *d = arg;
	struct timespec until;

	pthread_setname_np(pthread_self(), "ss-controller");   /* in top, perf, /proc */
	emu_watchdog_lazy_stop();
	for (;;) {
		atomic_store(&d->controller_cpu, sched_getcpu());
		spin_until(d, &d->host_cpu, has_work);
		pthread_mutex_lock(&d->lock);
		while (!d->background && !atomic_load(&d->stopping)) {
			pthread_cond_wait(&d->work, &d->lock);
		}
		if (atomic_load(&d->stopping)) {
			pthread_mutex_unlock(&d->lock);
			break;
		}
		if (background_ahead(d, &until)) {
			pthread_cond_timedwait(&d->work, &d->lock, &until);
			pthread_mutex_unlock(&d->lock);
			continue;
		}
		pthread_mutex_unlock(&d->lock);
		/* Host commands first: a submitter waiting for the lock goes before the slice. */
		if (atomic_load(&d->waiting) > 0) {
			wait_handoff(d);
			continue;
		}
		take_fw_lock(d, &d->host_cpu);
		if (atomic_load(&d->waiting) > 0) {
			pthread_mutex_unlock(&d->fw_lock);
			wait_handoff(d);
			continue;
		}
		{
			uint64_t t0 = wall_ns(d) | 1;   /* 0 means no slice */

			atomic_store(&d->slice_started, t0);
			slice(d);
			atomic_store(&d->slice_started, 0);
		}
		pthread_mutex_unlock(&d->fw_lock);
	}
	return NULL;
}

int ss_emu_submit(struct ss_emu_drive *d, const uint8_t cdb[16], void *data, uint32_t len,
		  int dir, uint8_t *sense, uint32_t sense_cap, uint8_t *scsi_status)
{
	return ss_emu_submit_as(d, 0, cdb, data, len, dir, sense, sense_cap, scsi_status);
}

void ss_emu_owner_gone(struct ss_emu_drive *d, uint32_t owner)
{
	atomic_fetch_add(&d->users, 1);
	if (!atomic_load(&d->stopping)) {
		pthread_mutex_lock(&d->fw_lock);
		ss_fw_owner_gone(d->fw, owner);
		pthread_mutex_unlock(&d->fw_lock);
	}
	atomic_fetch_sub(&d->users, 1);
}

int ss_emu_submit_as(struct ss_emu_drive *d, uint32_t owner, const uint8_t cdb[16], void *data,
		     uint32_t len, int dir, uint8_t *sense, uint32_t sense_cap,
		     uint8_t *scsi_status)
{
	struct cmd c;
	int more;

	if (d == NULL || cdb == NULL || scsi_status == NULL ||
	    dir < SS_EMU_DIR_NONE || dir > SS_EMU_DIR_FROM_DRIVE ||
	    (len > 0 && data == NULL) || (dir == SS_EMU_DIR_NONE && len != 0)) {
		return -SS_EINVAL;
	}
	memset(&c, 0, sizeof(c));
	c.cdb = cdb;
	c.data = data;
	c.len = len;
	c.dir = dir;
	c.sense = sense;
	c.sense_cap = sense ? sense_cap : 0;
	c.owner = owner;

	atomic_fetch_add(&d->users, 1);
	if (atomic_load(&d->stopping)) {
		atomic_fetch_sub(&d->users, 1);
		return -SS_ECANCELED;
	}
	while (sem_wait(&d->slots) != 0) {
	}
	atomic_store(&d->host_cpu, sched_getcpu());
	atomic_fetch_add(&d->waiting, 1);
	take_fw_lock_submitter(d);
	/* Sequentially consistent: either the controller sees waiting at 0, or this sees it
	 * parked (wait_handoff) and wakes it. */
	if (atomic_fetch_sub(&d->waiting, 1) == 1 && atomic_load(&d->parked)) {
		pthread_mutex_lock(&d->lock);
		pthread_cond_broadcast(&d->handoff);
		pthread_mutex_unlock(&d->lock);
	}
	more = execute(d, &c);
	pthread_mutex_unlock(&d->fw_lock);
	sem_post(&d->slots);
	if (more) {
		kick(d);
	}

	if (d->mode == SS_EMU_TIME_REALTIME && c.completion_ns > 0) {
		struct timespec t = at_model_ns(d, c.completion_ns);

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {
		}
	}
	*scsi_status = c.status;
	atomic_fetch_sub(&d->users, 1);
	return (int)c.sense_len;
}

/* Counted work of the model: a slice that moves none of it made no progress. */
static uint64_t work_done(struct ss_emu_drive *d)
{
	struct ss_emu_counters c;

	ss_emu_flash_get_counters(d->flash, &c);
	return c.page_reads + c.page_programs + c.block_erases + c.erase_failures +
	       c.isp_pages + c.isp_instructions + c.isp_dram_accesses;
}

int ss_emu_run_background(struct ss_emu_drive *d, unsigned max_slices)
{
	unsigned slices = 0;
	int more = 1;

	while (more && (max_slices == 0 || slices < max_slices)) {
		uint64_t before = work_done(d);

		pthread_mutex_lock(&d->fw_lock);
		more = slice(d);
		pthread_mutex_unlock(&d->fw_lock);
		slices++;
		if (more && work_done(d) == before) {
			break;   /* work it cannot do now (a wear-levelling move without room) */
		}
	}
	return (int)slices;
}

static struct ss_emu_drive *drive_new(const struct ss_emu_drive_opts *o)
{
	struct ss_emu_drive *d = calloc(1, sizeof(*d));
	pthread_condattr_t ca;

	if (d == NULL) {
		return NULL;
	}
	d->ledger = emu_ledger_new();
	if (d->ledger == NULL) {
		free(d);
		return NULL;
	}
	d->mode = o->time_mode;
	d->manual = o->manual_background != 0;
	d->spin_us = o->spin_us;
	atomic_init(&d->host_cpu, -1);
	atomic_init(&d->controller_cpu, -1);
	pthread_mutex_init(&d->fw_lock, NULL);
	pthread_mutex_init(&d->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->work, &ca);
	pthread_cond_init(&d->handoff, &ca);
	pthread_condattr_destroy(&ca);
	sem_init(&d->slots, 0, SS_EMU_QUEUE_DEPTH);
	clock_gettime(CLOCK_MONOTONIC, &d->epoch);
	return d;
}

static void drive_free(struct ss_emu_drive *d)
{
	ss_emu_flash_close(d->flash);
	pthread_cond_destroy(&d->work);
	pthread_cond_destroy(&d->handoff);
	sem_destroy(&d->slots);
	pthread_mutex_destroy(&d->lock);
	pthread_mutex_destroy(&d->fw_lock);
	emu_ledger_free(d->ledger);
	free(d);
}

/* Whether a buffer of `pages` fits the DRAM beside the rest of the firmware. A size the
 * buffer cannot take counts for nothing in ss_fw_dram_needed_with_buffer, so a need below
 * the buffer's own frames means "too large", not "fits". */
static bool buffer_fits(const struct ss_emu_drive *d, uint64_t pages)
{
	uint64_t bytes = pages * d->hal->geo.page_size;
	uint64_t need = ss_fw_dram_needed_with_buffer(&d->hal->geo, bytes);

	return need > bytes && need <= d->hal->dram_size;
}

/* The largest buffer, in whole pages of bytes, that the drive's DRAM holds (0: none). */
static uint64_t buffer_limit(const struct ss_emu_drive *d)
{
	uint64_t lo = 2ull * d->hal->geo.pages_per_block, hi = d->hal->dram_size / d->hal->geo.page_size;

	if (!buffer_fits(d, lo)) {
		return 0;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (buffer_fits(d, mid)) {
			lo = mid;
		} else {
			hi = mid - 1;
		}
	}
	return lo * d->hal->geo.page_size;
}

static int check_dram(struct ss_emu_drive *d, const char *path, uint64_t buffer_bytes,
		      char *err, size_t errlen)
{
	uint64_t need = ss_fw_dram_needed_with_buffer(&d->hal->geo, buffer_bytes);
	uint64_t limit;

	if (buffer_bytes && (need > d->hal->dram_size || need <= buffer_bytes) &&
	    buffer_bytes > (limit = buffer_limit(d))) {
		emu_errf(err, errlen, "image %s: a buffer of %llu bytes is over the drive's DRAM "
			 "(%llu bytes): beside the firmware's tables for this geometry it holds a "
			 "buffer of at most %llu bytes (raise dram_bytes)", path,
			 (unsigned long long)buffer_bytes, (unsigned long long)d->hal->dram_size,
			 (unsigned long long)limit);
		return -SS_ENOMEM;
	}
	if (need > d->hal->dram_size) {
		emu_errf(err, errlen, "image %s: the firmware needs %llu bytes of DRAM for this "
			 "geometry but the drive has %llu (raise dram_bytes)", path,
			 (unsigned long long)need, (unsigned long long)d->hal->dram_size);
		return -SS_ENOMEM;
	}
	return 0;
}

/* What a mount that failed with -SS_EBADMSG found corrupt (corrupt) or the layer it failed
 * in otherwise. */
static const char *mount_failure(const struct ss_fw_mount_report *why, bool corrupt)
{
	static const char *const ftl_parts[] = {
		[SS_FTL_CKPT_INTACT] = "no FTL checkpoint is intact",
		[SS_FTL_CKPT_BLOCKS] = "no FTL checkpoint is intact (a block of the newest was "
				       "erased or reused since)",
		[SS_FTL_CKPT_HEADER] = "no FTL checkpoint is intact (the newest's header page "
				       "fails its checksum or disagrees with its pages)",
		[SS_FTL_CKPT_L2P] = "no FTL checkpoint is intact (a page of the newest's "
				    "logical-to-physical table fails its checksum)",
		[SS_FTL_CKPT_BLOCK_TABLE] = "no FTL checkpoint is intact (a page of the newest's "
					    "block table fails its checksum)",
	};
	static const char *const corrupt_parts[] = {
		[SS_FW_LAYER_NONE] = "the firmware's metadata does not check out",
		[SS_FW_LAYER_CACHE_LABEL] = "the label that splits the flash between the FTL and "
					    "the solid-state cache does not check out",
		[SS_FW_LAYER_FTL] = "the FTL's metadata does not check out",
		[SS_FW_LAYER_CACHE] = "the solid-state cache's checkpoint does not check out",
		[SS_FW_LAYER_STORE] = "the object store's metadata does not check out",
		[SS_FW_LAYER_BUFFER] = "the DRAM buffer's configuration does not check out",
		[SS_FW_LAYER_CHUNKS] = "no copy of the open-channel or zoned drive's chunk table "
				       "checks out",
	};
	static const char *const layers[] = {
		[SS_FW_LAYER_NONE] = "the firmware",
		[SS_FW_LAYER_CACHE_LABEL] = "the flash's partition label",
		[SS_FW_LAYER_FTL] = "the FTL",
		[SS_FW_LAYER_CACHE] = "the solid-state cache",
		[SS_FW_LAYER_STORE] = "the object store",
		[SS_FW_LAYER_BUFFER] = "the DRAM buffer",
		[SS_FW_LAYER_CHUNKS] = "the chunk table",
	};

	if (!corrupt) {
		return why->layer < SS_ARRAY_SIZE(layers) ? layers[why->layer] : layers[0];
	}
	if (why->layer == SS_FW_LAYER_FTL && why->ftl_part != SS_FTL_CKPT_INTACT &&
	    why->ftl_part < SS_ARRAY_SIZE(ftl_parts)) {
		return ftl_parts[why->ftl_part];
	}
	return why->layer < SS_ARRAY_SIZE(corrupt_parts) ? corrupt_parts[why->layer]
							 : corrupt_parts[0];
}

static int start(struct ss_emu_drive *d, char *err, size_t errlen)
{
	uint64_t up = emu_flash_device_now(d->flash);

	/* Background work starts after bring-up; let the firmware finish any recovery. */
	emu_flash_release(d->flash, SS_HAL_TL_ISP, up);
	emu_flash_release(d->flash, SS_HAL_TL_BACKGROUND, up);
	d->background = 1;
	if (d->manual) {
		return 0;
	}
	if (pthread_create(&d->thread, NULL, controller, d) != 0) {
		emu_errf(err, errlen, "cannot start the controller thread");
		return -SS_ENOMEM;
	}
	d->thread_started = 1;
	return 0;
}

/* ss_emu_drive_opts.withheld_opcodes: each name of the comma-separated list. */
static int withhold_opcodes(struct ss_emu_drive *d, const char *list, char *err, size_t errlen)
{
	const char *p = list;
	char name[32];

	while (p) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(name)) {
			emu_errf(err, errlen, "withheld opcodes '%s': an empty or overlong name", list);
			return -SS_EINVAL;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (ss_fw_withhold_opcode(d->fw, name) != 0) {
			emu_errf(err, errlen, "withheld opcodes: the firmware has no opcode '%s' "
				 "(names as in native/PROTOCOL.md section 4, e.g. ISP_QUEUE)", name);
			return -SS_EINVAL;
		}
		p = p[n] == ',' ? p + n + 1 : NULL;
	}
	return 0;
}

/* The merge cache's NVM problems in words (enum ss_buf_nv_problem). */
static void nvram_problem(const struct ss_buf_nv_report *r, const char *serial, char *out,
			  size_t len)
{
	switch (r->problem) {
	case SS_BUF_NV_MISSING:
		snprintf(out, len, "is missing (was the image copied or moved without it?)");
		break;
	case SS_BUF_NV_NOT_NVRAM:
		snprintf(out, len, "is not a merge cache's NVRAM (no SCNV magic in its header)");
		break;
	case SS_BUF_NV_VERSION:
		snprintf(out, len, "was written in NVRAM layout version %u, and this firmware reads "
			 "version 2 (version 1 carried no owner and no checksums)",
			 r->found_version);
		break;
	case SS_BUF_NV_FOREIGN:
		snprintf(out, len, "belongs to another drive (serial '%.20s'; this image's is '%s')",
			 r->found_drive, serial);
		break;
	case SS_BUF_NV_GENERATION:
		snprintf(out, len, "is this drive's, but of NVRAM generation %u where the drive's "
			 "flash expects another: an older or newer copy of the file",
			 r->found_generation);
		break;
	case SS_BUF_NV_PARAMS:
		snprintf(out, len, "holds a merge cache of another size or page than this drive's "
			 "(another image's, or a truncated file)");
		break;
	case SS_BUF_NV_CORRUPT:
		if (r->slot == UINT32_MAX) {
			snprintf(out, len, "is corrupt: its header fails its CRC-32C");
		} else {
			snprintf(out, len, "is corrupt: NVRAM sector %u (of LBA %u) fails its "
				 "CRC-32C", r->slot, r->lba);
		}
		break;
	default:
		snprintf(out, len, "has problem %u", r->problem);
		break;
	}
}

/* What starting the NVM empty drops, in words. */
static void nvram_held(const struct ss_buf_nv_report *r, char *out, size_t len)
{
	if (r->problem == SS_BUF_NV_MISSING || r->problem == SS_BUF_NV_FOREIGN) {
		snprintf(out, len, "the acknowledged writes that were in this image's own NVRAM, "
			 "which is not here (the flash's older copies of those sectors are served "
			 "instead)");
	} else if (r->held == UINT32_MAX) {
		snprintf(out, len, "whatever acknowledged writes it held (it is not readable "
			 "enough to count them)");
	} else {
		snprintf(out, len, "the %u acknowledged sectors (%u KiB) it holds that the flash "
			 "may not", r->held, r->held / 2);
	}
}

/* A mount's refusal in words: what failed and how to recover. */
static void say_refusal(struct ss_emu_drive *d, const char *path,
			const struct ss_fw_mount_report *mr, char *err, size_t errlen)
{
	char nvpath[PATH_MAX], what[192], held[160];

	if (mr->refused != SS_FW_REFUSED_NVRAM || emu_nvram_path(d->flash, nvpath,
								    sizeof(nvpath)) != 0) {
		emu_errf(err, errlen, "image %s: the firmware refused the drive (part %u)", path,
			 mr->refused);
		return;
	}
	nvram_problem(&mr->nvram, d->hal->serial, what, sizeof(what));
	nvram_held(&mr->nvram, held, sizeof(held));
	emu_errf(err, errlen, "image %s: refused: its merge cache's NVRAM %s %s. Put the image's "
		 "own NVRAM file back; or start the merge cache empty, losing %s, with "
		 "smartssd-devd --discard-nvram or emu:%s?discard_nvram=1", path, nvpath, what,
		 held, path);
}

static void say_discard(struct ss_emu_drive *d, const char *path,
			const struct ss_fw_mount_report *mr)
{
	char nvpath[PATH_MAX] = "", what[192] = "", held[160];

	(void)emu_nvram_path(d->flash, nvpath, sizeof(nvpath));
	if (mr->nvram.problem != SS_BUF_NV_OK) {
		nvram_problem(&mr->nvram, d->hal->serial, what, sizeof(what));
	}
	nvram_held(&mr->nvram, held, sizeof(held));
	snprintf(d->notice, sizeof(d->notice), "image %s: discard-nvram: the merge cache's NVRAM "
		 "%s%s%s%s was started empty, dropping %s", path, nvpath, what[0] ? " (which " : "",
		 what, what[0] ? ")" : "", held);
}

const char *ss_emu_notice(const struct ss_emu_drive *d)
{
	return d->notice;
}

static int bring_up(const char *path, const struct ss_emu_drive_opts *o, int format,
		    struct ss_emu_drive **out, char *err, size_t errlen)
{
	static const struct ss_emu_drive_opts defaults;
	struct ss_emu_flash_opts fo;
	struct ss_emu_drive *d;
	int rc;

	o = o ? o : &defaults;
	if (o->time_mode != SS_EMU_TIME_VIRTUAL && o->time_mode != SS_EMU_TIME_REALTIME) {
		emu_errf(err, errlen, "unknown time mode %d", (int)o->time_mode);
		return -SS_EINVAL;
	}
	if (o->spin_us > SS_EMU_SPIN_US_MAX) {
		emu_errf(err, errlen, "spin of %u us: at most %u us", o->spin_us,
			 SS_EMU_SPIN_US_MAX);
		return -SS_EINVAL;
	}
	d = drive_new(o);
	if (d == NULL) {
		emu_errf(err, errlen, "out of memory");
		return -SS_ENOMEM;
	}
	fo = o->flash;
	fo.create = format;
	rc = ss_emu_flash_open(path, &fo, &d->flash, err, errlen);
	if (rc != 0) {
		goto fail;
	}
	d->hal = ss_emu_flash_hal(d->flash);
	emu_flash_set_spin(d->flash, d->spin_us);
	rc = check_dram(d, path, o->buffer_bytes, err, errlen);
	if (rc != 0) {
		goto fail;
	}
	if (format) {
		struct ss_fw_format_params fp = {
			.max_objects = o->max_objects,
			.cache_share_permille = o->cache_share_permille,
			.buffer_policy = o->buffer_policy,
			.buffer_bytes = o->buffer_bytes,
			.buffer_threshold = o->buffer_threshold,
			.interface = o->interface,
		};
		struct ss_ssc_part part;

		rc = ss_fw_format(&d->fw, d->hal, &fp);
		if (rc != 0 && o->interface != SS_IFACE_FTL) {
			emu_errf(err, errlen, "image %s: formatting it %s failed (%s): a geometry "
				 "whose chunk table does not fit two to a block, or the flash failed",
				 path, o->interface == SS_IFACE_ZONED ? "zoned" : "open-channel",
				 strerror(-rc));
		} else if (rc == -SS_EINVAL && o->cache_share_permille != SS_FW_CACHE_SHARE_DEFAULT &&
		    ss_ssc_part_plan(&d->hal->geo, o->cache_share_permille, &part) != 0) {
			emu_errf(err, errlen, "image %s: a cache share of %u per mille (at most %u) "
				 "leaves the FTL or the cache no block row of the %u per die", path,
				 o->cache_share_permille, SS_SSC_SHARE_MAX_PERMILLE,
				 d->hal->geo.blocks_per_die);
		} else if (rc == -SS_EINVAL && (o->buffer_policy || o->buffer_bytes || o->buffer_threshold)) {
			emu_errf(err, errlen, "image %s: bad buffer: policy '%s' (none, lru, fab, "
				 "bplru, lbclock, hbm, nv-wb, nv-sub, nv-sat, the last three with "
				 "+cache, +prefetch or +both), %llu bytes (a multiple of the %u-byte page, "
				 "at least two %u-page blocks), threshold %u (at most %u)", path,
				 o->buffer_policy ? o->buffer_policy : "hbm",
				 (unsigned long long)o->buffer_bytes, d->hal->geo.page_size,
				 d->hal->geo.pages_per_block, o->buffer_threshold,
				 d->hal->geo.pages_per_block + 1);
		} else if (rc == -SS_ENOMEM && o->buffer_bytes) {
			emu_errf(err, errlen, "image %s: a buffer of %llu bytes does not fit the "
				 "drive's DRAM (%llu bytes; raise dram_bytes)", path,
				 (unsigned long long)o->buffer_bytes,
				 (unsigned long long)d->hal->dram_size);
		} else if (rc != 0) {
			emu_errf(err, errlen, "image %s: firmware format failed (%d)", path, rc);
		}
		if (rc != 0) {
			goto fail;
		}
	} else {
		struct ss_fw_format_params fp = {
			.buffer_policy = o->buffer_policy,
			.buffer_bytes = o->buffer_bytes,
			.buffer_threshold = o->buffer_threshold,
		};
		bool rebuffer = o->buffer_policy || o->buffer_bytes || o->buffer_threshold;
		struct ss_fw_mount_opts mo = { .buffer = rebuffer ? &fp : NULL,
					       .discard_nvram = o->discard_nvram };
		struct ss_fw_mount_report mr;

		rc = ss_fw_mount_ex(&d->fw, d->hal, &mo, &mr);
		if (rc == 0 && mr.discarded) {
			say_discard(d, path, &mr);
		}
		if (rc == -SS_EBADMSG && mr.refused != SS_FW_REFUSED_NONE) {
			say_refusal(d, path, &mr, err, errlen);
		} else if (rc == -SS_ENODATA) {
			emu_errf(err, errlen, "image %s is not formatted (format it first)", path);
		} else if (rc == -SS_EBADMSG) {
			emu_errf(err, errlen, "image %s is corrupt: %s", path,
				 mount_failure(&mr, true));
		} else if (rc == -SS_EPROTO) {
			emu_errf(err, errlen, "image %s was written in an on-flash format that this "
				 "firmware does not read (a newer object store, or a solid-state cache "
				 "checkpoint of another version): serve it with the firmware that wrote "
				 "it, or format it again", path);
		} else if (rc == -SS_EINVAL && rebuffer) {
			emu_errf(err, errlen, "image %s: bad buffer: policy '%s', %llu bytes, "
				 "threshold %u (see ss_fw_format_params)", path,
				 o->buffer_policy ? o->buffer_policy : "hbm",
				 (unsigned long long)o->buffer_bytes, o->buffer_threshold);
		} else if (rc == -SS_ENOMEM) {
			emu_errf(err, errlen, "image %s: the drive's buffer does not fit the DRAM "
				 "(%llu bytes; raise dram_bytes)", path,
				 (unsigned long long)d->hal->dram_size);
		} else if (rc != 0) {
			emu_errf(err, errlen, "image %s: mounting %s failed (%s)", path,
				 mount_failure(&mr, false), strerror(-rc));
		}
		if (rc != 0) {
			goto fail;
		}
	}
	rc = withhold_opcodes(d, o->withheld_opcodes, err, errlen);
	if (rc == 0) {
		rc = start(d, err, errlen);
	}
	if (rc != 0) {
		ss_fw_shutdown(d->fw);
		goto fail;
	}
	if (out == NULL) {
		return ss_emu_close(d);
	}
	*out = d;
	return 0;
fail:
	drive_free(d);
	return rc;
}

int ss_emu_format(const char *path, const struct ss_emu_drive_opts *o,
		  struct ss_emu_drive **out, char *err, size_t errlen)
{
	return bring_up(path, o, 1, out, err, errlen);
}

int ss_emu_format_guard(const char *path, char *err, size_t errlen)
{
	static const struct ss_emu_drive_opts probe = { .manual_background = 1 };
	struct ss_emu_drive *d = NULL;
	uint8_t magic[8];
	struct stat st;
	uint32_t objects = 0, iface = SS_IFACE_FTL;
	char why[384] = "";
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			return 0;
		}
		emu_errf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -SS_EIO;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		emu_errf(err, errlen, "%s is not a regular file: refusing to format it", path);
		return -SS_EEXIST;
	}
	n = st.st_size == 0 ? 0 : pread(fd, magic, sizeof(magic), 0);
	close(fd);
	if (st.st_size == 0) {
		return 0;
	}
	if (n != (ssize_t)sizeof(magic) || memcmp(magic, EMU_IMAGE_MAGIC, sizeof(magic)) != 0) {
		emu_errf(err, errlen, "%s exists and is not a smartssd image (it does not begin with "
			 "the image magic %s): formatting would overwrite its %lld bytes; give "
			 "--force to format it anyway", path, EMU_IMAGE_MAGIC, (long long)st.st_size);
		return -SS_EEXIST;
	}
	rc = ss_emu_open(path, &probe, &d, why, sizeof(why));
	if (rc == -SS_ENODATA) {
		return 0;   /* an image never formatted holds nothing */
	}
	if (rc == -SS_EBUSY) {
		emu_errf(err, errlen, "%s", why);
		return rc;
	}
	if (rc == 0) {
		uint32_t chunks = 0;

		pthread_mutex_lock(&d->fw_lock);
		iface = ss_fw_interface(d->fw);
		rc = iface == SS_IFACE_FTL ? ss_fw_objects(d->fw, &objects)
					   : ss_fw_chunks_written(d->fw, &chunks);
		pthread_mutex_unlock(&d->fw_lock);
		if (rc != 0) {
			snprintf(why, sizeof(why), "its object store is damaged");
		}
		ss_emu_close(d);
		if (rc == 0 && chunks != 0) {
			emu_errf(err, errlen, "%s is a smartssd image whose %s drive holds data in %u "
				 "chunk%s: formatting would erase it; give --force to format it "
				 "anyway", path, iface == SS_IFACE_ZONED ? "zoned" : "open-channel",
				 chunks, chunks == 1 ? "" : "s");
			return -SS_EEXIST;
		}
	}
	if (rc != 0) {
		emu_errf(err, errlen, "%s is a smartssd image that does not open (%s), so whether it "
			 "holds objects is not known: refusing to format it; give --force to format "
			 "it anyway", path, why);
		return -SS_EEXIST;
	}
	if (objects != 0) {
		emu_errf(err, errlen, "%s is a smartssd image whose drive holds %u object%s: "
			 "formatting would erase %s; give --force to format it anyway", path, objects,
			 objects == 1 ? "" : "s", objects == 1 ? "it" : "them");
		return -SS_EEXIST;
	}
	return 0;
}

int ss_emu_open(const char *path, const struct ss_emu_drive_opts *o,
		struct ss_emu_drive **out, char *err, size_t errlen)
{
	if (out == NULL) {
		emu_errf(err, errlen, "no drive handle to return");
		return -SS_EINVAL;
	}
	return bring_up(path, o, 0, out, err, errlen);
}

void ss_emu_get_counters(struct ss_emu_drive *d, struct ss_emu_counters *c)
{
	ss_emu_flash_get_counters(d->flash, c);
}

void ss_emu_buffer_stats(struct ss_emu_drive *d, struct ss_buf_params *p, struct ss_buf_stats *st)
{
	pthread_mutex_lock(&d->fw_lock);
	ss_fw_buffer_stats(d->fw, p, st);
	pthread_mutex_unlock(&d->fw_lock);
}

int ss_emu_read_reply(struct ss_emu_drive *d, uint16_t opcode, void *buf, uint32_t cap)
{
	int rc;

	pthread_mutex_lock(&d->fw_lock);
	rc = ss_fw_read_reply(d->fw, opcode, buf, cap);
	pthread_mutex_unlock(&d->fw_lock);
	return rc;
}

int ss_emu_smart_attributes(struct ss_emu_drive *d, struct ss_fw_smart_attr *a, uint32_t max)
{
	int rc;

	pthread_mutex_lock(&d->fw_lock);
	rc = ss_fw_smart_attributes(d->fw, a, max);
	pthread_mutex_unlock(&d->fw_lock);
	return rc;
}

uint32_t ss_emu_endurance(const struct ss_emu_drive *d)
{
	return d->hal->endurance;
}

struct emu_ledger *emu_drive_ledger(struct ss_emu_drive *d)
{
	return d->ledger;
}

int emu_drive_tasklet_work(struct ss_emu_drive *d, uint64_t instance, struct ss_fw_task_work *w)
{
	int rc;

	pthread_mutex_lock(&d->fw_lock);
	rc = ss_fw_tasklet_work(d->fw, instance, w);
	pthread_mutex_unlock(&d->fw_lock);
	return rc;
}

const struct ss_emu_profile *ss_emu_profile(struct ss_emu_drive *d)
{
	return ss_emu_flash_profile(d->flash);
}

int ss_emu_close(struct ss_emu_drive *d)
{
	int rc = 0;

	if (d == NULL) {
		return 0;
	}
	pthread_mutex_lock(&d->lock);
	atomic_store(&d->stopping, 1);
	pthread_cond_broadcast(&d->work);
	pthread_cond_broadcast(&d->handoff);
	pthread_mutex_unlock(&d->lock);
	if (d->thread_started) {
		pthread_join(d->thread, NULL);
	}
	/* Commands already submitted finish; later ones get -SS_ECANCELED. */
	while (atomic_load(&d->users) > 0) {
		usleep(100);
	}
	if (d->fw != NULL) {
		pthread_mutex_lock(&d->fw_lock);
		ss_hal_set_timeline(d->hal, SS_HAL_TL_BACKGROUND);
		rc = ss_fw_shutdown(d->fw);
		pthread_mutex_unlock(&d->fw_lock);
	}
	drive_free(d);
	return rc;
}

int ss_emu_time_mode_parse(const char *s, enum ss_emu_time_mode *m)
{
	if (s != NULL && strcmp(s, "virtual") == 0) {
		*m = SS_EMU_TIME_VIRTUAL;
		return 0;
	}
	if (s != NULL && strcmp(s, "realtime") == 0) {
		*m = SS_EMU_TIME_REALTIME;
		return 0;
	}
	return -SS_EINVAL;
}
