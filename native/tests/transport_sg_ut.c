/*
 * The sg transport without hardware: the SG_IO seam captures the sg_io_hdr that would go
 * to the kernel, and plays the drive's part (status, sense) back.
 */
#include <errno.h>
#include <scsi/sg.h>
#include <stdlib.h>
#include <unistd.h>

#include "devtest.h"
#include "errinfo.h"
#include "smartssd/smartssd.h"
#include "ss_proto.h"
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

/* The seam as a SATA drive: each sg_io_hdr goes to the emulated drive, exactly as the
 * kernel would hand the CDB and buffer to a real one. */
static struct ss_emu_drive *emu;

static int to_emulator(int fd, void *arg)
{
	struct sg_io_hdr *h = arg;
	int dir = h->dxfer_direction == SG_DXFER_TO_DEV	? SS_EMU_DIR_TO_DRIVE
		  : h->dxfer_direction == SG_DXFER_FROM_DEV ? SS_EMU_DIR_FROM_DRIVE
							    : SS_EMU_DIR_NONE;
	int rc;

	CHECK_EQ(h->interface_id, 'S');
	CHECK_EQ(h->cmd_len, 16);
	rc = ss_emu_submit(emu, h->cmdp, h->dxferp, h->dxfer_len, dir, h->sbp, h->mx_sb_len,
			   &h->status);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	h->sb_len_wr = (unsigned char)rc;
	h->host_status = 0;
	h->driver_status = 0;
	return 0;
}

static void test_over_emulator(void)
{
	char node[] = "/tmp/ss_sg_node_XXXXXX", uri[64], err[256] = "";
	struct ss_dev_smart health;
	struct ss_dev_stat st;
	struct ss_dev_model m;
	struct ss_dev *d = NULL;
	struct devtest t;
	uint8_t buf[3000], back[3000];
	uint64_t oid;
	int fd;

	if (devtest_format(&t, 0)) {
		ut_failures++;
		return;
	}
	CHECK_EQ(ss_emu_open(t.image, NULL, &emu, err, sizeof(err)), 0);
	fd = mkstemp(node);
	CHECK(fd >= 0);
	close(fd);
	snprintf(uri, sizeof(uri), "sg:%s", node);
	ss_sg_io_hook = to_emulator;
	CHECK_EQ(ss_dev_open(uri, NULL, &d), 0);
	if (d) {
		CHECK(!strcmp(ss_dev_transport(d), "sg"));
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)(i * 3);
		CHECK_EQ(ss_dev_create(d, "/sg/f", SS_DEV_FILE, SS_DEV_CREATE_PARENTS, &oid), 0);
		CHECK_EQ(ss_dev_write(d, oid, 0, buf, sizeof(buf), 0), (int64_t)sizeof(buf));
		CHECK_EQ(ss_dev_read(d, oid, 0, back, sizeof(back)), (int64_t)sizeof(back));
		CHECK(memcmp(buf, back, sizeof(buf)) == 0);
		CHECK_EQ(ss_dev_lookup(d, "/sg/none", &st), -ENOENT);
		CHECK_EQ(ss_dev_last_reason(), SS_R_NO_SUCH_OBJECT);
		CHECK_EQ(ss_dev_model_counters(d, &m), -ENOTSUP);
		/* SMART on sg is libatasmart's own device access: a plain file is no disk */
		CHECK(ss_dev_smart(d, &health, NULL, 0) < 0);
		CHECK(strstr(ss_dev_last_message(), "libatasmart") != NULL);
		CHECK_EQ(ss_dev_close(d), 0);
	}
	ss_sg_io_hook = capture;
	CHECK_EQ(ss_emu_close(emu), 0);
	unlink(node);
	devtest_cleanup(&t);
}

int main(void)
{
	test_send_hdr();
	test_sense_and_failures();
	test_open_missing();
	test_over_emulator();
	return ut_report("transport_sg_ut");
}
