/*
 * The fixed-size replies, one field list each: X(a, kind, name, bytes) per field in wire
 * order, `a` passed through for the expansion's own use. Kinds:
 *   u8, u16, u32, u64  little-endian unsigned integers;
 *   str       `bytes` of text, zero-padded (the API struct holds bytes + 1, NUL-terminated,
 *             trailing blanks removed);
 *   cstr      `bytes` of NUL-terminated text, the same in both structs;
 *   rsv32     a reserved 32-bit word, zero on the wire and absent from the API struct.
 * From each list come the wire struct (ss_proto.h), the API struct (smartssd/smartssd.h),
 * the host's decode (native/src/drive.c) and the JNI packing with the field layout Java
 * checks its records against (native/jni/smartssd_jni.c). A new reply is one list here.
 */
#ifndef SS_PROTO_REPLIES_H
#define SS_PROTO_REPLIES_H

/* DRIVE_INFO: struct ss_drive_info, 104 bytes */
#define SS_REPLY_DRIVE_INFO(X, a)            \
	X(a, u32, proto_version, 4)          \
	X(a, u32, page_size, 4)              \
	X(a, u32, channels, 4)               \
	X(a, u32, ways, 4)                   \
	X(a, u32, queue_depth, 4)            \
	X(a, u32, isp_batch_pages, 4)        \
	X(a, u64, capacity_bytes, 8)         \
	X(a, str, model, 40)                 \
	X(a, str, serial, 20)                \
	X(a, str, firmware_rev, 8)           \
	X(a, rsv32, reserved, 4)

/* FSSTAT: struct ss_wire_fsstat, 32 bytes */
#define SS_REPLY_FSSTAT(X, a)                \
	X(a, u64, capacity_bytes, 8)         \
	X(a, u64, free_bytes, 8)             \
	X(a, u32, objects, 4)                \
	X(a, u32, max_objects, 4)            \
	X(a, u32, page_size, 4)              \
	X(a, rsv32, reserved, 4)

/* COUNTERS: struct ss_wire_counters, 80 bytes; power_on_ns is modelled device time */
#define SS_REPLY_COUNTERS(X, a)              \
	X(a, u64, host_page_reads, 8)        \
	X(a, u64, host_page_writes, 8)       \
	X(a, u64, nand_page_reads, 8)        \
	X(a, u64, nand_page_writes, 8)       \
	X(a, u64, block_erases, 8)           \
	X(a, u64, gc_page_moves, 8)          \
	X(a, u32, retired_blocks, 4)         \
	X(a, u32, free_blocks, 4)            \
	X(a, u32, min_erase_count, 4)        \
	X(a, u32, max_erase_count, 4)        \
	X(a, u32, avg_erase_count, 4)        \
	X(a, u32, write_amplification_milli, 4) \
	X(a, u64, power_on_ns, 8)

/* CHECK: struct ss_wire_check, 72 bytes. problem: 0 consistent, else what the check found
 * wrong first (enum ss_os_problem of firmware-tasklets/objstore, PROTOCOL.md section 5);
 * mounted: 1 when the store is mounted and was checked now, 0 when the drive came up
 * without it because its mount check found the problem (every other object command then
 * fails with STORE_DAMAGED). The counts are of a check that passed. */
#define SS_REPLY_CHECK(X, a)                 \
	X(a, u32, problem, 4)                \
	X(a, u32, problem_level, 4)          \
	X(a, u64, problem_oid, 8)            \
	X(a, u32, problem_lpn, 4)            \
	X(a, u32, mounted, 4)                \
	X(a, u32, objects, 4)                \
	X(a, u32, tree_objects, 4)           \
	X(a, u32, max_depth, 4)              \
	X(a, rsv32, reserved, 4)             \
	X(a, u64, extents, 8)                \
	X(a, u64, node_pages, 8)             \
	X(a, u64, data_pages, 8)             \
	X(a, u64, leaked_pages, 8)

/* The wire member of a field (packed structs in ss_proto.h). */
#define SS_WIRE_MEMBER(a, kind, name, bytes) SS_WIRE_MEMBER_##kind(name, bytes)
#define SS_WIRE_MEMBER_u8(name, bytes) uint8_t name;
#define SS_WIRE_MEMBER_u16(name, bytes) uint16_t name;
#define SS_WIRE_MEMBER_u32(name, bytes) uint32_t name;
#define SS_WIRE_MEMBER_u64(name, bytes) uint64_t name;
#define SS_WIRE_MEMBER_str(name, bytes) char name[bytes];
#define SS_WIRE_MEMBER_cstr(name, bytes) char name[bytes];
#define SS_WIRE_MEMBER_rsv32(name, bytes) uint32_t name;

/* The API member of a field (host-order structs in smartssd/smartssd.h). */
#define SS_API_MEMBER(a, kind, name, bytes) SS_API_MEMBER_##kind(name, bytes)
#define SS_API_MEMBER_u8(name, bytes) uint8_t name;
#define SS_API_MEMBER_u16(name, bytes) uint16_t name;
#define SS_API_MEMBER_u32(name, bytes) uint32_t name;
#define SS_API_MEMBER_u64(name, bytes) uint64_t name;
#define SS_API_MEMBER_str(name, bytes) char name[(bytes) + 1];
#define SS_API_MEMBER_cstr(name, bytes) char name[bytes];
#define SS_API_MEMBER_rsv32(name, bytes)

/* Sum of the fields' wire bytes: with _Static_assert, the list and the struct agree. */
#define SS_REPLY_BYTES(a, kind, name, bytes) +(bytes)

#endif
