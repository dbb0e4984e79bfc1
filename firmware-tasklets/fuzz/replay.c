/*
 * The command layer's harness (harness.h) under the replay and mutation driver
 * (replay_driver.h): random records are mostly SENDs of packets with random fields, and the
 * drive must still mount and serve at the end.
 *   usage: fuzz_replay CORPUS_DIR [ITERATIONS] [SEED]
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "replay_driver.h"
#include "ss_proto.h"

#define FZ_MAX_INPUT 20480

#define next() fz_replay_next()
#define below(n) fz_replay_below(n)

static const uint8_t commands[] = { 0x8A, 0x8A, 0x8A, 0x8A, 0x8B, 0x8B, 0x25, 0x35, 0x06,
				    0xB0, 0xEC, 0xEA, 0xE7, 0xC8, 0xCA, 0xE5, 0xEF, 0x00, 0xFF };
static const uint32_t interesting[] = { 0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x1FF, 0x200, 0xFFFF,
					0x10000, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 64, 512 };

/* The protocol's opcodes (ss_proto.h), so most packets reach an opcode's own checks. */
static const uint16_t opcodes[] = {
#define FZ_OPCODE(name, code) code,
	SS_PROTO_OPCODES(FZ_OPCODE)
#undef FZ_OPCODE
};

/* Mostly a known opcode, sometimes a small or any 16-bit value (BAD_OPCODE). */
static uint16_t random_opcode(void)
{
	if (below(4) == 0) {
		return (uint16_t)next();
	}
	return below(3) ? opcodes[below(sizeof(opcodes) / sizeof(opcodes[0]))]
			: (uint16_t)below(0x40);
}

/* A fresh record: a random command, mostly a SEND of a packet with random fields. */
static size_t random_input(uint8_t *out)
{
	uint8_t pkt[1024], payload[512];
	uint8_t cmd = commands[below(sizeof(commands))];
	uint16_t plen = (uint16_t)below(300);
	size_t n;

	for (uint32_t i = 0; i < plen; i++) {
		payload[i] = (uint8_t)(below(4) ? '/' + below(60) : next());
	}
	if (cmd == 0x8A) {
		uint32_t len = (uint32_t)fz_packet(pkt, random_opcode(),
						   (uint32_t)next(), (uint32_t)(below(3) ? 0 : next()),
						   below(2) ? below(64) : next(), below(2) ? below(70000) : next(),
						   below(2) ? below(70000) : next(),
						   below(4) ? 65536 : interesting[below(15)], payload, plen);

		return fz_record(out, cmd, (uint8_t)(below(2) ? 0x1F : next()), 0,
				 (uint16_t)((len + 511) / 512), 0, pkt, (uint16_t)len);
	}
	n = fz_record(out, cmd, (uint8_t)next(), (uint16_t)(below(2) ? next() : 0xD0 + below(11)),
		      (uint16_t)below(70), below(2) ? (0xC24F00 | below(4)) : next() & 0xFFFFFF,
		      payload, (uint16_t)below(plen + 1));
	return n;
}

static size_t mutate(uint8_t *buf, size_t size)
{
	int k = 1 + (int)below(6);

	while (k--) {
		uint32_t pos = size ? below((uint32_t)size) : 0;

		switch (below(8)) {
		case 0: /* bit flip */
			if (size) buf[pos] ^= (uint8_t)(1u << below(8));
			break;
		case 1: /* random byte */
			if (size) buf[pos] = (uint8_t)next();
			break;
		case 2: /* interesting 32-bit value */
			if (size >= 4) {
				uint32_t v = interesting[below(15)];

				pos = below((uint32_t)size - 3);
				memcpy(buf + pos, &v, 4);
			}
			break;
		case 3: /* the record's mode byte */
			if (size > 1) buf[1] = (uint8_t)next();
			break;
		case 4: /* a header field inside the packet (record header + packet offset) */
			if (size > 14 + 64) {
				pos = 14 + below(64);
				buf[pos] = (uint8_t)next();
			}
			break;
		case 5: /* truncate */
			size = pos;
			break;
		case 6: /* splice in part of another seed */
			if (fz_replay_nseeds()) {
				const struct fz_replay_seed *s =
					fz_replay_seed((int)below((uint32_t)fz_replay_nseeds()));
				size_t add = s->size < FZ_MAX_INPUT - size ? s->size : FZ_MAX_INPUT - size;

				memcpy(buf + size, s->data, add);
				size += add;
			}
			break;
		default: /* duplicate a span */
			if (size && size < FZ_MAX_INPUT / 2) {
				uint32_t len = below((uint32_t)size - pos) + 1;

				memmove(buf + pos + len, buf + pos, size - pos);
				size += len;
			}
			break;
		}
	}
	return size;
}

static void finish(int nseeds, long iterations)
{
	const struct fz_stats *st;

	fz_check_drive(0, 0);
	fz_check_drive(1, 0);
	st = fz_stats();
	printf("fuzz_replay: %d seeds + %ld inputs: %llu commands, %llu SENDs (%llu malformed, "
	       "%llu accepted), %llu replies received, %llu drive checks (%llu of an open-channel "
	       "or zoned drive), %llu drive switches\n",
	       nseeds, iterations, (unsigned long long)st->commands, (unsigned long long)st->sends,
	       (unsigned long long)st->sends_malformed, (unsigned long long)st->sends_accepted,
	       (unsigned long long)st->recvs_ok, (unsigned long long)st->checks,
	       (unsigned long long)st->chunk_checks, (unsigned long long)st->switches);
}

static const struct fz_replay_harness harness = {
	.name = "fuzz_replay",
	.max_input = FZ_MAX_INPUT,
	.max_seeds = 512,
	.default_iterations = 100000,
	.fresh_one_in = 8,
	.setup = fz_setup,
	.run = fz_run,
	.fresh = random_input,
	.mutate = mutate,
	.finish = finish,
};

int main(int argc, char **argv)
{
	return fz_replay_main(&harness, argc, argv);
}
