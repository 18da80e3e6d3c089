// SPDX-License-Identifier: GPL-2.0-or-later
/* The snapshot as an OpenMetrics / Prometheus text exposition: families, labels, values in base units. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "mad/mad_trap.h"
#include "model/events.h"
#include "report/openmetrics.h"
#include "util.h"

/*
 * The two formats differ only in metadata: OpenMetrics names a counter
 * family without "_total" and an info family without "_info", has UNIT
 * lines and ends with "# EOF"; 0.0.4 names families as their samples and
 * has no info type (a gauge of 1). One writer serves both.
 */
enum om_type { OM_GAUGE, OM_COUNTER, OM_INFO };

struct om_family {
	const char *name;	/* the family name (OpenMetrics) */
	enum om_type type;
	const char *unit;	/* "bytes", "seconds" or NULL; the name ends with it */
	const char *help;
};

struct om_label {
	const char *name;
	const char *value;
};

struct om {
	FILE *f;
	enum openmetrics_format fmt;
	const struct om_family *fam;	/* the family being written */
	size_t samples;
};

static const char *const type_names[] = { "gauge", "counter", "info" };

static const char *om_suffix(enum om_type t)
{
	return t == OM_COUNTER ? "_total" : t == OM_INFO ? "_info" : "";
}

static void om_help_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void om_family(struct om *o, const struct om_family *fam)
{
	const char *suffix = o->fmt == OPENMETRICS_1_0 ? "" : om_suffix(fam->type);
	const char *type = type_names[fam->type];

	if (o->fmt == OPENMETRICS_PROM_0_0_4 && fam->type == OM_INFO)
		type = "gauge";
	o->fam = fam;
	fprintf(o->f, "# HELP %s%s ", fam->name, suffix);
	om_help_text(o->f, fam->help);
	fprintf(o->f, "\n# TYPE %s%s %s\n", fam->name, suffix, type);
	if (o->fmt == OPENMETRICS_1_0 && fam->unit)
		fprintf(o->f, "# UNIT %s %s\n", fam->name, fam->unit);
}

void openmetrics_label_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;

	while (*s) {
		uint32_t cp;
		size_t n = util_utf8_seq(s, strnlen((const char *)s, 4), &cp);

		if (!n) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD: scrapers reject invalid UTF-8 */
			s++;
			continue;
		}
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			fputc('?', f);		/* legal in a label, but a terminal reading the page acts on it */
		else
			fwrite(s, 1, n, f);
		s += n;
	}
}

static void om_labels(struct om *o, const struct om_label *l, size_t n)
{
	if (!n)
		return;
	fputc('{', o->f);
	for (size_t i = 0; i < n; i++) {
		fprintf(o->f, "%s%s=\"", i ? "," : "", l[i].name);
		openmetrics_label_value(o->f, l[i].value ? l[i].value : "");
		fputc('"', o->f);
	}
	fputc('}', o->f);
}

static void om_sample_begin(struct om *o, const struct om_label *l, size_t n)
{
	fprintf(o->f, "%s%s", o->fam->name, om_suffix(o->fam->type));
	om_labels(o, l, n);
	fputc(' ', o->f);
	o->samples++;
}

static void om_u64(struct om *o, const struct om_label *l, size_t n, uint64_t v)
{
	om_sample_begin(o, l, n);
	fprintf(o->f, "%" PRIu64 "\n", v);
}

/* A count of 4-octet words in bytes: up to 2^66, printed exactly. */
static void om_words_as_bytes(struct om *o, const struct om_label *l, size_t n, uint64_t words)
{
	unsigned __int128 b = (unsigned __int128)words * IB_DATA_WORD_BYTES;
	char buf[48], *p = buf + sizeof(buf) - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + (int)(b % 10));
		b /= 10;
	} while (b);
	om_sample_begin(o, l, n);
	fprintf(o->f, "%s\n", p);
}

