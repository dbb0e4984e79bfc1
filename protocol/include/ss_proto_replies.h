/*
 * The fixed-size replies, one field list each: X(a, kind, name, bytes) per field in wire
 * order, `a` passed through for the expansion's own use. Kinds:
 *   u8, u16, u32, u64  little-endian unsigned integers;
 *   str       `bytes` of text, zero-padded (the API struct holds bytes + 1, NUL-terminated,
 *             trailing blanks removed);
 *   cstr      `bytes` of NUL-terminated text, the same in both structs;
 *   i32       a little-endian signed 32-bit integer;
 *   rsv16, rsv32  a reserved word, zero on the wire and absent from the API struct;
 *   len16     the byte length of the reply's field called `name`, on the wire only;
 *   name      `bytes` of text, of which the len16 field's count (at most bytes - 1) are
 *             meant; the API struct holds the same bytes, NUL-terminated.
 * From each list come the wire struct (ss_proto.h), the API struct (smartssd/smartssd.h),
 * the host's decode (native/src/host_drive.c) and the JNI packing with the field layout Java
 * decodes its records by (native/jni/: FIXED_REPLY, replyLayout0). A new reply is one
 * list here.
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

/* GEOMETRY: struct ss_wire_geometry, 48 bytes. groups = channels, pus = dies per channel
 * (ways), chunks = erase blocks per die (less the label's row); a sector is 512 bytes;
 * ws_min (a flash page) and ws_opt in sectors; zone_sectors, a power of two at least
 * chunk_sectors, is the LBA stride of chunks and zones: chunk i (group-major, then pu,
 * then chunk) starts at LBA i * zone_sectors. iface: enum ss_interface. */
#define SS_REPLY_GEOMETRY(X, a)              \
	X(a, u32, iface, 4)              \
	X(a, u32, groups, 4)                 \
	X(a, u32, pus, 4)                    \
	X(a, u32, chunks, 4)                 \
	X(a, u32, sector_bytes, 4)           \
	X(a, u32, chunk_sectors, 4)          \
	X(a, u32, ws_min, 4)                 \
	X(a, u32, ws_opt, 4)                 \
	X(a, u64, zone_sectors, 8)           \
	X(a, u32, offline_chunks, 4)         \
	X(a, u32, endurance, 4)

/* CHUNK_REPORT, ZONE_REPORT: struct ss_wire_chunk, 32 bytes each. state: enum
 * ss_chunk_state; wear: the chunk's erases (resets and format); slba its first LBA, wp the
 * write pointer as an LBA, capacity its sectors. */
#define SS_REPLY_CHUNK(X, a)                 \
	X(a, u32, state, 4)                  \
	X(a, u32, wear, 4)                   \
	X(a, u64, slba, 8)                   \
	X(a, u64, wp, 8)                     \
	X(a, u64, capacity, 8)

/* FSSTAT: struct ss_wire_fsstat, 32 bytes */
#define SS_REPLY_FSSTAT(X, a)                \
	X(a, u64, capacity_bytes, 8)         \
	X(a, u64, free_bytes, 8)             \
	X(a, u32, objects, 4)                \
	X(a, u32, max_objects, 4)            \
	X(a, u32, page_size, 4)              \
	X(a, rsv32, reserved, 4)

