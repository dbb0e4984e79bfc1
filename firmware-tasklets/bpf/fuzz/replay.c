/*
 * The eBPF harness (bpf_fuzz.h) under the replay and mutation driver (replay_driver.h):
 * fresh inputs are mostly recipes, sometimes raw random instructions. Any broken invariant
 * or out-of-bounds access aborts.
 *   usage: fuzz_bpf_replay CORPUS_DIR [ITERATIONS] [SEED]
 */
#include <stdio.h>
#include <string.h>

#include "bpf_fuzz.h"
#include "replay_driver.h"

#define next() fz_replay_next()
#define below(n) fz_replay_below(n)

/* a fresh input: mostly a recipe, sometimes raw random instructions */
static size_t random_input(uint8_t *out)
{
	uint8_t prog[2048], recs[512];
	uint16_t plen = (uint16_t)(4 * below(200));
	uint32_t rlen = below(sizeof(recs));

	for (uint32_t i = 0; i < plen; i++)
		prog[i] = (uint8_t)next();
	for (uint32_t i = 0; i < rlen; i++)
		recs[i] = (uint8_t)next();
	return fzb_input(out, (uint8_t)(below(4) ? 2 : 0), (uint8_t)below(40), (uint8_t)below(40),
			 (uint8_t)below(129), (uint8_t)below(65), (uint8_t)below(9),
			 below(2) ? below(64) : next(), below(2) ? below(64) : next(), prog, plen,
			 recs, rlen);
}

static size_t mutate(uint8_t *buf, size_t size)
{
	int k = 1 + (int)below(6);

	while (k--) {
		uint32_t pos = size ? below((uint32_t)size) : 0;

		switch (below(7)) {
		case 0:
			if (size) buf[pos] ^= (uint8_t)(1u << below(8));
			break;
		case 1:
			if (size) buf[pos] = (uint8_t)next();
			break;
		case 2: /* a header byte: the configuration */
			if (size > FZB_HDR) buf[below(8)] = (uint8_t)next();
			break;
		case 3: /* an instruction's field in the program (8-byte aligned in raw mode) */
			if (size > FZB_HDR + 8) {
				pos = FZB_HDR + 8 * below((uint32_t)(size - FZB_HDR) / 8) + below(8);
				buf[pos] = (uint8_t)next();
			}
			break;
		case 4:
			size = pos;
			break;
		case 5: /* splice from another seed */
			if (fz_replay_nseeds()) {
				const struct fz_replay_seed *s =
					fz_replay_seed((int)below((uint32_t)fz_replay_nseeds()));
				size_t add = s->size < FZB_MAX_INPUT - size ? s->size : FZB_MAX_INPUT - size;

				memcpy(buf + size, s->data, add);
				size += add;
			}
			break;
		default: /* duplicate a span */
			if (size && size < FZB_MAX_INPUT / 2) {
				uint32_t len = below((uint32_t)size - pos) + 1;

				memmove(buf + pos + len, buf + pos, size - pos);
				size += len;
			}
			break;
		}
	}
	return size;
}

static int run(const uint8_t *data, size_t size)
{
	return fzb_run(data, size);
}

static void finish(int nseeds, long iterations)
{
	const struct fzb_stats *st = fzb_stats();

	printf("fuzz_bpf_replay: %d seeds + %ld inputs: %llu programs accepted, %llu runs "
	       "(%llu completed), %llu instructions; no invariant broken\n",
	       nseeds, iterations, (unsigned long long)st->accepted, (unsigned long long)st->runs,
	       (unsigned long long)st->runs_ok, (unsigned long long)st->insns);
}

static const struct fz_replay_harness harness = {
	.name = "fuzz_bpf_replay",
	.max_input = FZB_MAX_INPUT,
	.max_seeds = 256,
	.default_iterations = 100000,
	.fresh_one_in = 3,
	.run = run,
	.fresh = random_input,
	.mutate = mutate,
	.finish = finish,
};

int main(int argc, char **argv)
{
	return fz_replay_main(&harness, argc, argv);
}
