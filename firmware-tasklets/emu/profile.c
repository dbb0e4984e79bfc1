/* Model profiles: parsing `key = value` text and looking up the built-in ones. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"
#include "ss_emu_profile.h"
#include "ss_rt.h"

/* Generated at build time from profiles/ (embed_profiles.cmake). */
struct emu_embedded_profile {
	const char *name;
	const char *text;
};
extern const struct emu_embedded_profile emu_embedded_profiles[];
extern const size_t emu_embedded_profile_count;

enum key_type { K_STR, K_U32, K_U64, K_I32 };

struct key {
	const char *name;
	enum key_type type;
	size_t off;
	size_t size;      /* K_STR: buffer size */
	int decimals;     /* the value is stored multiplied by 10^decimals */
	uint64_t min;
	uint64_t max;
};

#define P(f) offsetof(struct ss_emu_profile, f)
#define G(f) (offsetof(struct ss_emu_profile, geo) + offsetof(struct ss_geometry, f))
#define STR(k, f) { k, K_STR, P(f), sizeof(((struct ss_emu_profile *)0)->f), 0, 1, 0 }
#define U32(k, off, lo, hi) { k, K_U32, off, 4, 0, lo, hi }
#define U64(k, off, lo, hi) { k, K_U64, off, 8, 0, lo, hi }

static const struct key keys[] = {
	STR("name", name),
	STR("model", model),
	U32("channels", G(channels), 1, 256),
	U32("ways", G(ways), 1, 256),
	U32("pages_per_block", G(pages_per_block), 1, 65536),
	U32("page_size", G(page_size), 512, 1u << 20),
	U32("spare_size", G(spare_size), 0, 1u << 16),
	U32("overprovision_permille", G(overprovision_permille), 0, 900),
	U64("capacity_bytes", P(capacity_bytes), 1, UINT64_MAX),
	U32("endurance", P(endurance), 1, UINT32_MAX / 2),
	U32("endurance_spread_permille", P(endurance_spread_permille), 0, 900),
	U32("factory_bad_permille", P(factory_bad_permille), 0, 500),
	U64("dram_bytes", P(dram_bytes), 4096, UINT64_MAX),
	{ "temperature_c", K_I32, P(temperature_c), 4, 0, 0, 0 },
	U64("nand_read_ns", P(nand_read_ns), 0, UINT32_MAX),
	U64("nand_program_ns", P(nand_program_ns), 0, UINT32_MAX),
	U64("nand_erase_ns", P(nand_erase_ns), 0, UINT32_MAX),
	U64("channel_bytes_per_s", P(channel_bytes_per_s), 1, UINT64_MAX / 4),
	U64("link_bytes_per_s", P(link_bytes_per_s), 1, UINT64_MAX / 4),
	U64("link_cmd_overhead_ns", P(link_cmd_overhead_ns), 0, UINT32_MAX),
	U64("fw_page_overhead_ns", P(fw_page_overhead_ns), 0, UINT32_MAX),
	{ "isp_ns_per_instruction", K_U64, P(isp_ps_per_instruction), 8, 3, 0, UINT32_MAX },
	U64("dram_access_ns", P(dram_access_ns), 0, UINT32_MAX),
	U32("isp_batch_pages", P(isp_batch_pages), 1, 65536),
	U64("nand_read_nj", P(nand_read_nj), 0, UINT32_MAX),
	U64("nand_program_nj", P(nand_program_nj), 0, UINT32_MAX),
	U64("nand_erase_nj", P(nand_erase_nj), 0, UINT32_MAX),
	U64("link_pj_per_byte", P(link_pj_per_byte), 0, UINT32_MAX),
	U64("isp_active_mw", P(isp_active_mw), 0, 1000000),
	U64("device_idle_mw", P(device_idle_mw), 0, 1000000),
	U64("host_idle_mw", P(host_idle_mw), 0, 100000000),
	U64("host_busy_mw", P(host_busy_mw), 0, 100000000),
	U32("host_cores", P(host_cores), 1, 1u << 16),
};

