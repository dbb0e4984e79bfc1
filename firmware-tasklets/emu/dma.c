/*
 * The emulated controller's flash DMA: page transfers the firmware started with the hal's
 * page_read_start, copied from the mapped image into device DRAM and checked on a thread
 * of their own, while the firmware goes on (a tasklet computes batch k while batch k+1
 * arrives, as the model has it). The model is charged when a transfer starts, by the
 * firmware's thread, so modelled time does not depend on when this thread gets to it.
 *
 * One producer (the firmware, under the flash lock) fills a ring; the thread takes its
 * transfers, and so does the firmware when it waits for them (read_wait, an erase), so
 * whichever of copying and computing is shorter, its thread helps with the other. The
 * thread polls for work for spin_us after its last transfer, then sleeps; a waiter polls
 * as long for the transfer still in the thread's hands, then sleeps. Idle, nothing polls.
 *
 * With no transfer to do, the thread also maps pages the drive has programmed into the
 * firmware's view of the image (MADV_POPULATE_READ: they are in the page cache, just
 * written), so a scan after writing reads them without a page fault each 64 KiB, as a scan
 * of data read before does. Only a hint: a request that does not fit, or fails, leaves the
 * page to be mapped by the fault of its first read. After mapping the thread sleeps at
 * once: the next range is a program or more away.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_internal.h"

#define DMA_RING 256u   /* transfers in flight at most: two ISP batches */
#define MAP_RING 256u   /* ranges waiting to be mapped: 256 x 16 pages, 35 MB of kang's */

struct dma_req {
	const uint8_t *src;       /* page data in the mapped image */
	const uint8_t *spare;     /* and its spare area, which the check reads in place */
	void *data;
	uint32_t len;
	int (*check)(const void *data, uint32_t len, const void *spare, uint32_t arg);
	uint32_t arg;
};

struct map_req {
	const uint8_t *addr;
	size_t len;
	unsigned erases;          /* map_erases when asked for */
};

struct emu_dma {
	struct dma_req ring[DMA_RING];
	struct map_req map_ring[MAP_RING];
	atomic_uint map_head;     /* ranges asked for (the producer's) */
	atomic_uint map_taken;    /* ranges the thread has mapped (only it takes them) */
	atomic_uint map_erases;   /* erases since the start: a range asked for before one is
				   * skipped (it may be a hole now, and mapping reads it in) */
	atomic_uint head;         /* transfers started (the producer's) */
	atomic_uint taken;        /* transfers a consumer has taken */
	atomic_uint done;         /* transfers finished */
	atomic_int err;           /* the first failure since the last emu_dma_wait */
	atomic_int thread_asleep;
	atomic_int waiter_asleep;
	atomic_int stopping;
	atomic_uint spin_us;
	pthread_mutex_t lock;
	pthread_cond_t work;
	pthread_cond_t done_cv;
	pthread_t thread;
};

static bool has_work(void *arg)
{
	struct emu_dma *dma = arg;

	return atomic_load(&dma->taken) != atomic_load(&dma->head) ||
	       atomic_load(&dma->map_taken) != atomic_load(&dma->map_head) ||
	       atomic_load(&dma->stopping);
}

struct drain {
	struct emu_dma *dma;
	unsigned head;
};

static bool drained(void *arg)
{
	const struct drain *w = arg;

	return atomic_load(&w->dma->done) == w->head;
}

/* Take the next transfer, if any is left, and do it. */
static bool take_one(struct emu_dma *dma)
{
	unsigned t = atomic_load(&dma->taken);
	const struct dma_req *r;

	do {
		if (t == atomic_load(&dma->head)) {
			return false;
		}
	} while (!atomic_compare_exchange_weak(&dma->taken, &t, t + 1));
	r = &dma->ring[t % DMA_RING];
	if (t + 1 != atomic_load(&dma->head)) {
		/* The next transfer's page, asked of memory now: the 4 KiB pages of the page
		 * cache it lies in are where the hardware's prefetcher stops (and with its
		 * mapping in place, mapped ahead, a prefetch is no longer dropped for a missing
		 * page-table entry). Into L2 (locality 1): the copy reads it once. */
		const struct dma_req *next = &dma->ring[(t + 1) % DMA_RING];

		for (uint32_t o = 0; o < next->len; o += 64) {
			__builtin_prefetch(next->src + o, 0, 1);
		}
	}
	memcpy(r->data, r->src, r->len);
	if (r->check) {
		int rc = r->check(r->data, r->len, r->spare, r->arg), none = 0;

		if (rc < 0) {
			atomic_compare_exchange_strong(&dma->err, &none, rc);
		}
	}
	atomic_fetch_add(&dma->done, 1);
	return true;
}

/* Map the next range asked for, if any. */
static bool map_one(struct emu_dma *dma)
{
	unsigned t = atomic_load(&dma->map_taken);
	const struct map_req *r;

	if (t == atomic_load(&dma->map_head)) {
		return false;
	}
	r = &dma->map_ring[t % MAP_RING];
#ifdef MADV_POPULATE_READ
	if (r->erases == atomic_load(&dma->map_erases)) {
		const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
		const uintptr_t a = (uintptr_t)r->addr & ~(pg - 1);
		const uintptr_t end = ((uintptr_t)r->addr + r->len + pg - 1) & ~(pg - 1);

		/* whole pages of the page cache, each of which holds programmed bytes */
		(void)madvise((void *)a, end - a, MADV_POPULATE_READ);
	}
#endif
	atomic_store(&dma->map_taken, t + 1);
	return true;
}

