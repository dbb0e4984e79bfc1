/*
 * The image file: a 4 KiB header, the block table (16 bytes per block: erase count, write
 * pointer, flags, CRC-32C of the first 12 bytes), then every page as data followed by its
 * spare area. Pages at or after their block's write pointer are erased and never read from
 * the file, so erased space can stay a hole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"
#include "ss_rt.h"

/* Header field offsets (little-endian). */
enum {
	H_MAGIC = 0, H_VERSION = 8, H_HDR_BYTES = 12, H_GEO = 16, H_ENDURANCE = 44,
	H_SPREAD = 48, H_FACTORY_BAD = 52, H_DRAM = 56, H_PROFILE = 64, H_MODEL = 96,
	H_SERIAL = 136, H_FWREV = 156, H_CREATED = 168, H_CREATED_BY = 176,
	H_TABLE_OFF = 240, H_DATA_OFF = 248, H_CRC = 256,
};
_Static_assert(H_CREATED_BY + 64 == H_TABLE_OFF && H_CRC + 4 <= EMU_HEADER_BYTES, "header layout");

static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

uint32_t emu_block_endurance(uint32_t block, uint32_t endurance, uint32_t spread_permille)
{
	/* s in [-1000, 1000]: this block's share of the spread, fixed by its number. */
	int64_t s = (int64_t)(mix32(block * 2u + 1u) % 2001u) - 1000;
	int64_t e = (int64_t)endurance * (1000000 + (int64_t)spread_permille * s) / 1000000;

	return e < 1 ? 1 : (uint32_t)e;
}

int emu_block_factory_bad(uint32_t block, uint32_t permille)
{
	return mix32(block ^ 0x5bd1e995u) % 1000u < permille;
}

uint64_t emu_page_offset(const struct ss_emu_flash *f, uint32_t ppn)
{
	return f->info.data_off + (uint64_t)ppn * f->stride;
}

static void put_str(uint8_t *h, size_t off, size_t cap, const char *s)
{
	size_t n = strnlen(s, cap);

	memcpy(h + off, s, n);
}

static void get_str(const uint8_t *h, size_t off, size_t cap, char *dst)
{
	memcpy(dst, h + off, cap);
	dst[cap] = '\0';
}

static void encode_header(const struct emu_image_info *in, uint8_t *h)
{
	const uint32_t geo[7] = { in->geo.channels, in->geo.ways, in->geo.blocks_per_die,
				  in->geo.pages_per_block, in->geo.page_size,
				  in->geo.spare_size, in->geo.overprovision_permille };

	memset(h, 0, EMU_HEADER_BYTES);
	memcpy(h + H_MAGIC, EMU_IMAGE_MAGIC, 8);
	ss_put_le32(h + H_VERSION, EMU_IMAGE_VERSION);
	ss_put_le32(h + H_HDR_BYTES, EMU_HEADER_BYTES);
	for (int i = 0; i < 7; i++) {
		ss_put_le32(h + H_GEO + 4 * i, geo[i]);
	}
	ss_put_le32(h + H_ENDURANCE, in->endurance);
	ss_put_le32(h + H_SPREAD, in->endurance_spread_permille);
	ss_put_le32(h + H_FACTORY_BAD, in->factory_bad_permille);
	ss_put_le64(h + H_DRAM, in->dram_bytes);
	put_str(h, H_PROFILE, 32, in->profile);
	put_str(h, H_MODEL, 40, in->model);
	put_str(h, H_SERIAL, 20, in->serial);
	put_str(h, H_FWREV, 8, in->firmware_rev);
	ss_put_le64(h + H_CREATED, in->created_unix);
	put_str(h, H_CREATED_BY, 64, in->created_by);
	ss_put_le64(h + H_TABLE_OFF, in->table_off);
	ss_put_le64(h + H_DATA_OFF, in->data_off);
	ss_put_le32(h + H_CRC, ss_crc32c(0, h, H_CRC));
}

