/*
 * The eBPF harness without libFuzzer: replays a corpus, then runs deterministic random and
 * mutated inputs (xorshift, fixed seed). Any broken invariant or out-of-bounds access aborts.
 *   usage: fuzz_bpf_replay CORPUS_DIR [ITERATIONS] [SEED]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_fuzz.h"

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

static struct {
	uint8_t *data;
	size_t size;
} seeds[MAX_SEEDS];
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
		fprintf(stderr, "fuzz_bpf_replay: cannot read corpus %s\n", dir);
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		FILE *f;

		if (names[i]->d_name[0] != '.' && nseeds < MAX_SEEDS) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			f = fopen(path, "rb");
			if (f) {
				seeds[nseeds].data = malloc(FZB_MAX_INPUT);
				seeds[nseeds].size = fread(seeds[nseeds].data, 1, FZB_MAX_INPUT, f);
				fclose(f);
				nseeds++;
			}
		}
		free(names[i]);
	}
	free(names);
}

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
			if (nseeds) {
				int s = (int)below((uint32_t)nseeds);
				size_t add = seeds[s].size < FZB_MAX_INPUT - size ? seeds[s].size
										   : FZB_MAX_INPUT - size;

				memcpy(buf + size, seeds[s].data, add);
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

int main(int argc, char **argv)
{
	static uint8_t buf[FZB_MAX_INPUT * 2];
	const struct fzb_stats *st;
	long iterations;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR [ITERATIONS] [SEED]\n", argv[0]);
		return 2;
	}
	iterations = argc > 2 ? strtol(argv[2], NULL, 10) : 100000;
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9E3779B97F4A7C15ull;
	if (rng == 0)
		rng = 1;
	load_corpus(argv[1]);
	for (int i = 0; i < nseeds; i++)
		fzb_run(seeds[i].data, seeds[i].size);
	for (long it = 0; it < iterations; it++) {
		size_t size;

		if (nseeds && below(3)) {
			int s = (int)below((uint32_t)nseeds);

			memcpy(buf, seeds[s].data, seeds[s].size);
			size = mutate(buf, seeds[s].size);
		} else {
			size = random_input(buf);
		}
		fzb_run(buf, size);
	}
	st = fzb_stats();
	printf("fuzz_bpf_replay: %d seeds + %ld inputs: %llu programs accepted, %llu runs "
	       "(%llu completed), %llu instructions; no invariant broken\n",
	       nseeds, iterations, (unsigned long long)st->accepted, (unsigned long long)st->runs,
	       (unsigned long long)st->runs_ok, (unsigned long long)st->insns);
	return 0;
}
