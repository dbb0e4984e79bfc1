/*
 * Object store lifecycle: sizing, format, mount (load + replay + rebuild of derived state),
 * flush, unmount and statistics.
 */
#include "objstore_internal.h"

#define DEFAULT_BYTES_PER_OBJECT (128u * 1024u)
#define DEFAULT_MIN_OBJECTS 64u
#define MAX_OBJECTS (1u << 24)

static uint32_t clamp_u64(uint64_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (uint32_t)v;
}

static uint32_t default_objects(uint64_t bytes)
{
	return clamp_u64(bytes / DEFAULT_BYTES_PER_OBJECT, DEFAULT_MIN_OBJECTS, 1u << 20);
}

void ss_os_default_params(const struct ss_ftl *ftl, struct ss_os_params *p)
{
	ss_memset(p, 0, sizeof(*p));
	p->max_objects = default_objects((uint64_t)ss_ftl_capacity_pages(ftl) * ss_ftl_page_size(ftl));
}

static void layout(uint32_t page_size, uint32_t max_objects, uint32_t capacity, struct os_sb *l)
{
	uint32_t rpp = page_size / OS_UNIT;

	ss_memset(l, 0, sizeof(*l));
	l->page_size = page_size;
	l->max_objects = max_objects;
	l->ftl_capacity = capacity;
	l->table_first = OS_SB_PAGES;
	l->table_pages = SS_DIV_ROUND_UP(max_objects + 1u, rpp);
	l->jrnl_first = l->table_first + l->table_pages;
	l->jrnl_pages = clamp_u64(l->table_pages, 16, 1024);
	l->data_first = l->jrnl_first + l->jrnl_pages;
	l->data_pages = capacity > l->data_first ? capacity - l->data_first : 0;
}

static uint32_t hash_size(uint32_t nslots)
{
	uint32_t h = 16;

	while (h < 2u * nslots) {
		h <<= 1;
	}
	return h;
}

/* One table of what the store carves from its DRAM, used for sizing and for carving. */
static uint64_t dram_bytes(const struct os_sb *l)
{
	uint64_t nslots = (uint64_t)l->max_objects + 1u;
	uint64_t n = sizeof(struct ss_objstore) + 8;

	n += nslots * sizeof(struct os_rec) + 8;
	n += 2 * (nslots * sizeof(uint32_t) + 8);
	n += (uint64_t)hash_size((uint32_t)nslots) * sizeof(uint32_t) + 8;
	n += SS_DIV_ROUND_UP((uint64_t)l->table_pages, 32) * sizeof(uint32_t) + 8;
	/* allocator, pending, node and check bitmaps */
	n += 4 * (SS_DIV_ROUND_UP((uint64_t)l->data_pages, 32) * sizeof(uint32_t) + 4 + 8);
	/* journal and I/O pages, extent-tree path and cache */
	n += (2 + 2 * OS_XT_MAXDEPTH) * ((uint64_t)l->page_size + 8);
	n += (uint64_t)(l->page_size / OS_UNIT) * sizeof(uint32_t) + 8;
	return n;
}

uint64_t ss_os_dram_needed(const struct ss_geometry *geo, const struct ss_os_params *p)
{
	uint64_t pages = ss_geo_pages(geo);
	struct os_sb l;
	uint32_t objs = p != NULL ? p->max_objects : 0;

	if (objs == 0) {
		objs = default_objects(pages * geo->page_size);
	}
	layout(geo->page_size, objs, pages > 0xffffffffu ? 0xffffffffu : (uint32_t)pages, &l);
	return dram_bytes(&l);
}

static int carve(void *dram, uint64_t dram_size, const struct os_sb *l, struct ss_ftl *ftl,
		 struct ss_objstore **out)
{
	struct ss_arena a;
	struct ss_objstore *os;
	uint32_t nslots = l->max_objects + 1u, hsize = hash_size(nslots);

