// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's far ends: what it derives from the MAD view (rates, errors, history) and how it draws them. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_port.h"
#include "mad/mad_watch.h"
#include "source/source.h"
#include "derive/mad_decode.h"
#include "derive/units.h"
#include "report/ibfabric.h"
#include "ui/widget/graph.h"
#include "ui/mad_ui.h"
#include "ui/ui.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

/* Nothing to say about the far end: no view and no reason (a simulated source, not tried yet). */
static bool mad_ui_silent(const struct live *m)
{
	return !m->mad || (!mad_watch_has_view(m->mad) && !m->mad->reason[0]);
}

void mad_ui_announce(struct ui *ui)
{
	const struct mad_watch *w = ui->live.mad;

	/* The reason, once; the panes keep showing it where the far end would be. */
	if (!w || mad_watch_has_view(w) || !w->reason[0] || ui->mad_announced ||
	    !mad_watch_host_has_ib(&ui->live.host))
		return;
	ui->mad_announced = true;
	if (ui->ctx->counters == COUNTERS_PMA)
		ui_status(ui, "--counters pma, counters from sysfs: %s", w->reason);
	else
		ui_status(ui, "%s", w->reason);
}

/* The local port's MAD state, or NULL when the view has none for it. */
static const struct ib_local_port *mad_ui_port(const struct live *m, const char *ca, unsigned int port,
					       const struct far_end **far)
{
	const struct ib_local_port *lp;
	size_t i;

	if (!m || !m->far)
		return NULL;
	lp = mad_watch_port(m->mad, ca, port, &i);
	if (lp && far)
		*far = &m->far[i];
	return lp;
}

static const char *desc_of(const struct ib_node_id *n)
{
	return n->desc[0] ? n->desc : "(no description)";
}

/*
 * The next piece of s that fits width columns, broken at a blank when there
 * is one: its length; *next is where the following piece starts.
 */
static size_t wrap_piece(const char *s, size_t width, const char **next)
{
	size_t n = strlen(s), cut;

	if (n <= width) {
		*next = s + n;
		return n;
	}
	for (cut = width; cut > width / 2 && s[cut] != ' '; cut--)
		;
	if (s[cut] != ' ')
		cut = width;
	*next = s + cut + (s[cut] == ' ');
	return cut;
}

/* Lines the reason takes at width (at most max). */
static int wrap_lines(const char *s, int width, int max)
{
	int n = 0;

	while (*s && n < max && width > 0) {
		wrap_piece(s, (size_t)width, &s);
		n++;
	}
	return n;
}

bool mad_ui_far_cell(const struct live *m, const char *ca, unsigned int port, char *buf, size_t size,
		     bool *errors_moving)
{
	const struct far_end *fr;
	const struct ib_local_port *lp = mad_ui_port(m, ca, port, &fr);

	*errors_moving = false;
	if (!lp || lp->peer_state != IBQ_OK)
		return false;
	snprintf(buf, size, "%s/%u", desc_of(&lp->peer), lp->peer_pi.num);
	*errors_moving = fr->err_interval_known && fr->err_interval;
	return true;
}

/* The IB port of the host model, for "is this an IB port at all". */
static bool is_ib_port(struct ui *ui, const char *ca, unsigned int port)
{
	struct fab_port *p = fab_host_find_port(&ui->live.host, ca, port);

	return p && fab_port_maybe_ib(p);
}

int mad_ui_far_height(struct ui *ui, const char *ca, unsigned int port)
{
	const struct live *m = &ui->live;
	const struct ib_local_port *lp;

	if (mad_ui_silent(m) || !is_ib_port(ui, ca, port))
		return 0;
	if (!mad_watch_has_view(m->mad))
		return m->mad->reason[0] ? 1 + wrap_lines(m->mad->reason, COLS > 0 ? COLS : 80, 4) : 0;
	lp = mad_ui_port(m, ca, port, NULL);
	if (!lp)
		return 2;
	return lp->note[0] ? 5 : 4;
}

static void rate_str(char *buf, size_t size, bool known, double gbps, const struct ib_pma *pma, enum fab_dir dir)
{
	struct fab_port p;
	const struct fab_counter *c;

	if (known) {
		units_bitrate(buf, size, gbps * 1e9);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.counters = (struct fab_counter *)pma->c;
	p.ncounters = pma->n;
	c = port_data_counter(&p, dir);
	if (c && (c->saturated || c->prev_saturated))
		snprintf(buf, size, "saturated");
	else if (pma->state == IBQ_OK && pma->n && !pma->prev_sample_ns)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "n/a");
}