/* COUNTERS: struct ss_wire_counters, 288 bytes; power_on_ns is modelled device time; from
 * buffer_policy on, the drive's DRAM buffer (firmware-tasklets/buffer/); from
 * buffer_nv_bypass_pages on, the merge cache's own (0 with another buffer). A host asking
 * for the first 224 bytes (reply_max 224..287) gets those: the fields before the merge
 * cache's keep their offsets. */
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
	X(a, u64, power_on_ns, 8) \
	X(a, u32, buffer_policy, 4) \
	X(a, u32, buffer_pages, 4) \
	X(a, u64, buffer_read_pages, 8) \
	X(a, u64, buffer_read_hits, 8) \
	X(a, u64, buffer_write_pages, 8) \
	X(a, u64, buffer_write_hits, 8) \
	X(a, u64, buffer_merges, 8) \
	X(a, u64, buffer_padding_reads, 8) \
	X(a, u64, buffer_flushed_pages, 8) \
	X(a, u64, buffer_evictions, 8) \
	X(a, u64, buffer_flushes_1, 8) \
	X(a, u64, buffer_flushes_2, 8) \
	X(a, u64, buffer_flushes_3_4, 8) \
	X(a, u64, buffer_flushes_5_8, 8) \
	X(a, u64, buffer_flushes_9_16, 8) \
	X(a, u64, buffer_flushes_17_32, 8) \
	X(a, u64, buffer_flushes_33_64, 8) \
	X(a, u64, buffer_flushes_65, 8) \
	X(a, u32, buffer_threshold, 4) \
	X(a, u32, buffer_block_region_pages, 4) \
	X(a, u64, buffer_nv_bypass_pages, 8) \
	X(a, u64, buffer_nv_read_cached, 8) \
	X(a, u64, buffer_nv_prefetched, 8) \
	X(a, u64, buffer_nv_index_hits, 8) \
	X(a, u64, buffer_nv_index_misses, 8) \
	X(a, u64, buffer_nv_ftl_flushes, 8) \
	X(a, u32, buffer_nv_slots, 4) \
	X(a, u32, buffer_nv_slots_used, 4) \
	X(a, u32, buffer_nv_recovered, 4) \
	X(a, rsv32, buffer_nv_reserved, 4)

/* STAT, LOOKUP: struct ss_wire_stat, 328 bytes */
#define SS_REPLY_STAT(X, a)                  \
	X(a, u64, oid, 8)                    \
	X(a, u64, parent, 8)                 \
	X(a, u32, type, 4)                   \
	X(a, u32, nchildren, 4)              \
	X(a, u64, size, 8)                   \
	X(a, u64, ctime_ns, 8)               \
	X(a, u64, mtime_ns, 8)               \
	X(a, u64, atime_ns, 8)               \
	X(a, u64, page_writes, 8)            \
	X(a, u32, extent_count, 4)           \
	X(a, len16, name_len, 2)             \
	X(a, rsv16, reserved, 2)             \
	X(a, name, name, 256)

/* READ_OBJECT's progress: struct ss_wire_progress, 72 bytes; state 1 created, 2 running,
 * 3 done, 4 failed; error a negative errno when failed; times are modelled device time */
#define SS_REPLY_PROGRESS(X, a)              \
	X(a, u32, state, 4)                  \
	X(a, i32, error, 4)                  \
	X(a, u64, pages_done, 8)             \
	X(a, u64, pages_total, 8)            \
	X(a, u64, records, 8)                \
	X(a, u64, output_bytes, 8)           \
	X(a, u64, instructions, 8)           \
	X(a, u64, dram_accesses, 8)          \
	X(a, u64, started_ns, 8)             \
	X(a, u64, finished_ns, 8)

/* ISP_QUEUE: struct ss_wire_isp_queue, 32 bytes. The drive's in-storage queue now:
 * instances executing (executed and neither done nor failed: queued or running), the pages
 * they have left (pages total - pages done, summed), and backlog_ns, the drive's estimate in
 * modelled ns of the ISP core time they still need: per instance its pages left x its own
 * counted cost per page so far in whole ns (pages, instructions and DRAM accesses priced as
 * the core charges them, over the pages done, rounded down), or x page_ns, the price of a
 * page with no counted work, before its first page. From counted work and the drive's constants only, never a clock. priced 0: the
 * drive cannot price its core's work (backlog_ns and page_ns are then 0). */
#define SS_REPLY_ISP_QUEUE(X, a)             \
	X(a, u32, instances, 4)              \
	X(a, u32, priced, 4)                 \
	X(a, u64, pages_remaining, 8)        \
	X(a, u64, backlog_ns, 8)             \
	X(a, u64, page_ns, 8)

