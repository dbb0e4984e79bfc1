/*
 * Wear-aware object store and namespace, on the FTL's logical pages.
 *
 * Objects are files, directories, tasklet instances and tasklet output objects, each with
 * an id (oid), attributes and a name in a parent directory. Rename is atomic. Metadata is
 * placed apart from data, and hot data (outputs, rewrites) apart from cold (files written
 * once). Large objects are stored in extents of contiguous logical pages; small objects are
 * packed inline with their metadata.
 *
 * Durability: every metadata change is in a journal that ss_os_flush() makes durable; data
 * pages are written through to the FTL. After a crash an object shows a state that was
 * flushed, or a later one: a file that was not flushed is absent or a prefix of what was
 * written, never garbage (space freed by an unflushed change is not reused until the change
 * is durable).
 */
#ifndef SS_OBJSTORE_H
#define SS_OBJSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "ss_ftl.h"

struct ss_objstore;

typedef uint64_t ss_oid_t;

#define SS_OID_NONE 0
#define SS_OID_ROOT 1
#define SS_NAME_MAX 255

enum ss_obj_type {
	SS_OBJ_FILE = 1,
	SS_OBJ_DIR = 2,
	SS_OBJ_OUTPUT = 3,   /* a tasklet's output object */
};

/* ss_os_create flags */
#define SS_OS_EXCL       0x1u  /* fail with -SS_EEXIST when the name exists */
/* ss_os_write flags */
#define SS_OS_FUA        0x1u  /* data and size durable before return */
/* ss_os_rename flags */
#define SS_OS_NOREPLACE  0x1u  /* fail with -SS_EEXIST when the target exists */

struct ss_obj_stat {
	ss_oid_t oid;
	ss_oid_t parent;
	uint32_t type;            /* enum ss_obj_type */
	uint32_t nchildren;       /* directories: entries */
	uint64_t size;            /* bytes */
	uint64_t ctime_ns;        /* host wall-clock times, as given by the host */
	uint64_t mtime_ns;
	uint64_t atime_ns;
	uint64_t page_writes;     /* wear caused by this object: pages written for it */
	uint32_t extent_count;
	uint16_t name_len;
	char name[SS_NAME_MAX + 1];
};

struct ss_extent {
	uint64_t offset;   /* byte offset in the object of the extent's first page */
	uint32_t lpn;      /* first logical page */
	uint32_t pages;
};

struct ss_dirent {
	ss_oid_t oid;
	uint32_t type;
	uint16_t name_len;
	char name[SS_NAME_MAX + 1];
};

struct ss_os_params {
	uint32_t max_objects;      /* size of the object table */
	/* Extent-tree fan-out limits, 0 for none (the room a record or node page has). Tests
	 * set them low to build deep trees from small objects; node_extents needs
	 * root_extents <= node_extents. */
	uint32_t root_extents;
	uint32_t node_extents;
};

void ss_os_default_params(const struct ss_ftl *ftl, struct ss_os_params *p);
uint64_t ss_os_dram_needed(const struct ss_geometry *geo, const struct ss_os_params *p);

/** Create an empty store with only the root directory. \return 0 or negative errno. */
int ss_os_format(struct ss_objstore **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		 const struct ss_os_params *params);

/** Mount: load the metadata checkpoint, replay the journal. A store of format version 1
 *  (extents inline only) mounts and is upgraded to version 2 by its next checkpoint.
 *  \return 0, -SS_ENODATA when never formatted, -SS_EBADMSG when metadata is corrupt,
 *  -SS_EPROTO when the store was written by a newer format version. */
int ss_os_mount(struct ss_objstore **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size);

/** Route object data through the drive's buffer from now on (NULL: straight to the FTL).
 *  Metadata never goes through it; every flush of the store writes it back first. */
struct ss_buf;
void ss_os_attach_buffer(struct ss_objstore *os, struct ss_buf *buf);

/** ss_os_read for tasklet input: served from the drive's buffer where it holds the pages,
 *  never cached there, never read ahead. */
int ss_os_read_scan(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
		    uint32_t len, uint32_t *nread);

/** ss_os_read_scan whose whole pages may still be on their way into `buf` when it returns
 *  (ss_ftl_read_start), overlapping what the caller does next; they are in place, or their
 *  failure known, by ss_os_read_wait. Leave `buf` alone until then. */
