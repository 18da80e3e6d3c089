// SPDX-License-Identifier: GPL-2.0-or-later
/* The Doctor pane: findings with cause, evidence and fix. */
#include "config.h"

#include "ui/views.h"

static void doctor_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	ui_puts(w, r.y, r.x, r.w, theme_attr(ROLE_DIM),
		"The doctor is not available in this build.");
}

const struct ui_view view_doctor = {
	.id = "doctor",
	.title = "Doctor",
	.draw = doctor_draw,
};
