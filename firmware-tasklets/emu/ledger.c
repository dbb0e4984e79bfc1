/* The drive's energy ledger (include/ss_emu_ledger.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "drive_internal.h"
#include "ss_emu_ledger.h"
#include "ss_fw.h"
#include "ss_rt.h"

enum { T_FREE = 0, T_ACTIVE, T_LEFT, T_SETTLED };

struct ticket {
	uint64_t id;            /* joins are numbered: their order breaks ties */
	uint64_t client;
	uint64_t instance;
	uint64_t period;
	int state;
	int orphan;             /* its client went away: forget it once settled */
	struct ss_fw_task_work work;
	struct ss_emu_task_share share;
};

struct period_open {
	uint64_t id;
	uint32_t active;
	struct ss_emu_counters start;
};

struct emu_ledger {
	pthread_mutex_t lock;
	uint64_t next_ticket, next_client, next_period;
	int open;               /* a period is open */
	struct period_open cur;
	struct ticket t[SS_EMU_LEDGER_TICKETS];
};

struct emu_ledger *emu_ledger_new(void)
{
	struct emu_ledger *l = calloc(1, sizeof(*l));

	if (l) {
		pthread_mutex_init(&l->lock, NULL);
		l->next_ticket = l->next_client = l->next_period = 1;
	}
	return l;
}

void emu_ledger_free(struct emu_ledger *l)
{
	if (l) {
		pthread_mutex_destroy(&l->lock);
		free(l);
	}
}

static uint64_t sat64(unsigned __int128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* The work's price in pJ with the profile's constants (carried in every snapshot). */
static uint64_t weight_pj(const struct ss_fw_task_work *w, const struct ss_emu_counters *p)
{
	unsigned __int128 insn_ns = ((unsigned __int128)w->instructions * p->isp_ps_per_instruction +
				     999) / 1000;
	unsigned __int128 isp_ns = (unsigned __int128)w->pages * p->fw_page_overhead_ns + insn_ns +
				   (unsigned __int128)w->dram_accesses * p->dram_access_ns;
	unsigned __int128 pj = (unsigned __int128)w->pages * p->nand_read_nj * 1000 +
			       isp_ns * p->isp_active_mw +
			       (unsigned __int128)w->output_bytes * p->link_pj_per_byte;

	return sat64(pj);
}

static struct ticket *find(struct emu_ledger *l, uint64_t client, uint64_t id)
{
	for (uint32_t i = 0; i < SS_EMU_LEDGER_TICKETS; i++) {
		if (l->t[i].state != T_FREE && l->t[i].id == id && l->t[i].client == client &&
		    !l->t[i].orphan) {
			return &l->t[i];
		}
	}
	return NULL;
}

/* The period's last task left: divide its energy. Caller holds l->lock. */
static void settle(struct ss_emu_drive *d, struct emu_ledger *l)
{
	struct ss_emu_counters end;
	struct ticket *m[SS_EMU_LEDGER_TICKETS];
	unsigned __int128 sum = 0, rem[SS_EMU_LEDGER_TICKETS];
	uint64_t total, given = 0, clients = 0;
	uint32_t n = 0;

	ss_emu_get_counters(d, &end);
	total = end.energy_total_nj - l->cur.start.energy_total_nj;
	for (uint32_t i = 0; i < SS_EMU_LEDGER_TICKETS; i++) {
		if (l->t[i].state == T_LEFT && l->t[i].period == l->cur.id) {
			m[n++] = &l->t[i];
		}
	}
	/* join order: by ticket id (insertion sort; n is small) */
	for (uint32_t i = 1; i < n; i++) {
		for (uint32_t j = i; j > 0 && m[j - 1]->id > m[j]->id; j--) {
			struct ticket *x = m[j];

			m[j] = m[j - 1];
			m[j - 1] = x;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		int seen = 0;

		sum += m[i]->share.task_weight_pj;
		for (uint32_t j = 0; j < i; j++) {
			seen |= m[j]->client == m[i]->client;
		}
		clients += !seen;
	}
	for (uint32_t i = 0; i < n; i++) {
		unsigned __int128 w = sum ? m[i]->share.task_weight_pj : 1;
		unsigned __int128 s = sum ? sum : n;
		unsigned __int128 x = (unsigned __int128)total * w;

		m[i]->share.task_nj = (uint64_t)(x / s);
		rem[i] = x % s;
		given += m[i]->share.task_nj;
	}
	for (uint64_t left = total - given; left > 0; left--) {
		uint32_t best = UINT32_MAX;

		/* fewer than n nJ are left over: each goes to the largest remainder not yet
		 * served (ties to the earlier join) */
		for (uint32_t i = 0; i < n; i++) {
			if (rem[i] != (unsigned __int128)-1 && (best == UINT32_MAX || rem[i] > rem[best])) {
				best = i;
			}
		}
		m[best]->share.task_nj++;
		rem[best] = (unsigned __int128)-1;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct ss_emu_task_share *s = &m[i]->share;

		s->period_nj = total;
		s->period_weight_pj = sat64(sum);
		s->tasks = n;
		s->clients = clients;
		s->start_nand_read_nj = l->cur.start.energy_nand_read_nj;
		s->start_nand_program_nj = l->cur.start.energy_nand_program_nj;
		s->start_nand_erase_nj = l->cur.start.energy_nand_erase_nj;
		s->start_link_nj = l->cur.start.energy_link_nj;
		s->start_isp_nj = l->cur.start.energy_isp_nj;
		s->start_idle_nj = l->cur.start.energy_idle_nj;
		s->end_nand_read_nj = end.energy_nand_read_nj;
		s->end_nand_program_nj = end.energy_nand_program_nj;
		s->end_nand_erase_nj = end.energy_nand_erase_nj;
		s->end_link_nj = end.energy_link_nj;
		s->end_isp_nj = end.energy_isp_nj;
		s->end_idle_nj = end.energy_idle_nj;
		if (m[i]->orphan) {
			m[i]->state = T_FREE;
		} else {
			m[i]->state = T_SETTLED;
		}
	}
	l->open = 0;
}

/* The ticket leaves with work w (priced now). Caller holds l->lock. */
static void depart(struct ss_emu_drive *d, struct emu_ledger *l, struct ticket *t,
		   const struct ss_fw_task_work *w)
{
	struct ss_emu_task_share *s = &t->share;

	t->work = *w;
	memset(s, 0, sizeof(*s));
	s->task_weight_pj = weight_pj(w, &l->cur.start);
	s->pages = w->pages;
	s->instructions = w->instructions;
	s->dram_accesses = w->dram_accesses;
	s->output_bytes = w->output_bytes;
	t->state = T_LEFT;
	if (--l->cur.active == 0) {
		settle(d, l);
	}
}

uint64_t ss_emu_ledger_client(struct ss_emu_drive *d)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	uint64_t c;

	pthread_mutex_lock(&l->lock);
	c = l->next_client++;
	pthread_mutex_unlock(&l->lock);
	return c;
}

int ss_emu_ledger_join(struct ss_emu_drive *d, uint64_t client, uint64_t instance,
		       uint64_t *ticket)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	struct ss_fw_task_work w;
	struct ticket *t = NULL;
	int rc;

	if (instance != 0 && (rc = emu_drive_tasklet_work(d, instance, &w)) != 0) {
		return rc;
	}
	pthread_mutex_lock(&l->lock);
	for (uint32_t i = 0; i < SS_EMU_LEDGER_TICKETS && !t; i++) {
		if (l->t[i].state == T_FREE) {
			t = &l->t[i];
		}
	}
	if (!t) {
		pthread_mutex_unlock(&l->lock);
		return -SS_ENOSPC;
	}
	if (!l->open) {
		l->open = 1;
		l->cur.id = l->next_period++;
		l->cur.active = 0;
		ss_emu_get_counters(d, &l->cur.start);
	}
	memset(t, 0, sizeof(*t));
	t->id = l->next_ticket++;
	t->client = client;
	t->instance = instance;
	t->period = l->cur.id;
	t->state = T_ACTIVE;
	l->cur.active++;
	*ticket = t->id;
	pthread_mutex_unlock(&l->lock);
	return 0;
}

