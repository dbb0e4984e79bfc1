/*
 * The whole firmware fits the OpenSSD Jasmine's DRAM: for the jasmine-openssd profile's
 * default geometry, ss_fw_dram_needed() is at most the board's 64 MiB SDRAM ([Saxena 2013,
 * Table 4.2, p. 63]), and the firmware really formats, closes and mounts
 * an image of the profile's default capacity with exactly that much DRAM as its arena.
 * The figure is also reported against the 65,075,200 B the SDRAM leaves after its ECC
 * (4 B per 128 B), and for the geometry the openssd/ shim presents (one sector of each
 * 32 KB virtual page kept as the spare area).
 * The solid-state cache's tables count too: its part of the flash at the default share
 * (ss_ssc_part.h), with SSC-V's page-level map reserved for a 20 % log (the larger of the
 * two policies), added to the firmware's figure for the whole flash (an upper bound: the
 * FTL would map only the rest, and ss_fw_dram_needed() counts the cache already). So does
 * the DRAM buffer at its default (firmware-tasklets/buffer/): the image is formatted with
 * the default buffer, which must be running after the format and after the mount. The
 * non-volatile merge cache (nv-wb) at the default size fits too, its NVM counted in the
 * 64 MiB it takes the place of [Smullen 2010, §IV-A]: the image is mounted with it, and
 * then with the default buffer again (which writes the merge cache back first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ss_emu.h"
#include "ss_buf.h"
#include "ss_emu_profile.h"
#include "ss_fw.h"
#include "ss_rt.h"
#include "ss_ssc.h"
#include "ss_ssc_part.h"

#define BOARD_DRAM_BYTES (64ull << 20)                 /* 64 MB SDRAM */
#define BOARD_DRAM_AFTER_ECC (BOARD_DRAM_BYTES / 132 * 128) /* 4 B ECC per 128 B */

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

/* The buffer the drive runs: the firmware's default policy (hbm) with some pages. */
static void check_buffer(struct ss_emu_drive *d, const char *when, enum ss_buf_policy want)
{
	struct ss_buf_params bp;
	struct ss_buf_stats st;
	char what[96];

	ss_emu_buffer_stats(d, &bp, &st);
	printf("buffer %s: policy %d, %u pages (%.2f MiB)\n", when, (int)bp.policy, bp.pages,
	       (double)bp.pages * ss_emu_profile(d)->geo.page_size / 1048576.0);
	if (want != SS_BUF_HBM) {
		uint64_t nv = ss_buf_nvram_needed(&bp, ss_emu_profile(d)->geo.page_size);

		printf("  its DRAM %llu B, of which NVM %llu B\n",
		       (unsigned long long)ss_buf_dram_needed(&bp, ss_emu_profile(d)->geo.page_size),
		       (unsigned long long)nv);
		check(nv > 0, "the merge cache has its NVM");
	}
	snprintf(what, sizeof(what), "the buffer (policy %d, some pages) runs %s", (int)want, when);
	check(bp.policy == want && bp.pages > 0, what);
}

static void report(const char *label, const struct ss_geometry *g)
{
	uint64_t need = ss_fw_dram_needed(g);
	uint64_t pages = ss_geo_pages(g);
	struct ss_ssc_params sp;
	struct ss_ssc_part part;
	struct ss_geometry cache_geo = *g;
	uint64_t cache_need = 0;

	printf("%s: %u ch x %u ways x %u blocks x %u pages of %u+%u B -> firmware DRAM %llu B "
	       "(%.2f MiB; %.1f B per page) of %llu B board DRAM, %llu B after ECC\n",
	       label, g->channels, g->ways, g->blocks_per_die, g->pages_per_block, g->page_size,
	       g->spare_size, (unsigned long long)need, need / 1048576.0,
	       (double)need / (double)pages, (unsigned long long)BOARD_DRAM_BYTES,
	       (unsigned long long)BOARD_DRAM_AFTER_ECC);
	check(need > 0 && need <= BOARD_DRAM_BYTES, "firmware DRAM exceeds the Jasmine's 64 MiB");

	ss_ssc_default_params(&sp, SS_SSC_POLICY_SSC_V);
	check(ss_ssc_part_plan(g, SS_SSC_SHARE_DEFAULT_PERMILLE, &part) == 0, "cache partition plan");
	cache_geo.blocks_per_die = part.ssc_rows;
	cache_need = ss_ssc_dram_needed(&cache_geo, &sp);
	printf("%s with the cache: %u of %u blocks per die cached (%u per mille), cache tables "
	       "%llu B (%.2f MiB); firmware + cache %llu B (%.2f MiB) of %llu B\n", label,
	       part.ssc_rows, g->blocks_per_die, part.share_permille,
	       (unsigned long long)cache_need, cache_need / 1048576.0,
	       (unsigned long long)(need + cache_need), (need + cache_need) / 1048576.0,
	       (unsigned long long)BOARD_DRAM_BYTES);
	check(cache_need > 0, "the cache cannot run on its part of the flash");
	check(need + cache_need <= BOARD_DRAM_BYTES,
	      "firmware plus the cache's tables exceed the Jasmine's 64 MiB");
}

