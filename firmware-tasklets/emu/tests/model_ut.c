/* Timing and energy model: reference times and energies computed here from the profile
 * constants, for the overlap rules the model defines. */
#include <stdint.h>

#include "emu_internal.h"
#include "emu_test.h"
#include "ss_emu_flash.h"
#include "ss_rt.h"

#define PPB 4
#define PAGE 8192
#define SPARE 448

static char dir[256], path[320];
static uint8_t buf[PAGE], spare[SPARE];

static struct ss_emu_flash *open_geo(uint32_t channels, uint32_t ways, const char *profile)
{
	struct ss_emu_flash_opts o = { 0 };
	struct ss_emu_flash *f;
	char err[512];

	o.profile = profile;
	o.geo.channels = channels;
	o.geo.ways = ways;
	o.geo.blocks_per_die = 4;
	o.geo.pages_per_block = PPB;
	o.geo.page_size = PAGE;
	o.geo.spare_size = SPARE;
	o.dram_bytes = 1 << 20;
	o.create = 1;
	if (ss_emu_flash_open(path, &o, &f, err, sizeof(err)) != 0) {
		fprintf(stderr, "open: %s\n", err);
		exit(2);
	}
	return f;
}

/* ceil(bytes / rate) in ns, the transfer time the model defines */
static uint64_t xfer(uint64_t bytes, uint64_t rate)
{
	return (bytes * 1000000000ull + rate - 1) / rate;
}

static uint64_t now(struct ss_emu_flash *f)
{
	return ss_hal_now_ns(ss_emu_flash_hal(f));
}

/* Block b sits on die b % dies; page 0 of block b is ppn b * PPB. */
static uint32_t ppn_on_die(uint32_t die, uint32_t dies, uint32_t nth)
{
	return (die + nth * dies) * PPB;
}

static void program_all(struct ss_emu_flash *f, uint32_t blocks)
{
	for (uint32_t b = 0; b < blocks; b++) {
		for (uint32_t p = 0; p < PPB; p++) {
			CHECK_EQ(ss_hal_page_program(ss_emu_flash_hal(f), b * PPB + p, buf, spare), 0);
		}
	}
}

static void test_reads_across_channels_overlap(void)
{
	struct ss_emu_flash *f = open_geo(16, 1, NULL);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	const uint64_t x = xfer(PAGE + SPARE, p->channel_bytes_per_s);
	uint64_t t0;

	program_all(f, 16);
	ss_hal_barrier(ss_emu_flash_hal(f));
	t0 = now(f);
	CHECK_EQ(t0, PPB * (x + p->nand_program_ns));   /* 4 programs per die, dies parallel */
	for (uint32_t d = 0; d < 16; d++) {
		CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), ppn_on_die(d, 16, 0), buf, spare), 0);
	}
	/* 16 reads on 16 channels all finish at tR + one transfer */
	CHECK_EQ(now(f), t0 + p->nand_read_ns + x);
	ss_emu_flash_close(f);
}

static void test_reads_on_one_channel_pipeline(void)
{
	struct ss_emu_flash *f = open_geo(1, 16, NULL);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	const uint64_t x = xfer(PAGE + SPARE, p->channel_bytes_per_s);
	uint64_t t0;

	program_all(f, 16);
	ss_hal_barrier(ss_emu_flash_hal(f));
	t0 = now(f);
	for (uint32_t d = 0; d < 16; d++) {
		CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), ppn_on_die(d, 16, 0), buf, spare), 0);
	}
	/* 16 dies sense in parallel, then the shared channel moves the pages one by one */
	CHECK_EQ(now(f), t0 + p->nand_read_ns + 16 * x);
	ss_emu_flash_close(f);
}

static void test_reads_on_one_die_serialise(void)
{
	struct ss_emu_flash *f = open_geo(2, 1, NULL);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	const uint64_t x = xfer(PAGE + SPARE, p->channel_bytes_per_s);
	uint64_t t0;

	program_all(f, 2);
	ss_hal_barrier(ss_emu_flash_hal(f));
	t0 = now(f);
	for (uint32_t i = 0; i < PPB; i++) {
		CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), i, buf, spare), 0);
	}
	CHECK_EQ(now(f), t0 + PPB * (p->nand_read_ns + x));
	/* a data-only read moves only the data; a spare-only read only the spare */
	t0 = now(f);
	CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), 0, buf, NULL), 0);
	CHECK_EQ(now(f), t0 + p->nand_read_ns + xfer(PAGE, p->channel_bytes_per_s));
	t0 = now(f);
	CHECK_EQ(ss_hal_page_read(ss_emu_flash_hal(f), 0, NULL, spare), 0);
	CHECK_EQ(now(f), t0 + p->nand_read_ns + xfer(SPARE, p->channel_bytes_per_s));
	ss_emu_flash_close(f);
}

