/*
 * JNI binding of libsmartssd for org.smartssd.device.SmartSsdDevice (its only caller).
 *
 * Conventions (mirrored in SmartSsdDevice.java):
 *   - every function returns a jlong: a result >= 0, or -((reason << 32) | errno) with the
 *     drive's reason (ss_dev_last_reason) so Java maps both without another call;
 *   - data moves through direct ByteBuffers whose address and capacity are checked here
 *     (Java checks isDirect and bounds first); results are written into a caller-owned
 *     scratch buffer as native-order 8-byte slots and NUL-terminated strings at fixed
 *     offsets, except the fixed replies (drive info, fsstat, counters, stat, tasklet
 *     progress, model counters), which are written in their wire layout (ss_proto.h),
 *     generated from their field lists, and decoded by the Java records against the layout
 *     replyLayout0 reports;
 *   - paths arrive as NUL-terminated UTF-8 byte arrays copied into stack buffers;
 *   - nothing is allocated per call, so read, write and poll stay allocation-free.
 */
#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "smartssd/smartssd.h"
#include "ss_proto.h"

#define PATH_MAX_BYTES 4096
#define SCRATCH_MIN 4096

/* Result layouts in the scratch buffer (the constants of DriveOps, NamespaceOps and
 * TaskletOps in org.smartssd.device). */
#define DIRENT_SIZE (16 + SS_DEV_NAME_MAX + 1)
#define LIST_MAX 64
#define EXTENT_MAX 256
#define SPEC_FIELDS 9
#define SMART_ATTRS 64
#define SMART_ATTR_MAX 64

_Static_assert(DIRENT_SIZE == 272, "dirent slot size matches SmartSsdDevice.DIRENT_SIZE");

static jlong fail(int rc)
{
	int64_t err = rc < 0 ? -(int64_t)rc : EIO;
	int64_t reason = ss_dev_last_reason();

	if (reason < 0)
		reason = 0;
	return -(jlong)((reason << 32) | (err & 0xffffffff));
}

static jlong result(int64_t rc)
{
	return rc < 0 ? fail((int)rc) : (jlong)rc;
}

static struct ss_dev *dev(jlong h)
{
	return (struct ss_dev *)(uintptr_t)h;
}

/* Address of [pos, pos+len) in a direct buffer, or NULL when it is not direct or too small. */
static uint8_t *region(JNIEnv *env, jobject buf, jint pos, jint len)
{
	uint8_t *base;
	jlong cap;

	if (buf == NULL || pos < 0 || len < 0)
		return NULL;
	base = (*env)->GetDirectBufferAddress(env, buf);
	cap = (*env)->GetDirectBufferCapacity(env, buf);
	if (base == NULL || cap < 0 || (jlong)pos + len > cap)
		return NULL;
	return base + pos;
}

static uint8_t *scratch(JNIEnv *env, jobject out, jint need)
{
	return region(env, out, 0, need < SCRATCH_MIN ? SCRATCH_MIN : need);
}

static void put64(uint8_t *out, unsigned slot, uint64_t v)
{
	memcpy(out + (size_t)slot * 8, &v, sizeof(v));
}

static uint64_t get64(const uint8_t *in, unsigned slot)
{
	uint64_t v;

	memcpy(&v, in + (size_t)slot * 8, sizeof(v));
	return v;
}

static void put_str(uint8_t *out, size_t at, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);

	memcpy(out + at, s, n);
	out[at + n] = 0;
}

/* A NUL-terminated string as a zero-padded wire field of `bytes`. */
static void put_padded(uint8_t *out, const char *s, size_t bytes)
{
	size_t n = strnlen(s, bytes);

	memcpy(out, s, n);
	memset(out + n, 0, bytes - n);
}

/* One field of a fixed reply from the API struct at v into wire struct W at o. */
#define ENCODE(W, kind, name, bytes) ENCODE_##kind(W, name, bytes)
#define ENCODE_u8(W, name, bytes) o[offsetof(struct W, name)] = v->name;
#define ENCODE_u16(W, name, bytes) ss_put_le16(o + offsetof(struct W, name), v->name);
#define ENCODE_u32(W, name, bytes) ss_put_le32(o + offsetof(struct W, name), v->name);
#define ENCODE_u64(W, name, bytes) ss_put_le64(o + offsetof(struct W, name), v->name);
#define ENCODE_str(W, name, bytes) put_padded(o + offsetof(struct W, name), v->name, bytes);
#define ENCODE_cstr(W, name, bytes) put_padded(o + offsetof(struct W, name), v->name, bytes);