static void om_double(struct om *o, const struct om_label *l, size_t n, double v)
{
	om_sample_begin(o, l, n);
	if (isnan(v))
		fputs("NaN\n", o->f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf\n" : "-Inf\n", o->f);
	else
		fprintf(o->f, "%.17g\n", v);
}

#define L(...) ((const struct om_label[]){ __VA_ARGS__ })
#define NL(...) (sizeof((const struct om_label[]){ __VA_ARGS__ }) / sizeof(struct om_label))
/* A sample with the labels given inline: OM_SAMPLE(o, om_u64, value, {"device", d}, ...). */
#define OM_SAMPLE(o, fn, v, ...) fn((o), L(__VA_ARGS__), NL(__VA_ARGS__), (v))

static const struct om_family
	fam_host = { "fabtop_host", OM_INFO, NULL, "The host the exporter runs on." },
	fam_port = { "fabtop_port", OM_INFO, NULL,
		     "An RDMA port: link layer, node type and GUID, netdevs, the kernel's rate text." },
	fam_state = { "fabtop_port_state", OM_GAUGE, NULL,
		      "IB PortState: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER (absent when unreadable)." },
	fam_phys = { "fabtop_port_physical_state", OM_GAUGE, NULL,
		     "IB PortPhysicalState: 1 Sleep, 2 Polling, 3 Disabled, 4 PortConfigurationTraining, "
		     "5 LinkUp, 6 LinkErrorRecovery, 7 Phy Test." },
	fam_up = { "fabtop_port_up", OM_GAUGE, NULL, "1 when the port is ACTIVE, 0 otherwise." },
	fam_rate = { "fabtop_port_rate_bytes_per_second", OM_GAUGE, NULL,
		     "The port's active link rate in bytes per second." },
	fam_lid = { "fabtop_port_lid", OM_GAUGE, NULL, "The port's base LID (InfiniBand)." },
	fam_sm_lid = { "fabtop_port_sm_lid", OM_GAUGE, NULL, "The LID of the port's subnet manager (InfiniBand)." },
	fam_mtu = { "fabtop_port_active_mtu_bytes", OM_GAUGE, "bytes", "The port's active MTU." },
	fam_tx_bytes = { "fabtop_port_transmit_bytes", OM_COUNTER, "bytes",
			 "Data sent by the port: its best data counter times 4 (absent when saturated or unknown)." },
	fam_rx_bytes = { "fabtop_port_receive_bytes", OM_COUNTER, "bytes",
			 "Data received by the port: its best data counter times 4 (absent when saturated or unknown)." },
	fam_tx_pkts = { "fabtop_port_transmit_packets", OM_COUNTER, NULL, "Packets sent by the port." },
	fam_rx_pkts = { "fabtop_port_receive_packets", OM_COUNTER, NULL, "Packets received by the port." },
	fam_counter = { "fabtop_port_count", OM_COUNTER, NULL,
			"Every port counter but the data ones, as read (kind: packets, error, wait, other; "
			"bits: the counter's width). Absent when saturated or unknown." },
	fam_counter_bytes = { "fabtop_port_data_bytes", OM_COUNTER, "bytes",
			      "The port's data counters in bytes (4-octet words times 4)." },
	fam_saturated = { "fabtop_saturated", OM_GAUGE, NULL,
			  "1 when a counter is latched at the all-ones of its width: its value is unknown and "
			  "not exported." },
	fam_partner = { "fabtop_link_partner", OM_INFO, NULL,
			"The other end of the port's cable, as the subnet's management (MADs) describes it." },
	fam_p_counter = { "fabtop_link_partner_count", OM_COUNTER, NULL,
			  "The link partner port's PMA counters but the data ones." },
	fam_p_bytes = { "fabtop_link_partner_data_bytes", OM_COUNTER, "bytes",
			"The link partner port's PMA data counters in bytes." },
	fam_sm = { "fabtop_port_sm", OM_INFO, NULL, "The subnet manager as the port's SMInfo query answered." },
	fam_gid = { "fabtop_gid", OM_INFO, NULL, "A non-empty GID table entry: index, type, netdev, IPv4." },
	fam_finding = { "fabtop_doctor_finding", OM_GAUGE, NULL,
			"A finding of fabtop doctor (doc/doctor.md): 1 while it holds." },
	fam_findings = { "fabtop_doctor_findings", OM_GAUGE, NULL, "The doctor's findings by severity." },
	fam_doctor_up = { "fabtop_doctor_up", OM_GAUGE, NULL,
			  "1 when the network state could be read and the doctor ran, 0 otherwise." };

static const char *kind_name(enum fab_counter_kind k)
{
	static const char *const names[] = {
		[COUNTER_KIND_OTHER] = "other", [COUNTER_KIND_DATA] = "data",
		[COUNTER_KIND_PACKETS] = "packets", [COUNTER_KIND_ERROR] = "error",
		[COUNTER_KIND_WAIT] = "wait",
	};

	return util_name(names, ARRAY_SIZE(names), k, "other");
}

static const char *source_label(enum fab_counter_source s)
{
	static const char *const names[] = {
		[COUNTER_SRC_COUNTERS] = "counters", [COUNTER_SRC_COUNTERS_EXT] = "counters_ext",
		[COUNTER_SRC_HW_COUNTERS] = "hw_counters", [COUNTER_SRC_PMA] = "pma",
		[COUNTER_SRC_DEMO] = "demo",
		[COUNTER_SRC_CM_TX_MSGS] = "cm_tx_msgs", [COUNTER_SRC_CM_TX_RETRIES] = "cm_tx_retries",
		[COUNTER_SRC_CM_RX_MSGS] = "cm_rx_msgs", [COUNTER_SRC_CM_RX_DUPLICATES] = "cm_rx_duplicates",
		[COUNTER_SRC_NETLINK] = "netlink",
	};

	return util_name(names, ARRAY_SIZE(names), s, "unknown");
}

/* A port's identity as labels: every family of a port starts with these. */
struct om_port {
	const char *device;
	char port[12];
	const struct fab_device *d;
	struct fab_port *p;
};

/* Calls fn for every port (families are written whole, one after another). */
static void each_port(struct om *o, const struct fab_host *h, void (*fn)(struct om *o, struct om_port *op))
{
	for (size_t i = 0; h && i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			struct om_port op = { .device = h->devs[i].name, .d = &h->devs[i], .p = &h->devs[i].ports[j] };

			snprintf(op.port, sizeof(op.port), "%u", op.p->num);
			fn(o, &op);
		}
	}
}

