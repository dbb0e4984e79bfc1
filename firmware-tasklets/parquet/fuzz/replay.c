/*
 * The Parquet fuzz harness without libFuzzer: replays the corpus, then runs deterministic
 * mutations of it (xorshift, fixed seed): byte flips, interesting values, cuts and splices.
 *   usage: pq_fuzz_replay CORPUS_DIR [ITERATIONS] [SEED]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define PQ_MAX_INPUT 8192
#define MAX_SEEDS 256

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(next() % n) : 0;
}

struct seed {
	uint8_t *data;
	size_t size;
};

static struct seed seeds[MAX_SEEDS];
static int nseeds;

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void load_corpus(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	if (n < 0) {
		fprintf(stderr, "pq_fuzz_replay: cannot read corpus %s\n", dir);
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		FILE *f;

		if (names[i]->d_name[0] != '.' && nseeds < MAX_SEEDS) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			f = fopen(path, "rb");
			if (f) {
				seeds[nseeds].data = malloc(PQ_MAX_INPUT);
				seeds[nseeds].size = fread(seeds[nseeds].data, 1, PQ_MAX_INPUT, f);
				fclose(f);
				nseeds++;
			}
		}
		free(names[i]);
	}
	free(names);
	if (nseeds == 0) {
		fprintf(stderr, "pq_fuzz_replay: empty corpus %s\n", dir);
		exit(2);
	}
}

static const uint8_t interesting[] = { 0x00, 0x01, 0x02, 0x03, 0x07, 0x08, 0x0F, 0x10, 0x20,
				       0x21, 0x3F, 0x40, 0x7F, 0x80, 0xFE, 0xFF };

static size_t mutate(uint8_t *buf, size_t size)
{
	unsigned rounds = 1 + below(8);

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
			const struct seed *o = &seeds[below((uint32_t)nseeds)];
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

int main(int argc, char **argv)
{
	long iterations = argc > 2 ? atol(argv[2]) : 10000;
	uint8_t *buf = malloc(PQ_MAX_INPUT);

	if (argc < 2) {
		fprintf(stderr, "usage: pq_fuzz_replay CORPUS_DIR [ITERATIONS] [SEED]\n");
		return 2;
	}
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9E3779B97F4A7C15ull;
	load_corpus(argv[1]);
	for (int i = 0; i < nseeds; i++) {
		pq_fuzz_one(seeds[i].data, seeds[i].size);
	}
	for (long it = 0; it < iterations; it++) {
		const struct seed *s = &seeds[below((uint32_t)nseeds)];
		size_t size;

		memcpy(buf, s->data, s->size);
		size = mutate(buf, s->size ? s->size : 1);
		/* an exact-size copy, so that reading one byte past the input is caught */
		{
			uint8_t *in = malloc(size);

			memcpy(in, buf, size);
			pq_fuzz_one(in, size);
			free(in);
		}
	}
	printf("pq_fuzz_replay: %d seeds, %ld mutated inputs, no invariant broken\n", nseeds,
	       iterations);
	free(buf);
	return 0;
}
