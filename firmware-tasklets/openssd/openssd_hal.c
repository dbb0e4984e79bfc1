/*
 * ss_hal on the Jasmine SDK. Our block b is vblock (b / NUM_BANKS + RESERVED_VBLKS) of bank
 * (b % NUM_BANKS); a bank is one of our dies. Every flash operation goes through one DRAM
 * bounce page (the controller DMAs whole virtual pages) and completes before it returns,
 * so its bank's interrupt flags tell its outcome.
 */
#include "ss_hal.h"
#include "ss_rt.h"
#include "ss_openssd.h"

#include "jasmine.h"

/* vblock 0 of every bank holds what the SDK's installer wrote (firmware image, scan list). */
#ifndef SS_OPENSSD_RESERVED_VBLKS
#define SS_OPENSSD_RESERVED_VBLKS 1
#endif
/* DRAM the SDK's own buffer map keeps from DRAM_BASE (its SATA buffer rings); the board
 * build sets it from that map. Our bounce page and arena follow it. */
#ifndef SS_OPENSSD_SDK_DRAM_BYTES
#define SS_OPENSSD_SDK_DRAM_BYTES 0
#endif
#ifndef SS_OPENSSD_TIMER
#define SS_OPENSSD_TIMER TIMER_CH1
#endif

#define SPARE_BYTES BYTES_PER_SECTOR
#define DATA_BYTES (BYTES_PER_PAGE - BYTES_PER_SECTOR)
#define BOUNCE_ADDR (DRAM_BASE + SS_OPENSSD_SDK_DRAM_BYTES)
#define ARENA_ADDR (BOUNCE_ADDR + BYTES_PER_PAGE)
#define ERASE_FAILED (FIRQ_BADBLK_L | FIRQ_BADBLK_H)

struct board {
	uint32_t last_timer;   /* the down-counting timer at the last now_ns() */
	uint64_t ticks;        /* timer ticks since start, extended to 64 bits */
};

static struct board g_board;

static int locate(uint32_t ppn, uint32_t *bank, uint32_t *vblock, uint32_t *page)
{
	uint32_t block = ppn / PAGES_PER_BLK;
	uint32_t blocks = NUM_BANKS * (VBLKS_PER_BANK - SS_OPENSSD_RESERVED_VBLKS);

	if (block >= blocks) {
		return -SS_EINVAL;
	}
	*bank = block % NUM_BANKS;
	*vblock = block / NUM_BANKS + SS_OPENSSD_RESERVED_VBLKS;
	*page = ppn % PAGES_PER_BLK;
	return 0;
}

/* The memory utility copies words only. */
static int aligned(const void *p) { return ((uintptr_t)p & 3u) == 0; }

/* Wait for the bank, then take and clear its interrupt flags. */
static uint32_t finish_flags(uint32_t bank)
{
	uint32_t flags;

	flash_finish();
	flags = BSP_INTR(bank);
	CLR_BSP_INTR(bank, flags);
	return flags;
}

static int page_read(void *ctx, uint32_t ppn, void *data, void *spare)
{
	uint32_t bank, vblock, page, flags;

	(void)ctx;
	if (locate(ppn, &bank, &vblock, &page) != 0 || !aligned(data) || !aligned(spare)) {
		return -SS_EINVAL;
	}
	nand_page_read(bank, vblock, page, BOUNCE_ADDR);
	flags = finish_flags(bank);
	if (flags & FIRQ_ALL_FF) {
		/* Erased: the ECC engine does not vouch for the bytes, the contract says 0xFF. */
		mem_set_dram(BOUNCE_ADDR, 0xFFFFFFFF, BYTES_PER_PAGE);
	} else if (flags & FIRQ_DATA_CORRUPT) {
		return -SS_EIO;
	}
	if (data) {
		mem_copy(data, BOUNCE_ADDR, DATA_BYTES);
	}
	if (spare) {
		mem_copy(spare, BOUNCE_ADDR + DATA_BYTES, SPARE_BYTES);
	}
	return 0;
}

static int page_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	uint32_t bank, vblock, page, flags;

	(void)ctx;
	if (locate(ppn, &bank, &vblock, &page) != 0 || !aligned(data) || !aligned(spare)) {
		return -SS_EINVAL;
	}
	if (!data || !spare) {
		mem_set_dram(BOUNCE_ADDR, 0xFFFFFFFF, BYTES_PER_PAGE);
	}
	if (data) {
		mem_copy(BOUNCE_ADDR, data, DATA_BYTES);
	}
	if (spare) {
		mem_copy(BOUNCE_ADDR + DATA_BYTES, spare, SPARE_BYTES);
	}
	nand_page_program(bank, vblock, page, BOUNCE_ADDR);
	flags = finish_flags(bank);
	return (flags & ERASE_FAILED) ? -SS_EIO : 0;
}

