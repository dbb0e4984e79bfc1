/*
 * Reply slots keyed by tag, the heap their payloads live in, and host sessions.
 *
 * A SEND reserves its slot and the largest payload its opcode can answer before it
 * executes, so a drive out of slots or heap refuses the command (BUSY) instead of doing
 * the work and losing the answer. The heap is first-fit over the reserved ranges kept
 * sorted by offset; a reply shrinks to its real size once executed.
 */
#include "cmd_internal.h"

#define HEAP_ALIGN 8u

void fw_replies_init(struct ss_fw *fw)
{
	for (uint32_t i = 0; i < FW_REPLY_SLOTS; i++) {
		fw->replies[i].used = 0;
	}
	fw->replies_end = 0;
	fw->heap_n = 0;
	fw->reply_age = 0;
	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		fw->sessions[i].id = 0;
		fw->sessions[i].pending = 0;
	}
	fw->session0_pending = 0;
	fw->owner = 0;
}

static uint16_t tag_session(uint32_t tag)
{
	return (uint16_t)(tag >> 16);
}

struct fw_session *fw_session_find(struct ss_fw *fw, uint16_t id)
{
	if (id == 0) {
		return NULL;
	}
	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		if (fw->sessions[i].id == id) {
			return &fw->sessions[i];
		}
	}
	return NULL;
}

struct fw_session *fw_session_of(struct ss_fw *fw, uint32_t tag)
{
	struct fw_session *s = fw_session_find(fw, tag_session(tag));

	return s != NULL && s->owner == fw->owner ? s : NULL;
}

struct fw_reply *fw_reply_find(struct ss_fw *fw, uint32_t tag)
{
	for (uint32_t i = 0; i < fw->replies_end; i++) {
		if (fw->replies[i].used && fw->replies[i].tag == tag) {
			return &fw->replies[i];
		}
	}
	return NULL;
}

bool fw_reply_ordered_write_failed(struct ss_fw *fw, uint32_t tag, uint64_t oid)
{
	for (uint32_t i = 0; i < fw->replies_end; i++) {
		const struct fw_reply *r = &fw->replies[i];

		if (r->used && r->failed_ordered_oid == oid &&
		    tag_session(r->tag) == tag_session(tag)) {
			return true;
		}
	}
	return false;
}

int ss_fw_reply_waiting(struct ss_fw *fw, uint32_t tag)
{
	return fw_reply_find(fw, tag) != NULL;
}

int ss_fw_reply_idle_poll(struct ss_fw *fw, uint32_t tag)
{
	struct fw_reply *r = fw_reply_find(fw, tag);

	return r != NULL && r->idle_poll;
}

uint8_t *fw_reply_payload(struct ss_fw *fw, struct fw_reply *r)
{
	return fw->heap + r->heap_off;
}

static void heap_remove(struct ss_fw *fw, uint16_t slot)
{
	for (uint32_t i = 0; i < fw->heap_n; i++) {
		if (fw->heap_order[i] == slot) {
			ss_memmove(&fw->heap_order[i], &fw->heap_order[i + 1],
				   (fw->heap_n - i - 1) * sizeof(fw->heap_order[0]));
			fw->heap_n--;
			return;
		}
	}
}

/* First fit; \return 0 and the slot placed in heap order, or -SS_ENOSPC. */
static int heap_alloc(struct ss_fw *fw, uint16_t slot, uint32_t len)
{
	uint32_t prev_end = 0;
	uint32_t i;

	len = SS_ALIGN_UP(len, HEAP_ALIGN);
	for (i = 0; i < fw->heap_n; i++) {
		const struct fw_reply *r = &fw->replies[fw->heap_order[i]];

		if (r->heap_off - prev_end >= len) {
			break;
		}
		prev_end = r->heap_off + SS_ALIGN_UP(r->cap, HEAP_ALIGN);
	}
	if (i == fw->heap_n && fw->heap_size - prev_end < len) {
		return -SS_ENOSPC;
	}
	ss_memmove(&fw->heap_order[i + 1], &fw->heap_order[i],
		   (fw->heap_n - i) * sizeof(fw->heap_order[0]));
	fw->heap_order[i] = slot;
	fw->heap_n++;
	fw->replies[slot].heap_off = prev_end;
	return 0;
}

void fw_reply_release(struct ss_fw *fw, struct fw_reply *r)
{
	uint16_t slot = (uint16_t)(r - fw->replies);
	uint16_t sid = tag_session(r->tag);
	struct fw_session *s;

	if (!r->used) {
		return;
	}
	heap_remove(fw, slot);   /* also a reply that shrank to nothing keeps its place */
	r->used = 0;
	while (fw->replies_end > 0 && !fw->replies[fw->replies_end - 1].used) {
		fw->replies_end--;
	}
	if (sid == 0) {
		fw->session0_pending--;
	} else if ((s = fw_session_find(fw, sid)) != NULL && s->pending) {
		s->pending--;
	}
}

/* Session 0 serves processes that have no session yet; a reply there that nobody
 * received belongs to a host process that went away, so the oldest one gives way. */
static int evict_session0(struct ss_fw *fw)
{
	struct fw_reply *oldest = NULL;

	for (uint32_t i = 0; i < fw->replies_end; i++) {
		struct fw_reply *r = &fw->replies[i];

		if (r->used && tag_session(r->tag) == 0 && (!oldest || r->age < oldest->age)) {
			oldest = r;
		}
	}
	if (!oldest) {
		return -SS_EBUSY;
	}
	fw_reply_release(fw, oldest);
	return 0;
}