/* One end's line: "<label>  in X  out Y  errors ..." */
static void end_line(WINDOW *w, int y, int x, int width, const char *label, const struct ib_pma *pma,
		     const struct port_rates *r, bool ek, uint64_t ei, const char *names, int role)
{
	char in[32], out[32], line[TEXT_LINE_LEN], err[200];

	if (pma->state != IBQ_OK && !pma->n) {
		snprintf(line, sizeof(line), "%-34.34s PMA %s", label,
			 pma->state == IBQ_NONE ? "not asked (needs an ACTIVE port and a LID)" :
			 ib_query_state_str(pma->state));
		ui_puts(w, y, x, width, theme_attr(ROLE_DIM), line);
		return;
	}
	rate_str(in, sizeof(in), r->rcv_known, r->rcv_gbps, pma, DIR_RCV);
	rate_str(out, sizeof(out), r->xmit_known, r->xmit_gbps, pma, DIR_XMIT);
	if (!ek)
		snprintf(err, sizeof(err), "errors/int -");
	else if (!ei)
		snprintf(err, sizeof(err), "errors/int 0");
	else
		snprintf(err, sizeof(err), "errors/int %" PRIu64 "%s%s", ei, names && names[0] ? ": " : "",
			 names ? names : "");
	snprintf(line, sizeof(line), "%-34.34s in %10.10s  out %10.10s  %.120s", label, in, out, err);
	ui_puts(w, y, x, width, theme_attr(ek && ei ? ROLE_BAD : role), line);
}

