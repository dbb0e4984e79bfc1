/*
 * Crash consistency of the journal, and mount's handling of unformatted and corrupt media.
 *
 * Each iteration forks a child that mounts the store and runs random namespace and data
 * operations, flushing at random points. Before each operation it reports the operation's
 * index through a pipe, and after each flush how many operations the flush covers. The
 * child's flash is cut at a chosen point: the parent draws a step number k, and the child
 * dies by SIGKILL just before its k-th page program or block erase, so every kill lands
 * inside an operation or a flush, between two flash steps, and the run is reproducible
 * from its seed (no timing decides where a kill lands). The child reports where it died
 * first; the test asserts that every iteration was cut so.
 *
 * The parent remounts and regenerates the same operations on its own model (same
 * generator, same seed). The recovered namespace (names, types, sizes) must equal the
 * model after some number of operations j, no fewer than the last flush covered and no
 * more than were started; every byte of every object must be a byte that object held in
 * one of the states from j on, or zero where a later state had truncated it away (data
 * rewrites are in place, per-page atomic, and reach flash before their journal record).
 * Nothing else is acceptable: no lost flushed object, no byte of another object, no
 * garbage.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "os_test.h"

#define CN 24                 /* model nodes, root included */
#define CSZ (32u * 1024u)     /* largest object */
#define OPS_PER_CHILD 3000    /* a bound only: every child is cut long before */
#define MAX_UNFLUSHED 20
#define REPORT_FLUSH 0x80000000u
#define REPORT_KILL 0x40000000u     /* | op index: the flash was cut inside that operation */
#define REPORT_KILL_IN_FLUSH 0x20000000u /* ... inside the flush that follows it */
#define REPORT_KILL_IN_TREE 0x10000000u  /* ... an operation on an object whose extents are a tree */
/* The store is formatted with tiny extent-tree fan-outs, so that objects of a few extents
 * have trees and the crashes land in tree updates (objects here have at most 4 pages). */
#define ROOT_EXTENTS 2u
#define NODE_EXTENTS 2u
#define REPORT_ERROR 0xffffffffu
/* Kill points are drawn from [1, KILL_STEPS]. An operation takes about 0.9 flash steps
 * (523 for the first 600 from an empty store, SS_CRASH_VERBOSE=1 prints it), so a child
 * is cut after some 0 to 700 operations, and OPS_PER_CHILD is never reached. */
#define KILL_STEPS 600u

enum op_kind { OP_CREATE_FILE, OP_CREATE_DIR, OP_WRITE, OP_TRUNCATE, OP_REMOVE, OP_RENAME };

struct cnode {
	int used;
	uint32_t id;         /* unique per created object */
	int parent;
	int type;
	char name[4];
	uint64_t size;
	uint8_t data[CSZ];
};

struct cstate {
	struct cnode n[CN];
	uint32_t next_id;
};

struct op {
	enum op_kind kind;
	int a, b;
	char name[4];
	uint64_t off;
	uint32_t len;
	uint64_t data_seed;
};

static struct os_env env;
static struct cstate base;           /* state the next child starts from */
static ss_oid_t oids[CN];            /* child: the store's oid of each node */
static uint8_t buf[CSZ + 8192];

static void fill(uint8_t *p, uint32_t n, uint64_t s)
{
	s |= 1;
	for (uint32_t i = 0; i < n; i++) {
		p[i] = (uint8_t)(ss_test_rand(&s) >> 56);
	}
}

static int find(const struct cstate *s, int parent, const char *name)
{
	for (int i = 1; i < CN; i++) {
		if (s->n[i].used && s->n[i].parent == parent && !strcmp(s->n[i].name, name)) {
			return i;
		}
	}
	return -1;
}

static int children(const struct cstate *s, int d)
{
	int c = 0;

	for (int i = 1; i < CN; i++) {
		c += s->n[i].used && s->n[i].parent == d;
	}
	return c;
}

