// SPDX-License-Identifier: GPL-2.0-or-later
/* Print the doctor's findings and route decisions for people, or as JSON. */
#include "config.h"

#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report/doctor.h"
#include "report/escape.h"

#define WRAP 78

/* Print text wrapped at WRAP columns, every line starting with indent. */
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
		escape_write(f, p, w);
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

void doctor_report_text(FILE *f, const struct doctor_report *r, bool color)
{
	size_t counts[3] = { 0 };
	char b[INET6_ADDRSTRLEN], t[16];

	color = color && isatty(fileno(f));
	fprintf(f, "fabtop doctor: %zu RDMA netdev%s, %zu RDMA port%s examined\n", r->nrdma_netdevs,
		r->nrdma_netdevs == 1 ? "" : "s", r->nports, r->nports == 1 ? "" : "s");
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct doctor_finding *x = &r->findings[i];

		counts[x->severity]++;
		/* Our own colours go out as they are; everything from the host is escaped. */
		fprintf(f, "\n%s[%s]%s", color ? sev_color[x->severity] : "", doctor_severity_str(x->severity),
			color ? "\033[0m" : "");
		escape_printf(f, " finding %d (%s): %s\n", (int)x->id, x->code, x->title);
		wrapped(f, "    ", x->cause);
		if (x->nevidence)
			fprintf(f, "  evidence:\n");
		for (unsigned int k = 0; k < x->nevidence; k++)
			escape_printf(f, "    %s\n", x->evidence[k]);
		if (x->nfix)
			fprintf(f, "  fix:\n");
		for (unsigned int k = 0; k < x->nfix; k++)
			escape_printf(f, "    %s\n", x->fix[k]);
	}
	if (r->peer[0]) {
		escape_printf(f, "\nRoute decisions for peer %s (ip route get %s from SRC):\n", r->peer, r->peer);
		if (!r->nroutes)
			fprintf(f, "  (no local RDMA address of that family)\n");
		for (size_t i = 0; i < r->nroutes; i++) {
			const struct doctor_route *x = &r->routes[i];

			escape_printf(f, "  from %s%s%s%s: ", x->src[0] ? x->src : "", x->src[0] ? " (" : "dev ",
				x->src_ifname[0] ? x->src_ifname : "?", x->src[0] ? ")" : "");
			if (x->rc) {
				fprintf(f, "no route: %s\n", strerror(-x->rc));
				continue;
			}
			escape_printf(f, "%s dev %s src %s table %s%s -> %s\n",
				x->ans.type == RTN_LOCAL ? "local," : "leaves by",
				x->ans.oif_name[0] ? x->ans.oif_name : "?", net_ip_str(&x->ans.src, b, sizeof(b)),
				net_table_str(x->ans.table, t, sizeof(t)), x->ans.from_model ? " (model)" : "",
				x->own_iface ? "ok" : x->in_subnet ? "WRONG INTERFACE" : "by routing (peer outside its subnet)");
		}
	}
	if (!r->nfindings)
		fprintf(f, "\nNo problems found.\n");
	else
		fprintf(f, "\n%zu error%s, %zu warning%s, %zu note%s.\n", counts[DOCTOR_ERROR],
			counts[DOCTOR_ERROR] == 1 ? "" : "s", counts[DOCTOR_WARNING],
			counts[DOCTOR_WARNING] == 1 ? "" : "s", counts[DOCTOR_INFO], counts[DOCTOR_INFO] == 1 ? "" : "s");
}

void doctor_finding_json_story(struct json *j, const struct doctor_finding *x)
{
	json_key(j, "title"); json_str(j, x->title);
	json_key(j, "cause"); json_str(j, x->cause);
	json_key(j, "evidence");
	json_arr_begin(j);
	for (unsigned int k = 0; k < x->nevidence; k++)
		json_str(j, x->evidence[k]);
	json_arr_end(j);
	json_key(j, "fix");
	json_arr_begin(j);
	for (unsigned int k = 0; k < x->nfix; k++)
		json_str(j, x->fix[k]);
	json_arr_end(j);
}

void doctor_report_json(struct json *j, const struct doctor_report *r)
{
	char b[INET6_ADDRSTRLEN];

	json_key(j, "problems"); json_bool(j, doctor_has_problems(r));
	json_key(j, "rdma_netdevs"); json_u64(j, r->nrdma_netdevs);
	json_key(j, "ports"); json_u64(j, r->nports);
	json_key(j, "findings");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct doctor_finding *x = &r->findings[i];

		json_obj_begin(j);
		json_key(j, "id"); json_u64(j, (uint64_t)x->id);
		json_key(j, "code"); json_str(j, x->code);
		json_key(j, "severity"); json_str(j, doctor_severity_str(x->severity));
		json_key(j, "interface"); json_str_or_null(j, x->ifname);
		json_key(j, "address"); json_str_or_null(j, x->addr);
		json_key(j, "device"); json_str_or_null(j, x->device);
		json_key(j, "port");
		if (x->port)
			json_u64(j, x->port);
		else
			json_null(j);
		doctor_finding_json_story(j, x);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "peer"); json_str_or_null(j, r->peer);
	json_key(j, "routes");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nroutes; i++) {
		const struct doctor_route *x = &r->routes[i];

		json_obj_begin(j);
		json_key(j, "from"); json_str_or_null(j, x->src);
		json_key(j, "from_interface"); json_str_or_null(j, x->src_ifname);
		json_key(j, "error"); x->rc ? json_str(j, strerror(-x->rc)) : json_null(j);
		json_key(j, "dev"); json_str_or_null(j, x->rc ? NULL : x->ans.oif_name);
		json_key(j, "src"); json_str_or_null(j, x->rc ? NULL : net_ip_str(&x->ans.src, b, sizeof(b)));
		json_key(j, "gateway"); json_str_or_null(j, x->rc ? NULL : net_ip_str(&x->ans.gateway, b, sizeof(b)));
		json_key(j, "table");
		if (x->rc)
			json_null(j);
		else
			json_u64(j, x->ans.table);
		json_key(j, "local"); json_bool(j, !x->rc && x->ans.type == RTN_LOCAL);
		json_key(j, "own_interface"); json_bool(j, x->own_iface);
		json_key(j, "in_subnet"); json_bool(j, x->in_subnet);
		json_key(j, "user_from"); json_bool(j, x->user_from);
		json_key(j, "from_model"); json_bool(j, x->ans.from_model);
		json_obj_end(j);
	}
	json_arr_end(j);
}
