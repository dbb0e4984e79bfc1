/* The natives of NamespaceOps: namespace and object data, and named attributes. */
#include "jni_internal.h"

/* ---- namespace and object data ------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_lookup0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_stat0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_create0(JNIEnv *env, jclass cls,
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
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_write0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_read0(JNIEnv *env, jclass cls,
		jlong h, jlong oid, jlong offset, jobject buf, jint pos, jint len)
{
	uint8_t *b = region(env, buf, pos, len);

	if (b == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_read(dev(h), (uint64_t)oid, (uint64_t)offset, b, (size_t)len));
}

/* n ranges into buf at pos, back to back, through a queue `depth` deep; counts[i] filled. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_readRanges0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_truncate0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlong size)
{
	return result(ss_dev_truncate(dev(h), (uint64_t)oid, (uint64_t)size));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_remove0(JNIEnv *env, jclass cls,
		jlong h, jbyteArray path, jint flags)
{
	char p[PATH_MAX_BYTES];
	int rc = path_in(env, path, p);

	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_remove(dev(h), p, (uint32_t)flags));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_rename0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_list0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_setTimes0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jlong mtime, jlong atime)
{
	return result(ss_dev_set_times(dev(h), (uint64_t)oid, (uint64_t)mtime, (uint64_t)atime));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_extents0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_setAttr0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_getAttr0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_listAttrs0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jobject out)
{
	uint8_t *o = scratch(env, out, SS_DEV_ATTRS_MAX);

	if (o == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_list_attrs(dev(h), (uint64_t)oid, (char *)o, SS_DEV_ATTRS_MAX));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_removeAttr0(JNIEnv *env,
		jclass cls, jlong h, jlong oid, jbyteArray name)
{
	char n[PATH_MAX_BYTES];
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_remove_attr(dev(h), (uint64_t)oid, n));
}
