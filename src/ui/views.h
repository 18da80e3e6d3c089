/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The panes of the monitor (one file each, in tab order in panes.c) and what they share. */
#ifndef FABTOP_UI_VIEWS_H
#define FABTOP_UI_VIEWS_H

#include "ui/ui.h"

extern const struct ui_view view_ports;
extern const struct ui_view view_counters;
extern const struct ui_view view_gids;
extern const struct ui_view view_net;
extern const struct ui_view view_doctor;
extern const struct ui_view view_probe;
extern const struct ui_view view_events;
extern const struct ui_view view_cluster;
extern const struct ui_view view_conn;
extern const struct ui_view view_roce;
extern const struct ui_view view_fabric;

/* The index of the pane with this id in ui->views, -1: none. */
int views_find(const struct ui *ui, const char *id);
/* Rebuild the current pane's table from the model (after a sample or a pane switch). */
void views_rebuild(struct ui *ui);
/* The table header and the pane's "no rows" message into r; returns the lines used. */
int views_draw_empty(struct ui *ui, WINDOW *w, struct ui_rect r);
/* Find the port of a "dev/port" row key; NULL when it is gone. */
struct fab_port *views_port_of_key(struct ui *ui, const char *key, struct fab_device **dev);
/* Where the model's values came from, for details: "<root>/class/infiniband/DEV". */
void views_origin(struct ui *ui, const struct fab_device *d, char *buf, size_t size);
/* Theme role of a port state / physical state. */
int views_state_role(const struct fab_port *p);
/* The same for a state alone (ports another host reports: the Cluster pane). */
int views_port_state_role(enum fab_port_state s);
/* The role of a row whose error counters moved now (red) or recently (fading). */
int views_err_role(struct ui *ui, const struct track_port *tp);
/* Short flags of a port: "NO-SM", "NO-LINK", "SLOW", ... ("" when healthy). */
void views_port_flags(const struct fab_device *d, const struct fab_port *p, char *buf, size_t size);
/* A counter's details cells: delta of the last interval, since start, rate per second ("-" when unknown). */
struct counter_cells {
	char interval[24], since_start[24], rate[32];
};
void views_counter_cells(const struct fab_counter *c, uint64_t dt_ns, struct counter_cells *out);
/* A word explaining why the body is empty when there is no device at all. */
const char *views_no_devices(struct ui *ui);

#endif