static int pick(const struct cstate *s, uint64_t *rng, int want_dir, int allow_root)
{
	int cand[CN], k = 0;

	for (int i = allow_root ? 0 : 1; i < CN; i++) {
		if (s->n[i].used && (want_dir < 0 || (s->n[i].type == SS_OBJ_DIR) == want_dir)) {
			cand[k++] = i;
		}
	}
	return k ? cand[ss_test_rand_below(rng, (uint32_t)k)] : -1;
}

static void gen_op(const struct cstate *s, uint64_t *rng, struct op *op)
{
	for (;;) {
		uint32_t r = ss_test_rand_below(rng, 100);

		memset(op, 0, sizeof(*op));
		op->name[0] = 'x';
		op->name[1] = (char)('0' + ss_test_rand_below(rng, 6));
		op->data_seed = ss_test_rand(rng);
		if (r < 25) {
			op->kind = ss_test_rand_below(rng, 4) ? OP_CREATE_FILE : OP_CREATE_DIR;
			op->b = pick(s, rng, 1, 1);
			int used = 0;

			for (int i = 0; i < CN; i++) {
				used += s->n[i].used;
			}
			if (used < CN) {
				return;
			}
		} else if (r < 75) {
			op->kind = r < 60 ? OP_WRITE : OP_TRUNCATE;
			op->a = pick(s, rng, 0, 0);
			if (op->a < 0) {
				continue;
			}
			op->off = ss_test_rand_below(rng, (uint32_t)s->n[op->a].size + 6000);
			op->off = SS_MIN(op->off, (uint64_t)CSZ - 1);
			op->len = 1 + ss_test_rand_below(rng, ss_test_rand_below(rng, 3) ? 12000 : 200);
			op->len = (uint32_t)SS_MIN((uint64_t)op->len, CSZ - op->off);
			return;
		} else if (r < 87) {
			op->kind = OP_REMOVE;
			op->a = pick(s, rng, -1, 0);
			if (op->a >= 0) {
				return;
			}
		} else {
			op->kind = OP_RENAME;
			op->a = pick(s, rng, -1, 0);
			op->b = pick(s, rng, 1, 1);
			if (op->a >= 0) {
				return;
			}
		}
	}
}

static bool below(const struct cstate *s, int d, int anc)
{
	for (int cur = d;; cur = s->n[cur].parent) {
		if (cur == anc) {
			return true;
		}
		if (cur == 0) {
			return false;
		}
	}
}

/* Apply to the model. \return the store's expected result; *created gets a new node. */
static int apply_op(struct cstate *s, const struct op *op, int *created)
{
	struct cnode *a = &s->n[op->a];
	int t, i;

	*created = -1;
	switch (op->kind) {
	case OP_CREATE_FILE:
	case OP_CREATE_DIR:
		if (find(s, op->b, op->name) >= 0) {
			return -SS_EEXIST;
		}
		for (i = 1; i < CN && s->n[i].used; i++) {
		}
		memset(&s->n[i], 0, sizeof(s->n[i]));
		s->n[i].used = 1;
		s->n[i].id = ++s->next_id;
		s->n[i].parent = op->b;
		s->n[i].type = op->kind == OP_CREATE_DIR ? SS_OBJ_DIR : SS_OBJ_FILE;
		strcpy(s->n[i].name, op->name);
		*created = i;
		return 0;
	case OP_WRITE:
		fill(a->data + op->off, op->len, op->data_seed);
		a->size = SS_MAX(a->size, op->off + op->len);
		return 0;
	case OP_TRUNCATE:
		if (op->off < a->size) {
			memset(a->data + op->off, 0, a->size - op->off);
		}
		a->size = op->off;
		return 0;
	case OP_REMOVE:
		if (a->type == SS_OBJ_DIR && children(s, op->a)) {
			return -SS_ENOTEMPTY;
		}
		a->used = 0;
		return 0;
	case OP_RENAME:
		t = find(s, op->b, op->name);
		if (a->type == SS_OBJ_DIR && below(s, op->b, op->a)) {
			return -SS_EINVAL;
		}
		if (t == op->a) {
			return 0;
		}
		if (t >= 0 && (s->n[t].type == SS_OBJ_DIR) != (a->type == SS_OBJ_DIR)) {
			return a->type == SS_OBJ_DIR ? -SS_ENOTDIR : -SS_EISDIR;
		}
		if (t >= 0 && a->type == SS_OBJ_DIR) {
			return -SS_EEXIST;
		}
		if (t >= 0) {
			s->n[t].used = 0;
		}
		a->parent = op->b;
		strcpy(a->name, op->name);
		return 0;
	}
	return -SS_EINVAL;
}

