/*
 * The drive's energy ledger: it apportions the drive's modelled energy among the tasks
 * (tasklet runs) that share it, whichever process or connection each runs from.
 *
 * A *period* runs from the first task joining while no task is active to the last of its
 * tasks leaving. The drive's energy over the period (energy_total_nj at the last leave
 * minus at the first join) is divided among the period's tasks in proportion to each
 * task's own counted work, read by the drive from its tasklet instance at leave and priced
 * with the model's profile: page reads x nand_read_nj, ISP time (pages x
 * fw_page_overhead_ns + instructions x isp_ps_per_instruction / 1000 rounded up + DRAM
 * accesses x dram_access_ns) x isp_active_mw, and output bytes x link_pj_per_byte, in pJ.
 * Shares are whole nJ that add up exactly to the period's energy: each is the floor of its
 * exact value, the nJ left over go one each to the largest remainders, ties to the task
 * that joined first; equal parts when no task counted any work. Modelled energy only.
 *
 * Tickets are keyed by client (a daemon connection, an in-process transport): a client
 * sees only its own, and when it goes away its active tasks leave with no work.
 */
#ifndef SS_EMU_LEDGER_H
#define SS_EMU_LEDGER_H

#include <stdint.h>

struct ss_emu_drive;

/* A settled task's share (the field list SS_REPLY_TASK_SHARE of ss_proto_replies.h). */
struct ss_emu_task_share {
	uint64_t task_nj;
	uint64_t task_weight_pj;
	uint64_t period_nj;
	uint64_t period_weight_pj;     /* saturates at UINT64_MAX */
	uint64_t tasks;
	uint64_t clients;
	uint64_t pages;
	uint64_t instructions;
	uint64_t dram_accesses;
	uint64_t output_bytes;
	uint64_t start_nand_read_nj, start_nand_program_nj, start_nand_erase_nj;
	uint64_t start_link_nj, start_isp_nj, start_idle_nj;
	uint64_t end_nand_read_nj, end_nand_program_nj, end_nand_erase_nj;
	uint64_t end_link_nj, end_isp_nj, end_idle_nj;
};

/* Tickets held at once, drive-wide; a join beyond them is refused with -SS_ENOSPC. */
#define SS_EMU_LEDGER_TICKETS 256u

/** A new client key, never 0, unique for the drive's life. */
uint64_t ss_emu_ledger_client(struct ss_emu_drive *d);

/** Join the drive's period (or start one) for tasklet instance `instance` (0: a task
 *  with no work of its own). \return 0 and *ticket, -SS_ENOENT (no such instance),
 *  -SS_ENOSPC (too many tickets). */
int ss_emu_ledger_join(struct ss_emu_drive *d, uint64_t client, uint64_t instance,
		       uint64_t *ticket);

/** Leave with the instance's counted work as the drive has it now (read before the
 *  instance is destroyed). \return 0, -SS_ENOENT (no such ticket of this client, or its
 *  instance is gone: the ticket stays active), -SS_EINVAL (it has left already). */
int ss_emu_ledger_leave(struct ss_emu_drive *d, uint64_t client, uint64_t ticket);

/** Leave with no work (a failed or cancelled task). \return 0, -SS_ENOENT. Idempotent. */
int ss_emu_ledger_abandon(struct ss_emu_drive *d, uint64_t client, uint64_t ticket);

/** The ticket's share once its period has ended; the ticket is then forgotten.
 *  \return 0, -SS_EAGAIN (its period is still open), -SS_ENOENT. */
int ss_emu_ledger_share(struct ss_emu_drive *d, uint64_t client, uint64_t ticket,
			struct ss_emu_task_share *s);

/** The client went away: its active tasks leave with no work, its tickets are forgotten. */
void ss_emu_ledger_drop_client(struct ss_emu_drive *d, uint64_t client);

#endif