/* SMART results in the scratch buffer: the summary at 0, attribute i at SMART_ATTRS + i *
 * sizeof(struct jni_smart_attr), each packed little-endian from its field list. */
struct jni_smart {
	SS_DEV_SMART(SS_WIRE_MEMBER, _)
} __attribute__((packed));

struct jni_smart_attr {
	SS_DEV_SMART_ATTR(SS_WIRE_MEMBER, _)
} __attribute__((packed));

_Static_assert(sizeof(struct jni_smart) <= SMART_ATTRS, "SMART summary fits before the attributes");

static void put_smart(uint8_t *o, const struct ss_dev_smart *v)
{
	SS_DEV_SMART(ENCODE, jni_smart)
}

static void put_smart_attr(uint8_t *o, const struct ss_dev_smart_attr *v)
{
	SS_DEV_SMART_ATTR(ENCODE, jni_smart_attr)
}
#define ENCODE_rsv32(W, name, bytes) ss_put_le32(o + offsetof(struct W, name), 0);
#define ENCODE_i32(W, name, bytes) ss_put_le32(o + offsetof(struct W, name), (uint32_t)v->name);
#define ENCODE_rsv16(W, name, bytes) ss_put_le16(o + offsetof(struct W, name), 0);
/* the length of the struct's `name` field, which is NUL-terminated in the API struct */
#define ENCODE_len16(W, field, bytes)                                                    \
	ss_put_le16(o + offsetof(struct W, field), (uint16_t)strnlen(v->name, SS_DEV_NAME_MAX));
#define ENCODE_name(W, name, bytes) put_padded(o + offsetof(struct W, name), v->name, bytes);

/* One line "name kind offset bytes" of a fixed reply's layout. */
#define LAYOUT(W, kind, name, bytes)                                                     \
	n += snprintf(text + n, sizeof(text) - (size_t)n, "%s %s %zu %d\n", #name, #kind,  \
		      offsetof(struct W, name), bytes);

/* Copies a NUL-terminated UTF-8 path from Java. \return 0 or -EINVAL / -ENAMETOOLONG. */
static int path_in(JNIEnv *env, jbyteArray arr, char *buf)
{
	jsize n;

	if (arr == NULL)
		return -EINVAL;
	n = (*env)->GetArrayLength(env, arr);
	if (n < 1)
		return -EINVAL;
	if (n > PATH_MAX_BYTES)
		return -ENAMETOOLONG;
	(*env)->GetByteArrayRegion(env, arr, 0, n, (jbyte *)buf);
	buf[n - 1] = 0;
	return 0;
}

/* The tasklet progress and the object stat in their wire layouts (SS_REPLY_PROGRESS,
 * SS_REPLY_STAT), decoded by TaskletProgress and ObjectStat. */
static void put_progress(uint8_t *o, const struct ss_dev_progress *v)
{
	SS_REPLY_PROGRESS(ENCODE, ss_wire_progress)
}

static void put_stat(uint8_t *o, const struct ss_dev_stat *v)
{
	SS_REPLY_STAT(ENCODE, ss_wire_stat)
}

/* An object id or instance as a jlong result; ids past INT64_MAX cannot be told from errors. */
static jlong id_result(int rc, uint64_t id)
{
	if (rc < 0)
		return fail(rc);
	return id > INT64_MAX ? -(jlong)EOVERFLOW : (jlong)id;
}