int ss_os_read_scan_start(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf,
			  uint32_t len, uint32_t *nread);
/** Wait for the pages ss_os_read_scan_start started. \return 0, or the first failure to
 *  read one (-SS_EIO). */
int ss_os_read_wait(struct ss_objstore *os);

/** DRAM the store carved from what it was given (the rest is free for others). */
uint64_t ss_os_dram_used(const struct ss_objstore *os);

/** Checkpoint all metadata and flush. */
int ss_os_unmount(struct ss_objstore *os);

/**
 * Resolve a '/'-separated absolute path ("/" is the root). Empty components and "." /
 * ".." are invalid (-SS_EINVAL).
 * \return 0, -SS_ENOENT, -SS_ENOTDIR when a middle component is not a directory,
 *         -SS_ENAMETOOLONG.
 */
int ss_os_lookup_path(struct ss_objstore *os, const char *path, uint32_t len, ss_oid_t *oid);

/** Look a name up in a directory. \return 0, -SS_ENOENT, -SS_ENOTDIR. */
int ss_os_lookup(struct ss_objstore *os, ss_oid_t dir, const char *name, uint32_t len,
		 ss_oid_t *oid);

/**
 * Create an object named `name` in directory `dir`. Names are 1..SS_NAME_MAX bytes without
 * '/' or NUL. Without SS_OS_EXCL an existing object of the same type is returned as is.
 * \return 0, -SS_EEXIST, -SS_ENOENT (no dir), -SS_ENOTDIR, -SS_EINVAL (bad name),
 *         -SS_ENAMETOOLONG, -SS_ENOSPC (object table or flash full).
 */
int ss_os_create(struct ss_objstore *os, ss_oid_t dir, const char *name, uint32_t len,
		 enum ss_obj_type type, unsigned flags, uint64_t now_ns, ss_oid_t *oid);

/** Write `len` bytes at `off`, growing the object. All or nothing: when the pages it needs
 *  are not free, nothing is written and the object is unchanged. An object takes any number
 *  of extents (an extent tree), so it grows until the drive is full.
 *  \return 0, -SS_EISDIR, -SS_ENOSPC (no free pages for the data and its extent-tree
 *  nodes), -SS_ENOENT, -SS_EFBIG (past the data capacity), -SS_EIO. */
int ss_os_write(struct ss_objstore *os, ss_oid_t oid, uint64_t off, const void *buf,
		uint32_t len, unsigned flags, uint64_t now_ns);

/** Read up to `len` bytes at `off`; `*nread` is short at end of object.
 *  \return 0, -SS_EISDIR, -SS_ENOENT. */
int ss_os_read(struct ss_objstore *os, ss_oid_t oid, uint64_t off, void *buf, uint32_t len,
	       uint32_t *nread);

/** Set the size; shrinking frees pages (reused once the change is flushed), growing reads
 *  as zeros. \return 0, -SS_EISDIR, -SS_ENOSPC, -SS_EFBIG, -SS_ENOENT. */
int ss_os_truncate(struct ss_objstore *os, ss_oid_t oid, uint64_t size, uint64_t now_ns);

/** Remove an object; a directory must be empty. \return 0, -SS_ENOTEMPTY, -SS_ENOENT,
 *  -SS_EBUSY for the root. */
int ss_os_remove(struct ss_objstore *os, ss_oid_t oid);

/**
 * Atomically move `oid` to `new_dir`/`name`. An existing target is replaced when it is a
 * file and `oid` is a file, unless SS_OS_NOREPLACE. Moving a directory below itself is
 * -SS_EINVAL.
 * Times are unchanged.
 * \return 0, -SS_EEXIST, -SS_ENOENT, -SS_ENOTDIR, -SS_EISDIR, -SS_EINVAL, -SS_EBUSY (the
 *         root), -SS_ENOSPC (a packed object must move to a page, or the extent tree's root
 *         to a node page, to make room for a longer name, and none is free).
 */
int ss_os_rename(struct ss_objstore *os, ss_oid_t oid, ss_oid_t new_dir, const char *name,
		 uint32_t len, unsigned flags, uint64_t now_ns);

int ss_os_stat(struct ss_objstore *os, ss_oid_t oid, struct ss_obj_stat *st);

int ss_os_set_times(struct ss_objstore *os, ss_oid_t oid, uint64_t mtime_ns, uint64_t atime_ns);

