/*
 * The open-channel opcodes (GEOMETRY, CHUNK_REPORT, VECTOR_WRITE, VECTOR_READ, CHUNK_RESET),
 * the zoned ones (ZONE_REPORT, ZONE_OPEN, ZONE_CLOSE, ZONE_FINISH, ZONE_RESET,
 * ZONE_APPEND), and the standard block reads and writes of such a drive, all over the
 * chunks of cmd_chunk.c. A vector command checks every address against the rules before
 * it writes or erases anything.
 */
#include "cmd_internal.h"

#ifndef SS_FW_WITHOUT_CHUNKS

#define REPORT_MAX 4096u   /* entries one report returns */
#define CHUNK_BYTES ((uint32_t)sizeof(struct ss_wire_chunk))
#define PPA_BYTES ((uint32_t)sizeof(struct ss_wire_ppa))

uint32_t fw_geometry_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = sizeof(struct ss_wire_geometry);
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	return rq->reply_max < *cap ? SS_R_BAD_FIELD : SS_R_OK;
}

void fw_geometry(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	fw_chunks_geometry(fw, rep->payload);
	rep->payload_len = sizeof(struct ss_wire_geometry);
}

uint32_t fw_chunk_report_check(const struct fw_req *rq, uint32_t *cap)
{
	uint64_t n = SS_MIN(rq->length, (uint64_t)REPORT_MAX);

	*cap = 0;
	if (rq->payload_len) {
		return SS_R_BAD_LENGTH;
	}
	if (rq->length == 0 || rq->reply_max < CHUNK_BYTES) {
		return SS_R_BAD_FIELD;
	}
	*cap = (uint32_t)SS_MIN(n * CHUNK_BYTES, (uint64_t)rq->reply_max / CHUNK_BYTES * CHUNK_BYTES);
	return SS_R_OK;
}

void fw_chunk_report(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	const struct fw_chunks *c = &fw->chunks;
	uint32_t n = 0;

	if (rq->offset >= c->count) {
		fw_rep_error(rep, -SS_ERANGE, SS_R_LBA_RANGE);
		return;
	}
	while (n < rep->cap / CHUNK_BYTES && rq->offset + n < c->count) {
		fw_chunks_describe(fw, (uint32_t)rq->offset + n, rep->payload + n * CHUNK_BYTES);
		n++;
	}
	rep->payload_len = n * CHUNK_BYTES;
	rep->value[0] = n;
}

/* `length` addresses, then (a write) their sectors and (SS_VECTOR_META) metadata. */
static uint32_t vector_check(const struct fw_req *rq, uint32_t data_sectors)
{
	uint32_t meta = rq->flags & SS_VECTOR_META ? SS_SECTOR_META : 0;

	if (rq->length == 0 || rq->length > SS_VECTOR_MAX) {
		return SS_R_BAD_FIELD;
	}
	if (rq->payload_len !=
	    rq->length * PPA_BYTES + data_sectors * rq->length * (SS_SECTOR + meta)) {
		return SS_R_BAD_LENGTH;
	}
	return SS_R_OK;
}

uint32_t fw_vector_write_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = 0;
	return vector_check(rq, 1);
}

uint32_t fw_vector_read_check(const struct fw_req *rq, uint32_t *cap)
{
	uint32_t rc = vector_check(rq, 0);

	*cap = rc ? 0 : (uint32_t)rq->length *
				(SS_SECTOR + (rq->flags & SS_VECTOR_META ? SS_SECTOR_META : 0));
	if (rc == SS_R_OK && rq->reply_max < *cap) {
		return SS_R_BAD_FIELD;
	}
	return rc;
}

uint32_t fw_chunk_reset_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = 0;
	return vector_check(rq, 0);
}

/* Address i of the request: its chunk and sector, or the reason it is none. */
static uint32_t ppa_at(const struct ss_fw *fw, const struct fw_req *rq, uint32_t i,
		       uint32_t *idx, uint32_t *sector)
{
	const struct fw_chunks *c = &fw->chunks;
	const uint8_t *p = rq->payload + i * PPA_BYTES;
	uint32_t group = ss_get_le32(p + offsetof(struct ss_wire_ppa, group));
	uint32_t pu = ss_get_le32(p + offsetof(struct ss_wire_ppa, pu));
	uint32_t chunk = ss_get_le32(p + offsetof(struct ss_wire_ppa, chunk));

	*sector = ss_get_le32(p + offsetof(struct ss_wire_ppa, sector));
	if (group >= c->groups || pu >= c->pus || chunk >= c->chunks_per_pu ||
	    *sector >= c->sectors) {
		return SS_R_LBA_RANGE;
	}
	*idx = (group * c->pus + pu) * c->chunks_per_pu + chunk;
	return SS_R_OK;
}

