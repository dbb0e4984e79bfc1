/*
 * Formatting an emulated drive's image, for SmartSsdDevice.formatEmulated (smartssd format).
 * This is the emulator's factory step, not a drive command: it makes the image file that
 * emu: and smartssd-devd then open. Without the emulator in the build it reports ENOSYS.
 */
#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef SS_JNI_HAVE_EMU
#include "ss_emu.h"
#include "ss_emu_profile.h"
#endif

#define ARG_MAX_BYTES 4096
#define ERR_MAX 256

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

#ifdef SS_JNI_HAVE_EMU

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_format0(JNIEnv *env,
		jclass cls, jbyteArray path, jbyteArray profile, jlong capacity, jint max_objects,
		jobject out)
{
	char p[ARG_MAX_BYTES], prof[ARG_MAX_BYTES], err[ERR_MAX] = "";
	struct ss_emu_drive_opts o;
	struct ss_emu_profile pr;
	uint64_t per_die_block, bpd;
	int rc;

	if (arg_in(env, path, p) < 0 || arg_in(env, profile, prof) < 0 || p[0] == 0) {
		say(env, out, "image path or profile name is empty or too long");
		return -(jlong)EINVAL;
	}
	rc = ss_emu_profile_load(prof[0] ? prof : NULL, &pr, err, sizeof(err));
	if (rc < 0) {
		say(env, out, err);
		return -(jlong)-rc;
	}
	memset(&o, 0, sizeof(o));
	o.flash.profile = prof[0] ? prof : NULL;
	o.max_objects = max_objects > 0 ? (uint32_t)max_objects : 0;
	if (capacity > 0) {
		/* Raw flash of capacity bytes, rounded up to whole blocks on every die. */
		per_die_block = (uint64_t)pr.geo.channels * pr.geo.ways * pr.geo.pages_per_block *
				pr.geo.page_size;
		bpd = ((uint64_t)capacity + per_die_block - 1) / per_die_block;
		if (bpd > UINT32_MAX) {
			say(env, out, "capacity too large for the profile's geometry");
			return -(jlong)EINVAL;
		}
		o.flash.geo.blocks_per_die = (uint32_t)bpd;
	}
	rc = ss_emu_format(p, &o, NULL, err, sizeof(err));
	if (rc < 0) {
		say(env, out, err);
		return -(jlong)-rc;
	}
	return 0;
}

JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdDevice_profiles0(JNIEnv *env,
		jclass cls)
{
	char names[1024];
	size_t i, at = 0;

	names[0] = 0;
	for (i = 0; i < ss_emu_profile_count() && at < sizeof(names); i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", i ? "\n" : "",
				       ss_emu_profile_name(i));
	return (*env)->NewStringUTF(env, names);
}

#else

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdDevice_format0(JNIEnv *env,
		jclass cls, jbyteArray path, jbyteArray profile, jlong capacity, jint max_objects,
		jobject out)
{
	say(env, out, "this build of libsmartssd_jni has no emulator");
	return -(jlong)ENOSYS;
}

JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdDevice_profiles0(JNIEnv *env,
		jclass cls)
{
	return (*env)->NewStringUTF(env, "");
}

#endif