	if (dram == NULL || dram_size < dram_bytes(l)) {
		return -SS_ENOMEM;
	}
	ss_arena_init(&a, dram, (size_t)dram_size);
	os = ss_arena_alloc(&a, sizeof(*os), 8);
	if (os == NULL) {
		return -SS_ENOMEM;
	}
	os->recs = ss_arena_alloc(&a, (size_t)nslots * sizeof(struct os_rec), 8);
	os->parent_slot = ss_arena_alloc(&a, (size_t)nslots * sizeof(uint32_t), 8);
	os->nchildren = ss_arena_alloc(&a, (size_t)nslots * sizeof(uint32_t), 8);
	os->hash = ss_arena_alloc(&a, (size_t)hsize * sizeof(uint32_t), 8);
	os->table_dirty = ss_arena_alloc(&a, SS_DIV_ROUND_UP(l->table_pages, 32) * sizeof(uint32_t), 8);
	size_t map_bytes = SS_DIV_ROUND_UP(l->data_pages, 32) * sizeof(uint32_t) + 4;

	os->bitmap = ss_arena_alloc(&a, map_bytes, 8);
	os->pend = ss_arena_alloc(&a, map_bytes, 8);
	os->nodes = ss_arena_alloc(&a, map_bytes, 8);
	os->check = ss_arena_alloc(&a, map_bytes, 8);
	os->jbuf = ss_arena_alloc(&a, l->page_size, 8);
	os->iobuf = ss_arena_alloc(&a, l->page_size, 8);
	os->jslots = ss_arena_alloc(&a, (l->page_size / OS_UNIT) * sizeof(uint32_t), 8);
	if (!os->recs || !os->parent_slot || !os->nchildren || !os->hash || !os->table_dirty ||
	    !os->bitmap || !os->pend || !os->nodes || !os->check || !os->jbuf || !os->iobuf ||
	    !os->jslots) {
		return -SS_ENOMEM;
	}
	for (uint32_t L = 0; L < OS_XT_MAXDEPTH; L++) {
		os->xpath[L].buf = ss_arena_alloc(&a, l->page_size, 8);
		os->xcache[L] = ss_arena_alloc(&a, l->page_size, 8);
		os->xcache_lpn[L] = OS_NOSLOT;
		if (!os->xpath[L].buf || !os->xcache[L]) {
			return -SS_ENOMEM;
		}
	}
	os->root_limit = l->root_extents;
	os->node_cap = (l->page_size - OS_XT_HDR) / OS_EXT_SIZE;
	if (l->node_extents != 0 && l->node_extents < os->node_cap) {
		os->node_cap = l->node_extents;
	}
	for (uint32_t s = 0; s < nslots; s++) {
		os->parent_slot[s] = OS_NOSLOT;
	}
	os->ftl = ftl;
	os->dram_used = dram_bytes(l);
	os->page_size = l->page_size;
	os->recs_per_page = l->page_size / OS_UNIT;
	os->nslots = nslots;
	os->max_objects = l->max_objects;
	os->ftl_capacity = l->ftl_capacity;
	os->table_first = l->table_first;
	os->table_pages = l->table_pages;
	os->jrnl_first = l->jrnl_first;
	os->jrnl_pages = l->jrnl_pages;
	os->data_first = l->data_first;
	os->data_pages = l->data_pages;
	os->hash_mask = hsize - 1u;
	os->jcap = os->recs_per_page - 1u;
	os->chunk_cap = clamp_u64(l->data_pages / 16u, 8, 4096);
	os->next_free_slot = 2;
	os_alloc_reset(os);
	*out = os;
	return 0;
}

/* A full root must fit in one node (a push-down), and a node must be able to split. */
static bool fanout_valid(uint32_t root, uint32_t node)
{
	return root != 1 && (node == 0 || (node >= 2 && root != 0 && root <= node));
}

static int check_page_size(uint32_t page_size)
{
	return (page_size < OS_MIN_PAGE || page_size % OS_UNIT) ? -SS_EINVAL : 0;
}

