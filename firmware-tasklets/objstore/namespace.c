/*
 * The namespace: names, paths, create, remove, rename, attributes and listing. Every change
 * reserves its journal room first, then updates DRAM, then journals the changed records.
 */
#include "objstore_internal.h"

int os_check_name(const char *name, uint32_t len)
{
	if (len == 0 || name == NULL) {
		return -SS_EINVAL;
	}
	if (len > SS_NAME_MAX) {
		return -SS_ENAMETOOLONG;
	}
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
		return -SS_EINVAL;
	}
	for (uint32_t i = 0; i < len; i++) {
		if (name[i] == '/' || name[i] == '\0') {
			return -SS_EINVAL;
		}
	}
	return 0;
}

static int dir_slot(struct ss_objstore *os, ss_oid_t dir, uint32_t *ds)
{
	*ds = os_slot(os, dir);
	if (*ds == 0) {
		return -SS_ENOENT;
	}
	return os->recs[*ds].type == SS_OBJ_DIR ? 0 : -SS_ENOTDIR;
}

int ss_os_lookup(struct ss_objstore *os, ss_oid_t dir, const char *name, uint32_t len,
		 ss_oid_t *oid)
{
	uint32_t ds, s;
	int rc = dir_slot(os, dir, &ds);

	if (rc) {
		return rc;
	}
	rc = os_check_name(name, len);
	if (rc) {
		return rc;
	}
	s = os_idx_find(os, dir, name, len);
	if (s == 0) {
		return -SS_ENOENT;
	}
	*oid = os->recs[s].oid;
	return 0;
}

int ss_os_lookup_path(struct ss_objstore *os, const char *path, uint32_t len, ss_oid_t *oid)
{
	ss_oid_t cur = SS_OID_ROOT;
	uint32_t i;
	int rc;

	if (path == NULL || len == 0 || path[0] != '/') {
		return -SS_EINVAL;
	}
	/* Check the whole path's syntax before resolving any of it. */
	for (i = 1; len > 1 && i <= len;) {
		uint32_t j = i;

		while (j < len && path[j] != '/') {
			j++;
		}
		rc = os_check_name(path + i, j - i);
		if (rc) {
			return rc;
		}
		i = j + 1;
	}
	for (i = 1; len > 1 && i <= len;) {
		uint32_t j = i;

		while (j < len && path[j] != '/') {
			j++;
		}
		rc = ss_os_lookup(os, cur, path + i, j - i, &cur);
		if (rc) {
			return rc;
		}
		i = j + 1;
	}
	*oid = cur;
	return 0;
}

int ss_os_create(struct ss_objstore *os, ss_oid_t dir, const char *name, uint32_t len,
		 enum ss_obj_type type, unsigned flags, uint64_t now_ns, ss_oid_t *oid)
{
	uint32_t ds, s;
	struct os_rec *r;
	int rc;

	if (type != SS_OBJ_FILE && type != SS_OBJ_DIR && type != SS_OBJ_OUTPUT) {
		return -SS_EINVAL;
	}
	rc = dir_slot(os, dir, &ds);
	if (rc == 0) {
		rc = os_check_name(name, len);
	}
	if (rc) {
		return rc;
	}
	s = os_idx_find(os, dir, name, len);
	if (s != 0) {
		if ((flags & SS_OS_EXCL) || os->recs[s].type != (uint8_t)type) {
			return -SS_EEXIST;
		}
		*oid = os->recs[s].oid;
		return 0;
	}
	s = os_alloc_slot(os);
	if (s == 0) {
		return -SS_ENOSPC;   /* object table full */
	}
	rc = os_jrnl_reserve(os, 1);
	if (rc) {
		return rc;
	}
	r = &os->recs[s];
	ss_memset(r, 0, sizeof(*r));
	r->oid = (os->next_gen++ << 32) | s;
	r->parent = dir;
	r->type = (uint8_t)type;
	r->ctime = r->mtime = r->atime = now_ns;
	os_rec_set_name(r, name, len);
	os_obj_attach(os, s);
	os_jrnl_add(os, s);
	*oid = r->oid;
	return 0;
}

