// SPDX-License-Identifier: GPL-2.0-or-later
/* The Probe pane: an rping-style RDMA CM connection, its event timeline and live stats. */
#include "config.h"

#include "ui/views.h"

static void probe_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	ui_puts(w, r.y, r.x, r.w, theme_attr(ROLE_DIM),
		"The probe is not available in this build.");
}

const struct ui_view view_probe = {
	.id = "probe",
	.title = "Probe",
	.draw = probe_draw,
};
