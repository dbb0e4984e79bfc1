/* The natives of BlockTarget: the host block target over an open-channel drive
 * (smartssd/blk.h), its handle a struct ss_blk pointer beside the drive's. */
#include "jni_internal.h"
#include "smartssd/blk.h"

/* Slots of blkStats0's scratch (BlockTargetStats.decode reads them in this order). */
#define BLK_STAT_SLOTS 19

static struct ss_blk *blk(jlong b)
{
	return (struct ss_blk *)(uintptr_t)b;
}

/* \return the target's handle. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkOpen0(JNIEnv *env,
		jclass cls, jlong h, jint opPermille, jint ckptLines)
{
	struct ss_blk_opts o = { (uint32_t)opPermille, (uint32_t)ckptLines };
	struct ss_blk *b = NULL;
	int rc;

	if (opPermille < 0 || ckptLines < 0)
		return -(jlong)EINVAL;
	rc = ss_blk_open(dev(h), &o, &b);
	return rc < 0 ? fail(rc) : (jlong)(uintptr_t)b;
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkClose0(JNIEnv *env,
		jclass cls, jlong b)
{
	return result(ss_blk_close(blk(b)));
}

/* n blocks at lba to or from buf[pos, pos + n * 4096). */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkIo0(JNIEnv *env,
		jclass cls, jlong b, jboolean write, jlong lba, jint n, jobject buf, jint pos,
		jboolean fua)
{
	uint8_t *p;

	if (lba < 0 || n < 0 || n > INT32_MAX / (jint)SS_BLK_BLOCK)
		return -(jlong)EINVAL;
	p = region(env, buf, pos, n * (jint)SS_BLK_BLOCK);
	if (p == NULL)
		return -(jlong)EFAULT;
	return result(write ? ss_blk_write(blk(b), (uint64_t)lba, (uint32_t)n, p,
					   fua ? SS_BLK_FUA : 0)
			    : ss_blk_read(blk(b), (uint64_t)lba, (uint32_t)n, p));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkTrim0(JNIEnv *env,
		jclass cls, jlong b, jlong lba, jlong n)
{
	if (lba < 0 || n < 0)
		return -(jlong)EINVAL;
	return result(ss_blk_trim(blk(b), (uint64_t)lba, (uint64_t)n));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkFlush0(JNIEnv *env,
		jclass cls, jlong b)
{
	return result(ss_blk_flush(blk(b)));
}

/* The target's shape and counters as native-order 8-byte slots. */
JNIEXPORT jlong JNICALL Java_org_smartssd_device_SmartSsdNative_blkStats0(JNIEnv *env,
		jclass cls, jlong b, jobject out)
{
	uint8_t *o = scratch(env, out, BLK_STAT_SLOTS * 8);
	struct ss_blk_info i;
	struct ss_blk_stats s;
	unsigned k = 0;
	int rc;

	if (o == NULL)
		return -(jlong)EFAULT;
	rc = ss_blk_info(blk(b), &i);
	if (rc == 0)
		rc = ss_blk_stats(blk(b), &s);
	if (rc)
		return fail(rc);
	put64(o, k++, i.blocks);
	put64(o, k++, i.pus);
	put64(o, k++, i.lines);
	put64(o, k++, i.line_blocks);
	put64(o, k++, i.unit_blocks);
	put64(o, k++, i.map_bytes);
	put64(o, k++, s.user_blocks_written);
	put64(o, k++, s.user_blocks_read);
	put64(o, k++, s.blocks_trimmed);
	put64(o, k++, s.flash_blocks_written);
	put64(o, k++, s.pad_blocks);
	put64(o, k++, s.gc_blocks_moved);
	put64(o, k++, s.gc_lines_erased);
	put64(o, k++, s.gc_moves_beside_reads);
	put64(o, k++, s.checkpoints);
	put64(o, k++, s.recovered_records);
	put64(o, k++, s.free_lines);
	put64(o, k++, s.valid_blocks);
	put64(o, k++, s.buffered_blocks);
	return k;
}
