/*
 * The host–drive object protocol, shared byte for byte by the firmware (cmd/) and the host
 * library (native/): both include this folder (protocol/include) and nothing private of the
 * other. native/PROTOCOL.md is its prose definition; keep the two in step.
 *
 * Framing
 *   Vendor object commands travel as packets inside two vendor-specific ATA commands
 *   (ATA/ATAPI-x command codes 80h-8Fh are vendor specific):
 *     SS_ATA_OBJ_SEND (8Ah, DMA data-out): one request packet; LBA[31:0] = the packet's tag.
 *     SS_ATA_OBJ_RECV (8Bh, DMA data-in):  the reply to the request with that tag.
 *   A packet is a 64-byte header plus payload, padded with zeros to a multiple of 512 bytes
 *   (the ATA sector count is its length in sectors). All integers are little-endian.
 *   The CRC-32C covers the header (crc field as zero) and the payload_len payload bytes.
 *
 *   SATA has no bidirectional commands, so every request is a SEND and every reply a RECV.
 *   The drive keeps each reply in a slot keyed by tag until it is received, so SEND/RECV
 *   pairs from different host processes interleave safely. A host library allocates its
 *   tags from a session obtained with SS_OP_OPEN_SESSION (tag = session << 16 | seq), so
 *   tags of different processes never collide.
 */
#ifndef SS_PROTO_H
#define SS_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "ss_proto_replies.h"
#include "ss_wire.h"

#define SS_ATA_OBJ_SEND 0x8A
#define SS_ATA_OBJ_RECV 0x8B

#define SS_PKT_MAGIC   0x31445353u   /* "SSD1" little-endian */
#define SS_REPLY_MAGIC 0x52445353u   /* "SSDR" */
#define SS_PROTO_VERSION 1
#define SS_SECTOR 512u
#define SS_PKT_HDR_SIZE 64u
/* Largest packet either way: 64 KiB sectors limit of one ATA EXT command is far above this. */
#define SS_PKT_MAX_BYTES ((1u << 20) + 4096u)
#define SS_PKT_MAX_PAYLOAD (SS_PKT_MAX_BYTES - SS_PKT_HDR_SIZE)

/* Request header. */
struct ss_pkt_hdr {
	uint32_t magic;        /* SS_PKT_MAGIC */
	uint16_t version;      /* SS_PROTO_VERSION */
	uint16_t opcode;       /* enum ss_opcode */
	uint32_t tag;          /* equals LBA[31:0] of the SEND that carries it */
	uint32_t flags;        /* per opcode */
	uint64_t oid;          /* object the command is about, when it is about one */
	uint64_t offset;       /* byte offset, or an opcode-specific argument */
	uint64_t length;       /* byte length, or an opcode-specific argument */
	uint64_t host_time_ns; /* host wall clock, for object times */
	uint32_t payload_len;  /* bytes of payload after the header */
	uint32_t reply_max;    /* largest reply payload the host will RECV */
	uint32_t reserved;
	uint32_t crc32c;
} __attribute__((packed));

/* Reply header (RECV data starts with it). */
struct ss_reply_hdr {
	uint32_t magic;        /* SS_REPLY_MAGIC */
	uint16_t version;
	uint16_t opcode;       /* echoed */
	uint32_t tag;          /* echoed */
	int32_t status;        /* 0, or a negative SS_E* errno */
	uint32_t reason;       /* enum ss_reason: what exactly was wrong */
	uint32_t payload_len;
	uint64_t value0;       /* opcode-specific results (oid, size, progress...) */
	uint64_t value1;
	uint64_t value2;
	uint32_t reserved[3];  /* zero */
	uint32_t crc32c;       /* header (crc as zero) + payload */
} __attribute__((packed));

_Static_assert(sizeof(struct ss_pkt_hdr) == SS_PKT_HDR_SIZE, "request header is 64 bytes");
_Static_assert(sizeof(struct ss_reply_hdr) == SS_PKT_HDR_SIZE, "reply header is 64 bytes");

/*
 * The opcodes, X(NAME, code), in code order: the one list every other description is
 * generated from (enum ss_opcode, the host's opcode names, the firmware's opcode table in
 * cmd/cmd_ops.c, which a test checks against native/PROTOCOL.md section 4).
 */
