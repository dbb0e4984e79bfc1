/* smartssd-devd's framing, both ends: encoders against decoders, every refusal, the
 * socket I/O over a socketpair, and the SMARTSSD_SPIN_US setting's parse. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ss_devd_frame.h"

static int failures;

#define CHECK(c)                                                                       \
	do {                                                                           \
		if (!(c)) {                                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
			failures++;                                                    \
		}                                                                      \
	} while (0)

static void test_requests(void)
{
	struct ss_frame_request in = { .kind = SS_FRAME_COMMAND, .tag = 0xA1B2C3D4u,
				       .dir = SS_FRAME_DIR_TO_DRIVE, .data_len = 4096 };
	struct ss_frame_request out;
	uint8_t h[SS_FRAME_REQUEST_HDR];

	for (int i = 0; i < 16; i++) {
		in.cdb[i] = (uint8_t)(0x80 + i);
	}
	ss_frame_encode_request(h, &in);
	CHECK(memcmp(h, "SSDQ", 4) == 0);
	CHECK(h[4] == 0xD4 && h[7] == 0xA1);            /* little-endian tag */
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_OK);
	CHECK(out.kind == SS_FRAME_COMMAND && out.tag == in.tag && out.dir == in.dir);
	CHECK(out.data_len == 4096 && memcmp(out.cdb, in.cdb, 16) == 0);

	in.dir = SS_FRAME_DIR_NONE;                      /* no data phase: data_len goes as 0 */
	ss_frame_encode_request(h, &in);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_OK && out.data_len == 0);

	in.kind = SS_FRAME_MODEL;
	ss_frame_encode_request(h, &in);
	CHECK(memcmp(h, "SSDM", 4) == 0);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_OK);
	CHECK(out.kind == SS_FRAME_MODEL && out.tag == in.tag);
	h[31] = 1;
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_RESERVED);

	/* an energy-ledger request: op at 8, the u64 argument at 16, the rest zero */
	in.kind = SS_FRAME_LEDGER;
	in.ledger_op = SS_LEDGER_SHARE;
	in.ledger_arg = 0x1122334455667788ull;
	ss_frame_encode_request(h, &in);
	CHECK(memcmp(h, "SSDL", 4) == 0 && h[8] == SS_LEDGER_SHARE && h[16] == 0x88 && h[23] == 0x11);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_OK);
	CHECK(out.kind == SS_FRAME_LEDGER && out.tag == in.tag && out.ledger_op == SS_LEDGER_SHARE &&
	      out.ledger_arg == in.ledger_arg && out.data_len == 0);
	h[12] = 1;
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_RESERVED);
	h[12] = 0;
	h[31] = 1;
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_RESERVED);
	h[31] = 0;
	ss_put_le32(h + 8, SS_LEDGER_SHARE + 1);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_OP);
	ss_put_le32(h + 8, 0);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_OP);

	in.kind = SS_FRAME_COMMAND;
	in.dir = SS_FRAME_DIR_FROM_DRIVE;
	in.data_len = SS_FRAME_DATA_MAX;
	ss_frame_encode_request(h, &in);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_OK);
	ss_put_le32(h + 28, SS_FRAME_DATA_MAX + 1);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_LENGTH);
	ss_put_le32(h + 24, 3);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_DIR);
	ss_put_le32(h + 24, SS_FRAME_DIR_NONE);
	ss_put_le32(h + 28, 512);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_LENGTH);
	memcpy(h, "SSDX", 4);
	CHECK(ss_frame_decode_request(h, &out) == SS_FRAME_BAD_MAGIC);
	CHECK(strcmp(ss_frame_error_name(SS_FRAME_BAD_MAGIC), "bad magic") == 0);
}

static void test_replies(void)
{
	struct ss_frame_reply in = { .tag = 7, .scsi_status = 2, .sense_len = 8,
				     .data_len = 512 }, out;
	uint8_t h[SS_FRAME_REPLY_HDR];

	memcpy(in.sense, "\x72\x07\x74\x71", 4);
	ss_frame_encode_reply(h, &in);
	CHECK(memcmp(h, "SSDA", 4) == 0);
	CHECK(ss_frame_decode_reply(h, &out) == SS_FRAME_OK);
	CHECK(out.tag == 7 && out.scsi_status == 2 && out.sense_len == 8 && out.data_len == 512);
	CHECK(memcmp(out.sense, in.sense, 8) == 0);
	h[9] = SS_FRAME_SENSE_MAX + 1;
	CHECK(ss_frame_decode_reply(h, &out) == SS_FRAME_BAD_SENSE);
	h[0] = 'X';
	CHECK(ss_frame_decode_reply(h, &out) == SS_FRAME_BAD_MAGIC);
	in.sense_len = 200;                               /* clipped to what the header holds */
	ss_frame_encode_reply(h, &in);
	CHECK(h[9] == SS_FRAME_SENSE_MAX);
}