void emu_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0) {
		return;
	}
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r') {
		s++;
	}
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
		*--e = '\0';
	}
	return s;
}

/*
 * A decimal number: digits with optional '_' separators, an optional fraction and an
 * optional exponent ("46875000", "2.5", "750e6"). The result is value * 10^decimals and
 * must be a whole number that fits in 64 bits.
 */
static int parse_number(const char *s, int decimals, bool allow_neg, int64_t *sign,
			uint64_t *out, const char **why)
{
	uint64_t mant = 0;
	int exp10 = decimals, digits = 0, neg = 0;

	if (*s == '-' && allow_neg) {
		neg = 1;
		s++;
	}
	for (; (*s >= '0' && *s <= '9') || *s == '_'; s++) {
		if (*s == '_') {
			continue;
		}
		if (mant > (UINT64_MAX - 9) / 10) {
			*why = "number too large";
			return -SS_ERANGE;
		}
		mant = mant * 10 + (uint64_t)(*s - '0');
		digits++;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (mant > (UINT64_MAX - 9) / 10) {
				*why = "number too large";
				return -SS_ERANGE;
			}
			mant = mant * 10 + (uint64_t)(*s - '0');
			exp10--;
			digits++;
		}
	}
	if (digits == 0) {
		*why = "expected a number";
		return -SS_EINVAL;
	}
	if (*s == 'e' || *s == 'E') {
		char *end;
		long e = strtol(s + 1, &end, 10);

		if (end == s + 1 || e < -30 || e > 30) {
			*why = "bad exponent";
			return -SS_EINVAL;
		}
		exp10 += (int)e;
		s = end;
	}
	if (*s != '\0') {
		*why = "trailing characters after the number";
		return -SS_EINVAL;
	}
	for (; exp10 > 0; exp10--) {
		if (mant > UINT64_MAX / 10) {
			*why = "number too large";
			return -SS_ERANGE;
		}
		mant *= 10;
	}
	for (; exp10 < 0; exp10++) {
		if (mant % 10 != 0) {
			*why = decimals ? "more than 3 decimal places" : "not a whole number";
			return -SS_EINVAL;
		}
		mant /= 10;
	}
	*sign = neg ? -1 : 1;
	*out = mant;
	return 0;
}

static const struct key *find_key(const char *name)
{
	for (size_t i = 0; i < SS_ARRAY_SIZE(keys); i++) {
		if (strcmp(keys[i].name, name) == 0) {
			return &keys[i];
		}
	}
	return NULL;
}

static int set_value(struct ss_emu_profile *p, const struct key *k, const char *val,
		     const char **why)
{
	uint8_t *dst = (uint8_t *)p + k->off;
	uint64_t v;
	int64_t sign;
	int rc;

	if (k->type == K_STR) {
		if (*val == '\0') {
			*why = "empty value";
			return -SS_EINVAL;
		}
		if (strlen(val) >= k->size) {
			*why = "value too long";
			return -SS_EINVAL;
		}
		memcpy(dst, val, strlen(val) + 1);
		return 0;
	}
	rc = parse_number(val, k->decimals, k->type == K_I32, &sign, &v, why);
	if (rc != 0) {
		return rc;
	}
	if (k->type == K_I32) {
		int32_t t;

		if (v > 1000) {
			*why = "out of range";
			return -SS_ERANGE;
		}
		t = (int32_t)v * (int32_t)sign;
		memcpy(dst, &t, sizeof(t));
		return 0;
	}
	if (v < k->min || v > k->max) {
		*why = "out of range";
		return -SS_ERANGE;
	}
	if (k->type == K_U32) {
		uint32_t t = (uint32_t)v;

		memcpy(dst, &t, sizeof(t));
	} else {
		memcpy(dst, &v, sizeof(v));
	}
	return 0;
}