/* Drop an object's slot; its data and attribute pages go to the pending list. Journal room is reserved. */
static void drop_object(struct ss_objstore *os, uint32_t s)
{
	struct os_rec *r = &os->recs[s];
	ss_oid_t oid = r->oid;

	os_data_free_all(os, s, r);
	if (r->attr_lpn != 0) {
		os_alloc_pend(os, r->attr_lpn, 1);
	}
	os_obj_detach(os, s);
	ss_memset(r, 0, sizeof(*r));
	os_jrnl_add_free(os, s, oid);
	if (s < os->next_free_slot) {
		os->next_free_slot = s;
	}
}

int ss_os_remove(struct ss_objstore *os, ss_oid_t oid)
{
	uint32_t s = os_slot(os, oid);
	int rc;

	if (s == 0) {
		return -SS_ENOENT;
	}
	if (oid == SS_OID_ROOT) {
		return -SS_EBUSY;
	}
	if (os->recs[s].type == SS_OBJ_DIR && os->nchildren[s] != 0) {
		return -SS_ENOTEMPTY;
	}
	rc = os_jrnl_reserve(os, 1);
	if (rc) {
		return rc;
	}
	drop_object(os, s);
	return 0;
}

static bool is_below(struct ss_objstore *os, uint32_t dir_slot, uint32_t anc_slot)
{
	for (uint32_t cur = dir_slot, steps = 0; cur != OS_NOSLOT && steps <= os->nslots; steps++) {
		if (cur == anc_slot) {
			return true;
		}
		cur = os->parent_slot[cur];
	}
	return false;
}

/* The name and the payload (extents or inline bytes) share the variable area. */
static void rename_record(struct ss_objstore *os, struct os_rec *nr, const char *name, uint32_t len)
{
	uint32_t plen = nr->nextents ? nr->nextents * OS_EXT_SIZE : (uint32_t)nr->size;

	ss_memcpy(os->iobuf, os_rec_inline(nr), plen);
	ss_memset(nr->var, 0, OS_REC_VAR);
	os_rec_set_name(nr, name, len);
	ss_memcpy(os_rec_inline(nr), os->iobuf, plen);
}

/* Times are left alone: a rename changes neither the data nor the object. */
int ss_os_rename(struct ss_objstore *os, ss_oid_t oid, ss_oid_t new_dir, const char *name,
		 uint32_t len, unsigned flags, uint64_t now_ns)
{
	uint32_t s = os_slot(os, oid), ds, ts;
	struct os_rec *nr = &os->scratch;
	int rc;

	if (s == 0) {
		return -SS_ENOENT;
	}
	if (oid == SS_OID_ROOT) {
		return -SS_EBUSY;
	}
	rc = dir_slot(os, new_dir, &ds);
	if (rc == 0) {
		rc = os_check_name(name, len);
	}
	if (rc) {
		return rc;
	}
	bool is_dir = os->recs[s].type == SS_OBJ_DIR;

	if (is_dir && is_below(os, ds, s)) {
		return -SS_EINVAL;   /* into its own subtree */
	}
	ts = os_idx_find(os, new_dir, name, len);
	if (ts == s) {
		return 0;
	}
	if (ts != 0) {
		bool t_dir = os->recs[ts].type == SS_OBJ_DIR;

		if (flags & SS_OS_NOREPLACE) {
			return -SS_EEXIST;
		}
		if (t_dir && !is_dir) {
			return -SS_EISDIR;
		}
		if (!t_dir && is_dir) {
			return -SS_ENOTDIR;
		}
		if (t_dir) {
			return -SS_EEXIST;
		}
	}
	uint32_t root_max = os_rec_max_extents(len);

	if (os->root_limit != 0 && os->root_limit < root_max) {
		root_max = os->root_limit;
	}
	rc = os_jrnl_reserve(os, OS_TXN_MAX);
	if (rc) {
		return rc;
	}
	*nr = os->recs[s];
	if (nr->nextents == 0 && nr->size > os_rec_inline_cap(len)) {
		rc = os_data_spill(os, s, nr);
		if (rc) {
			return rc;
		}
	} else if (nr->nextents > root_max) {
		/* A longer name leaves less room for the root: move it a level down. */
		uint64_t pages = os_rec_pages(nr);

		if (os_alloc_available(os) < 2u * OS_XT_MAXDEPTH) {
			return -SS_ENOSPC;
		}
		rc = os_xt_begin(os, nr, pages);
		if (rc == 0) {
			rc = os_xt_fit_root(os, nr, root_max);
		}
		if (rc == 0) {
			rc = os_xt_finish(os, nr);
		}
		if (rc) {
			os_xt_abort(os, nr, UINT64_MAX);
			return rc;
		}
		os_xt_commit(os, &os->recs[s], pages);
	}
	rename_record(os, nr, name, len);
	nr->parent = new_dir;
	if (ts != 0) {
		drop_object(os, ts);
	}
	os_obj_detach(os, s);
	os->recs[s] = *nr;
	os_obj_attach(os, s);
	os_jrnl_add(os, s);
	return 0;
}