int fw_reply_reserve(struct ss_fw *fw, uint32_t tag, uint16_t opcode, uint32_t cap,
		     struct fw_reply **out)
{
	uint16_t sid = tag_session(tag);
	struct fw_session *s = fw_session_find(fw, sid);
	struct fw_reply *r = NULL;
	uint16_t slot;

	if (sid == 0 && fw->session0_pending >= FW_QUEUE_DEPTH && evict_session0(fw)) {
		return -SS_EBUSY;
	}
	if (sid != 0 && (!s || s->pending >= FW_QUEUE_DEPTH)) {
		return -SS_EBUSY;
	}
	for (uint32_t i = 0; i < FW_REPLY_SLOTS; i++) {
		if (!fw->replies[i].used) {
			r = &fw->replies[i];
			break;
		}
	}
	if (!r) {
		return -SS_EBUSY;
	}
	slot = (uint16_t)(r - fw->replies);
	r->cap = cap;
	r->heap_off = 0;
	if (cap && heap_alloc(fw, slot, cap)) {
		return -SS_EBUSY;
	}
	r->used = 1;
	if (slot >= fw->replies_end) {
		fw->replies_end = slot + 1u;
	}
	r->tag = tag;
	r->opcode = opcode;
	r->status = 0;
	r->reason = SS_R_OK;
	r->payload_len = 0;
	r->value[0] = r->value[1] = r->value[2] = 0;
	r->age = ++fw->reply_age;
	r->idle_poll = 0;
	r->failed_ordered_oid = SS_OID_NONE;
	if (sid == 0) {
		fw->session0_pending++;
	} else {
		s->pending++;
		s->last_use = ++fw->session_clock;
	}
	*out = r;
	return 0;
}

void fw_reply_drop_session(struct ss_fw *fw, uint16_t session, const struct fw_reply *keep)
{
	for (uint32_t i = 0; i < fw->replies_end; i++) {
		struct fw_reply *r = &fw->replies[i];

		if (r->used && r != keep && tag_session(r->tag) == session) {
			fw_reply_release(fw, r);
		}
	}
}

/*
 * A free entry, else the least recently used session with no reply waiting among those of
 * the same owner. A client the drive can tell apart (ss_fw_set_owner: the daemon's
 * connections) only ever takes over its own: another's is closed when that client goes
 * (ss_fw_owner_gone), never while it may still use it. Unowned sessions (owner 0: SG_IO,
 * where a host process that died keeps its session open for ever) are taken over by
 * unowned openers; an owner that is alive gets BAD_SESSION and opens a new one.
 */
int fw_session_open(struct ss_fw *fw, uint16_t *id)
{
	struct fw_session *victim = NULL;
	uint16_t sid;

	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		struct fw_session *s = &fw->sessions[i];

		if (s->id == 0) {
			victim = s;
			break;
		}
		if (s->owner == fw->owner && s->pending == 0 &&
		    (!victim || s->last_use < victim->last_use)) {
			victim = s;
		}
	}
	if (!victim) {
		return -SS_EBUSY;
	}
	/* Ids run through 1..65535 before one comes back, so a late command of a closed
	 * session is refused rather than taken for the new owner's. */
	do {
		sid = fw->next_session++;
		if (fw->next_session == 0) {
			fw->next_session = 1;
		}
	} while (sid == 0 || fw_session_find(fw, sid));
	if (victim->id) {
		fw_reply_drop_session(fw, victim->id, NULL);
	}
	/* Leftovers of an earlier session with this id (closed, reply never received). */
	fw_reply_drop_session(fw, sid, NULL);
	victim->id = sid;
	victim->owner = fw->owner;
	victim->pending = 0;
	victim->last_use = ++fw->session_clock;
	*id = sid;
	return 0;
}

void fw_session_close(struct ss_fw *fw, uint16_t id, const struct fw_reply *keep)
{
	struct fw_session *s = fw_session_find(fw, id);

	if (!s) {
		return;
	}
	fw_reply_drop_session(fw, id, keep);
	s->id = 0;
	s->pending = 0;
}

void ss_fw_set_owner(struct ss_fw *fw, uint32_t owner)
{
	fw->owner = owner;
}

void ss_fw_owner_gone(struct ss_fw *fw, uint32_t owner)
{
	if (fw == NULL || owner == 0) {
		return;
	}
	if (fw->state == FW_UP) {
		fw_isp_drop_owner(fw, owner);
	}
	for (uint32_t i = 0; i < FW_MAX_SESSIONS; i++) {
		if (fw->sessions[i].id != 0 && fw->sessions[i].owner == owner) {
			fw_session_close(fw, fw->sessions[i].id, NULL);
		}
	}
}

void fw_op_open_session(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	uint16_t sid;

	if (fw_session_open(fw, &sid)) {
		fw_rep_error(rep, -SS_EAGAIN, SS_R_TOO_MANY_SESSIONS);
		return;
	}
	rep->value[0] = sid;
}

void fw_op_close_session(struct ss_fw *fw, const struct fw_req *rq, struct fw_rep *rep)
{
	fw_session_close(fw, (uint16_t)(rq->tag >> 16), rep->slot);
}
