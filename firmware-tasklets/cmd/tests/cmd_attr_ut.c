/*
 * Named attributes through the SEND/RECV path: set, get, list and remove with their flags,
 * refusals and errors (each with its reason and the limits of ss_proto.h), removal with the
 * object, and durability: a FLUSHed set survives a power loss, an unflushed one is there
 * whole or not at all.
 */
#include "cmd_internal.h"
#include "fixture.h"

static int32_t attr_call(struct fx *f, uint16_t op, uint64_t oid, uint32_t flags,
			 uint64_t length, const void *payload, uint32_t payload_len,
			 struct fx_reply *r)
{
	struct fx_pkt p = { .opcode = op, .oid = oid, .flags = flags, .length = length,
			    .payload = payload, .payload_len = payload_len,
			    .reply_max = SS_ATTRS_MAX };

	return fx_call(f, &p, r);
}

static int32_t set_attr(struct fx *f, uint64_t oid, const char *name, const char *value,
			uint32_t flags, struct fx_reply *r)
{
	uint8_t buf[600];
	uint32_t nl = (uint32_t)strlen(name), vl = (uint32_t)strlen(value);

	if (nl + vl > sizeof(buf)) {
		return -SS_E2BIG;
	}
	memcpy(buf, name, nl);
	memcpy(buf + nl, value, vl);
	return attr_call(f, SS_OP_SET_ATTR, oid, flags, nl, buf, nl + vl, r);
}

/* GET_ATTR, and that the value is `want` (NULL: absent, NO_SUCH_ATTR). */
static void expect_value(struct fx *f, uint64_t oid, const char *name, const char *want)
{
	struct fx_reply r;
	int32_t st = attr_call(f, SS_OP_GET_ATTR, oid, 0, 0, name, (uint32_t)strlen(name), &r);

	if (want == NULL) {
		CHECK_EQ(st, -SS_ENODATA);
		CHECK_EQ(r.reason, SS_R_NO_SUCH_ATTR);
		return;
	}
	CHECK_EQ(st, 0);
	CHECK_EQ(r.v[0], strlen(want));
	CHECK_EQ(r.payload_len, strlen(want));
	CHECK(memcmp(r.payload, want, strlen(want)) == 0);
}

static void test_set_get_list_remove(struct fx *f)
{
	struct fx_reply r;
	uint64_t oid, dir;

	CHECK_EQ(fx_create_path(f, "/t", 1, 0, &oid), 0);
	CHECK_EQ(set_attr(f, oid, "user.smartssd.layout", "{\"recordSize\":20}", 0, &r), 0);
	CHECK_EQ(set_attr(f, oid, "user.b", "2", SS_ATTR_CREATE, &r), 0);
	CHECK_EQ(set_attr(f, oid, "user.b", "3", SS_ATTR_CREATE, &r), -SS_EEXIST);
	CHECK_EQ(r.reason, SS_R_EXISTS);
	CHECK_EQ(set_attr(f, oid, "user.c", "3", SS_ATTR_REPLACE, &r), -SS_ENODATA);
	CHECK_EQ(r.reason, SS_R_NO_SUCH_ATTR);
	expect_value(f, oid, "user.smartssd.layout", "{\"recordSize\":20}");
	expect_value(f, oid, "user.b", "2");
	expect_value(f, oid, "user.c", NULL);
	CHECK_EQ(attr_call(f, SS_OP_LIST_ATTRS, oid, 0, 0, NULL, 0, &r), 0);
	CHECK_EQ(r.v[0], 28);
	CHECK_EQ(r.payload_len, 28);
	CHECK(memcmp(r.payload, "user.smartssd.layout\0user.b\0", 28) == 0);
	CHECK_EQ(attr_call(f, SS_OP_REMOVE_ATTR, oid, 0, 0, "user.b", 6, &r), 0);
	CHECK_EQ(attr_call(f, SS_OP_REMOVE_ATTR, oid, 0, 0, "user.b", 6, &r), -SS_ENODATA);
	CHECK_EQ(r.reason, SS_R_NO_SUCH_ATTR);
	expect_value(f, oid, "user.b", NULL);

	/* directories have attributes too; an unknown object is NO_SUCH_OBJECT */
	CHECK_EQ(fx_create_path(f, "/d", 2, 0, &dir), 0);
	CHECK_EQ(set_attr(f, dir, "user.x", "y", 0, &r), 0);
	expect_value(f, dir, "user.x", "y");
	CHECK_EQ(set_attr(f, oid + 77, "user.x", "y", 0, &r), -SS_ENOENT);
	CHECK_EQ(r.reason, SS_R_NO_SUCH_OBJECT);
}