/*
 * The emulator's timing and energy model: struct ss_wire_model, 280 bytes, the data of
 * smartssd-devd's model reply after its count (ss_devd_frame.h) and the emulator's own
 * struct ss_emu_counters, field for field by name. Every figure follows from counted
 * operations and profile constants, never host wall-clock; energies in nanojoules.
 */
#define SS_REPLY_MODEL(X, a)                 \
	X(a, u64, page_reads, 8)             \
	X(a, u64, page_programs, 8)          \
	X(a, u64, block_erases, 8)           \
	X(a, u64, erase_failures, 8)         \
	X(a, u64, program_failures, 8)       \
	X(a, u64, syncs, 8)                  \
	X(a, u64, rule_violations, 8)        \
	X(a, u64, failed_blocks, 8)          \
	X(a, u64, bytes_read, 8)             \
	X(a, u64, bytes_programmed, 8)       \
	X(a, u64, host_commands, 8)          \
	X(a, u64, link_bytes_in, 8)          \
	X(a, u64, link_bytes_out, 8)         \
	X(a, u64, isp_instructions, 8)       \
	X(a, u64, isp_dram_accesses, 8)      \
	X(a, u64, isp_pages, 8)              \
	X(a, u64, die_busy_ns, 8)            \
	X(a, u64, channel_busy_ns, 8)        \
	X(a, u64, link_busy_ns, 8)           \
	X(a, u64, isp_busy_ns, 8)            \
	X(a, u64, now_ns, 8)                 \
	X(a, u64, energy_nand_read_nj, 8)    \
	X(a, u64, energy_nand_program_nj, 8) \
	X(a, u64, energy_nand_erase_nj, 8)   \
	X(a, u64, energy_link_nj, 8)         \
	X(a, u64, energy_isp_nj, 8)          \
	X(a, u64, energy_idle_nj, 8)         \
	X(a, u64, energy_total_nj, 8)        \
	X(a, u64, host_now_ns, 8)            \
	X(a, u64, nand_read_nj, 8)           \
	X(a, u64, fw_page_overhead_ns, 8)    \
	X(a, u64, isp_ps_per_instruction, 8) \
	X(a, u64, dram_access_ns, 8)         \
	X(a, u64, isp_active_mw, 8)          \
	X(a, u64, link_pj_per_byte, 8)

/*
 * An energy-ledger share (smartssd-devd's SSDL request, SS_LEDGER_SHARE; no drive command):
 * 22 u64. The task's share of its period's energy and its priced work, the period's energy
 * and summed weight, its tasks and clients, the task's counted work as the drive read it
 * from its tasklet instance, and the drive's energy by component at the period's start and
 * end. See firmware-tasklets/emu/include/ss_emu_ledger.h.
 */
#define SS_REPLY_TASK_SHARE(X, a)            \
	X(a, u64, task_nj, 8)                \
	X(a, u64, task_weight_pj, 8)         \
	X(a, u64, period_nj, 8)              \
	X(a, u64, period_weight_pj, 8)       \
	X(a, u64, tasks, 8)                  \
	X(a, u64, clients, 8)                \
	X(a, u64, pages, 8)                  \
	X(a, u64, instructions, 8)           \
	X(a, u64, dram_accesses, 8)          \
	X(a, u64, output_bytes, 8)           \
	X(a, u64, start_nand_read_nj, 8)     \
	X(a, u64, start_nand_program_nj, 8)  \
	X(a, u64, start_nand_erase_nj, 8)    \
	X(a, u64, start_link_nj, 8)          \
	X(a, u64, start_isp_nj, 8)           \
	X(a, u64, start_idle_nj, 8)          \
	X(a, u64, end_nand_read_nj, 8)       \
	X(a, u64, end_nand_program_nj, 8)    \
	X(a, u64, end_nand_erase_nj, 8)      \
	X(a, u64, end_link_nj, 8)            \
	X(a, u64, end_isp_nj, 8)             \
	X(a, u64, end_idle_nj, 8)

