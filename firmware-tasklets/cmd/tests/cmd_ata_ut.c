/* ATA dispatch: commands the drive does not implement, CHECK POWER MODE, SET FEATURES, and
 * that no command or buffer shape makes the firmware misbehave. */
#include <stdlib.h>

#include "fixture.h"

int main(void)
{
	static const uint8_t implemented[] = { 0x06, 0x20, 0x24, 0x25, 0x30, 0x34, 0x35, 0x3D, 0x8A, 0x8B,
					       0xB0, 0xC8, 0xCA, 0xE5, 0xE7, 0xEA, 0xEC, 0xEF };
	struct fx f;
	struct ss_ata_result res;
	uint8_t *buf = calloc(1, 4096);

	fx_create(&f, 0);
	for (int c = 0; c < 256; c++) {
		int known = memchr(implemented, c, sizeof(implemented)) != NULL;

		fx_ata(&f, (uint8_t)c, 0, 1, 0, buf, 512, &res);
		CHECK(res.status & SS_ATA_STATUS_DRDY);
		if (!known) {
			CHECK(FX_ABORTED(res, SS_R_BAD_OPCODE));
		}
	}
	fx_ata(&f, 0xE5, 0, 0, 0, NULL, 0, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	CHECK_EQ(res.count, 0xFF);
	for (int feat = 0; feat < 256; feat++) {
		int ok = feat == 0x02 || feat == 0x03 || feat == 0x55 || feat == 0xAA;

		fx_ata(&f, 0xEF, (uint16_t)feat, 0x46, 0, NULL, 0, &res);
		if (ok) {
			CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
		} else {
			CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
		}
	}
	/* data-carrying commands without a buffer */
	static const uint8_t with_data[] = { 0x06, 0x25, 0x35, 0x8A, 0x8B, 0xB0, 0xC8, 0xEC };

	for (size_t i = 0; i < sizeof(with_data); i++) {
		fx_ata(&f, with_data[i], with_data[i] == 0xB0 ? 0xD0 : 1, 1, 0xC24F00, NULL, 512, &res);
		CHECK(res.status & SS_ATA_STATUS_ERR);
	}
	/* the drive still serves */
	fx_ata(&f, 0xEC, 0, 1, 0, buf, 512, &res);
	CHECK_EQ(res.status, SS_ATA_STATUS_DRDY);
	free(buf);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
