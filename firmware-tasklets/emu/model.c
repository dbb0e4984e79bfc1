/*
 * Timing and energy model. The host link and the ISP core each have a timeline (the time
 * it becomes free); each hal timeline (host, ISP, background) has an issue cursor and its
 * own view of when every die and channel is free. An operation starts at max(cursor issue
 * time, resource free in its timeline's view). Energy is derived from the counted
 * operations on snapshot.
 *
 * Simplification, for determinism: host I/O has priority over ISP and GC work, and the
 * model takes that to the limit. Host commands never queue behind ISP or background flash
 * work, and ISP and background work never queue behind host work or each other: a die
 * busy on one timeline is free on the others. So the modelled times of each timeline
 * follow from its own operations only, never from how host commands and background slices
 * happened to interleave in wall-clock time. Busy times summed over dies and channels may
 * therefore exceed what one die or channel could do.
 *
 * Write-behind and read-ahead, on the host timeline only: a program occupies its die and
 * channel as usual but a host command does not wait for it (the data is in the drive's
 * DRAM write buffer, EMU_WRITE_BUFFER_BYTES) unless the buffer is full or the command
 * syncs (FLUSH, FUA); a read issued as read-ahead does not hold up the command that
 * issues it, only the later one that waits for its data.
 *
 * Clocks: the host clock is the completion of the host timeline's latest work, and a host
 * command arrives at max(host clock, floor) (floor: the wall clock in realtime mode). The
 * ISP and background cursors move up to a command only when the drive releases them (it
 * does so when their timeline had nothing queued at that command). The device clock
 * (`now`) is the latest completion of anything: counters and idle energy use it.
 *
 * Queue depth (after blk-mq: Bjørling et al., "Linux Block IO: Introducing Multi-queue
 * SSD Access on Multi-core Systems" [Bjørling 2015, ch. 3], §3.2, Fig. 5, and §3.2.3 on
 * tags): an OBJ SEND the drive accepts is a queued command (SATA NCQ): the drive holds its
 * reply under its tag until an OBJ RECV takes it. While queued commands are still at work,
 * the host does not wait for them: a further SEND arrives when the host's previous command
 * left it free (a queued SEND: at the end of its transfer over the link; anything else: at
 * its completion), and a RECV arrives when that and the work of its own tag are done. Any
 * other command, or a SEND with nothing queued still at work, arrives at the host clock as
 * it always has, so a host that keeps one command outstanding (queue depth 1) is modelled
 * exactly as before this queue existed.
 * Queued commands share, first come first served in the order the drive executes them:
 *   - the link (link_free): every command's transfer and its per-command overhead, which
 *     is the controller CPU's protocol work for the command (link_cmd_overhead_ns);
 *   - a channel (chan_free): the transfer of a page between a die's register and the
 *     controller; commands on different channels overlap;
 *   - a die (die_free): its tR, tPROG or tBERS; dies of one channel (its ways) overlap
 *     their array work and take turns on the channel;
 *   - the ISP core (isp_free): tasklet work, on its own timeline, one run at a time in
 *     the order executed, each no earlier than the command that executed it (the engine
 *     then shares the core between overlapping runs in the times it reports:
 *     isp/isp_share.c);
 *   - the DRAM write buffer (wb_end): a program waits for a slot.
 * Which command goes first on a resource follows the drive's execution order, which is
 * the order commands reach the firmware (one connection's commands in the order sent);
 * no wall-clock time enters, so one submission order gives one set of modelled times.
 *
 * Progress polls: a READ_OBJECT without output bytes that finds its run still going
 * (ss_fw_reply_idle_poll) is not charged at all, neither its SEND nor its RECV: the drive
 * undoes both (drive.c, emu_flash_model_restore). How many such polls a host sends
 * follows its wall clock, and on the drive they fill a link that is idle while the ISP
 * core works, so charging them made the modelled time of a device job depend on the host's
 * timing. The poll that finds the run done is charged as any command.
 */
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"
#include "ss_rt.h"

