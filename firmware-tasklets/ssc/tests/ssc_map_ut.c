/* The sparse map against a plain array model: table-driven key patterns (sequential,
 * strided by a power of two, sparse 64-bit, colliding in the low bits), random
 * insert/update/delete, a full map, and lookups after every deletion's backward shift. */
#include <stdlib.h>
#include <string.h>

#include "ftl_test_env.h"
#include "ssc_internal.h"

#define ENTRIES 3000u

struct model {
	uint64_t key[ENTRIES];
	uint32_t val[ENTRIES];
	uint8_t live[ENTRIES];
};

typedef uint64_t (*keygen)(uint32_t i);

static uint64_t k_seq(uint32_t i) { return 1000000 + i; }
static uint64_t k_stride(uint32_t i) { return (uint64_t)i << 20; }
static uint64_t k_sparse(uint32_t i) { return 0x9E3779B97F4A7C15ull * (i + 1); }
static uint64_t k_top(uint32_t i) { return UINT64_MAX - 1 - (uint64_t)i * 4096; }

static void check_all(const struct ssc_map *m, const struct model *md)
{
	uint32_t live = 0;

	for (uint32_t i = 0; i < ENTRIES; i++) {
		uint32_t v = 0;
		int rc = ssc_map_get(m, md->key[i], &v);

		if (md->live[i]) {
			live++;
			CHECK_EQ(rc, 0);
			CHECK_EQ(v, md->val[i]);
		} else {
			CHECK_EQ(rc, 1);
		}
	}
	CHECK_EQ(m->count, live);
}

static void run_pattern(const char *name, keygen gen)
{
	static struct model md;
	struct ssc_map m;
	uint64_t bytes = ssc_map_bytes(ENTRIES), rnd = 7;
	void *mem = malloc(bytes);

	fprintf(stderr, "  pattern %s: %llu bytes for %u entries\n", name,
		(unsigned long long)bytes, ENTRIES);
	memset(&md, 0, sizeof(md));
	CHECK_EQ(ssc_map_init(&m, mem, ENTRIES), 0);
	for (uint32_t i = 0; i < ENTRIES; i++) {
		md.key[i] = gen(i);
	}
	/* fill completely, then one more is refused */
	for (uint32_t i = 0; i < ENTRIES; i++) {
		md.val[i] = i * 7 + 1;
		md.live[i] = 1;
		CHECK_EQ(ssc_map_put(&m, md.key[i], md.val[i]), 0);
	}
	CHECK_EQ(ssc_map_put(&m, 42424242424242ull, 1), -SS_ENOSPC);
	CHECK_EQ(ssc_map_put(&m, SSC_KEY_EMPTY, 1), -SS_EINVAL);
	check_all(&m, &md);
	/* random churn */
	for (uint32_t step = 0; step < 40000; step++) {
		uint32_t i = (uint32_t)(fte_rand(&rnd) % ENTRIES);

		if (fte_rand(&rnd) % 2) {
			CHECK_EQ(ssc_map_del(&m, md.key[i]), md.live[i] ? 0 : 1);
			md.live[i] = 0;
		} else {
			md.val[i] = (uint32_t)fte_rand(&rnd);
			md.live[i] = 1;
			CHECK_EQ(ssc_map_put(&m, md.key[i], md.val[i]), 0);
		}
		if (step % 5000 == 0) {
			check_all(&m, &md);
		}
	}
	check_all(&m, &md);
	/* delete everything: the map is empty again */
	for (uint32_t i = 0; i < ENTRIES; i++) {
		CHECK_EQ(ssc_map_del(&m, md.key[i]), md.live[i] ? 0 : 1);
		md.live[i] = 0;
	}
	CHECK_EQ(m.count, 0);
	check_all(&m, &md);
	free(mem);
}

static void test_patterns(void)
{
	static const struct {
		const char *name;
		keygen gen;
	} table[] = {
		{ "sequential", k_seq },
		{ "stride 2^20", k_stride },
		{ "sparse 64-bit", k_sparse },
		{ "top of the address space", k_top },
	};

	for (size_t i = 0; i < SS_ARRAY_SIZE(table); i++) {
		run_pattern(table[i].name, table[i].gen);
	}
}

/* Memory follows the entries the map is sized for, never the key range. */
static void test_size(void)
{
	CHECK(ssc_map_bytes(1000) <= 2048ull * 12);
	CHECK(ssc_map_bytes(1000) >= 1000ull * 4 / 3 * 12);
	CHECK_EQ(ssc_map_bytes(1u << 31), 0);
}

int main(void)
{
	RUN(test_patterns);
	RUN(test_size);
	return fte_failures ? 1 : 0;
}