static void port_info(struct om *o, struct om_port *op)
{
	char netdevs[FAB_MAX_NETDEVS * (FAB_IFNAMSIZ + 1)] = "";
	size_t len = 0;

	for (unsigned int k = 0; k < op->p->nnetdevs; k++)
		len += (size_t)snprintf(netdevs + len, sizeof(netdevs) - len, "%s%s", k ? "," : "",
					op->p->netdevs[k].name);
	OM_SAMPLE(o, om_u64, 1, { "device", op->device }, { "port", op->port },
		  { "link_layer", op->p->link_layer != LINK_LAYER_UNKNOWN ? fab_link_layer_str(op->p->link_layer) : "" },
		  { "node_type", op->d->node_type }, { "node_guid", op->d->node_guid },
		  { "netdevs", netdevs }, { "rate", op->p->rate_known ? op->p->rate : "" });
}

static void port_state(struct om *o, struct om_port *op)
{
	if (op->p->state != PORT_STATE_UNKNOWN)
		OM_SAMPLE(o, om_u64, (uint64_t)op->p->state, { "device", op->device }, { "port", op->port });
}

static void port_phys(struct om *o, struct om_port *op)
{
	if (op->p->phys_state != PHYS_STATE_UNKNOWN)
		OM_SAMPLE(o, om_u64, (uint64_t)op->p->phys_state, { "device", op->device }, { "port", op->port });
}

static void port_up(struct om *o, struct om_port *op)
{
	if (op->p->state != PORT_STATE_UNKNOWN)
		OM_SAMPLE(o, om_u64, op->p->state == PORT_STATE_ACTIVE, { "device", op->device }, { "port", op->port });
}

static void port_rate(struct om *o, struct om_port *op)
{
	if (op->p->rate_known)
		OM_SAMPLE(o, om_double, op->p->rate_gbps * 1e9 / 8, { "device", op->device }, { "port", op->port });
}

static void port_opt(struct om *o, struct om_port *op, const struct opt_u64 *v)
{
	if (v->known)
		OM_SAMPLE(o, om_u64, v->value, { "device", op->device }, { "port", op->port });
}

static void port_lid(struct om *o, struct om_port *op)
{
	if (fab_port_maybe_ib(op->p))
		port_opt(o, op, &op->p->lid);
}

static void port_sm_lid(struct om *o, struct om_port *op)
{
	if (fab_port_maybe_ib(op->p))
		port_opt(o, op, &op->p->sm_lid);
}

static void port_mtu(struct om *o, struct om_port *op)
{
	port_opt(o, op, &op->p->active_mtu);
}

/* The best counter of a kind and direction, when it has a value to show. */
static const struct fab_counter *usable(const struct fab_counter *c)
{
	return c && c->known && !c->saturated ? c : NULL;
}

static void port_tx_bytes(struct om *o, struct om_port *op)
{
	const struct fab_counter *c = usable(port_data_counter(op->p, DIR_XMIT));

	if (c)
		OM_SAMPLE(o, om_words_as_bytes, c->value, { "device", op->device }, { "port", op->port });
}

static void port_rx_bytes(struct om *o, struct om_port *op)
{
	const struct fab_counter *c = usable(port_data_counter(op->p, DIR_RCV));

	if (c)
		OM_SAMPLE(o, om_words_as_bytes, c->value, { "device", op->device }, { "port", op->port });
}

static void port_tx_pkts(struct om *o, struct om_port *op)
{
	const struct fab_counter *c = usable(port_packets_counter(op->p, DIR_XMIT));

	if (c)
		OM_SAMPLE(o, om_u64, c->value, { "device", op->device }, { "port", op->port });
}

static void port_rx_pkts(struct om *o, struct om_port *op)
{
	const struct fab_counter *c = usable(port_packets_counter(op->p, DIR_RCV));

	if (c)
		OM_SAMPLE(o, om_u64, c->value, { "device", op->device }, { "port", op->port });
}

/*
 * One counter into the family being written: data counters go to the
 * bytes family (want_data), the others to the plain one; the saturated
 * family takes every counter with a value. Extra labels (a partner's)
 * come first in l.
 */
enum counter_family { CF_PLAIN, CF_BYTES, CF_SATURATED };

static void counter_sample(struct om *o, enum counter_family cf, const struct fab_counter *c,
			   const char *source, const struct om_label *extra, size_t nextra)
{
	struct om_label l[10];
	char bits[8];
	size_t n = 0;

	if (!c->known)
		return;
	if (cf != CF_SATURATED && (c->saturated || (c->kind == COUNTER_KIND_DATA) != (cf == CF_BYTES)))
		return;
	for (size_t i = 0; i < nextra && n < 5; i++)
		l[n++] = extra[i];
	snprintf(bits, sizeof(bits), "%u", c->bits);
	l[n++] = (struct om_label){ "counter", c->name };
	l[n++] = (struct om_label){ "source", source };
	if (cf == CF_PLAIN)
		l[n++] = (struct om_label){ "kind", kind_name(c->kind) };
	l[n++] = (struct om_label){ "bits", bits };
	if (cf == CF_SATURATED)
		om_u64(o, l, n, c->saturated);
	else if (cf == CF_BYTES)
		om_words_as_bytes(o, l, n, c->value);
	else
		om_u64(o, l, n, c->value);
}

static void port_counters_as(struct om *o, struct om_port *op, enum counter_family cf)
{
	const struct om_label id[] = { { "device", op->device }, { "port", op->port } };

	for (size_t k = 0; k < op->p->ncounters; k++)
		counter_sample(o, cf, &op->p->counters[k], source_label(op->p->counters[k].source), id, 2);
}

static void port_counters(struct om *o, struct om_port *op)
{
	port_counters_as(o, op, CF_PLAIN);
}