#define SS_PROTO_OPCODES(X)                                                                \
	X(OPEN_SESSION, 0x01)   /* reply value0 = session id (16 bits) */                  \
	X(CLOSE_SESSION, 0x02)  /* drops the session's unreceived replies */               \
	X(DRIVE_INFO, 0x03)     /* reply payload: struct ss_drive_info */                  \
	/* namespace and object data (payload: a path, unless stated) */                   \
	X(LOOKUP, 0x10)         /* -> value0 oid, payload struct ss_wire_stat */           \
	X(CREATE, 0x11)         /* offset = type, flags SS_CREATE_*, creates missing       \
				   parents with SS_CREATE_PARENTS -> value0 oid */         \
	X(WRITE, 0x12)          /* oid, offset; payload = data; flags SS_WRITE_FUA,       \
				   SS_WRITE_ORDERED */                                     \
	X(READ, 0x13)           /* oid, offset, length -> payload data */                  \
	X(TRUNCATE, 0x14)       /* oid, length = new size */                               \
	X(REMOVE, 0x15)         /* path; flags SS_REMOVE_RECURSIVE */                      \
	X(RENAME, 0x16)         /* payload: src path NUL dst path; flags SS_RENAME_* */    \
	X(STAT, 0x17)           /* oid, or path when oid = 0 -> payload ss_wire_stat */    \
	X(LIST, 0x18)           /* path (or oid when no payload), offset = cursor ->       \
				   payload ss_wire_dirent..., value0 = next cursor (0 at   \
				   end), value1 = entries */                               \
	X(SET_TIMES, 0x19)      /* oid, offset = mtime, length = atime (UINT64_MAX keeps) */ \
	X(EXTENTS, 0x1A)        /* oid, offset, length -> payload ss_wire_extent... */     \
	X(FLUSH, 0x1B)          /* everything durable */                                   \
	X(FSSTAT, 0x1C)         /* -> payload ss_wire_fsstat */                            \
	/* in-storage processing (Kang §6.4.3) */                                          \
	X(CREATE_OBJECT, 0x20)  /* payload ss_wire_create_tasklet + params, length = cap   \
				   on the run's output bytes (0: none); or, with flags     \
				   SS_CREATE_OBJ_OUTPUT, a path for an output object       \
				   -> value0 = instance id / oid */                        \
	X(EXECUTE_OBJECT, 0x21) /* oid = instance; payload ss_wire_input... */             \
	X(READ_OBJECT, 0x22)    /* oid = instance; offset, length into its output ->       \
				   payload ss_wire_progress + output bytes. The progress   \
				   poll is this command with length 0. */                  \
	X(DESTROY_OBJECT, 0x23) /* oid = instance */                                       \
	X(ISP_QUEUE, 0x24)      /* -> payload ss_wire_isp_queue: the runs executing, their \
				   pages left and the drive's estimate of their time */    \
	/* eBPF tasklet programs, verified and kept by the drive (PROTOCOL.md 4.7) */      \
	X(TASKLET_LOAD, 0x25)   /* length = name bytes; payload = name, ELF object (clang  \
				   -target bpf); flags SS_TASKLET_LOAD_REPLACE -> value0   \
				   instructions; refused: PROGRAM_REFUSED, value0 = the    \
				   verifier's reason (ss_bpf_reasons.h), value1 = index */ \
	X(TASKLET_LIST, 0x26)   /* -> payload ss_wire_program..., value0 = programs */    \
	X(TASKLET_REMOVE, 0x27) /* payload = name */                                       \
	X(COUNTERS, 0x30)       /* -> payload ss_wire_counters (FTL, energy inputs) */    \
	X(CHECK, 0x31)          /* the object store's fsck -> payload ss_wire_check */     \
	/* solid-state cache (FlashTier SSC); oid = first cache block, length = blocks */    \
	X(SSC_INFO, 0x40)       /* -> payload ss_wire_ssc_info (share 0: no cache) */      \
	X(SSC_WRITE_DIRTY, 0x41) /* payload = length x block_size; durable on reply ->     \
				    value0 blocks written */                                \
	X(SSC_WRITE_CLEAN, 0x42) /* as WRITE_DIRTY; group-committed, never stale */       \
	X(SSC_READ, 0x43)       /* -> value0 blocks present; payload = present bitmap     \
				   (SS_SSC_BITMAP_BYTES(length)) + length x block_size */   \
	X(SSC_EVICT, 0x44)      /* durable on reply -> value0 blocks */                    \
	X(SSC_CLEAN, 0x45)      /* may revert to dirty after a crash -> value0 blocks */   \
	X(SSC_EXISTS, 0x46)     /* -> value0 dirty blocks; payload = present-and-dirty     \
				   bitmap, ceil(length / 8) bytes */                       \
	X(SSC_SCAN, 0x47)       /* oid = instance (FIXED records), offset = file bytes;    \
				   payload ss_wire_ssc_scan_range... of one file, in file  \
				   order -> runs the instance over the present blocks'     \
				   whole records now; value0 records, value1 blocks used,  \
				   value2 runs; payload ss_wire_ssc_scan_run... */         \
	/* named attributes of an object; oid = the object */                              \
	X(SET_ATTR, 0x50)       /* length = name bytes; payload = name, value;             \
				   flags SS_ATTR_CREATE / SS_ATTR_REPLACE */               \
	X(GET_ATTR, 0x51)       /* payload = name -> value0 value bytes, payload value */  \
	X(LIST_ATTRS, 0x52)     /* -> value0 list bytes, payload names each NUL-ended */   \
	X(REMOVE_ATTR, 0x53)    /* payload = name */                                       \
	/* open-channel and zoned drives (PROTOCOL.md 4.8): the host places the data;       \
	   an address is struct ss_wire_ppa, a zone or chunk its first LBA */              \
	X(GEOMETRY, 0x60)       /* -> payload ss_wire_geometry (either interface) */       \
	X(CHUNK_REPORT, 0x61)   /* offset = first chunk, length = chunks ->                \
				   value0 chunks, payload ss_wire_chunk... */              \
	X(VECTOR_WRITE, 0x62)   /* payload = length ss_wire_ppa, then length sectors (then \
				   length metadata with SS_VECTOR_META) -> value0 written */\
	X(VECTOR_READ, 0x63)    /* payload = length ss_wire_ppa -> payload length sectors  \
				   (then their metadata with SS_VECTOR_META) */            \
	X(CHUNK_RESET, 0x64)    /* payload = length ss_wire_ppa, one per chunk (sector 0)  \
				   -> value0 chunks reset */                               \
	X(ZONE_REPORT, 0x68)    /* offset = first zone, length = zones -> value0 zones,    \
				   payload ss_wire_chunk... */                             \
	X(ZONE_OPEN, 0x69)      /* offset = the zone's first LBA */                        \
	X(ZONE_CLOSE, 0x6A)     /* offset = the zone's first LBA */                        \
	X(ZONE_FINISH, 0x6B)    /* offset = the zone's first LBA */                        \
	X(ZONE_RESET, 0x6C)     /* offset = the zone's first LBA */                        \
	X(ZONE_APPEND, 0x6D)    /* offset = the zone's first LBA, payload = data, whole    \
				   minimum write units -> value0 = the LBA written */