static void decode_header(const uint8_t *h, struct emu_image_info *o)
{
	uint32_t *geo[7] = { &o->geo.channels, &o->geo.ways, &o->geo.blocks_per_die,
			     &o->geo.pages_per_block, &o->geo.page_size, &o->geo.spare_size,
			     &o->geo.overprovision_permille };

	for (int i = 0; i < 7; i++) {
		*geo[i] = ss_get_le32(h + H_GEO + 4 * i);
	}
	o->endurance = ss_get_le32(h + H_ENDURANCE);
	o->endurance_spread_permille = ss_get_le32(h + H_SPREAD);
	o->factory_bad_permille = ss_get_le32(h + H_FACTORY_BAD);
	o->dram_bytes = ss_get_le64(h + H_DRAM);
	get_str(h, H_PROFILE, 31, o->profile);
	get_str(h, H_MODEL, 40, o->model);
	get_str(h, H_SERIAL, 20, o->serial);
	get_str(h, H_FWREV, 8, o->firmware_rev);
	o->created_unix = ss_get_le64(h + H_CREATED);
	get_str(h, H_CREATED_BY, 63, o->created_by);
	o->table_off = ss_get_le64(h + H_TABLE_OFF);
	o->data_off = ss_get_le64(h + H_DATA_OFF);
}

static void encode_entry(const struct emu_block *b, uint8_t *e)
{
	ss_put_le32(e, b->erase_count);
	ss_put_le32(e + 4, b->write_ptr);
	ss_put_le32(e + 8, b->flags);
	ss_put_le32(e + 12, ss_crc32c(0, e, 12));
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return -SS_EIO;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return -SS_EIO;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int emu_image_write_block(struct ss_emu_flash *f, uint32_t block)
{
	uint8_t e[EMU_BLOCK_ENTRY_BYTES];

	encode_entry(&f->blocks[block], e);
	return write_all(f->fd, e, sizeof(e), f->info.table_off + (uint64_t)block * sizeof(e));
}

static uint64_t image_bytes(const struct ss_emu_flash *f);

void emu_image_map(struct ss_emu_flash *f)
{
	uint64_t len = image_bytes(f);
	void *m;

	if (len > SIZE_MAX) {
		return;
	}
	/* MAP_SHARED: the page cache itself, so every pwrite through fd is seen at once */
	m = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, f->fd, 0);
	if (m != MAP_FAILED) {
		f->map = m;
		f->map_len = (size_t)len;
	}
}

int emu_image_read_page(struct ss_emu_flash *f, uint32_t ppn, void *buf, size_t len,
			uint64_t at)
{
	if (f->map) {
		memcpy(buf, f->map + emu_page_offset(f, ppn) + at, len);
		return 0;
	}
	return read_all(f->fd, buf, len, emu_page_offset(f, ppn) + at);
}

int emu_image_read_page_spare(struct ss_emu_flash *f, uint32_t ppn, void *data, void *spare)
{
	size_t ps = f->info.geo.page_size, ss = f->info.geo.spare_size;
	uint64_t off = emu_page_offset(f, ppn);
	struct iovec iov[2] = { { data, ps }, { spare, ss } };
	ssize_t n;
	int rc;

	if (f->map) {
		memcpy(data, f->map + off, ps);
		memcpy(spare, f->map + off + ps, ss);
		return 0;
	}
	do {
		n = preadv(f->fd, iov, 2, (off_t)off);
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)(ps + ss)) {
		return 0;
	}
	if (n < 0) {
		return -SS_EIO;
	}
	/* a short read: the rest a buffer at a time */
	if ((size_t)n < ps) {
		rc = read_all(f->fd, (uint8_t *)data + n, ps - (size_t)n, off + (uint64_t)n);
		if (rc) {
			return rc;
		}
		n = (ssize_t)ps;
	}
	return read_all(f->fd, (uint8_t *)spare + ((size_t)n - ps), ss - ((size_t)n - ps),
			off + (uint64_t)n);
}

int emu_image_write_page(struct ss_emu_flash *f, uint32_t ppn, const void *buf)
{
	return write_all(f->fd, buf, f->stride, emu_page_offset(f, ppn));
}

