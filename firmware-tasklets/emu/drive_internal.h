/* What the drive's parts beside drive.c (the energy ledger) need of it. */
#ifndef EMU_DRIVE_INTERNAL_H
#define EMU_DRIVE_INTERNAL_H

#include <stdint.h>

#include "ss_emu.h"

struct ss_fw_task_work;
struct emu_ledger;

struct emu_ledger *emu_ledger_new(void);
void emu_ledger_free(struct emu_ledger *l);

/** The drive's ledger. */
struct emu_ledger *emu_drive_ledger(struct ss_emu_drive *d);

/** A tasklet instance's counted work, under the firmware lock (ss_fw_tasklet_work). */
int emu_drive_tasklet_work(struct ss_emu_drive *d, uint64_t instance, struct ss_fw_task_work *w);

#endif
