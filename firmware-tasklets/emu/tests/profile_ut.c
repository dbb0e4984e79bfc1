/* Model profiles: the built-in ones parse and carry the calibrated numbers; bad profile
 * text is rejected with its line named. */
#include <stdint.h>

#include "emu_test.h"
#include "ss_emu_profile.h"
#include "ss_rt.h"

static char *read_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (fp == NULL) {
		return NULL;
	}
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		buf[0] = '\0';
	}
	fclose(fp);
	return buf;
}

static void test_builtin_profiles_parse(void)
{
	static const char *const want[] = { "jasmine-openssd", "kang-smartssd", "nvme-modern" };
	char err[512], path[512];

	CHECK_EQ(ss_emu_profile_count(), SS_ARRAY_SIZE(want));
	CHECK(ss_emu_profile_name(SS_ARRAY_SIZE(want)) == NULL);
	for (size_t i = 0; i < SS_ARRAY_SIZE(want); i++) {
		struct ss_emu_profile p, q;
		char *disk;

		CHECK(strcmp(ss_emu_profile_name(i), want[i]) == 0);
		CHECK_EQ(ss_emu_profile_load(want[i], &p, err, sizeof(err)), 0);
		CHECK(strcmp(p.name, want[i]) == 0);
		CHECK(p.geo.blocks_per_die > 0);
		CHECK_EQ((uint64_t)p.geo.channels * p.geo.ways * p.geo.blocks_per_die *
			 p.geo.pages_per_block * p.geo.page_size, p.capacity_bytes);
		/* the embedded text is the file in profiles/, and loads the same from its path */
		snprintf(path, sizeof(path), "%s/%s.profile", SS_EMU_PROFILE_DIR, want[i]);
		disk = read_file(path);
		CHECK(disk != NULL && strcmp(disk, ss_emu_profile_text(want[i])) == 0);
		free(disk);
		CHECK_EQ(ss_emu_profile_load(path, &q, err, sizeof(err)), 0);
		CHECK(memcmp(&p, &q, sizeof(p)) == 0);
	}
}

static void test_default_is_kang(void)
{
	struct ss_emu_profile p;
	char err[256];

	CHECK_EQ(ss_emu_profile_load(NULL, &p, err, sizeof(err)), 0);
	CHECK(strcmp(p.name, "kang-smartssd") == 0);
}

