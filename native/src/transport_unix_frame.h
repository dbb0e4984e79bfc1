/*
 * Client side of smartssd-devd's socket framing (firmware-tasklets/emu/README.md,
 * "Daemon socket framing"): a 32-byte request header (magic "SSDQ", tag, CDB, dir,
 * data_len) followed by data-out; a 48-byte reply header (magic "SSDA", tag, SCSI status,
 * sense) followed by data-in. A model-counters request (magic "SSDM", tag, zeros) is
 * answered with a u32 count N, a u32 0 and N u64 counters. Little-endian.
 */
#ifndef SS_NATIVE_TRANSPORT_UNIX_FRAME_H
#define SS_NATIVE_TRANSPORT_UNIX_FRAME_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "packet.h"
#include "transport.h"

#define SS_UX_REQUEST_MAGIC 0x51445353u /* "SSDQ" */
#define SS_UX_MODEL_MAGIC 0x4D445353u   /* "SSDM" */
#define SS_UX_MODEL_MAX (8u + 8u * 64u) /* the most model counters a reply may carry */
#define SS_UX_REPLY_MAGIC 0x41445353u   /* "SSDA" */
#define SS_UX_REQUEST_HDR_SIZE 32u
#define SS_UX_REPLY_HDR_SIZE 48u
#define SS_UX_SENSE_MAX 32u
#define SS_UX_DATA_MAX 33554432u

/* dir on the socket */
#define SS_UX_DIR_NONE 0u
#define SS_UX_DIR_TO_DRIVE 1u
#define SS_UX_DIR_FROM_DRIVE 2u

struct ss_ux_reply_hdr {
	uint32_t tag;
	uint8_t scsi_status;
	uint8_t sense_len;
	uint8_t sense[SS_UX_SENSE_MAX];
	uint32_t data_len;
};

static inline void ss_ux_encode_request(uint8_t *h, uint32_t tag, const struct ss_xfer *x)
{
	uint32_t dir = x->dir == SS_SAT_DIR_OUT  ? SS_UX_DIR_TO_DRIVE
		       : x->dir == SS_SAT_DIR_IN ? SS_UX_DIR_FROM_DRIVE
						 : SS_UX_DIR_NONE;

	ss_put_le32(h, SS_UX_REQUEST_MAGIC);
	ss_put_le32(h + 4, tag);
	memcpy(h + 8, x->cdb, 16);
	ss_put_le32(h + 24, dir);
	ss_put_le32(h + 28, dir == SS_UX_DIR_NONE ? 0 : x->len);
}

static inline void ss_ux_encode_model_request(uint8_t *h, uint32_t tag)
{
	memset(h, 0, SS_UX_REQUEST_HDR_SIZE);
	ss_put_le32(h, SS_UX_MODEL_MAGIC);
	ss_put_le32(h + 4, tag);
}

/* Model counters by their index on the wire (struct ss_emu_counters order). */
enum ss_ux_model_index {
	SS_UX_M_PAGE_READS = 0,
	SS_UX_M_PAGE_PROGRAMS = 1,
	SS_UX_M_BLOCK_ERASES = 2,
	SS_UX_M_HOST_COMMANDS = 10,
	SS_UX_M_LINK_BYTES_IN = 11,
	SS_UX_M_LINK_BYTES_OUT = 12,
	SS_UX_M_ISP_INSTRUCTIONS = 13,
	SS_UX_M_ISP_DRAM_ACCESSES = 14,
	SS_UX_M_ISP_PAGES = 15,
	SS_UX_M_LINK_BUSY_NS = 18,
	SS_UX_M_ISP_BUSY_NS = 19,
	SS_UX_M_NOW_NS = 20,
	SS_UX_M_ENERGY_NAND_READ_NJ = 21,
	SS_UX_M_ENERGY_NAND_PROGRAM_NJ = 22,
	SS_UX_M_ENERGY_NAND_ERASE_NJ = 23,
	SS_UX_M_ENERGY_LINK_NJ = 24,
	SS_UX_M_ENERGY_ISP_NJ = 25,
	SS_UX_M_ENERGY_IDLE_NJ = 26,
	SS_UX_M_ENERGY_TOTAL_NJ = 27,
	SS_UX_M_HOST_NOW_NS = 28,
};

/* The counter at index i of a model reply of len bytes (8 + 8 N); 0 past N. */
static inline uint64_t ss_ux_model_at(const uint8_t *b, uint32_t len, uint32_t i)
{
	uint32_t n = ss_get_le32(b);

	return i < n && 8u + 8u * i + 8u <= len ? ss_get_le64(b + 8 + 8 * i) : 0;
}

static inline void ss_ux_decode_model(const uint8_t *b, uint32_t len, struct ss_dev_model *m)
{
	m->now_ns = ss_ux_model_at(b, len, SS_UX_M_NOW_NS);
	m->host_commands = ss_ux_model_at(b, len, SS_UX_M_HOST_COMMANDS);
	m->link_bytes_in = ss_ux_model_at(b, len, SS_UX_M_LINK_BYTES_IN);
	m->link_bytes_out = ss_ux_model_at(b, len, SS_UX_M_LINK_BYTES_OUT);
	m->page_reads = ss_ux_model_at(b, len, SS_UX_M_PAGE_READS);
	m->page_programs = ss_ux_model_at(b, len, SS_UX_M_PAGE_PROGRAMS);
	m->block_erases = ss_ux_model_at(b, len, SS_UX_M_BLOCK_ERASES);
	m->isp_instructions = ss_ux_model_at(b, len, SS_UX_M_ISP_INSTRUCTIONS);
	m->isp_dram_accesses = ss_ux_model_at(b, len, SS_UX_M_ISP_DRAM_ACCESSES);
	m->isp_pages = ss_ux_model_at(b, len, SS_UX_M_ISP_PAGES);
	m->link_busy_ns = ss_ux_model_at(b, len, SS_UX_M_LINK_BUSY_NS);
	m->isp_busy_ns = ss_ux_model_at(b, len, SS_UX_M_ISP_BUSY_NS);
	m->energy_nand_read_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_NAND_READ_NJ);
	m->energy_nand_program_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_NAND_PROGRAM_NJ);
	m->energy_nand_erase_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_NAND_ERASE_NJ);
	m->energy_link_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_LINK_NJ);
	m->energy_isp_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_ISP_NJ);
	m->energy_idle_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_IDLE_NJ);
	m->energy_total_nj = ss_ux_model_at(b, len, SS_UX_M_ENERGY_TOTAL_NJ);
	m->host_now_ns = ss_ux_model_at(b, len, SS_UX_M_HOST_NOW_NS);
}

/* \return 0, or -EBADMSG when the header is not a reply header. */
static inline int ss_ux_decode_reply(const uint8_t *h, struct ss_ux_reply_hdr *r)
{
	if (ss_get_le32(h) != SS_UX_REPLY_MAGIC)
		return -EBADMSG;
	r->tag = ss_get_le32(h + 4);
	r->scsi_status = h[8];
	r->sense_len = h[9];
	if (r->sense_len > SS_UX_SENSE_MAX)
		return -EBADMSG;
	memcpy(r->sense, h + 12, SS_UX_SENSE_MAX);
	r->data_len = ss_get_le32(h + 44);
	return 0;
}

#endif
