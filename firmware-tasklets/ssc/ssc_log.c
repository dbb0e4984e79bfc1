/*
 * The operation log (§4.3.2 "Logging"): records of every state change, buffered in one
 * DRAM page and programmed into the newest checkpoint's log blocks. Operations
 * with immediate guarantees (write-dirty, evict, a write-clean that replaces data) commit
 * synchronously; the buffered ones (write-clean of an absent block, clean) are group
 * committed. A commit first syncs the data pages its records point to, then programs the
 * log page and syncs again, so a durable record never names data that is not.
 *
 * A group commit of records no operation needs durable (write-clean of an absent block,
 * clean) is off the command's path: the flash sees the same programs in the same order,
 * but the commit is charged to the background timeline (GC and checkpoints done at idle),
 * starting once everything programmed so far is done. So the command neither waits for
 * the data pages in flight, its own group's among them, nor for the log page, as on a
 * controller that queues the log page behind the data and answers the host. The host
 * waits for that commit only where a later step depends on it: a synchronous commit (its
 * log page comes after) and the erase of a block a record freed (ssc_wait_behind).
 *
 * Log page: 0 magic  4 count  8 epoch(8)  16 first seq(8)  24 zero(4)  28 crc (header
 * bytes 0..27 and the records), then `count` records of 24 bytes:
 *   0 type  1 dirty  2 zero(2)  4 block/ppn  8 seq(8)  16 lba or group(8)
 */
#include "ssc_internal.h"

_Static_assert(SSC_LOG_HDR_BYTES == 32 && SSC_REC_BYTES == 24, "log page layout");

uint32_t ssc_recs_per_page(const struct ss_ssc *c)
{
	return (c->page_size - SSC_LOG_HDR_BYTES) / SSC_REC_BYTES;
}

void ssc_rec_encode(uint8_t *raw, const struct ssc_rec *r)
{
	ss_memset(raw, 0, SSC_REC_BYTES);
	raw[0] = r->type;
	raw[1] = r->dirty;
	ss_put_le32(raw + 4, r->block);
	ss_put_le64(raw + 8, r->seq);
	ss_put_le64(raw + 16, r->key);
}

void ssc_rec_decode(const uint8_t *raw, struct ssc_rec *r)
{
	r->type = raw[0];
	r->dirty = raw[1];
	r->block = ss_get_le32(raw + 4);
	r->seq = ss_get_le64(raw + 8);
	r->key = ss_get_le64(raw + 16);
}

static uint32_t page_crc(const uint8_t *page, uint32_t count)
{
	uint32_t crc = ss_crc32c(0, page, 28);

	return ss_crc32c(crc, page + SSC_LOG_HDR_BYTES, (size_t)count * SSC_REC_BYTES);
}

int ssc_sync(struct ss_ssc *c)
{
	int rc;

	if (!c->unsynced) {
		return 0;
	}
	rc = ss_hal_sync(c->hal);
	if (rc == 0) {
		c->unsynced = false;
	}
	return rc;
}

int ssc_log(struct ss_ssc *c, struct ssc_rec *r)
{
	int rc;

	r->seq = c->seq + 1;
	rc = ssc_apply(c, r);
	if (rc) {
		return rc;
	}
	c->seq = r->seq;
	ssc_rec_encode(c->logbuf + SSC_LOG_HDR_BYTES + (size_t)c->pending * SSC_REC_BYTES, r);
	c->pending++;
	if (c->pending == ssc_recs_per_page(c)) {
		return ssc_group_commit(c);
	}
	return 0;
}

void ssc_wait_behind(struct ss_ssc *c)
{
	ss_hal_not_before(c->hal, c->behind_end);
}

int ssc_group_commit(struct ss_ssc *c)
{
	uint64_t t;
	int rc;

	if (!c->commit_behind) {
		return ssc_commit(c);
	}
	/* the cache runs on the host timeline; the device clock is past every page issued */
	t = ss_hal_now_ns(c->hal);
	ss_hal_set_timeline(c->hal, SS_HAL_TL_BACKGROUND);
	ss_hal_not_before(c->hal, t);
	rc = ssc_commit(c);
	c->behind_end = ss_hal_now_ns(c->hal);
	ss_hal_set_timeline(c->hal, SS_HAL_TL_HOST);
	return rc;
}

int ssc_commit(struct ss_ssc *c)
{
	uint32_t ppn, area = c->log_area_blocks * c->ppb;
	struct ssc_spare s;
	uint8_t *p = c->logbuf;
	int rc;

	ssc_wait_behind(c);
	if (c->pending == 0) {
		return ssc_sync(c);
	}
	if (c->log_page >= area) {
		/* the log is as long as a checkpoint: fold it into a new one */
		return ssc_checkpoint(c);
	}
	rc = ssc_sync(c);
	if (rc) {
		return rc;
	}
	ss_memset(p, 0, SSC_LOG_HDR_BYTES);
	ss_put_le32(p, SSC_LOG_MAGIC);
	ss_put_le32(p + 4, c->pending);
	ss_put_le64(p + 8, c->epoch);
	ss_put_le64(p + 16, c->seq - c->pending + 1);
	ss_memset(p + SSC_LOG_HDR_BYTES + (size_t)c->pending * SSC_REC_BYTES, 0,
		  c->page_size - SSC_LOG_HDR_BYTES - (size_t)c->pending * SSC_REC_BYTES);
	ss_put_le32(p + 28, page_crc(p, c->pending));
	ppn = ssc_log_ppn(c, c->log_page);
	ss_memset(&s, 0, sizeof(s));
	s.kind = SSC_KIND_LOG;
	s.lba = c->epoch;
	s.seq = c->seq - c->pending + 1;
	c->log_page++;  /* a failed program may still have used the page */
	rc = ssc_program(c, ppn, p, &s);
	if (rc) {
		/* replay stops at this page, so records after it would be lost: fold everything
		 * into a checkpoint instead */
		return ssc_checkpoint(c);
	}
	c->pending = 0;
	c->committed_seq = c->seq;
	c->st.log_commits++;
	return ssc_sync(c);
}

int ssc_replay(struct ss_ssc *c)
{
	uint32_t area = c->log_area_blocks * c->ppb;
	uint8_t *p = c->logbuf;
	int rc = 0;

	c->replaying = true;
	c->st.replayed_records = 0;
	for (c->log_page = 0; c->log_page < area; c->log_page++) {
		struct ssc_spare s;
		uint32_t count;

		if (ssc_read_page(c, ssc_log_ppn(c, c->log_page), p, &s) != 0 || s.kind != SSC_KIND_LOG ||
		    s.lba != c->epoch) {
			break;
		}
		count = ss_get_le32(p + 4);
		if (ss_get_le32(p) != SSC_LOG_MAGIC || count == 0 || count > ssc_recs_per_page(c) ||
		    ss_get_le64(p + 8) != c->epoch || ss_get_le32(p + 28) != page_crc(p, count) ||
		    ss_get_le64(p + 16) != c->seq + 1) {
			break;   /* the end of the log: a page never committed */
		}
		for (uint32_t i = 0; i < count; i++) {
			struct ssc_rec r;

			ssc_rec_decode(p + SSC_LOG_HDR_BYTES + (size_t)i * SSC_REC_BYTES, &r);
			if (r.seq != c->seq + 1) {
				rc = -SS_EBADMSG;
				goto out;
			}
			rc = ssc_apply(c, &r);
			if (rc) {
				goto out;
			}
			c->seq = r.seq;
			c->st.replayed_records++;
		}
	}
out:
	c->committed_seq = c->seq;
	c->replaying = false;
	return rc;
}
