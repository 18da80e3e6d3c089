// SPDX-License-Identifier: GPL-2.0-or-later
/* The doctor's findings and route decisions for people or as JSON, from one walk. */
#include "config.h"

#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "report/doctor.h"
#include "report/roce.h"

#define WRAP 78

/* Print text wrapped at WRAP columns, every line starting with indent (the caller's stream escapes). */
static void wrapped(FILE *f, const char *indent, const char *text)
{
	size_t col = 0, ind = strlen(indent);
	const char *p = text;

	fputs(indent, f);
	col = ind;
	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > ind && col + 1 + w > WRAP) {
			fputc('\n', f);
			fputs(indent, f);
			col = ind;
		} else if (col > ind) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static const char *const sev_color[] = {
	[DOCTOR_INFO] = "\033[36m",
	[DOCTOR_WARNING] = "\033[33m",
	[DOCTOR_ERROR] = "\033[31;1m",
};

void doctor_finding_story(struct out *o, const struct doctor_finding *x, bool wrap)
{
	out_str(o, PRINT_ANY, "title", x->title, "%s\n", x->title);
	out_str(o, wrap ? PRINT_JSON : PRINT_ANY, "cause", x->cause, "    %s\n", x->cause);
	if (wrap && out_text(o))
		wrapped(out_text(o), "    ", x->cause);
	if (x->nevidence)
		out_printf(o, "  evidence:\n");
	out_arr_open(o, "evidence");
	for (unsigned int k = 0; k < x->nevidence; k++)
		out_str(o, PRINT_ANY, NULL, x->evidence[k], "    %s\n", x->evidence[k]);
	out_arr_close(o);
	if (x->nfix)
		out_printf(o, "  fix:\n");
	out_arr_open(o, "fix");
	for (unsigned int k = 0; k < x->nfix; k++)
		out_str(o, PRINT_ANY, NULL, x->fix[k], "    %s\n", x->fix[k]);
	out_arr_close(o);
}

static void finding_out(struct out *o, const struct doctor_finding *x, bool color)
{
	const char *sev = doctor_severity_str(x->severity);

	out_obj_open(o, NULL);
	out_uint(o, PRINT_JSON, "id", (uint64_t)x->id, NULL);
	out_str(o, PRINT_JSON, "code", x->code, NULL);
	/* our own colours go out as they are; everything from the host is escaped */
	out_printf(o, "\n");
	if (color)
		out_raw(o, sev_color[x->severity]);
	out_str(o, PRINT_ANY, "severity", sev, "[%s]", sev);
	if (color)
		out_raw(o, "\033[0m");
	out_printf(o, " finding %d (%s): ", (int)x->id, x->code);
	out_str_or_null(o, PRINT_JSON, "interface", x->ifname, NULL);
	out_str_or_null(o, PRINT_JSON, "address", x->addr, NULL);
	out_str_or_null(o, PRINT_JSON, "device", x->device, NULL);
	if (x->port)
		out_uint(o, PRINT_JSON, "port", x->port, NULL);
	else
		out_null(o, PRINT_JSON, "port", NULL);
	doctor_finding_story(o, x, true);
	out_obj_close(o);
}