static void layout(struct emu_image_info *in)
{
	uint64_t blocks = ss_geo_blocks(&in->geo);

	in->table_off = EMU_HEADER_BYTES;
	in->data_off = SS_ALIGN_UP(in->table_off + blocks * EMU_BLOCK_ENTRY_BYTES, 4096u);
}

static uint64_t image_bytes(const struct ss_emu_flash *f)
{
	return f->info.data_off + ss_geo_pages(&f->info.geo) * f->stride;
}

int emu_image_create(struct ss_emu_flash *f, char *err, size_t errlen)
{
	struct emu_image_info *in = &f->info;
	uint32_t blocks = ss_geo_blocks(&in->geo);
	uint8_t *buf = NULL;
	size_t tbytes = (size_t)blocks * EMU_BLOCK_ENTRY_BYTES;
	char host[32] = "";
	uint32_t nonce;
	int rc;

	layout(in);
	in->created_unix = (uint64_t)time(NULL);
	gethostname(host, sizeof(host) - 1);
	snprintf(in->created_by, sizeof(in->created_by), "smartssd-emu pid %ld on %s",
		 (long)getpid(), host);
	/* the serial is the drive's identity (the merge cache's NVRAM names it): random bits
	 * keep two images made at once, by one process, at one path, apart */
	if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
		nonce = (uint32_t)(uintptr_t)f ^ (uint32_t)clock();
	}
	snprintf(in->serial, sizeof(in->serial), "EMU%08X%08X",
		 ss_crc32c(0, in->created_by, strlen(in->created_by)) ^ (uint32_t)in->created_unix,
		 ss_crc32c(0, f->path, strlen(f->path)) ^ nonce);

	for (uint32_t b = 0; b < blocks; b++) {
		struct emu_block *blk = &f->blocks[b];

		memset(blk, 0, sizeof(*blk));
		blk->endurance = emu_block_endurance(b, in->endurance,
						     in->endurance_spread_permille);
		if (emu_block_factory_bad(b, in->factory_bad_permille)) {
			blk->flags = EMU_BLOCK_FAILED | EMU_BLOCK_FACTORY_BAD;
		}
	}
	buf = malloc(SS_MAX(tbytes, (size_t)EMU_HEADER_BYTES));
	if (buf == NULL) {
		emu_errf(err, errlen, "out of memory creating image %s", f->path);
		return -SS_ENOMEM;
	}
	/* Empty the file first so no old page survives as programmed data. */
	if (ftruncate(f->fd, 0) != 0 || ftruncate(f->fd, (off_t)image_bytes(f)) != 0) {
		emu_errf(err, errlen, "cannot size image %s to %llu bytes: %s", f->path,
			 (unsigned long long)image_bytes(f), strerror(errno));
		rc = errno == ENOSPC || errno == EFBIG ? -SS_ENOSPC : -SS_EIO;
		goto out;
	}
	for (uint32_t b = 0; b < blocks; b++) {
		encode_entry(&f->blocks[b], buf + (size_t)b * EMU_BLOCK_ENTRY_BYTES);
	}
	rc = write_all(f->fd, buf, tbytes, in->table_off);
	if (rc == 0) {
		encode_header(in, buf);
		rc = write_all(f->fd, buf, EMU_HEADER_BYTES, 0);
	}
	if (rc == 0 && fdatasync(f->fd) != 0) {
		rc = -SS_EIO;
	}
	if (rc != 0) {
		emu_errf(err, errlen, "cannot write image %s: %s", f->path, strerror(errno));
	}
out:
	free(buf);
	return rc;
}