int main(void)
{
	struct ss_emu_profile p;
	struct ss_emu_drive_opts o;
	struct ss_emu_drive *d = NULL;
	char err[256] = "";
	char dir[] = "/tmp/jasmine_fit_XXXXXX";
	char path[sizeof(dir) + 24];
	int rc;

	rc = ss_emu_profile_load("jasmine-openssd", &p, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "FAIL: load jasmine-openssd: %d %s\n", rc, err);
		return 1;
	}
	/* The profile's geometry and default capacity are its own; recompute the capacity. */
	check(p.dram_bytes == BOARD_DRAM_BYTES, "profile DRAM is not the board's 64 MiB");
	check(p.capacity_bytes == ss_geo_pages(&p.geo) * p.geo.page_size,
	      "default capacity is not channels*ways*blocks*pages*page_size");
	report("jasmine-openssd profile", &p.geo);

	/* The geometry the shim in openssd/ presents on the board. */
	struct ss_geometry shim = p.geo;
	shim.page_size = 32768 - 512;
	shim.spare_size = 512;
	report("openssd shim geometry", &shim);

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/jasmine.img", dir);
	memset(&o, 0, sizeof(o));
	o.flash.profile = "jasmine-openssd";
	o.flash.dram_bytes = BOARD_DRAM_BYTES;  /* the arena is exactly the board's DRAM */
	o.manual_background = 1;
	/* No cache part in the real format: the profile has factory-bad blocks and the cache
	 * (ss_ssc_format) does not skip them yet; its DRAM is counted in the figures above. */
	rc = ss_emu_format(path, &o, &d, err, sizeof(err));
	check(rc == 0, "format at the profile's default capacity within 64 MiB");
	if (rc != 0) {
		fprintf(stderr, "  format: %d %s\n", rc, err);
	} else {
		check(ss_emu_profile(d)->capacity_bytes == p.capacity_bytes, "image capacity");
		check_buffer(d, "after format", SS_BUF_HBM);
		check(ss_emu_close(d) == 0, "clean close after format");
		d = NULL;
		rc = ss_emu_open(path, &o, &d, err, sizeof(err));
		check(rc == 0, "mount within 64 MiB");
		if (rc != 0) {
			fprintf(stderr, "  mount: %d %s\n", rc, err);
		} else {
			check_buffer(d, "after mount", SS_BUF_HBM);
			check(ss_emu_close(d) == 0, "clean close after mount");
		}
		d = NULL;
		o.buffer_policy = "nv-wb";
		rc = ss_emu_open(path, &o, &d, err, sizeof(err));
		check(rc == 0, "mount with the merge cache within 64 MiB");
		if (rc != 0) {
			fprintf(stderr, "  mount nv-wb: %d %s\n", rc, err);
		} else {
			check_buffer(d, "after a mount with nv-wb", SS_BUF_NV_WB);
			check(ss_emu_close(d) == 0, "clean close with the merge cache");
		}
		d = NULL;
		o.buffer_policy = "hbm";
		rc = ss_emu_open(path, &o, &d, err, sizeof(err));
		check(rc == 0, "mount back to hbm");
		if (rc == 0) {
			check_buffer(d, "after a mount back to hbm", SS_BUF_HBM);
			check(ss_emu_close(d) == 0, "clean close after hbm");
		}
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/jasmine.img.nvram", dir);
	unlink(path);
	rmdir(dir);
	if (failures == 0) {
		printf("jasmine fit: OK\n");
	}
	return failures ? 1 : 0;
}