static void test_program_erase_and_barrier(void)
{
	struct ss_emu_flash *f = open_geo(2, 1, NULL);
	struct ss_hal *h = ss_emu_flash_hal(f);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	const uint64_t x = xfer(PAGE + SPARE, p->channel_bytes_per_s);
	uint64_t t0;

	/* program = channel transfer then tPROG */
	CHECK_EQ(ss_hal_page_program(h, 0, buf, spare), 0);
	CHECK_EQ(now(f), x + p->nand_program_ns);
	/* without a barrier, an op on the other die (other channel) starts at the same issue
	 * time and overlaps */
	CHECK_EQ(ss_hal_block_erase(h, 1), 0);
	CHECK_EQ(now(f), SS_MAX(x + p->nand_program_ns, p->nand_erase_ns));
	/* with a barrier, the next op starts after everything issued so far */
	ss_hal_barrier(h);
	t0 = now(f);
	CHECK_EQ(ss_hal_block_erase(h, 3), 0);   /* die 1 again */
	CHECK_EQ(now(f), t0 + p->nand_erase_ns);
	/* a program on a busy die waits for it even without a barrier */
	CHECK_EQ(ss_hal_page_program(h, 3 * PPB, buf, spare), 0);
	CHECK_EQ(now(f), t0 + p->nand_erase_ns + x + p->nand_program_ns);
	ss_emu_flash_close(f);
}

static void test_timelines_are_independent(void)
{
	struct ss_emu_flash *f = open_geo(2, 1, NULL);
	struct ss_hal *h = ss_emu_flash_hal(f);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	const uint64_t x = xfer(PAGE + SPARE, p->channel_bytes_per_s);

	/* the host timeline erases die 1 and programs die 0 */
	ss_hal_set_timeline(h, SS_HAL_TL_HOST);
	CHECK_EQ(ss_hal_block_erase(h, 1), 0);
	CHECK_EQ(ss_hal_page_program(h, 0, buf, spare), 0);
	CHECK_EQ(now(f), SS_MAX(p->nand_erase_ns, x + p->nand_program_ns));
	/* the ISP timeline's cursor is still at 0, and it has its own view of the dies: its
	 * program on die 1 starts at 0 although the host's erase holds die 1 */
	ss_hal_set_timeline(h, SS_HAL_TL_ISP);
	CHECK_EQ(now(f), 0);
	CHECK_EQ(ss_hal_page_program(h, 3 * PPB, buf, spare), 0);
	CHECK_EQ(now(f), x + p->nand_program_ns);
	/* on its own timeline, a second program on die 1 queues behind the first */
	CHECK_EQ(ss_hal_page_program(h, 3 * PPB + 1, buf, spare), 0);
	CHECK_EQ(now(f), 2 * (x + p->nand_program_ns));
	ss_hal_barrier(h);
	/* the background timeline sees neither: die 0 and die 1 are free for it at 0 */
	ss_hal_set_timeline(h, SS_HAL_TL_BACKGROUND);
	CHECK_EQ(ss_hal_page_program(h, 5 * PPB, buf, spare), 0);   /* die 1 */
	CHECK_EQ(now(f), x + p->nand_program_ns);
	/* the host timeline's clock is the device clock: the latest completion of all */
	ss_hal_set_timeline(h, SS_HAL_TL_HOST);
	CHECK_EQ(now(f), SS_MAX(p->nand_erase_ns, 2 * (x + p->nand_program_ns)));
	{
		struct ss_emu_counters c;

		ss_emu_flash_get_counters(f, &c);
		CHECK_EQ(c.now_ns, SS_MAX(p->nand_erase_ns, 2 * (x + p->nand_program_ns)));
		CHECK_EQ(c.page_programs, 4);
	}
	ss_emu_flash_close(f);
}