/**
 * List a directory in a stable order, resuming after `*cursor` (0 to start). Fills up to
 * `max` entries and advances `*cursor`. Entries removed or added during a listing do not
 * disturb the others.
 * \return the number of entries filled (0 at the end), or negative errno.
 */
int ss_os_list(struct ss_objstore *os, ss_oid_t dir, uint64_t *cursor, struct ss_dirent *out,
	       uint32_t max);

/**
 * The logical pages behind bytes [off, off+len) of an object, in object order. Inline
 * (packed) objects have no extents and return 0.
 * \return the number of extents filled, or negative errno.
 */
int ss_os_extents(struct ss_objstore *os, ss_oid_t oid, uint64_t off, uint64_t len,
		  struct ss_extent *out, uint32_t max);

/** Make every completed change durable (journal, then FTL flush). */
int ss_os_flush(struct ss_objstore *os);

struct ss_os_stats {
	uint64_t capacity_bytes;
	uint64_t free_bytes;
	uint32_t objects;
	uint32_t max_objects;
	uint64_t journal_commits;
	uint64_t checkpoints;
};

void ss_os_get_stats(const struct ss_objstore *os, struct ss_os_stats *st);

struct ss_ftl *ss_os_ftl(struct ss_objstore *os);

/**
 * Whether logical pages [lpn, lpn+count) all belong to live objects' extents (not free,
 * not merely reserved, not freed-but-not-yet-durable). Raw sector writes are allowed only
 * there: anything else is not the store's to keep and is trimmed at the next mount.
 */
bool ss_os_lpns_owned(const struct ss_objstore *os, uint32_t lpn, uint32_t count);

/*
 * Named attributes: small (name, value) pairs per object, kept in one metadata page the
 * object record points at. A change writes a new page, then journals the record that points
 * at it, so a crash recovers the old set or the new one. Removed with the object, kept
 * across rename.
 */
#define SS_OS_ATTR_NAME_MAX 255u   /* bytes of one name */
#define SS_OS_ATTRS_MAX 1024u      /* bytes of every name and value of one object, plus 3 per attribute */
/* ss_os_set_attr flags */
#define SS_OS_ATTR_CREATE  0x1u  /* fail with -SS_EEXIST when the name exists */
#define SS_OS_ATTR_REPLACE 0x2u  /* fail with -SS_ENODATA when it does not */

/** \return 0, -SS_ENOENT (object), -SS_EINVAL (empty name or NUL in it), -SS_ENAMETOOLONG
 *  (> SS_OS_ATTR_NAME_MAX), -SS_E2BIG (the object's attributes would pass SS_OS_ATTRS_MAX),
 *  -SS_EEXIST / -SS_ENODATA (flags), -SS_ENOSPC, -SS_EIO. */
int ss_os_set_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		   const void *value, uint32_t value_len, unsigned flags);
/** Copy up to `max` bytes of the value to `buf`. \return the value's full length,
 *  -SS_ENODATA (no such attribute), or as ss_os_set_attr. */
int ss_os_get_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len,
		   void *buf, uint32_t max);
/** The names, each followed by a NUL, in the order they were set; up to `max` bytes copied.
 *  \return the full length of the list, or negative errno. */
int ss_os_list_attrs(struct ss_objstore *os, ss_oid_t oid, char *buf, uint32_t max);
/** \return 0, -SS_ENODATA (no such attribute), or as ss_os_set_attr. */
int ss_os_remove_attr(struct ss_objstore *os, ss_oid_t oid, const char *name, uint32_t name_len);