/* Long: the far-end block's lines top to bottom, each falling back to what is known. */
void mad_ui_far_draw(struct ui *ui, WINDOW *w, struct ui_rect r, const char *ca, unsigned int port)
{
	const struct live *m = &ui->live;
	const struct far_end *fr;
	const struct ib_local_port *lp;
	char line[TEXT_LINE_LEN], label[128];
	int y = r.y;

	if (r.h <= 0 || !m)
		return;
	wattrset(w, theme_attr(ROLE_BORDER));
	mvwhline(w, y, r.x, ui->utf8 ? ACS_HLINE : '-', r.w);
	if (!mad_watch_has_view(m->mad)) {
		ui_puts(w, y, r.x + 1, r.w - 2, theme_attr(ROLE_HEADING), " far end: unknown ");
		for (const char *s = m->mad->reason; *s && ++y < r.y + r.h && r.w > 0;) {
			char piece[sizeof(m->mad->reason)];
			const char *from = s;
			size_t n = wrap_piece(s, (size_t)r.w, &s);

			snprintf(piece, sizeof(piece), "%.*s", (int)n, from);
			ui_puts(w, y, r.x, r.w, theme_attr(ROLE_DIM), piece);
		}
		return;
	}
	lp = mad_ui_port(m, ca, port, &fr);
	if (!lp) {
		ui_puts(w, y, r.x + 1, r.w - 2, theme_attr(ROLE_HEADING), " far end: unknown ");
		if (++y < r.y + r.h)
			ui_puts(w, y, r.x, r.w, theme_attr(ROLE_DIM), "libibumad does not list this port");
		return;
	}
	if (lp->peer_state == IBQ_OK) {
		snprintf(line, sizeof(line), " far end: %s \"%s\" port %u, LID %u  %s/%s %s %s ",
			 mad_node_type_str(lp->peer.node_type), desc_of(&lp->peer), lp->peer_pi.num,
			 lp->peer_pi.lid, mad_port_state_str(lp->peer_pi.state),
			 mad_phys_state_str(lp->peer_pi.phys_state), mad_link_width_str(lp->peer_pi.width),
			 mad_link_speed_str(lp->peer_pi.speed, lp->peer_pi.speed_ext));
	} else if (ib_local_port_is_management(lp)) {
		snprintf(line, sizeof(line), " far end: %s ", IB_MANAGEMENT_PORT_TEXT);
	} else if (lp->self_state == IBQ_OK && lp->pi.phys_state != PHYS_STATE_LINK_UP) {
		snprintf(line, sizeof(line), " far end: none, link %s/%s ", mad_port_state_str(lp->pi.state),
			 mad_phys_state_str(lp->pi.phys_state));
	} else {
		snprintf(line, sizeof(line), " far end: %s ",
			 lp->peer_state == IBQ_PENDING || lp->self_state == IBQ_PENDING ? "asking..." :
			 ib_query_state_str(lp->peer_state == IBQ_NONE ? lp->self_state : lp->peer_state));
	}
	ui_puts(w, y++, r.x + 1, r.w - 2, theme_attr(lp->peer_state == IBQ_OK ? ROLE_HEADING : ROLE_WARN), line);
	if (y < r.y + r.h) {
		snprintf(label, sizeof(label), "far end (PMA LID %u)", lp->peer_pma.lid);
		if (lp->peer_state == IBQ_OK)
			end_line(w, y, r.x, r.w, label, &lp->peer_pma, &fr->far, fr->err_interval_known,
				 fr->err_interval, fr->err_names, 0);
		else
			ui_puts(w, y, r.x, r.w, theme_attr(ROLE_DIM), "far end                            -");
		y++;
	}
	if (y < r.y + r.h) {
		snprintf(label, sizeof(label), "near end %.20s/%u (PMA LID %u)", lp->ca, lp->port, lp->pma.lid);
		end_line(w, y++, r.x, r.w, label, &lp->pma, &fr->near, fr->near_err_known, fr->near_err_interval,
			 NULL, 0);
	}
	if (y < r.y + r.h) {
		char total[64] = "-";

		if (fr->err_total_known)
			snprintf(total, sizeof(total), "%" PRIu64, fr->err_total);
		snprintf(line, sizeof(line), "far end errors since start: %s   SM: LID %u%s%s", total, lp->sm.lid,
			 lp->sm.state == IBQ_OK ? ", " : "", lp->sm.state == IBQ_OK ? mad_sm_state_str(lp->sm.sm_state) : "");
		ui_puts(w, y, r.x, r.w, theme_attr(fr->err_total_known && fr->err_total ? ROLE_WARN : ROLE_DIM), line);
		/* The far end's traffic over the graph window, where the line leaves room. */
		if (r.w >= 120 && lp->peer_state == IBQ_OK) {
			int sw = r.w / 3;

			ui_puts(w, y, r.x + r.w - sw - 19, 19, theme_attr(ROLE_DIM), "far end history");
			graph_spark(w, y, r.x + r.w - sw, sw, &fr->hist, ui_windows_s[ui->window], util_now_ns(),
				    ui->utf8);
			wattrset(w, A_NORMAL);
		}
		y++;
	}
	if (y < r.y + r.h && lp->note[0])
		ui_puts(w, y, r.x, r.w, theme_attr(ROLE_WARN), lp->note);
}

static void pma_details(struct text *out, const char *what, const struct ib_pma *pma)
{
	uint64_t dt = pma->prev_sample_ns && pma->sample_ns > pma->prev_sample_ns ?
		      pma->sample_ns - pma->prev_sample_ns : 0;

	text_add(out, 0, "  %s PMA: %s, LID %u PortSelect %u, CapabilityMask 0x%04x%s%s", what,
		 ib_query_state_str(pma->state), pma->lid, pma->port_select, pma->cap_mask,
		 pma->ext ? ", PortCountersExtended (64-bit data)" : ", PortCounters (32-bit data)",
		 pma->ext_failed ? ", extended did not answer" : "");
	for (size_t k = 0; k < pma->n; k++) {
		const struct fab_counter *c = &pma->c[k];
		char val[32] = "unknown";
		struct counter_cells cc;

		if (c->saturated)
			snprintf(val, sizeof(val), "saturated");
		else if (c->known)
			snprintf(val, sizeof(val), "%" PRIu64, c->value);
		views_counter_cells(c, dt, &cc);
		text_add(out, c->saturated ? ROLE_BAD : !c->known ? ROLE_DIM : 0, "    %-30s %2u bits %20s %10s %10s %12s",
			 c->name, c->bits, val, cc.interval, cc.since_start, cc.rate);
	}
}