static void test_isp_account(void)
{
	struct ss_emu_flash *f = open_geo(2, 1, NULL);
	struct ss_hal *h = ss_emu_flash_hal(f);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	struct ss_emu_counters c;
	/* kang: 15170 ns per page, 2.5 ns per instruction, 95 ns per DRAM access */
	const uint64_t cost1 = 128 * 15170 + (1001 * 5 + 1) / 2 + 128 * 32 * 95; /* 2502.5 up */
	const uint64_t cost2 = 3 * 15170 + 0 + 7 * 95;

	CHECK_EQ(p->fw_page_overhead_ns, 15170);
	ss_hal_set_timeline(h, SS_HAL_TL_ISP);
	ss_hal_isp_account(h, 1001, 128 * 32, 128);
	CHECK_EQ(now(f), cost1);
	/* the ISP core is one resource: more work queues behind it */
	ss_hal_isp_account(h, 0, 7, 3);
	CHECK_EQ(now(f), cost1 + cost2);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.isp_busy_ns, cost1 + cost2);
	CHECK_EQ(c.isp_pages, 131);
	CHECK_EQ(c.isp_dram_accesses, 128 * 32 + 7);
	CHECK_EQ(c.isp_instructions, 1001);
	ss_emu_flash_close(f);
}

static void test_link_commands(void)
{
	struct ss_emu_profile p;
	struct emu_model m;
	struct ss_geometry g = { 2, 1, 4, PPB, PAGE, SPARE, 0 };
	char err[256];
	uint64_t t;

	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &p, err, sizeof(err)), 0);
	CHECK_EQ(emu_model_init(&m, &p, &g), 0);
	/* a 512-byte write command: overhead + 512 B over the link before the firmware runs */
	t = emu_model_cmd_begin(&m, 1000, 512, EMU_CMD_PLAIN, 0);
	CHECK_EQ(t, 1000 + p.link_cmd_overhead_ns + xfer(512, p.link_bytes_per_s));
	CHECK_EQ(emu_model_cmd_end(&m, 0, 0), t);
	/* a read of 64 KiB arriving before the link is free waits for it */
	t = emu_model_cmd_begin(&m, 0, 0, EMU_CMD_PLAIN, 0);
	CHECK_EQ(t, 1000 + 2 * p.link_cmd_overhead_ns + xfer(512, p.link_bytes_per_s));
	m.tl = SS_HAL_TL_HOST;
	emu_model_read(&m, 0, PAGE);
	CHECK_EQ(emu_model_cmd_end(&m, 65536, 0),
		 t + p.nand_read_ns + xfer(PAGE, p.channel_bytes_per_s) +
		 xfer(65536, p.link_bytes_per_s));
	CHECK_EQ(m.c.link_bytes_in, 512);
	CHECK_EQ(m.c.link_bytes_out, 65536);
	CHECK_EQ(m.c.host_commands, 2);
	CHECK_EQ(m.c.link_busy_ns, 2 * p.link_cmd_overhead_ns + xfer(512, p.link_bytes_per_s) +
				   xfer(65536, p.link_bytes_per_s));
	/* the host clock is the last command's completion: a command arrives no earlier,
	 * and a floor (realtime mode's wall clock) can only make it later */
	t = emu_model_cmd_begin(&m, 0, 0, EMU_CMD_PLAIN, 0);
	CHECK_EQ(t, emu_model_cmd_end(&m, 0, 0));
	{
		uint64_t prev = t;

		t = emu_model_cmd_begin(&m, 10000000, 0, EMU_CMD_PLAIN, 0);
		CHECK(prev < 10000000);
		CHECK_EQ(t, 10000000 + p.link_cmd_overhead_ns);
	}
	/* a command moves no other timeline: ISP work issued after it starts at the ISP
	 * cursor, until the drive releases the cursor to the command */
	m.tl = SS_HAL_TL_ISP;
	emu_model_isp(&m, 0, 0, 1);
	CHECK_EQ(m.isp_free, p.fw_page_overhead_ns);
	CHECK_EQ(emu_model_now(&m), p.fw_page_overhead_ns);
	emu_model_release(&m, SS_HAL_TL_ISP, t);
	emu_model_isp(&m, 0, 0, 1);
	CHECK_EQ(m.isp_free, t + p.fw_page_overhead_ns);
	emu_model_barrier(&m);
	CHECK_EQ(emu_model_now(&m), t + p.fw_page_overhead_ns);
	/* release never moves a cursor back */
	emu_model_release(&m, SS_HAL_TL_ISP, 5);
	CHECK_EQ(m.cur[SS_HAL_TL_ISP].issue, t + p.fw_page_overhead_ns);
	/* the host clock did not follow the ISP: the next command arrives at the host's */
	m.tl = SS_HAL_TL_HOST;
	CHECK_EQ(emu_model_cmd_begin(&m, 0, 0, EMU_CMD_PLAIN, 0), t + p.link_cmd_overhead_ns);
	CHECK_EQ(m.now, SS_MAX(t + p.link_cmd_overhead_ns, t + p.fw_page_overhead_ns));
	emu_model_fini(&m);
}