static void port_counters_bytes(struct om *o, struct om_port *op)
{
	port_counters_as(o, op, CF_BYTES);
}

static void port_counters_saturated(struct om *o, struct om_port *op)
{
	port_counters_as(o, op, CF_SATURATED);
}

static void port_gids(struct om *o, struct om_port *op)
{
	for (size_t k = 0; k < op->p->ngids; k++) {
		const struct fab_gid *g = &op->p->gids[k];
		char idx[12];

		snprintf(idx, sizeof(idx), "%u", g->index);
		OM_SAMPLE(o, om_u64, 1, { "device", op->device }, { "port", op->port }, { "index", idx },
			  { "gid", g->gid }, { "type", g->type != GID_TYPE_UNKNOWN ? fab_gid_type_str(g->type) : "" },
			  { "netdev", g->netdev }, { "ipv4", g->has_ipv4 ? g->ipv4 : "" });
	}
}

static void host_family(struct om *o, const struct om_family *fam, const struct fab_host *h,
			void (*fn)(struct om *o, struct om_port *op))
{
	om_family(o, fam);
	each_port(o, h, fn);
}

/* The MAD view's port for a local port, when it answered. */
static const char *node_type_name(uint8_t t)
{
	static const char *const names[] = { [1] = "CA", [2] = "Switch", [3] = "Router" };

	return util_name(names, ARRAY_SIZE(names), t, "unknown");
}

struct om_partner {
	char port[12], guid[24], pport[8];
	struct om_label l[5];	/* device, port, partner_guid, partner_port, partner_desc */
};

/* The partner labels of a local port's cable; false when the partner is unknown. */
static bool partner_labels(const struct ib_local_port *lp, struct om_partner *pp)
{
	if (lp->peer_state != IBQ_OK)
		return false;
	snprintf(pp->port, sizeof(pp->port), "%u", lp->port);
	snprintf(pp->guid, sizeof(pp->guid), "0x%016" PRIx64, lp->peer.node_guid);
	snprintf(pp->pport, sizeof(pp->pport), "%u", lp->peer_pi.num);
	pp->l[0] = (struct om_label){ "device", lp->ca };
	pp->l[1] = (struct om_label){ "port", pp->port };
	pp->l[2] = (struct om_label){ "partner_guid", pp->guid };
	pp->l[3] = (struct om_label){ "partner_port", pp->pport };
	pp->l[4] = (struct om_label){ "partner_desc", lp->peer.desc };
	return true;
}

static void ib_partners(struct om *o, const struct ib_fabric *ib)
{
	om_family(o, &fam_partner);
	for (size_t i = 0; ib && i < ib->nports; i++) {
		const struct ib_local_port *lp = &ib->ports[i];
		struct om_partner pp;
		struct om_label l[6];

		if (!partner_labels(lp, &pp))
			continue;
		memcpy(l, pp.l, sizeof(pp.l));
		l[5] = (struct om_label){ "partner_type", node_type_name(lp->peer.node_type) };
		om_u64(o, l, 6, 1);
	}
}

static void ib_partner_counters(struct om *o, const struct ib_fabric *ib, enum counter_family cf)
{
	for (size_t i = 0; ib && i < ib->nports; i++) {
		const struct ib_local_port *lp = &ib->ports[i];
		struct om_partner pp;

		if (!partner_labels(lp, &pp) || lp->peer_pma.state != IBQ_OK)
			continue;
		/* The partner's identity is part of the series: a re-cabled port starts new ones. */
		for (size_t k = 0; k < lp->peer_pma.n; k++)
			counter_sample(o, cf, &lp->peer_pma.c[k], cf == CF_SATURATED ? "partner_pma" : "pma",
				       pp.l, 5);
	}
}

static void ib_sm(struct om *o, const struct ib_fabric *ib)
{
	om_family(o, &fam_sm);
	for (size_t i = 0; ib && i < ib->nports; i++) {
		const struct ib_local_port *lp = &ib->ports[i];
		char port[12], lid[8], guid[24], prio[8];

		if (lp->sm.state != IBQ_OK)
			continue;
		snprintf(port, sizeof(port), "%u", lp->port);
		snprintf(lid, sizeof(lid), "%u", lp->sm.lid);
		snprintf(guid, sizeof(guid), "0x%016" PRIx64, lp->sm.guid);
		snprintf(prio, sizeof(prio), "%u", lp->sm.priority);
		OM_SAMPLE(o, om_u64, 1, { "device", lp->ca }, { "port", port }, { "sm_lid", lid },
			  { "sm_guid", guid }, { "sm_state", mad_sm_state_str(lp->sm.sm_state) },
			  { "sm_priority", prio });
	}
}

/* Two findings with the same labels would be one series twice: the first one speaks. */
static bool finding_seen(const struct doctor_report *r, size_t upto)
{
	const struct doctor_finding *f = &r->findings[upto];

	for (size_t i = 0; i < upto; i++) {
		const struct doctor_finding *g = &r->findings[i];

		if (!strcmp(f->code, g->code) && f->severity == g->severity && !strcmp(f->ifname, g->ifname) &&
		    !strcmp(f->addr, g->addr) && !strcmp(f->device, g->device) && f->port == g->port)
			return true;
	}
	return false;
}

