/*
 * The ISP core shared between runs in modelled time: processor sharing, each run that has
 * arrived taking an equal share of the core, so a short run queued behind a long one
 * finishes in about (runs at once) x its own time, not after the long one.
 *
 * The engine computes runs one after another, first come first served (isp_run.c), on the
 * hal's ISP timeline: that fixes each run's span, its counted work on the core and its
 * reads, as if it ran alone, whatever the host's wall clock did. The shared times follow
 * from the spans and the arrivals only (the EXECUTE's completion, or the span's start when
 * the core was idle): the fluid schedule below, run over the runs not yet reported done.
 * A run's times are reported once no run that could still change them is left: every
 * live run that arrives before its shared end has been computed. Reporting them fixes the
 * schedule up to that end (isp->share_at): later runs arrive no earlier, so the host
 * never sees a time change. Work is conserved: the core is busy for the sum of the spans,
 * as first come first served keeps it; only the order of the completions moves.
 *
 * Remaining work is counted in 1/SHARE_UNIT ns: SHARE_UNIT is divisible by every count
 * of runs at once (up to SS_ISP_MAX_INSTANCES), so each run's share of an interval is
 * exact and the sum of the shares is the interval. A run that ends within an interval is
 * given up to its last whole ns (under 1 ns each).
 */
#include "isp_internal.h"

#ifndef SS_ISP_NO_SHARE

#define SHARE_UNIT 720720u /* lcm(1..16) */

_Static_assert(SS_ISP_MAX_INSTANCES <= 16, "SHARE_UNIT must be divisible by each count");

static bool in_schedule(const struct isp_instance *in)
{
	return in->id && in->started && !in->shared_final && in->state != SS_ISP_RUNNING;
}

static uint64_t arrival(const struct ss_isp *isp, const struct isp_instance *in)
{
	return SS_MAX(in->arrival, isp->share_at);
}

static uint64_t left(const struct isp_instance *in)
{
	return in->share_begun ? in->share_left : in->span * SHARE_UNIT;
}

/*
 * The fluid schedule of the computed runs from isp->share_at up to `stop`: each run's
 * shared start and end (share_end 0 while it has not ended by `stop`), and its work left
 * at `stop` in sim_left.
 */
static void simulate(struct ss_isp *isp, uint64_t stop)
{
	uint64_t t = isp->share_at;

	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		struct isp_instance *in = &isp->inst[i];

		if (in_schedule(in)) {
			in->sim_left = left(in);
			in->sim_start = in->share_begun ? in->share_start : 0;
			in->sim_active = false;
			in->sim_end = 0;
		}
	}
	while (t < stop) {
		uint64_t next_arrival = UINT64_MAX, least = UINT64_MAX, per, dt;
		uint32_t n = 0;

		for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
			struct isp_instance *in = &isp->inst[i];

			if (!in_schedule(in) || in->sim_end) {
				continue;
			}
			if (!in->sim_active && arrival(isp, in) <= t) {
				in->sim_active = true;
				if (!in->share_begun) {
					in->sim_start = t;
				}
			}
			if (in->sim_active) {
				n++;
				least = SS_MIN(least, in->sim_left);
			} else {
				next_arrival = SS_MIN(next_arrival, arrival(isp, in));
			}
		}
		if (n == 0) {
			if (next_arrival == UINT64_MAX) {
				return;
			}
			t = SS_MIN(next_arrival, stop);
			continue;
		}
		per = SHARE_UNIT / n;
		dt = SS_MIN(SS_DIV_ROUND_UP(least, per), SS_MIN(next_arrival, stop) - t);
		for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
			struct isp_instance *in = &isp->inst[i];

			if (!in_schedule(in) || in->sim_end || !in->sim_active) {
				continue;
			}
			in->sim_left -= SS_MIN(in->sim_left, dt * per);
			if (in->sim_left == 0) {
				in->sim_end = t + dt;
			}
		}
		t += dt;
	}
}

/* Whether a run not computed yet (or being computed) can still arrive before `end`. */
static bool pending_before(const struct ss_isp *isp, uint64_t end)
{
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		const struct isp_instance *in = &isp->inst[i];

		if (in->id && in->state == SS_ISP_RUNNING && !in->src &&
		    (in->floor_open || SS_MAX(in->not_before, isp->share_at) < end)) {
			return true;
		}
	}
	return false;
}

/* Fix the schedule up to `end`: the runs that end by then are final, the others keep
 * their start and the work they have left. */
static void commit(struct ss_isp *isp, uint64_t end)
{
	simulate(isp, end);
	for (uint32_t i = 0; i < SS_ISP_MAX_INSTANCES; i++) {
		struct isp_instance *in = &isp->inst[i];

		if (!in_schedule(in)) {
			continue;
		}
		if (in->sim_end) {
			in->shared_final = true;
			in->prog.started_ns = in->sim_start;
			in->prog.finished_ns = in->sim_end;
		} else if (in->sim_active) {
			in->share_begun = true;
			in->share_start = in->sim_start;
			in->share_left = in->sim_left;
		}
	}
	isp->share_at = end;
}

bool isp_share_report(struct ss_isp *isp, struct isp_instance *in)
{
	if (in->shared_final) {
		return true;
	}
	if (!in_schedule(in)) {
		return false;
	}
	simulate(isp, UINT64_MAX);
	if (!in->sim_end || pending_before(isp, in->sim_end)) {
		return false;
	}
	commit(isp, in->sim_end);
	return in->shared_final;
}

void isp_share_started(struct ss_isp *isp, struct isp_instance *in)
{
	/* Queued behind a run the core was still computing at its EXECUTE: it arrived then.
	 * Otherwise it arrived when its span starts (the core was idle). */
	in->arrival = isp->fifo_end > in->not_before ? in->not_before : in->prog.started_ns;
	in->shared_final = false;
	in->share_begun = false;
}

void isp_share_ended(struct ss_isp *isp, struct isp_instance *in)
{
	/* in 1/SHARE_UNIT ns a span fits 64 bits up to 7 hours of the core's time; longer
	 * ones are shared as if that long */
	in->span = SS_MIN(in->prog.finished_ns - in->prog.started_ns, UINT64_MAX / SHARE_UNIT);
	isp->fifo_end = SS_MAX(isp->fifo_end, in->prog.finished_ns);
}
#endif /* SS_ISP_NO_SHARE */
