/* The natives of SolidStateCache: the drive's solid-state cache (FlashTier SSC). */
#include "jni_internal.h"

FIXED_REPLY(cacheInfo0, ss_dev_cache_info, ss_dev_cache_info, SS_REPLY_SSC_INFO,
	    ss_wire_ssc_info)

/* ---- solid-state cache --------------------------------------------------------------- */

/* buf[pos, pos + len) holds count blocks (Java checks len = count * block size). */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_cacheWrite0(JNIEnv *env,
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
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_cacheRead0(JNIEnv *env,
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
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_cacheRange0(JNIEnv *env,
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
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_cacheScan0(JNIEnv *env,
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
