/* The natives of ChunkedDrive: an open-channel or zoned drive's geometry, chunk and zone
 * reports, vector I/O and resets, zone state changes and appends. */
#include "jni_internal.h"

FIXED_REPLY(geometry0, ss_dev_geometry, ss_dev_geometry, SS_REPLY_GEOMETRY, ss_wire_geometry)

/* Up to max chunks (zoned: zones) from index first into the scratch `out`, each in the
 * wire layout of SS_REPLY_CHUNK. \return the chunks given. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_chunkReport0(JNIEnv *env,
		jclass cls, jlong h, jboolean zoned, jlong first, jint max, jobject out)
{
	struct ss_dev_chunk c[SCRATCH_MIN / sizeof(struct ss_wire_chunk)];
	uint8_t *base = scratch(env, out, 0);
	uint32_t n = max < 0 ? 0 : (uint32_t)max;
	int rc;

	if (base == NULL || first < 0)
		return -(jlong)EINVAL;
	if (n > sizeof(c) / sizeof(c[0]))
		n = sizeof(c) / sizeof(c[0]);
	rc = zoned ? ss_dev_zone_report(dev(h), (uint64_t)first, c, n)
		   : ss_dev_chunk_report(dev(h), (uint64_t)first, c, n);
	if (rc < 0)
		return fail(rc);
	for (int i = 0; i < rc; i++) {
		uint8_t *o = base + (size_t)i * sizeof(struct ss_wire_chunk);
		const struct ss_dev_chunk *v = &c[i];

		SS_REPLY_CHUNK(ENCODE, ss_wire_chunk)
	}
	return rc;
}

/* ppas: group, pu, chunk, sector of each of n addresses. \return 0 or -EINVAL. */
static int ppas_in(JNIEnv *env, jintArray ppas, jint n, struct ss_dev_ppa *out)
{
	jint v[4 * SS_VECTOR_MAX];

	if (ppas == NULL || n <= 0 || n > (jint)SS_VECTOR_MAX ||
	    (*env)->GetArrayLength(env, ppas) < 4 * n)
		return -EINVAL;
	(*env)->GetIntArrayRegion(env, ppas, 0, 4 * n, v);
	for (jint i = 0; i < n; i++)
		out[i] = (struct ss_dev_ppa){ (uint32_t)v[4 * i], (uint32_t)v[4 * i + 1],
					      (uint32_t)v[4 * i + 2], (uint32_t)v[4 * i + 3] };
	return 0;
}

/* n sectors of buf[pos, pos + n * 512) to or from the addresses. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_vectorIo0(JNIEnv *env,
		jclass cls, jlong h, jboolean write, jintArray ppas, jint n, jobject buf, jint pos)
{
	struct ss_dev_ppa p[SS_VECTOR_MAX];
	uint8_t *b;

	if (ppas_in(env, ppas, n, p))
		return -(jlong)EINVAL;
	b = region(env, buf, pos, n * (jint)SS_SECTOR);
	if (b == NULL)
		return -(jlong)EFAULT;
	return result(write ? ss_dev_vector_write(dev(h), p, (uint32_t)n, b)
			    : ss_dev_vector_read(dev(h), p, (uint32_t)n, b));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_chunkReset0(JNIEnv *env,
		jclass cls, jlong h, jintArray ppas, jint n)
{
	struct ss_dev_ppa p[SS_VECTOR_MAX];

	if (ppas_in(env, ppas, n, p))
		return -(jlong)EINVAL;
	return result(ss_dev_chunk_reset(dev(h), p, (uint32_t)n));
}

/* action: enum ss_dev_zone_action. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_zoneMgmt0(JNIEnv *env,
		jclass cls, jlong h, jint action, jlong slba)
{
	return result(ss_dev_zone_mgmt(dev(h), (enum ss_dev_zone_action)action, (uint64_t)slba));
}

/* \return the LBA the data went to. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_zoneAppend0(JNIEnv *env,
		jclass cls, jlong h, jlong slba, jobject buf, jint pos, jint len)
{
	uint8_t *b = region(env, buf, pos, len);
	uint64_t lba = 0;
	int rc;

	if (b == NULL)
		return -(jlong)EFAULT;
	rc = ss_dev_zone_append(dev(h), (uint64_t)slba, b, (size_t)len, &lba);
	return rc < 0 ? fail(rc) : (jlong)lba;
}
