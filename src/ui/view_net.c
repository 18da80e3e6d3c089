// SPDX-License-Identifier: GPL-2.0-or-later
/* The Network pane: addresses, routes, rules and sysctls of the RDMA netdevs. */
#include "config.h"

#include "ui/views.h"

static void net_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	ui_puts(w, r.y, r.x, r.w, theme_attr(ROLE_DIM),
		"Network state is not available in this build.");
}

const struct ui_view view_net = {
	.id = "net",
	.title = "Network",
	.draw = net_draw,
};