static int do_store(struct ss_objstore *os, const struct op *op, ss_oid_t *oid)
{
	switch (op->kind) {
	case OP_CREATE_FILE:
	case OP_CREATE_DIR:
		return ss_os_create(os, oids[op->b], op->name, 2,
				    op->kind == OP_CREATE_DIR ? SS_OBJ_DIR : SS_OBJ_FILE, SS_OS_EXCL, 1, oid);
	case OP_WRITE:
		fill(buf, op->len, op->data_seed);
		return ss_os_write(os, oids[op->a], op->off, buf, op->len, 0, 2);
	case OP_TRUNCATE:
		return ss_os_truncate(os, oids[op->a], op->off, 3);
	case OP_REMOVE:
		return ss_os_remove(os, oids[op->a]);
	case OP_RENAME:
		return ss_os_rename(os, oids[op->a], oids[op->b], op->name, 2, 0, 4);
	}
	return -SS_EINVAL;
}

static void report(int fd, uint32_t v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		_exit(3);
	}
}

/* Where the child is, for the report it sends just before its flash is cut. */
static struct {
	uint32_t op;
	bool in_flush, in_tree;
	int fd;
} cut;

static void report_kill(void)
{
	report(cut.fd, REPORT_KILL | (cut.in_flush ? REPORT_KILL_IN_FLUSH : 0) |
		       (cut.in_tree ? REPORT_KILL_IN_TREE : 0) | cut.op);
}

static void child(int fd, uint64_t seed, const ss_oid_t *base_oids, uint32_t kill_at)
{
	static struct cstate s;
	uint64_t rng = seed, flush_rng = seed ^ 0x9e3779b97f4a7c15ull;
	int since_flush = 0;

	s = base;
	memcpy(oids, base_oids, sizeof(oids));
	if (os_env_open(&env, 0) != 0) {
		report(fd, REPORT_ERROR);
		_exit(4);
	}
	cut.fd = fd;
	os_cut_install(env.hal, kill_at, report_kill);
	for (uint32_t i = 0; i < OPS_PER_CHILD; i++) {
		struct op op;
		ss_oid_t oid = 0;
		int created;

		gen_op(&s, &rng, &op);
		report(fd, i);
		struct ss_obj_stat ost;

		cut.op = i;
		cut.in_flush = false;
		cut.in_tree = op.kind != OP_CREATE_FILE && op.kind != OP_CREATE_DIR &&
			      ss_os_stat(env.os, oids[op.a], &ost) == 0 && ost.extent_count > ROOT_EXTENTS;
		int rc = do_store(env.os, &op, &oid);
		int want = apply_op(&s, &op, &created);

		if (rc != want) {
			fprintf(stderr, "child: op %u kind %d: rc %d, model %d\n", i, op.kind, rc, want);
			report(fd, REPORT_ERROR);
			_exit(5);
		}
		if (created >= 0) {
			oids[created] = oid;
		}
		/* Flush decisions draw from their own generator: the parent regenerates the
		 * operations from `rng` alone. */
		if (ss_test_rand_below(&flush_rng, 8) == 0 || ++since_flush >= MAX_UNFLUSHED) {
			cut.in_flush = true;
			if (ss_os_flush(env.os) != 0) {
				report(fd, REPORT_ERROR);
				_exit(6);
			}
			report(fd, REPORT_FLUSH | (i + 1));
			since_flush = 0;
		}
	}
	if (getenv("SS_CRASH_VERBOSE")) {
		fprintf(stderr, "child: %u operations took %u flash steps\n", OPS_PER_CHILD, os_cut.steps);
	}
	_exit(0);
}