static int block_erase(void *ctx, uint32_t block)
{
	uint32_t bank, vblock, page;

	(void)ctx;
	if (block > UINT32_MAX / PAGES_PER_BLK ||
	    locate(block * PAGES_PER_BLK, &bank, &vblock, &page) != 0) {
		return -SS_EINVAL;
	}
	nand_block_erase_sync(bank, vblock);
	return (finish_flags(bank) & ERASE_FAILED) ? -SS_EIO : 0;
}

/* Every operation has completed when it returns; these only drain what the SDK queued. */
static int sync(void *ctx)
{
	(void)ctx;
	flash_finish();
	return 0;
}

static void barrier(void *ctx)
{
	(void)ctx;
	flash_finish();
}

/* One core serves host and ISP work alike; there is nothing to switch. */
static void set_timeline(void *ctx, enum ss_hal_timeline tl)
{
	(void)ctx;
	(void)tl;
}

/* On the board the work really happens; nothing is modelled. */
static void isp_account(void *ctx, uint64_t instructions, uint64_t dram_accesses, uint64_t pages)
{
	(void)ctx;
	(void)instructions;
	(void)dram_accesses;
	(void)pages;
}

/* The timer counts down from 0xFFFFFFFF at CLOCK_SPEED / 2 / prescale and wraps in ~49 s:
 * called at least that often (the main loop does), it extends to 64 bits. */
static uint64_t now_ns(void *ctx)
{
	struct board *b = ctx;
	uint32_t cur = GET_TIMER_VALUE(SS_OPENSSD_TIMER);
	const uint64_t hz = CLOCK_SPEED / 2 / PRESCALE_TO_DIV(TIMER_PRESCALE_0);

	b->ticks += (uint32_t)(b->last_timer - cur);
	b->last_timer = cur;
	return b->ticks / hz * 1000000000ull + b->ticks % hz * 1000000000ull / hz;
}

static const struct ss_hal_ops g_ops = {
	.page_read = page_read,
	.page_program = page_program,
	.block_erase = block_erase,
	.sync = sync,
	.barrier = barrier,
	.set_timeline = set_timeline,
	.isp_account = isp_account,
	.now_ns = now_ns,
};

static void set_string(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	while (src[n] != '\0' && n + 1 < cap) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
}

int ss_openssd_hal_init(struct ss_hal *hal)
{
	struct ss_geometry *g = &hal->geo;
	uint32_t channels = NUM_BANKS % NUM_CHNLS_MAX == 0 ? NUM_CHNLS_MAX : NUM_BANKS;

	if (VBLKS_PER_BANK <= SS_OPENSSD_RESERVED_VBLKS ||
	    ARENA_ADDR >= (uint64_t)DRAM_BASE + DRAM_SIZE) {
		return -SS_EINVAL;
	}
	ss_memset(hal, 0, sizeof(*hal));
	g->channels = channels;
	g->ways = NUM_BANKS / channels;
	g->blocks_per_die = VBLKS_PER_BANK - SS_OPENSSD_RESERVED_VBLKS;
	g->pages_per_block = PAGES_PER_BLK;
	g->page_size = DATA_BYTES;
	g->spare_size = SPARE_BYTES;
	g->overprovision_permille = 70;
	hal->ops = &g_ops;
	hal->ctx = &g_board;
	hal->dram = (void *)(uintptr_t)ARENA_ADDR;
	hal->dram_size = (size_t)((uint64_t)DRAM_BASE + DRAM_SIZE - ARENA_ADDR);
	hal->endurance = 5000;
	hal->temperature_c = 40;
	set_string(hal->model, sizeof(hal->model), "SMARTSSD OPENSSD JASMINE");
	set_string(hal->serial, sizeof(hal->serial), "JASMINE0001");
	set_string(hal->firmware_rev, sizeof(hal->firmware_rev), "SS-0.1");

	start_interval_measurement(SS_OPENSSD_TIMER, TIMER_PRESCALE_0);
	g_board.last_timer = GET_TIMER_VALUE(SS_OPENSSD_TIMER);
	g_board.ticks = 0;
	return 0;
}