/* ---- open / close / errors ----------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_open0(JNIEnv *env, jclass cls,
		jbyteArray uri, jint timeout_ms, jint busy_retry_ms)
{
	char u[PATH_MAX_BYTES];
	struct ss_dev_open_opts o = { .timeout_ms = (uint32_t)timeout_ms,
				      .busy_retry_ms = (uint32_t)busy_retry_ms };
	struct ss_dev *d = NULL;
	int rc = path_in(env, uri, u);

	if (rc < 0)
		return -(jlong)-rc;
	rc = ss_dev_open(u, &o, &d);
	if (rc < 0)
		return fail(rc);
	return (jlong)(uintptr_t)d;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_close0(JNIEnv *env, jclass cls,
		jlong h)
{
	return result(ss_dev_close(dev(h)));
}

JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdDevice_transport0(JNIEnv *env,
		jclass cls, jlong h)
{
	return (*env)->NewStringUTF(env, ss_dev_transport(dev(h)));
}

/* Called on the error path only, on the thread whose call failed. */
JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdDevice_lastMessage0(JNIEnv *env,
		jclass cls)
{
	char msg[SS_DEV_MSG_MAX];
	size_t i;

	ss_dev_last_message_copy(msg, sizeof(msg));
	/* NewStringUTF wants modified UTF-8; keep the message 7-bit clean. */
	for (i = 0; msg[i]; i++)
		if ((unsigned char)msg[i] >= 0x80)
			msg[i] = '?';
	return (*env)->NewStringUTF(env, msg);
}

/* ---- drive ------------------------------------------------------------------------- */

/* The JNI entry point `jname`: the query `call` fills API struct `api`, written into the
 * scratch buffer in the wire layout W of field list LIST (the Java record decodes it). */
#define FIXED_REPLY(jname, api, call, LIST, W)                                           \
	JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_##jname(             \
		JNIEnv *env, jclass cls, jlong h, jobject out)                                \
	{                                                                                 \
		uint8_t *o = scratch(env, out, 0);                                         \
		struct api in;                                                             \
		const struct api *v = &in;                                                 \
		int rc;                                                                    \
                                                                                          \
		if (o == NULL)                                                             \
			return -(jlong)EFAULT;                                             \
		rc = call(dev(h), &in);                                                    \
		if (rc < 0)                                                                \
			return fail(rc);                                                   \
		LIST(ENCODE, W)                                                            \
		return 0;                                                                  \
	}

FIXED_REPLY(info0, ss_dev_info, ss_dev_drive_info, SS_REPLY_DRIVE_INFO, ss_drive_info)
FIXED_REPLY(fsstat0, ss_dev_fsstat, ss_dev_fsstat, SS_REPLY_FSSTAT, ss_wire_fsstat)
FIXED_REPLY(counters0, ss_dev_counters, ss_dev_counters, SS_REPLY_COUNTERS, ss_wire_counters)
FIXED_REPLY(model0, ss_dev_model, ss_dev_model_counters, SS_REPLY_MODEL, ss_wire_model)
FIXED_REPLY(cacheInfo0, ss_dev_cache_info, ss_dev_cache_info, SS_REPLY_SSC_INFO,
	    ss_wire_ssc_info)
FIXED_REPLY(check0, ss_dev_check, ss_dev_check, SS_REPLY_CHECK, ss_wire_check)
FIXED_REPLY(ispQueue0, ss_dev_isp_queue, ss_dev_isp_queue, SS_REPLY_ISP_QUEUE,
	    ss_wire_isp_queue)

/* The drive's energy ledger (ss_dev_energy_*): a ticket (< 2^63), 0, or the share in the
 * wire layout of SS_REPLY_TASK_SHARE. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_energyJoin0(JNIEnv *env,
		jclass cls, jlong h, jlong instance)
{
	uint64_t ticket;
	int rc = ss_dev_energy_join(dev(h), (uint64_t)instance, &ticket);

	return rc < 0 ? fail(rc) : (jlong)ticket;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_energyLeave0(JNIEnv *env,
		jclass cls, jlong h, jlong ticket, jboolean abandon)
{
	return result(ss_dev_energy_leave(dev(h), (uint64_t)ticket, abandon ? 1 : 0));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_energyShare0(JNIEnv *env,
		jclass cls, jlong h, jlong ticket, jobject out)
{
	uint8_t *o = scratch(env, out, 0);
	struct ss_dev_task_share in;
	const struct ss_dev_task_share *v = &in;
	int rc;

	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_energy_share(dev(h), (uint64_t)ticket, &in);
	if (rc < 0)
		return fail(rc);
	SS_REPLY_TASK_SHARE(ENCODE, ss_wire_task_share)
	return 0;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_flush0(JNIEnv *env, jclass cls,
		jlong h)
{
	return result(ss_dev_flush(dev(h)));
}

/* The layout of fixed reply `which` (0 drive info, 1 fsstat, 2 counters, 5 stat, 6 tasklet
 * progress, 7 model counters, 8 cache info, 9 check, 10 energy share, 11 ISP queue: the wire's; 3 the SMART summary, 4 one SMART attribute: as
 * packed here), one line
 * "name kind offset bytes" per field then "size <bytes>" (the SMART summary also says
 * "attrs <offset>", where the attributes start), from the field lists: the Java records'
 * decode offsets are checked against it. NULL for an unknown reply. */
JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdDevice_replyLayout0(JNIEnv *env,
		jclass cls, jint which)
{
	char text[4096];
	int n = 0;
	size_t size;

	switch (which) {
	case 0:
		SS_REPLY_DRIVE_INFO(LAYOUT, ss_drive_info)
		size = sizeof(struct ss_drive_info);
		break;
	case 1:
		SS_REPLY_FSSTAT(LAYOUT, ss_wire_fsstat)
		size = sizeof(struct ss_wire_fsstat);
		break;
	case 2:
		SS_REPLY_COUNTERS(LAYOUT, ss_wire_counters)
		size = sizeof(struct ss_wire_counters);
		break;
	case 3:
		SS_DEV_SMART(LAYOUT, jni_smart)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "attrs %d\n", SMART_ATTRS);
		size = sizeof(struct jni_smart);
		break;
	case 4:
		SS_DEV_SMART_ATTR(LAYOUT, jni_smart_attr)
		size = sizeof(struct jni_smart_attr);
		break;
	case 5:
		SS_REPLY_STAT(LAYOUT, ss_wire_stat)
		size = sizeof(struct ss_wire_stat);
		break;
	case 6:
		SS_REPLY_PROGRESS(LAYOUT, ss_wire_progress)
		size = sizeof(struct ss_wire_progress);
		break;
	case 7:
		SS_REPLY_MODEL(LAYOUT, ss_wire_model)
		size = sizeof(struct ss_wire_model);
		break;
	case 8:
		SS_REPLY_SSC_INFO(LAYOUT, ss_wire_ssc_info)
		size = sizeof(struct ss_wire_ssc_info);
		break;
	case 9:
		SS_REPLY_CHECK(LAYOUT, ss_wire_check)
		size = sizeof(struct ss_wire_check);
		break;
	case 10:
		SS_REPLY_TASK_SHARE(LAYOUT, ss_wire_task_share)
		size = sizeof(struct ss_wire_task_share);
		break;
	case 11:
		SS_REPLY_ISP_QUEUE(LAYOUT, ss_wire_isp_queue)
		size = sizeof(struct ss_wire_isp_queue);
		break;
	default:
		return NULL;
	}
	snprintf(text + n, sizeof(text) - (size_t)n, "size %zu\n", size);
	return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_smart0(JNIEnv *env, jclass cls,
		jlong h, jobject out, jint max)
{
	struct ss_dev_smart_attr attrs[SMART_ATTR_MAX];
	struct ss_dev_smart s;
	uint32_t n = max < 0 ? 0 : (uint32_t)max;
	uint8_t *o;
	int rc, i;

	if (n > SMART_ATTR_MAX)
		n = SMART_ATTR_MAX;
	o = scratch(env, out, SMART_ATTRS + (jint)(n * sizeof(struct jni_smart_attr)));
	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_smart(dev(h), &s, attrs, n);
	if (rc < 0)
		return fail(rc);
	put_smart(o, &s);
	for (i = 0; i < rc; i++)
		put_smart_attr(o + SMART_ATTRS + (size_t)i * sizeof(struct jni_smart_attr), &attrs[i]);
	return rc;
}

