/*
 * The board's main loop: bring the firmware up on the Jasmine backend, then execute host
 * commands as the SATA layer hands them over and run background work between them.
 */
#include "ss_fw.h"
#include "ss_rt.h"
#include "ss_openssd.h"

static struct ss_hal g_hal;

int ss_openssd_main(const struct ss_openssd_host *host)
{
	struct ss_fw *fw = NULL;
	struct ss_ata_taskfile tf;
	struct ss_ata_result res;
	uint8_t *data;
	uint32_t len;
	int rc;

	rc = ss_openssd_hal_init(&g_hal);
	if (rc != 0) {
		return rc;
	}
	rc = ss_fw_mount(&fw, &g_hal);
	if (rc == -SS_ENODATA) {
		/* A blank board: format it with the object store's defaults. */
		struct ss_fw_format_params p = { .max_objects = 0 };

		rc = ss_fw_format(&fw, &g_hal, &p);
	}
	if (rc != 0) {
		return rc;
	}
	for (;;) {
		if (host->next_command(host->ctx, &tf, &data, &len)) {
			ss_memset(&res, 0, sizeof(res));
			ss_fw_ata_command(fw, &tf, data, len, &res);
			host->complete(host->ctx, &tf, &res);
		} else {
			ss_fw_idle(fw);
		}
		/* Keeps the 32-bit board timer's extension current (it wraps in ~49 s). */
		(void)ss_hal_now_ns(&g_hal);
	}
}
