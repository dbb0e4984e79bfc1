/*
 * ATA command dispatch: the standard commands a SATA SSD serves, and the two vendor
 * commands that carry object packets.
 */
#include "cmd_internal.h"

#define ATA_DSM 0x06
#define ATA_READ_SECTORS 0x20
#define ATA_READ_SECTORS_EXT 0x24
#define ATA_READ_DMA_EXT 0x25
#define ATA_WRITE_SECTORS 0x30
#define ATA_WRITE_SECTORS_EXT 0x34
#define ATA_WRITE_DMA_EXT 0x35
#define ATA_WRITE_DMA_FUA_EXT FW_ATA_WRITE_DMA_FUA_EXT
#define ATA_SMART 0xB0
#define ATA_READ_DMA 0xC8
#define ATA_WRITE_DMA 0xCA
#define ATA_CHECK_POWER_MODE 0xE5
#define ATA_FLUSH_CACHE 0xE7
#define ATA_IDENTIFY 0xEC
#define ATA_FLUSH_CACHE_EXT 0xEA
#define ATA_SET_FEATURES 0xEF

#define LBA28_LIMIT (1ull << 28)

static void set_features(const struct ss_ata_taskfile *tf, struct ss_ata_result *res)
{
	switch (tf->features & 0xFF) {
	case 0x02: /* enable volatile write cache */
	case 0x03: /* set transfer mode: the link is emulated or SATA, nothing to change */
	case 0x55: /* disable read look-ahead */
	case 0xAA: /* enable read look-ahead */
		fw_ok(res);
		break;
	default:
		/* 0x82 (disable the write cache) included: writes are cached until FLUSH */
		fw_abort(res, SS_R_BAD_FIELD);
		break;
	}
}

static void rw(struct ss_fw *fw, const struct ss_ata_taskfile *tf, bool lba48, bool write,
	       uint8_t *data, uint32_t len, struct ss_ata_result *res)
{
	uint32_t sectors = tf->count & 0xFF;

	if (lba48) {
		sectors = tf->count ? tf->count : 65536u;
	} else if (sectors == 0) {
		sectors = 256;
	}
	if (!lba48 && tf->lba >= LBA28_LIMIT) {
		fw_fail(res, SS_ATA_ERROR_ABRT | SS_ATA_ERROR_IDNF, SS_R_LBA_RANGE);
		return;
	}
#ifndef SS_FW_WITHOUT_CHUNKS
	if (fw->state == FW_CHUNKED) {
		fw_chunk_block_rw(fw, tf->lba, sectors, write, data, len, res);
		return;
	}
#endif
	if (write) {
		fw_block_write(fw, tf, tf->lba, sectors, data, len, res);
	} else {
		fw_block_read(fw, tf, tf->lba, sectors, data, len, res);
	}
}

void ss_fw_ata_command(struct ss_fw *fw, const struct ss_ata_taskfile *tf, uint8_t *data,
		       uint32_t len, struct ss_ata_result *res)
{
	if (!res) {
		return;
	}
	if (!fw || !tf || fw->state == FW_DOWN) {
		fw_abort(res, SS_R_BUSY);
		return;
	}
	/* without its object store the drive answers only who it is and object commands */
	if (fw->state == FW_DAMAGED && tf->command != ATA_IDENTIFY &&
	    tf->command != ATA_CHECK_POWER_MODE && tf->command != SS_ATA_OBJ_SEND &&
	    tf->command != SS_ATA_OBJ_RECV) {
		fw_abort(res, SS_R_STORE_DAMAGED);
		return;
	}
#ifndef SS_FW_WITHOUT_CHUNKS
	/* an open-channel or zoned drive has no FTL to trim or keep SMART counters on */
	if (fw->state == FW_CHUNKED && (tf->command == ATA_SMART || tf->command == ATA_DSM)) {
		fw_abort(res, SS_R_WRONG_INTERFACE);
		return;
	}
#endif
	if (!data) {
		len = 0;
	}
	ss_hal_set_timeline(fw->hal, SS_HAL_TL_HOST);

	switch (tf->command) {
	case ATA_IDENTIFY:
		if (len < SS_SECTOR) {
			fw_abort(res, SS_R_BAD_LENGTH);
			break;
		}
		fw_identify(fw, data);
		ss_memset(data + SS_SECTOR, 0, len - SS_SECTOR);
		fw_ok(res);
		break;
	case ATA_SMART:
		fw_smart(fw, tf, data, len, res);
		break;
	case ATA_READ_DMA_EXT:
	case ATA_READ_SECTORS_EXT:
		rw(fw, tf, true, false, data, len, res);
		break;
	case ATA_READ_DMA:
	case ATA_READ_SECTORS:
		rw(fw, tf, false, false, data, len, res);
		break;
	case ATA_WRITE_DMA_EXT:
	case ATA_WRITE_DMA_FUA_EXT:
	case ATA_WRITE_SECTORS_EXT:
		rw(fw, tf, true, true, data, len, res);
		break;
	case ATA_WRITE_DMA:
	case ATA_WRITE_SECTORS:
		rw(fw, tf, false, true, data, len, res);
		break;
	case ATA_FLUSH_CACHE:
	case ATA_FLUSH_CACHE_EXT:
		fw_block_flush(fw, res);
		break;
	case ATA_DSM:
		fw_block_trim(fw, tf, data, len, res);
		break;
	case ATA_CHECK_POWER_MODE:
		fw_ok(res);
		res->count = 0xFF; /* active or idle */
		break;
	case ATA_SET_FEATURES:
		set_features(tf, res);
		break;
	case SS_ATA_OBJ_SEND:
		fw_obj_send(fw, tf, data, len, res);
		break;
	case SS_ATA_OBJ_RECV:
		fw_obj_recv(fw, tf, data, len, res);
		break;
	default:
		fw_abort(res, SS_R_BAD_OPCODE);
		break;
	}
}