static void route_out(struct out *o, const struct doctor_route *x)
{
	char b[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN], t[16];
	const char *src = x->rc ? NULL : net_ip_str(&x->ans.src, b, sizeof(b));

	out_obj_open(o, NULL);
	out_str_or_null(o, PRINT_ANY, "from", x->src, "  from %s%s", x->src, x->src[0] ? " (" : "dev ");
	out_str_or_null(o, PRINT_ANY, "from_interface", x->src_ifname, "%s%s: ",
			x->src_ifname[0] ? x->src_ifname : "?", x->src[0] ? ")" : "");
	if (x->rc && !x->src[0])
		out_str(o, PRINT_ANY, "error", strerror(-x->rc), "no address of the peer's family: %s "
			"(the RDMA CM binds an address, never an interface alone)\n", strerror(-x->rc));
	else if (x->rc)
		out_str(o, PRINT_ANY, "error", strerror(-x->rc), "no route: %s\n", strerror(-x->rc));
	else
		out_null(o, PRINT_JSON, "error", NULL);
	out_str_or_null(o, PRINT_JSON, "dev", x->rc ? NULL : x->ans.oif_name, NULL);
	out_str_or_null(o, PRINT_JSON, "src", src, NULL);
	out_str_or_null(o, PRINT_JSON, "gateway", x->rc ? NULL : net_ip_str(&x->ans.gateway, g, sizeof(g)), NULL);
	if (x->rc)
		out_null(o, PRINT_JSON, "table", NULL);
	else
		out_uint(o, PRINT_ANY, "table", x->ans.table, "%s dev %s src %s table %s%s -> %s%s\n",
			 x->ans.type == RTN_LOCAL ? "local," : "leaves by", x->ans.oif_name[0] ? x->ans.oif_name : "?",
			 src, net_table_str(x->ans.table, t, sizeof(t)), x->ans.from_model ? " (model)" : "",
			 doctor_route_verdict_str(doctor_route_verdict(x)), x->user_from ? "   (--from)" : "");
	out_bool(o, PRINT_JSON, "local", !x->rc && x->ans.type == RTN_LOCAL, NULL);
	out_bool(o, PRINT_JSON, "own_interface", x->own_iface, NULL);
	out_bool(o, PRINT_JSON, "in_subnet", x->in_subnet, NULL);
	out_bool(o, PRINT_JSON, "user_from", x->user_from, NULL);
	out_bool(o, PRINT_JSON, "from_model", x->ans.from_model, NULL);
	out_obj_close(o);
}

void doctor_report(struct out *o, const struct doctor_report *r, bool color)
{
	size_t counts[3] = { 0 };

	color = color && out_isatty(o);
	out_bool(o, PRINT_JSON, "problems", doctor_has_problems(r), NULL);
	out_uint(o, PRINT_ANY, "rdma_netdevs", r->nrdma_netdevs, "fabtop doctor: %zu RDMA netdev%s, ",
		 r->nrdma_netdevs, r->nrdma_netdevs == 1 ? "" : "s");
	out_uint(o, PRINT_ANY, "ports", r->nports, "%zu RDMA port%s examined\n", r->nports, r->nports == 1 ? "" : "s");
	out_arr_open(o, "findings");
	for (size_t i = 0; i < r->nfindings; i++) {
		counts[r->findings[i].severity]++;
		finding_out(o, &r->findings[i], color);
	}
	out_arr_close(o);
	out_str_or_null(o, PRINT_ANY, "peer", r->peer,
			r->peer[0] ? "\nRoute decisions for peer %s (ip route get %s from SRC):\n" : NULL, r->peer, r->peer);
	if (r->peer[0] && !r->nroutes)
		out_printf(o, "  (no local RDMA address of that family)\n");
	out_arr_open(o, "routes");
	for (size_t i = 0; i < r->nroutes; i++)
		route_out(o, &r->routes[i]);
	out_arr_close(o);
	if (r->ngaps)
		out_printf(o, "\nNot checked (the RoCE chain, doc/roce.md):\n");
	out_arr_open(o, "not_checked");
	for (size_t i = 0; i < r->ngaps; i++)
		roce_gap_out(o, &r->gaps[i]);
	out_arr_close(o);
	/* no port and no RDMA netdev: every check ran over nothing, which is no clean bill of health */
	if (!r->nfindings && !r->nports && !r->nrdma_netdevs)
		out_printf(o, "\nNothing RDMA to examine: no RDMA port and no RDMA netdev here, so no problem "
			   "can be found (nor ruled out).\n");
	else if (!r->nfindings && r->ngaps)
		out_printf(o, "\nNo problems found by the checks that ran; %zu could not run (above).\n", r->ngaps);
	else if (!r->nfindings)
		out_printf(o, "\nNo problems found.\n");
	else
		out_printf(o, "\n%zu error%s, %zu warning%s, %zu note%s.\n", counts[DOCTOR_ERROR],
			   counts[DOCTOR_ERROR] == 1 ? "" : "s", counts[DOCTOR_WARNING],
			   counts[DOCTOR_WARNING] == 1 ? "" : "s", counts[DOCTOR_INFO], counts[DOCTOR_INFO] == 1 ? "" : "s");
}
