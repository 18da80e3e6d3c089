// SPDX-License-Identifier: GPL-2.0-or-later
/* The Doctor pane: findings with cause, evidence and fix; the selected one in full below. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"
#include "derive/fix.h"
#include "ui/views.h"
#include "ui/widget/theme.h"

enum { C_SEV, C_ID, C_CODE, C_IFACE, C_ADDR, C_TITLE, NCOLS };

static const struct table_col doctor_cols[NCOLS] = {
	[C_SEV]   = { .title = "SEVERITY", .width = 9,  .prio = 0, .numeric = true },
	[C_ID]    = { .title = "ID",       .width = 2,  .prio = 3, .right = true, .numeric = true },
	[C_CODE]  = { .title = "CODE",     .width = 23, .prio = 2 },
	[C_IFACE] = { .title = "IFACE",    .width = 10, .prio = 1 },
	[C_ADDR]  = { .title = "ADDRESS",  .width = 15, .prio = 4 },
	[C_TITLE] = { .title = "FINDING",  .width = 20, .prio = 0, .flex = true },
};

static const int sev_role[] = {
	[DOCTOR_INFO] = ROLE_DIM,
	[DOCTOR_WARNING] = ROLE_WARN,
	[DOCTOR_ERROR] = ROLE_BAD,
};

/* A finding's identity across doctor runs (row keys are cut to TABLE_KEY_LEN). */
static void finding_key(const struct doctor_finding *f, char *key)
{
	char big[512];

	snprintf(big, sizeof(big), "%d/%s/%s/%s/%s/%u", (int)f->id, f->code, f->ifname, f->addr,
		 f->device, f->port);
	memcpy(key, big, TABLE_KEY_LEN - 1);
	key[TABLE_KEY_LEN - 1] = '\0';
}

static void doctor_build(struct ui *ui, struct table *t)
{
	if (!ui->live.doctor_ok)
		return;
	for (size_t i = 0; i < ui->live.doctor.nfindings; i++) {
		const struct doctor_finding *f = &ui->live.doctor.findings[i];
		char key[TABLE_KEY_LEN];
		struct table_row *r;
		int role = f->severity <= DOCTOR_ERROR ? sev_role[f->severity] : 0;

		finding_key(f, key);
		r = table_add(t, "%s", key);
		if (!r)
			return;
		table_cell(r, C_SEV, role, "%s", doctor_severity_str(f->severity));
		/* Errors first when sorted by severity, then warnings. */
		table_cell_num(r, C_SEV, f->severity);
		table_cell(r, C_ID, 0, "%d", (int)f->id);
		table_cell_num(r, C_ID, f->id);
		table_cell(r, C_CODE, 0, "%s", f->code);
		table_cell(r, C_IFACE, 0, "%s", f->ifname[0] ? f->ifname : f->device[0] ? f->device : "-");
		table_cell(r, C_ADDR, 0, "%s", f->addr[0] ? f->addr : "-");
		table_cell(r, C_TITLE, 0, "%s", f->title);
	}
}

static const struct doctor_finding *finding_of_key(struct ui *ui, const char *key)
{
	char k[TABLE_KEY_LEN];

	if (!ui->live.doctor_ok)
		return NULL;
	for (size_t i = 0; i < ui->live.doctor.nfindings; i++) {
		const struct doctor_finding *f = &ui->live.doctor.findings[i];

		finding_key(f, k);
		if (!strcmp(k, key))
			return f;
	}
	return NULL;
}

static void finding_text(const struct doctor_finding *f, struct text *out)
{
	text_add(out, f->severity <= DOCTOR_ERROR ? sev_role[f->severity] : 0, "[%s] finding %d (%s): %s",
		 doctor_severity_str(f->severity), (int)f->id, f->code, f->title);
	text_add(out, ROLE_HEADING, "cause");
	/* The cause is one paragraph: wrap it at a readable width. */
	{
		const char *s = f->cause;

		while (*s) {
			int len = (int)strlen(s), cut = len > 96 ? 96 : len;

			if (cut < len)
				while (cut > 40 && s[cut] != ' ')
					cut--;
			text_add(out, 0, "  %.*s", cut, s);
			s += cut;
			while (*s == ' ')
				s++;
		}
	}
	text_add(out, ROLE_HEADING, "evidence");
	for (unsigned int i = 0; i < f->nevidence && i < DOCTOR_MAX_LINES; i++)
		text_add(out, 0, "  %s", f->evidence[i]);
	text_add(out, ROLE_HEADING, "fix");
	for (unsigned int i = 0; i < f->nfix && i < DOCTOR_MAX_LINES; i++)
		text_add(out, ROLE_OK, "  %s", f->fix[i]);
}

static void doctor_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct table *t = ui_table(ui);
	struct table_draw_opts o = { .utf8 = ui->utf8, .focused = true };
	const struct table_row *sel;
	const struct doctor_finding *f;
	struct text tx = { 0 };
	int th = (int)t->nview + 1, y;

	if (!t->nview) {
		views_draw_empty(ui, w, r);
		return;
	}
	if (th > r.h / 2 && r.h >= 8)
		th = r.h / 2;
	if (th > r.h)
		th = r.h;
	table_draw(t, w, r.y, r.x, th, r.w, &o);
	sel = table_selected(t);
	f = sel ? finding_of_key(ui, sel->key) : NULL;
	if (!f)
		return;
	finding_text(f, &tx);
	y = r.y + th + 1;
	for (size_t i = 0; i < tx.n && y < r.y + r.h; i++)
		ui_puts(w, y++, r.x, r.w, theme_attr(tx.lines[i].role), tx.lines[i].s);
	text_free(&tx);
}

