/*
 * Bringing the drive up and down: format, mount, shutdown, crash recovery, the DRAM the
 * firmware asks for, idle work, and the lifetime record that is invisible to the host.
 */
#include <stdlib.h>
#include <unistd.h>

#include "fixture.h"

static uint64_t smart_raw(struct fx *f, uint8_t id)
{
	struct ss_ata_result res;
	uint8_t s[512];

	fx_ata(f, 0xB0, 0xD0, 1, 0xC24F00, s, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	for (int i = 0; i < 30; i++) {
		const uint8_t *a = s + 2 + i * 12;

		if (a[0] == id) {
			uint64_t v = 0;

			for (int b = 5; b >= 0; b--) {
				v = (v << 8) | a[5 + b];
			}
			return v;
		}
	}
	CHECK(!"attribute present");
	return 0;
}

static void test_lifecycle(void)
{
	struct fx f;
	struct ss_ata_result res;
	struct fx_pkt p;
	struct fx_reply r;
	uint64_t oid;
	uint8_t data[4096], back[4096];
	uint32_t n;

	fx_create(&f, 0);
	CHECK_EQ(smart_raw(&f, 12), 1);   /* the format's power-up */
	CHECK_EQ(smart_raw(&f, 174), 0);
	fx_open_session(&f);
	CHECK_EQ(fx_create_path(&f, "/keep", 1, 0, &oid), 0);
	for (uint32_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 7 + 1);
	}
	CHECK_EQ(fx_write(&f, oid, 0, data, sizeof(data)), 0);

	/* clean shutdown: data, mount count, no unsafe shutdown */
	fx_remount(&f);
	CHECK_EQ(smart_raw(&f, 12), 2);
	CHECK_EQ(smart_raw(&f, 174), 0);
	/* sessions are gone with the power */
	p = (struct fx_pkt){ .opcode = SS_OP_FSSTAT, .tag = (1u << 16) | 1u, .reply_max = 4096 };
	fx_send(&f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_SESSION));
	fx_open_session(&f);
	CHECK_EQ(fx_read(&f, oid, 0, back, sizeof(back), &n), 0);
	CHECK_EQ(n, sizeof(data));
	CHECK(memcmp(back, data, sizeof(data)) == 0);

	/* flushed, then power loss: still there, and the loss is counted */
	p = (struct fx_pkt){ .opcode = SS_OP_FLUSH };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	fx_crash(&f);
	CHECK_EQ(smart_raw(&f, 12), 3);
	CHECK_EQ(smart_raw(&f, 174), 1);
	fx_open_session(&f);
	CHECK_EQ(fx_read(&f, oid, 0, back, sizeof(back), &n), 0);
	CHECK_EQ(n, sizeof(data));
	CHECK(memcmp(back, data, sizeof(data)) == 0);

	/* the record is nowhere in the namespace */
	p = (struct fx_pkt){ .opcode = SS_OP_LIST, .payload = "/", .payload_len = 1 };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.v[1], 1);
	CHECK_EQ(r.payload_len, sizeof(struct ss_wire_dirent));
	CHECK(memcmp(r.payload + 16, "keep", 4) == 0);
	p = (struct fx_pkt){ .opcode = SS_OP_STAT, .payload = "/", .payload_len = 1 };
	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(r.payload[20], 1);   /* nchildren */

	/* after shutdown the drive refuses commands until mounted again */
	CHECK_EQ(ss_fw_shutdown(f.fw), 0);
	fx_ata(&f, 0xEC, 0, 1, 0, data, 512, &res);
	CHECK(FX_ABORTED(res, SS_R_BUSY));
	CHECK_EQ(ss_fw_idle(f.fw), 0);
	CHECK_EQ(ss_fw_shutdown(f.fw), 0);   /* twice is harmless */
	ss_emu_flash_close(f.flash);
	f.flash = NULL;
	f.fw = NULL;
	fx_destroy(&f);
}

static void test_unformatted_and_dram(void)
{
	struct ss_emu_flash_opts o;
	struct ss_emu_flash *fl;
	struct ss_fw *fw = NULL;
	char dir[] = "/tmp/cmd_fw_ut.XXXXXX", path[128], err[256];
	struct ss_hal *hal, small;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/d.img", dir);
	memset(&o, 0, sizeof(o));
	o.geo = (struct ss_geometry){ 2, 1, 16, 16, 4096, 128, 0 };
	o.dram_bytes = ss_fw_dram_needed(&o.geo);
	o.create = 1;
	CHECK_EQ(ss_emu_flash_open(path, &o, &fl, err, sizeof(err)), 0);
	hal = ss_emu_flash_hal(fl);
	CHECK(hal->dram_size >= o.dram_bytes);
	/* never formatted */
	CHECK_EQ(ss_fw_mount(&fw, hal), -SS_ENODATA);
	CHECK(fw == NULL);
	/* too little DRAM is refused, not overrun */
	small = *hal;
	small.dram_size = o.dram_bytes / 2;
	CHECK_EQ(ss_fw_format(&fw, &small, NULL), -SS_ENOMEM);
	CHECK(fw == NULL);
	CHECK_EQ(ss_fw_format(&fw, NULL, NULL), -SS_EINVAL);
	/* exactly what ss_fw_dram_needed asks for is enough */
	CHECK_EQ(ss_fw_format(&fw, hal, NULL), 0);
	CHECK(fw != NULL);
	/* idle work runs out */
	int n = 0;

	while (ss_fw_idle(fw) && n < 100000) {
		n++;
	}
	CHECK(n < 100000);
	CHECK_EQ(ss_fw_shutdown(fw), 0);
	ss_emu_flash_close(fl);
	unlink(path);
	rmdir(dir);
}

/* ss_fw_background_pending: nothing after the idle loop has run dry; the FTL's checkpoint
 * once half a checkpoint interval (4096 pages by default) of pages is programmed. */
static void test_background_pending(void)
{
	static uint8_t chunk[1 << 20];
	struct fx f;
	uint64_t oid;

	CHECK_EQ(ss_fw_background_pending(NULL), 0);
	fx_create(&f, 0);
	fx_idle(&f);
	CHECK_EQ(ss_fw_background_pending(f.fw), 0);
	fx_open_session(&f);
	CHECK_EQ(fx_create_path(&f, "/big", 1, 0, &oid), 0);
	memset(chunk, 0x3c, sizeof(chunk));
	for (uint64_t off = 0; off < 2048ull * FX_PAGE_SIZE; off += sizeof(chunk)) {
		CHECK_EQ(fx_write(&f, oid, off, chunk, sizeof(chunk)), 0);
	}
	/* the pages still in the drive's buffer reach the FTL */
	struct fx_pkt p = { .opcode = SS_OP_FLUSH };
	struct fx_reply r;

	CHECK_EQ(fx_call(&f, &p, &r), 0);
	CHECK_EQ(ss_fw_background_pending(f.fw), SS_FW_BG_FTL);
	fx_idle(&f);   /* the checkpoint */
	CHECK_EQ(ss_fw_background_pending(f.fw), 0);
	fx_destroy(&f);
}

int main(void)
{
	struct ss_ata_result res;

	/* no drive at all: an error, not a crash */
	ss_fw_ata_command(NULL, NULL, NULL, 0, &res);
	CHECK(FX_ABORTED(res, SS_R_BUSY));
	ss_fw_ata_command(NULL, NULL, NULL, 0, NULL);
	CHECK_EQ(ss_fw_idle(NULL), 0);
	test_lifecycle();
	test_unformatted_and_dram();
	test_background_pending();
	return fx_failures ? 1 : 0;
}