static int load_table(struct ss_emu_flash *f, char *err, size_t errlen)
{
	uint32_t blocks = ss_geo_blocks(&f->info.geo);
	size_t tbytes = (size_t)blocks * EMU_BLOCK_ENTRY_BYTES;
	uint8_t *buf = malloc(tbytes);
	int rc = 0;

	if (buf == NULL) {
		emu_errf(err, errlen, "out of memory reading image %s", f->path);
		return -SS_ENOMEM;
	}
	if (read_all(f->fd, buf, tbytes, f->info.table_off) != 0) {
		emu_errf(err, errlen, "image %s: cannot read the block table", f->path);
		rc = -SS_EIO;
		goto out;
	}
	for (uint32_t b = 0; b < blocks; b++) {
		const uint8_t *e = buf + (size_t)b * EMU_BLOCK_ENTRY_BYTES;
		struct emu_block *blk = &f->blocks[b];

		if (ss_get_le32(e + 12) != ss_crc32c(0, e, 12)) {
			emu_errf(err, errlen, "image %s is corrupt: block table entry %u fails its "
				 "checksum", f->path, b);
			rc = -SS_EBADMSG;
			goto out;
		}
		blk->erase_count = ss_get_le32(e);
		blk->write_ptr = ss_get_le32(e + 4);
		blk->flags = ss_get_le32(e + 8);
		blk->endurance = emu_block_endurance(b, f->info.endurance,
						     f->info.endurance_spread_permille);
		if (blk->write_ptr > f->info.geo.pages_per_block) {
			emu_errf(err, errlen, "image %s is corrupt: block %u write pointer %u is past "
				 "its %u pages", f->path, b, blk->write_ptr,
				 f->info.geo.pages_per_block);
			rc = -SS_EBADMSG;
			goto out;
		}
	}
out:
	free(buf);
	return rc;
}

int emu_image_load(struct ss_emu_flash *f, char *err, size_t errlen)
{
	uint8_t h[EMU_HEADER_BYTES];
	struct stat st;
	uint32_t version;
	int rc;

	if (fstat(f->fd, &st) != 0) {
		emu_errf(err, errlen, "image %s: %s", f->path, strerror(errno));
		return -SS_EIO;
	}
	if ((uint64_t)st.st_size < EMU_HEADER_BYTES) {
		emu_errf(err, errlen, "image %s is truncated: %lld bytes, shorter than its %u-byte "
			 "header", f->path, (long long)st.st_size, EMU_HEADER_BYTES);
		return -SS_EBADMSG;
	}
	if (read_all(f->fd, h, sizeof(h), 0) != 0) {
		emu_errf(err, errlen, "image %s: cannot read the header", f->path);
		return -SS_EIO;
	}
	if (memcmp(h + H_MAGIC, EMU_IMAGE_MAGIC, 8) != 0) {
		emu_errf(err, errlen, "%s is not a smartssd emulator image (bad magic)", f->path);
		return -SS_EBADMSG;
	}
	version = ss_get_le32(h + H_VERSION);
	if (version != EMU_IMAGE_VERSION) {
		emu_errf(err, errlen, "image %s has format version %u; this build reads version %u",
			 f->path, version, EMU_IMAGE_VERSION);
		return -SS_EPROTO;
	}
	if (ss_get_le32(h + H_CRC) != ss_crc32c(0, h, H_CRC)) {
		emu_errf(err, errlen, "image %s is corrupt: header checksum mismatch", f->path);
		return -SS_EBADMSG;
	}
	decode_header(h, &f->info);
	rc = ss_emu_geometry_check(&f->info.geo, err, errlen);
	if (rc != 0) {
		emu_errf(err, errlen, "image %s is corrupt: its header holds an invalid geometry",
			 f->path);
		return -SS_EBADMSG;
	}
	f->stride = (uint64_t)f->info.geo.page_size + f->info.geo.spare_size;
	{
		struct emu_image_info want = f->info;

		layout(&want);
		if (want.table_off != f->info.table_off || want.data_off != f->info.data_off) {
			emu_errf(err, errlen, "image %s is corrupt: header layout offsets are wrong",
				 f->path);
			return -SS_EBADMSG;
		}
	}
	if ((uint64_t)st.st_size < image_bytes(f)) {
		emu_errf(err, errlen, "image %s is truncated: %lld bytes, its geometry needs %llu",
			 f->path, (long long)st.st_size, (unsigned long long)image_bytes(f));
		return -SS_EBADMSG;
	}
	f->blocks = calloc(ss_geo_blocks(&f->info.geo), sizeof(*f->blocks));
	if (f->blocks == NULL) {
		emu_errf(err, errlen, "out of memory opening image %s", f->path);
		return -SS_ENOMEM;
	}
	return load_table(f, err, errlen);
}
