/*
 * The sparse map of the unified address space (§4.3.1): 64-bit backing-store addresses to
 * 32-bit flash locations. Its size follows what the cache holds, never the backing
 * store's size. FlashTier's simulator used Google's sparse hash map; like its OpenSSD
 * prototype (§4.4.3: no allocation in firmware), this is an open-addressing table with
 * linear probing, sized once at mount for the most entries the flash can hold, at most
 * 3/4 full. Deletion shifts the following entries back, so there are no tombstones and a
 * lookup stops at the first empty bucket.
 */
#include "ssc_internal.h"

static uint32_t capacity_for(uint32_t entries)
{
	uint64_t want = (uint64_t)entries * 4 / 3 + 1;
	uint64_t cap = 16;

	while (cap < want) {
		cap <<= 1;
	}
	return cap > (1ull << 31) ? 0 : (uint32_t)cap;
}

uint64_t ssc_map_bytes(uint32_t entries)
{
	uint32_t cap = capacity_for(entries);

	return cap ? (uint64_t)cap * (sizeof(uint64_t) + sizeof(uint32_t)) : 0;
}

static uint32_t slot_of(const struct ssc_map *m, uint64_t key)
{
	/* splitmix64 finaliser: backing addresses are often sequential */
	key ^= key >> 30;
	key *= 0xBF58476D1CE4E5B9ull;
	key ^= key >> 27;
	key *= 0x94D049BB133111EBull;
	key ^= key >> 31;
	return (uint32_t)key & m->mask;
}

int ssc_map_init(struct ssc_map *m, void *mem, uint32_t entries)
{
	uint32_t cap = capacity_for(entries);

	if (cap == 0) {
		return -SS_EINVAL;
	}
	m->keys = mem;
	m->vals = (uint32_t *)((uint8_t *)mem + (size_t)cap * sizeof(uint64_t));
	m->mask = cap - 1;
	m->limit = entries;
	ssc_map_clear(m);
	return 0;
}

void ssc_map_clear(struct ssc_map *m)
{
	ss_memset(m->keys, 0xFF, (size_t)(m->mask + 1) * sizeof(uint64_t));
	m->count = 0;
}

int ssc_map_get(const struct ssc_map *m, uint64_t key, uint32_t *val)
{
	uint32_t i = slot_of(m, key);

	while (m->keys[i] != SSC_KEY_EMPTY) {
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 0;
		}
		i = (i + 1) & m->mask;
	}
	return 1;
}

int ssc_map_put(struct ssc_map *m, uint64_t key, uint32_t val)
{
	uint32_t i = slot_of(m, key);

	if (key == SSC_KEY_EMPTY) {
		return -SS_EINVAL;
	}
	while (m->keys[i] != SSC_KEY_EMPTY) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
		i = (i + 1) & m->mask;
	}
	if (m->count >= m->limit) {
		return -SS_ENOSPC;
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->count++;
	return 0;
}

int ssc_map_del(struct ssc_map *m, uint64_t key)
{
	uint32_t i = slot_of(m, key), j;

	while (m->keys[i] != key) {
		if (m->keys[i] == SSC_KEY_EMPTY) {
			return 1;
		}
		i = (i + 1) & m->mask;
	}
	/* backward-shift: move every later entry of the probe run that may sit at i */
	j = i;
	for (;;) {
		uint32_t home;

		j = (j + 1) & m->mask;
		if (m->keys[j] == SSC_KEY_EMPTY) {
			break;
		}
		home = slot_of(m, m->keys[j]);
		/* entry j may move to i when its home is not cyclically within (i, j] */
		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = SSC_KEY_EMPTY;
	m->count--;
	return 0;
}
