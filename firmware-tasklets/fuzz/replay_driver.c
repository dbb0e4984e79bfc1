/* The replay and mutation driver of the fuzz harnesses (replay_driver.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_driver.h"

static uint64_t rng;
static struct fz_replay_seed *seeds;
static int nseeds;

uint64_t fz_replay_next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

uint32_t fz_replay_below(uint32_t n)
{
	return n ? (uint32_t)(fz_replay_next() % n) : 0;
}

int fz_replay_nseeds(void)
{
	return nseeds;
}

const struct fz_replay_seed *fz_replay_seed(int i)
{
	return &seeds[i];
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int load_corpus(const struct fz_replay_harness *h, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	if (n < 0) {
		fprintf(stderr, "%s: cannot read corpus %s\n", h->name, dir);
		return -1;
	}
	seeds = calloc((size_t)h->max_seeds, sizeof(*seeds));
	if (seeds == NULL) {
		fprintf(stderr, "%s: out of memory for %d seeds\n", h->name, h->max_seeds);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		FILE *f;

		if (names[i]->d_name[0] != '.' && nseeds < h->max_seeds) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			f = fopen(path, "rb");
			if (f) {
				seeds[nseeds].data = malloc(h->max_input);
				if (seeds[nseeds].data == NULL) {
					fprintf(stderr, "%s: out of memory reading %s\n", h->name, path);
					abort();
				}
				seeds[nseeds].size = fread(seeds[nseeds].data, 1, h->max_input, f);
				fclose(f);
				nseeds++;
			}
		}
		free(names[i]);
	}
	free(names);
	if (nseeds == 0 && h->fresh_one_in == 0) {
		fprintf(stderr, "%s: empty corpus %s\n", h->name, dir);
		return -1;
	}
	return 0;
}

/* an exact-size copy, so that reading one byte past the input is caught */
static void run_exact(const struct fz_replay_harness *h, const uint8_t *data, size_t size)
{
	uint8_t *in = malloc(size ? size : 1);

	if (in == NULL) {
		fprintf(stderr, "%s: out of memory for a %zu-byte input\n", h->name, size);
		abort();
	}
	memcpy(in, data, size);
	h->run(in, size);
	free(in);
}

int fz_replay_main(const struct fz_replay_harness *h, int argc, char **argv)
{
	uint8_t *buf;
	long iterations;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR [ITERATIONS] [SEED]\n", argv[0]);
		return 2;
	}
	iterations = argc > 2 ? strtol(argv[2], NULL, 10) : h->default_iterations;
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9E3779B97F4A7C15ull;
	if (rng == 0) {
		rng = 1;	/* xorshift's one fixed point */
	}
	if (load_corpus(h, argv[1])) {
		return 2;
	}
	if (h->setup && h->setup()) {
		fprintf(stderr, "%s: cannot set up the harness\n", h->name);
		return 2;
	}
	buf = calloc(2, h->max_input);
	if (buf == NULL) {
		fprintf(stderr, "%s: out of memory for the input buffer\n", h->name);
		return 2;
	}
	for (int i = 0; i < nseeds; i++) {
		run_exact(h, seeds[i].data, seeds[i].size);
	}
	for (long i = 0; i < iterations; i++) {
		size_t size;

		if (h->fresh_one_in && (nseeds == 0 || fz_replay_below(h->fresh_one_in) == 0)) {
			size = h->fresh(buf);
		} else {
			const struct fz_replay_seed *s = &seeds[fz_replay_below((uint32_t)nseeds)];

			memcpy(buf, s->data, s->size);
			size = h->mutate(buf, s->size);
		}
		run_exact(h, buf, size);
	}
	h->finish(nseeds, iterations);
	for (int i = 0; i < nseeds; i++) {
		free(seeds[i].data);
	}
	free(seeds);
	free(buf);
	return 0;
}
