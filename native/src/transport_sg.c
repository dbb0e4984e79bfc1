/*
 * sg: a real drive through the Linux SG_IO ioctl (on /dev/sdX or /dev/sgN), each command an
 * ATA PASS-THROUGH(16) CDB, exactly as sg_sat_* tools send them.
 */
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "errinfo.h"
#include "transport.h"

#define DEFAULT_TIMEOUT_MS 30000
#define DID_NO_CONNECT 0x01

struct sg_transport {
	struct ss_transport base;
	int fd;
	uint32_t timeout_ms;
	char path[];
};

static int real_sg_io(int fd, void *hdr)
{
	return ioctl(fd, SG_IO, hdr);
}

int (*ss_sg_io_hook)(int fd, void *sg_io_hdr) = real_sg_io;

static int sg_submit(struct ss_transport *t, struct ss_xfer *x)
{
	struct sg_transport *s = (struct sg_transport *)t;
	struct sg_io_hdr h;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmdp = x->cdb;
	h.cmd_len = SS_SAT_CDB_LEN;
	switch (x->dir) {
	case SS_SAT_DIR_IN:
		h.dxfer_direction = SG_DXFER_FROM_DEV;
		break;
	case SS_SAT_DIR_OUT:
		h.dxfer_direction = SG_DXFER_TO_DEV;
		break;
	default:
		h.dxfer_direction = SG_DXFER_NONE;
		break;
	}
	h.dxferp = x->dir == SS_SAT_DIR_NONE ? NULL : x->data;
	h.dxfer_len = x->dir == SS_SAT_DIR_NONE ? 0 : x->len;
	h.sbp = x->sense;
	h.mx_sb_len = sizeof(x->sense);
	h.timeout = x->timeout_ms ? x->timeout_ms : s->timeout_ms;

	if (ss_sg_io_hook(s->fd, &h) < 0) {
		int e = errno;

		if (e == ENODEV || e == ENXIO)
			return ss_err(-ENOTCONN, 0, "sg %s: the drive went away (%s)", s->path,
				      strerror(e));
		return ss_err(-e, 0, "sg %s: SG_IO failed: %s", s->path, strerror(e));
	}
	if (h.host_status == DID_NO_CONNECT)
		return ss_err(-ENOTCONN, 0, "sg %s: the drive went away", s->path);
	if (h.host_status)
		return ss_err(-EIO, 0, "sg %s: host adapter error 0x%x", s->path, h.host_status);
	x->scsi_status = h.status;
	x->sense_len = h.sb_len_wr;
	if (h.status != SS_SCSI_GOOD && h.status != SS_SCSI_CHECK_CONDITION)
		return ss_err(-EIO, 0, "sg %s: SCSI status 0x%x", s->path, h.status);
	return 0;
}

static int sg_model(struct ss_transport *t, struct ss_dev_model *m)
{
	return ss_err(-ENOTSUP, 0, "sg %s: a real drive has no timing or energy model",
		      t->path);
}

static void sg_close(struct ss_transport *t)
{
	struct sg_transport *s = (struct sg_transport *)t;

	close(s->fd);
	free(s);
}

static int sg_ledger(struct ss_transport *t, uint32_t op, uint64_t arg, uint64_t *out,
		     uint32_t cap, uint32_t *n)
{
	(void)op;
	(void)arg;
	(void)out;
	(void)cap;
	*n = 0;
	return ss_err(-ENOTSUP, 0, "sg %s: a real drive has no energy model to apportion",
		      t->path);
}

static const struct ss_transport_ops sg_ops = {
	.name = "sg",
	.submit = sg_submit,
	.model = sg_model,
	.ledger = sg_ledger,
	.close = sg_close,
};

int ss_transport_sg_open(const char *path, uint32_t timeout_ms, struct ss_transport **out)
{
	struct sg_transport *s;
	size_t n = strlen(path);
	int fd;

	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return ss_err(-e, 0, "sg %s: cannot open: %s", path, strerror(e));
	}
	s = calloc(1, sizeof(*s) + n + 1);
	if (!s) {
		close(fd);
		return ss_err(-ENOMEM, 0, "sg %s: out of memory", path);
	}
	memcpy(s->path, path, n + 1);
	s->base.ops = &sg_ops;
	s->base.path = s->path;
	s->fd = fd;
	s->timeout_ms = timeout_ms ? timeout_ms : DEFAULT_TIMEOUT_MS;
	*out = &s->base;
	return 0;
}
