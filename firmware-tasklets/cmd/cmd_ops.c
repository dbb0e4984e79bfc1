/*
 * The opcode table: one entry per vendor opcode of ss_proto.h, with everything the
 * dispatcher (cmd_object.c) needs to know about it. Adding a command is one entry here and
 * one check/handler pair (native/PROTOCOL.md, "Adding a command"); cmd_ops_ut checks the
 * table against the opcode list of PROTOCOL.md.
 */
#include "cmd_internal.h"

#define OPI(name_, ifs_, flags_, sessionless_, mutates_, check_, exec_)                   \
	{                                                                                 \
		.opcode = SS_OP_##name_, .name = #name_, .interfaces = (ifs_),             \
		.allowed_flags = (flags_), .sessionless = (sessionless_),                  \
		.mutates = (mutates_), .check = (check_), .exec = (exec_),                 \
	}
/* the object store, tasklets and cache run on the FTL: its interface only */
#define OP(name_, ...) OPI(name_, FW_IF_FTL, __VA_ARGS__)
#define SESSIONLESS true
#define SESSION false
#define MUTATES true
#define READS false

const struct fw_op fw_ops[] = {
	OPI(OPEN_SESSION, FW_IF_ALL, 0, SESSIONLESS, READS, fw_no_payload_check,
	    fw_op_open_session),
	OPI(CLOSE_SESSION, FW_IF_ALL, 0, SESSION, READS, fw_no_payload_check,
	    fw_op_close_session),
	OPI(DRIVE_INFO, FW_IF_ALL, 0, SESSIONLESS, READS, fw_drive_info_check, fw_drive_info),

	OP(LOOKUP, 0, SESSION, READS, fw_ns_lookup_check, fw_ns_lookup),
	OP(CREATE, SS_CREATE_EXCL | SS_CREATE_PARENTS, SESSION, MUTATES, fw_ns_create_check,
	   fw_ns_create),
	OP(WRITE, SS_WRITE_FUA | SS_WRITE_ORDERED, SESSION, MUTATES, fw_ns_write_check, fw_ns_write),
	OP(READ, 0, SESSION, READS, fw_ns_read_check, fw_ns_read),
	OP(TRUNCATE, 0, SESSION, MUTATES, fw_ns_oid_check, fw_ns_truncate),
	OP(REMOVE, SS_REMOVE_RECURSIVE, SESSION, MUTATES, fw_ns_remove_check, fw_ns_remove),
	OP(RENAME, SS_RENAME_NOREPLACE, SESSION, MUTATES, fw_ns_rename_check, fw_ns_rename),
	OP(STAT, 0, SESSION, READS, fw_ns_stat_check, fw_ns_stat),
	OP(LIST, 0, SESSION, READS, fw_ns_list_check, fw_ns_list),
	OP(SET_TIMES, 0, SESSION, MUTATES, fw_ns_oid_check, fw_ns_set_times),
	OP(EXTENTS, 0, SESSION, READS, fw_ns_extents_check, fw_ns_extents),
	OPI(FLUSH, FW_IF_ALL, 0, SESSION, MUTATES, fw_no_payload_check, fw_drive_flush),
	OP(FSSTAT, 0, SESSION, READS, fw_drive_fsstat_check, fw_drive_fsstat),

	OP(CREATE_OBJECT, SS_CREATE_OBJ_OUTPUT | SS_CREATE_EXCL | SS_CREATE_PARENTS, SESSION,
	   MUTATES, fw_isp_create_check, fw_isp_create),
	OP(EXECUTE_OBJECT, 0, SESSION, MUTATES, fw_isp_execute_check, fw_isp_execute),
	OP(READ_OBJECT, 0, SESSION, READS, fw_isp_read_check, fw_isp_read),
	OP(DESTROY_OBJECT, 0, SESSION, MUTATES, fw_isp_destroy_check, fw_isp_destroy),
	OP(ISP_QUEUE, 0, SESSION, READS, fw_isp_queue_check, fw_isp_queue),
#ifndef SS_FW_WITHOUT_BPF /* the board answers them BAD_OPCODE */
	OP(TASKLET_LOAD, SS_TASKLET_LOAD_REPLACE, SESSION, MUTATES, fw_bpf_load_check,
	   fw_bpf_load),
	OP(TASKLET_LIST, 0, SESSION, READS, fw_bpf_list_check, fw_bpf_list),
	OP(TASKLET_REMOVE, 0, SESSION, MUTATES, fw_bpf_remove_check, fw_bpf_remove),
#endif

	OP(COUNTERS, 0, SESSION, READS, fw_drive_counters_check, fw_drive_counters),
	OP(CHECK, 0, SESSION, READS, fw_drive_check_check, fw_drive_check),

	/* the cache holds no object data: none of its opcodes changes an object */
	OP(SSC_INFO, 0, SESSION, READS, fw_ssc_info_check, fw_ssc_info),
	OP(SSC_WRITE_DIRTY, 0, SESSION, READS, fw_ssc_write_check, fw_ssc_write_dirty),
	OP(SSC_WRITE_CLEAN, 0, SESSION, READS, fw_ssc_write_check, fw_ssc_write_clean),
	OP(SSC_READ, SS_SSC_READ_TRIM, SESSION, READS, fw_ssc_read_check, fw_ssc_read),
	OP(SSC_EVICT, 0, SESSION, READS, fw_ssc_range_check, fw_ssc_evict),
	OP(SSC_CLEAN, 0, SESSION, READS, fw_ssc_range_check, fw_ssc_clean),
	OP(SSC_EXISTS, 0, SESSION, READS, fw_ssc_exists_check, fw_ssc_exists),
	/* writes the instance's output object */
	OP(SSC_SCAN, SS_SSC_SCAN_BLOCK_HEADER, SESSION, MUTATES, fw_ssc_scan_check, fw_ssc_scan),

	/* attributes are metadata: none of their opcodes drops the read-ahead buffer */
	OP(SET_ATTR, SS_ATTR_CREATE | SS_ATTR_REPLACE, SESSION, READS, fw_attr_set_check,
	   fw_attr_set),
	OP(GET_ATTR, 0, SESSION, READS, fw_attr_name_check, fw_attr_get),
	OP(LIST_ATTRS, 0, SESSION, READS, fw_attr_list_check, fw_attr_list),
	OP(REMOVE_ATTR, 0, SESSION, READS, fw_attr_name_check, fw_attr_remove),

#ifndef SS_FW_WITHOUT_CHUNKS
	/* no object data on these drives: none of their opcodes is MUTATES */
	OPI(GEOMETRY, FW_IF_OC | FW_IF_ZONED, 0, SESSION, READS, fw_geometry_check, fw_geometry),
	OPI(CHUNK_REPORT, FW_IF_OC, 0, SESSION, READS, fw_chunk_report_check, fw_chunk_report),
	OPI(VECTOR_WRITE, FW_IF_OC, SS_VECTOR_META, SESSION, READS, fw_vector_write_check, fw_vector_write),
	OPI(VECTOR_READ, FW_IF_OC, SS_VECTOR_META, SESSION, READS, fw_vector_read_check, fw_vector_read),
	OPI(CHUNK_RESET, FW_IF_OC, 0, SESSION, READS, fw_chunk_reset_check, fw_chunk_reset),
	OPI(ZONE_REPORT, FW_IF_ZONED, 0, SESSION, READS, fw_chunk_report_check, fw_chunk_report),
	OPI(ZONE_OPEN, FW_IF_ZONED, 0, SESSION, READS, fw_zone_check, fw_zone_transition),
	OPI(ZONE_CLOSE, FW_IF_ZONED, 0, SESSION, READS, fw_zone_check, fw_zone_transition),
	OPI(ZONE_FINISH, FW_IF_ZONED, 0, SESSION, READS, fw_zone_check, fw_zone_transition),
	OPI(ZONE_RESET, FW_IF_ZONED, 0, SESSION, READS, fw_zone_check, fw_zone_reset),
	OPI(ZONE_APPEND, FW_IF_ZONED, 0, SESSION, READS, fw_zone_append_check, fw_zone_append),
#endif
};