enum ss_opcode {
#define SS_OP_ENUM_(name, code) SS_OP_##name = code,
	SS_PROTO_OPCODES(SS_OP_ENUM_)
#undef SS_OP_ENUM_
};

/*
 * The drive's SMART attributes (native/PROTOCOL.md 6.2), X(SYM, id, name, unit, atasmart),
 * in the order the drive reports them: the one list the firmware takes its ids from and the
 * host its names and units (a test checks it against PROTOCOL.md). The names are `smartssd
 * info`'s words; unit is the raw value's. atasmart is 1 where libatasmart's name for the id
 * means what the drive counts (though its pretty unit may not: it reads 241/242 as 32 MiB
 * units and 5 as sectors), 0 where libatasmart has no name for the id or one for another
 * quantity (170 available-reserved-space, 171 program-fail-count).
 */
#define SS_PROTO_SMART_ATTRS(X)                                                            \
	X(RETIRED_BLOCKS, 5, "retired-blocks", "blocks", 1)                                \
	X(POWER_ON_HOURS, 9, "power-on-hours", "hours", 1)                                 \
	X(POWER_CYCLES, 12, "power-cycles", "mounts", 1)                                   \
	X(UNSAFE_SHUTDOWNS, 174, "unsafe-shutdowns", "mounts", 0)                          \
	X(AVG_ERASE_COUNT, 177, "average-erase-count", "erases", 1)                        \
	X(TEMPERATURE, 194, "temperature", "C", 1)                                         \
	X(HOST_SECTORS_WRITTEN, 241, "host-sectors-written", "sectors", 1)                 \
	X(HOST_SECTORS_READ, 242, "host-sectors-read", "sectors", 1)                       \
	X(NAND_PAGE_WRITES, 249, "nand-page-writes", "pages", 0)                           \
	/* a drive with a solid-state cache */                                             \
	X(CACHE_HITS, 160, "cache-read-hits", "blocks", 0)                                 \
	X(CACHE_MISSES, 161, "cache-read-misses", "blocks", 0)                             \
	X(CACHE_SILENT_EVICTIONS, 162, "cache-silent-evictions", "blocks", 0)              \
	X(CACHE_DIRTY, 163, "cache-dirty-blocks", "blocks", 0)                             \
	X(CACHE_WRITE_AMP, 164, "cache-write-amplification", "thousandths", 0)             \
	X(CACHE_HIT_BLOCKS, 165, "cache-hit-blocks", "blocks", 0)                          \
	X(CACHE_FILLED_BLOCKS, 166, "cache-filled-blocks", "blocks", 0)                    \
	X(CACHE_DIRTY_WRITTEN_BLOCKS, 167, "cache-dirty-written-blocks", "blocks", 0)      \
	X(CACHE_CLEAN_OPS, 168, "cache-clean-operations", "operations", 0)                 \
	X(CACHE_CLEANED_BLOCKS, 169, "cache-cleaned-blocks", "blocks", 0)                  \
	X(CACHE_EVICTED_BLOCKS, 170, "cache-evicted-blocks", "blocks", 0)                  \
	X(CACHE_RETIRED_BLOCKS, 171, "cache-retired-blocks", "erase-blocks", 0)            \
	/* a drive with a DRAM buffer or merge cache */                                    \
	X(BUFFER_READ_HIT_MILLI, 150, "buffer-read-hit-ratio", "thousandths", 0)           \
	X(BUFFER_WRITE_HIT_MILLI, 151, "buffer-write-hit-ratio", "thousandths", 0)         \
	X(BUFFER_MERGES, 152, "buffer-merges", "writes", 0)                                \
	X(BUFFER_EXTRA_READS, 153, "buffer-extra-reads", "pages", 0)                       \
	X(BUFFER_FLUSHED_PAGES, 154, "buffer-flushed-pages", "pages", 0)                   \
	X(MERGE_CACHE_BYPASSED, 155, "merge-cache-bypassed-pages", "pages", 0)             \
	X(MERGE_CACHE_INDEX_HITS, 156, "merge-cache-index-hits", "lookups", 0)             \
	X(MERGE_CACHE_INDEX_MISSES, 157, "merge-cache-index-misses", "lookups", 0)

