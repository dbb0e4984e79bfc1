/*
 * Shared pieces of the built-in tasklets: their descriptors, the trailer, projected-field
 * encoding and the group table used by group-aggregate and top-N.
 */
#ifndef TASKLETS_INTERNAL_H
#define TASKLETS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smartssd/builtin_tasklets.h"
#include "smartssd/tasklet.h"

extern const struct ss_tasklet_desc ss_bt_group_agg;
extern const struct ss_tasklet_desc ss_bt_topn;
extern const struct ss_tasklet_desc ss_bt_filter;
extern const struct ss_tasklet_desc ss_bt_grep;
extern const struct ss_tasklet_desc ss_bt_dram_probe;
#ifndef SS_TASKLETS_NO_PARQUET
extern const struct ss_tasklet_desc ss_bt_parquet_scan;
#endif

/** Emit the 32-byte trailer. \return 0 or the emit error. */
int bt_emit_trailer(struct ss_tasklet_ctx *ctx, uint32_t id, uint64_t records_in,
		    uint64_t items_out, uint64_t aux);

/* ---- fields ----------------------------------------------------------------------------- */

/* Numeric fields: every type but BYTES (floats read as their order keys). */
bool bt_field_is_int(const struct ss_layout *l, uint32_t idx);
bool bt_field_is_signed(const struct ss_layout *l, uint32_t idx);
bool bt_field_is_float(const struct ss_layout *l, uint32_t idx);
/* The bits an integer field's values take: a bit field's bits, else 8 x its width. */
uint32_t bt_field_bits(const struct ss_layout *l, uint32_t idx);
bool bt_field_is_bytes(const struct ss_layout *l, uint32_t idx);

/* ---- projected fields (builtin_tasklets.h, "projected fields") ---------------------------- */

/** \return true when every index names a field of the layout. */
bool bt_proj_valid(const struct ss_layout *l, const uint8_t *proj, uint32_t n);
/** Largest encoding of one record's projection. */
uint32_t bt_proj_max(const struct ss_layout *l, const uint8_t *proj, uint32_t n);
/** Encode into `out` (bt_proj_max bytes). \return the length written. */
uint32_t bt_proj_encode(struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			const uint8_t *proj, uint32_t n, uint8_t *out);

/* ---- predicate trees (builtin_tasklets.h, "filter") ------------------------------------ */

struct bt_pnode {
	uint8_t op;
	uint8_t field;
	uint8_t nchild;
	bool sgn;
	uint16_t len;        /* bytes leaves */
	uint16_t next;       /* index of the node after this subtree */
	uint64_t k;          /* integer leaves */
	const uint8_t *bytes;
};

struct bt_pred {
	uint16_t nnodes;     /* 0: every record matches */
	struct bt_pnode *nodes;
};

/** Decode `len` bytes of tree (0: no tree) against the layout, nodes from the budget.
 *  \return 0, -SS_EINVAL for a bad tree, -SS_ENOMEM. */
int bt_pred_init(struct ss_tasklet_ctx *ctx, const struct ss_layout *l, const uint8_t *tree,
		 uint32_t len, struct bt_pred *pred);
/** \return 1 when the record matches (always without a tree), 0 when not, -SS_ETIME. */
int bt_pred_eval(struct ss_tasklet_ctx *ctx, const struct bt_pred *pred, const struct ss_record *r);

/* Where a tree's leaves read a row that is not a record of the layout (the Parquet scan's
 * decoded columns): the field's value as ss_field_u64 gives it (*ok 0 when NULL), or its
 * bytes (NULL when NULL). The layout given to bt_pred_init types the fields. */
struct bt_row_src {
	uint64_t (*u64)(struct ss_tasklet_ctx *ctx, const void *row, unsigned field, int *ok);
	const uint8_t *(*bytes)(struct ss_tasklet_ctx *ctx, const void *row, unsigned field,
				uint32_t *len);
};
/** bt_pred_eval of `row` read through `src`. */
int bt_pred_eval_row(struct ss_tasklet_ctx *ctx, const struct bt_pred *pred,
		     const struct bt_row_src *src, const void *row);

/* ---- group table: (key1, key2) -> slot in [0, cap), open addressing in the budget -------- */

struct bt_groups {
	uint64_t *k1;
	uint64_t *k2;
	uint32_t *index;   /* slot + 1; 0 empty */
	uint32_t mask;     /* index entries - 1 */
	uint32_t cap;      /* groups held at most */
	uint32_t n;        /* groups held, in slots [0, n) in order of arrival */
};

/** Bytes the table itself takes per group (keys and index), for sizing from a budget. */
#define BT_GROUPS_BYTES_PER_GROUP 32u

/** Allocate a table of `cap` groups from the budget. \return 0, -SS_ENOMEM. */
int bt_groups_init(struct ss_tasklet_ctx *ctx, struct bt_groups *g, uint32_t cap);

