/*
 * The unix: transport's side of smartssd-devd's framing: protocol/include/ss_devd_frame.h
 * holds the format, its encoders and decoders and the socket I/O, shared with the daemon;
 * this maps the transport's transfers and model counters onto it.
 */
#ifndef SS_NATIVE_TRANSPORT_UNIX_FRAME_H
#define SS_NATIVE_TRANSPORT_UNIX_FRAME_H

#include <stdint.h>

#include "ss_devd_frame.h"
#include "transport.h"

static inline void ss_ux_encode_request(uint8_t *h, uint32_t tag, const struct ss_xfer *x)
{
	struct ss_frame_request r = {
		.kind = SS_FRAME_COMMAND,
		.tag = tag,
		.dir = x->dir == SS_SAT_DIR_OUT  ? SS_FRAME_DIR_TO_DRIVE
		       : x->dir == SS_SAT_DIR_IN ? SS_FRAME_DIR_FROM_DRIVE
						 : SS_FRAME_DIR_NONE,
		.data_len = x->len,
	};

	memcpy(r.cdb, x->cdb, 16);
	ss_frame_encode_request(h, &r);
}

static inline void ss_ux_encode_model_request(uint8_t *h, uint32_t tag)
{
	struct ss_frame_request r = { .kind = SS_FRAME_MODEL, .tag = tag };

	ss_frame_encode_request(h, &r);
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
	SS_UX_M_NAND_READ_NJ = 29,
	SS_UX_M_FW_PAGE_OVERHEAD_NS = 30,
	SS_UX_M_ISP_PS_PER_INSTRUCTION = 31,
	SS_UX_M_DRAM_ACCESS_NS = 32,
	SS_UX_M_ISP_ACTIVE_MW = 33,
	SS_UX_M_LINK_PJ_PER_BYTE = 34,
};

static inline void ss_ux_decode_model(const uint8_t *b, uint32_t len, struct ss_dev_model *m)
{
#define AT(i) ss_frame_model_at(b, len, SS_UX_M_##i)
	m->now_ns = AT(NOW_NS);
	m->host_commands = AT(HOST_COMMANDS);
	m->link_bytes_in = AT(LINK_BYTES_IN);
	m->link_bytes_out = AT(LINK_BYTES_OUT);
	m->page_reads = AT(PAGE_READS);
	m->page_programs = AT(PAGE_PROGRAMS);
	m->block_erases = AT(BLOCK_ERASES);
	m->isp_instructions = AT(ISP_INSTRUCTIONS);
	m->isp_dram_accesses = AT(ISP_DRAM_ACCESSES);
	m->isp_pages = AT(ISP_PAGES);
	m->link_busy_ns = AT(LINK_BUSY_NS);
	m->isp_busy_ns = AT(ISP_BUSY_NS);
	m->energy_nand_read_nj = AT(ENERGY_NAND_READ_NJ);
	m->energy_nand_program_nj = AT(ENERGY_NAND_PROGRAM_NJ);
	m->energy_nand_erase_nj = AT(ENERGY_NAND_ERASE_NJ);
	m->energy_link_nj = AT(ENERGY_LINK_NJ);
	m->energy_isp_nj = AT(ENERGY_ISP_NJ);
	m->energy_idle_nj = AT(ENERGY_IDLE_NJ);
	m->energy_total_nj = AT(ENERGY_TOTAL_NJ);
	m->host_now_ns = AT(HOST_NOW_NS);
	m->nand_read_nj = AT(NAND_READ_NJ);
	m->fw_page_overhead_ns = AT(FW_PAGE_OVERHEAD_NS);
	m->isp_ps_per_instruction = AT(ISP_PS_PER_INSTRUCTION);
	m->dram_access_ns = AT(DRAM_ACCESS_NS);
	m->isp_active_mw = AT(ISP_ACTIVE_MW);
	m->link_pj_per_byte = AT(LINK_PJ_PER_BYTE);
#undef AT
}

#endif