static void doctor_findings(struct om *o, const struct doctor_report *r)
{
	size_t count[3] = { 0 };

	om_family(o, &fam_doctor_up);
	om_u64(o, NULL, 0, r != NULL);
	om_family(o, &fam_finding);
	for (size_t i = 0; r && i < r->nfindings; i++) {
		const struct doctor_finding *f = &r->findings[i];
		char port[12] = "";

		if (f->severity <= DOCTOR_ERROR)
			count[f->severity]++;
		if (finding_seen(r, i))
			continue;
		if (f->port)
			snprintf(port, sizeof(port), "%u", f->port);
		OM_SAMPLE(o, om_u64, 1, { "code", f->code }, { "severity", doctor_severity_str(f->severity) },
			  { "iface", f->ifname }, { "address", f->addr }, { "device", f->device }, { "port", port });
	}
	om_family(o, &fam_findings);
	for (unsigned int s = DOCTOR_INFO; r && s <= DOCTOR_ERROR; s++)
		OM_SAMPLE(o, om_u64, count[s], { "severity", doctor_severity_str((enum doctor_severity)s) });
}

static const struct om_family
	fam_probe = { "fabtop_probe", OM_INFO, NULL,
		      "A probe the exporter runs: the device that carried it, the latest result and why." },
	fam_probe_ok = { "fabtop_probe_success", OM_GAUGE, NULL,
			 "1 when the latest probe run connected and every ping came back." },
	fam_probe_runs = { "fabtop_probe_runs", OM_COUNTER, NULL,
			   "Probe runs by result: ok, or the CM event that ended them (REJECTED, UNREACHABLE, ...)." },
	fam_probe_connect = { "fabtop_probe_connect_seconds", OM_GAUGE, "seconds",
			      "Address and route resolution plus the CM handshake of the latest good run." },
	fam_probe_rtt = { "fabtop_probe_rtt_seconds", OM_GAUGE, "seconds",
			  "Round-trip time of the latest good run's pings (stat: min, p50, p99, max)." };

/* The labels every probe family starts with. */
#define PROBE_ID(pr) { "peer", (pr)->peer }, { "from", (pr)->from }, { "port", (pr)->port }

static void probes(struct om *o, const struct openmetrics_probe *pr, size_t n)
{
	static const char *const stat[] = { "min", "p50", "p99", "max" };
	size_t i, k;

	if (!n)
		return;
	om_family(o, &fam_probe);
	for (i = 0; i < n; i++)
		if (pr[i].ran)
			OM_SAMPLE(o, om_u64, 1, PROBE_ID(&pr[i]), { "device", pr[i].device },
				  { "result", pr[i].result }, { "detail", pr[i].detail });
	om_family(o, &fam_probe_ok);
	for (i = 0; i < n; i++)
		if (pr[i].ran)
			OM_SAMPLE(o, om_u64, pr[i].ok, PROBE_ID(&pr[i]));
	om_family(o, &fam_probe_runs);
	for (i = 0; i < n; i++)
		for (k = 0; k < pr[i].nresults; k++)
			OM_SAMPLE(o, om_u64, pr[i].runs[k], PROBE_ID(&pr[i]), { "result", pr[i].results[k] });
	om_family(o, &fam_probe_connect);
	for (i = 0; i < n; i++)
		if (pr[i].ran && pr[i].connect_s > 0)
			OM_SAMPLE(o, om_double, pr[i].connect_s, PROBE_ID(&pr[i]));
	om_family(o, &fam_probe_rtt);
	for (i = 0; i < n; i++)
		for (k = 0; pr[i].ran && pr[i].rtt_s[3] > 0 && k < ARRAY_SIZE(stat); k++)
			OM_SAMPLE(o, om_double, pr[i].rtt_s[k], PROBE_ID(&pr[i]), { "stat", stat[k] });
}

static const struct om_family
	fam_events = { "fabtop_events", OM_COUNTER, NULL,
		       "Events derived since the exporter started, by kind (doc/events.md): flaps, state changes, bursts." };

static void events_totals(struct om *o, const uint64_t *totals)
{
	if (!totals)
		return;
	om_family(o, &fam_events);
	for (unsigned int k = 0; k < EVENT_KIND_COUNT; k++)
		OM_SAMPLE(o, om_u64, totals[k], { "kind", event_kind_str(k) });
}

/* Long: one family after another, in the order doc/export.md lists them. */
/* ---- export --fabric: every port of the subnet ---- */

