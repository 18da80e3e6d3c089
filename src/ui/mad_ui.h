/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How the monitor draws the live core's MAD view: each local IB port's link partner, its PMA rates and errors, the SM. */
#ifndef FABTOP_UI_MAD_UI_H
#define FABTOP_UI_MAD_UI_H

#include <curses.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "live/live.h"
#include "ui/widget/text.h"

struct ui;
struct ui_rect;

/* The MAD view without access says why once in the status line (it stays where the far end would be). */
void mad_ui_announce(struct ui *ui);

/* A short name of the far end for a table cell ("spine-a/1"); false when unknown. */
bool mad_ui_far_cell(const struct live *m, const char *ca, unsigned int port, char *buf, size_t size,
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
