/*
 * The sg transport without hardware: the SG_IO seam captures the sg_io_hdr that would go
 * to the kernel, and plays the drive's part (status, sense) back.
 */
#include <errno.h>
#include <scsi/sg.h>
#include <stdlib.h>
#include <unistd.h>

#include "errinfo.h"
#include "transport.h"
#include "ut.h"

static struct sg_io_hdr captured;
static uint8_t captured_cdb[16];
static int calls;
static int fake_errno;
static unsigned char fake_status;
static unsigned short fake_host_status;
static const uint8_t *fake_sense;
static size_t fake_sense_len;

static int capture(int fd, void *arg)
{
	struct sg_io_hdr *h = arg;

	calls++;
	captured = *h;
	memcpy(captured_cdb, h->cmdp, 16);
	if (fake_errno) {
		errno = fake_errno;
		return -1;
	}
	h->status = fake_status;
	h->host_status = fake_host_status;
	h->sb_len_wr = (unsigned char)fake_sense_len;
	if (fake_sense_len)
		memcpy(h->sbp, fake_sense, fake_sense_len);
	return 0;
}

static struct ss_transport *open_fake(char *path)
{
	struct ss_transport *t = NULL;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(ss_transport_sg_open(path, 7000, &t), 0);
	return t;
}

static void test_send_hdr(void)
{
	char path[] = "/tmp/ss_sg_ut_XXXXXX";
	struct ss_transport *t = open_fake(path);
	static uint8_t pkt[1024];
	struct ss_sat_cmd c = {.command = 0x8A, .device = 0x40, .count = 2, .lba = 0x00030007,
			       .protocol = SS_SAT_PROTO_DMA, .dir = SS_SAT_DIR_OUT,
			       .extend = 1};
	static const uint8_t want_cdb[16] = {0x85, 0x0D, 0x06, 0x00, 0x00, 0x00, 0x02, 0x00,
					     0x07, 0x00, 0x00, 0x00, 0x03, 0x40, 0x8A, 0x00};
	struct ss_xfer x;

	memset(&x, 0, sizeof(x));
	CHECK_EQ(ss_sat_encode16(&c, x.cdb), 0);
	x.data = pkt;
	x.len = sizeof(pkt);
	x.dir = SS_SAT_DIR_OUT;
	ss_sg_io_hook = capture;
	fake_errno = 0;
	fake_status = 0;
	fake_sense_len = 0;
	CHECK_EQ(t->ops->submit(t, &x), 0);
	CHECK_EQ(calls, 1);
	CHECK_EQ(captured.interface_id, 'S');
	CHECK_EQ(captured.dxfer_direction, SG_DXFER_TO_DEV);
	CHECK_EQ(captured.cmd_len, 16);
	CHECK_MEM(captured_cdb, want_cdb, 16);
	CHECK(captured.dxferp == pkt);
	CHECK_EQ(captured.dxfer_len, 1024);
	CHECK(captured.sbp == x.sense);
	CHECK_EQ(captured.mx_sb_len, sizeof(x.sense));
	CHECK_EQ(captured.timeout, 7000); /* the transport's default */
	CHECK_EQ(x.scsi_status, 0);

	/* data-in with its own timeout; non-data has no buffer */
	x.dir = SS_SAT_DIR_IN;
	x.timeout_ms = 1234;
	CHECK_EQ(t->ops->submit(t, &x), 0);
	CHECK_EQ(captured.dxfer_direction, SG_DXFER_FROM_DEV);
	CHECK_EQ(captured.timeout, 1234);
	x.dir = SS_SAT_DIR_NONE;
	CHECK_EQ(t->ops->submit(t, &x), 0);
	CHECK_EQ(captured.dxfer_direction, SG_DXFER_NONE);
	CHECK(captured.dxferp == NULL);
	CHECK_EQ(captured.dxfer_len, 0);
	t->ops->close(t);
	unlink(path);
}

static void test_sense_and_failures(void)
{
	char path[] = "/tmp/ss_sg_ut_XXXXXX";
	struct ss_transport *t = open_fake(path);
	static const uint8_t sense[] = {0x72, 0x0B, 0x00, 0x00, 0, 0, 0, 0x0E, 0x09, 0x0C,
					0x01, 0x04, 0, 0, 0, 0x0B, 0, 0, 0, 0, 0x40, 0x51};
	struct ss_dev_model m;
	struct ss_xfer x;

	memset(&x, 0, sizeof(x));
	ss_sg_io_hook = capture;
	fake_errno = 0;
	fake_status = SS_SCSI_CHECK_CONDITION;
	fake_sense = sense;
	fake_sense_len = sizeof(sense);
	CHECK_EQ(t->ops->submit(t, &x), 0);
	CHECK_EQ(x.scsi_status, SS_SCSI_CHECK_CONDITION);
	CHECK_EQ(x.sense_len, sizeof(sense));
	CHECK_MEM(x.sense, sense, sizeof(sense));

	/* the drive unplugged */
	fake_errno = ENODEV;
	CHECK_EQ(t->ops->submit(t, &x), -ENOTCONN);
	CHECK(strstr(ss_dev_last_message(), "went away") != NULL);
	fake_errno = 0;
	fake_host_status = 0x01; /* DID_NO_CONNECT */
	CHECK_EQ(t->ops->submit(t, &x), -ENOTCONN);
	fake_host_status = 0x07;
	CHECK_EQ(t->ops->submit(t, &x), -EIO);
	fake_host_status = 0;
	fake_status = 0x18; /* RESERVATION CONFLICT */
	CHECK_EQ(t->ops->submit(t, &x), -EIO);

	CHECK_EQ(t->ops->model(t, &m), -ENOTSUP);
	t->ops->close(t);
	unlink(path);
}

static void test_open_missing(void)
{
	struct ss_transport *t;

	CHECK_EQ(ss_transport_sg_open("/nonexistent/sdz", 0, &t), -ENOENT);
	CHECK(strstr(ss_dev_last_message(), "/nonexistent/sdz") != NULL);
}

int main(void)
{
	test_send_hdr();
	test_sense_and_failures();
	test_open_missing();
	return ut_report("transport_sg_ut");
}