int ss_emu_ledger_leave(struct ss_emu_drive *d, uint64_t client, uint64_t ticket)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	struct ss_fw_task_work w = {0};
	struct ticket *t;
	uint64_t instance;
	int rc;

	pthread_mutex_lock(&l->lock);
	t = find(l, client, ticket);
	instance = t ? t->instance : 0;
	rc = !t ? -SS_ENOENT : t->state != T_ACTIVE ? -SS_EINVAL : 0;
	pthread_mutex_unlock(&l->lock);
	if (rc) {
		return rc;
	}
	/* The firmware lock is never taken under the ledger's. */
	if (instance != 0 && (rc = emu_drive_tasklet_work(d, instance, &w)) != 0) {
		return rc;
	}
	pthread_mutex_lock(&l->lock);
	t = find(l, client, ticket);
	if (!t) {
		rc = -SS_ENOENT;
	} else if (t->state != T_ACTIVE) {
		rc = -SS_EINVAL;
	} else {
		depart(d, l, t, &w);
	}
	pthread_mutex_unlock(&l->lock);
	return rc;
}

int ss_emu_ledger_abandon(struct ss_emu_drive *d, uint64_t client, uint64_t ticket)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	const struct ss_fw_task_work none = {0};
	struct ticket *t;
	int rc = 0;

	pthread_mutex_lock(&l->lock);
	t = find(l, client, ticket);
	if (!t) {
		rc = -SS_ENOENT;
	} else if (t->state == T_ACTIVE) {
		depart(d, l, t, &none);
	}
	pthread_mutex_unlock(&l->lock);
	return rc;
}

int ss_emu_ledger_share(struct ss_emu_drive *d, uint64_t client, uint64_t ticket,
			struct ss_emu_task_share *s)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	struct ticket *t;
	int rc = 0;

	pthread_mutex_lock(&l->lock);
	t = find(l, client, ticket);
	if (!t) {
		rc = -SS_ENOENT;
	} else if (t->state != T_SETTLED) {
		rc = -SS_EAGAIN;
	} else {
		*s = t->share;
		t->state = T_FREE;
	}
	pthread_mutex_unlock(&l->lock);
	return rc;
}

void ss_emu_ledger_drop_client(struct ss_emu_drive *d, uint64_t client)
{
	struct emu_ledger *l = emu_drive_ledger(d);
	const struct ss_fw_task_work none = {0};

	pthread_mutex_lock(&l->lock);
	for (uint32_t i = 0; i < SS_EMU_LEDGER_TICKETS; i++) {
		struct ticket *t = &l->t[i];

		if (t->state == T_FREE || t->client != client) {
			continue;
		}
		if (t->state == T_SETTLED) {
			t->state = T_FREE;
			continue;
		}
		t->orphan = 1;
		if (t->state == T_ACTIVE) {
			depart(d, l, t, &none);
		}
	}
	pthread_mutex_unlock(&l->lock);
}
