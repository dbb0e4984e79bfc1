/*
 * Object store internals shared by its .c files.
 *
 * Logical page layout (FTL LPNs):
 *   0, 1                          superblock copies, written alternately (seq & 1)
 *   table_first .. +table_pages   object table: recs_per_page fixed 512-byte records per page
 *   jrnl_first  .. +jrnl_pages    journal ring: one header unit + records per page
 *   data_first  .. +data_pages    object data, allocated in extents, and extent-tree nodes
 *
 * DRAM holds the whole object table. A change updates DRAM, then puts a full image of each
 * changed record in the open journal page; ss_os_flush() writes that page. A checkpoint
 * writes the dirty table pages and a superblock that moves the journal start past them.
 * The free-page bitmap, name index and child counts are derived at mount, never stored.
 *
 * Extents: a record holds the root of its object's extent tree (extent.c). At depth 0 the
 * root entries are the extents themselves; at depth d > 0 each root entry points at a node
 * page of level d - 1 and says how many object pages that subtree covers. Node pages are
 * copy-on-write data pages: a change writes new nodes before the journal record that points
 * at them, and the replaced nodes are freed like data pages, once the change is durable.
 */
#ifndef OBJSTORE_INTERNAL_H
#define OBJSTORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ss_buf.h"
#include "ss_objstore.h"
#include "ss_rt.h"

#define OS_UNIT 512u                 /* record size, and the journal page header size */
#define OS_REC_HDR 80u               /* encoded header bytes of a record */
#define OS_REC_VAR (OS_UNIT - OS_REC_HDR) /* name, then extents or inline data */
#define OS_EXT_SIZE 8u               /* lpn u32, pages u32 */

#define OS_MAGIC_REC 0x3152534fu     /* "OSR1": live record */
#define OS_MAGIC_DEL 0x4c45444fu     /* "ODEL": journal image of a freed slot */
#define OS_MAGIC_SB 0x534f5353u      /* "SSOS" */
#define OS_MAGIC_JRNL 0x4c4e524au    /* "JRNL" */
#define OS_MAGIC_XNODE 0x4e58534fu  /* "OSXN": extent-tree node page */
#define OS_MAGIC_ATTR 0x4158534fu   /* "OSXA": named-attribute page */
/* 3: records carry the LPN of their attribute page (bytes 20-23, zero: none). A version-2
 * store has zeros there and mounts as is; older firmware must not mount a store whose
 * attribute pages it would take for free pages.
 * 2: records carry an extent-tree depth (byte 18, zero in version 1) and the superblock the
 * tree fan-out limits. A version-1 store is a valid version-2 store of depth-0 records: it
 * mounts, and its next superblock is written as version 2. */
#define OS_VERSION 3u
#define OS_VERSION_MIN 1u

#define OS_SB_PAGES 2u
#define OS_NRESV 16u                 /* objects with a live preallocation at once */
#define OS_TXN_MAX 2u                /* records one operation journals (rename-replace) */
#define OS_MIN_PAGE 2048u
#define OS_MIN_DATA_PAGES 8u
#define OS_NOSLOT 0xffffffffu

#define OS_XT_MAXDEPTH 4u            /* 22 x 252^4 extents at the smallest fan-out: ample */
#define OS_XT_HDR 32u                /* node page header bytes, entries follow */
#define OS_XT_LIST 16u               /* node pages one operation tracks for commit/abort */

struct os_rec {
	uint64_t oid;
	uint64_t parent;
	uint64_t size;
	uint64_t ctime;
	uint64_t mtime;
	uint64_t atime;
	uint64_t page_writes;
	uint8_t type;        /* 0: free slot */
	uint8_t flags;
	uint16_t name_len;
	uint16_t nextents;   /* root entries of the extent tree; 0: data, if any, is inline */
	uint8_t depth;       /* 0: the root entries are the extents */
	uint8_t pad;
	uint32_t attr_lpn;   /* named-attribute page (attr.c); 0: none */
	uint8_t var[OS_REC_VAR]; /* name[name_len], pad to 4, extents or inline bytes */
};

struct os_sb {
	uint64_t seq;
	uint32_t page_size;
	uint32_t ftl_capacity;
	uint32_t max_objects;
	uint32_t table_first, table_pages;
	uint32_t jrnl_first, jrnl_pages;
	uint32_t data_first, data_pages;
	uint32_t jstart;
	uint64_t jseq;
	uint64_t next_gen;
	uint32_t root_extents;   /* 0: as many root entries as the record holds */
	uint32_t node_extents;   /* 0: as many entries as a node page holds */
	uint32_t version;
};

