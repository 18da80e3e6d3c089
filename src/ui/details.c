// SPDX-License-Identifier: GPL-2.0-or-later
/* The details overlay (Enter): the selected row's attributes, rebuilt from the model every frame. */
#include "config.h"

#include <stdio.h>

#include "ui/details.h"
#include "ui/widget/pager.h"
#include "ui/widget/theme.h"

void details_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const struct ui_view *v = ui->views[ui->pane];
	struct text t = { 0 };
	char title[sizeof(ui->overlay.details_title) + 16];

	if (v->details)
		v->details(ui, ui->overlay.details_key, &t);
	else
		text_add(&t, ROLE_DIM, "No details for this pane.");
	snprintf(title, sizeof(title), " Details: %s", ui->overlay.details_title[0] ? ui->overlay.details_title : ui->overlay.details_key);
	pager_draw(w, r.y, r.x, r.h, r.w, title, &t, &ui->overlay.details_top, "Esc closes, arrows scroll");
	text_free(&t);
}
