/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-shot reports of the host model: ports, counters, GIDs, as text or JSON. */
#ifndef FABTOP_REPORT_SHOW_H
#define FABTOP_REPORT_SHOW_H

#include <stdio.h>

#include "model/fabric.h"
#include "report/json.h"

/* Text reports, aligned for people. */
void show_ports_text(FILE *f, const struct fab_host *h);
void show_counters_text(FILE *f, const struct fab_host *h);
void show_gids_text(FILE *f, const struct fab_host *h);
/* One line per port of live rates and error deltas between the last two samples. */
void show_rates_text(FILE *f, struct fab_host *h, unsigned int sample);

/* JSON members ("devices":[...], "ports":[...], "gids":[...]) inside an open object. */
void show_ports_json(struct json *j, const struct fab_host *h);
void show_counters_json(struct json *j, const struct fab_host *h);
void show_gids_json(struct json *j, const struct fab_host *h);

#endif
