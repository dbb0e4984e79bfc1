/* The device's own natives: open, close, the transport, the last error's message, and
 * the fixed replies' layouts (jni_internal.h has the conventions). */
#include "jni_internal.h"

/* ---- open / close / errors ----------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_open0(JNIEnv *env, jclass cls,
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

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_close0(JNIEnv *env, jclass cls,
		jlong h)
{
	return result(ss_dev_close(dev(h)));
}

JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdNative_transport0(JNIEnv *env,
		jclass cls, jlong h)
{
	return (*env)->NewStringUTF(env, ss_dev_transport(dev(h)));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_sessionsOpened0(JNIEnv *env,
		jclass cls, jlong h)
{
	return (jlong)ss_dev_sessions_opened(dev(h));
}

/* Called on the error path only, on the thread whose call failed. */
JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdNative_lastMessage0(JNIEnv *env,
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

/* The layout of fixed reply `which` (0 drive info, 1 fsstat, 2 counters, 5 stat, 6 tasklet
 * progress, 7 model counters, 8 cache info, 9 check, 10 energy share, 11 ISP queue: the wire's; 3 the SMART summary, 4 one SMART attribute: as
 * packed here), one line
 * "name kind offset bytes" per field then "size <bytes>" (the SMART summary also says
 * "attrs <offset>", where the attributes start), from the field lists: the Java records'
 * decode offsets are checked against it. NULL for an unknown reply. */
JNIEXPORT jstring JNICALL Java_org_smartssd_device_SmartSsdNative_replyLayout0(JNIEnv *env,
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
	case 12:
		SS_REPLY_GEOMETRY(LAYOUT, ss_wire_geometry)
		size = sizeof(struct ss_wire_geometry);
		break;
	case 13:
		SS_REPLY_CHUNK(LAYOUT, ss_wire_chunk)
		size = sizeof(struct ss_wire_chunk);
		break;
	default:
		return NULL;
	}
	snprintf(text + n, sizeof(text) - (size_t)n, "size %zu\n", size);
	return (*env)->NewStringUTF(env, text);
}