static void test_model(void)
{
	uint8_t b[8 + 3 * 8];

	ss_put_le32(b, 3);
	ss_put_le32(b + 4, 0);
	for (int i = 0; i < 3; i++) {
		ss_put_le64(b + 8 + 8 * i, 100 + (uint64_t)i);
	}
	CHECK(ss_frame_model_at(b, sizeof(b), 0) == 100);
	CHECK(ss_frame_model_at(b, sizeof(b), 2) == 102);
	CHECK(ss_frame_model_at(b, sizeof(b), 3) == 0);   /* past N */
	CHECK(ss_frame_model_at(b, 16, 2) == 0);          /* past the bytes */
	CHECK(ss_frame_model_at(b, 4, 0) == 0);
}

struct sender {
	int fd;
	uint8_t *data;
	size_t len;
	int rc;
};

static void *send_in_pieces(void *arg)
{
	struct sender *s = arg;
	struct iovec iov[3] = { { s->data, 7 }, { s->data + 7, 100000 },
				{ s->data + 100007, s->len - 100007 } };

	s->rc = ss_frame_send(s->fd, iov, 3);
	shutdown(s->fd, SHUT_WR);
	return NULL;
}

static void test_socket_io(void)
{
	static uint8_t data[3 << 20], got[3 << 20];
	struct sender s = { .data = data, .len = sizeof(data) };
	struct ss_frame_reader r;
	uint8_t small[5];
	pthread_t th;
	int sv[2];

	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 2654435761u >> 13);
	}
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	s.fd = sv[1];
	pthread_create(&th, NULL, send_in_pieces, &s);
	ss_frame_reader_init(&r, sv[0]);
	/* small reads through the buffer, then one large one straight to its place */
	CHECK(ss_frame_read(&r, got, 3, 0) == 0);
	CHECK(ss_frame_read(&r, got + 3, 40, 0) == 0);
	CHECK(ss_frame_read(&r, got + 43, sizeof(got) - 43, 0) == 0);
	CHECK(memcmp(got, data, sizeof(data)) == 0);
	CHECK(ss_frame_read(&r, small, 1, 0) == -ECONNRESET);   /* the end of the stream */
	pthread_join(th, NULL);
	CHECK(s.rc == 0);
	close(sv[0]);
	close(sv[1]);

	/* a deadline: nothing arrives, the read gives up with -ETIMEDOUT */
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	ss_frame_reader_init(&r, sv[0]);
	CHECK(ss_frame_read(&r, small, 5, ss_frame_now_ms() + 20) == -ETIMEDOUT);
	/* a peer gone: sending fails with an errno, and no SIGPIPE kills us */
	close(sv[0]);
	{
		struct iovec iov = { data, 4096 };

		CHECK(ss_frame_send(sv[1], &iov, 1) == -EPIPE);
	}
	close(sv[1]);
}

/* SMARTSSD_SPIN_US: decimal microseconds within the bound, nothing else */
static void test_spin_setting(void)
{
	static const char *const bad[] = { "", "fast", "-1", "+5", " 5", "5x", "100001",
					   "99999999999999999999999" };
	uint32_t us = 7;

	CHECK(ss_spin_us_parse("0", &us) == 0 && us == 0);
	CHECK(ss_spin_us_parse("50", &us) == 0 && us == SS_SPIN_US_DEFAULT);
	CHECK(ss_spin_us_parse("100000", &us) == 0 && us == SS_SPIN_US_MAX);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		us = 7;
		CHECK(ss_spin_us_parse(bad[i], &us) == -1 && us == 7);
	}
}

int main(void)
{
	test_spin_setting();
	test_requests();
	test_replies();
	test_model();
	test_socket_io();
	fprintf(stderr, "devd_frame_ut: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
