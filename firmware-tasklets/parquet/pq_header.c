/*
 * PageHeader (parquet.thrift): type 1, uncompressed_page_size 2, compressed_page_size 3,
 * crc 4, data_page_header 5, index_page_header 6, dictionary_page_header 7,
 * data_page_header_v2 8. DataPageHeader: num_values 1, encoding 2,
 * definition_level_encoding 3, repetition_level_encoding 4, statistics 5.
 * DictionaryPageHeader: num_values 1, encoding 2, is_sorted 3.
 */
#include "pq_internal.h"

#define HAVE(f) (1u << (f))

static int nonneg_i32(struct pq_thrift *t, uint8_t type, uint32_t *out)
{
	size_t at = t->pos;
	int32_t v;
	int rc;

	if (type != PQ_CT_I32) {
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, at);
	}
	rc = pq_thrift_i32(t, &v);
	if (rc) {
		return rc;
	}
	if (v < 0) {
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, at);
	}
	*out = (uint32_t)v;
	return 0;
}

/* DataPageHeader or DictionaryPageHeader: their first two fields agree; *seen gets a bit per
 * field id read. */
static int sub_header(struct pq_thrift *t, struct ss_pq_page_header *h, int data, uint32_t *seen)
{
	int16_t id = 0;
	uint8_t type;
	uint32_t v;
	int rc;

	for (;;) {
		rc = pq_thrift_field(t, &id, &type);
		if (rc || type == PQ_CT_STOP) {
			return rc;
		}
		if (id >= 1 && id <= (data ? 4 : 2)) {
			rc = nonneg_i32(t, type, &v);
			if (rc) {
				return rc;
			}
			*seen |= HAVE(id);
			switch (id) {
			case 1: h->num_values = v; break;
			case 2: h->encoding = (enum ss_pq_encoding)v; break;
			case 3: h->def_level_encoding = (enum ss_pq_encoding)v; break;
			default: h->rep_level_encoding = (enum ss_pq_encoding)v; break;
			}
		} else {
			rc = pq_thrift_skip(t, type);
			if (rc) {
				return rc;
			}
		}
	}
}

int ss_pq_read_page_header(const uint8_t *buf, size_t len, struct ss_pq_page_header *h,
			   size_t *hdr_len, struct ss_pq_error *err)
{
	struct pq_thrift t = { .buf = buf, .len = len, .pos = 0, .err = err };
	uint32_t seen = 0, sub_seen = 0, v;
	int16_t id = 0;
	uint8_t type;
	int sub = 0;	/* the page's own sub-header was read */
	int rc;

	ss_memset(h, 0, sizeof(*h));
	for (;;) {
		size_t at = t.pos;

		rc = pq_thrift_field(&t, &id, &type);
		if (rc) {
			return rc;
		}
		if (type == PQ_CT_STOP) {
			break;
		}
		if (id >= 1 && id <= 3) {
			rc = nonneg_i32(&t, type, &v);
			if (rc) {
				return rc;
			}
			seen |= HAVE(id);
			if (id == 1) {
				h->type = (enum ss_pq_page_type)v;
			} else if (id == 2) {
				h->uncompressed_size = v;
			} else {
				h->compressed_size = v;
			}
		} else if ((id == 5 || id == 7) && (seen & HAVE(1))) {
			/* Only the sub-header that matches the page type counts. */
			if (type != PQ_CT_STRUCT) {
				return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, at);
			}
			if ((id == 5 && h->type == SS_PQ_DATA_PAGE) ||
			    (id == 7 && h->type == SS_PQ_DICTIONARY_PAGE)) {
				if (sub) {
					return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, at);
				}
				rc = sub_header(&t, h, id == 5, &sub_seen);
				sub = 1;
			} else {
				rc = pq_thrift_skip(&t, type);
			}
			if (rc) {
				return rc;
			}
		} else {
			rc = pq_thrift_skip(&t, type);
			if (rc) {
				return rc;
			}
		}
	}
	*hdr_len = t.pos;
	if ((seen & (HAVE(1) | HAVE(2) | HAVE(3))) != (HAVE(1) | HAVE(2) | HAVE(3))) {
		return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, t.pos);
	}
	if (h->type != SS_PQ_DATA_PAGE && h->type != SS_PQ_DICTIONARY_PAGE) {
		if (h->type == SS_PQ_INDEX_PAGE || h->type == SS_PQ_DATA_PAGE_V2) {
			return pq_fail(err, -SS_ENOSYS, SS_PQ_E_UNSUPPORTED_PAGE, 0);
		}
		return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, 0);
	}
	/* num_values and encoding are required in both sub-headers, and so are the level
	 * encodings in a DataPageHeader. */
	if (!sub || (sub_seen & (HAVE(1) | HAVE(2))) != (HAVE(1) | HAVE(2)) ||
	    (h->type == SS_PQ_DATA_PAGE && (sub_seen & (HAVE(3) | HAVE(4))) != (HAVE(3) | HAVE(4)))) {
		return pq_fail(err, -SS_EBADMSG, SS_PQ_E_BAD_HEADER, t.pos);
	}
	return 0;
}
