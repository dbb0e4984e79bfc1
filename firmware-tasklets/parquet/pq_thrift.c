/*
 * The Thrift compact protocol, as far as a Parquet PageHeader needs it: zigzag varints,
 * field headers with deltas, and skipping whatever we do not read (statistics, CRC, unknown
 * future fields) without following more than PQ_MAX_DEPTH nested structs.
 */
#include "pq_internal.h"

#define PQ_MAX_DEPTH 8

int pq_varint(struct pq_thrift *t, uint64_t *v, unsigned max_bits)
{
	uint64_t x = 0;
	unsigned shift = 0;
	size_t start = t->pos;

	for (;;) {
		uint8_t b;

		if (t->pos >= t->len) {
			return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, t->pos);
		}
		b = t->buf[t->pos++];
		if (shift >= max_bits || (shift + 7 > max_bits && (b & 0x7F) >> (max_bits - shift))) {
			return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_BAD_VARINT, start);
		}
		x |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80)) {
			break;
		}
		shift += 7;
	}
	*v = x;
	return 0;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

int pq_thrift_i32(struct pq_thrift *t, int32_t *v)
{
	uint64_t raw;
	int rc = pq_varint(t, &raw, 32);

	if (rc) {
		return rc;
	}
	*v = (int32_t)unzigzag(raw);
	return 0;
}

int pq_thrift_field(struct pq_thrift *t, int16_t *id, uint8_t *type)
{
	uint8_t b;

	if (t->pos >= t->len) {
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, t->pos);
	}
	b = t->buf[t->pos++];
	*type = b & 0x0F;
	if (*type == PQ_CT_STOP) {
		return 0;
	}
	if (b >> 4) {
		*id = (int16_t)(*id + (b >> 4));
	} else {
		uint64_t raw;
		int rc = pq_varint(t, &raw, 16);

		if (rc) {
			return rc;
		}
		*id = (int16_t)unzigzag(raw);
	}
	return 0;
}

static int skip_bytes(struct pq_thrift *t, uint64_t n)
{
	if (n > t->len - t->pos) {
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, t->pos);
	}
	t->pos += (size_t)n;
	return 0;
}

static int skip(struct pq_thrift *t, uint8_t type, unsigned depth);

/* A container's element: a bool takes a byte there, so every element takes at least one and
 * a lying count runs out of bytes instead of looping. */
static int skip_elem(struct pq_thrift *t, uint8_t type, unsigned depth)
{
	if (type == PQ_CT_TRUE || type == PQ_CT_FALSE) {
		return skip_bytes(t, 1);
	}
	return skip(t, type, depth + 1);
}

static int skip(struct pq_thrift *t, uint8_t type, unsigned depth)
{
	uint64_t v;
	int rc;

	if (depth > PQ_MAX_DEPTH) {
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_BAD_THRIFT, t->pos);
	}
	switch (type) {
	case PQ_CT_TRUE:
	case PQ_CT_FALSE:
		return 0;	/* a bool field's value is in its type; a list's bools take a byte */
	case PQ_CT_BYTE:
		return skip_bytes(t, 1);
	case PQ_CT_I16:
		return pq_varint(t, &v, 16);
	case PQ_CT_I32:
		return pq_varint(t, &v, 32);
	case PQ_CT_I64:
		return pq_varint(t, &v, 64);
	case PQ_CT_DOUBLE:
		return skip_bytes(t, 8);
	case PQ_CT_BINARY:
		rc = pq_varint(t, &v, 32);
		return rc ? rc : skip_bytes(t, v);
	case PQ_CT_LIST:
	case PQ_CT_SET: {
		uint8_t h, elem;

		if (t->pos >= t->len) {
			return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, t->pos);
		}
		h = t->buf[t->pos++];
		elem = h & 0x0F;
		v = h >> 4;
		if (v == 15) {
			rc = pq_varint(t, &v, 32);
			if (rc) {
				return rc;
			}
		}
		for (uint64_t i = 0; i < v; i++) {
			rc = skip_elem(t, elem, depth);
			if (rc) {
				return rc;
			}
		}
		return 0;
	}
	case PQ_CT_MAP: {
		uint8_t kv;

		rc = pq_varint(t, &v, 32);
		if (rc || v == 0) {
			return rc;
		}
		if (t->pos >= t->len) {
			return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_TRUNCATED, t->pos);
		}
		kv = t->buf[t->pos++];
		for (uint64_t i = 0; i < v; i++) {
			rc = skip_elem(t, kv >> 4, depth);
			if (!rc) {
				rc = skip_elem(t, kv & 0x0F, depth);
			}
			if (rc) {
				return rc;
			}
		}
		return 0;
	}
	case PQ_CT_STRUCT: {
		int16_t id = 0;
		uint8_t ft;

		for (;;) {
			rc = pq_thrift_field(t, &id, &ft);
			if (rc || ft == PQ_CT_STOP) {
				return rc;
			}
			rc = skip(t, ft, depth + 1);
			if (rc) {
				return rc;
			}
		}
	}
	default:
		return pq_fail(t->err, -SS_EBADMSG, SS_PQ_E_BAD_THRIFT, t->pos ? t->pos - 1 : 0);
	}
}

int pq_thrift_skip(struct pq_thrift *t, uint8_t type)
{
	return skip(t, type, 0);
}
