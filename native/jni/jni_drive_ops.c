/* The natives of DriveOps: drive info, fsstat, counters, model counters, check, the ISP
 * queue, the energy ledger, flush and SMART. */
#include "jni_internal.h"

FIXED_REPLY(info0, ss_dev_info, ss_dev_drive_info, SS_REPLY_DRIVE_INFO, ss_drive_info)
FIXED_REPLY(fsstat0, ss_dev_fsstat, ss_dev_fsstat, SS_REPLY_FSSTAT, ss_wire_fsstat)
FIXED_REPLY(counters0, ss_dev_counters, ss_dev_counters, SS_REPLY_COUNTERS, ss_wire_counters)
FIXED_REPLY(model0, ss_dev_model, ss_dev_model_counters, SS_REPLY_MODEL, ss_wire_model)
FIXED_REPLY(check0, ss_dev_check, ss_dev_check, SS_REPLY_CHECK, ss_wire_check)
FIXED_REPLY(ispQueue0, ss_dev_isp_queue, ss_dev_isp_queue, SS_REPLY_ISP_QUEUE,
	    ss_wire_isp_queue)

/* The drive's energy ledger (ss_dev_energy_*): a ticket (< 2^63), 0, or the share in the
 * wire layout of SS_REPLY_TASK_SHARE. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_energyJoin0(JNIEnv *env,
		jclass cls, jlong h, jlong instance)
{
	uint64_t ticket;
	int rc = ss_dev_energy_join(dev(h), (uint64_t)instance, &ticket);

	return rc < 0 ? fail(rc) : (jlong)ticket;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_energyLeave0(JNIEnv *env,
		jclass cls, jlong h, jlong ticket, jboolean abandon)
{
	return result(ss_dev_energy_leave(dev(h), (uint64_t)ticket, abandon ? 1 : 0));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_energyShare0(JNIEnv *env,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_flush0(JNIEnv *env, jclass cls,
		jlong h)
{
	return result(ss_dev_flush(dev(h)));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_smart0(JNIEnv *env, jclass cls,
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
