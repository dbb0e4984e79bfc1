/*
 * libsmartssd's own transports, sg: and unix:, beside the interface that every transport
 * implements (ss_transport_provider.h).
 */
#ifndef SS_NATIVE_TRANSPORT_H
#define SS_NATIVE_TRANSPORT_H

#include "ss_transport_provider.h"

/* Test seam of the sg transport: the SG_IO ioctl, replaceable to capture the sg_io_hdr. */
extern int (*ss_sg_io_hook)(int fd, void *sg_io_hdr);

int ss_transport_sg_open(const char *path, uint32_t timeout_ms, struct ss_transport **out);
int ss_transport_unix_open(const char *path, struct ss_transport **out);

#endif
