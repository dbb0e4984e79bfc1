/*
 * libsmartssd's emu: transport: the emulated drive inside this process (ss_emu.h). It
 * lives with the emulator and implements the host library's transport interface
 * (native/provider/ss_transport_provider.h), so that the host library includes nothing of
 * the emulator's; libsmartssd links it where the emulator is built. One process holds an
 * image at a time; the emulator says so ("... use the daemon") and we pass its words on.
 *
 * URI path: /path/drive.img, optionally followed by options joined by '&':
 * "time=realtime" (or "time=virtual", the default) chooses how the drive paces completions;
 * "background=manual" runs no controller thread, so background work (GC, tasklet runs)
 * happens only when asked for (ss_emu_run_background): one exact interleaving of commands
 * and background work, for tests that assert modelled time. "buffer=POLICY",
 * "buffer_size=BYTES" and "buffer_threshold=N" change the drive's DRAM buffer from this
 * mount on (kept on the drive), as they choose it at format. "discard_nvram=1" starts the
 * merge cache's NVRAM empty where a mount refuses it (missing, another drive's, corrupt),
 * and says on stderr what it dropped: an operator's deliberate loss, never silent.
 * SMARTSSD_SPIN_US (as for
 * unix:) is how long the drive's controller and its submitters poll for each other before
 * they sleep (ss_emu_drive_opts.spin_us).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ss_devd_frame.h"
#include "ss_emu.h"
#include "ss_emu_ledger.h"
#include "ss_emu_profile.h"
#include "ss_proto.h"
#include "ss_transport_provider.h"

#define EMU_ERR_MAX 1024

/* libsmartssd and the emulator bound SMARTSSD_SPIN_US alike. */
_Static_assert(SS_SPIN_US_MAX == SS_EMU_SPIN_US_MAX, "one bound for SMARTSSD_SPIN_US");
#define SS_MIN_U32(a, b) ((a) < (b) ? (uint32_t)(a) : (uint32_t)(b))

_Static_assert(sizeof(struct ss_emu_task_share) == sizeof(struct ss_wire_task_share),
	       "the ledger's share is SS_REPLY_TASK_SHARE's u64 fields, in order");

struct emu_transport {
	struct ss_transport base;
	struct ss_emu_drive *drive;
	uint64_t client;                /* this transport's key in the drive's energy ledger */
	char path[];
};

static int emu_submit(struct ss_transport *t, struct ss_xfer *x)
{
	struct emu_transport *e = (struct emu_transport *)t;
	int dir = x->dir == SS_SAT_DIR_IN	 ? SS_EMU_DIR_FROM_DRIVE
		  : x->dir == SS_SAT_DIR_OUT ? SS_EMU_DIR_TO_DRIVE
					     : SS_EMU_DIR_NONE;
	int rc;

	rc = ss_emu_submit(e->drive, x->cdb, x->dir == SS_SAT_DIR_NONE ? NULL : x->data,
			   x->dir == SS_SAT_DIR_NONE ? 0 : x->len, dir, x->sense,
			   sizeof(x->sense), &x->scsi_status);
	if (rc == -ECANCELED)
		return ss_err(-ENOTCONN, 0, "emu %s: the emulated drive is closing", e->path);
	if (rc < 0)
		return ss_err(rc, 0, "emu %s: the emulated drive refused the command: %s",
			      e->path, strerror(-rc));
	x->sense_len = (uint32_t)rc;
	return 0;
}

/* ss_emu_counters has the fields of SS_REPLY_MODEL under the same names. */
#define EMU_MODEL_FIELD(a, kind, name, bytes) m->name = c.name;

static int emu_model(struct ss_transport *t, struct ss_dev_model *m)
{
	struct emu_transport *e = (struct emu_transport *)t;
	struct ss_emu_counters c;

	ss_emu_get_counters(e->drive, &c);
	SS_REPLY_MODEL(EMU_MODEL_FIELD, _)
	return 0;
}

static int emu_ledger(struct ss_transport *t, uint32_t op, uint64_t arg, uint64_t *out,
		      uint32_t cap, uint32_t *n)
{
	struct emu_transport *e = (struct emu_transport *)t;
	struct ss_emu_task_share sh;
	uint64_t ticket;
	int rc;

	*n = 0;
	switch (op) {
	case SS_LEDGER_JOIN:
		rc = ss_emu_ledger_join(e->drive, e->client, arg, &ticket);
		if (rc == 0 && cap >= 1) {
			out[0] = ticket;
			*n = 1;
		}
		return rc;
	case SS_LEDGER_LEAVE:
		return ss_emu_ledger_leave(e->drive, e->client, arg);
	case SS_LEDGER_ABANDON:
		return ss_emu_ledger_abandon(e->drive, e->client, arg);
	case SS_LEDGER_SHARE:
		rc = ss_emu_ledger_share(e->drive, e->client, arg, &sh);
		if (rc == 0) {
			*n = (uint32_t)SS_MIN_U32(cap, sizeof(sh) / 8);
			memcpy(out, &sh, *n * 8);
		}
		return rc;
	}
	return -EINVAL;
}

static void emu_close(struct ss_transport *t)
{
	struct emu_transport *e = (struct emu_transport *)t;

	ss_emu_close(e->drive);
	free(e);
}

static const struct ss_transport_ops emu_ops = {
	.name = "emu",
	.submit = emu_submit,
	.model = emu_model,
	.ledger = emu_ledger,
	.close = emu_close,
};

