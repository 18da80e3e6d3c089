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

/* One point of a run's timeline: the numbers of one interval. */
struct probe_ui_point {
	uint64_t t_ns;			/* since the run started */
	double gbps, msgs_per_s;
	uint64_t p50_ns, p99_ns;	/* 0: no latency sample yet */
};
#define PROBE_UI_POINTS 10

struct rec_probe;

struct ui_probe {
	char peer[PROBE_UI_PEER_LEN];	/* typed with 'e' */
	bool editing;
	int from;			/* index into the RDMA addresses, -1: the kernel's choice */
	char from_addr[64];		/* the address picked, "" for the kernel's choice */
	char from_ifname[16];
	enum probe_mode mode;
	struct probe_opts opts;		/* of the running/last probe */
	struct probe *p;		/* NULL before the first start */
	bool explained;			/* probe_ui_explain() ran for the last failure */
	uint64_t why_gen;		/* bumped each time the why is made again (a recording writes it anew) */
	struct explain why;
	uint64_t last_draw_ns;
	/* What-if: the kernel's route to the peer from each RDMA address (the doctor's query). */
	bool whatif_wanted;		/* the peer changed: compute again in the loop */
	struct doctor_report whatif;
	bool whatif_ok;
	int whatif_rc;			/* doctor_run()'s result for the peer, 0 ok */
	/* the run's timeline: a point per interval, the newest PROBE_UI_POINTS, oldest first */
	uint64_t run;			/* runs started from this pane (a recording tells them apart) */
	uint64_t started_ns;		/* CLOCK_MONOTONIC at the start of the run */
	uint64_t next_point_ns;
	struct probe_ui_point points[PROBE_UI_POINTS];
	unsigned int npoints;
	/* what the recording has of the run: written with every point and every change */
	uint64_t rec_file_ns;		/* the recording written to (when it started), 0: none yet */
	uint64_t rec_run, rec_events, rec_why_gen;
	enum probe_state rec_state;
	struct rec_probe *rec;		/* scratch for encoding, and the recorded run a replay shows */
	size_t shown_rec;		/* replay: the record shown ((size_t)-1: none) */
	bool shown;			/* replay: rec holds the run in force at the cursor */
	bool shown_looked;		/* replay: looked up at sample shown_pos */
	size_t shown_pos;
};

/* NULL when out of memory. */
struct ui_probe *probe_ui_new(void);
void probe_ui_free(struct ui_probe *pu);
/* Add the probe's fds to fds (at most max); lower *timeout_ms to its next deadline. */
int probe_ui_fds(struct ui_probe *pu, struct pollfd *fds, int max, int *timeout_ms);
/* Compute the what-if routes for the typed peer (from the loop: may ask the kernel). */
void probe_ui_whatif(struct ui *ui, struct ui_probe *pu);
/*
 * Explain the run's failure (nothing when it did not fail) from the live
 * core's host, network and findings: at the failure, and again when the
 * network changes (a fix applied or undone), so the why is always about
 * the network as it is.
 */
void probe_ui_explain(struct ui *ui, struct ui_probe *pu);
/* A run was started: its timeline starts again. */
void probe_ui_started(struct ui_probe *pu);
/* Let the probe advance; true when the pane should be redrawn. */
bool probe_ui_handle(struct ui *ui, struct ui_probe *pu);
/* A recording: pu->rec becomes the run recorded at the cursor (pu->shown false: none), its points too. */
void probe_ui_replayed(struct ui *ui, struct ui_probe *pu);

#endif