enum ss_smart_attr_id {
#define SS_SMART_ENUM_(sym, id, name, unit, atasmart) SS_SMART_##sym = id,
	SS_PROTO_SMART_ATTRS(SS_SMART_ENUM_)
#undef SS_SMART_ENUM_
};

enum ss_create_flags {
	SS_CREATE_EXCL = 0x1,
	SS_CREATE_PARENTS = 0x2,
	SS_CREATE_OBJ_OUTPUT = 0x100,
};
#define SS_WRITE_FUA 0x1u
/* Queued writes (io_uring's linked requests): an ORDERED WRITE is not run, and fails with
 * CANCELED, while the reply of an earlier ORDERED WRITE of its session to the same object
 * that failed has not been received. A host that queues the pieces of one write and stops
 * at the first failure it receives thus never leaves a later piece written past a hole. */
#define SS_WRITE_ORDERED 0x2u
#define SS_REMOVE_RECURSIVE 0x1u
#define SS_RENAME_NOREPLACE 0x1u
#define SS_ATTR_CREATE 0x1u         /* SET_ATTR: fail with EXISTS when the name is set */
#define SS_ATTR_REPLACE 0x2u        /* SET_ATTR: fail with NO_SUCH_ATTR when it is not */
#define SS_ATTR_NAME_MAX 255u       /* bytes of an attribute name */
#define SS_ATTRS_MAX 1024u          /* bytes of an object's names and values, + 3 per attribute */

/* eBPF tasklet programs (TASKLET_*): names of 1..SS_TASKLET_NAME_MAX bytes of
 * [A-Za-z0-9._-], at most SS_TASKLET_PROGRAMS_MAX programs on a drive. */
#define SS_TASKLET_NAME_MAX 63u
#define SS_TASKLET_PROGRAMS_MAX 64u
#define SS_TASKLET_ELF_MAX (256u * 1024u)  /* bytes of one TASKLET_LOAD's ELF object */
#define SS_TASKLET_LOAD_REPLACE 0x1u      /* replace a program of that name */

/* Cache ranges: blocks [oid, oid + length), 1 <= length, oid + length <= UINT64_MAX.
 * Bitmaps are LSB first: bit i of byte i / 8 is block oid + i. */
#define SS_SSC_RANGE_MAX (1u << 20)   /* blocks one EVICT, CLEAN or EXISTS may name */
/* SSC_SCAN: ranges one command may name, and runs of present blocks it may use (the
 * tasklet engine's inputs of one run, SS_ISP_MAX_INPUTS); the host does the rest. */
#define SS_SSC_SCAN_MAX_RANGES 1024u
#define SS_SSC_SCAN_MAX_RUNS 64u
/* SSC_SCAN flag: the blocks are in the caching FileSystem's block format (PROTOCOL.md 4.5,
 * smartssd-fs CacheBlock): a 64-byte header, checked against the file's version, then
 * block_size - 64 bytes of the file. The payload starts with the version's 32-byte digest. */