static void *dma_thread(void *arg)
{
	struct emu_dma *dma = arg;
	bool transferred = false; /* the last work: a transfer (another comes soon in a scan),
				   * or a range mapped (the next program is tens of us away) */
	sigset_t all;

	/* the watchdog's signal is the firmware thread's (SIGEV_THREAD_ID): none here */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "ss-transfers");
	for (;;) {
		if (take_one(dma)) {
			transferred = true;
			if (atomic_load(&dma->waiter_asleep)) {
				pthread_mutex_lock(&dma->lock);
				pthread_cond_broadcast(&dma->done_cv);
				pthread_mutex_unlock(&dma->lock);
			}
			continue;
		}
		if (atomic_load(&dma->stopping)) {
			break;   /* nothing left to take */
		}
		if (map_one(dma)) {
			transferred = false;
			continue;
		}
		if (!emu_poll(transferred ? atomic_load(&dma->spin_us) : 0, has_work, dma)) {
			pthread_mutex_lock(&dma->lock);
			/* sequentially consistent with emu_dma_start: it sees this asleep, or this
			 * sees its transfer */
			atomic_store(&dma->thread_asleep, 1);
			while (!has_work(dma)) {
				pthread_cond_wait(&dma->work, &dma->lock);
			}
			atomic_store(&dma->thread_asleep, 0);
			pthread_mutex_unlock(&dma->lock);
		}
	}
	return NULL;
}

struct emu_dma *emu_dma_new(void)
{
	struct emu_dma *dma = calloc(1, sizeof(*dma));

	if (dma == NULL) {
		return NULL;
	}
	pthread_mutex_init(&dma->lock, NULL);
	pthread_cond_init(&dma->work, NULL);
	pthread_cond_init(&dma->done_cv, NULL);
	if (pthread_create(&dma->thread, NULL, dma_thread, dma) != 0) {
		pthread_cond_destroy(&dma->done_cv);
		pthread_cond_destroy(&dma->work);
		pthread_mutex_destroy(&dma->lock);
		free(dma);
		return NULL;
	}
	return dma;
}

void emu_dma_set_spin(struct emu_dma *dma, uint32_t spin_us)
{
	atomic_store(&dma->spin_us, spin_us);
}

void emu_dma_quiesce(struct emu_dma *dma)
{
	struct drain w = { dma, atomic_load(&dma->head) };

	while (take_one(dma)) {
	}
	if (emu_poll(atomic_load(&dma->spin_us), drained, &w)) {
		return;
	}
	pthread_mutex_lock(&dma->lock);
	atomic_store(&dma->waiter_asleep, 1);
	while (!drained(&w)) {
		pthread_cond_wait(&dma->done_cv, &dma->lock);
	}
	atomic_store(&dma->waiter_asleep, 0);
	pthread_mutex_unlock(&dma->lock);
}

void emu_dma_start(struct emu_dma *dma, const uint8_t *src, const uint8_t *spare, void *data,
		   uint32_t len,
		   int (*check)(const void *data, uint32_t len, const void *spare, uint32_t arg),
		   uint32_t arg)
{
	unsigned head = atomic_load(&dma->head);

	if (head - atomic_load(&dma->done) == DMA_RING) {
		emu_dma_quiesce(dma);
	}
	dma->ring[head % DMA_RING] = (struct dma_req){ src, spare, data, len, check, arg };
	atomic_store(&dma->head, head + 1);
	if (atomic_load(&dma->thread_asleep)) {
		pthread_mutex_lock(&dma->lock);
		pthread_cond_signal(&dma->work);
		pthread_mutex_unlock(&dma->lock);
	}
}

void emu_dma_map_ahead(struct emu_dma *dma, const uint8_t *addr, size_t len)
{
	unsigned head = atomic_load(&dma->map_head);

	if (head - atomic_load(&dma->map_taken) == MAP_RING) {
		return;   /* the thread is behind: these pages are mapped when first read */
	}
	dma->map_ring[head % MAP_RING] =
		(struct map_req){ addr, len, atomic_load(&dma->map_erases) };
	atomic_store(&dma->map_head, head + 1);
	if (atomic_load(&dma->thread_asleep)) {
		pthread_mutex_lock(&dma->lock);
		pthread_cond_signal(&dma->work);
		pthread_mutex_unlock(&dma->lock);
	}
}

void emu_dma_map_ahead_erased(struct emu_dma *dma)
{
	atomic_fetch_add(&dma->map_erases, 1);
}

int emu_dma_wait(struct emu_dma *dma)
{
	emu_dma_quiesce(dma);
	return atomic_exchange(&dma->err, 0);
}

void emu_dma_free(struct emu_dma *dma)
{
	if (dma == NULL) {
		return;
	}
	pthread_mutex_lock(&dma->lock);
	atomic_store(&dma->stopping, 1);
	pthread_cond_signal(&dma->work);
	pthread_mutex_unlock(&dma->lock);
	pthread_join(dma->thread, NULL);
	pthread_cond_destroy(&dma->done_cv);
	pthread_cond_destroy(&dma->work);
	pthread_mutex_destroy(&dma->lock);
	free(dma);
}