int ss_transport_emu_open(const char *uri_path, struct ss_transport **out)
{
	struct ss_emu_drive_opts o;
	struct ss_format_opts fo;
	struct emu_transport *e;
	char err[EMU_ERR_MAX] = "";
	const char *q = strchr(uri_path, '?');
	size_t n = q ? (size_t)(q - uri_path) : strlen(uri_path);
	int rc;

	memset(&o, 0, sizeof(o));
	memset(&fo, 0, sizeof(fo));
	o.time_mode = SS_EMU_TIME_VIRTUAL;
	for (const char *opt = q; opt; opt = strchr(opt + 1, '&')) {
		const char *v = opt + 1, *end = strchr(v, '&');
		size_t len = end ? (size_t)(end - v) : strlen(v);
		char t[16];

		/* a buffer option changes the drive's buffer from this mount on */
		rc = ss_buffer_option(uri_path, v, len, &fo);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		if (len > 5 && !strncmp(v, "time=", 5) && len - 5 < sizeof(t)) {
			memcpy(t, v + 5, len - 5);
			t[len - 5] = '\0';
			if (!ss_emu_time_mode_parse(t, &o.time_mode))
				continue;
		} else if (len == 17 && !strncmp(v, "background=manual", len)) {
			o.manual_background = 1;
			continue;
		} else if (len == 17 && !strncmp(v, "background=thread", len)) {
			continue;
		} else if (len == 15 && !strncmp(v, "discard_nvram=1", len)) {
			o.discard_nvram = 1;
			continue;
		}
		return ss_err(-EINVAL, 0, "emu %s: unknown option '%.*s' (time=virtual|realtime, "
			      "background=thread|manual, buffer=POLICY, buffer_size=BYTES, "
			      "buffer_threshold=N, discard_nvram=1)", uri_path, (int)len, v);
	}
	o.buffer_policy = fo.buffer_policy[0] ? fo.buffer_policy : NULL;
	o.buffer_bytes = fo.buffer_bytes;
	o.buffer_threshold = fo.buffer_threshold;
	rc = ss_spin_setting("emu", uri_path, &o.spin_us);
	if (rc)
		return rc;
	e = calloc(1, sizeof(*e) + n + 1);
	if (!e)
		return ss_err(-ENOMEM, 0, "emu %s: out of memory", uri_path);
	memcpy(e->path, uri_path, n);
	e->path[n] = '\0';
	rc = ss_emu_open(e->path, &o, &e->drive, err, sizeof(err));
	if (rc) {
		ss_err(rc, 0, "emu %s: %s", e->path, err[0] ? err : strerror(-rc));
		free(e);
		return rc;
	}
	if (ss_emu_notice(e->drive)[0])
		fprintf(stderr, "smartssd: %s\n", ss_emu_notice(e->drive));
	e->client = ss_emu_ledger_client(e->drive);
	e->base.ops = &emu_ops;
	e->base.path = e->path;
	*out = &e->base;
	return 0;
}

int ss_transport_emu_format(const char *path, const char *profile, uint64_t capacity_bytes,
			    const struct ss_format_opts *fo)
{
	struct ss_emu_drive_opts o;
	struct ss_emu_profile pr;
	char err[EMU_ERR_MAX] = "";
	int rc;

	memset(&o, 0, sizeof(o));
	o.flash.profile = profile && *profile ? profile : NULL;
	o.max_objects = fo->max_objects;
	o.cache_share_permille = fo->cache_share_permille;
	o.buffer_policy = fo->buffer_policy[0] ? fo->buffer_policy : NULL;
	o.buffer_bytes = fo->buffer_bytes;
	o.buffer_threshold = fo->buffer_threshold;
	o.interface = fo->interface;
	if (capacity_bytes) {
		uint64_t per_block_row, bpd;

		rc = ss_emu_profile_load(o.flash.profile, &pr, err, sizeof(err));
		if (rc)
			return ss_err(rc, 0, "emu %s: %s", path, err);
		/* Raw flash of capacity_bytes, rounded up to whole blocks on every die. */
		per_block_row = (uint64_t)pr.geo.channels * pr.geo.ways * pr.geo.pages_per_block *
				pr.geo.page_size;
		if (capacity_bytes < per_block_row)
			return ss_err(-EINVAL, 0, "emu %s: a capacity of %llu bytes is below profile "
				      "%s's minimum of %llu bytes (%llu MiB: one %u-page block on each "
				      "of its %u dies)", path, (unsigned long long)capacity_bytes,
				      pr.name, (unsigned long long)per_block_row,
				      (unsigned long long)(per_block_row >> 20), pr.geo.pages_per_block,
				      pr.geo.channels * pr.geo.ways);
		bpd = capacity_bytes / per_block_row + (capacity_bytes % per_block_row != 0);
		if (bpd > UINT32_MAX)
			return ss_err(-EINVAL, 0, "emu %s: %llu bytes is too large for profile %s",
				      path, (unsigned long long)capacity_bytes, pr.name);
		o.flash.geo.blocks_per_die = (uint32_t)bpd;
	}
	if (!fo->force) {
		rc = ss_emu_format_guard(path, err, sizeof(err));
		if (rc)
			return ss_err(rc, 0, "emu %s: %s", path, err);
	}
	rc = ss_emu_format(path, &o, NULL, err, sizeof(err));
	if (rc)
		return ss_err(rc, 0, "emu %s: %s", path, err[0] ? err : strerror(-rc));
	return 0;
}

const char *ss_transport_emu_profile_name(size_t i)
{
	return ss_emu_profile_name(i);
}
