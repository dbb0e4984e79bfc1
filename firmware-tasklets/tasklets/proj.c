/* Projected fields: the encoding of builtin_tasklets.h ("projected fields"). */
#include "tasklets_internal.h"

bool bt_proj_valid(const struct ss_layout *l, const uint8_t *proj, uint32_t n)
{
	if (!l || n > SS_LAYOUT_MAX_FIELDS) {
		return false;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (proj[i] >= l->nfields) {
			return false;
		}
	}
	return true;
}

uint32_t bt_proj_max(const struct ss_layout *l, const uint8_t *proj, uint32_t n)
{
	uint32_t total = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct ss_field *f = &l->fields[proj[i]];

		if (f->type != SS_FIELD_BYTES) {
			total += 8;
		} else {
			total += 2 + (l->kind == SS_LAYOUT_FIXED ? f->width : l->record_size);
		}
	}
	return total;
}

uint32_t bt_proj_encode(struct ss_tasklet_ctx *ctx, const struct ss_record *rec,
			const uint8_t *proj, uint32_t n, uint8_t *out)
{
	const struct ss_layout *l = ss_tasklet_layout(ctx);
	uint32_t at = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (l->fields[proj[i]].type != SS_FIELD_BYTES) {
			ss_put_le64(out + at, ss_field_u64(ctx, rec, proj[i], NULL));
			at += 8;
		} else {
			uint32_t len;
			const uint8_t *p = ss_field_bytes(ctx, rec, proj[i], &len);

			ss_put_le16(out + at, (uint16_t)len);
			if (len) {
				ss_memcpy(out + at + 2, p, len);
			}
			ss_tasklet_dram(ctx, 2 * SS_DIV_ROUND_UP(len, 4));
			at += 2 + len;
		}
	}
	return at;
}
