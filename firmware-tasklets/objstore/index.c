/*
 * Derived lookup state: the (parent oid, name) hash index, parent slots and per-directory
 * child counts. Rebuilt at mount from the table; never written to flash.
 */
#include "objstore_internal.h"

uint32_t os_slot(const struct ss_objstore *os, ss_oid_t oid)
{
	uint32_t s = os_slot_of_oid(oid);

	if (s == 0 || s >= os->nslots || os->recs[s].type == 0 || os->recs[s].oid != oid) {
		return 0;
	}
	return s;
}

static uint32_t name_hash(ss_oid_t parent, const char *name, uint32_t len)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < 8; i++) {
		h = (h ^ (uint8_t)(parent >> (8 * i))) * 16777619u;
	}
	for (uint32_t i = 0; i < len; i++) {
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	}
	return h ^ (h >> 15);
}

static bool rec_is(const struct os_rec *r, ss_oid_t parent, const char *name, uint32_t len)
{
	return r->parent == parent && r->name_len == len && ss_memcmp(r->var, name, len) == 0;
}

uint32_t os_idx_find(const struct ss_objstore *os, ss_oid_t parent, const char *name, uint32_t len)
{
	uint32_t b = name_hash(parent, name, len) & os->hash_mask;

	for (;;) {
		uint32_t s = os->hash[b];

		if (s == 0) {
			return 0;
		}
		if (rec_is(&os->recs[s], parent, name, len)) {
			return s;
		}
		b = (b + 1) & os->hash_mask;
	}
}

static uint32_t slot_bucket(const struct ss_objstore *os, uint32_t slot)
{
	const struct os_rec *r = &os->recs[slot];

	return name_hash(r->parent, (const char *)r->var, r->name_len) & os->hash_mask;
}

void os_idx_insert(struct ss_objstore *os, uint32_t slot)
{
	uint32_t b = slot_bucket(os, slot);

	while (os->hash[b] != 0) {
		b = (b + 1) & os->hash_mask;
	}
	os->hash[b] = slot;
}

/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
void os_idx_remove(struct ss_objstore *os, uint32_t slot)
{
	uint32_t i = slot_bucket(os, slot);
	uint32_t j;

	while (os->hash[i] != slot) {
		if (os->hash[i] == 0) {
			return;
		}
		i = (i + 1) & os->hash_mask;
	}
	os->hash[i] = 0;
	j = i;
	for (;;) {
		j = (j + 1) & os->hash_mask;
		if (os->hash[j] == 0) {
			return;
		}
		uint32_t k = slot_bucket(os, os->hash[j]);

		/* The entry at j may fill the hole at i unless its home k lies in (i, j]. */
		bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);

		if (!stays) {
			os->hash[i] = os->hash[j];
			os->hash[j] = 0;
			i = j;
		}
	}
}

void os_obj_attach(struct ss_objstore *os, uint32_t slot)
{
	struct os_rec *r = &os->recs[slot];

	os->nobjects++;
	if (slot == os_slot_of_oid(SS_OID_ROOT) && r->oid == SS_OID_ROOT) {
		os->parent_slot[slot] = OS_NOSLOT;
		return;
	}
	uint32_t ps = os_slot_of_oid(r->parent);

	os->parent_slot[slot] = ps;
	os->nchildren[ps]++;
	os_idx_insert(os, slot);
}

void os_obj_detach(struct ss_objstore *os, uint32_t slot)
{
	uint32_t ps = os->parent_slot[slot];

	os->nobjects--;
	if (ps != OS_NOSLOT) {
		os_idx_remove(os, slot);
		os->nchildren[ps]--;
	}
	os->parent_slot[slot] = OS_NOSLOT;
}

uint32_t os_alloc_slot(struct ss_objstore *os)
{
	uint32_t s = os->next_free_slot;

	for (uint32_t n = 0; n < os->nslots; n++, s++) {
		if (s >= os->nslots) {
			s = 2;
		}
		if (s >= 2 && os->recs[s].type == 0) {
			os->next_free_slot = s + 1;
			return s;
		}
	}
	return 0;
}
