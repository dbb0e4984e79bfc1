/*
 * The drive's LBA space: the FTL's logical pages cut into 512-byte sectors, read and
 * written through the drive's buffer (cmd_buffer.c); one command is one buffer request.
 * Sector writes that cover part of a page are read-modify-write. The object store's metadata
 * pages are not the host's to write or trim, and raw writes go only into pages of live
 * objects.
 */
#include "cmd_internal.h"

#define DSM_TRIM 0x1u
#define DSM_ENTRY 8u

static bool range_ok(const struct ss_fw *fw, uint64_t lba, uint64_t sectors)
{
	return lba <= fw->capacity_sectors && sectors <= fw->capacity_sectors - lba;
}

static bool range_protected(const struct ss_fw *fw, uint64_t lba, uint64_t sectors)
{
	uint64_t first = (uint64_t)fw->meta_first_lpn * fw->sectors_per_page;
	uint64_t end = first + (uint64_t)fw->meta_pages * fw->sectors_per_page;

	return fw->meta_pages && lba < end && lba + sectors > first;
}

/* The LBA space belongs to the object store: a raw write outside every live object would be
 * trimmed at the next mount, so it is refused rather than acknowledged and then lost. */
static bool range_owned(const struct ss_fw *fw, uint64_t lba, uint64_t sectors)
{
	uint64_t first = lba / fw->sectors_per_page;
	uint64_t last = (lba + sectors - 1) / fw->sectors_per_page;

	return ss_os_lpns_owned(fw->os, (uint32_t)first, (uint32_t)(last - first + 1));
}

static void io_error(struct ss_ata_result *res, int rc, bool write)
{
	if (rc == -SS_ENOSPC) {
		fw_abort(res, SS_R_DRIVE_FULL);
	} else if (write) {
		fw_abort(res, SS_R_MEDIA_ERROR);
	} else {
		fw_fail(res, SS_ATA_ERROR_UNC, SS_R_MEDIA_ERROR);
	}
}

static bool checks(const struct ss_fw *fw, uint64_t lba, uint32_t sectors, uint32_t len,
		   struct ss_ata_result *res)
{
	if ((uint64_t)sectors * SS_SECTOR != len) {
		fw_abort(res, SS_R_BAD_LENGTH);
		return false;
	}
	if (!range_ok(fw, lba, sectors)) {
		fw_fail(res, SS_ATA_ERROR_ABRT | SS_ATA_ERROR_IDNF, SS_R_LBA_RANGE);
		return false;
	}
	return true;
}

void fw_block_read(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint64_t lba,
		   uint32_t sectors, uint8_t *data, uint32_t len, struct ss_ata_result *res)
{
	uint32_t spp = fw->sectors_per_page;
	uint32_t done = 0;

	if (!checks(fw, lba, sectors, len, res)) {
		return;
	}
	ss_buf_begin(fw->buf);
	if (ss_buf_sector_io(fw->buf)) {
		/* the merge cache takes sectors: no read-modify-write of pages here */
		int rc = ss_buf_read_sectors(fw->buf, lba, sectors, data);

		ss_buf_end(fw->buf);
		if (rc < 0) {
			io_error(res, rc, false);
			return;
		}
		done = sectors;
	}
	while (done < sectors) {
		uint64_t s = lba + done;
		uint32_t lpn = (uint32_t)(s / spp);
		uint32_t in = (uint32_t)(s % spp);
		uint32_t n = SS_MIN(spp - in, sectors - done);
		uint8_t *dst = data + (size_t)done * SS_SECTOR;
		int rc;

		if (in == 0 && n >= spp) {
			n -= n % spp;   /* whole pages in one call */
			rc = ss_buf_read(fw->buf, lpn, n / spp, dst);
		} else {
			rc = ss_buf_read(fw->buf, lpn, 1, fw->page_buf);
			if (rc >= 0) {
				ss_memcpy(dst, fw->page_buf + (size_t)in * SS_SECTOR,
					  (size_t)n * SS_SECTOR);
			}
		}
		if (rc < 0) {
			ss_buf_end(fw->buf);
			io_error(res, rc, false);
			return;
		}
		done += n;
	}
	if (!ss_buf_sector_io(fw->buf)) {
		ss_buf_end(fw->buf);
	}
	fw->life.lbas_read += sectors;
	fw_ok(res);
}

void fw_block_write(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint64_t lba,
		    uint32_t sectors, const uint8_t *data, uint32_t len,
		    struct ss_ata_result *res)
{
	uint32_t spp = fw->sectors_per_page;
	uint32_t done = 0;
	unsigned fua = tf->command == FW_ATA_WRITE_DMA_FUA_EXT ? SS_FTL_FUA : 0;

