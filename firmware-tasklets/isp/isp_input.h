/* Input batches of the current input of an instance (isp_input.c). */
#ifndef ISP_INPUT_H
#define ISP_INPUT_H

#include "isp_internal.h"

/**
 * The batch starting at `from` of the current input, at most max_pages pages. With
 * nominal_only, no tail batch is planned (its need is known only after the batch before).
 * \return false when the input needs nothing more from `from`.
 */
bool isp_batch_plan(const struct ss_isp *isp, const struct isp_instance *in, uint64_t from,
		    uint32_t max_pages, bool nominal_only, struct isp_batch *b);

/** Read a batch into batch buffer `slot` and map its pages' LBAs. With `start`, its pages
 *  may still be arriving when this returns, and a page's failure to read is reported by
 *  ss_os_read_wait (ss_os_read_scan_start). \return 0 or -errno. */
int isp_batch_read(struct ss_isp *isp, const struct isp_instance *in, const struct isp_batch *b,
		   int slot, bool start);

#endif