static const struct om_family
	fam_f_up = { "fabtop_fabric_up", OM_GAUGE, NULL,
		     "1 when a sweep of the subnet is shown, 0 before the first or without access." },
	fam_f_sweeps = { "fabtop_fabric_sweeps", OM_COUNTER, NULL, "Sweeps of the subnet taken." },
	fam_f_partial = { "fabtop_fabric_sweep_partial", OM_GAUGE, NULL,
			  "1 while the first sweep runs and what it found so far is shown (no counters yet)." },
	fam_f_sweep_s = { "fabtop_fabric_sweep_duration_seconds", OM_GAUGE, "seconds",
			  "Wall time of the latest sweep (discovery, without the counters)." },
	fam_f_round_s = { "fabtop_fabric_sample_duration_seconds", OM_GAUGE, "seconds",
			  "Wall time of the latest whole round of PMA samples of every port." },
	fam_f_nodes = { "fabtop_fabric_nodes", OM_GAUGE, NULL, "Nodes the latest sweep found, by type." },
	fam_f_links = { "fabtop_fabric_links", OM_GAUGE, NULL, "Links the latest sweep found." },
	fam_f_port = { "fabtop_fabric_port", OM_INFO, NULL,
		       "A port of the subnet that is up: its node, LID, the remote end, width and speed." },
	fam_f_port_up = { "fabtop_fabric_port_up", OM_GAUGE, NULL, "1 when the port is ACTIVE, 0 otherwise." },
	fam_f_degraded = { "fabtop_fabric_port_degraded", OM_GAUGE, NULL,
			   "1 when the link trained below the width or speed both ends can do." },
	fam_f_rate = { "fabtop_fabric_port_rate_bytes_per_second", OM_GAUGE, NULL,
		       "The port's active link rate in bytes per second." },
	fam_f_counter = { "fabtop_fabric_port_count", OM_COUNTER, NULL,
			  "Every PMA counter of the port but the data ones (absent when saturated or unknown)." },
	fam_f_bytes = { "fabtop_fabric_port_data_bytes", OM_COUNTER, "bytes",
			"The port's PMA data counters in bytes (4-octet words times 4)." },
	fam_f_saturated = { "fabtop_fabric_port_saturated", OM_GAUGE, NULL,
			    "1 for a counter of the port latched at its maximum; absent while it counts." },
	fam_f_lost = { "fabtop_fabric_link_lost", OM_GAUGE, NULL,
		       "A link that was up at a sweep before and is not now: 1 until it comes back." },
	fam_f_trap_sub = { "fabtop_fabric_trap_subscribed", OM_GAUGE, NULL,
			   "1 when the SA accepted the subscriptions to its traps (a Report sweeps the subnet at once)." },
	fam_f_traps = { "fabtop_fabric_traps", OM_COUNTER, NULL,
			"Reports of the SM's traps received and acknowledged, by trap number (other: any else)." };

/* The SM's traps: whether subscribed, and the Reports by trap number. */
static void fabric_traps(struct om *o, const struct mad_trap_stats *st)
{
	char num[8];

	if (!st)
		return;
	om_family(o, &fam_f_trap_sub);
	om_u64(o, NULL, 0, st->subscribed);
	om_family(o, &fam_f_traps);
	for (unsigned int k = 0; k <= MAD_TRAP_NSUB; k++) {
		if (k < MAD_TRAP_NSUB)
			snprintf(num, sizeof(num), "%u", mad_trap_numbers[k]);
		OM_SAMPLE(o, om_u64, st->by_trap[k], { "trap", k < MAD_TRAP_NSUB ? num : "other" });
	}
}

/* The identity of a swept port and its remote end: the labels of every fabric series. */
struct om_fport {
	char guid[24], port[8], lid[8], rguid[24], rport[8];
	struct om_label l[7];
};

static void fport_labels(const struct ib_fabric *f, const struct ib_fnode *n, unsigned int p, struct om_fport *fp)
{
	const struct ib_fport *pt = &n->ports[p];
	const struct ib_fnode *r = pt->linked && pt->peer < f->nnodes ? &f->nodes[pt->peer] : NULL;

	snprintf(fp->guid, sizeof(fp->guid), "0x%016" PRIx64, n->id.node_guid);
	snprintf(fp->port, sizeof(fp->port), "%u", p);
	snprintf(fp->lid, sizeof(fp->lid), "%u", n->id.node_type == 2 ? n->lid : pt->pi.lid);
	fp->rguid[0] = fp->rport[0] = '\0';
	if (r) {
		snprintf(fp->rguid, sizeof(fp->rguid), "0x%016" PRIx64, r->id.node_guid);
		snprintf(fp->rport, sizeof(fp->rport), "%u", pt->peer_port);
	}
	fp->l[0] = (struct om_label){ "node_guid", fp->guid };
	fp->l[1] = (struct om_label){ "node_desc", n->id.desc };
	fp->l[2] = (struct om_label){ "port", fp->port };
	fp->l[3] = (struct om_label){ "lid", fp->lid };
	fp->l[4] = (struct om_label){ "remote_guid", fp->rguid };
	fp->l[5] = (struct om_label){ "remote_desc", r ? r->id.desc : "" };
	fp->l[6] = (struct om_label){ "remote_port", fp->rport };
}

enum fport_family { FP_INFO, FP_UP, FP_DEGRADED, FP_RATE, FP_COUNT, FP_BYTES, FP_SATURATED };

/*
 * Does the port have counters to show: those of the last round that
 * answered. While the next round asks again (IBQ_PENDING) they are still
 * that round's; a page published then must not drop every counter series
 * (Prometheus marks them stale, and an alert's for: clock starts over).
 */
static bool fport_has_counters(const struct ib_pma *pma)
{
	return pma && (pma->state == IBQ_OK || (pma->state == IBQ_PENDING && pma->prev_sample_ns));
}