/* One level of the extent-tree path an operation is changing (level 0: the leaf). */
struct os_xt_level {
	uint8_t *buf;        /* node page image: header, then entries */
	uint32_t n;          /* entries */
	uint32_t lpn;        /* where the node now lives; OS_NOSLOT: not written yet */
	bool dirty;
};

/* Free pages set aside for an object's next appends, so parallel writers stay contiguous. */
struct os_resv {
	uint32_t slot;       /* 0: unused */
	uint32_t lpn;
	uint32_t pages;
	uint32_t stamp;
};

struct ss_objstore {
	struct ss_ftl *ftl;
	struct ss_buf *buf;       /* data pages go through the drive's buffer; NULL: straight */
	bool scan;                /* the read in progress is tasklet input (ss_os_read_scan) */
	bool read_start;          /* and its whole pages may arrive later (ss_os_read_scan_start) */
	uint64_t dram_used;
	uint32_t page_size;
	uint32_t recs_per_page;
	uint32_t nslots;          /* max_objects + 1: slot 0 is never used */
	uint32_t max_objects;
	uint32_t table_first, table_pages;
	uint32_t jrnl_first, jrnl_pages;
	uint32_t data_first, data_pages;
	uint32_t ftl_capacity;

	struct os_rec *recs;
	uint32_t *parent_slot;    /* OS_NOSLOT for free slots and the root */
	uint32_t *nchildren;
	uint32_t *hash;           /* slot per bucket, 0 empty; linear probing */
	uint32_t hash_mask;
	uint32_t *table_dirty;    /* bit per table page */
	uint32_t nobjects;
	uint64_t next_gen;
	uint32_t next_free_slot;  /* search hint */

	/* journal */
	uint8_t *jbuf;            /* open page image */
	uint32_t *jslots;         /* slot of each record in jbuf */
	uint32_t jcount, jcap;
	uint32_t jstart;          /* ring index replay starts at */
	uint64_t jstart_seq;
	uint32_t jhead;           /* ring index of the open page */
	uint64_t jhead_seq;
	bool jdirty;              /* open page changed since it was last written */
	bool data_dirty;          /* data written since the last FTL flush */
	uint64_t sb_seq;

	/* allocator */
	uint32_t *bitmap;         /* bit per data page, 1 = allocated, reserved or pending */
	uint32_t nfree;           /* clear bits */
	uint32_t nresv;           /* pages held in reservations */
	uint32_t cursor;
	uint32_t chunk_cap;
	struct os_resv resv[OS_NRESV];
	uint32_t resv_clock;
	uint32_t *pend;           /* bit per data page freed by changes not yet durable */
	uint32_t npending;        /* pages set in pend */
	uint32_t *nodes;          /* bit per data page holding an extent-tree node */
	uint32_t *check;          /* ss_os_check's own bitmap */
	struct {                  /* the first inconsistency found (os_problem) */
		uint32_t code, level, lpn;
		uint64_t oid;
	} problem;

	/* extent trees */
	uint32_t root_limit;      /* format parameters, 0: no limit below the space */
	uint32_t node_cap;
	struct os_xt_level xpath[OS_XT_MAXDEPTH];
	uint32_t xcache_lpn[OS_XT_MAXDEPTH];   /* lookup/walk cache, one node per level */
	uint8_t *xcache[OS_XT_MAXDEPTH];
	uint32_t xold[OS_XT_LIST], nxold;      /* nodes this operation replaced: freed at commit */
	uint32_t xnew[OS_XT_LIST], nxnew;      /* nodes it wrote: freed when it fails */
	bool xfinished;
	uint64_t xt_leaked;       /* pages lost to a failed operation until the next mount */

	uint8_t *iobuf;           /* one page */
	struct os_rec scratch;

	uint64_t journal_commits;
	uint64_t checkpoints;
};