int emu_model_init(struct emu_model *m, const struct ss_emu_profile *p,
		   const struct ss_geometry *g)
{
	memset(m, 0, sizeof(*m));
	m->p = p;
	m->channels = g->channels;
	m->dies = ss_geo_dies(g);
	m->die_free = calloc((size_t)EMU_TIMELINES * m->dies, sizeof(*m->die_free));
	m->chan_free = calloc((size_t)EMU_TIMELINES * m->channels, sizeof(*m->chan_free));
	m->wb_slots = SS_MAX(1u, EMU_WRITE_BUFFER_BYTES / SS_MAX(1u, g->page_size));
	m->wb_end = calloc(m->wb_slots, sizeof(*m->wb_end));
	if (m->die_free == NULL || m->chan_free == NULL || m->wb_end == NULL) {
		emu_model_fini(m);
		return -SS_ENOMEM;
	}
	return 0;
}

void emu_model_fini(struct emu_model *m)
{
	free(m->die_free);
	free(m->chan_free);
	free(m->wb_end);
	m->die_free = NULL;
	m->chan_free = NULL;
	m->wb_end = NULL;
}

/** \return ns to move `bytes` at `bytes_per_s`, rounded up. Whole seconds and the rest
 *  apart, in 64-bit arithmetic (no __int128 on 32-bit targets): the rest is below
 *  bytes_per_s, so rest * 10^9 fits while bytes_per_s is under 18 GB/s, far above any
 *  profile's link or channel; past that the rest is scaled down first. */
uint64_t emu_xfer_ns(uint64_t bytes, uint64_t bytes_per_s)
{
	uint64_t whole = bytes / bytes_per_s, rest = bytes % bytes_per_s;

	if (rest <= UINT64_MAX / 1000000000u) {
		return whole * 1000000000u + (rest * 1000000000u + bytes_per_s - 1) / bytes_per_s;
	}
	return whole * 1000000000u + rest / SS_DIV_ROUND_UP(bytes_per_s, 1000000000u) + 1;
}

static uint64_t done(struct emu_model *m, uint64_t end)
{
	struct emu_cursor *c = &m->cur[m->tl];

	c->last = SS_MAX(c->last, end);
	m->now = SS_MAX(m->now, end);
	return end;
}

/* The current timeline's view of die `die` and of its channel. */
static uint64_t *die_slot(struct emu_model *m, uint32_t die)
{
	return &m->die_free[(size_t)m->tl * m->dies + die];
}

static uint64_t *chan_slot(struct emu_model *m, uint32_t die)
{
	return &m->chan_free[(size_t)m->tl * m->channels + die % m->channels];
}

uint64_t emu_model_read(struct emu_model *m, uint32_t die, uint64_t bytes)
{
	uint64_t *df = die_slot(m, die), *cf = chan_slot(m, die);
	uint64_t start = SS_MAX(m->cur[m->tl].issue, *df);
	uint64_t sensed = start + m->p->nand_read_ns;
	uint64_t xfer = emu_xfer_ns(bytes, m->p->channel_bytes_per_s);
	uint64_t xstart = SS_MAX(sensed, *cf);

	/* The die holds the page in its register until the channel has moved it out. */
	*cf = xstart + xfer;
	*df = xstart + xfer;
	m->c.die_busy_ns += xstart + xfer - start;
	m->c.channel_busy_ns += xfer;
	m->c.page_reads++;
	m->c.bytes_read += bytes;
	if (m->tl == SS_HAL_TL_HOST && m->reading_ahead) {
		m->cur[m->tl].ahead = SS_MAX(m->cur[m->tl].ahead, xstart + xfer);
		m->now = SS_MAX(m->now, xstart + xfer);
		return xstart + xfer;
	}
	return done(m, xstart + xfer);
}

uint64_t emu_model_program(struct emu_model *m, uint32_t die, uint64_t bytes)
{
	uint64_t *df = die_slot(m, die), *cf = chan_slot(m, die);
	uint64_t xfer = emu_xfer_ns(bytes, m->p->channel_bytes_per_s);
	uint64_t xstart = SS_MAX(m->cur[m->tl].issue, SS_MAX(*df, *cf));
	uint64_t end = xstart + xfer + m->p->nand_program_ns;

	*cf = xstart + xfer;
	*df = end;
	m->c.die_busy_ns += end - xstart;
	m->c.channel_busy_ns += xfer;
	m->c.page_programs++;
	m->c.bytes_programmed += bytes;
	if (m->tl == SS_HAL_TL_HOST) {
		struct emu_cursor *c = &m->cur[m->tl];
		uint64_t *slot = &m->wb_end[m->wb_next];

		/* The page takes the buffer slot of the program a buffer's worth earlier. */
		c->last = SS_MAX(c->last, *slot);
		*slot = end;
		m->wb_next = (m->wb_next + 1) % m->wb_slots;
		c->behind = SS_MAX(c->behind, end);
		m->now = SS_MAX(m->now, end);
		return end;
	}
	return done(m, end);
}