static int never_live(void *arg, uint32_t tag)
{
	(void)arg;
	(void)tag;
	return 0;
}

/* One tagged page read: a SEND that reads a page of `die` and is queued, as the drive
 * does for an accepted OBJ SEND. \return its link-in end. */
static uint64_t queued_read(struct emu_model *m, uint32_t tag, uint32_t die)
{
	uint64_t t = emu_model_cmd_begin(m, 0, 512, EMU_CMD_SEND, tag);

	m->tl = SS_HAL_TL_HOST;
	emu_model_read(m, die, PAGE);
	emu_model_cmd_end(m, 0, 1);
	return t;
}

/* Queue depth ("Queue depth" in model.c): queued commands overlap on distinct channels,
 * share a channel's transfer and the link, and a host with one command outstanding is
 * modelled as plain commands are. */
static void test_queued_commands(void)
{
	struct ss_emu_profile p;
	struct emu_model m;
	struct ss_geometry g = { 2, 2, 4, PPB, PAGE, SPARE, 0 };  /* 2 channels x 2 ways */
	char err[256];
	uint64_t cmd, rd, out, t0, t1, t2, end0, end1, end2;

	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &p, err, sizeof(err)), 0);
	cmd = p.link_cmd_overhead_ns + xfer(512, p.link_bytes_per_s);
	rd = p.nand_read_ns + xfer(PAGE, p.channel_bytes_per_s);
	out = p.link_cmd_overhead_ns + xfer(PAGE, p.link_bytes_per_s);

	/* queue depth 1: SEND, RECV, SEND, RECV; the same as untagged commands */
	CHECK_EQ(emu_model_init(&m, &p, &g), 0);
	t0 = queued_read(&m, 1, 0);
	CHECK_EQ(t0, cmd);
	end0 = emu_model_cmd_begin(&m, 0, 0, EMU_CMD_RECV, 1);
	CHECK_EQ(end0, cmd + rd + p.link_cmd_overhead_ns);
	end0 = emu_model_cmd_end(&m, PAGE, 0);
	CHECK_EQ(m.qn, 0);
	t1 = queued_read(&m, 2, 1);
	CHECK_EQ(t1, end0 + cmd);
	emu_model_fini(&m);

	/* depth 3: dies 0 and 1 are on channels 0 and 1 and overlap; die 2 shares channel 0
	 * with die 0: its tR overlaps, its transfer waits for die 0's */
	CHECK_EQ(emu_model_init(&m, &p, &g), 0);
	t0 = queued_read(&m, 1, 0);
	t1 = queued_read(&m, 2, 1);
	t2 = queued_read(&m, 3, 2);
	CHECK_EQ(t0, cmd);
	CHECK_EQ(t1, 2 * cmd);              /* after SEND 1's transfer, not its read */
	CHECK_EQ(t2, 3 * cmd);
	CHECK_EQ(m.qn, 3);
	CHECK_EQ(m.q[0].done, t0 + rd);
	CHECK_EQ(m.q[1].done, t1 + rd);
	CHECK_EQ(m.q[2].done, SS_MAX(t2 + p.nand_read_ns, t0 + rd) +
			       xfer(PAGE, p.channel_bytes_per_s));
	/* RECVs: each after its own work and the link */
	emu_model_cmd_begin(&m, 0, 0, EMU_CMD_RECV, 1);
	end0 = emu_model_cmd_end(&m, PAGE, 0);
	CHECK_EQ(end0, t0 + rd + out);
	emu_model_cmd_begin(&m, 0, 0, EMU_CMD_RECV, 2);
	end1 = emu_model_cmd_end(&m, PAGE, 0);
	CHECK_EQ(end1, SS_MAX(end0, t1 + rd) + out);
	emu_model_cmd_begin(&m, 0, 0, EMU_CMD_RECV, 3);
	end2 = emu_model_cmd_end(&m, PAGE, 0);
	CHECK_EQ(end2, SS_MAX(end1, SS_MAX(t2 + p.nand_read_ns, t0 + rd) +
					xfer(PAGE, p.channel_bytes_per_s)) + out);
	CHECK_EQ(m.qn, 0);
	/* three reads at depth 3 take less than three at depth 1 */
	CHECK(end2 < 3 * (cmd + rd + out));
	/* with nothing queued at work, a SEND waits for the host clock again */
	CHECK_EQ(queued_read(&m, 4, 3), end2 + cmd);
	/* a tag the drive dropped leaves the queue: its SEND no longer overlaps */
	{
		uint64_t host = SS_MAX(m.cur[SS_HAL_TL_HOST].issue, m.cur[SS_HAL_TL_HOST].last);

		emu_model_queue_prune(&m, never_live, NULL);
		CHECK_EQ(m.qn, 0);
		CHECK_EQ(queued_read(&m, 5, 0), host + cmd);
	}
	emu_model_fini(&m);
}