/* ---- record.c: record fields, encoding ---- */
static inline uint32_t os_slot_of_oid(ss_oid_t oid) { return (uint32_t)oid; }
static inline uint32_t os_align4(uint32_t n) { return (n + 3u) & ~3u; }
uint32_t os_rec_inline_cap(uint32_t name_len);
uint32_t os_rec_max_extents(uint32_t name_len);
/** Root entries the record may hold (the record's room, or the format's lower limit). */
uint32_t os_rec_root_cap(const struct ss_objstore *os, const struct os_rec *r);
void os_rec_set_name(struct os_rec *r, const char *name, uint32_t len);
void os_rec_ext_get(const struct os_rec *r, uint32_t i, uint32_t *lpn, uint32_t *pages);
void os_rec_ext_set(struct os_rec *r, uint32_t i, uint32_t lpn, uint32_t pages);
uint8_t *os_rec_inline(const struct os_rec *r);
/** Pages the object's extents cover (the sum of its root entries). */
uint64_t os_rec_pages(const struct os_rec *r);
void os_rec_encode(const struct os_rec *r, uint32_t slot, uint8_t *out);
void os_rec_encode_free(uint32_t slot, ss_oid_t oid, uint8_t *out);
/** Decode one unit. \return 1 live, 0 free/deleted, -SS_EBADMSG corrupt. *slot from it. */
int os_rec_decode(const uint8_t *in, struct os_rec *r, uint32_t *slot);

/* ---- index.c: name hash, parent links, child counts ---- */
uint32_t os_slot(const struct ss_objstore *os, ss_oid_t oid);
uint32_t os_idx_find(const struct ss_objstore *os, ss_oid_t parent, const char *name, uint32_t len);
void os_idx_insert(struct ss_objstore *os, uint32_t slot);
void os_idx_remove(struct ss_objstore *os, uint32_t slot);
/** Link a just-filled slot into the index and its parent. */
void os_obj_attach(struct ss_objstore *os, uint32_t slot);
/** Unlink a slot from the index and its parent (the record is left as is). */
void os_obj_detach(struct ss_objstore *os, uint32_t slot);
uint32_t os_alloc_slot(struct ss_objstore *os);

/* ---- alloc.c: data pages ---- */
void os_alloc_reset(struct ss_objstore *os);
/** Mark a range used while rebuilding at mount. \return 0, -SS_EBADMSG on overlap/range. */
int os_alloc_mark(struct ss_objstore *os, uint32_t lpn, uint32_t pages);
int os_alloc_mark_node(struct ss_objstore *os, uint32_t lpn);
uint32_t os_alloc_available(const struct ss_objstore *os);
/** Pages an extension by `want` pages may need: data plus the extent-tree nodes. */
uint32_t os_alloc_need(const struct ss_objstore *os, const struct os_rec *r, uint32_t want);
/** Give `want` pages to object `slot`, appended to r's extents, inside an extent-tree
 *  operation on r (os_xt_begin). \return 0, -SS_ENOSPC, -SS_EIO. */
int os_alloc_extend(struct ss_objstore *os, uint32_t slot, struct os_rec *r, uint32_t want);
/** Take one page anywhere (an extent-tree node). \return 0 or -SS_ENOSPC. */
int os_alloc_one(struct ss_objstore *os, uint32_t *lpn);
/** Pages freed by a change: reused once the change is durable and they are trimmed. */
void os_alloc_pend(struct ss_objstore *os, uint32_t lpn, uint32_t pages);
void os_alloc_drop_resv(struct ss_objstore *os, uint32_t slot);
bool os_alloc_is_used(const struct ss_objstore *os, uint32_t lpn);
bool os_alloc_is_pending(const struct ss_objstore *os, uint32_t lpn);
bool os_alloc_is_reserved(const struct ss_objstore *os, uint32_t lpn);
/** Trim pending pages and return them to the free pool (after a durable commit). */
int os_alloc_release_pending(struct ss_objstore *os);
/** Trim every free data page (mount: pages of unflushed writes must read as zeros). */
int os_alloc_trim_free(struct ss_objstore *os);

/* ---- journal.c: journal, checkpoint, superblock ---- */
/** Make room for `n` records in the open page (before changing any DRAM state). */
int os_jrnl_reserve(struct ss_objstore *os, uint32_t n);
void os_jrnl_add(struct ss_objstore *os, uint32_t slot);
void os_jrnl_add_free(struct ss_objstore *os, uint32_t slot, ss_oid_t oid);
int os_jrnl_commit(struct ss_objstore *os);
int os_checkpoint(struct ss_objstore *os);
/** Replay the journal from the superblock's start; set the head past everything seen. */
int os_jrnl_replay(struct ss_objstore *os);
/** Read both superblock copies into `buf` (one page) and decode the newest valid one.
 *  \return 0, -SS_ENODATA (never formatted), -SS_EBADMSG (none intact), -SS_EIO. */