/* Counted per probe: an index entry read and two 8-byte keys compared. */
#define BT_GROUPS_PROBE_DRAM 5u
#define BT_GROUPS_PROBE_STEPS 4u

/** Look (k1, k2) up, counting nothing: its slot, or -1 when new (*pos is then where
 *  bt_groups_insert puts it), -SS_ENOSPC when new and the table is full. *probes: index
 *  entries read. */
int64_t bt_groups_find(const struct bt_groups *g, uint64_t k1, uint64_t k2, uint32_t *pos,
		       uint32_t *probes);
/** Add the new (k1, k2) at the *pos bt_groups_find gave. \return its slot. */
uint32_t bt_groups_insert(struct bt_groups *g, uint32_t pos, uint64_t k1, uint64_t k2);

/** The slot of (k1, k2), adding it when new (*fresh = true), counted.
 *  \return the slot, -SS_ENOSPC when new and the table is full, -SS_ETIME. */
int64_t bt_groups_get(struct ss_tasklet_ctx *ctx, struct bt_groups *g, uint64_t k1, uint64_t k2,
		      bool *fresh);

void bt_groups_clear(struct ss_tasklet_ctx *ctx, struct bt_groups *g);

/* ---- top-N table: per group the n best entries, spilled when the groups outgrow it ------- */

struct bt_topn_ent {
	uint64_t value;
	uint64_t seq;       /* input order, for ties */
	uint32_t len;       /* payload bytes */
	uint32_t pslot;     /* payload slot of this entry */
};

struct bt_topn {
	uint16_t n;         /* kept per group */
	bool smallest;      /* keep the smallest values, not the largest */
	bool sgn;           /* values compare signed */
	uint32_t slot;      /* payload bytes per entry */
	struct bt_groups g;
	uint32_t *used;     /* entries per group */
	struct bt_topn_ent *ent;   /* n per group, a heap with the worst at its root */
	uint8_t *payload;          /* n * slot per group */
	uint64_t items;
	uint64_t spills;
};

/* Writes an entering entry's payload at dst and sets e->len. */
typedef void (*bt_topn_capture_fn)(struct ss_tasklet_ctx *ctx, void *arg, struct bt_topn_ent *e,
				   uint8_t *dst);

#ifndef SS_TASKLETS_NO_PARQUET
/* Shared by top-n and parquet-scan. The board's build has top-n alone, whose topn.c keeps
 * them static there, so that they fold into its one caller (BT_TOPN_API). */
#define BT_TOPN_API
/** Size the table from the budget: entries of up to `payload` bytes, `max_groups` groups
 *  (0: what the budget holds). n, smallest and sgn set by the caller. \return 0, -SS_ENOMEM. */
int bt_topn_init(struct ss_tasklet_ctx *ctx, struct bt_topn *t, uint32_t n, uint32_t payload,
		 uint32_t max_groups);
/** Offer entry e (value, seq) of group (k1, k2), spilling when the groups are full; when it
 *  enters its group's n best, capture writes its payload. Counted.
 *  \return 0, -SS_ETIME or an emit error. */
int bt_topn_add(struct ss_tasklet_ctx *ctx, struct bt_topn *t, uint64_t k1, uint64_t k2,
		struct bt_topn_ent *e, bt_topn_capture_fn capture, void *arg);
/** Write every group's entries, best first (top-n's items), and empty the groups. */
int bt_topn_emit(struct ss_tasklet_ctx *ctx, struct bt_topn *t);
#else
#define BT_TOPN_API static
#endif

/** How many groups of `per_group` bytes of own state fit in what is left of the budget
 *  (at least 1, so an allocation for a budget too small fails as over budget). */
uint32_t bt_groups_fit(const struct ss_tasklet_ctx *ctx, uint32_t per_group, uint32_t max_groups);

#ifdef PQS_PROFILE
struct ss_pq_stats;

/* A test build's tally of parquet-scan's counted work by phase (tests/pq_scan_profile.c):
 * pqs_mark charges what was counted since the last mark to the phase it names then, and
 * names the next; PQS_ENTER starts a callback, PQS_LEAVE ends it. */
enum pqs_phase {
	PQS_ENTER = -1, PQS_LEAVE = -2,
	PQS_OTHER = 0, PQS_ALLOC_COLUMNS, PQS_ALLOC_GROUPS, PQS_GATHER, PQS_DECODE, PQS_FILTER,
	PQS_AGGREGATE, PQS_OUTPUT, PQS_EMIT_GROUPS, PQS_NPHASES
};
void pqs_mark(struct ss_tasklet_ctx *ctx, int phase);
/** A finished run's decoder stats, to break PQS_DECODE down. */
void pqs_decoder(const struct ss_pq_stats *st);
#define PQS_MARK(ctx, phase) pqs_mark(ctx, phase)
#else
#define PQS_MARK(ctx, phase) ((void)0)
#endif

#endif