int ss_os_format(struct ss_objstore **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size,
		 const struct ss_os_params *params)
{
	uint32_t page_size = ss_ftl_page_size(ftl), cap = ss_ftl_capacity_pages(ftl);
	struct ss_os_params p;
	struct ss_objstore *os;
	struct os_sb l;
	int rc;

	rc = check_page_size(page_size);
	if (rc) {
		return rc;
	}
	if (params != NULL && params->max_objects != 0) {
		p = *params;
	} else {
		ss_os_default_params(ftl, &p);
	}
	if (params != NULL && params->max_objects == 0) {
		p.root_extents = params->root_extents;
		p.node_extents = params->node_extents;
	}
	if (p.max_objects > MAX_OBJECTS || !fanout_valid(p.root_extents, p.node_extents)) {
		return -SS_EINVAL;
	}
	layout(page_size, p.max_objects, cap, &l);
	l.root_extents = p.root_extents;
	l.node_extents = p.node_extents;
	if (l.data_pages < OS_MIN_DATA_PAGES) {
		return -SS_ENOSPC;   /* the metadata region leaves no room for data */
	}
	rc = carve(dram, dram_size, &l, ftl, &os);
	if (rc) {
		return rc;
	}
	/* Forget whatever an earlier store left in any page. */
	rc = ss_ftl_trim(ftl, 0, cap);
	if (rc) {
		return rc;
	}
	os->next_gen = 1;
	os->jstart = os->jhead = 0;
	os->jstart_seq = os->jhead_seq = 1;
	struct os_rec *root = &os->recs[os_slot_of_oid(SS_OID_ROOT)];

	root->oid = SS_OID_ROOT;
	root->type = SS_OBJ_DIR;
	os_obj_attach(os, os_slot_of_oid(SS_OID_ROOT));
	os_table_mark_dirty(os, os_slot_of_oid(SS_OID_ROOT));
	rc = os_checkpoint(os);
	if (rc) {
		return rc;
	}
	*out = os;
	return 0;
}

int ss_os_probe(struct ss_ftl *ftl, void *scratch, uint64_t scratch_size, struct ss_os_params *p)
{
	struct os_sb sb;
	int rc;

	if (scratch == NULL || scratch_size < ss_ftl_page_size(ftl)) {
		return -SS_ENOMEM;
	}
	rc = os_sb_load(ftl, scratch, &sb);
	if (rc) {
		return rc;
	}
	p->max_objects = sb.max_objects;
	p->root_extents = sb.root_extents;
	p->node_extents = sb.node_extents;
	return 0;
}

static bool layout_matches(const struct os_sb *sb, const struct os_sb *l)
{
	return sb->table_first == l->table_first && sb->table_pages == l->table_pages &&
	       sb->jrnl_first == l->jrnl_first && sb->jrnl_pages == l->jrnl_pages &&
	       sb->data_first == l->data_first && sb->data_pages == l->data_pages;
}

static int mark_extent(struct ss_objstore *os, void *arg, uint64_t pg, uint32_t lpn, uint32_t pages)
{
	(void)pg;
	*(uint64_t *)arg += pages;
	return os_alloc_mark(os, lpn, pages);
}

static int mark_node(struct ss_objstore *os, void *arg, uint64_t start, uint64_t end, uint32_t lpn)
{
	(void)arg;
	(void)start;
	(void)end;
	return os_alloc_mark_node(os, lpn);
}

/* Check one loaded record on its own and claim its pages (extents, extent-tree nodes, the
 * attribute page). */
