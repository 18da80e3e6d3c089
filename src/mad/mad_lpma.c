// SPDX-License-Identifier: GPL-2.0-or-later
/* The local ports' PMA counters asked and awaited (show counters, and --count's samples). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mad/mad_lpma.h"
#include "mad/mad_fabric.h"
#include "mad/mad_port.h"
#include "mad/mad_watch.h"
#include "mad/umad.h"
#include "util.h"

static void pma_say(void (*say)(void *, const char *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void pma_say(void (*say)(void *, const char *), void *arg, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say(arg, msg);
}

/* The local ports' latest PMA samples into h, in place of their counters/ files. */
static void pma_apply(struct mad_lpma *pm, struct fab_host *h, void (*say)(void *, const char *), void *arg)
{
	for (size_t i = 0; pm->v && i < pm->f.nports; i++) {
		const struct ib_local_port *lp = &pm->f.ports[i];
		struct fab_port *p = fab_host_find_port(h, lp->ca, lp->port);

		if (p && lp->pma.state == IBQ_OK && mad_port_apply_pma(p, &lp->pma) < 0)
			pma_say(say, arg, "out of memory taking the PMA counters of %s/%u", lp->ca, lp->port);
	}
}

/*
 * A port whose PMA cannot be asked keeps its sysfs counters, and the
 * surface says why (with pma; with auto only when some umad device exists
 * but refused).
 */
void mad_lpma_open(struct mad_lpma *pm, const struct fab_ctx *ctx, struct fab_host *h,
		   void (*say)(void *arg, const char *msg), void *arg)
{
	struct fab_ctx c = *ctx;

	memset(pm, 0, sizeof(*pm));
	if (ctx->counters == COUNTERS_SYSFS || ctx->counters == COUNTERS_NETLINK || ctx->demo ||
	    !mad_watch_host_has_ib(h))
		return;
	if (!c.live_sysfs && umad_tree_is_live(&c))
		c.live_sysfs = true;
	if (mad_fabric_take(&c, &pm->f, MADF_PORTS, NULL, util_now_ns() + MAD_LPMA_DEADLINE_NS, &pm->v) < 0)
		pm->v = NULL;
	if (!pm->v || pm->f.error[0]) {
		if (ctx->counters == COUNTERS_PMA || pm->f.nports)
			pma_say(say, arg, "--counters %s: %s; counters from sysfs", ctx_counters_mode_str(ctx->counters),
				pm->f.error[0] ? pm->f.error : "the PMA cannot be asked");
		if (!pm->v)
			return;
	}
	for (size_t i = 0; i < pm->f.nports; i++) {
		const struct ib_local_port *lp = &pm->f.ports[i];

		/* auto stays quiet about a port with no LID yet (down, no SM): sysfs is all there is. */
		if (lp->pma.state == IBQ_OK || lp->self_state == IBQ_ERROR ||
		    (ctx->counters == COUNTERS_AUTO && lp->pma.state == IBQ_NONE))
			continue;
		pma_say(say, arg, "--counters %s: %s/%u: no PMA answer (%s); counters from sysfs",
			ctx_counters_mode_str(ctx->counters), lp->ca, lp->port,
			lp->note[0] ? lp->note : ib_query_state_str(lp->pma.state));
	}
	pma_apply(pm, h, say, arg);
}

void mad_lpma_sample(struct mad_lpma *pm, struct fab_host *h, void (*say)(void *arg, const char *msg), void *arg)
{
	if (!pm->v)
		return;
	mad_fabric_sample(pm->v, MAD_PMA_LOCAL, 0);
	pma_apply(pm, h, say, arg);
}

void mad_lpma_close(struct mad_lpma *pm)
{
	mad_fabric_close(pm->v);
	ib_fabric_free(&pm->f);
	memset(pm, 0, sizeof(*pm));
}