/* Refused at SEND (malformed) and failed in the reply (over the store's limits). */
static void test_refusals(struct fx *f)
{
	static char big[SS_ATTRS_MAX + 300];
	struct ss_ata_result res;
	struct fx_reply r;
	uint64_t oid;

	CHECK_EQ(fx_create_path(f, "/lim", 1, 0, &oid), 0);
	memset(big, 'n', sizeof(big));
	struct fx_pkt p = { .opcode = SS_OP_SET_ATTR, .tag = fx_tag(f), .oid = oid,
			    .length = SS_ATTR_NAME_MAX + 1, .payload = big,
			    .payload_len = SS_ATTR_NAME_MAX + 2 };

	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_NAME_TOO_LONG));
	p.tag = fx_tag(f);
	p.length = 0;   /* no name */
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	p.tag = fx_tag(f);
	p.length = p.payload_len + 1;   /* the name past the payload */
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));
	p.tag = fx_tag(f);
	p.length = 1;
	p.flags = SS_ATTR_CREATE | SS_ATTR_REPLACE;
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	p = (struct fx_pkt){ .opcode = SS_OP_GET_ATTR, .tag = fx_tag(f), .oid = 0,
			     .payload = "user.a", .payload_len = 6, .reply_max = 64 };
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_FIELD));
	p = (struct fx_pkt){ .opcode = SS_OP_LIST_ATTRS, .tag = fx_tag(f), .oid = oid,
			     .payload = "x", .payload_len = 1, .reply_max = 64 };
	fx_send(f, &p, &res);
	CHECK(FX_ABORTED(res, SS_R_BAD_LENGTH));

	/* 3 + 1 + value bytes per attribute of a 1-byte name, SS_ATTRS_MAX in all */
	CHECK_EQ(attr_call(f, SS_OP_SET_ATTR, oid, 0, 1, big, 1 + SS_ATTRS_MAX - 3, &r), -SS_E2BIG);
	CHECK_EQ(r.reason, SS_R_BAD_LENGTH);
	CHECK_EQ(attr_call(f, SS_OP_SET_ATTR, oid, 0, 1, big, 1 + SS_ATTRS_MAX - 4, &r), 0);
	CHECK_EQ(attr_call(f, SS_OP_GET_ATTR, oid, 0, 0, "n", 1, &r), 0);
	CHECK_EQ(r.v[0], SS_ATTRS_MAX - 4);
	/* a short reply_max gets the value's start, value0 its full length */
	p = (struct fx_pkt){ .opcode = SS_OP_GET_ATTR, .oid = oid, .payload = "n",
			     .payload_len = 1, .reply_max = 16 };
	CHECK_EQ(fx_call(f, &p, &r), 0);
	CHECK_EQ(r.v[0], SS_ATTRS_MAX - 4);
	CHECK_EQ(r.payload_len, 16);
}

static void test_durability(struct fx *f)
{
	struct fx_reply r;
	uint64_t oid, gone;

	CHECK_EQ(fx_create_path(f, "/dur", 1, 0, &oid), 0);
	CHECK_EQ(fx_create_path(f, "/gone", 1, 0, &gone), 0);
	CHECK_EQ(set_attr(f, oid, "user.k", "flushed", 0, &r), 0);
	CHECK_EQ(set_attr(f, gone, "user.k", "removed", 0, &r), 0);
	CHECK_EQ(attr_call(f, SS_OP_FLUSH, 0, 0, 0, NULL, 0, &r), 0);
	CHECK_EQ(set_attr(f, oid, "user.k", "not flushed", 0, &r), 0);
	fx_crash(f);
	fx_open_session(f);
	/* the unflushed set may or may not have reached the journal: one value or the other */
	CHECK_EQ(attr_call(f, SS_OP_GET_ATTR, oid, 0, 0, "user.k", 6, &r), 0);
	CHECK((r.payload_len == 7 && memcmp(r.payload, "flushed", 7) == 0) ||
	      (r.payload_len == 11 && memcmp(r.payload, "not flushed", 11) == 0));
	CHECK_EQ(set_attr(f, oid, "user.k", "flushed", 0, &r), 0);
	struct fx_pkt rm = { .opcode = SS_OP_REMOVE, .payload = "/gone", .payload_len = 5 };

	CHECK_EQ(fx_call(f, &rm, &r), 0);
	CHECK_EQ(attr_call(f, SS_OP_GET_ATTR, gone, 0, 0, "user.k", 6, &r), -SS_ENOENT);
	fx_remount(f);
	fx_open_session(f);
	expect_value(f, oid, "user.k", "flushed");
	CHECK_EQ(attr_call(f, SS_OP_GET_ATTR, gone, 0, 0, "user.k", 6, &r), -SS_ENOENT);
}

int main(void)
{
	struct fx f;

	fx_create(&f, 0);
	fx_open_session(&f);
	test_set_get_list_remove(&f);
	test_refusals(&f);
	test_durability(&f);
	fx_destroy(&f);
	return fx_failures ? 1 : 0;
}
