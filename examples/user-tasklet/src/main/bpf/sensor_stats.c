/*
 * sensor_stats: statistics of a sensor log in its own record format, inside the drive.
 *
 * A record is 16 bytes, little-endian (SensorReadings.java writes them):
 *   0  u32 sensor id
 *   4  u32 time, seconds
 *   8  s16 temperature, hundredths of a degree C
 *  10  u8  flags: bit 0 calibrated, bit 1 fault
 *  11  u8  check: the XOR of the record's other 15 bytes
 *  12  u32 sequence number
 *
 * A reading counts when its check holds, it is calibrated and not faulty, and its time is in
 * [arg[0], arg[1]). For each sensor s the group 2s gets the temperature (count, sum, min,
 * max) and 2s+1 its square, so the host has the variance too; group CORRUPT counts the
 * records whose check fails. The built-in tasklets read big-endian fields and aggregate a
 * field as it is: none checks a record or sums a square.
 */
#include "tasklet/ss_tasklet_bpf.h"

#define REC_SIZE 16
#define CALIBRATED 1
#define FAULT 2
#define CORRUPT 0xffffffffffffffffull

/* One decision, then the helpers in a straight line: the verifier takes no backward jump,
 * and early returns let clang share one exit block placed before them. */
SS_TASKLET long sensor_stats(const struct ss_tasklet_ctx *ctx, const unsigned char *rec,
			     unsigned char *out)
{
	ss_u8 check = 0;

#pragma clang loop unroll(full)
	for (int i = 0; i < REC_SIZE; i++)
		check ^= rec[i];

	ss_u64 t = *(const ss_u32 *)(rec + 4);
	ss_u64 sensor = *(const ss_u32 *)rec;
	ss_s64 temp = *(const short *)(rec + 8);
	ss_u64 good = (check == 0) & ((rec[10] & (CALIBRATED | FAULT)) == CALIBRATED) &
		      (t >= ctx->arg[0]) & (t < ctx->arg[1]);
	long rc = 0;

	if (check != 0)
		rc = ss_group_add(CORRUPT, 1);
	if (good) {
		rc = ss_group_add(2 * sensor, temp);
		rc |= ss_group_add(2 * sensor + 1, temp * temp);
	}
	return rc;
}
