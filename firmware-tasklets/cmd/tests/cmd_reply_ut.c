/*
 * Reply slots, their heap and sessions, on a bare ss_fw (no drive): live reservations
 * never overlap and stay inside the heap, freed space is reused, lookups find every live
 * reply and no released one, quotas hold, session-0
 * leftovers give way, and a full session table takes over the least recently used idle
 * unowned session; an owner's session is never taken by another, and all it held goes
 * when the owner does.
 */
#include <stdlib.h>

#include "cmd_internal.h"
#include "fixture.h"

static struct ss_fw *bare_fw(void)
{
	struct ss_fw *fw = calloc(1, sizeof(*fw));

	fw->replies = calloc(FW_REPLY_SLOTS, sizeof(struct fw_reply));
	fw->heap_order = calloc(FW_REPLY_SLOTS, sizeof(uint16_t));
	fw->heap = calloc(1, FW_REPLY_HEAP_BYTES);
	fw->heap_size = FW_REPLY_HEAP_BYTES;
	fw->next_session = 1;
	fw_replies_init(fw);
	return fw;
}

static void free_fw(struct ss_fw *fw)
{
	free(fw->replies);
	free(fw->heap_order);
	free(fw->heap);
	free(fw);
}

/* Independent check: every live reply's [off, off+cap) is inside the heap and disjoint. */
static void check_heap(struct ss_fw *fw)
{
	for (uint32_t i = 0; i < FW_REPLY_SLOTS; i++) {
		const struct fw_reply *a = &fw->replies[i];

		if (!a->used || !a->cap) {
			continue;
		}
		CHECK((uint64_t)a->heap_off + a->cap <= FW_REPLY_HEAP_BYTES);
		for (uint32_t j = i + 1; j < FW_REPLY_SLOTS; j++) {
			const struct fw_reply *b = &fw->replies[j];

			if (!b->used || !b->cap) {
				continue;
			}
			CHECK(a->heap_off + a->cap <= b->heap_off || b->heap_off + b->cap <= a->heap_off);
		}
	}
}

/* Lookups stop at replies_end: every slot in use lies below it, and every live reply of
 * r[] (tag: its session and index) is found by its tag, every released one is not. */
static void check_lookups(struct ss_fw *fw, struct fw_reply *const *r, int n,
			  const uint16_t *sid)
{
	for (uint32_t i = 0; i < FW_REPLY_SLOTS; i++) {
		CHECK(!fw->replies[i].used || i < fw->replies_end);
	}
	for (int k = 0; k < n; k++) {
		uint32_t tag = ((uint32_t)sid[k % 4] << 16) | (uint32_t)k;

		CHECK(fw_reply_find(fw, tag) == r[k]);
	}
}

