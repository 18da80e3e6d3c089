/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's view of the fabric through MADs: each local IB port's link partner, its PMA rates and errors, the SM. */
#ifndef FABTOP_UI_MAD_UI_H
#define FABTOP_UI_MAD_UI_H

#include <curses.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "collect/mad_watch.h"
#include "derive/counters.h"
#include "model/ibfabric.h"
#include "ui/text.h"
#include "derive/track.h"

struct ui;
struct ui_rect;

/* What the monitor derives per local port across PMA samples. */
struct mad_far {
	uint64_t seen_ns;		/* peer_pma.sample_ns already taken into the history */
	struct port_rates far, near;	/* Gb/s and pkt/s of both ends between the last two samples */
	uint64_t err_interval, err_total;	/* the partner's error counters: last interval, since start */
	bool err_interval_known, err_total_known;
	uint64_t near_err_interval;
	bool near_err_known;
	uint64_t err_moved_ns;		/* when a partner error counter last moved (0: never) */
	char err_names[160];		/* "symbol_error +10, ..." of the last interval */
	struct hist hist;		/* the partner's Gb/s in/out */
};

/* The MAD view (collect/mad_watch.h, handed over by the source) and what the monitor makes of it. */
struct ui_mad {
	struct mad_watch *w;		/* NULL: the source has no subnet to ask, or not opened yet */
	struct mad_far *far;		/* [w->f.nports] while the view is open */
	bool announced;			/* the reason went to the status line once */
};

/* NULL when out of memory. */
struct ui_mad *mad_ui_new(void);
void mad_ui_free(struct ui_mad *m);
/*
 * Open the MAD view when the source has one and the host has InfiniBand
 * ports; without access, m->w->reason says which device node and what to
 * do. Cheap to call again: it retries at most every 30 s while there is no view.
 */
void mad_ui_open(struct ui *ui, struct ui_mad *m);
/* The source changed: its view goes (mad_ui_open() asks the new one). */
void mad_ui_drop(struct ui_mad *m);
/* Add the view's fds (POLLIN) to fds; lower *timeout_ms to its next deadline. */
int mad_ui_fds(struct ui *ui, struct ui_mad *m, struct pollfd *fds, int max, int *timeout_ms);
/* 'r': the far end's error deltas since start restart now, like the local ones. */
void mad_ui_reset(struct ui_mad *m);
/*
 * --counters pma or auto: the local ports' latest PMA samples replace their
 * counters/ files in ui->host (after every sysfs sample and PMA answer), so
 * the monitor's local rows read the PMA and refreshes no longer read those files.
 */
void mad_ui_counters(struct ui *ui, struct ui_mad *m);
/* Step the view (never blocks); true when something visible changed. */
bool mad_ui_handle(struct ui *ui, struct ui_mad *m);

/* A short name of the far end for a table cell ("spine-a/1"); false when unknown. */
bool mad_ui_far_cell(const struct ui_mad *m, const char *ca, unsigned int port, char *buf, size_t size,
		       bool *errors_moving);
/* Lines the far-end block of a port needs (0: nothing to say, e.g. the demo or an Ethernet port). */
int mad_ui_far_height(struct ui *ui, const char *ca, unsigned int port);
/* Draw the far-end block into r. */
void mad_ui_far_draw(struct ui *ui, WINDOW *w, struct ui_rect r, const char *ca, unsigned int port);
/* The far end and both ends' PMA counters, for the details overlay. */
void mad_ui_details(struct ui *ui, const char *ca, unsigned int port, struct text *out);
/* Why a port is INIT with the link up, as the SM side sees it (Ports details); nothing when unknown. */
void mad_ui_sm_explain(struct ui *ui, const char *ca, unsigned int port, struct text *out);

#endif