static void doctor_details(struct ui *ui, const char *key, struct text *out)
{
	const struct doctor_finding *f = finding_of_key(ui, key);

	if (!f) {
		text_add(out, ROLE_WARN, "This finding is gone: the doctor no longer sees the problem.");
		return;
	}
	finding_text(f, out);
	text_add(out, ROLE_DIM, "The same in a shell: fabtop doctor%s  (fixes are printed, never applied silently)",
		 ui_simulated(ui) ? " --demo" : "");
	if (ui_simulated(ui))
		text_add(out, ROLE_DIM, "SIMULATED host: a applies the fix to it (nothing on this machine changes), "
			 "u undoes it");
}

static const char *doctor_empty(struct ui *ui)
{
	if (ui->live.net_after_fill)
		return "The doctor runs once the GID tables and the network state are in (see the title bar).";
	if (!ui->live.doctor_ok)
		return ui->live.net_ok ? "The doctor could not run on this state." :
				    "The doctor needs the network state, which could not be read (see the Network pane).";
	if (ui_table(ui)->filter[0])
		return "No finding matches the filter (Esc clears it).";
	return "No findings: nothing the doctor checks for looks wrong (routes, ARP, rp_filter, ports, GIDs, IPoIB).";
}

/* What the keys asked for; tick() does it (keys only ask). */
struct doctor_pane {
	bool apply, undo;
	bool armed;		/* a named what it applies: a second a applies it */
};

static void *doctor_create(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct doctor_pane));
}

static void doctor_destroy(void *state)
{
	free(state);
}

/*
 * What a would apply, named before it does: the findings whose fixes the
 * simulated host takes. false when there is nothing to apply.
 */
static bool doctor_name_fixes(struct ui *ui)
{
	char what[200] = "";
	size_t off = 0, n = 0;

	for (size_t i = 0; ui->live.doctor_ok && i < ui->live.doctor.nfindings; i++) {
		const struct doctor_finding *f = &ui->live.doctor.findings[i];

		if (f->severity == DOCTOR_INFO || !f->nfix)
			continue;
		if (n++ < 4 && off < sizeof(what))
			off += (size_t)snprintf(what + off, sizeof(what) - off, "%s%d (%s)", off ? ", " : "", (int)f->id,
						f->code);
	}
	if (!n) {
		ui_status(ui, "SIMULATED: nothing to apply: the doctor has no finding with a fix");
		return false;
	}
	ui_status(ui, "SIMULATED: a again applies the fixes of finding%s %s%s to the simulated host; any other key cancels",
		  n > 1 ? "s" : "", what, n > 4 ? " and more" : "");
	return true;
}

/* a names the doctor's fixes, a again applies them, u takes them back: on a simulated host only (a real one is fixed from a shell). */
static enum ui_key_result doctor_key(struct ui *ui, void *state, int ch)
{
	struct doctor_pane *dp = state;

	if (!dp)
		return UI_KEY_IGNORED;
	if (ch != 'a' && ch != 'u') {
		/* any other key takes back an a that named its fixes */
		if (dp->armed)
			ui_status(ui, "SIMULATED: nothing applied");
		dp->armed = false;
		return UI_KEY_IGNORED;
	}
	if (!ui_simulated(ui) || !source_can_fix(ui->live.src)) {
		ui_status(ui, "the monitor changes no real host: as root, fabtop doctor --apply --yes (or --fix FORMAT)");
		return UI_KEY_TAKEN;
	}
	if (ch == 'u') {
		dp->armed = false;
		dp->undo = true;
		return UI_KEY_TAKEN;
	}
	if (dp->armed) {
		dp->armed = false;
		dp->apply = true;
		return UI_KEY_TAKEN;
	}
	dp->armed = doctor_name_fixes(ui);
	return UI_KEY_TAKEN;
}

/* The fix into the simulated host, then the network and the doctor again. */
static bool doctor_tick(struct ui *ui, void *state)
{
	struct doctor_pane *dp = state;
	struct fix_plan plan;
	size_t left;
	int rc;

	if (!dp || (!dp->apply && !dp->undo))
		return false;
	if (dp->apply) {
		rc = !ui->live.net_ok ? -ENODATA : fix_plan_build(&ui->live.net, &plan) ? -ENOMEM :
		     source_apply_fix(ui->live.src, &plan, &ui->live.net, NULL, &left);
		if (ui->live.net_ok && rc != -ENOMEM)
			fix_plan_free(&plan);
		ui_status(ui, rc == 0 ? "SIMULATED: the fix is applied to the simulated host until this machine reboots (u undoes a routing fix)" :
			  rc == 1 ? "SIMULATED: nothing to apply: the simulated host needs no fix" :
			  "SIMULATED: the fix could not be applied: %s", strerror(rc < 0 ? -rc : 0));
	} else {
		rc = source_undo_fix(ui->live.src, NULL);
		ui_status(ui, rc == 0 ? "SIMULATED: the fix is undone: the simulated host is broken again" :
			  "SIMULATED: no fix to undo");
	}
	dp->apply = dp->undo = false;
	/* the core reads the changed host: every surface sees the same findings */
	if (live_net_again(&ui->live))
		ui_net_changed(ui);
	return true;
}

const struct ui_view view_doctor = {
	.id = "doctor",
	.title = "Doctor",
	.tab = "Doc",
	.cols = doctor_cols,
	.ncols = NCOLS,
	.default_sort = C_SEV,
	.default_desc = true,
	.build = doctor_build,
	.draw = doctor_draw,
	.details = doctor_details,
	.empty = doctor_empty,
	.key = doctor_key,
	.keys_help = "a a apply the fixes (simulated host: a names them first), u undo them",
	.create = doctor_create,
	.destroy = doctor_destroy,
	.tick = doctor_tick,
};