/* What the recovered store holds: one entry per object, with its path. */
struct tentry {
	char path[64];
	int type;
	uint64_t size;
	ss_oid_t oid;
};

static int collect(struct ss_objstore *os, struct tentry *t, int max)
{
	int n = 1, done = 0;

	strcpy(t[0].path, "");
	t[0].type = SS_OBJ_DIR;
	t[0].oid = SS_OID_ROOT;
	while (done < n) {
		struct tentry *d = &t[done++];
		struct ss_dirent de[4];
		uint64_t cursor = 0;
		int k;

		if (d->type != SS_OBJ_DIR) {
			continue;
		}
		while ((k = ss_os_list(os, d->oid, &cursor, de, 4)) > 0) {
			for (int i = 0; i < k; i++) {
				struct ss_obj_stat st;

				if (n == max) {
					return -1;
				}
				REQUIRE(ss_os_stat(os, de[i].oid, &st) == 0);
				char parent[64];

				memcpy(parent, d->path, sizeof(parent));
				snprintf(t[n].path, sizeof(t[n].path), "%.40s/%.8s", parent, de[i].name);
				t[n].type = (int)st.type;
				t[n].size = st.size;
				t[n].oid = de[i].oid;
				n++;
			}
		}
	}
	return n;
}

static void node_path(const struct cstate *s, int i, char *out, size_t cap)
{
	char tmp[64];

	if (i == 0) {
		out[0] = '\0';
		return;
	}
	node_path(s, s->n[i].parent, tmp, sizeof(tmp));
	snprintf(out, cap, "%.40s/%.3s", tmp, s->n[i].name);
}

/* \return the tree entry of each model node, or false when the namespaces differ. */
static bool same_namespace(const struct cstate *s, const struct tentry *t, int nt, int *match)
{
	int used = 0;

	for (int i = 0; i < CN; i++) {
		char p[64];
		int k;

		match[i] = -1;
		if (!s->n[i].used) {
			continue;
		}
		used++;
		node_path(s, i, p, sizeof(p));
		for (k = 0; k < nt && strcmp(t[k].path, p); k++) {
		}
		if (k == nt || t[k].type != (i == 0 ? SS_OBJ_DIR : s->n[i].type) ||
		    (i != 0 && t[k].size != s->n[i].size)) {
			return false;
		}
		match[i] = k;
	}
	return used == nt;
}

static int find_id(const struct cstate *s, uint32_t id)
{
	for (int i = 1; i < CN; i++) {
		if (s->n[i].used && s->n[i].id == id) {
			return i;
		}
	}
	return -1;
}

static struct cstate snaps[MAX_UNFLUSHED + 2];
static int rounds_with_trees;
static uint32_t deepest_tree;

