/*
 * parquet-scan AGGREGATE outputs merged as the host merges them: group-aggregate's 48-byte
 * items (key1, key2, count, sum, min, max) by their keys, counts and sums added, min and
 * max kept as signed, the groups in the order first seen. Runs' outputs, or one run's
 * spills, merged so give the answer of one table that never filled. Shared by pq_scan_ut
 * and pq_scan_profile.
 */
#ifndef PQ_ITEMS_H
#define PQ_ITEMS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ss_rt.h"

#define PQ_ITEM_BYTES 48

/* Merges the items o[0 .. len) into *acc (*acc_len bytes, realloc'd). */
static inline void pq_items_merge(uint8_t **acc, uint64_t *acc_len, const uint8_t *o,
				  uint64_t len)
{
	for (uint64_t i = 0; i + PQ_ITEM_BYTES <= len; i += PQ_ITEM_BYTES) {
		const uint8_t *it = o + i;
		uint8_t *g;
		uint64_t j;

		for (j = 0; j < *acc_len; j += PQ_ITEM_BYTES) {
			if (!memcmp(*acc + j, it, 16)) {
				break;
			}
		}
		if (j == *acc_len) {
			*acc = realloc(*acc, *acc_len + PQ_ITEM_BYTES);
			if (!*acc) {
				abort();
			}
			memcpy(*acc + j, it, PQ_ITEM_BYTES);
			*acc_len += PQ_ITEM_BYTES;
			continue;
		}
		g = *acc + j;
		ss_put_le64(g + 16, ss_get_le64(g + 16) + ss_get_le64(it + 16));
		ss_put_le64(g + 24, ss_get_le64(g + 24) + ss_get_le64(it + 24));
		if ((int64_t)ss_get_le64(it + 32) < (int64_t)ss_get_le64(g + 32)) {
			memcpy(g + 32, it + 32, 8);
		}
		if ((int64_t)ss_get_le64(it + 40) > (int64_t)ss_get_le64(g + 40)) {
			memcpy(g + 40, it + 40, 8);
		}
	}
}

#endif