uint64_t emu_model_erase(struct emu_model *m, uint32_t die)
{
	uint64_t *df = die_slot(m, die);
	uint64_t start = SS_MAX(m->cur[m->tl].issue, *df);
	uint64_t end = start + m->p->nand_erase_ns;

	*df = end;
	m->c.die_busy_ns += m->p->nand_erase_ns;
	return done(m, end);
}

uint64_t emu_model_isp_ns(const struct ss_emu_profile *p, uint64_t instr, uint64_t dram,
			  uint64_t pages)
{
	return pages * p->fw_page_overhead_ns + (instr * p->isp_ps_per_instruction + 999) / 1000 +
	       dram * p->dram_access_ns;
}

void emu_model_isp(struct emu_model *m, uint64_t instr, uint64_t dram, uint64_t pages)
{
	const struct ss_emu_profile *p = m->p;
	uint64_t cost = emu_model_isp_ns(p, instr, dram, pages);
	uint64_t start = SS_MAX(m->cur[m->tl].issue, m->isp_free);

	m->isp_free = start + cost;
	m->c.isp_busy_ns += cost;
	m->c.isp_instructions += instr;
	m->c.isp_dram_accesses += dram;
	m->c.isp_pages += pages;
	done(m, start + cost);
}

void emu_model_barrier(struct emu_model *m)
{
	struct emu_cursor *c = &m->cur[m->tl];

	/* All earlier work, write-behind and read-ahead included, as the hal promises. */
	c->issue = SS_MAX(c->issue, SS_MAX(c->last, SS_MAX(c->behind, c->ahead)));
}

void emu_model_sync(struct emu_model *m)
{
	struct emu_cursor *c = &m->cur[m->tl];

	c->last = SS_MAX(c->last, c->behind);
}

void emu_model_read_ahead(struct emu_model *m, int on)
{
	m->reading_ahead = on;
}

void emu_model_read_ahead_wait(struct emu_model *m)
{
	struct emu_cursor *c = &m->cur[m->tl];

	c->issue = SS_MAX(c->issue, c->ahead);
	c->last = SS_MAX(c->last, c->ahead);
}

uint64_t emu_model_now(const struct emu_model *m)
{
	const struct emu_cursor *c = &m->cur[m->tl];

	return m->tl == SS_HAL_TL_HOST ? m->now : SS_MAX(c->issue, c->last);
}

void emu_model_queue_prune(struct emu_model *m, int (*live)(void *arg, uint32_t tag),
			   void *arg)
{
	uint32_t i = 0;

	while (i < m->qn) {
		if (live(arg, m->q[i].tag)) {
			i++;
		} else {
			m->q[i] = m->q[--m->qn];
		}
	}
}

/* The host clock: the completion of everything the host issued. */
static uint64_t host_clock(const struct emu_model *m)
{
	const struct emu_cursor *c = &m->cur[SS_HAL_TL_HOST];
	uint64_t t = SS_MAX(c->issue, c->last);

	for (uint32_t i = 0; i < m->qn; i++) {
		t = SS_MAX(t, m->q[i].done);
	}
	return t;
}

/* When a command of this kind arrives, the floor aside ("Queue depth" above). */
static uint64_t arrival_of(struct emu_model *m, enum emu_cmd_kind kind, uint32_t tag)
{
	int at_work = 0;

	m->cmd_found = 0;
	for (uint32_t i = 0; i < m->qn; i++) {
		at_work |= m->q[i].done > m->q_ready;
		if (kind == EMU_CMD_RECV && m->q[i].tag == tag) {
			m->cmd_found = 1;
			return SS_MAX(m->q_ready, m->q[i].done);
		}
	}
	return kind == EMU_CMD_SEND && at_work ? m->q_ready : host_clock(m);
}

uint64_t emu_model_cmd_begin(struct emu_model *m, uint64_t floor, uint64_t bytes_in,
			     enum emu_cmd_kind kind, uint32_t tag)
{
	struct emu_cursor *c = &m->cur[SS_HAL_TL_HOST];
	uint64_t arrival = SS_MAX(floor, arrival_of(m, kind, tag));
	uint64_t start = SS_MAX(arrival, m->link_free);
	uint64_t busy = m->p->link_cmd_overhead_ns + emu_xfer_ns(bytes_in, m->p->link_bytes_per_s);