static void verify_iteration(const uint32_t *rep, int nrep, uint64_t seed, int *flushed_out)
{
	struct tentry tree[CN + 4];
	int started = 0, flushed = 0, match[CN], nt, j, created;
	uint64_t rng = seed;
	struct cstate sim = base;

	for (int i = 0; i < nrep; i++) {
		REQUIRE(rep[i] != REPORT_ERROR);
		if (rep[i] & REPORT_KILL) {
			continue;
		}
		if (rep[i] & REPORT_FLUSH) {
			flushed = (int)(rep[i] & ~REPORT_FLUSH);
		} else {
			started = (int)rep[i] + 1;
		}
	}
	REQUIRE(started - flushed <= MAX_UNFLUSHED + 1);
	/* Regenerate the child's operations; keep every state from the last flush on. */
	for (int i = 0; i < started; i++) {
		struct op op;

		if (i == flushed) {
			snaps[0] = sim;
		}
		gen_op(&sim, &rng, &op);
		apply_op(&sim, &op, &created);
		if (i + 1 >= flushed) {
			snaps[i + 1 - flushed] = sim;
		}
	}
	if (started == 0) {
		snaps[0] = sim;
	}
	REQUIRE(os_env_open(&env, 0) == 0);
	/* fsck after every crash: trees whole, every page accounted for */
	struct ss_os_check_report crep;

	CHECK_EQ(ss_os_check(env.os, &crep), 0);
	CHECK_EQ(crep.leaked_pages, 0);
	rounds_with_trees += crep.tree_objects > 0;
	deepest_tree = SS_MAX(deepest_tree, crep.max_depth);
	nt = collect(env.os, tree, CN + 4);
	CHECK(nt > 0);
	/* The earliest matching state: a data rewrite leaves the namespace as it was, so
	 * several consecutive states may match, and bytes may come from any of them. */
	for (j = flushed; j <= started; j++) {
		if (nt > 0 && same_namespace(&snaps[j - flushed], tree, nt, match)) {
			break;
		}
	}
	if (j > started) {
		fprintf(stderr, "recovered namespace matches no state in [%d, %d]:\n", flushed, started);
		for (int k = 0; k < nt; k++) {
			fprintf(stderr, "  %s type %d size %llu\n", tree[k].path, tree[k].type,
				(unsigned long long)tree[k].size);
		}
		for (int k = flushed; k <= started; k++) {
			fprintf(stderr, " model after %d operations:\n", k);
			for (int i = 0; i < CN; i++) {
				char p[64];

				if (snaps[k - flushed].n[i].used) {
					node_path(&snaps[k - flushed], i, p, sizeof(p));
					fprintf(stderr, "  %s type %d size %llu\n", p, i ? snaps[k - flushed].n[i].type : 2,
						(unsigned long long)snaps[k - flushed].n[i].size);
				}
			}
		}
		CHECK(0);
		return;
	}
	/* Every byte is one the object held in state j or a later one. */
	const struct cstate *sj = &snaps[j - flushed];

	for (int i = 1; i < CN; i++) {
		uint32_t nread = 0;

		if (!sj->n[i].used || sj->n[i].type == SS_OBJ_DIR) {
			continue;
		}
		CHECK_EQ(ss_os_read(env.os, tree[match[i]].oid, 0, buf, CSZ, &nread), 0);
		CHECK_EQ(nread, sj->n[i].size);
		for (uint32_t o = 0; o < nread; o++) {
			bool ok = false;

			for (int k = j; k <= started && !ok; k++) {
				int x = find_id(&snaps[k - flushed], sj->n[i].id);

				const struct cnode *c = x >= 0 ? &snaps[k - flushed].n[x] : NULL;

				/* A byte a later state truncated away reads as zero from then on. */
				ok = c != NULL && (o < c->size ? c->data[o] == buf[o] : buf[o] == 0);
			}
			if (!ok) {
				fprintf(stderr, "%s: byte %u is 0x%02x, held in no state from %d to %d\n",
					tree[match[i]].path, o, buf[o], j, started);
				CHECK(0);
				break;
			}
		}
		/* The next child starts from what is on flash. */
		memcpy(snaps[j - flushed].n[i].data, buf, nread);
	}
	base = snaps[j - flushed];
	for (int i = 0; i < CN; i++) {
		if (base.n[i].used) {
			oids[i] = i == 0 ? SS_OID_ROOT : tree[match[i]].oid;
		}
	}
	*flushed_out = j - flushed;
	if (getenv("SS_CRASH_VERBOSE")) {
		fprintf(stderr, "  flushed %d started %d recovered %d\n", flushed, started, j);
	}
	os_env_close(&env, 1);
}