static void run_workload(struct ss_emu_flash *f)
{
	struct ss_hal *h = ss_emu_flash_hal(f);

	for (uint32_t b = 0; b < 8; b++) {
		for (uint32_t pg = 0; pg < PPB; pg++) {
			ss_hal_page_program(h, b * PPB + pg, buf, spare);
		}
	}
	ss_hal_barrier(h);
	for (uint32_t i = 0; i < 8 * PPB; i++) {
		ss_hal_page_read(h, (i * 7) % (8 * PPB), buf, i % 3 ? spare : NULL);
	}
	ss_hal_block_erase(h, 2);
	ss_hal_block_erase(h, 5);
	ss_hal_set_timeline(h, SS_HAL_TL_ISP);
	ss_hal_isp_account(h, 12345, 678, 9);
	ss_hal_barrier(h);
}

static void test_energy_from_counts(void)
{
	struct ss_emu_flash *f = open_geo(2, 2, NULL);
	const struct ss_emu_profile *p = ss_emu_flash_profile(f);
	struct ss_emu_counters c;

	run_workload(f);
	ss_emu_flash_get_counters(f, &c);
	CHECK_EQ(c.page_programs, 8 * PPB);
	CHECK_EQ(c.page_reads, 8 * PPB);
	CHECK_EQ(c.block_erases, 2);
	CHECK_EQ(c.energy_nand_read_nj, 8 * PPB * 8250);
	CHECK_EQ(c.energy_nand_program_nj, 8 * PPB * 66000);
	CHECK_EQ(c.energy_nand_erase_nj, 2 * 990000);
	CHECK_EQ(c.energy_isp_nj, c.isp_busy_ns * 650 / 1000);
	CHECK_EQ(c.energy_idle_nj, c.now_ns * p->device_idle_mw / 1000);
	CHECK_EQ(c.energy_link_nj, 0);
	CHECK_EQ(c.energy_total_nj, c.energy_nand_read_nj + c.energy_nand_program_nj +
				    c.energy_nand_erase_nj + c.energy_isp_nj + c.energy_idle_nj);
	CHECK_EQ(c.bytes_programmed, 8ull * PPB * (PAGE + SPARE));
	CHECK(c.die_busy_ns > 0 && c.channel_busy_ns > 0);
	ss_emu_flash_close(f);
}

static void test_deterministic(void)
{
	struct ss_emu_counters a, b;
	struct ss_emu_flash *f;

	f = open_geo(2, 2, NULL);
	run_workload(f);
	ss_emu_flash_get_counters(f, &a);
	ss_emu_flash_close(f);
	f = open_geo(2, 2, NULL);
	run_workload(f);
	ss_emu_flash_get_counters(f, &b);
	ss_emu_flash_close(f);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	/* a different profile gives different times for the same operations */
	f = open_geo(2, 2, "nvme-modern");
	run_workload(f);
	ss_emu_flash_get_counters(f, &b);
	ss_emu_flash_close(f);
	CHECK(a.now_ns != b.now_ns);
	CHECK_EQ(a.page_reads, b.page_reads);
}

int main(void)
{
	memset(buf, 0x5a, sizeof(buf));
	memset(spare, 0xa5, sizeof(spare));
	emu_test_mkdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/model.img", dir);
	RUN(test_reads_across_channels_overlap);
	RUN(test_reads_on_one_channel_pipeline);
	RUN(test_reads_on_one_die_serialise);
	RUN(test_program_erase_and_barrier);
	RUN(test_timelines_are_independent);
	RUN(test_isp_account);
	RUN(test_link_commands);
	RUN(test_queued_commands);
	RUN(test_energy_from_counts);
	RUN(test_deterministic);
	emu_test_rmdir(dir);
	return ss_test_failures ? 1 : 0;
}
