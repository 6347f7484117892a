/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFS_LAB_WIRETAP_H
#define NFS_LAB_WIRETAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the tap saw of the RPCs between wiretap_start() and wiretap_stop(). */
struct wiretap_result {
	unsigned int requests; /* calls whose reply left the interface */
	uint64_t sum_us; /* their times, call in to reply out, summed */
	uint64_t median_us;
	unsigned int unmatched; /* calls without a reply, replies without a call */
	unsigned int dropped; /* packets the kernel could not queue to us */
	unsigned int lost; /* times a stream's track or a time was lost */
	unsigned int held; /* requests whose reply was also seen queued */
	uint64_t hold_sum_us; /* their replies' time in the qdisc, summed */
	uint64_t hold_median_us;
	/* TCP data that came in (calls) and went out (replies), in bytes:
	 * retransmissions too, as the wire carried them */
	uint64_t bytes_in, bytes_out;
};

/* Where the tap saw a frame. */
enum wiretap_view {
	WIRETAP_IN, /* received by the interface: calls */
	WIRETAP_OUT, /* sent, as its qdisc let it go: replies */
	WIRETAP_QUEUED, /* mirrored as its qdisc took it: replies */
};

int wiretap_init(void);
int wiretap_start(const char *ifname, int mirror, unsigned int port);
int wiretap_stop(struct wiretap_result *res);
void wiretap_close(void);

/* The pairing itself, without a socket (wiretap_start/stop use it). */
void wiretap_begin(void);
void wiretap_window(void);
void wiretap_frame(const unsigned char *f, size_t n, enum wiretap_view view,
		   uint64_t ns);
void wiretap_end(struct wiretap_result *res);

#endif /* NFS_LAB_WIRETAP_H */
