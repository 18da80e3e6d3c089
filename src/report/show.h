/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-shot reports of the host model: ports, counters, GIDs, as text or JSON from one walk. */
#ifndef FABTOP_REPORT_SHOW_H
#define FABTOP_REPORT_SHOW_H

#include <stdio.h>

#include "model/fabric.h"
#include "report/out.h"

/*
 * The host's reports: text aligned for people, or the JSON members
 * "devices":[...], "ports":[...], "gids":[...] of the open object.
 */
void show_ports(struct out *o, const struct fab_host *h);
void show_counters(struct out *o, const struct fab_host *h);
void show_gids(struct out *o, const struct fab_host *h);
/* Text: one line per port of live rates and error deltas between the last two samples. */
void show_rates_text(FILE *f, struct fab_host *h, unsigned int sample);

#endif