/* One family over every up port of the subnet. */
static void fabric_ports(struct om *o, const struct ib_fabric *f, enum fport_family which)
{
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *n = &f->nodes[i];

		for (unsigned int p = 1; n->ports && p <= n->id.num_ports; p++) {
			const struct ib_fport *pt = &n->ports[p];
			const struct ib_pma *pma = pt->pma;
			struct om_fport fp;
			struct om_label l[11];
			char bits[8], why[96];

			if (!pt->known || pt->pi.phys_state != PHYS_STATE_LINK_UP)
				continue;
			fport_labels(f, n, p, &fp);
			memcpy(l, fp.l, sizeof(fp.l));
			switch (which) {
			case FP_INFO:
				l[7] = (struct om_label){ "node_type", node_type_name(n->id.node_type) };
				l[8] = (struct om_label){ "width", mad_link_width_str(pt->pi.width) };
				l[9] = (struct om_label){ "speed", mad_link_speed_str(pt->pi.speed, pt->pi.speed_ext) };
				om_u64(o, l, 10, 1);
				break;
			case FP_UP:
				om_u64(o, l, 7, pt->pi.state == PORT_STATE_ACTIVE);
				break;
			case FP_DEGRADED:
				if (pt->linked && pt->peer < f->nnodes)
					om_u64(o, l, 7, fabric_link_degraded(n, &pt->pi, &f->nodes[pt->peer],
									     &f->nodes[pt->peer].ports[pt->peer_port].pi,
									     why, sizeof(why)));
				break;
			case FP_RATE:
				om_double(o, l, 7, mad_link_gbps(pt->pi.width, pt->pi.speed, pt->pi.speed_ext) * 1e9 / 8);
				break;
			case FP_COUNT:
			case FP_BYTES:
			case FP_SATURATED:
				for (size_t k = 0; fport_has_counters(pma) && k < pma->n; k++) {
					const struct fab_counter *c = &pma->c[k];
					size_t m = 7;

					if (!c->known)
						continue;
					/*
					 * Only the latched ones: a subnet has tens of thousands
					 * of counters, nearly none latched, and a 0 for each
					 * was 45% of the page (doc/export.md).
					 */
					if (which == FP_SATURATED && !c->saturated)
						continue;
					if (which != FP_SATURATED &&
					    (c->saturated || (c->kind == COUNTER_KIND_DATA) != (which == FP_BYTES)))
						continue;
					snprintf(bits, sizeof(bits), "%u", c->bits);
					l[m++] = (struct om_label){ "counter", c->name };
					if (which == FP_COUNT)
						l[m++] = (struct om_label){ "kind", kind_name(c->kind) };
					l[m++] = (struct om_label){ "bits", bits };
					if (which == FP_SATURATED)
						om_u64(o, l, m, 1);
					else if (which == FP_BYTES)
						om_words_as_bytes(o, l, m, c->value);
					else
						om_u64(o, l, m, c->value);
				}
				break;
			}
		}
	}
}

static void fabric_lost(struct om *o, const struct fabric_lost_link *lost, size_t n)
{
	om_family(o, &fam_f_lost);
	for (size_t i = 0; i < n; i++) {
		const struct fabric_lost_link *l = &lost[i];
		char ag[24], ap[8], bg[24], bp[8];

		snprintf(ag, sizeof(ag), "0x%016" PRIx64, l->a.node_guid);
		snprintf(ap, sizeof(ap), "%u", l->a_port);
		snprintf(bg, sizeof(bg), "0x%016" PRIx64, l->b.node_guid);
		snprintf(bp, sizeof(bp), "%u", l->b_port);
		OM_SAMPLE(o, om_u64, 1, { "node_guid", ag }, { "node_desc", l->a.desc }, { "port", ap },
			  { "remote_guid", bg }, { "remote_desc", l->b.desc }, { "remote_port", bp });
	}
}

static void fabric_write(struct om *o, const struct openmetrics_input *in)
{
	const struct ib_fabric *f = in->fabric;
	static const struct { const char *label; uint8_t type; } types[] = { { "CA", 1 }, { "Switch", 2 }, { "Router", 3 } };
	bool up = in->fabric_sweeps > 0, partial = !up && f->partial;

	om_family(o, &fam_f_up);
	om_u64(o, NULL, 0, up);
	om_family(o, &fam_f_sweeps);
	om_u64(o, NULL, 0, in->fabric_sweeps);
	om_family(o, &fam_f_partial);
	om_u64(o, NULL, 0, partial);
	fabric_traps(o, in->fabric_traps);
	if (!up && !partial)
		return;
	om_family(o, &fam_f_sweep_s);
	om_double(o, NULL, 0, (double)f->sweep_ns / 1e9);
	om_family(o, &fam_f_round_s);
	om_double(o, NULL, 0, in->fabric_round_s);
	om_family(o, &fam_f_nodes);
	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		uint64_t count = 0;

		for (size_t i = 0; i < f->nnodes; i++)
			count += f->nodes[i].id.node_type == types[t].type;
		OM_SAMPLE(o, om_u64, count, { "type", types[t].label });
	}
	om_family(o, &fam_f_links);
	om_u64(o, NULL, 0, f->nlinks);
	om_family(o, &fam_f_port);
	fabric_ports(o, f, FP_INFO);
	om_family(o, &fam_f_port_up);
	fabric_ports(o, f, FP_UP);
	om_family(o, &fam_f_degraded);
	fabric_ports(o, f, FP_DEGRADED);
	om_family(o, &fam_f_rate);
	fabric_ports(o, f, FP_RATE);
	om_family(o, &fam_f_counter);
	fabric_ports(o, f, FP_COUNT);
	om_family(o, &fam_f_bytes);
	fabric_ports(o, f, FP_BYTES);
	om_family(o, &fam_f_saturated);
	fabric_ports(o, f, FP_SATURATED);
	fabric_lost(o, in->lost, in->nlost);
}

