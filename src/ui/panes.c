// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's panes in tab order: their tabs, number keys, --pane names and help come from this table. */
#include "config.h"

#include <stdio.h>

#include "ui/panes.h"
#include "ui/views.h"
#include "util.h"

const struct ui_view *const panes_default[] = {
	&view_ports,
	&view_counters,
	&view_gids,
	&view_net,
	&view_doctor,
	&view_probe,
	&view_events,
	&view_cluster,
	&view_conn,
	&view_roce,
	&view_fabric,
};

const size_t panes_ndefault = ARRAY_SIZE(panes_default);

_Static_assert(ARRAY_SIZE(panes_default) <= UI_MAX_VIEWS, "too many views");

void panes_init(struct ui *ui, struct fab_ctx *ctx)
{
	ui_init_views(ui, ctx, panes_default, panes_ndefault);
}

void panes_names(char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < panes_ndefault && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", panes_default[i]->id);
}

void panes_dump(FILE *f)
{
	for (size_t i = 0; i < panes_ndefault; i++) {
		const struct ui_view *v = panes_default[i];

		/* the key: 1..9 and 0 for the first ten, none ('-') past them (Tab, --pane) */
		if (i < 10)
			fprintf(f, "%zu\t", (i + 1) % 10);
		else
			fprintf(f, "-\t");
		fprintf(f, "%s\t%s\t%s\t", v->id, v->title, v->tab ? v->tab : v->title);
		for (int c = 0; c < v->ncols; c++)
			fprintf(f, "%s%s", c ? "|" : "", v->cols[c].title);
		fprintf(f, "\n");
	}
}