static void test_crash_consistency(void)
{
	const char *it_env = getenv("SS_CRASH_ITERATIONS");
	int iterations = it_env ? atoi(it_env) : 50;
	uint64_t seed = ss_test_seed(0xc0ffee);
	int cut_in_op = 0, cut_in_flush = 0, cut_in_tree = 0, beyond_flush = 0, total_started = 0;
	int rounds = 0;

	base.n[0].used = 1;
	base.n[0].type = SS_OBJ_DIR;
	oids[0] = SS_OID_ROOT;
	env.root_extents = ROOT_EXTENTS;
	env.node_extents = NODE_EXTENTS;
	REQUIRE(os_env_open(&env, 1) == 0);
	os_env_close(&env, 1);
	for (int it = 0; it < iterations && ss_test_failures == 0; it++) {
		uint64_t child_seed = ss_test_rand(&seed);
		uint32_t kill_at = 1 + ss_test_rand_below(&seed, KILL_STEPS);
		ss_oid_t base_oids[CN];
		int pfd[2], status, nrep = 0, extra = 0, cuts = 0;
		static uint32_t rep[4 * OPS_PER_CHILD];
		pid_t pid;

		memcpy(base_oids, oids, sizeof(oids));
		REQUIRE(pipe(pfd) == 0);
		fflush(NULL);
		pid = fork();
		REQUIRE(pid >= 0);
		if (pid == 0) {
			close(pfd[0]);
			child(pfd[1], child_seed, base_oids, kill_at);
		}
		close(pfd[1]);
		for (;;) {
			ssize_t r = ss_test_child_read(pfd[0], (char *)rep + nrep * 4,
						       sizeof(rep) - (size_t)nrep * 4, pid,
						       "the child's operation reports");

			if (r <= 0) {
				break;
			}
			nrep += (int)(r / 4);
		}
		close(pfd[0]);
		if (ss_test_child_wait(pid, &status, "the child's cut") != 0) {
			break;
		}
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			fprintf(stderr, "iteration %d: child was not cut at flash step %u (status %d)\n",
				it, kill_at, status);
			CHECK(0);
		}
		for (int i = 0; i < nrep; i++) {
			if (rep[i] != REPORT_ERROR && (rep[i] & REPORT_KILL)) {
				cuts++;
				/* the cut names the operation the child had last reported */
				CHECK(i > 0 && !(rep[i - 1] & (REPORT_KILL | REPORT_FLUSH)) &&
				      (rep[i] & 0xffffu) == rep[i - 1]);
				cut_in_tree += (rep[i] & REPORT_KILL_IN_TREE) != 0;
				if (rep[i] & REPORT_KILL_IN_FLUSH) {
					cut_in_flush++;
				} else {
					cut_in_op++;
				}
			} else if (!(rep[i] & REPORT_FLUSH)) {
				total_started++;
			}
		}
		CHECK_EQ(cuts, 1);
		if (getenv("SS_CRASH_VERBOSE")) {
			fprintf(stderr, "iteration %d: cut at step %u, %d reports\n", it, kill_at, nrep);
		}
		verify_iteration(rep, nrep, child_seed, &extra);
		beyond_flush += extra > 0;
		rounds++;
	}
	fprintf(stderr, "crash iterations: %d of %d, cut %d inside an operation and %d inside a "
		"flush, %d recovered past the last flush, %d operations; %d cuts in operations on "
		"extent trees, %d recoveries held trees (deepest %u)\n", rounds, iterations,
		cut_in_op, cut_in_flush, beyond_flush, total_started, cut_in_tree,
		rounds_with_trees, deepest_tree);
	/* Every child died where it was told to, inside a store call. With the default seed,
	 * 50 iterations cut 43 operations and 7 flushes; any 20 cut both kinds. */
	CHECK_EQ(rounds, iterations);
	CHECK_EQ(cut_in_op + cut_in_flush, iterations);
	if (iterations >= 20) {
		CHECK(cut_in_op > 0);
		CHECK(cut_in_flush > 0);
		CHECK(beyond_flush > 0);
		CHECK(cut_in_tree > 0);
		CHECK(rounds_with_trees > 0);
		CHECK(deepest_tree >= 1);
	}
}