static int check_record(struct ss_objstore *os, uint32_t s)
{
	struct os_rec *r = &os->recs[s];
	uint64_t pages = 0;

	if (s == os_slot_of_oid(SS_OID_ROOT)) {
		if (r->oid != SS_OID_ROOT || r->type != SS_OBJ_DIR) {
			return os_problem(os, SS_OS_P_RECORD, r->oid, UINT32_MAX, 0);
		}
	} else if (os_slot_of_oid(r->oid) != s || (r->oid >> 32) == 0 ||
		   os_check_name((const char *)r->var, r->name_len) != 0) {
		return os_problem(os, SS_OS_P_RECORD, r->oid, UINT32_MAX, 0);
	}
	if (r->type == SS_OBJ_DIR && (r->size != 0 || r->nextents != 0)) {
		return os_problem(os, SS_OS_P_RECORD, r->oid, UINT32_MAX, 0);
	}
	struct os_xt_visit v = { .from = 0, .to = UINT64_MAX, .extent = mark_extent,
				 .node = mark_node, .arg = &pages };
	int rc = os_xt_walk(os, r, &v);

	if (rc) {
		if (os->problem.code != SS_OS_CONSISTENT && os->problem.oid == 0) {
			os->problem.oid = r->oid;   /* found by the allocator, which knows no owner */
		}
		return rc < 0 ? rc : -SS_EBADMSG;
	}
	if (r->nextents != 0 && pages != SS_DIV_ROUND_UP(r->size, os->page_size)) {
		return os_problem(os, SS_OS_P_SIZE, r->oid, UINT32_MAX, 0);
	}
	if (r->attr_lpn != 0) {
		rc = os_alloc_mark_node(os, r->attr_lpn);
	}
	return rc;
}

/* Parents must be live directories and the tree acyclic; names unique per directory. */
static int rebuild(struct ss_objstore *os)
{
	int rc;

	if (os->recs[os_slot_of_oid(SS_OID_ROOT)].type == 0) {
		return os_problem(os, SS_OS_P_NAMESPACE, SS_OID_ROOT, UINT32_MAX, 0);
	}
	for (uint32_t s = 1; s < os->nslots; s++) {
		if (os->recs[s].type != 0 && (rc = check_record(os, s)) != 0) {
			return rc;
		}
	}
	for (uint32_t s = 1; s < os->nslots; s++) {
		struct os_rec *r = &os->recs[s];

		if (r->type == 0) {
			continue;
		}
		if (s != os_slot_of_oid(SS_OID_ROOT)) {
			uint32_t ps = os_slot(os, r->parent);

			if (ps == 0 || os->recs[ps].type != SS_OBJ_DIR ||
			    os_idx_find(os, r->parent, (const char *)r->var, r->name_len) != 0) {
				return os_problem(os, SS_OS_P_NAMESPACE, r->oid, UINT32_MAX, 0);
			}
		}
		os_obj_attach(os, s);
	}
	for (uint32_t s = 2; s < os->nslots; s++) {
		uint32_t cur = s, steps = 0;

		if (os->recs[s].type != SS_OBJ_DIR) {
			continue;
		}
		while (cur != os_slot_of_oid(SS_OID_ROOT)) {
			cur = os->parent_slot[cur];
			if (cur == OS_NOSLOT || ++steps > os->nslots) {
				return os_problem(os, SS_OS_P_NAMESPACE, os->recs[s].oid, UINT32_MAX, 0);
			}
		}
	}
	return 0;
}

int ss_os_mount(struct ss_objstore **out, struct ss_ftl *ftl, void *dram, uint64_t dram_size)
{
	struct ss_os_check_report rep;

	return ss_os_mount_report(out, ftl, dram, dram_size, &rep);
}