/* ---- namespace and object data ------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_lookup0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray path, jobject out)
{
	char p[PATH_MAX_BYTES];
	struct ss_dev_stat st;
	uint8_t *o = scratch(env, out, 0);
	int rc = path_in(env, path, p);

	if (rc < 0)
		return -(jlong)-rc;
	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_lookup(dev(h), p, &st);
	if (rc < 0)
		return fail(rc);
	put_stat(o, &st);
	return 0;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_stat0(JNIEnv *env, jclass cls,
		jlong h, jlong oid, jobject out)
{
	struct ss_dev_stat st;
	uint8_t *o = scratch(env, out, 0);
	int rc;

	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_stat(dev(h), (uint64_t)oid, &st);
	if (rc < 0)
		return fail(rc);
	put_stat(o, &st);
	return 0;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_create0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray path, jint type, jint flags)
{
	char p[PATH_MAX_BYTES];
	uint64_t oid = 0;
	int rc = path_in(env, path, p);

	if (rc < 0)
		return -(jlong)-rc;
	rc = ss_dev_create(dev(h), p, (uint32_t)type, (uint32_t)flags, &oid);
	return id_result(rc, oid);
}

/* depth 1: one piece at a time (ss_dev_write); more: queued pieces (ss_dev_write_queued). */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_write0(JNIEnv *env, jclass cls,
		jlong h, jlong oid, jlong offset, jobject buf, jint pos, jint len, jint flags,
		jint depth)
{
	uint8_t *b = region(env, buf, pos, len);

	if (b == NULL)
		return -(jlong)EFAULT;
	if (depth > 1)
		return result(ss_dev_write_queued(dev(h), (uint64_t)oid, (uint64_t)offset, b,
						  (size_t)len, (uint32_t)flags, (uint32_t)depth));
	return result(ss_dev_write(dev(h), (uint64_t)oid, (uint64_t)offset, b, (size_t)len,
				   (uint32_t)flags));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_read0(JNIEnv *env, jclass cls,
		jlong h, jlong oid, jlong offset, jobject buf, jint pos, jint len)
{
	uint8_t *b = region(env, buf, pos, len);

	if (b == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_read(dev(h), (uint64_t)oid, (uint64_t)offset, b, (size_t)len));
}

/* n ranges into buf at pos, back to back, through a queue `depth` deep; counts[i] filled. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_readRanges0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlongArray offsets, jintArray lens, jobject buf,
		jint pos, jint len, jint depth, jintArray counts)
{
	jsize n = offsets ? (*env)->GetArrayLength(env, offsets) : -1;
	uint8_t *b = region(env, buf, pos, len);
	jlong *off;
	jint *ln, *cnt;
	int64_t rc;

	_Static_assert(sizeof(jlong) == sizeof(uint64_t) && sizeof(jint) == sizeof(uint32_t),
		       "Java arrays are the C API's arrays");
	if (b == NULL || n < 0 || !lens || !counts || (*env)->GetArrayLength(env, lens) != n ||
	    (*env)->GetArrayLength(env, counts) != n)
		return -(jlong)EFAULT;
	off = (*env)->GetLongArrayElements(env, offsets, NULL);
	ln = (*env)->GetIntArrayElements(env, lens, NULL);
	cnt = (*env)->GetIntArrayElements(env, counts, NULL);
	if (!off || !ln || !cnt) {
		rc = -ENOMEM;
		goto out;
	}
	{
		uint64_t want = 0;

		for (jsize i = 0; i < n; i++)
			want += (uint32_t)(ln[i] < 0 ? 0 : ln[i]);
		for (jsize i = 0; i < n; i++) {
			if (ln[i] < 0)
				want = UINT64_MAX;
		}
		if (want > (uint64_t)len) {
			rc = -EFAULT;
			goto out;
		}
	}
	rc = ss_dev_read_ranges(dev(h), (uint64_t)oid, (uint32_t)n, (const uint64_t *)off,
				(const uint32_t *)ln, b, (uint32_t)depth, (uint32_t *)cnt);
out:
	if (cnt)
		(*env)->ReleaseIntArrayElements(env, counts, cnt, 0);
	if (ln)
		(*env)->ReleaseIntArrayElements(env, lens, ln, JNI_ABORT);
	if (off)
		(*env)->ReleaseLongArrayElements(env, offsets, off, JNI_ABORT);
	return rc == -EFAULT ? -(jlong)EFAULT : result(rc);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_truncate0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlong size)
{
	return result(ss_dev_truncate(dev(h), (uint64_t)oid, (uint64_t)size));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_remove0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray path, jint flags)
{
	char p[PATH_MAX_BYTES];
	int rc = path_in(env, path, p);

	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_remove(dev(h), p, (uint32_t)flags));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_rename0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray src, jbyteArray dst, jint flags)
{
	char s[PATH_MAX_BYTES], d[PATH_MAX_BYTES];
	int rc = path_in(env, src, s);

	if (rc == 0)
		rc = path_in(env, dst, d);
	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_rename(dev(h), s, d, (uint32_t)flags));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_list0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray path, jlong cursor, jobject out, jint max)
{
	char p[PATH_MAX_BYTES];
	struct ss_dev_dirent ents[LIST_MAX];
	uint64_t cur = (uint64_t)cursor;
	uint32_t n = max < 0 ? 0 : (uint32_t)max;
	uint8_t *o;
	int rc = path_in(env, path, p), i;

	if (rc < 0)
		return -(jlong)-rc;
	if (n > LIST_MAX)
		n = LIST_MAX;
	o = scratch(env, out, 8 + (jint)n * DIRENT_SIZE);
	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_list(dev(h), p, &cur, ents, n);
	if (rc < 0)
		return fail(rc);
	put64(o, 0, cur);
	for (i = 0; i < rc; i++) {
		uint8_t *e = o + 8 + i * DIRENT_SIZE;

		put64(e, 0, ents[i].oid);
		put64(e, 1, ents[i].type);
		put_str(e, 16, ents[i].name, sizeof(ents[i].name));
	}
	return rc;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_setTimes0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlong mtime, jlong atime)
{
	return result(ss_dev_set_times(dev(h), (uint64_t)oid, (uint64_t)mtime, (uint64_t)atime));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_extents0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlong offset, jlong length, jobject out, jint max)
{
	struct ss_dev_extent ext[EXTENT_MAX];
	uint32_t n = max < 0 ? 0 : (uint32_t)max;
	uint8_t *o;
	int rc, i;

	if (n > EXTENT_MAX)
		n = EXTENT_MAX;
	o = scratch(env, out, (jint)n * 24);
	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_extents(dev(h), (uint64_t)oid, (uint64_t)offset, (uint64_t)length, ext, n);
	if (rc < 0)
		return fail(rc);
	for (i = 0; i < rc; i++) {
		put64(o, (unsigned)i * 3, ext[i].offset);
		put64(o, (unsigned)i * 3 + 1, ext[i].lba);
		put64(o, (unsigned)i * 3 + 2, ext[i].sectors);
	}
	return rc;
}

/* ---- named attributes: names are NUL-terminated byte arrays, as paths ---------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_setAttr0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jbyteArray name, jbyteArray value, jint flags)
{
	char n[PATH_MAX_BYTES];
	uint8_t v[SS_DEV_ATTRS_MAX];
	jsize vl = value == NULL ? 0 : (*env)->GetArrayLength(env, value);
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	/* a longer value is refused by ss_dev_set_attr before it reads any byte */
	if (vl > 0 && vl <= (jsize)sizeof(v))
		(*env)->GetByteArrayRegion(env, value, 0, vl, (jbyte *)v);
	return result(ss_dev_set_attr(dev(h), (uint64_t)oid, n, v, (size_t)vl, (uint32_t)flags));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_getAttr0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jbyteArray name, jobject out)
{
	char n[PATH_MAX_BYTES];
	uint8_t *o = scratch(env, out, SS_DEV_ATTRS_MAX);
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	if (o == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_get_attr(dev(h), (uint64_t)oid, n, o, SS_DEV_ATTRS_MAX));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_listAttrs0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jobject out)
{
	uint8_t *o = scratch(env, out, SS_DEV_ATTRS_MAX);

	if (o == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_list_attrs(dev(h), (uint64_t)oid, (char *)o, SS_DEV_ATTRS_MAX));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_removeAttr0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jbyteArray name)
{
	char n[PATH_MAX_BYTES];
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_remove_attr(dev(h), (uint64_t)oid, n));
}

