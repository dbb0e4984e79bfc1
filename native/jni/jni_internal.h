/*
 * JNI binding of libsmartssd for org.smartssd.device.SmartSsdNative, the one Java class
 * that declares natives (static ones): the helpers every file of the binding shares. One
 * file per part of the client the natives serve: jni_device.c (open, close, errors),
 * jni_drive_ops.c (DriveOps, SharedDriveEnergy), jni_namespace_ops.c (NamespaceOps,
 * ObjectAttributes), jni_tasklet_ops.c (TaskletOps), jni_program_ops.c (ProgramOps),
 * jni_cache.c (SolidStateCache), jni_format.c (EmulatedFormat), jni_chunk_ops.c
 * (ChunkedDrive) and jni_blk_ops.c (BlockTarget).
 *
 * Conventions (mirrored in SmartSsdNative.java):
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
#ifndef SS_JNI_INTERNAL_H
#define SS_JNI_INTERNAL_H

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

_Static_assert(DIRENT_SIZE == 272, "dirent slot size matches NamespaceOps.DIRENT_SIZE");

static inline jlong fail(int rc)
{
	int64_t err = rc < 0 ? -(int64_t)rc : EIO;
	int64_t reason = ss_dev_last_reason();

	if (reason < 0)
		reason = 0;
	return -(jlong)((reason << 32) | (err & 0xffffffff));
}

static inline jlong result(int64_t rc)
{
	return rc < 0 ? fail((int)rc) : (jlong)rc;
}

static inline struct ss_dev *dev(jlong h)
{
	return (struct ss_dev *)(uintptr_t)h;
}

/* Address of [pos, pos+len) in a direct buffer, or NULL when it is not direct or too small. */
static inline uint8_t *region(JNIEnv *env, jobject buf, jint pos, jint len)
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

static inline uint8_t *scratch(JNIEnv *env, jobject out, jint need)
{
	return region(env, out, 0, need < SCRATCH_MIN ? SCRATCH_MIN : need);
}

static inline void put64(uint8_t *out, unsigned slot, uint64_t v)
{
	memcpy(out + (size_t)slot * 8, &v, sizeof(v));
}

static inline uint64_t get64(const uint8_t *in, unsigned slot)
{
	uint64_t v;

	memcpy(&v, in + (size_t)slot * 8, sizeof(v));
	return v;
}

static inline void put_str(uint8_t *out, size_t at, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);

	memcpy(out + at, s, n);
	out[at + n] = 0;
}

/* A NUL-terminated string as a zero-padded wire field of `bytes`. */
static inline void put_padded(uint8_t *out, const char *s, size_t bytes)
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

static inline void put_smart(uint8_t *o, const struct ss_dev_smart *v)
{
	SS_DEV_SMART(ENCODE, jni_smart)
}

static inline void put_smart_attr(uint8_t *o, const struct ss_dev_smart_attr *v)
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
static inline int path_in(JNIEnv *env, jbyteArray arr, char *buf)
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
static inline void put_progress(uint8_t *o, const struct ss_dev_progress *v)
{
	SS_REPLY_PROGRESS(ENCODE, ss_wire_progress)
}

static inline void put_stat(uint8_t *o, const struct ss_dev_stat *v)
{
	SS_REPLY_STAT(ENCODE, ss_wire_stat)
}

/* An object id or instance as a jlong result; ids past INT64_MAX cannot be told from errors. */
static inline jlong id_result(int rc, uint64_t id)
{
	if (rc < 0)
		return fail(rc);
	return id > INT64_MAX ? -(jlong)EOVERFLOW : (jlong)id;
}

/* The JNI entry point `jname`: the query `call` fills API struct `api`, written into the
 * scratch buffer in the wire layout W of field list LIST (the Java record decodes it). */
#define FIXED_REPLY(jname, api, call, LIST, W)                                           \
	JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_##jname(             \
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

#endif