int os_sb_load(struct ss_ftl *ftl, uint8_t *buf, struct os_sb *sb);

/* io.c: data pages through the buffer when one is attached; metadata past it. */
int os_io_read(struct ss_objstore *os, uint32_t lpn, void *buf);
int os_io_read_page(struct ss_objstore *os, uint32_t lpn, void *buf);
int os_io_write(struct ss_objstore *os, uint32_t lpn, const void *src, enum ss_stream st);
int os_io_trim(struct ss_objstore *os, uint32_t lpn, uint32_t count);
int os_io_flush(struct ss_objstore *os);
int os_meta_write(struct ss_objstore *os, uint32_t lpn, const void *src);
void os_table_mark_dirty(struct ss_objstore *os, uint32_t slot);
int os_table_load(struct ss_objstore *os);

/* ---- extent.c: extent trees ---- */
/** Start changing r's extents: load the path to page `keep` - 1 and cut r's extents to
 *  `keep` pages (the pages past it are freed at commit). */
int os_xt_begin(struct ss_objstore *os, struct os_rec *r, uint64_t keep);
/** The last extent of r (inside an operation). \return false when r has none. */
bool os_xt_last(struct ss_objstore *os, const struct os_rec *r, uint32_t *lpn, uint32_t *pages);
int os_xt_append(struct ss_objstore *os, struct os_rec *r, uint32_t lpn, uint32_t pages);
/** Make r's root fit `max` entries (a rename to a longer name), deepening the tree. */
int os_xt_fit_root(struct ss_objstore *os, struct os_rec *r, uint32_t max);
/** Write the changed nodes, so that r (the new record) refers only to written pages. */
int os_xt_finish(struct ss_objstore *os, struct os_rec *r);
/** The change is installed: free what `old` held past `keep` pages and the nodes replaced. */
void os_xt_commit(struct ss_objstore *os, const struct os_rec *old, uint64_t keep);
/** The change failed and `r` is dropped: free what it was given past `keep` pages
 *  (UINT64_MAX: nothing but the nodes written), writing its tree first if need be. */
void os_xt_abort(struct ss_objstore *os, struct os_rec *r, uint64_t keep);
/** Free every page of r past `keep` pages, nodes included (the change is installed). */
void os_xt_release(struct ss_objstore *os, const struct os_rec *r, uint64_t keep);
/** The LPN of object page `pg` in *lpn (OS_NOSLOT past the extents). \return 0 or errno. */
int os_xt_lpn(struct ss_objstore *os, const struct os_rec *r, uint64_t pg, uint32_t *lpn);

struct os_xt_visit {
	uint64_t from, to;   /* object pages of interest */
	/* part of an extent inside [from, to), at object page pg */
	int (*extent)(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages);
	/* a node whose subtree covers object pages [start, end) and meets [from, to) */
	int (*node)(struct ss_objstore *os, void *arg, uint64_t start, uint64_t end, uint32_t lpn);
	void *arg;
	uint32_t depth_seen;
};
/** Records the first inconsistency found (later ones keep it). \return -SS_EBADMSG. */
int os_problem(struct ss_objstore *os, uint32_t code, uint64_t oid, uint32_t lpn, uint32_t level);

/** Visit r's extents (and nodes) in object order, checking every node read. */
int os_xt_walk(struct ss_objstore *os, const struct os_rec *r, struct os_xt_visit *v);
/** Total extents of r (its leaves). \return the count, or negative errno. */
int64_t os_xt_count(struct ss_objstore *os, const struct os_rec *r);

/* ---- namespace.c ---- */
/** \return 0, -SS_EINVAL, -SS_ENAMETOOLONG for a name of one component. */
int os_check_name(const char *name, uint32_t len);

/* ---- attr.c ---- */
/** Read and check object r's attribute page into `buf`. \return 0, -SS_EBADMSG, -SS_EIO. */
int os_attr_read(struct ss_objstore *os, const struct os_rec *r, uint8_t *buf);

/* ---- data.c ---- */
/** Spill inline data to a data page (when a rename shrinks the inline room). */
int os_data_spill(struct ss_objstore *os, uint32_t slot, struct os_rec *nr);
/** Free every data page of an object (it is being removed or replaced). */
void os_data_free_all(struct ss_objstore *os, uint32_t slot, const struct os_rec *r);

#endif