#define SS_SSC_SCAN_BLOCK_HEADER 0x1u
/* SSC_READ flag: the payload ends after the last present block (the bitmap alone when none
 * is), so a miss moves no block over the link (a drive that predates it refuses it: BAD_FIELD). */
#define SS_SSC_READ_TRIM 0x1u
#define SS_SSC_BLOCK_HEADER_BYTES 64u
#define SS_SSC_BLOCK_MAGIC 0x53534342u     /* "SSCB", big-endian in the header */
#define SS_SSC_BLOCK_LAYOUT 1u
#define SS_SSC_VERSION_DIGEST_BYTES 32u
/* SSC_READ's bitmap, padded to 8 bytes so the data that follows stays aligned */
#define SS_SSC_BITMAP_BYTES(count) ((((uint64_t)(count) + 63u) / 64u) * 8u)

/*
 * The reason codes, X(NAME, code, errno), in code order: with status, they say exactly what
 * was wrong. Errors on the SEND itself (the packet could not be accepted) also come back as
 * ATA ERR+ABRT with the reason in the returned LBA[15:0]. errno is what the host library
 * reports for the reason alone (a refused SEND or RECV: native/PROTOCOL.md section 3's
 * "errno (refused)"), an <errno.h> name the firmware never expands. The one list: it gives
 * enum ss_reason and the host's reason names and errnos (native/src/errinfo.c); tests check
 * it against PROTOCOL.md section 3 (protocol/tests/reasons_ut.c) and Java's Reason
 * (ErrorsTest).
 */
#define SS_PROTO_REASONS(X)                                                                 \
	X(OK, 0, 0)                                                                         \
	X(BAD_MAGIC, 1, EBADMSG)                                                            \
	X(BAD_VERSION, 2, EPROTO)                                                           \
	X(BAD_CRC, 3, EBADMSG)                                                              \
	X(BAD_LENGTH, 4, EINVAL)            /* payload_len does not fit the transfer */     \
	X(BAD_OPCODE, 5, ENOSYS)                                                            \
	X(BAD_FIELD, 6, EINVAL)             /* a header field is out of range for the       \
	                                       opcode */                                    \
	X(TAG_MISMATCH, 7, EPROTO)          /* header tag differs from the SEND's LBA */    \
	X(TAG_IN_USE, 8, EBUSY)             /* a reply with that tag is still waiting */    \
	X(NO_REPLY, 9, ENODATA)             /* RECV for a tag with no reply */              \
	X(REPLY_TOO_BIG, 10, EOVERFLOW)     /* reply does not fit the RECV transfer */      \
	X(BUSY, 11, EAGAIN)                 /* reply slots, reply memory or instances       \
	                                       exhausted: retry */                          \
	X(BAD_PATH, 12, EINVAL)                                                             \
	X(NO_SUCH_OBJECT, 13, ENOENT)                                                       \
	X(EXISTS, 14, EEXIST)                                                               \
	X(NOT_DIR, 15, ENOTDIR)                                                             \
	X(IS_DIR, 16, EISDIR)                                                               \
	X(NOT_EMPTY, 17, ENOTEMPTY)                                                         \
	X(NAME_TOO_LONG, 18, ENAMETOOLONG)                                                  \
	X(DRIVE_FULL, 19, ENOSPC)                                                           \
	X(TOO_MANY_OBJECTS, 20, ENOSPC)                                                     \
	X(BAD_LAYOUT, 21, EINVAL)                                                           \
	X(UNKNOWN_TASKLET, 22, ENOENT)                                                      \
	X(TASKLET_PARAMS, 23, EINVAL)       /* the tasklet rejected its parameters */       \
	X(TASKLET_BUDGET, 24, ENOMEM)       /* the tasklet overran its memory budget */     \
	X(TASKLET_STEPS, 25, ETIME)         /* the tasklet ran past its step limit */       \
	X(TASKLET_FAILED, 26, ECANCELED)    /* the tasklet returned another error */        \
	X(TASKLET_RUNNING, 27, EBUSY)                                                       \
	X(MEDIA_ERROR, 28, EIO)                                                             \
	X(LBA_RANGE, 29, ERANGE)            /* standard command outside the drive's         \
	                                       LBAs */                                      \
	X(LBA_PROTECTED, 30, EPERM)         /* raw write outside a live object              \
	                                       (metadata, free space) */                    \
	X(BAD_SESSION, 31, EBADF)                                                           \
	X(RENAME_INTO_SELF, 32, EINVAL)                                                     \
	X(ROOT, 33, EBUSY)                  /* the root cannot be removed or renamed */     \
	X(TASKLET_WATCHDOG, 34, ETIMEDOUT)  /* the watchdog stopped a tasklet callback      \
	                                       that did not return */                       \
	X(NO_SUCH_ATTR, 35, ENODATA)        /* the object has no attribute of that name */  \
	X(STORE_DAMAGED, 36, EIO)           /* the object store failed its mount check:     \
	                                       only CHECK works */                          \
	X(STALE_BLOCK, 37, EPROTO)          /* SSC_SCAN: a cache block is not of the        \
	                                       file's version */                            \
	X(CANCELED, 38, ECANCELED)          /* an ORDERED WRITE after a failed one: not     \
	                                       run */                                       \
	X(TOO_MANY_SESSIONS, 39, EAGAIN)    /* OPEN_SESSION: every session is held by a     \
	                                       live client */                               \
	X(INPUT_UNSUPPORTED, 40, ENOSYS)    /* a tasklet's input uses a format feature the  \
	                                       drive does not decode (Parquet: a codec,     \
	                                       encoding, type or page kind): the host reads \
	                                       that input itself */                         \
	X(INPUT_MALFORMED, 41, EILSEQ)      /* a tasklet's input is not well formed         \
	                                       (Parquet: a page header, run or snappy       \
	                                       stream that contradicts its bytes) */        \
	X(PLAN_MISMATCH, 42, ENODATA)       /* a tasklet's params contradict its input      \
	                                       (Parquet: a column chunk outside the ranges  \
	                                       or the object, or whose pages disagree with  \
	                                       the plan's sizes, rows or dictionary) */ \
	X(PROGRAM_REFUSED, 43, EINVAL)      /* the verifier refused an eBPF tasklet program: \
	                                       value0 its reason (ss_bpf_reasons.h), value1  \
	                                       the instruction */                           \
	X(WRONG_INTERFACE, 50, EOPNOTSUPP)  /* the drive's interface (value0: enum          \
	                                       ss_interface) does not serve the command     */ \
	X(NOT_WRITE_POINTER, 51, EINVAL)    /* a write not at its chunk's write pointer    */ \
	X(WRITE_UNIT, 52, EINVAL)           /* a write not of whole minimum write units    */ \
	X(CHUNK_FULL, 53, ENOSPC)           /* a write past a chunk's last sector          */ \
	X(CHUNK_OFFLINE, 54, EIO)           /* the chunk is offline (failed its erase)     */ \
	X(READ_UNWRITTEN, 55, ENODATA)      /* a read at or past the write pointer         */ \
	X(ZONE_STATE, 56, EINVAL)           /* a zone state change the zone's state does   \
	                                       not allow                                    */