/* The vector's runs: consecutive addresses of one chunk, consecutive sectors. */
static uint32_t run_end(const struct ss_fw *fw, const struct fw_req *rq, uint32_t i)
{
	uint32_t idx, sector, j = i + 1;

	(void)ppa_at(fw, rq, i, &idx, &sector);
	while (j < rq->length) {
		uint32_t idx2, sector2;

		if (ppa_at(fw, rq, j, &idx2, &sector2) || idx2 != idx ||
		    sector2 != sector + (j - i)) {
			break;
		}
		j++;
	}
	return j;
}

void fw_vector_write(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	struct fw_chunks *c = &fw->chunks;
	const uint8_t *data = rq->payload + rq->length * PPA_BYTES;
	const uint8_t *meta = rq->flags & SS_VECTOR_META ? data + rq->length * SS_SECTOR : NULL;
	uint32_t saved_wp[SS_VECTOR_MAX], saved_idx[SS_VECTOR_MAX], runs = 0, reason = SS_R_OK;
	uint32_t idx, sector, i, j;

	if (meta && !fw_chunks_meta_fits(fw)) {
		/* the page's spare has no room for every sector's metadata */
		fw_rep_error(rep, -SS_EINVAL, SS_R_BAD_FIELD);
		return;
	}
	/* every run against the write pointers the runs before it leave */
	for (i = 0; i < rq->length && reason == SS_R_OK; i = j) {
		reason = ppa_at(fw, rq, i, &idx, &sector);
		if (reason) {
			break;
		}
		j = run_end(fw, rq, i);
		reason = fw_chunks_write_check(fw, idx, sector, j - i);
		saved_idx[runs] = idx;
		saved_wp[runs++] = c->c[idx].wp;
		c->c[idx].wp += j - i;
	}
	while (runs--) {
		c->c[saved_idx[runs]].wp = saved_wp[runs];
	}
	if (reason) {
		fw_rep_error(rep, reason == SS_R_CHUNK_OFFLINE ? -SS_EIO : -SS_EINVAL, reason);
		return;
	}
	for (i = 0; i < rq->length; i = j) {
		int rc;

		(void)ppa_at(fw, rq, i, &idx, &sector);
		j = run_end(fw, rq, i);
		rc = fw_chunks_write(fw, idx, data + (uint64_t)i * SS_SECTOR,
				     meta ? meta + (uint64_t)i * SS_SECTOR_META : NULL, j - i);
		if (rc) {
			fw_rep_error(rep, rc, SS_R_MEDIA_ERROR);
			break;
		}
		rep->value[0] = j;
	}
}

void fw_vector_read(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint8_t *meta = rq->flags & SS_VECTOR_META ? rep->payload + rq->length * SS_SECTOR : NULL;
	uint32_t idx, sector, reason = SS_R_OK, i, j;

	if (meta && !fw_chunks_meta_fits(fw)) {
		reason = SS_R_BAD_FIELD;
	}
	for (i = 0; i < rq->length && reason == SS_R_OK; i = j) {
		reason = ppa_at(fw, rq, i, &idx, &sector);
		j = reason ? i : run_end(fw, rq, i);
		if (reason == SS_R_OK) {
			reason = fw_chunks_read_check(fw, idx, sector, j - i);
		}
	}
	if (reason) {
		fw_rep_error(rep, reason == SS_R_CHUNK_OFFLINE ? -SS_EIO : -SS_EINVAL, reason);
		return;
	}
	for (i = 0; i < rq->length; i = j) {
		int rc;

		(void)ppa_at(fw, rq, i, &idx, &sector);
		j = run_end(fw, rq, i);
		rc = fw_chunks_read(fw, idx, sector, rep->payload + (uint64_t)i * SS_SECTOR,
				    meta ? meta + (uint64_t)i * SS_SECTOR_META : NULL, j - i);
		if (rc) {
			fw_rep_error(rep, rc, SS_R_MEDIA_ERROR);
			return;
		}
	}
	rep->payload_len = (uint32_t)rq->length * (SS_SECTOR + (meta ? SS_SECTOR_META : 0));
}