/* Kang ch. 6 calibration, recomputed here from the paper's figures. */
static void test_kang_calibration(void)
{
	struct ss_emu_profile p;
	char err[256];
	const double link = 3e9 / 10.0;                 /* SATA 3 Gb/s, 8b/10b */
	const double fw = 8192.0 / (1.8 * link) * 1e9;  /* 1.8x link measured */
	const double host_page = 8192.0 / link * 1e9;

	CHECK_EQ(ss_emu_profile_load("kang-smartssd", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.geo.channels, 16);
	CHECK_EQ(p.geo.page_size, 8192);
	CHECK_EQ(p.link_bytes_per_s, 300000000);
	CHECK_EQ(p.channel_bytes_per_s * 16, 2.5 * link);   /* 2.5x link by spec */
	CHECK_EQ(p.fw_page_overhead_ns, (uint64_t)(fw + 0.5));
	/* device and host per-page costs meet at 128 DRAM accesses per page (Fig. 6.6) */
	CHECK_EQ(p.dram_access_ns, (uint64_t)((host_page - p.fw_page_overhead_ns) / 128 + 0.5));
	CHECK_EQ(p.isp_batch_pages, 128);
	CHECK_EQ(p.isp_ps_per_instruction, 2500);   /* 2.5 ns written as a decimal */
	/* HBM per-2KB-page energy scaled x4 to 8 KB pages */
	CHECK_EQ(p.nand_read_nj, 4 * 2062.5);
	CHECK_EQ(p.nand_program_nj, 4 * 16500);
	CHECK_EQ(p.nand_erase_nj, 8 * 123750);
	CHECK_EQ(p.nand_read_ns, 25000);
	CHECK_EQ(p.nand_program_ns, 200000);
	CHECK_EQ(p.nand_erase_ns, 1500000);
	CHECK_EQ(p.host_idle_mw, 44000);
	CHECK_EQ(p.host_busy_mw, 35000);
	CHECK(p.isp_active_mw >= 500 && p.isp_active_mw <= 800);
	/* a one-sector read (tR + one page over a channel + 512 B over the link + overhead)
	 * stays under Kang's 215 us */
	CHECK(p.nand_read_ns + (8192.0 + p.geo.spare_size) / p.channel_bytes_per_s * 1e9 +
	      512 / link * 1e9 + p.link_cmd_overhead_ns < 215000);
}

static void test_jasmine_constants(void)
{
	struct ss_emu_profile p;
	char err[256];

	CHECK_EQ(ss_emu_profile_load("jasmine-openssd", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.geo.channels * p.geo.ways, 32);
	CHECK_EQ(p.geo.page_size, 32768);
	CHECK_EQ(p.geo.pages_per_block, 128);
	CHECK_EQ(p.dram_bytes, 64u << 20);
	CHECK_EQ(p.geo.overprovision_permille, 70);
	CHECK_EQ(p.isp_ps_per_instruction, 11429);   /* 1 / 87.5 MHz */
}

/* Replace line `lineno` (1-based) of kang's profile with `line` (NULL: delete it). */
static char *kang_with(int lineno, const char *line)
{
	const char *t = ss_emu_profile_text("kang-smartssd");
	size_t cap = strlen(t) + (line ? strlen(line) : 0) + 2;
	char *out = calloc(1, cap), *o = out;
	int n = 1;

	while (*t != '\0') {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t + 1) : strlen(t);

		if (n == lineno) {
			if (line != NULL) {
				o += sprintf(o, "%s\n", line);
			}
		} else {
			memcpy(o, t, len);
			o += len;
		}
		t += len;
		n++;
	}
	return out;
}

static int line_of(const char *key)
{
	const char *t = ss_emu_profile_text("kang-smartssd");
	size_t kl = strlen(key);
	int n = 1;

	for (const char *l = t; *l != '\0'; n++) {
		if (strncmp(l, key, kl) == 0 && (l[kl] == ' ' || l[kl] == '=')) {
			return n;
		}
		l = strchr(l, '\n');
		if (l == NULL) {
			break;
		}
		l++;
	}
	return -1;
}

static void test_malformed_profiles_name_the_line(void)
{
	const int ch = line_of("channels"), pg = line_of("page_size");
	const int ppb = line_of("pages_per_block");   /* comes after page_size */
	const struct {
		int line;
		const char *text;    /* NULL: delete the line */
		const char *want;
	} cases[] = {
		{ ch, "channels 16  # source: x", "expected 'key = value'" },
		{ ch, "chanels = 16  # source: x", "unknown key 'chanels'" },
		{ ch, "channels = 16x  # source: x", "trailing characters" },
		{ ch, "channels = 1.5  # source: x", "not a whole number" },
		{ ch, "channels = 0  # source: x", "out of range" },
		{ ch, "channels =   # source: x", "expected a number" },
		{ ch, "channels = 16", "no '# source:' comment" },
		{ ppb, "page_size = 8192  # source: x", "given twice" },
		{ pg, "page_size = 8000  # source: x", "not a whole number of blocks" },
	};
	char err[512], want_line[64];
	struct ss_emu_profile p;

	CHECK(ch > 0 && pg > ch && ppb > pg);
	for (size_t i = 0; i < SS_ARRAY_SIZE(cases); i++) {
		char *text = kang_with(cases[i].line, cases[i].text);

		err[0] = '\0';
		CHECK_EQ(ss_emu_profile_parse(text, "bad.profile", &p, err, sizeof(err)), -SS_EINVAL);
		CHECK_STR_HAS(err, cases[i].want);
		CHECK_STR_HAS(err, "bad.profile");
		/* errors found on a line name it; whole-file checks name the key instead */
		if (strstr(cases[i].want, "whole number of blocks") == NULL) {
			snprintf(want_line, sizeof(want_line), "bad.profile:%d:", cases[i].line);
			CHECK_STR_HAS(err, want_line);
		}
		free(text);
	}
	{
		char *text = kang_with(line_of("endurance"), NULL);

		CHECK_EQ(ss_emu_profile_parse(text, "bad.profile", &p, err, sizeof(err)), -SS_EINVAL);
		CHECK_STR_HAS(err, "key 'endurance' missing");
		free(text);
	}
}

static void test_missing_profiles(void)
{
	struct ss_emu_profile p;
	char err[512];

	CHECK_EQ(ss_emu_profile_load("no-such-drive", &p, err, sizeof(err)), -SS_ENOENT);
	CHECK_STR_HAS(err, "no built-in profile 'no-such-drive'");
	CHECK_STR_HAS(err, "kang-smartssd");
	CHECK_EQ(ss_emu_profile_load("/nonexistent/x.profile", &p, err, sizeof(err)), -SS_ENOENT);
	CHECK_STR_HAS(err, "/nonexistent/x.profile");
}

static void test_numbers(void)
{
	/* separators, exponents and decimals all land on the same integer */
	const char *const forms[] = { "300000000", "300_000_000", "300e6", "3e8", "0.3e9" };
	char err[512];

	for (size_t i = 0; i < SS_ARRAY_SIZE(forms); i++) {
		char line[128], *text;
		struct ss_emu_profile p;

		snprintf(line, sizeof(line), "link_bytes_per_s = %s  # source: test", forms[i]);
		text = kang_with(line_of("link_bytes_per_s"), line);
		CHECK_EQ(ss_emu_profile_parse(text, "t", &p, err, sizeof(err)), 0);
		CHECK_EQ(p.link_bytes_per_s, 300000000);
		free(text);
	}
}

int main(void)
{
	RUN(test_builtin_profiles_parse);
	RUN(test_default_is_kang);
	RUN(test_kang_calibration);
	RUN(test_jasmine_constants);
	RUN(test_malformed_profiles_name_the_line);
	RUN(test_missing_profiles);
	RUN(test_numbers);
	return ss_test_failures ? 1 : 0;
}