	m->link_free = start + busy;
	m->c.link_busy_ns += busy;
	m->c.link_bytes_in += bytes_in;
	m->c.host_commands++;
	c->issue = start + busy;
	c->last = start + busy;
	m->now = SS_MAX(m->now, start + busy);
	m->cmd_kind = kind;
	m->cmd_tag = tag;
	m->cmd_link_in = start + busy;
	return start + busy;
}

/* After a command: the queue and when the host may issue its next one. */
static void queue_update(struct emu_model *m, uint64_t end, int queued, int received)
{
	const struct emu_cursor *c = &m->cur[SS_HAL_TL_HOST];
	uint32_t i;

	for (i = 0; i < m->qn && m->q[i].tag != m->cmd_tag; i++) {
	}
	if (queued) {
		if (i == m->qn && m->qn < EMU_QUEUE_MAX) {
			m->qn++;
		}
		if (i < m->qn) {
			m->q[i].tag = m->cmd_tag;
			m->q[i].done = SS_MAX(c->issue, c->last);
		}
		/* A full table keeps the command unqueued: its RECV waits for everything. */
		m->q_ready = i < m->qn ? m->cmd_link_in : SS_MAX(end, SS_MAX(c->issue, c->last));
		return;
	}
	if (m->cmd_kind == EMU_CMD_RECV && received && i < m->qn) {
		m->q[i] = m->q[--m->qn];  /* received: its reply crossed the link */
	}
	m->q_ready = SS_MAX(end, SS_MAX(c->issue, c->last));
}

uint64_t emu_model_release_at(const struct emu_model *m, uint64_t t)
{
	/* Work queued by a command may read the pages it wrote: it starts once they are
	 * programmed (the host's view of the dies is not the other timelines'). */
	return SS_MAX(t, m->cur[SS_HAL_TL_HOST].behind);
}

void emu_model_release(struct emu_model *m, int tl, uint64_t t)
{
	emu_model_not_before(m, tl, emu_model_release_at(m, t));
}

void emu_model_not_before(struct emu_model *m, int tl, uint64_t t)
{
	m->cur[tl].issue = SS_MAX(m->cur[tl].issue, t);
}

uint64_t emu_model_cmd_end(struct emu_model *m, uint64_t bytes_out, int queued)
{
	struct emu_cursor *c = &m->cur[SS_HAL_TL_HOST];
	uint64_t start, busy;

	if (bytes_out == 0) {
		queue_update(m, c->last, queued, 0);
		return c->last;
	}
	start = SS_MAX(c->last, m->link_free);
	busy = emu_xfer_ns(bytes_out, m->p->link_bytes_per_s);
	m->link_free = start + busy;
	m->c.link_busy_ns += busy;
	m->c.link_bytes_out += bytes_out;
	c->issue = start + busy;
	c->last = start + busy;
	m->now = SS_MAX(m->now, start + busy);
	queue_update(m, start + busy, queued, 1);
	return start + busy;
}

void emu_model_snapshot(const struct emu_model *m, struct ss_emu_counters *o)
{
	const struct ss_emu_profile *p = m->p;

	*o = m->c;
	o->now_ns = m->now;
	o->host_now_ns = host_clock(m);
	o->energy_nand_read_nj = o->page_reads * p->nand_read_nj;
	o->energy_nand_program_nj = o->page_programs * p->nand_program_nj;
	o->energy_nand_erase_nj = (o->block_erases + o->erase_failures) * p->nand_erase_nj;
	o->energy_link_nj = (o->link_bytes_in + o->link_bytes_out) * p->link_pj_per_byte / 1000;
	o->energy_isp_nj = o->isp_busy_ns * p->isp_active_mw / 1000;
	o->energy_idle_nj = o->now_ns * p->device_idle_mw / 1000;
	o->energy_total_nj = o->energy_nand_read_nj + o->energy_nand_program_nj +
			     o->energy_nand_erase_nj + o->energy_link_nj + o->energy_isp_nj +
			     o->energy_idle_nj;
	o->nand_read_nj = p->nand_read_nj;
	o->fw_page_overhead_ns = p->fw_page_overhead_ns;
	o->isp_ps_per_instruction = p->isp_ps_per_instruction;
	o->dram_access_ns = p->dram_access_ns;
	o->isp_active_mw = p->isp_active_mw;
	o->link_pj_per_byte = p->link_pj_per_byte;
}
