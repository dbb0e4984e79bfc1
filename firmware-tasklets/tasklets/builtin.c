/*
 * The table of built-in tasklets, their registration, and what they all share: the
 * trailer and field-kind checks.
 */
#include "tasklets_internal.h"

#include "ss_isp.h"

static const struct ss_tasklet_desc *const builtins[] = {
	&ss_bt_group_agg,
	&ss_bt_topn,
	&ss_bt_filter,
	&ss_bt_grep,
	&ss_bt_dram_probe,
#ifndef SS_TASKLETS_NO_PARQUET
	&ss_bt_parquet_scan,
#endif
};

int ss_builtin_tasklets_register(struct ss_isp *isp)
{
	for (uint32_t i = 0; i < SS_ARRAY_SIZE(builtins); i++) {
		int rc = ss_isp_register(isp, builtins[i]);

		if (rc) {
			return rc;
		}
	}
	return 0;
}

int bt_emit_trailer(struct ss_tasklet_ctx *ctx, uint32_t id, uint64_t records_in,
		    uint64_t items_out, uint64_t aux)
{
	uint8_t t[sizeof(struct ss_bt_trailer)];

	ss_put_le32(t + offsetof(struct ss_bt_trailer, magic), SS_BT_TRAILER_MAGIC);
	ss_put_le32(t + offsetof(struct ss_bt_trailer, tasklet_id), id);
	ss_put_le64(t + offsetof(struct ss_bt_trailer, records_in), records_in);
	ss_put_le64(t + offsetof(struct ss_bt_trailer, items_out), items_out);
	ss_put_le64(t + offsetof(struct ss_bt_trailer, aux), aux);
	return ss_tasklet_emit(ctx, t, sizeof(t));
}

bool bt_field_is_int(const struct ss_layout *l, uint32_t idx)
{
	return l && idx < l->nfields && l->fields[idx].type >= SS_FIELD_U8 &&
	       l->fields[idx].type <= SS_FIELD_DECIMAL && l->fields[idx].type != SS_FIELD_BYTES;
}

bool bt_field_is_signed(const struct ss_layout *l, uint32_t idx)
{
	return bt_field_is_int(l, idx) &&
	       (l->fields[idx].type == SS_FIELD_I32 || l->fields[idx].type == SS_FIELD_I64 ||
		l->fields[idx].type > SS_FIELD_BYTES);
}

bool bt_field_is_float(const struct ss_layout *l, uint32_t idx)
{
	return l && idx < l->nfields &&
	       (l->fields[idx].type == SS_FIELD_F32 || l->fields[idx].type == SS_FIELD_F64);
}

uint32_t bt_field_bits(const struct ss_layout *l, uint32_t idx)
{
	const struct ss_field *f = &l->fields[idx];

	return f->bits ? f->bits : 8 * ss_field_width(f);
}

bool bt_field_is_bytes(const struct ss_layout *l, uint32_t idx)
{
	return l && idx < l->nfields && l->fields[idx].type == SS_FIELD_BYTES;
}
