#define _GNU_SOURCE
#include "fixture.h"

#include <stdlib.h>
#include <unistd.h>

int fx_failures;

static void die(const char *what, int rc, const char *msg)
{
	fprintf(stderr, "fixture: %s failed: %d %s\n", what, rc, msg ? msg : "");
	exit(2);
}

/* Fault injection: the emulator's hal with page reads that fail on demand. */
static int w_read(void *ctx, uint32_t ppn, void *data, void *spare)
{
	struct fx *f = ctx;

	if (f->fail_reads) {
		return -SS_EIO;
	}
	return f->inner->ops->page_read(f->inner->ctx, ppn, data, spare);
}

static int w_program(void *ctx, uint32_t ppn, const void *data, const void *spare)
{
	struct fx *f = ctx;

	return f->inner->ops->page_program(f->inner->ctx, ppn, data, spare);
}

static int w_erase(void *ctx, uint32_t block)
{
	struct fx *f = ctx;

	return f->inner->ops->block_erase(f->inner->ctx, block);
}

static int w_sync(void *ctx)
{
	struct fx *f = ctx;

	return f->inner->ops->sync(f->inner->ctx);
}

static void w_barrier(void *ctx)
{
	struct fx *f = ctx;

	f->inner->ops->barrier(f->inner->ctx);
}

static void w_timeline(void *ctx, enum ss_hal_timeline tl)
{
	struct fx *f = ctx;

	f->inner->ops->set_timeline(f->inner->ctx, tl);
}

static void w_isp(void *ctx, uint64_t i, uint64_t d, uint64_t p)
{
	struct fx *f = ctx;

	f->inner->ops->isp_account(f->inner->ctx, i, d, p);
}

static uint64_t w_price(void *ctx, uint64_t i, uint64_t d, uint64_t p)
{
	struct fx *f = ctx;

	return f->inner->ops->isp_price_ns(f->inner->ctx, i, d, p);
}

static uint64_t w_now(void *ctx)
{
	struct fx *f = ctx;

	return f->inner->ops->now_ns(f->inner->ctx);
}

static void wrap(struct fx *f)
{
	f->inner = ss_emu_flash_hal(f->flash);
	f->wops = (struct ss_hal_ops){ .page_read = w_read, .page_program = w_program,
				       .block_erase = w_erase, .sync = w_sync, .barrier = w_barrier,
				       .set_timeline = w_timeline, .isp_account = w_isp,
				       .now_ns = w_now, .isp_price_ns = w_price };
	f->whal = *f->inner;
	f->whal.ops = &f->wops;
	f->whal.ctx = f;
	f->hal = &f->whal;
}

static void open_image(struct fx *f, int create)
{
	struct ss_emu_flash_opts o;
	char err[256] = "";
	int rc;

	memset(&o, 0, sizeof(o));
	o.geo = f->opts.geo;
	o.profile = f->opts.profile;
	if (o.geo.channels == 0 && o.profile == NULL) {
		o.geo.channels = FX_CHANNELS;
		o.geo.ways = 1;
		o.geo.blocks_per_die = FX_BLOCKS_PER_DIE;
		o.geo.pages_per_block = FX_PAGES_PER_BLOCK;
		o.geo.page_size = FX_PAGE_SIZE;
		o.geo.spare_size = 256;
	}
	o.endurance = create ? f->opts.endurance : 0;
	o.dram_bytes = o.geo.channels ? ss_fw_dram_needed(&o.geo) : 0;
	o.create = create;
	rc = ss_emu_flash_open(f->path, &o, &f->flash, err, sizeof(err));
	if (rc) {
		die("ss_emu_flash_open", rc, err);
	}
	wrap(f);
}

void fx_create(struct fx *f, uint32_t endurance)
{
	fx_create_objs(f, endurance, 0);
}

void fx_create_objs(struct fx *f, uint32_t endurance, uint32_t max_objects)
{
	struct fx_opts o = { .endurance = endurance, .max_objects = max_objects };

	fx_create_with(f, &o);
}