int ss_os_stat(struct ss_objstore *os, ss_oid_t oid, struct ss_obj_stat *st)
{
	uint32_t s = os_slot(os, oid);
	const struct os_rec *r;

	if (s == 0) {
		return -SS_ENOENT;
	}
	r = &os->recs[s];
	ss_memset(st, 0, sizeof(*st));
	st->oid = r->oid;
	st->parent = r->parent;
	st->type = r->type;
	st->nchildren = os->nchildren[s];
	st->size = r->size;
	st->ctime_ns = r->ctime;
	st->mtime_ns = r->mtime;
	st->atime_ns = r->atime;
	st->page_writes = r->page_writes;
	if (r->depth == 0) {
		st->extent_count = r->nextents;
	} else {
		int64_t n = os_xt_count(os, r);

		if (n < 0) {
			return (int)n;
		}
		st->extent_count = (uint32_t)n;
	}
	st->name_len = r->name_len;
	ss_memcpy(st->name, r->var, r->name_len);
	return 0;
}

int ss_os_set_times(struct ss_objstore *os, ss_oid_t oid, uint64_t mtime_ns, uint64_t atime_ns)
{
	uint32_t s = os_slot(os, oid);
	int rc;

	if (s == 0) {
		return -SS_ENOENT;
	}
	rc = os_jrnl_reserve(os, 1);
	if (rc) {
		return rc;
	}
	os->recs[s].mtime = mtime_ns;
	os->recs[s].atime = atime_ns;
	os_jrnl_add(os, s);
	return 0;
}

int ss_os_list(struct ss_objstore *os, ss_oid_t dir, uint64_t *cursor, struct ss_dirent *out,
	       uint32_t max)
{
	uint32_t ds, n = 0;
	uint64_t s;
	int rc = dir_slot(os, dir, &ds);

	if (rc) {
		return rc;
	}
	if (out == NULL && max > 0) {
		return -SS_EINVAL;
	}
	/* The cursor is the slot of the last entry returned: slot order is stable. */
	for (s = *cursor + 1; s < os->nslots && n < max; s++) {
		const struct os_rec *r = &os->recs[s];

		if (os->parent_slot[s] != ds) {
			continue;
		}
		out[n].oid = r->oid;
		out[n].type = r->type;
		out[n].name_len = r->name_len;
		ss_memcpy(out[n].name, r->var, r->name_len);
		out[n].name[r->name_len] = '\0';
		*cursor = s;
		n++;
	}
	return (int)n;
}