size_t openmetrics_write_fabric(FILE *f, enum openmetrics_format fmt, const struct openmetrics_input *in)
{
	struct om o = { .f = f, .fmt = fmt };

	if (in->fabric)
		fabric_write(&o, in);
	return o.samples;
}

size_t openmetrics_write_host(FILE *f, enum openmetrics_format fmt, const struct openmetrics_input *in)
{
	struct om o = { .f = f, .fmt = fmt };
	const struct fab_host *h = in->host;

	om_family(&o, &fam_host);
	OM_SAMPLE(&o, om_u64, 1, { "hostname", h ? h->hostname : "" });

	host_family(&o, &fam_port, h, port_info);
	host_family(&o, &fam_state, h, port_state);
	host_family(&o, &fam_phys, h, port_phys);
	host_family(&o, &fam_up, h, port_up);
	host_family(&o, &fam_rate, h, port_rate);
	host_family(&o, &fam_lid, h, port_lid);
	host_family(&o, &fam_sm_lid, h, port_sm_lid);
	host_family(&o, &fam_mtu, h, port_mtu);
	host_family(&o, &fam_tx_bytes, h, port_tx_bytes);
	host_family(&o, &fam_rx_bytes, h, port_rx_bytes);
	host_family(&o, &fam_tx_pkts, h, port_tx_pkts);
	host_family(&o, &fam_rx_pkts, h, port_rx_pkts);
	host_family(&o, &fam_counter, h, port_counters);
	host_family(&o, &fam_counter_bytes, h, port_counters_bytes);
	host_family(&o, &fam_saturated, h, port_counters_saturated);
	ib_partner_counters(&o, in->ib, CF_SATURATED);	/* the same family: samples of one family stay together */

	ib_partners(&o, in->ib);
	om_family(&o, &fam_p_counter);
	ib_partner_counters(&o, in->ib, CF_PLAIN);
	om_family(&o, &fam_p_bytes);
	ib_partner_counters(&o, in->ib, CF_BYTES);
	ib_sm(&o, in->ib);

	host_family(&o, &fam_gid, h, port_gids);
	doctor_findings(&o, in->doctor);
	probes(&o, in->probes, in->nprobes);
	events_totals(&o, in->event_totals);
	return o.samples;
}

static const struct om_family
	fam_build = { "fabtop_build", OM_INFO, NULL, "The fabtop version serving these metrics." },
	fam_collections = { "fabtop_exporter_collections", OM_COUNTER, NULL, "Samples the exporter has taken." },
	fam_errors = { "fabtop_exporter_collect_errors", OM_COUNTER, NULL,
		       "Collections that failed in part (the network state or memory)." },
	fam_duration = { "fabtop_exporter_collect_duration_seconds", OM_GAUGE, "seconds",
			 "Wall time of the latest collection, rendering included." },
	fam_cpu = { "fabtop_exporter_collect_cpu_seconds", OM_COUNTER, "seconds",
		    "CPU time spent collecting and rendering since start." },
	fam_last = { "fabtop_exporter_last_collect_timestamp_seconds", OM_GAUGE, "seconds",
		     "When the latest collection ended (Unix time): scrapes read it, they never collect." },
	fam_scrapes = { "fabtop_exporter_scrapes", OM_COUNTER, NULL, "Scrapes served." },
	fam_rejected = { "fabtop_exporter_http_rejected", OM_COUNTER, NULL,
			 "HTTP requests refused: unknown path or method." },
	fam_series = { "fabtop_exporter_series", OM_GAUGE, NULL, "Samples in the latest exposition of the host." };

void openmetrics_write_self(FILE *f, enum openmetrics_format fmt, const struct openmetrics_self *s)
{
	struct om o = { .f = f, .fmt = fmt };

	om_family(&o, &fam_build);
	OM_SAMPLE(&o, om_u64, 1, { "version", PACKAGE_VERSION });
	om_family(&o, &fam_collections);
	om_u64(&o, NULL, 0, s->collections);
	om_family(&o, &fam_errors);
	om_u64(&o, NULL, 0, s->collect_errors);
	om_family(&o, &fam_duration);
	om_double(&o, NULL, 0, s->collect_s);
	om_family(&o, &fam_cpu);
	om_double(&o, NULL, 0, s->cpu_s);
	om_family(&o, &fam_last);
	om_double(&o, NULL, 0, s->last_unix);
	om_family(&o, &fam_scrapes);
	om_u64(&o, NULL, 0, s->scrapes);
	om_family(&o, &fam_rejected);
	om_u64(&o, NULL, 0, s->rejected);
	om_family(&o, &fam_series);
	om_u64(&o, NULL, 0, s->series);
}

void openmetrics_write_end(FILE *f, enum openmetrics_format fmt)
{
	if (fmt == OPENMETRICS_1_0)
		fputs("# EOF\n", f);
}

const char *openmetrics_content_type(enum openmetrics_format fmt)
{
	return fmt == OPENMETRICS_1_0 ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				      : "text/plain; version=0.0.4; charset=utf-8";
}

enum openmetrics_format openmetrics_negotiate(const char *accept)
{
	/* Prometheus sends "application/openmetrics-text;version=1.0.0,...;q=0.5,text/plain;..." */
	return accept && strcasestr(accept, "application/openmetrics-text") ? OPENMETRICS_1_0
									    : OPENMETRICS_PROM_0_0_4;
}
