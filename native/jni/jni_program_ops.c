/* The natives of ProgramOps: eBPF tasklet programs (load, list, remove). */
#include "jni_internal.h"

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_programLoad0(JNIEnv *env,
		jclass cls, jlong h, jbyteArray name, jobject elf, jint len, jint flags)
{
	char n[PATH_MAX_BYTES];
	const uint8_t *e = region(env, elf, 0, len);
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	if (e == NULL)
		return -(jlong)EFAULT;
	return result(ss_dev_program_load(dev(h), n, e, (size_t)len, (uint32_t)flags, NULL));
}

/* The programs into the scratch buffer, each in the wire's ss_wire_program layout. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_programList0(JNIEnv *env,
		jclass cls, jlong h, jobject out)
{
	struct ss_dev_program p[SS_DEV_PROGRAMS_MAX];
	uint8_t *o = scratch(env, out, SS_DEV_PROGRAMS_MAX * sizeof(struct ss_wire_program));
	int n;

	if (o == NULL)
		return -(jlong)EFAULT;
	n = ss_dev_program_list(dev(h), p, SS_DEV_PROGRAMS_MAX);
	for (int i = 0; i < n && i < (int)SS_DEV_PROGRAMS_MAX; i++) {
		uint8_t *e = o + (size_t)i * sizeof(struct ss_wire_program);
		size_t nl = strnlen(p[i].name, SS_DEV_PROGRAM_NAME_MAX);

		ss_put_le32(e + offsetof(struct ss_wire_program, insns), p[i].insns);
		ss_put_le16(e + offsetof(struct ss_wire_program, name_len), (uint16_t)nl);
		ss_put_le16(e + offsetof(struct ss_wire_program, reserved), 0);
		ss_put_le64(e + offsetof(struct ss_wire_program, loaded_ns), p[i].loaded_ns);
		put_padded(e + offsetof(struct ss_wire_program, name), p[i].name,
			   sizeof(((struct ss_wire_program *)0)->name));
	}
	return result(n);
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_programRemove0(JNIEnv *env,
		jclass cls, jlong h, jbyteArray name)
{
	char n[PATH_MAX_BYTES];
	int rc = path_in(env, name, n);

	if (rc < 0)
		return -(jlong)-rc;
	return result(ss_dev_program_remove(dev(h), n));
}