void mad_ui_details(struct ui *ui, const char *ca, unsigned int port, struct text *out)
{
	const struct live *m = &ui->live;
	const struct ib_local_port *lp;
	char g[32];

	if (mad_ui_silent(m) || !is_ib_port(ui, ca, port))
		return;
	text_add(out, ROLE_HEADING, "The far end (MADs through %s)", m->mad->v ? "libibumad" :
		 m->mad->replayed ? "libibumad, as recorded" : "nothing");
	if (!mad_watch_has_view(m->mad)) {
		for (const char *s = m->mad->reason; *s;) {
			const char *from = s;
			size_t n = wrap_piece(s, TEXT_LINE_LEN - 8, &s);

			text_add(out, ROLE_WARN, "  %.*s", (int)n, from);
		}
		return;
	}
	lp = mad_ui_port(m, ca, port, NULL);
	if (!lp) {
		text_add(out, ROLE_DIM, "  libibumad does not list %s/%u", ca, port);
		return;
	}
	text_add(out, 0, "  local: %s, LID %u, %s/%s, SM LID %u SL %u (%s)", lp->umad_dev[0] ? lp->umad_dev : "-",
		 lp->pi.lid, mad_port_state_str(lp->pi.state), mad_phys_state_str(lp->pi.phys_state),
		 lp->sm.lid, lp->sm.sl, ib_query_state_str(lp->sm.state));
	if (lp->peer_state == IBQ_OK) {
		ibfabric_guid_str(lp->peer.node_guid, g, sizeof(g));
		text_add(out, 0, "  partner: %s \"%s\" GUID %s port %u, LID %u, %s/%s",
			 mad_node_type_str(lp->peer.node_type), desc_of(&lp->peer), g, lp->peer_pi.num,
			 lp->peer_pi.lid, mad_port_state_str(lp->peer_pi.state),
			 mad_phys_state_str(lp->peer_pi.phys_state));
	} else {
		text_add(out, ROLE_DIM, "  partner: %s", ib_local_port_is_management(lp) ? IB_MANAGEMENT_PORT_TEXT
										 : ib_query_state_str(lp->peer_state));
	}
	if (lp->note[0])
		text_add(out, ROLE_WARN, "  %s", lp->note);
	text_add(out, 0, "    %-30s %7s %20s %10s %10s %12s", "COUNTER", "WIDTH", "VALUE", "D/INT", "D/START",
		 "PER SECOND");
	pma_details(out, "far end", &lp->peer_pma);
	pma_details(out, "near end", &lp->pma);
}

void mad_ui_sm_explain(struct ui *ui, const char *ca, unsigned int port, struct text *out)
{
	const struct live *m = &ui->live;
	const struct ib_local_port *lp, *other = NULL;

	if (mad_ui_silent(m) || !is_ib_port(ui, ca, port))
		return;
	if (!mad_watch_has_view(m->mad)) {
		/* Not opened yet (no reason either): nothing to say. */
		if (m->mad->reason[0])
			text_add(out, ROLE_DIM, "  SM view: %s", m->mad->reason);
		return;
	}
	lp = mad_ui_port(m, ca, port, NULL);
	if (!lp || lp->self_state != IBQ_OK || lp->pi.state != PORT_STATE_INIT || lp->pi.phys_state != PHYS_STATE_LINK_UP)
		return;
	/* SMInfo is asked from ACTIVE ports: another local port may know the SM this one names. */
	for (size_t i = 0; i < m->mad->f.nports && lp->sm.lid; i++)
		if (m->mad->f.ports[i].sm.state == IBQ_OK && m->mad->f.ports[i].sm.lid == lp->sm.lid)
			other = &m->mad->f.ports[i];
	if (!lp->sm.lid)
		text_add(out, ROLE_WARN, "  MADs: INIT with LinkUp and SM LID 0 - no SM answered on this subnet "
			 "(start opensm, or enable the switch's SM)");
	else if (other)
		text_add(out, ROLE_WARN, "  MADs: the SM at LID %u is %s but has not configured this port "
			 "(check its log: partition, port limits, errors on this link)", lp->sm.lid,
			 mad_sm_state_str(other->sm.sm_state));
	else
		text_add(out, ROLE_WARN, "  MADs: INIT with LinkUp; the port still names SM LID %u from an earlier "
			 "configuration, and no SM has configured it since (is the SM down or not sweeping?)",
			 lp->sm.lid);
}
