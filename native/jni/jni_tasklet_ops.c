/* The natives of TaskletOps: output objects and tasklet instances. */
#include "jni_internal.h"

/* ---- tasklets ---------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_createOutput0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_taskletCreate0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_taskletExecute0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_taskletPoll0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_taskletRead0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_taskletDestroy0(JNIEnv *env,
		jclass cls, jlong h, jlong instance)
{
	return result(ss_dev_tasklet_destroy(dev(h), (uint64_t)instance));
}