/* ---- tasklets ---------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_createOutput0(JNIEnv *env,
		jclass cls, jlong h, jbyteArray path, jint flags)
{
	char p[PATH_MAX_BYTES];
	uint64_t oid = 0;
	int rc = path_in(env, path, p);

	if (rc < 0)
		return -(jlong)-rc;
	rc = ss_dev_create_output(dev(h), p, (uint32_t)flags, &oid);
	return id_result(rc, oid);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_taskletCreate0(JNIEnv *env,
		jclass cls, jlong h, jobject specbuf, jint params_pos, jint params_len)
{
	struct ss_dev_tasklet_spec spec;
	const uint8_t *s = region(env, specbuf, 0, params_pos);
	const uint8_t *params = region(env, specbuf, params_pos, params_len);
	uint64_t inst = 0, nfields;
	unsigned i;
	int rc;

	if (s == NULL || params == NULL ||
	    (jlong)(SPEC_FIELDS + 6 * SS_DEV_LAYOUT_MAX_FIELDS) * 8 > params_pos)
		return -(jlong)EFAULT;
	nfields = get64(s, 7);
	if (nfields > SS_DEV_LAYOUT_MAX_FIELDS)
		return -(jlong)EINVAL;
	memset(&spec, 0, sizeof(spec));
	spec.tasklet_id = (uint32_t)get64(s, 0);
	spec.mem_budget = (uint32_t)get64(s, 1);
	spec.step_limit = get64(s, 2);
	spec.output_oid = get64(s, 3);
	spec.layout.kind = (uint8_t)get64(s, 4);
	spec.layout.line_delim = (uint8_t)get64(s, 5);
	spec.layout.field_sep = (uint8_t)get64(s, 6);
	spec.layout.nfields = (uint8_t)nfields;
	spec.layout.record_size = (uint32_t)get64(s, 8);
	for (i = 0; i < nfields; i++) {
		unsigned f = SPEC_FIELDS + i * 6;

		spec.layout.fields[i].offset = (uint16_t)get64(s, f);
		spec.layout.fields[i].type = (uint8_t)get64(s, f + 1);
		spec.layout.fields[i].width = (uint8_t)get64(s, f + 2);
		spec.layout.fields[i].shift = (uint8_t)get64(s, f + 3);
		spec.layout.fields[i].bits = (uint8_t)get64(s, f + 4);
		spec.layout.fields[i].null_bit = (uint16_t)get64(s, f + 5);
	}
	rc = ss_dev_tasklet_create(dev(h), &spec, params, (uint32_t)params_len, &inst);
	return id_result(rc, inst);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_taskletExecute0(JNIEnv *env,
		jclass cls, jlong h, jlong instance, jobject inputs, jint pos, jint n)
{
	const uint8_t *in;

	if (n < 0 || n > INT32_MAX / (jint)sizeof(struct ss_dev_input))
		return -(jlong)EINVAL;
	in = region(env, inputs, pos, n * (jint)sizeof(struct ss_dev_input));
	/* Java writes (oid, offset, length) u64 triples: exactly struct ss_dev_input. */
	if (in == NULL || ((uintptr_t)in % _Alignof(struct ss_dev_input)) != 0)
		return -(jlong)EFAULT;
	return result(ss_dev_tasklet_execute(dev(h), (uint64_t)instance,
					     (const struct ss_dev_input *)in, (uint32_t)n));
}