enum ss_reason {
#define SS_R_ENUM_(name, code, err) SS_R_##name = code,
	SS_PROTO_REASONS(SS_R_ENUM_)
#undef SS_R_ENUM_
};

/* The interface a drive is formatted with (smartssd format --interface): kept in its
 * label; a drive formatted before interfaces existed is FTL. */
enum ss_interface {
	SS_IFACE_FTL = 0,          /* logical blocks, objects, tasklets, cache (the FTL's) */
	SS_IFACE_OPEN_CHANNEL = 1, /* OCSSD 2.0: vector I/O by physical address, chunks */
	SS_IFACE_ZONED = 2,        /* NVMe ZNS: zones, write pointers, zone append */
};

/* Chunk and zone states (ss_wire_chunk.state): OCSSD 2.0's free, open, closed, offline and
 * ZNS's empty, open, closed, full, offline. An open-channel chunk is CLOSED only when full. */
enum ss_chunk_state {
	SS_CHUNK_FREE = 1,         /* erased, write pointer at 0 (ZNS: empty) */
	SS_CHUNK_OPEN = 2,         /* written below capacity, or opened (ZNS: implicit) */
	SS_CHUNK_OPEN_EXPLICIT = 3,/* ZNS: opened by ZONE_OPEN */
	SS_CHUNK_CLOSED = 4,       /* ZNS: closed below capacity */
	SS_CHUNK_FULL = 5,         /* written to capacity, or finished */
	SS_CHUNK_OFFLINE = 6,      /* failed its erase: neither read nor written again */
};

/* ---- payload structures ---------------------------------------------------------- */

/* STAT's and LOOKUP's reply (field list: SS_REPLY_STAT); name is not NUL-terminated
 * beyond name_len */
struct ss_wire_stat {
	SS_REPLY_STAT(SS_WIRE_MEMBER, _)
} __attribute__((packed));

