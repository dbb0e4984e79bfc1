/*
 * The Parquet decoder's harness (harness.h) under the replay and mutation driver
 * (replay_driver.h): mutations of the corpus only (byte flips, interesting values, cuts and
 * splices).
 *   usage: pq_fuzz_replay CORPUS_DIR [ITERATIONS] [SEED]
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "replay_driver.h"

#define PQ_MAX_INPUT 8192

#define next() fz_replay_next()
#define below(n) fz_replay_below(n)

static const uint8_t interesting[] = { 0x00, 0x01, 0x02, 0x03, 0x07, 0x08, 0x0F, 0x10, 0x20,
				       0x21, 0x3F, 0x40, 0x7F, 0x80, 0xFE, 0xFF };

static size_t mutate(uint8_t *buf, size_t size)
{
	unsigned rounds = 1 + below(8);

	if (size == 0) {
		size = 1;	/* byte 0 chooses the decoder: an empty seed still gets one */
	}
	for (unsigned k = 0; k < rounds; k++) {
		switch (below(6)) {
		case 0:	/* flip a bit */
			if (size > 1) {
				buf[1 + below((uint32_t)size - 1)] ^= (uint8_t)(1u << below(8));
			}
			break;
		case 1:	/* an interesting byte */
			if (size > 1) {
				buf[1 + below((uint32_t)size - 1)] =
					interesting[below(sizeof(interesting))];
			}
			break;
		case 2:	/* cut the tail */
			size = 1 + below((uint32_t)size);
			break;
		case 3: {	/* splice another seed's bytes in */
			const struct fz_replay_seed *o =
				fz_replay_seed((int)below((uint32_t)fz_replay_nseeds()));
			size_t at = below((uint32_t)size), n = below((uint32_t)o->size);

			n = n < PQ_MAX_INPUT - at ? n : PQ_MAX_INPUT - at;
			memcpy(buf + at, o->data + below((uint32_t)(o->size - n + 1)), n);
			size = at + n > size ? at + n : size;
			break;
		}
		case 4:	/* a random byte */
			if (size > 1) {
				buf[1 + below((uint32_t)size - 1)] = (uint8_t)next();
			}
			break;
		default:	/* other column parameters */
			if (size > 3) {
				buf[1 + below(3)] = (uint8_t)below(8);
			}
			break;
		}
	}
	return size;
}

static void finish(int nseeds, long iterations)
{
	printf("pq_fuzz_replay: %d seeds, %ld mutated inputs, no invariant broken\n", nseeds,
	       iterations);
}

static const struct fz_replay_harness harness = {
	.name = "pq_fuzz_replay",
	.max_input = PQ_MAX_INPUT,
	.max_seeds = 256,
	.default_iterations = 10000,
	.run = pq_fuzz_one,
	.mutate = mutate,
	.finish = finish,
};

int main(int argc, char **argv)
{
	return fz_replay_main(&harness, argc, argv);
}