static void test_unformatted(void)
{
	struct os_env e;
	void *fd, *od;
	uint64_t fs, osz;
	struct ss_ftl_params fp;
	struct ss_os_params p;

	memset(&p, 0, sizeof(p));
	os_env_init(&e, 64);
	ss_test_flash_create(&e.t, "ss_os_ut", &e.geo, 0, OS_TEST_DRAM);
	e.flash = e.t.flash;
	e.hal = e.t.hal;
	os_env_dram(&e, &fd, &fs, &od, &osz);
	ss_ftl_default_params(&fp);
	REQUIRE(ss_ftl_format(&e.ftl, e.hal, fd, fs, &fp) == 0);
	CHECK_EQ(ss_os_mount(&e.os, e.ftl, od, osz), -SS_ENODATA);
	CHECK_EQ(ss_os_probe(e.ftl, od, osz, &p), -SS_ENODATA);
	p.max_objects = 64;
	REQUIRE(ss_os_format(&e.os, e.ftl, od, osz, &p) == 0);
	CHECK_EQ(ss_os_mount(&e.os, e.ftl, od, 100), -SS_ENOMEM);
	memset(&p, 0, sizeof(p));
	CHECK_EQ(ss_os_probe(e.ftl, od, osz, &p), 0);
	CHECK_EQ(p.max_objects, 64);
	os_env_destroy(&e);
}

static void test_corrupt_superblocks(void)
{
	struct os_env e;
	ss_oid_t oid;
	uint32_t first, count;
	uint8_t page[8192];

	os_env_init(&e, 64);
	REQUIRE(os_env_open(&e, 1) == 0);
	REQUIRE(ss_os_create(e.os, SS_OID_ROOT, "keep", 4, SS_OBJ_FILE, 0, 1, &oid) == 0);
	ss_os_metadata_range(e.os, &first, &count);
	CHECK_EQ(first, 0);
	CHECK(count > 2 && count < ss_ftl_capacity_pages(e.ftl));
	os_env_reopen(&e, 1);
	/* Both copies damaged: mount refuses, naming the corruption. */
	uint8_t saved0[8192], saved1[8192];

	REQUIRE(ss_ftl_read(e.ftl, 0, saved0) >= 0);
	REQUIRE(ss_ftl_read(e.ftl, 1, saved1) >= 0);
	memset(page, 0xa5, sizeof(page));
	REQUIRE(ss_ftl_write(e.ftl, 0, page, SS_STREAM_META, SS_FTL_FUA) == 0);
	REQUIRE(ss_ftl_write(e.ftl, 1, page, SS_STREAM_META, SS_FTL_FUA) == 0);
	os_env_close(&e, 0);
	CHECK_EQ(os_env_open(&e, 0), -SS_EBADMSG);
	/* Restore one copy: the store mounts again with everything in it. */
	REQUIRE(ss_ftl_write(e.ftl, 0, saved0, SS_STREAM_META, SS_FTL_FUA) == 0);
	REQUIRE(ss_ftl_write(e.ftl, 1, saved1, SS_STREAM_META, SS_FTL_FUA) == 0);
	REQUIRE(ss_ftl_flush(e.ftl) == 0);
	os_env_close(&e, 0);
	REQUIRE(os_env_open(&e, 0) == 0);
	CHECK_EQ(ss_os_lookup(e.os, SS_OID_ROOT, "keep", 4, &oid), 0);
	os_env_destroy(&e);
}

int main(void)
{
	os_env_init(&env, 64);
	RUN(test_unformatted);
	RUN(test_corrupt_superblocks);
	RUN(test_crash_consistency);
	os_env_destroy(&env);
	return ss_test_failures ? 1 : 0;
}