int ss_os_mount_report(struct ss_objstore **out, struct ss_ftl *ftl, void *dram,
		       uint64_t dram_size, struct ss_os_check_report *rep)
{
	uint32_t page_size = ss_ftl_page_size(ftl);
	struct ss_objstore *os;
	struct os_sb sb, l;
	int rc;

	ss_memset(rep, 0, sizeof(*rep));
	rep->problem_lpn = UINT32_MAX;

	rc = check_page_size(page_size);
	if (rc) {
		return rc;
	}
	if (dram == NULL || dram_size < page_size) {
		return -SS_ENOMEM;
	}
	rc = os_sb_load(ftl, dram, &sb);
	if (rc == -SS_EIO || rc == -SS_EBADMSG) {
		rep->problem = SS_OS_P_SUPERBLOCK;   /* a store that was formatted, now damaged */
		return -SS_EBADMSG;
	}
	if (rc) {
		return rc;
	}
	if (sb.page_size != page_size || sb.max_objects == 0 || sb.max_objects > MAX_OBJECTS) {
		rep->problem = SS_OS_P_METADATA;
		return -SS_EBADMSG;
	}
	layout(page_size, sb.max_objects, sb.ftl_capacity, &l);
	l.root_extents = sb.root_extents;
	l.node_extents = sb.node_extents;
	if (!layout_matches(&sb, &l) || sb.jstart >= sb.jrnl_pages ||
	    !fanout_valid(sb.root_extents, sb.node_extents) ||
	    sb.data_first + sb.data_pages > ss_ftl_capacity_pages(ftl)) {
		rep->problem = SS_OS_P_METADATA;
		return -SS_EBADMSG;
	}
	rc = carve(dram, dram_size, &l, ftl, &os);
	if (rc) {
		return rc;
	}
	ss_memset(&os->problem, 0, sizeof(os->problem));
	os->sb_seq = sb.seq;
	os->next_gen = sb.next_gen;
	os->jstart = sb.jstart;
	os->jstart_seq = sb.jseq;
	rc = os_table_load(os);
	if (rc == 0) {
		rc = os_jrnl_replay(os);
	}
	if (rc == 0) {
		rc = rebuild(os);
	}
	/* Fold the replayed journal into the table and skip past any stale journal page. */
	if (rc == 0) {
		rc = os_checkpoint(os);
	}
	/* Pages written for changes that never became durable are free now: make them read as
	 * zeros again before anything reuses them. */
	if (rc == 0) {
		rc = os_alloc_trim_free(os);
	}
	if (rc == 0) {
		rc = ss_ftl_flush(ftl);
	}
	if (rc == -SS_EBADMSG) {
		rep->problem = os->problem.code ? os->problem.code : SS_OS_P_METADATA;
		rep->problem_oid = os->problem.oid;
		rep->problem_lpn = os->problem.code ? os->problem.lpn : UINT32_MAX;
		rep->problem_level = os->problem.level;
	}
	if (rc) {
		return rc;
	}
	*out = os;
	return 0;
}

int ss_os_flush(struct ss_objstore *os)
{
	uint32_t used;
	int rc;

	rc = os_jrnl_commit(os);
	if (rc == 0) {
		rc = os_alloc_release_pending(os);
	}
	if (rc) {
		return rc;
	}
	used = (os->jhead + os->jrnl_pages - os->jstart) % os->jrnl_pages + 1u;
	if (2u * used >= os->jrnl_pages) {
		rc = os_checkpoint(os);
	}
	return rc;
}

int ss_os_unmount(struct ss_objstore *os)
{
	int rc = ss_os_flush(os);

	if (rc == 0) {
		rc = os_checkpoint(os);
	}
	return rc;
}

void ss_os_get_stats(const struct ss_objstore *os, struct ss_os_stats *st)
{
	st->capacity_bytes = (uint64_t)os->data_pages * os->page_size;
	st->free_bytes = (uint64_t)os_alloc_available(os) * os->page_size;
	st->objects = os->nobjects;
	st->max_objects = os->max_objects;
	st->journal_commits = os->journal_commits;
	st->checkpoints = os->checkpoints;
}

struct ss_ftl *ss_os_ftl(struct ss_objstore *os)
{
	return os->ftl;
}

void ss_os_metadata_range(const struct ss_objstore *os, uint32_t *first_lpn, uint32_t *count)
{
	*first_lpn = 0;
	*count = os->data_first;
}
