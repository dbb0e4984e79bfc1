/*
 * Formatting an emulated drive's image, for EmulatedFormat (smartssd format),
 * through libsmartssd's ss_dev_format: the emulator's factory step, not a drive command.
 * It makes the image file that emu: and smartssd-devd then open. A libsmartssd built
 * without the emulator answers ENOTSUP.
 */
#include "jni_internal.h"

#define ARG_MAX_BYTES PATH_MAX_BYTES
/* the path, a policy name and the numeric options */
#define URI_MAX_BYTES (2 * ARG_MAX_BYTES + 160)
#define ERR_MAX 1024

/* Copy a NUL-terminated UTF-8 argument; NULL arrays give "". \return 0 or -errno. */
static int arg_in(JNIEnv *env, jbyteArray arr, char *buf)
{
	jsize n;

	buf[0] = 0;
	if (arr == NULL)
		return 0;
	n = (*env)->GetArrayLength(env, arr);
	if (n < 1 || n > ARG_MAX_BYTES)
		return -ENAMETOOLONG;
	(*env)->GetByteArrayRegion(env, arr, 0, n, (jbyte *)buf);
	buf[n - 1] = 0;
	return 0;
}

/* The message for Java: a C string at the start of the direct buffer `out`. */
static void say(JNIEnv *env, jobject out, const char *msg)
{
	char *o = out ? (*env)->GetDirectBufferAddress(env, out) : NULL;
	jlong cap = out ? (*env)->GetDirectBufferCapacity(env, out) : 0;

	if (o == NULL || cap < ERR_MAX)
		return;
	snprintf(o, ERR_MAX, "%s", msg);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_format0(JNIEnv *env,
		jclass cls, jbyteArray path, jbyteArray profile, jlong capacity, jint max_objects,
		jint cache_share_pct, jbyteArray buffer_policy, jlong buffer_bytes,
		jint buffer_threshold, jboolean force, jint iface, jobject out)
{
	char p[ARG_MAX_BYTES], prof[ARG_MAX_BYTES], pol[ARG_MAX_BYTES], uri[URI_MAX_BYTES];
	char err[ERR_MAX] = "";
	size_t at;
	int rc;

	(void)cls;
	if (arg_in(env, path, p) < 0 || arg_in(env, profile, prof) < 0 ||
	    arg_in(env, buffer_policy, pol) < 0 || p[0] == 0) {
		say(env, out, "image path, profile or buffer policy name is empty or too long");
		return -(jlong)EINVAL;
	}
	if (capacity < 0 || max_objects < 0 || cache_share_pct < -1 || buffer_bytes < 0 ||
	    buffer_threshold < 0) {
		say(env, out, "capacity, max objects and the buffer's size and threshold must not "
			      "be negative, the cache share not below -1 (the default)");
		return -(jlong)EINVAL;
	}
	if (strpbrk(pol, "?&") != NULL) {
		say(env, out, "a buffer policy name may not contain '?' or '&'");
		return -(jlong)EINVAL;
	}
	if (strchr(p, '?') != NULL) {
		say(env, out, "an image path may not contain '?' (it starts a device URI's options)");
		return -(jlong)EINVAL;
	}
	at = (size_t)snprintf(uri, sizeof(uri), "emu:%s?max_objects=%d", p, (int)max_objects);
	if (cache_share_pct < 0 && at < sizeof(uri))
		at += (size_t)snprintf(uri + at, sizeof(uri) - at, "&cache_share=default");
	else if (at < sizeof(uri))
		at += (size_t)snprintf(uri + at, sizeof(uri) - at, "&cache_share=%d",
				       (int)cache_share_pct);
	if (pol[0] && at < sizeof(uri))
		at += (size_t)snprintf(uri + at, sizeof(uri) - at, "&buffer=%s", pol);
	if (at < sizeof(uri))
		at += (size_t)snprintf(uri + at, sizeof(uri) - at,
				       "&buffer_size=%lld&buffer_threshold=%d%s&interface=%s",
				       (long long)buffer_bytes, (int)buffer_threshold,
				       force ? "&force=1" : "",
				       iface == SS_DEV_IFACE_OPEN_CHANNEL ? "open-channel"
				       : iface == SS_DEV_IFACE_ZONED ? "zoned" : "ftl");
	if (at >= sizeof(uri)) {
		say(env, out, "image path and buffer policy name are too long for a device URI");
		return -(jlong)EINVAL;
	}
	rc = ss_dev_format(uri, prof[0] ? prof : NULL, (uint64_t)capacity, err, sizeof(err));
	if (rc < 0) {
		say(env, out, err);
		return fail(rc);
	}
	return 0;
}

JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdNative_profiles0(JNIEnv *env,
		jclass cls)
{
	char names[1024];
	const char *name;
	size_t i, at = 0;

	(void)cls;
	names[0] = 0;
	for (i = 0; (name = ss_dev_profile_name(i)) != NULL && at < sizeof(names); i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", i ? "\n" : "", name);
	return (*env)->NewStringUTF(env, names);
}