void fx_create_with(struct fx *f, const struct fx_opts *o)
{
	struct ss_fw_format_params fp = { .max_objects = o->max_objects,
					  .cache_share_permille = o->cache_share_permille,
					  .interface = o->interface };
	int rc;

	memset(f, 0, sizeof(*f));
	f->opts = *o;
	snprintf(f->dir, sizeof(f->dir), "%s/cmd_ut.XXXXXX", o->tmpdir ? o->tmpdir : "/tmp");
	if (!mkdtemp(f->dir)) {
		die("mkdtemp", -1, f->dir);
	}
	snprintf(f->path, sizeof(f->path), "%s/drive.img", f->dir);
	f->buf = calloc(1, FX_BUF_BYTES);
	if (!f->buf) {
		die("calloc", -1, NULL);
	}
	open_image(f, 1);
	rc = ss_fw_format(&f->fw, f->hal, &fp);
	if (rc) {
		die("ss_fw_format", rc, NULL);
	}
	f->seq = 1;
}

static void reopen(struct fx *f)
{
	int rc;

	open_image(f, 0);
	rc = ss_fw_mount(&f->fw, f->hal);
	if (rc) {
		die("ss_fw_mount", rc, NULL);
	}
	f->session = 0;
}

void fx_remount(struct fx *f)
{
	int rc = ss_fw_shutdown(f->fw);

	if (rc) {
		die("ss_fw_shutdown", rc, NULL);
	}
	ss_emu_flash_close(f->flash);
	reopen(f);
}

void fx_crash(struct fx *f)
{
	ss_emu_flash_close(f->flash);
	reopen(f);
}

void fx_destroy(struct fx *f)
{
	if (f->fw) {
		ss_fw_shutdown(f->fw);
	}
	if (f->flash) {
		ss_emu_flash_close(f->flash);
	}
	unlink(f->path);
	rmdir(f->dir);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

void fx_ata(struct fx *f, uint8_t cmd, uint16_t features, uint16_t count, uint64_t lba,
	    uint8_t *data, uint32_t len, struct ss_ata_result *res)
{
	struct ss_ata_taskfile tf = { .command = cmd, .device = 0x40, .features = features,
				      .count = count, .lba = lba };

	memset(res, 0xEE, sizeof(*res));
	ss_fw_ata_command(f->fw, &tf, data, len, res);
}

int fx_idle(struct fx *f)
{
	int n = 0;

	while (n < 1000000 && ss_fw_idle(f->fw)) {
		n++;
	}
	return n;
}

/* ---- host-side codec ----------------------------------------------------------------- */

uint32_t fx_crc32c(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++) {
			crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1)));
		}
	}
	return ~crc;
}

void fx_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
}

uint64_t fx_get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

