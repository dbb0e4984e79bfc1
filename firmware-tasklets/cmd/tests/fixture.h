/*
 * Test fixture for the command layer: a small emulated drive running the firmware, the
 * ATA call, and a host-side packet codec written from PROTOCOL.md independently of the
 * firmware's code (its own CRC-32C, its own field offsets). The command tests and the
 * fuzz harnesses (firmware-tasklets/fuzz/) share it.
 */
#ifndef CMD_FIXTURE_H
#define CMD_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ss_emu_flash.h"
#include "ss_fw.h"
#include "ss_proto.h"
#include "ss_rt.h"

extern int fx_failures;

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
				#cond);                                              \
			fx_failures++;                                               \
		}                                                                    \
	} while (0)

#define CHECK_EQ(a, b)                                                                   \
	do {                                                                             \
		unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
		if (_a != _b) {                                                          \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %llu (0x%llx), %s = %llu (0x%llx)\n", \
				__FILE__, __LINE__, #a, _a, _a, #b, _b, _b);             \
			fx_failures++;                                                   \
		}                                                                        \
	} while (0)

/* Small drive: 4 channels x 1 way x 32 blocks x 32 pages of 8 KiB. */
#define FX_CHANNELS 4
#define FX_BLOCKS_PER_DIE 32
#define FX_PAGES_PER_BLOCK 32
#define FX_PAGE_SIZE 8192
#define FX_BUF_BYTES ((2u << 20) + 8192u)

/* How fx_create_with builds the drive; zero fields take the defaults above. */
struct fx_opts {
	struct ss_geometry geo;   /* channels 0: the FX_* drive */
	uint32_t endurance;       /* 0: the profile's */
	uint32_t max_objects;     /* 0: the object store's default */
	uint32_t cache_share_permille; /* the solid-state cache's share; 0: no cache */
	uint32_t interface;       /* enum ss_interface; 0: the FTL */
	const char *tmpdir;       /* where the image goes; NULL: /tmp */
	const char *profile;      /* emulator profile; NULL: the emulator's default. With a
				   * profile and no geo, the profile's geometry and DRAM */
};

struct fx {
	struct fx_opts opts;
	char dir[64];
	char path[128];
	struct ss_emu_flash *flash;
	struct ss_hal *hal;    /* the emulator's hal seen through fault injection (whal) */
	struct ss_hal whal;
	struct ss_hal_ops wops;
	struct ss_hal *inner;
	int fail_reads;        /* page reads return -SS_EIO while set */
	struct ss_fw *fw;
	uint8_t *buf;          /* transfer buffer, FX_BUF_BYTES */
	uint16_t session;
	uint16_t seq;
};

/** Create an image and format the firmware on it as o says. */
void fx_create_with(struct fx *f, const struct fx_opts *o);
/** Create an image and format the firmware on it (endurance 0: the profile's). */
void fx_create(struct fx *f, uint32_t endurance);
/** The same with an object table of max_objects (0: the store's default). */
void fx_create_objs(struct fx *f, uint32_t endurance, uint32_t max_objects);
/** Clean shutdown, close the image, reopen and mount. */
void fx_remount(struct fx *f);
/** Close the image without a shutdown (power loss), reopen and mount. */
void fx_crash(struct fx *f);
void fx_destroy(struct fx *f);

void fx_ata(struct fx *f, uint8_t cmd, uint16_t features, uint16_t count, uint64_t lba,
	    uint8_t *data, uint32_t len, struct ss_ata_result *res);
/** Call ss_fw_idle until it reports no work (bounded). \return the calls made. */
int fx_idle(struct fx *f);

/* ---- host-side codec ----------------------------------------------------------------- */

uint32_t fx_crc32c(uint32_t crc, const void *p, size_t n);
/** Little-endian n-byte field at p. */
uint64_t fx_get(const uint8_t *p, int n);
void fx_put(uint8_t *p, uint64_t v, int n);

struct fx_pkt {
	uint16_t opcode;
	uint32_t tag;
	uint32_t flags;
	uint64_t oid, offset, length, host_time;
	uint32_t reply_max;
	const void *payload;
	uint32_t payload_len;
};

struct fx_reply {
	uint32_t magic;
	uint16_t version, opcode;
	uint32_t tag;
	int32_t status;
	uint32_t reason, payload_len;
	uint64_t v[3];
	const uint8_t *payload;
	int crc_ok;
};

/** Encode into out (zero padded); \return the transfer size in bytes. */
uint32_t fx_encode(const struct fx_pkt *p, uint8_t *out);
/** SEND an encoded packet of `bytes` with LBA `lba`. */
void fx_send_raw(struct fx *f, uint64_t lba, uint8_t *pkt, uint32_t bytes,
		 struct ss_ata_result *res);
void fx_send(struct fx *f, const struct fx_pkt *p, struct ss_ata_result *res);
/** RECV into f->buf with a transfer of `sectors`; decodes into r when it succeeds. */
void fx_recv(struct fx *f, uint32_t tag, uint32_t sectors, struct fx_reply *r,
	     struct ss_ata_result *res);
/** Next tag of the fixture's session. */
uint32_t fx_tag(struct fx *f);
/** SEND then RECV (both must be accepted); fills tag and a generous reply_max when 0.
 *  \return the reply status. */
int32_t fx_call(struct fx *f, struct fx_pkt *p, struct fx_reply *r);
/** Open the fixture's session (f->session). */
void fx_open_session(struct fx *f);

/* Short forms over fx_call. \return reply status; oid out when given. */
int32_t fx_create_path(struct fx *f, const char *path, uint32_t type, uint32_t flags,
		       uint64_t *oid);
int32_t fx_write(struct fx *f, uint64_t oid, uint64_t off, const void *data, uint32_t len);
int32_t fx_read(struct fx *f, uint64_t oid, uint64_t off, void *out, uint32_t len,
		uint32_t *nread);

/* Reading ATA result reasons */
#define FX_ABORTED(res, reason)                                                          \
	((res).status & SS_ATA_STATUS_ERR && (res).error & SS_ATA_ERROR_ABRT &&          \
	 (res).lba == (reason))

#endif
