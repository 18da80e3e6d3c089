/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Probe pane's state: the peer, source and mode picked in the UI, and the running probe. */
#ifndef FABTOP_UI_PROBE_UI_H
#define FABTOP_UI_PROBE_UI_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "derive/doctor.h"
#include "probe/explain.h"
#include "probe/probe.h"

struct ui;

#define PROBE_UI_PEER_LEN 64

struct ui_probe {
	char peer[PROBE_UI_PEER_LEN];	/* typed with 'e' */
	bool editing;
	int from;			/* index into the RDMA addresses, -1: the kernel's choice */
	char from_addr[64];		/* the address picked, "" for the kernel's choice */
	char from_ifname[16];
	enum probe_mode mode;
	struct probe_opts opts;		/* of the running/last probe */
	struct probe *p;		/* NULL before the first start */
	bool explained;			/* explain_failure() ran for the last failure */
	struct explain why;
	uint64_t last_draw_ns;
	/* What-if: the kernel's route to the peer from each RDMA address (the doctor's query). */
	bool whatif_wanted;		/* the peer changed: compute again in the loop */
	struct doctor_report whatif;
	bool whatif_ok;
	int whatif_rc;			/* doctor_run()'s result for the peer, 0 ok */
};

/* NULL when out of memory. */
struct ui_probe *probe_ui_new(void);
void probe_ui_free(struct ui_probe *pu);
/* Add the probe's fds to fds (at most max); lower *timeout_ms to its next deadline. */
int probe_ui_fds(struct ui_probe *pu, struct pollfd *fds, int max, int *timeout_ms);
/* Compute the what-if routes for the typed peer (from the loop: may ask the kernel). */
void probe_ui_whatif(struct ui *ui, struct ui_probe *pu);
/* Let the probe advance; true when the pane should be redrawn. */
bool probe_ui_handle(struct ui *ui, struct ui_probe *pu);

#endif