int ss_emu_geometry_check(const struct ss_geometry *g, char *err, size_t errlen)
{
	uint64_t blocks = (uint64_t)g->channels * g->ways * g->blocks_per_die;

	if (g->channels == 0 || g->ways == 0 || g->blocks_per_die == 0 ||
	    g->pages_per_block == 0 || g->page_size == 0) {
		emu_errf(err, errlen, "geometry: channels, ways, blocks_per_die, pages_per_block "
			 "and page_size must be non-zero");
		return -SS_EINVAL;
	}
	if (g->page_size % 512 != 0 || g->page_size > (1u << 20)) {
		emu_errf(err, errlen, "geometry: page_size %u is not a multiple of 512 up to 1 MiB",
			 g->page_size);
		return -SS_EINVAL;
	}
	if (g->spare_size > (1u << 16)) {
		emu_errf(err, errlen, "geometry: spare_size %u exceeds 65536", g->spare_size);
		return -SS_EINVAL;
	}
	if (g->overprovision_permille > 900) {
		emu_errf(err, errlen, "geometry: overprovision_permille %u exceeds 900",
			 g->overprovision_permille);
		return -SS_EINVAL;
	}
	if (blocks * g->pages_per_block > UINT32_MAX) {
		emu_errf(err, errlen, "geometry: %llu pages exceed the 32-bit page number space",
			 (unsigned long long)(blocks * g->pages_per_block));
		return -SS_EINVAL;
	}
	return 0;
}

/* Is there a "source:" comment on this line or on the comment lines just above it? */
static bool has_source(const char *comment, bool block_has_source)
{
	return block_has_source || (comment != NULL && strstr(comment, "source:") != NULL);
}

