/*
 * The unix: transport's side of smartssd-devd's framing: protocol/include/ss_devd_frame.h
 * holds the format, its encoders and decoders and the socket I/O, shared with the daemon;
 * this maps the transport's transfers and model counters onto it.
 */
#ifndef SS_NATIVE_TRANSPORT_UNIX_FRAME_H
#define SS_NATIVE_TRANSPORT_UNIX_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ss_devd_frame.h"
#include "ss_proto.h"
#include "transport.h"

static inline void ss_ux_encode_request(uint8_t *h, uint32_t tag, const struct ss_xfer *x)
{
	struct ss_frame_request r = {
		.kind = SS_FRAME_COMMAND,
		.tag = tag,
		.dir = x->dir == SS_SAT_DIR_OUT  ? SS_FRAME_DIR_TO_DRIVE
		       : x->dir == SS_SAT_DIR_IN ? SS_FRAME_DIR_FROM_DRIVE
						 : SS_FRAME_DIR_NONE,
		.data_len = x->len,
	};

	memcpy(r.cdb, x->cdb, 16);
	ss_frame_encode_request(h, &r);
}

static inline void ss_ux_encode_model_request(uint8_t *h, uint32_t tag)
{
	struct ss_frame_request r = { .kind = SS_FRAME_MODEL, .tag = tag };

	ss_frame_encode_request(h, &r);
}

/* The model reply's counters, named by SS_REPLY_MODEL: counter i is the u64 at byte 8 i of
 * struct ss_wire_model (a daemon that sends fewer gives 0 for the rest). */
#define SS_UX_MODEL_FIELD(a, kind, name, bytes)                                           \
	m->name = ss_frame_model_at(b, len, (uint32_t)(offsetof(struct ss_wire_model, name) / 8));

static inline void ss_ux_decode_model(const uint8_t *b, uint32_t len, struct ss_dev_model *m)
{
	SS_REPLY_MODEL(SS_UX_MODEL_FIELD, _)
}

#endif