static void test_heap(void)
{
	struct ss_fw *fw = bare_fw();
	struct fw_reply *r[64];
	uint16_t sid[4];
	uint32_t seed = 12345;

	for (int s = 0; s < 4; s++) {
		CHECK_EQ(fw_session_open(fw, &sid[s]), 0);
	}
	/* 1 MiB + small replies: four of 1 MiB fill the 4 MiB heap */
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)sid[0] << 16) | (uint32_t)i, SS_OP_READ,
					  1u << 20, &r[i]), 0);
	}
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)sid[0] << 16) | 3u, SS_OP_READ, 1u << 20, &r[3]), 0);
	check_heap(fw);
	/* the heap is full now */
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)sid[1] << 16) | 9u, SS_OP_READ, 8, &r[4]), -SS_EBUSY);
	CHECK(fw_reply_find(fw, ((uint32_t)sid[1] << 16) | 9u) == NULL);
	/* free the second: its space is reused first fit */
	uint32_t hole = r[1]->heap_off;

	fw_reply_release(fw, r[1]);
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)sid[1] << 16) | 9u, SS_OP_READ, 4096, &r[4]), 0);
	CHECK_EQ(r[4]->heap_off, hole);
	check_heap(fw);
	/* a reply that shrank to nothing still frees its place when received */
	r[0]->cap = 0;
	fw_reply_release(fw, r[0]);
	fw_reply_release(fw, r[2]);
	fw_reply_release(fw, r[3]);
	fw_reply_release(fw, r[4]);
	CHECK_EQ(fw->heap_n, 0);

	/* random churn across 4 sessions, checking disjointness every step */
	memset(r, 0, sizeof(r));
	for (int step = 0; step < 4000; step++) {
		int k;

		seed = seed * 1103515245u + 12345u;
		k = (int)((seed >> 8) % 64);
		if (r[k]) {
			fw_reply_release(fw, r[k]);
			r[k] = NULL;
		} else {
			uint32_t cap = (seed >> 16) % 300000;
			uint32_t tag = ((uint32_t)sid[k % 4] << 16) | (uint32_t)k;
			int rc = fw_reply_reserve(fw, tag, SS_OP_READ, cap, &r[k]);

			if (rc) {
				r[k] = NULL;
				CHECK_EQ(rc, -SS_EBUSY);
			}
		}
		check_lookups(fw, r, 64, sid);
		if (step % 97 == 0) {
			check_heap(fw);
		}
	}
	check_heap(fw);
	for (int k = 0; k < 64; k++) {
		if (r[k]) {
			fw_reply_release(fw, r[k]);
			r[k] = NULL;
		}
	}
	check_lookups(fw, r, 64, sid);
	CHECK_EQ(fw->replies_end, 0);
	free_fw(fw);
}

static void test_quotas(void)
{
	struct ss_fw *fw = bare_fw();
	struct fw_reply *r;
	uint16_t a, b;

	CHECK_EQ(fw_session_open(fw, &a), 0);
	CHECK_EQ(fw_session_open(fw, &b), 0);
	CHECK(a != b && a && b);
	for (uint32_t i = 0; i < FW_QUEUE_DEPTH; i++) {
		CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)a << 16) | i, SS_OP_STAT, 16, &r), 0);
	}
	/* queue depth reached for a, b is unaffected */
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)a << 16) | 100u, SS_OP_STAT, 16, &r), -SS_EBUSY);
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)b << 16) | 100u, SS_OP_STAT, 16, &r), 0);
	/* a tag of a session that is not open cannot reserve */
	CHECK_EQ(fw_reply_reserve(fw, (0x7777u << 16) | 1u, SS_OP_STAT, 16, &r), -SS_EBUSY);

	/* session 0: the oldest leftover gives way */
	for (uint32_t i = 0; i < FW_QUEUE_DEPTH; i++) {
		CHECK_EQ(fw_reply_reserve(fw, 0x100u + i, SS_OP_DRIVE_INFO, 0, &r), 0);
	}
	CHECK_EQ(fw_reply_reserve(fw, 0x500u, SS_OP_DRIVE_INFO, 0, &r), 0);
	CHECK(fw_reply_find(fw, 0x100u) == NULL);
	CHECK(fw_reply_find(fw, 0x101u) != NULL);
	CHECK(fw_reply_find(fw, 0x500u) != NULL);

	/* closing a drops its replies except the one kept */
	r = fw_reply_find(fw, ((uint32_t)a << 16) | 5u);
	fw_session_close(fw, a, r);
	CHECK(fw_session_find(fw, a) == NULL);
	CHECK(fw_reply_find(fw, ((uint32_t)a << 16) | 4u) == NULL);
	CHECK(fw_reply_find(fw, ((uint32_t)a << 16) | 5u) == r);
	fw_reply_release(fw, r);
	free_fw(fw);
}