	if (!checks(fw, lba, sectors, len, res)) {
		return;
	}
	if (range_protected(fw, lba, sectors) || !range_owned(fw, lba, sectors)) {
		fw_abort(res, SS_R_LBA_PROTECTED);
		return;
	}
	ss_buf_begin(fw->buf);
	if (ss_buf_sector_io(fw->buf)) {
		/* the merge cache takes sectors, durable on return: FUA adds nothing */
		int rc = ss_buf_write_sectors(fw->buf, lba, sectors, data);

		ss_buf_end(fw->buf);
		if (rc < 0) {
			io_error(res, rc, true);
			return;
		}
		fw->life.lbas_written += sectors;
		fw_ok(res);
		return;
	}
	while (done < sectors) {
		uint64_t s = lba + done;
		uint32_t lpn = (uint32_t)(s / spp);
		uint32_t in = (uint32_t)(s % spp);
		uint32_t n = SS_MIN(spp - in, sectors - done);
		const uint8_t *src = data + (size_t)done * SS_SECTOR;
		int rc;

		if (in == 0 && n >= spp) {
			n -= n % spp;
			rc = ss_buf_write(fw->buf, lpn, n / spp, src, SS_STREAM_COLD, fua);
		} else {
			rc = ss_buf_read(fw->buf, lpn, 1, fw->page_buf);
			if (rc >= 0) {
				ss_hal_barrier(fw->hal);
				ss_memcpy(fw->page_buf + (size_t)in * SS_SECTOR, src,
					  (size_t)n * SS_SECTOR);
				rc = ss_buf_write(fw->buf, lpn, 1, fw->page_buf, SS_STREAM_HOT, fua);
			}
		}
		if (rc < 0) {
			ss_buf_end(fw->buf);
			fw->life.lbas_written += done;
			io_error(res, rc, true);
			return;
		}
		done += n;
	}
	ss_buf_end(fw->buf);
	fw->life.lbas_written += sectors;
	fw_ok(res);
}

/* Zero sectors [in, in + n) of one page, so trimmed sectors read as zeros (IDENTIFY
 * word 69: deterministic, zeroed). */
static int zero_part(struct ss_fw *fw, uint32_t lpn, uint32_t in, uint32_t n)
{
	uint32_t ppn;
	int rc;

	if (ss_ftl_lookup(fw->ftl, lpn, &ppn) == 1 && !ss_buf_cached(fw->buf, lpn)) {
		return 0;   /* unmapped and not buffered: reads as zeros already */
	}
	if (ss_buf_sector_io(fw->buf)) {
		ss_memset(fw->page_buf, 0, (size_t)n * SS_SECTOR);
		return ss_buf_write_sectors(fw->buf, (uint64_t)lpn * fw->sectors_per_page + in, n,
					    fw->page_buf);
	}
	rc = ss_buf_read(fw->buf, lpn, 1, fw->page_buf);
	if (rc) {
		return rc;
	}
	ss_memset(fw->page_buf + (size_t)in * SS_SECTOR, 0, (size_t)n * SS_SECTOR);
	return ss_buf_write(fw->buf, lpn, 1, fw->page_buf, SS_STREAM_HOT, 0);
}

static int trim_range(struct ss_fw *fw, uint64_t lba, uint64_t sectors)
{
	uint32_t spp = fw->sectors_per_page;
	uint64_t end = lba + sectors;
	int rc;

	while (lba < end) {
		uint32_t lpn = (uint32_t)(lba / spp);
		uint32_t in = (uint32_t)(lba % spp);

		if (in == 0 && end - lba >= spp) {
			uint64_t pages = (end - lba) / spp;

			rc = ss_buf_trim(fw->buf, lpn, (uint32_t)pages);
			lba += pages * spp;
		} else {
			uint32_t n = (uint32_t)SS_MIN((uint64_t)(spp - in), end - lba);

			rc = zero_part(fw, lpn, in, n);
			lba += n;
		}
		if (rc < 0) {
			return rc;
		}
	}
	return 0;
}

void fw_block_trim(struct ss_fw *fw, const struct ss_ata_taskfile *tf, const uint8_t *data,
		   uint32_t len, struct ss_ata_result *res)
{
	uint32_t blocks = tf->count;
	uint32_t n = len / DSM_ENTRY;

	if (!(tf->features & DSM_TRIM)) {
		fw_abort(res, SS_R_BAD_FIELD);
		return;
	}
	if (blocks == 0 || blocks > FW_DSM_MAX_BLOCKS || len != blocks * SS_SECTOR) {
		fw_abort(res, SS_R_BAD_LENGTH);
		return;
	}
	/* All or nothing: every entry is checked before any is applied. */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t e = ss_get_le64(data + (size_t)i * DSM_ENTRY);
		uint64_t lba = e & 0xFFFFFFFFFFFFull, cnt = e >> 48;

		if (cnt == 0) {
			continue;
		}
		if (!range_ok(fw, lba, cnt)) {
			fw_fail(res, SS_ATA_ERROR_ABRT | SS_ATA_ERROR_IDNF, SS_R_LBA_RANGE);
			return;
		}
		if (range_protected(fw, lba, cnt)) {
			fw_abort(res, SS_R_LBA_PROTECTED);
			return;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t e = ss_get_le64(data + (size_t)i * DSM_ENTRY);
		int rc;

		if ((e >> 48) == 0) {
			continue;
		}
		rc = trim_range(fw, e & 0xFFFFFFFFFFFFull, e >> 48);
		if (rc) {
			io_error(res, rc, true);
			return;
		}
	}
	fw_ok(res);
}

void fw_block_flush(struct ss_fw *fw, struct ss_ata_result *res)
{
	int rc;

#ifndef SS_FW_WITHOUT_CHUNKS
	if (fw->state == FW_CHUNKED) {
		if (fw_chunks_persist(fw)) {
			fw_abort(res, SS_R_MEDIA_ERROR);
		} else {
			fw_ok(res);
		}
		return;
	}
#endif
	(void)fw_smart_record_store(fw, false);
	rc = ss_os_flush(fw->os);
	if (rc) {
		fw_abort(res, SS_R_MEDIA_ERROR);
		return;
	}
	fw_ok(res);
}