const uint32_t fw_ops_count = SS_ARRAY_SIZE(fw_ops);

const struct fw_op *fw_op_find(uint16_t opcode)
{
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(fw_ops); i++) {
		if (fw_ops[i].opcode == opcode) {
			return &fw_ops[i];
		}
	}
	return NULL;
}

/* struct ss_fw's withheld_ops holds a bit per opcode below 100h */
#define FITS_WITHHELD_OPS(name_, code_) \
	_Static_assert((code_) < 0x100, "opcode " #name_ " is past ss_fw.withheld_ops");
SS_PROTO_OPCODES(FITS_WITHHELD_OPS)
#undef FITS_WITHHELD_OPS

int fw_op_withheld(const struct ss_fw *fw, uint16_t opcode)
{
	return opcode < 32 * SS_ARRAY_SIZE(fw->withheld_ops) &&
	       (fw->withheld_ops[opcode / 32] >> (opcode % 32) & 1u);
}

static int name_is(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int ss_fw_withhold_opcode(struct ss_fw *fw, const char *name)
{
	for (uint32_t i = 0; i < fw_ops_count; i++) {
		uint16_t code = fw_ops[i].opcode;

		if (!name_is(fw_ops[i].name, name)) {
			continue;
		}
		fw->withheld_ops[code / 32] |= 1u << (code % 32);
		return 0;
	}
	return -SS_ENOENT;
}