void fw_chunk_reset(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t idx, sector, reason;
	int err;

	for (uint32_t i = 0; i < rq->length; i++) {
		reason = ppa_at(fw, rq, i, &idx, &sector);
		if (reason == SS_R_OK && sector != 0) {
			reason = SS_R_BAD_FIELD;
		}
		if (reason) {
			fw_rep_error(rep, -SS_EINVAL, reason);
			return;
		}
	}
	for (uint32_t i = 0; i < rq->length; i++) {
		(void)ppa_at(fw, rq, i, &idx, &sector);
		reason = fw_chunks_reset(fw, idx, &err);
		if (reason) {
			fw_rep_error(rep, err, reason);
			rep->value[1] = i;   /* the chunk that failed */
			return;
		}
		rep->value[0] = i + 1;
	}
}

uint32_t fw_zone_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = 0;
	return rq->payload_len ? SS_R_BAD_LENGTH : SS_R_OK;
}

/* The zone whose first LBA is rq->offset. */
static bool zone_of(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep,
		    uint32_t *idx)
{
	uint32_t sector, reason = fw_chunks_locate(fw, rq->offset, idx, &sector);

	if (reason == SS_R_OK && sector != 0) {
		reason = SS_R_BAD_FIELD;
	}
	if (reason) {
		fw_rep_error(rep, reason == SS_R_LBA_RANGE ? -SS_ERANGE : -SS_EINVAL, reason);
		return false;
	}
	return true;
}

void fw_zone_transition(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t idx, reason;

	if (!zone_of(fw, rq, rep, &idx)) {
		return;
	}
	reason = fw_chunks_transition(fw, idx, rq->opcode);
	if (reason) {
		fw_rep_error(rep, reason == SS_R_CHUNK_OFFLINE || reason == SS_R_MEDIA_ERROR ?
				  -SS_EIO : -SS_EINVAL, reason);
	}
}

void fw_zone_reset(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t idx, reason;
	int err;

	if (!zone_of(fw, rq, rep, &idx)) {
		return;
	}
	reason = fw_chunks_reset(fw, idx, &err);
	if (reason) {
		fw_rep_error(rep, err, reason);
	}
}

uint32_t fw_zone_append_check(const struct fw_req *rq, uint32_t *cap)
{
	*cap = 0;
	if (rq->payload_len == 0 || rq->payload_len % SS_SECTOR) {
		return SS_R_BAD_LENGTH;
	}
	return SS_R_OK;
}

void fw_zone_append(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint32_t idx, reason, n = rq->payload_len / SS_SECTOR;
	uint64_t lba;
	int rc;

	if (!zone_of(fw, rq, rep, &idx)) {
		return;
	}
	/* the drive picks the place: the write pointer, whatever it is */
	lba = rq->offset + fw->chunks.c[idx].wp;
	reason = fw_chunks_write_check(fw, idx, fw->chunks.c[idx].wp, n);
	if (reason) {
		fw_rep_error(rep, reason == SS_R_CHUNK_OFFLINE ? -SS_EIO :
				  reason == SS_R_CHUNK_FULL ? -SS_ENOSPC : -SS_EINVAL, reason);
		return;
	}
	rc = fw_chunks_write(fw, idx, rq->payload, NULL, n);
	if (rc) {
		fw_rep_error(rep, rc, SS_R_MEDIA_ERROR);
		return;
	}
	rep->value[0] = lba;
}

void fw_chunk_block_rw(struct ss_fw *fw, uint64_t lba, uint32_t sectors, bool write,
		       uint8_t *data, uint32_t len, struct ss_ata_result *res)
{
	uint32_t idx, sector, reason;
	int rc;

	if (!data || (uint64_t)sectors * SS_SECTOR > len) {
		fw_abort(res, SS_R_BAD_LENGTH);
		return;
	}
	reason = fw_chunks_locate(fw, lba, &idx, &sector);
	if (reason == SS_R_OK && (uint64_t)sector + sectors > fw->chunks.sectors) {
		/* one command stays within one chunk, as a zoned write stays within its zone */
		reason = write ? SS_R_CHUNK_FULL : SS_R_LBA_RANGE;
	}
	if (reason == SS_R_OK) {
		reason = write ? fw_chunks_write_check(fw, idx, sector, sectors)
			       : fw_chunks_read_check(fw, idx, sector, sectors);
	}
	if (reason) {
		fw_fail(res, reason == SS_R_LBA_RANGE ? SS_ATA_ERROR_ABRT | SS_ATA_ERROR_IDNF
						      : SS_ATA_ERROR_ABRT, reason);
		return;
	}
	rc = write ? fw_chunks_write(fw, idx, data, NULL, sectors)
		   : fw_chunks_read(fw, idx, sector, data, NULL, sectors);
	if (rc) {
		fw_fail(res, SS_ATA_ERROR_UNC, SS_R_MEDIA_ERROR);
		return;
	}
	fw_ok(res);
}

#endif
