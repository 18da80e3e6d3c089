// SPDX-License-Identifier: GPL-2.0-or-later
/* The help overlay: keys from the bindings table, what the colours and flags mean, warnings. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/help.h"
#include "ui/keys.h"
#include "ui/widget/pager.h"
#include "ui/widget/theme.h"
#include "warn.h"

/* "1..6  Ports, Counters, ...": the number keys, from the pane table ('0' is the tenth; Tab the rest). */
static void help_panes(const struct ui *ui, struct text *out)
{
	char keys[8], titles[256];
	size_t n = 0;

	if (ui->nviews >= 10)
		snprintf(keys, sizeof(keys), "1..9 0");
	else
		snprintf(keys, sizeof(keys), "1..%zu", ui->nviews);
	titles[0] = '\0';
	for (size_t i = 0; i < ui->nviews && i < 10 && n < sizeof(titles); i++)
		n += (size_t)snprintf(titles + n, sizeof(titles) - n, "%s%s", i ? ", " : "", ui->views[i]->title);
	/* Panes past the tenth have no number key: Tab reaches them. */
	for (size_t i = 10; i < ui->nviews && n < sizeof(titles); i++)
		n += (size_t)snprintf(titles + n, sizeof(titles) - n, "%s%s", i == 10 ? "; Tab: " : ", ",
				      ui->views[i]->title);
	text_add(out, 0, "  %-12s %s", keys, titles);
}

void help_text(struct ui *ui, struct text *out)
{
	unsigned int nwarn;
	const char *const *warns = warn_list(&nwarn);

	text_add(out, 0, "fabtop %s - a live monitor of this host's RDMA ports (%s)", PACKAGE_VERSION,
		 ui_simulated(ui) ? "demo fabric: simulated, no hardware" : ui->ctx->sysfs_root);
	text_add(out, 0, "%s", "");
	text_add(out, ROLE_HEADING, "Keys");
	for (size_t i = 0; i < key_nbindings; i++) {
		if (!key_bindings[i].keyname)
			continue;
		if (key_bindings[i].action == ACT_PANE)
			help_panes(ui, out);
		else
			text_add(out, 0, "  %-12s %s", key_bindings[i].keyname, key_bindings[i].help);
	}
	text_add(out, 0, "  %-12s %s", "mouse", "click a tab, a row (again: details) or a column header (sort); wheel scrolls");
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i]->keys_help) {
			char who[32];

			snprintf(who, sizeof(who), "%s pane", ui->views[i]->title);
			text_add(out, 0, "  %-12s %s", who, ui->views[i]->keys_help);
		}
	text_add(out, 0, "%s", "");
	text_add(out, ROLE_HEADING, "Colours and flags");
	text_add(out, ROLE_OK, "  green        port ACTIVE / LinkUp; link load under 50%%");
	text_add(out, ROLE_WARN, "  yellow       INIT/ARMED; load 50-90%%; errors counted since start");
	text_add(out, ROLE_BAD, "  red          DOWN; load over 90%%; saturated counter; netdev problem");
	text_add(out, ROLE_ERR_MOVING, "  lit row      an error counter moved in the last interval");
	text_add(out, ROLE_ERR_FADING, "  fading row   an error counter moved in the last 10 s");
	text_add(out, 0, "  NO-SM        state INIT with LinkUp, SM LID 0: no subnet manager configured the port");
	text_add(out, 0, "  SM-PENDING   state INIT with LinkUp, SM LID set: the SM reached the port, not activated it");
	text_add(out, 0, "  NO-GUID      state INIT with LinkUp, node GUID zero: a VF no SM can configure");
	text_add(out, 0, "  NO-LINK      DOWN, Polling or Disabled: no physical link");
	text_add(out, 0, "  SLOW         rate below the device's best port, or a 1X InfiniBand link");
	text_add(out, 0, "  NETNS        a netdev of the port is not in this network namespace");
	text_add(out, 0, "  saturated    a counter latched at all-ones: its true value is unknown");
	text_add(out, 0, "  XMITWAIT     Fabric: PortXmitWait as %% of the interval, or ticks/s where the tick is unknown");
	text_add(out, 0, "  PORTS        Fabric nodes (v): ports LinkUp of the ports that answered PortInfo");
	text_add(out, 0, "  n/a, -       no such counter (no PMA) / no second sample yet");
	text_add(out, 0, "  FAR END      the port at the other end of the cable, asked through MADs (red: its errors move)");
	text_add(out, 0, "  Rates: data counters count 4-octet words, so bytes = value x 4.");
	text_add(out, 0, "%s", "");
	text_add(out, ROLE_HEADING, "Warnings (%u)", nwarn);
	if (!nwarn)
		text_add(out, ROLE_DIM, "  none");
	for (unsigned int i = 0; i < nwarn; i++)
		text_add(out, ROLE_WARN, "  %s", warns[i]);
}

void help_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct text t = { 0 };

	help_text(ui, &t);
	pager_draw(w, r.y, r.x, r.h, r.w, " Help", &t, &ui->overlay.help_top,
		   "any key closes, arrows scroll");
	text_free(&t);
}