static void test_session_table(void)
{
	struct ss_fw *fw = bare_fw();
	struct fw_reply *r;
	uint16_t ids[FW_MAX_SESSIONS], extra, again;

	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		CHECK_EQ(fw_session_open(fw, &ids[i]), 0);
		/* every session but the first has a reply waiting */
		if (i) {
			CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)ids[i] << 16) | 1u, SS_OP_STAT, 0, &r), 0);
		}
	}
	/* full: the only idle session (ids[0]) is taken over */
	CHECK_EQ(fw_session_open(fw, &extra), 0);
	CHECK(fw_session_find(fw, ids[0]) == NULL);
	CHECK(fw_session_find(fw, extra) != NULL);
	for (uint32_t i = 1; i < FW_MAX_SESSIONS; i++) {
		CHECK(fw_session_find(fw, ids[i]) != NULL);
	}
	/* now every session has a reply waiting or is the newest idle one */
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)extra << 16) | 1u, SS_OP_STAT, 0, &r), 0);
	CHECK_EQ(fw_session_open(fw, &again), -SS_EBUSY);
	/* ids are not handed out again soon */
	fw_session_close(fw, ids[3], NULL);
	CHECK_EQ(fw_session_open(fw, &again), 0);
	CHECK(again != ids[3] && again != ids[0]);
	free_fw(fw);
}

/*
 * Owned sessions (the daemon's connections): a full table refuses a new owner instead of
 * taking over another's idle session (each client would then take another's, and every one
 * of them see BAD_SESSION); an owner may take over its own; one owner's session is not
 * another's to use; and an owner that goes takes its sessions and their replies, reply
 * memory included, with it.
 */
static void test_session_owners(void)
{
	struct ss_fw *fw = bare_fw();
	uint16_t ids[FW_MAX_SESSIONS], extra, again;
	struct fw_reply *r, *big;
	uint32_t big_tag;

	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		ss_fw_set_owner(fw, i + 1);
		CHECK_EQ(fw_session_open(fw, &ids[i]), 0);
	}
	ss_fw_set_owner(fw, FW_MAX_SESSIONS + 1);
	CHECK_EQ(fw_session_open(fw, &extra), -SS_EBUSY);
	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		CHECK(fw_session_find(fw, ids[i]) != NULL);
	}
	/* only the owner's own tag finds its session */
	CHECK(fw_session_of(fw, (uint32_t)ids[4] << 16) == NULL);
	ss_fw_set_owner(fw, 5);
	CHECK(fw_session_of(fw, (uint32_t)ids[4] << 16) == fw_session_find(fw, ids[4]));
	/* an owner opening again takes over its own idle session */
	CHECK_EQ(fw_session_open(fw, &again), 0);
	CHECK(fw_session_find(fw, ids[4]) == NULL);
	CHECK(fw_session_of(fw, (uint32_t)again << 16) != NULL);
	/* owner 7 holds reply memory when it goes: all of it comes back */
	ss_fw_set_owner(fw, 7);
	big_tag = ((uint32_t)ids[6] << 16) | 1u;
	CHECK_EQ(fw_reply_reserve(fw, big_tag, SS_OP_READ, FW_REPLY_HEAP_BYTES, &big), 0);
	CHECK_EQ(fw_reply_reserve(fw, big_tag + 1, SS_OP_STAT, 64, &r), -SS_EBUSY);
	ss_fw_owner_gone(fw, 7);
	CHECK(fw_session_find(fw, ids[6]) == NULL);
	CHECK(fw_reply_find(fw, big_tag) == NULL);
	ss_fw_set_owner(fw, FW_MAX_SESSIONS + 1);
	CHECK_EQ(fw_session_open(fw, &extra), 0);
	CHECK_EQ(fw_reply_reserve(fw, ((uint32_t)extra << 16) | 1u, SS_OP_READ,
				  FW_REPLY_HEAP_BYTES, &r), 0);
	/* owner 0 (unknown) never takes over an owned session either */
	ss_fw_set_owner(fw, 0);
	CHECK_EQ(fw_session_open(fw, &again), -SS_EBUSY);
	free_fw(fw);
}

int main(void)
{
	test_heap();
	test_quotas();
	test_session_table();
	test_session_owners();
	return fx_failures ? 1 : 0;
}
