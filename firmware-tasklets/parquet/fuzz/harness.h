/* The Parquet decoder's fuzz harness, shared by the libFuzzer target and the replay driver. */
#ifndef PQ_FUZZ_HARNESS_H
#define PQ_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * One input: byte 0 = 2: a scan plan and a file (pq_fuzz_plan). Else byte 0 bit 0 set:
 * bytes 1.. are a raw snappy block. Clear: bytes 1, 2, 3 are the column's physical type,
 * codec and maximum definition level (bit 1 of byte 2: dictionary-encoded rows to codes, and
 * the chunk counted per index after, its counts checked against the codes; bit 2: only some
 * rows kept, the others' values passed over), and bytes 4.. a
 * column chunk (page header, body, page header, ...), decoded page by page until it ends or
 * fails.
 * Broken invariants (a row count or heap use beyond the caller's buffers, a value outside
 * its heap, an error without a kind) abort.
 * \return 0
 */
int pq_fuzz_one(const uint8_t *data, size_t size);

/** Byte 0 = 2: a parquet-scan plan run over a file in the ISP engine (plan_harness.c). */
int pq_fuzz_plan(const uint8_t *data, size_t size);

#endif
