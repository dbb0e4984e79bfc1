/* Whole-drive opcodes: DRIVE_INFO, FSSTAT, COUNTERS, FLUSH and CHECK, against the hal and the
 * emulated flash's own counters. */
#include "fixture.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

int main(void)
{
	struct fx f;
	struct fx_pkt p;
	struct fx_reply r;
	struct ss_ata_result res;
	struct ss_emu_counters ec;
	uint8_t id[512];
	uint64_t oid, free1, objs1;
	char s[41];

	fx_create(&f, 0);
	fx_open_session(&f);
	fx_ata(&f, 0xEC, 0, 1, 0, id, 512, &res);

	p = (struct fx_pkt){ .opcode = SS_OP_DRIVE_INFO };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 104);
	CHECK_EQ(le(r.payload, 4), 1);
	CHECK_EQ(le(r.payload + 4, 4), FX_PAGE_SIZE);
	CHECK_EQ(le(r.payload + 8, 4), FX_CHANNELS);
	CHECK_EQ(le(r.payload + 12, 4), 1);
	/* capacity: IDENTIFY words 100-103 in bytes */
	CHECK_EQ(le(r.payload + 24, 8), le(id + 200, 8) * 512);
	memcpy(s, r.payload + 32, 40);
	s[40] = 0;
	CHECK(strcmp(s, f.hal->model) == 0);
	memcpy(s, r.payload + 72, 20);
	s[20] = 0;
	CHECK(strcmp(s, f.hal->serial) == 0);
	memcpy(s, r.payload + 92, 8);
	s[8] = 0;
	CHECK(strcmp(s, f.hal->firmware_rev) == 0);

	p = (struct fx_pkt){ .opcode = SS_OP_FSSTAT };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 32);
	CHECK(le(r.payload, 8) > 0);
	CHECK(le(r.payload + 8, 8) <= le(r.payload, 8));
	CHECK_EQ(le(r.payload + 24, 4), FX_PAGE_SIZE);
	free1 = le(r.payload + 8, 8);
	objs1 = le(r.payload + 16, 4);
	CHECK_EQ(objs1, 1);                      /* the root, and nothing of the firmware's */
	CHECK_EQ(fx_create_path(&f, "/x", 1, 0, &oid), 0);
	static uint8_t big[256 * 1024];

	CHECK_EQ(fx_write(&f, oid, 0, big, sizeof(big)), 0);
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(le(r.payload + 16, 4), objs1 + 1);
	CHECK(le(r.payload + 8, 8) <= free1 - sizeof(big));

	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	p = (struct fx_pkt){ .opcode = SS_OP_COUNTERS };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	ss_emu_flash_get_counters(f.flash, &ec);
	CHECK_EQ(r.payload_len, 288);
	CHECK(le(r.payload + 8, 8) >= sizeof(big) / FX_PAGE_SIZE);   /* host page writes */
	CHECK_EQ(le(r.payload + 24, 8), ec.page_programs);            /* NAND programs */
	CHECK_EQ(le(r.payload + 32, 8), ec.block_erases);
	CHECK_EQ(le(r.payload + 72, 8), ec.now_ns);                   /* device time */
	CHECK(le(r.payload + 68, 4) >= 1000);                         /* WA >= 1 */
	/* the drive's buffer: the default (hbm, 4 MiB), and the big write went through it */
	CHECK_EQ(le(r.payload + 80, 4), 5);
	CHECK_EQ(le(r.payload + 84, 4), (4u << 20) / FX_PAGE_SIZE);
	CHECK(le(r.payload + 104, 8) >= sizeof(big) / FX_PAGE_SIZE);  /* buffer write pages */
	CHECK(le(r.payload + 136, 8) >= sizeof(big) / FX_PAGE_SIZE);  /* flushed by the FLUSH */

	/* the operator's reading (ss_fw_read_reply): COUNTERS' payload as the command gave it,
	 * with nothing a command counts moved; only the fixed-size replies with no request
	 * field, with room for their first version */
	{
		uint8_t got[288];
		struct ss_emu_counters ec2;
		struct ss_fw_smart_attr sa[SS_FW_SMART_ATTRS_MAX];

		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_COUNTERS, got, sizeof(got)), 288);
		ss_emu_flash_get_counters(f.flash, &ec2);
		CHECK_EQ(ec2.host_commands, ec.host_commands);
		CHECK_EQ(ec2.link_bytes_in, ec.link_bytes_in);
		CHECK_EQ(ec2.link_bytes_out, ec.link_bytes_out);
		CHECK(memcmp(got, r.payload, 72) == 0);          /* up to power_on_ns */
		CHECK(le(got + 72, 8) >= le(r.payload + 72, 8));
		CHECK(memcmp(got + 80, r.payload + 80, 288 - 80) == 0);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_COUNTERS, got, SS_WIRE_COUNTERS_V1_SIZE),
			 SS_WIRE_COUNTERS_V1_SIZE);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_COUNTERS, got, 223), -SS_EINVAL);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_FSSTAT, got, 32), 32);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_CHECK, got, sizeof(got)), -SS_EINVAL);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_FLUSH, got, sizeof(got)), -SS_EINVAL);
		CHECK_EQ(ss_fw_read_reply(f.fw, SS_OP_READ, got, sizeof(got)), -SS_EINVAL);
		CHECK_EQ(ss_fw_read_reply(f.fw, 0x7F, got, sizeof(got)), -SS_EINVAL);
		CHECK(ss_fw_smart_attributes(f.fw, sa, SS_FW_SMART_ATTRS_MAX) >= 9);
		CHECK_EQ(sa[0].id, SS_SMART_RETIRED_BLOCKS);
		CHECK_EQ(ss_fw_smart_attributes(f.fw, sa, 2), 2);
	}

	/* fixed-size replies need room, and carry no payload in */
	p = (struct fx_pkt){ .opcode = SS_OP_COUNTERS, .reply_max = 223, .tag = fx_tag(&f) };
	fx_send(&f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH, .payload = "x", .payload_len = 1,
			     .tag = fx_tag(&f) };
	fx_send(&f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));

	/* CHECK (PROTOCOL.md 5, ss_wire_check): a healthy store, mounted, with /x's pages */
	p = (struct fx_pkt){ .opcode = SS_OP_CHECK };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload_len, 72);
	CHECK_EQ(le(r.payload + 0, 4), 0);                  /* problem: consistent */
	CHECK_EQ(le(r.payload + 16, 4), 0xFFFFFFFFu);       /* problem_lpn: none */
	CHECK_EQ(le(r.payload + 20, 4), 1);                 /* mounted */
	CHECK(le(r.payload + 24, 4) >= 2);                  /* objects: the root and /x */
	CHECK(le(r.payload + 56, 8) >= sizeof(big) / FX_PAGE_SIZE);   /* data pages */
	p = (struct fx_pkt){ .opcode = SS_OP_CHECK, .reply_max = 71, .tag = fx_tag(&f) };
	fx_send(&f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