/*
 * SSC_INFO: struct ss_wire_ssc_info, 168 bytes. The solid-state cache's shape and counters:
 * block_size (bytes, one flash page; 0 without a cache), share_permille of the flash,
 * capacity_blocks (flash pages for data and log, on good erase blocks), policy (0 SSC,
 * 1 SSC-V), log_permille; read hits and misses, silent evictions (clean pages, and erase
 * blocks, dropped by garbage collection), dirty and cached blocks now, host and NAND page
 * writes, erases, write amplification in thousandths, bad_blocks (erase blocks of the
 * cache left out because their erase failed at format), the DRAM of the maps. Then the
 * cache manager's traffic since format, kept across restarts in the cache's checkpoints:
 * bytes read as hits, bytes written by write-clean (fills) and by write-dirty, clean
 * operations (SSC_CLEAN commands completed: write-backs) and the bytes they turned clean,
 * blocks evicted by SSC_EVICT; retired_blocks (erase blocks worn out in use, never used
 * again; capacity_blocks leaves them out) and the endurance (erases) that retires one.
 */
#define SS_REPLY_SSC_INFO(X, a)              \
	X(a, u32, block_size, 4)             \
	X(a, u32, share_permille, 4)         \
	X(a, u64, capacity_blocks, 8)        \
	X(a, u32, policy, 4)                 \
	X(a, u32, log_permille, 4)           \
	X(a, u64, read_hits, 8)              \
	X(a, u64, read_misses, 8)            \
	X(a, u64, silent_evicted_pages, 8)   \
	X(a, u64, silent_evicted_blocks, 8)  \
	X(a, u64, dirty_blocks, 8)           \
	X(a, u64, cached_blocks, 8)          \
	X(a, u64, host_page_writes, 8)       \
	X(a, u64, nand_page_writes, 8)       \
	X(a, u64, block_erases, 8)           \
	X(a, u32, write_amplification_milli, 4) \
	X(a, u32, bad_blocks, 4)             \
	X(a, u64, map_dram_bytes, 8)         \
	X(a, u64, hit_bytes, 8)              \
	X(a, u64, filled_bytes, 8)           \
	X(a, u64, dirty_written_bytes, 8)    \
	X(a, u64, clean_ops, 8)              \
	X(a, u64, cleaned_bytes, 8)          \
	X(a, u64, evicted_blocks, 8)         \
	X(a, u32, retired_blocks, 4)         \
	X(a, u32, endurance, 4)

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
#define SS_WIRE_MEMBER_i32(name, bytes) int32_t name;
#define SS_WIRE_MEMBER_rsv16(name, bytes) uint16_t name;
#define SS_WIRE_MEMBER_len16(name, bytes) uint16_t name;
#define SS_WIRE_MEMBER_name(name, bytes) char name[bytes];

/* The API member of a field (host-order structs in smartssd/smartssd.h). */
#define SS_API_MEMBER(a, kind, name, bytes) SS_API_MEMBER_##kind(name, bytes)
#define SS_API_MEMBER_u8(name, bytes) uint8_t name;
#define SS_API_MEMBER_u16(name, bytes) uint16_t name;
#define SS_API_MEMBER_u32(name, bytes) uint32_t name;
#define SS_API_MEMBER_u64(name, bytes) uint64_t name;
#define SS_API_MEMBER_str(name, bytes) char name[(bytes) + 1];
#define SS_API_MEMBER_cstr(name, bytes) char name[bytes];
#define SS_API_MEMBER_rsv32(name, bytes)
#define SS_API_MEMBER_i32(name, bytes) int32_t name;
#define SS_API_MEMBER_rsv16(name, bytes)
#define SS_API_MEMBER_len16(name, bytes)
#define SS_API_MEMBER_name(name, bytes) char name[bytes];

/* Sum of the fields' wire bytes: with _Static_assert, the list and the struct agree. */
#define SS_REPLY_BYTES(a, kind, name, bytes) +(bytes)

#endif