_Static_assert(sizeof(struct ss_dev_input) == 24, "input ranges are three u64");

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_taskletPoll0(JNIEnv *env,
		jclass cls, jlong h, jlong instance, jobject out)
{
	uint8_t *o = region(env, out, 0, (jint)sizeof(struct ss_wire_progress));
	struct ss_dev_progress p;
	int rc;

	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_tasklet_poll(dev(h), (uint64_t)instance, &p);
	if (rc < 0)
		return fail(rc);
	put_progress(o, &p);
	return 0;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_taskletRead0(JNIEnv *env,
		jclass cls, jlong h, jlong instance, jlong offset, jobject buf, jint pos, jint len,
		jobject progress)
{
	uint8_t *b = region(env, buf, pos, len);
	uint8_t *o = NULL;
	struct ss_dev_progress p;
	int64_t rc;

	if (b == NULL)
		return -(jlong)EFAULT;
	if (progress != NULL) {
		o = region(env, progress, 0, (jint)sizeof(struct ss_wire_progress));
		if (o == NULL)
			return -(jlong)EFAULT;
	}
	rc = ss_dev_tasklet_read(dev(h), (uint64_t)instance, (uint64_t)offset, b, (size_t)len,
				 o != NULL ? &p : NULL);
	if (rc >= 0 && o != NULL)
		put_progress(o, &p);
	return result(rc);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_taskletDestroy0(JNIEnv *env,
		jclass cls, jlong h, jlong instance)
{
	return result(ss_dev_tasklet_destroy(dev(h), (uint64_t)instance));
}

/* ---- solid-state cache --------------------------------------------------------------- */

/* buf[pos, pos + len) holds count blocks (Java checks len = count * block size). */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_cacheWrite0(JNIEnv *env,
		jclass cls, jlong h, jboolean dirty, jlong first, jlong count, jobject buf, jint pos,
		jint len)
{
	uint8_t *b = region(env, buf, pos, len);

	if (b == NULL || count <= 0)
		return -(jlong)EFAULT;
	return result(dirty ? ss_dev_cache_write_dirty(dev(h), (uint64_t)first, (uint64_t)count, b)
			    : ss_dev_cache_write_clean(dev(h), (uint64_t)first, (uint64_t)count, b));
}

/* Blocks into buf[pos, pos + len), the present bitmap at the start of the scratch `out`.
 * \return blocks present. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_cacheRead0(JNIEnv *env,
		jclass cls, jlong h, jlong first, jlong count, jobject buf, jint pos, jint len,
		jobject out)
{
	uint8_t *b = region(env, buf, pos, len);
	uint8_t *o = count > 0 ? scratch(env, out, (jint)((count + 7) / 8)) : NULL;

	if (b == NULL || o == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_cache_read(dev(h), (uint64_t)first, (uint64_t)count, b, o));
}

/* op 0 evict, 1 clean, 2 exists (the bitmap at the start of the scratch `out`).
 * \return 0, or for exists the blocks present and dirty. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_cacheRange0(JNIEnv *env,
		jclass cls, jlong h, jint op, jlong first, jlong count, jobject out)
{
	uint8_t *o;

	if (count <= 0)
		return -(jlong)EINVAL;
	switch (op) {
	case 0:
		return result(ss_dev_cache_evict(dev(h), (uint64_t)first, (uint64_t)count));
	case 1:
		return result(ss_dev_cache_clean(dev(h), (uint64_t)first, (uint64_t)count));
	case 2:
		o = scratch(env, out, (jint)((count + 7) / 8));
		if (o == NULL)
			return -(jlong)EFAULT;
		return result(ss_dev_cache_exists(dev(h), (uint64_t)first, (uint64_t)count, o));
	default:
		return -(jlong)EINVAL;
	}
}

/* ranges: first_block, blocks, file_block per range (n ranges); digest: null for raw
 * blocks, else the version's 32 bytes (blocks with headers); the runs go to the scratch
 * `out` as file_block, blocks, first_record, records (4 x u64 each, native order).
 * \return the runs. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_cacheScan0(JNIEnv *env,
		jclass cls, jlong h, jlong instance, jlong file_bytes, jbyteArray digest,
		jlongArray ranges, jint n, jobject out)
{
	jbyte dg[SS_SSC_VERSION_DIGEST_BYTES];
	static const size_t run_bytes = 4 * sizeof(uint64_t);
	struct ss_dev_scan_range rg[SS_SSC_SCAN_MAX_RANGES];
	struct ss_dev_scan_run runs[SS_SSC_SCAN_MAX_RUNS];
	jlong v[3 * SS_SSC_SCAN_MAX_RANGES];
	uint8_t *o = scratch(env, out, (jint)(SS_SSC_SCAN_MAX_RUNS * run_bytes));
	int rc;

	if (o == NULL || ranges == NULL || n <= 0 || n > (jint)SS_SSC_SCAN_MAX_RANGES ||
	    (*env)->GetArrayLength(env, ranges) < 3 * n)
		return -(jlong)EINVAL;
	if (digest != NULL) {
		if ((*env)->GetArrayLength(env, digest) != SS_SSC_VERSION_DIGEST_BYTES)
			return -(jlong)EINVAL;
		(*env)->GetByteArrayRegion(env, digest, 0, SS_SSC_VERSION_DIGEST_BYTES, dg);
	}
	(*env)->GetLongArrayRegion(env, ranges, 0, 3 * n, v);
	for (jint i = 0; i < n; i++) {
		rg[i].first_block = (uint64_t)v[3 * i];
		rg[i].blocks = (uint64_t)v[3 * i + 1];
		rg[i].file_block = (uint64_t)v[3 * i + 2];
	}
	rc = ss_dev_cache_scan(dev(h), (uint64_t)instance, (uint64_t)file_bytes,
			       digest != NULL ? (const uint8_t *)dg : NULL, rg, (uint32_t)n, runs);
	for (int i = 0; i < rc; i++) {
		put64(o, 4 * i, runs[i].file_block);
		put64(o, 4 * i + 1, runs[i].blocks);
		put64(o, 4 * i + 2, runs[i].first_record);
		put64(o, 4 * i + 3, runs[i].records);
	}
	return result(rc);
}