/* What ss_os_check (or the mount's own check) found wrong first. */
enum ss_os_problem {
	SS_OS_CONSISTENT = 0,
	SS_OS_P_NODE_OUTSIDE = 1,    /* an extent-tree node outside the data region */
	SS_OS_P_NODE_UNREADABLE = 2, /* a node page that cannot be read (its flash page fails the
				      * FTL's CRC), or was never written */
	SS_OS_P_NODE_MAGIC = 3,      /* a node page that is not an extent-tree node */
	SS_OS_P_NODE_CHECKSUM = 4,   /* a node whose CRC-32C does not match its bytes */
	SS_OS_P_NODE_OWNER = 5,      /* a node that belongs to another object */
	SS_OS_P_NODE_LEVEL = 6,      /* a node at another level than its parent says */
	SS_OS_P_NODE_COUNT = 7,      /* a node with no entries or more than fit */
	SS_OS_P_EXTENT_EMPTY = 8,    /* an extent (or child) of 0 pages */
	SS_OS_P_COUNT_MISMATCH = 9,  /* a parent's page count disagrees with its child's */
	SS_OS_P_DEPTH = 10,          /* a tree deeper than the store allows */
	SS_OS_P_SIZE = 11,           /* the extents do not cover the object's size */
	SS_OS_P_OUTSIDE = 12,        /* an extent outside the data region */
	SS_OS_P_CLAIMED_TWICE = 13,  /* a page in two extents or nodes */
	SS_OS_P_ALLOCATOR = 14,      /* a live page the allocator holds free, pending or reserved */
	SS_OS_P_RECORD = 15,         /* an object record that contradicts itself */
	SS_OS_P_NAMESPACE = 16,      /* a missing or non-directory parent, a duplicate, a cycle */
	SS_OS_P_METADATA = 17,       /* superblocks, object table or journal inconsistent */
	SS_OS_P_SUPERBLOCK = 18,     /* no intact superblock: neither copy reads and checks out */
	SS_OS_P_TABLE_UNREADABLE = 19,   /* an object-table page the flash cannot give back */
	SS_OS_P_JOURNAL_UNREADABLE = 20, /* a journal page the flash cannot give back */
	SS_OS_P_DATA_UNREADABLE = 21,    /* a data page of an object the flash cannot give back
					  * (its flash page fails its CRC) */
};

struct ss_os_check_report {
	uint32_t problem;          /* enum ss_os_problem: the first found, 0 when consistent */
	uint32_t problem_level;    /* the tree level of the node concerned (0: leaves) */
	uint64_t problem_oid;      /* the object concerned (0: none or unknown) */
	uint32_t problem_lpn;      /* the logical page concerned (UINT32_MAX: none) */
	uint32_t objects;          /* live objects */
	uint32_t tree_objects;     /* objects whose extents are a tree (depth > 0) */
	uint32_t max_depth;
	uint64_t extents;          /* leaf extents of every object */
	uint64_t node_pages;       /* extent-tree node pages */
	uint64_t data_pages;       /* pages under extents */
	uint64_t leaked_pages;     /* allocated, yet neither live, pending nor reserved */
	uint64_t attr_pages;       /* named-attribute pages */
};

/**
 * fsck of the object store: reads every extent tree and checks each node (checksum, owner,
 * level, entry counts against the parent's), that each object's extents cover its size,
 * that no page is claimed twice, that the allocator agrees (every claimed page is
 * allocated and not pending or reserved), and reads every data page, which the FTL checks
 * against the CRC it wrote with it (a page still in the drive's buffer is read from there). Pages a failed operation left allocated are
 * counted in leaked_pages (freed at the next mount), not an error.
 * \return 0, -SS_EBADMSG (inconsistent; the first problem stops the check and is in
 * rep->problem*), -SS_EIO.
 */
int ss_os_check(struct ss_objstore *os, struct ss_os_check_report *rep);

/** ss_os_mount, and when it fails with -SS_EBADMSG, what its check of the store found
 *  wrong, in rep->problem* (the counts are 0). */
int ss_os_mount_report(struct ss_objstore **out, struct ss_ftl *ftl, void *dram,
		       uint64_t dram_size, struct ss_os_check_report *rep);

/** A short English name of problem p ("extent-tree node checksum mismatch"). */
const char *ss_os_problem_name(uint32_t p);

/**
 * The logical pages the store keeps for its metadata (superblocks, object table, journal):
 * [*first_lpn, *first_lpn + *count). Raw LBA writes must not land there.
 */
void ss_os_metadata_range(const struct ss_objstore *os, uint32_t *first_lpn, uint32_t *count);

/**
 * Read the parameters a formatted store was made with, so the caller can size DRAM for
 * ss_os_mount (ss_os_dram_needed). `scratch` must hold one flash page.
 * \return 0, -SS_ENODATA when never formatted, -SS_EBADMSG, -SS_ENOMEM (scratch too small).
 */
int ss_os_probe(struct ss_ftl *ftl, void *scratch, uint64_t scratch_size, struct ss_os_params *p);

#endif