static void put16(uint8_t *p, uint16_t v)
{
	fx_put(p, v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	fx_put(p, v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	fx_put(p, v, 8);
}

static uint64_t get(const uint8_t *p, int n)
{
	return fx_get(p, n);
}

uint32_t fx_encode(const struct fx_pkt *p, uint8_t *out)
{
	uint32_t bytes = (64 + p->payload_len + 511) / 512 * 512;
	uint32_t crc;

	memset(out, 0, bytes);
	put32(out + 0, 0x31445353u);
	put16(out + 4, 1);
	put16(out + 6, p->opcode);
	put32(out + 8, p->tag);
	put32(out + 12, p->flags);
	put64(out + 16, p->oid);
	put64(out + 24, p->offset);
	put64(out + 32, p->length);
	put64(out + 40, p->host_time);
	put32(out + 48, p->payload_len);
	put32(out + 52, p->reply_max);
	if (p->payload_len) {
		memcpy(out + 64, p->payload, p->payload_len);
	}
	crc = fx_crc32c(0, out, 64 + p->payload_len);
	put32(out + 60, crc);
	return bytes;
}

void fx_send_raw(struct fx *f, uint64_t lba, uint8_t *pkt, uint32_t bytes,
		 struct ss_ata_result *res)
{
	fx_ata(f, SS_ATA_OBJ_SEND, 0, (uint16_t)(bytes / 512), lba, pkt, bytes, res);
}

void fx_send(struct fx *f, const struct fx_pkt *p, struct ss_ata_result *res)
{
	static uint8_t pkt[FX_BUF_BYTES];
	uint32_t bytes = fx_encode(p, pkt);

	fx_send_raw(f, p->tag, pkt, bytes, res);
}

void fx_recv(struct fx *f, uint32_t tag, uint32_t sectors, struct fx_reply *r,
	     struct ss_ata_result *res)
{
	uint8_t *b = f->buf;
	uint8_t hdr[64];

	fx_ata(f, SS_ATA_OBJ_RECV, 0, (uint16_t)sectors, tag, b, sectors * 512, res);
	if (!r || (res->status & SS_ATA_STATUS_ERR)) {
		return;
	}
	r->magic = (uint32_t)get(b + 0, 4);
	r->version = (uint16_t)get(b + 4, 2);
	r->opcode = (uint16_t)get(b + 6, 2);
	r->tag = (uint32_t)get(b + 8, 4);
	r->status = (int32_t)(uint32_t)get(b + 12, 4);
	r->reason = (uint32_t)get(b + 16, 4);
	r->payload_len = (uint32_t)get(b + 20, 4);
	r->v[0] = get(b + 24, 8);
	r->v[1] = get(b + 32, 8);
	r->v[2] = get(b + 40, 8);
	r->payload = b + 64;
	memcpy(hdr, b, 64);
	memset(hdr + 60, 0, 4);
	r->crc_ok = r->payload_len <= sectors * 512 - 64 &&
		    fx_crc32c(fx_crc32c(0, hdr, 64), b + 64, r->payload_len) ==
			    (uint32_t)get(b + 60, 4);
}

uint32_t fx_tag(struct fx *f)
{
	return ((uint32_t)f->session << 16) | f->seq++;
}

int32_t fx_call(struct fx *f, struct fx_pkt *p, struct fx_reply *r)
{
	struct ss_ata_result res;

	if (p->tag == 0) {
		p->tag = fx_tag(f);
	}
	if (p->reply_max == 0) {
		p->reply_max = FX_BUF_BYTES - 64 - 8192;
	}
	fx_send(f, p, &res);
	if (res.status & SS_ATA_STATUS_ERR) {
		fprintf(stderr, "fx_call: SEND of opcode 0x%x rejected, reason %llu\n", p->opcode,
			(unsigned long long)res.lba);
		fx_failures++;
		memset(r, 0, sizeof(*r));
		r->status = -1000;
		return r->status;
	}
	/* the SEND's count is the reply's size in sectors */
	CHECK(res.count >= 1 && res.count <= FX_BUF_BYTES / 512);
	fx_recv(f, p->tag, res.count, r, &res);
	if (res.status & SS_ATA_STATUS_ERR) {
		fprintf(stderr, "fx_call: RECV of tag 0x%x rejected, reason %llu\n", p->tag,
			(unsigned long long)res.lba);
		fx_failures++;
		r->status = -1001;
		return r->status;
	}
	CHECK(r->crc_ok);
	CHECK_EQ(r->magic, 0x52445353u);
	CHECK_EQ(r->tag, p->tag);
	CHECK_EQ(r->opcode, p->opcode);
	return r->status;
}

void fx_open_session(struct fx *f)
{
	struct fx_pkt p = { .opcode = SS_OP_OPEN_SESSION };
	struct fx_reply r;

	f->session = 0;
	p.tag = 0x1234 + f->seq++;
	if (fx_call(f, &p, &r) != 0 || r.v[0] == 0 || r.v[0] > 0xFFFF) {
		die("OPEN_SESSION", r.status, NULL);
	}
	f->session = (uint16_t)r.v[0];
}

int32_t fx_create_path(struct fx *f, const char *path, uint32_t type, uint32_t flags,
		       uint64_t *oid)
{
	struct fx_pkt p = { .opcode = SS_OP_CREATE, .offset = type, .flags = flags,
			    .payload = path, .payload_len = (uint32_t)strlen(path),
			    .host_time = 1000 };
	struct fx_reply r;
	int32_t st = fx_call(f, &p, &r);

	if (oid) {
		*oid = st == 0 ? r.v[0] : 0;
	}
	return st;
}

int32_t fx_write(struct fx *f, uint64_t oid, uint64_t off, const void *data, uint32_t len)
{
	struct fx_pkt p = { .opcode = SS_OP_WRITE, .oid = oid, .offset = off, .payload = data,
			    .payload_len = len, .host_time = 2000 };
	struct fx_reply r;

	return fx_call(f, &p, &r);
}

int32_t fx_read(struct fx *f, uint64_t oid, uint64_t off, void *out, uint32_t len,
		uint32_t *nread)
{
	struct fx_pkt p = { .opcode = SS_OP_READ, .oid = oid, .offset = off, .length = len };
	struct fx_reply r;
	int32_t st = fx_call(f, &p, &r);

	if (st == 0) {
		memcpy(out, r.payload, r.payload_len);
	}
	if (nread) {
		*nread = st == 0 ? r.payload_len : 0;
	}
	return st;
}