int ss_emu_profile_parse(const char *text, const char *origin, struct ss_emu_profile *p,
			 char *err, size_t errlen)
{
	bool seen[SS_ARRAY_SIZE(keys)] = { false };
	bool block_source = false;
	const char *line = text;
	char buf[1024];
	int lineno = 0;
	uint64_t die_bytes;
	char *dot;
	int rc;

	memset(p, 0, sizeof(*p));
	while (*line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *s, *comment, *eq, *name, *val;
		const struct key *k;
		const char *why = NULL;

		lineno++;
		if (len >= sizeof(buf)) {
			emu_errf(err, errlen, "%s:%d: line too long", origin, lineno);
			return -SS_EINVAL;
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : line + len;

		s = trim(buf);
		if (*s == '\0') {
			block_source = false;
			continue;
		}
		comment = strchr(s, '#');
		if (comment == s) {
			if (strstr(s, "source:") != NULL) {
				block_source = true;
			}
			continue;
		}
		if (comment != NULL) {
			*comment++ = '\0';
		}
		eq = strchr(s, '=');
		if (eq == NULL) {
			emu_errf(err, errlen, "%s:%d: expected 'key = value'", origin, lineno);
			return -SS_EINVAL;
		}
		*eq = '\0';
		name = trim(s);
		val = trim(eq + 1);
		k = find_key(name);
		if (k == NULL) {
			emu_errf(err, errlen, "%s:%d: unknown key '%s'", origin, lineno, name);
			return -SS_EINVAL;
		}
		if (seen[k - keys]) {
			emu_errf(err, errlen, "%s:%d: key '%s' given twice", origin, lineno, name);
			return -SS_EINVAL;
		}
		if (!has_source(comment, block_source)) {
			emu_errf(err, errlen, "%s:%d: key '%s' has no '# source:' comment on its line "
				 "or just above it", origin, lineno, name);
			return -SS_EINVAL;
		}
		rc = set_value(p, k, val, &why);
		if (rc != 0) {
			emu_errf(err, errlen, "%s:%d: %s: %s ('%s')", origin, lineno, name, why, val);
			return -SS_EINVAL;
		}
		seen[k - keys] = true;
	}
	for (size_t i = 0; i < SS_ARRAY_SIZE(keys); i++) {
		if (!seen[i]) {
			emu_errf(err, errlen, "%s: key '%s' missing", origin, keys[i].name);
			return -SS_EINVAL;
		}
	}
	for (dot = p->name; *dot != '\0'; dot++) {
		if (*dot == '/' || *dot == ' ') {
			emu_errf(err, errlen, "%s: name '%s' may not contain '/' or spaces", origin,
				 p->name);
			return -SS_EINVAL;
		}
	}
	/* The geometry's blocks per die follow from the default capacity. */
	die_bytes = (uint64_t)p->geo.channels * p->geo.ways * p->geo.pages_per_block *
		    p->geo.page_size;
	if (p->capacity_bytes % die_bytes != 0) {
		emu_errf(err, errlen, "%s: capacity_bytes %llu is not a whole number of blocks "
			 "on every die (%llu bytes per block row)", origin,
			 (unsigned long long)p->capacity_bytes, (unsigned long long)die_bytes);
		return -SS_EINVAL;
	}
	if (p->capacity_bytes / die_bytes > UINT32_MAX) {
		emu_errf(err, errlen, "%s: capacity_bytes too large", origin);
		return -SS_EINVAL;
	}
	p->geo.blocks_per_die = (uint32_t)(p->capacity_bytes / die_bytes);
	rc = ss_emu_geometry_check(&p->geo, err, errlen);
	if (rc != 0) {
		return rc;
	}
	return 0;
}

size_t ss_emu_profile_count(void)
{
	return emu_embedded_profile_count;
}

const char *ss_emu_profile_name(size_t i)
{
	return i < emu_embedded_profile_count ? emu_embedded_profiles[i].name : NULL;
}

const char *ss_emu_profile_text(const char *name)
{
	for (size_t i = 0; i < emu_embedded_profile_count; i++) {
		if (strcmp(emu_embedded_profiles[i].name, name) == 0) {
			return emu_embedded_profiles[i].text;
		}
	}
	return NULL;
}

static int load_file(const char *path, struct ss_emu_profile *p, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	long size;
	int rc;

	if (fp == NULL) {
		rc = -errno;
		emu_errf(err, errlen, "profile %s: %s", path, strerror(errno));
		return rc == -ENOENT ? -SS_ENOENT : -SS_EIO;
	}
	if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 || size > (1 << 20) ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		emu_errf(err, errlen, "profile %s: unreadable or larger than 1 MiB", path);
		rc = -SS_EINVAL;
		goto out;
	}
	text = malloc((size_t)size + 1);
	if (text == NULL) {
		rc = -SS_ENOMEM;
		emu_errf(err, errlen, "profile %s: out of memory", path);
		goto out;
	}
	if (fread(text, 1, (size_t)size, fp) != (size_t)size) {
		emu_errf(err, errlen, "profile %s: read error", path);
		rc = -SS_EIO;
		goto out;
	}
	text[size] = '\0';
	rc = ss_emu_profile_parse(text, path, p, err, errlen);
out:
	free(text);
	fclose(fp);
	return rc;
}

int ss_emu_profile_load(const char *name_or_path, struct ss_emu_profile *p, char *err,
			size_t errlen)
{
	const char *name = name_or_path ? name_or_path : "kang-smartssd";
	const char *text;
	char origin[64];

	if (strchr(name, '/') != NULL) {
		return load_file(name, p, err, errlen);
	}
	text = ss_emu_profile_text(name);
	if (text == NULL) {
		char list[256] = "";

		for (size_t i = 0; i < emu_embedded_profile_count; i++) {
			size_t l = strlen(list);

			snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "",
				 emu_embedded_profiles[i].name);
		}
		emu_errf(err, errlen, "no built-in profile '%s' (built in: %s; or give a path)",
			 name, list);
		return -SS_ENOENT;
	}
	snprintf(origin, sizeof(origin), "builtin:%s", name);
	return ss_emu_profile_parse(text, origin, p, err, errlen);
}