struct ss_wire_dirent {
	uint64_t oid;
	uint32_t type;
	uint16_t name_len;
	uint16_t reserved;
	char name[256];
} __attribute__((packed));

struct ss_wire_extent {
	uint64_t offset;       /* byte offset in the object */
	uint64_t lba;          /* first 512-byte LBA */
	uint32_t sectors;
	uint32_t reserved;
} __attribute__((packed));

/* FSSTAT's reply (field list: SS_REPLY_FSSTAT) */
struct ss_wire_fsstat {
	SS_REPLY_FSSTAT(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* DRIVE_INFO's reply (field list: SS_REPLY_DRIVE_INFO) */
struct ss_drive_info {
	SS_REPLY_DRIVE_INFO(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* SSC_INFO's reply (field list: SS_REPLY_SSC_INFO) */
struct ss_wire_ssc_info {
	SS_REPLY_SSC_INFO(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* Layout on the wire: struct ss_layout from smartssd/tasklet.h, little-endian, packed. */
struct ss_wire_field {
	uint16_t offset;
	uint8_t type;
	uint8_t width;
	uint8_t shift;
	uint8_t bits;
	uint16_t null_bit;   /* 0: never NULL; k + 1: NULL when bit k of the record is set */
} __attribute__((packed));

struct ss_wire_layout {
	uint8_t kind;
	uint8_t line_delim;
	uint8_t field_sep;
	uint8_t nfields;
	uint32_t record_size;
	struct ss_wire_field fields[16];
} __attribute__((packed));

struct ss_wire_create_tasklet {
	uint32_t tasklet_id;
	uint32_t mem_budget;   /* bytes */
	uint64_t step_limit;   /* 0: the drive's default */
	uint64_t output_oid;   /* an output object created before */
	uint32_t params_len;   /* params follow this structure */
	uint32_t reserved;
	struct ss_wire_layout layout;
} __attribute__((packed));

/* EXECUTE_OBJECT's payload: 1..SS_EXECUTE_MAX_INPUTS inputs, read in order (the tasklet
 * engine's inputs of one run, ss_isp.h SS_ISP_MAX_INPUTS) */
#define SS_EXECUTE_MAX_INPUTS 64u
struct ss_wire_input {
	uint64_t oid;
	uint64_t offset;
	uint64_t length;
} __attribute__((packed));

/* TASKLET_LIST's reply, one per program, in the store's order */
struct ss_wire_program {
	uint32_t insns;        /* instructions */
	uint16_t name_len;
	uint16_t reserved;
	uint64_t loaded_ns;    /* host time of its TASKLET_LOAD */
	char name[64];         /* name_len bytes, zero-padded */
} __attribute__((packed));

/* SSC_SCAN's request: `blocks` cache blocks from `first_block`, holding the file's blocks
 * from `file_block` on (block = SSC_INFO's block_size bytes of the file). */
struct ss_wire_ssc_scan_range {
	uint64_t first_block;
	uint64_t blocks;
	uint64_t file_block;
} __attribute__((packed));

/* SSC_SCAN's reply, one per run of present blocks the drive used: blocks [file_block,
 * file_block + blocks) of the file, and the records wholly inside them it processed. */
struct ss_wire_ssc_scan_run {
	uint64_t file_block;
	uint64_t blocks;
	uint64_t first_record;
	uint64_t records;
} __attribute__((packed));

/* GEOMETRY's reply (field list: SS_REPLY_GEOMETRY) */
struct ss_wire_geometry {
	SS_REPLY_GEOMETRY(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* CHUNK_REPORT's and ZONE_REPORT's entries (field list: SS_REPLY_CHUNK) */
struct ss_wire_chunk {
	SS_REPLY_CHUNK(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* A physical address of the open-channel commands: a sector of a chunk of a parallel
 * unit of a group. */
struct ss_wire_ppa {
	uint32_t group;
	uint32_t pu;
	uint32_t chunk;
	uint32_t sector;
} __attribute__((packed));
/* Addresses one vector command may carry (OCSSD 2.0's 64). */
#define SS_VECTOR_MAX 64u
/* VECTOR_WRITE / VECTOR_READ flag: each sector's out-of-band metadata (SS_SECTOR_META
 * bytes, kept in its page's spare area) follows the sectors. */
#define SS_VECTOR_META 0x1u
#define SS_SECTOR_META 8u

/* READ_OBJECT's progress (field list: SS_REPLY_PROGRESS) */
struct ss_wire_progress {
	SS_REPLY_PROGRESS(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* The emulator's model counters (field list: SS_REPLY_MODEL), carried by smartssd-devd */
struct ss_wire_model {
	SS_REPLY_MODEL(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* An energy-ledger share (field list: SS_REPLY_TASK_SHARE), carried by smartssd-devd */
struct ss_wire_task_share {
	SS_REPLY_TASK_SHARE(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* CHECK's reply (field list: SS_REPLY_CHECK) */
struct ss_wire_check {
	SS_REPLY_CHECK(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* ISP_QUEUE's reply (field list: SS_REPLY_ISP_QUEUE) */
struct ss_wire_isp_queue {
	SS_REPLY_ISP_QUEUE(SS_WIRE_MEMBER, _)
} __attribute__((packed));

/* COUNTERS' reply (field list: SS_REPLY_COUNTERS) */
struct ss_wire_counters {
	SS_REPLY_COUNTERS(SS_WIRE_MEMBER, _)
} __attribute__((packed));

_Static_assert(sizeof(struct ss_wire_geometry) == 48, "geometry size");
_Static_assert(sizeof(struct ss_wire_geometry) == 0 SS_REPLY_GEOMETRY(SS_REPLY_BYTES, _),
	       "geometry: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_chunk) == 32, "chunk size");
_Static_assert(sizeof(struct ss_wire_chunk) == 0 SS_REPLY_CHUNK(SS_REPLY_BYTES, _),
	       "chunk: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_ppa) == 16, "ppa size");
_Static_assert(sizeof(struct ss_wire_layout) == 8 + 16 * 8, "wire layout size");
_Static_assert(sizeof(struct ss_wire_progress) == 72, "wire progress size");
_Static_assert(sizeof(struct ss_drive_info) == 104, "drive info size");
_Static_assert(sizeof(struct ss_wire_fsstat) == 32, "fsstat size");
_Static_assert(sizeof(struct ss_wire_counters) == 288, "counters size");
/* what hosts before the merge cache's counters ask for (COUNTERS' reply_max) */
#define SS_WIRE_COUNTERS_V1_SIZE 224u
/* SSC_INFO as its first hosts know it (up to `bad_blocks`, `map_dram_bytes`). */
#define SS_WIRE_SSC_INFO_V1_SIZE 112u
_Static_assert(sizeof(struct ss_wire_isp_queue) == 32, "isp queue size");
_Static_assert(sizeof(struct ss_wire_isp_queue) == 0 SS_REPLY_ISP_QUEUE(SS_REPLY_BYTES, _),
	       "isp queue: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_check) == 72, "check size");
_Static_assert(sizeof(struct ss_wire_check) == 0 SS_REPLY_CHECK(SS_REPLY_BYTES, _),
	       "check field list");
_Static_assert(sizeof(struct ss_drive_info) == 0 SS_REPLY_DRIVE_INFO(SS_REPLY_BYTES, _),
	       "drive info: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_fsstat) == 0 SS_REPLY_FSSTAT(SS_REPLY_BYTES, _),
	       "fsstat: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_counters) == 0 SS_REPLY_COUNTERS(SS_REPLY_BYTES, _),
	       "counters: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_stat) == 328, "wire stat size");
_Static_assert(sizeof(struct ss_wire_stat) == 0 SS_REPLY_STAT(SS_REPLY_BYTES, _),
	       "stat: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_progress) == 0 SS_REPLY_PROGRESS(SS_REPLY_BYTES, _),
	       "progress: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_model) == 35 * 8, "wire model size");
_Static_assert(sizeof(struct ss_wire_ssc_info) == 168, "wire ssc info size");
_Static_assert(offsetof(struct ss_wire_ssc_info, hit_bytes) == SS_WIRE_SSC_INFO_V1_SIZE,
	       "SSC_INFO's first version ends before the traffic counters");
_Static_assert(sizeof(struct ss_wire_program) == 80, "wire program size");
_Static_assert(SS_TASKLET_NAME_MAX < sizeof(((struct ss_wire_program *)0)->name),
	       "a program's name fits its list entry");
_Static_assert(sizeof(struct ss_wire_ssc_scan_range) == 24, "wire scan range size");
_Static_assert(sizeof(struct ss_wire_ssc_scan_run) == 32, "wire scan run size");
_Static_assert(sizeof(struct ss_wire_ssc_info) == 0 SS_REPLY_SSC_INFO(SS_REPLY_BYTES, _),
	       "ssc info: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_model) == 0 SS_REPLY_MODEL(SS_REPLY_BYTES, _),
	       "model: struct and field list agree");
_Static_assert(sizeof(struct ss_wire_task_share) == 22 * 8, "wire task share size");
_Static_assert(sizeof(struct ss_wire_task_share) == 0 SS_REPLY_TASK_SHARE(SS_REPLY_BYTES, _),
	       "task share: struct and field list agree");

#endif
