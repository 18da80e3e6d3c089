// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding 9: PCIe links trained below their ends, slower than their port, with uncorrectable errors; ports far below their siblings. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "derive/pci.h"
#include "derive/pci_check.h"
#include "derive/port.h"
#include "model/pci.h"
#include "util.h"

static bool port_up(const struct fab_port *p)
{
	return p->state == PORT_STATE_ACTIVE && p->rate_known && p->rate_gbps > 0;
}

/* "0000:03:00.0 - 0000:02:08.0", or the one end a link was seen from. */
static const char *hop_ends(const struct pci_hca *h, const struct pci_hop *hp, char *buf, size_t size)
{
	if (hp->lower == hp->upper)
		snprintf(buf, size, "%s", h->chain[hp->lower].addr);
	else
		snprintf(buf, size, "%s - %s", h->chain[hp->lower].addr, h->chain[hp->upper].addr);
	return buf;
}

/* Links trained below what both of their ends can do: a bad seat, a slot, a riser, a BIOS limit. */
static void check_degraded(struct doctor_sink *o, const struct fab_device *d)
{
	struct pci_hop hops[PCI_MAX_CHAIN];
	size_t n = pci_hops(d->pci, hops, ARRAY_SIZE(hops));
	bool said = false;

	for (size_t i = 0; i < n; i++) {
		char ends[2 * PCI_ADDR_LEN + 4], cur[32], max[32];

		if (!hops[i].degraded)
			continue;
		pci_link_str(hops[i].cur_mts, hops[i].cur_width, cur, sizeof(cur));
		pci_link_str(hops[i].max_mts, hops[i].max_width, max, sizeof(max));
		if (!said) {
			doctor_sink_add(o, DOCTOR_PLATFORM, "pcie-link-degraded", DOCTOR_WARNING, "", d->name, 0,
			    "%s's PCIe link runs at %s where both ends can do %s", d->name, cur, max);
			doctor_cause(o->cur, "A PCIe link trained at a lower speed or with fewer lanes than both of its ends "
				 "support: the card is not seated well, the slot or a riser has fewer lanes wired "
				 "than it looks, the link retrained down after errors, or the firmware limits the "
				 "slot's speed. Everything the device moves crosses this link.");
			doctor_fix(o->cur, "compare LnkCap and LnkSta: lspci -vv -s %s", d->pci->chain[0].addr);
			doctor_fix(o->cur, "reseat the card or move it to a slot wired for all its lanes; check the "
			       "firmware's PCIe speed setting for the slot; a retrain: setpci or a reboot");
			said = true;
		}
		doctor_evidence(o->cur, "link %s: %s, both ends can do %s", hop_ends(d->pci, &hops[i], ends, sizeof(ends)), cur, max);
	}
}

/* A link that cannot carry what one of the device's ports runs at. */
static void check_below_port(struct doctor_sink *o, const struct fab_device *d)
{
	struct pci_hop b;
	char ends[2 * PCI_ADDR_LEN + 4], cur[32], max[32];

	if (!pci_bottleneck(d->pci, &b))
		return;
	for (size_t j = 0; j < d->nports; j++) {
		const struct fab_port *p = &d->ports[j];

		if (!port_up(p) || p->rate_gbps <= b.gbps)
			continue;
		doctor_sink_add(o, DOCTOR_PLATFORM, "pcie-below-port-rate", DOCTOR_WARNING, "", d->name, p->num,
		    "%s port %u runs at %g Gb/s but its PCIe link carries at most %.1f Gb/s", d->name, p->num,
		    p->rate_gbps, b.gbps);
		doctor_cause(o->cur, "Every byte the port sends or receives crosses the device's PCIe link, which is "
			 "slower than the port: traffic tops out at the link's rate (less its packet "
			 "overheads), whatever the fabric can do.");
		doctor_evidence(o->cur, "port %u: %s", p->num, p->rate);
		doctor_evidence(o->cur, "narrowest link %s: %s (%.1f Gb/s after encoding)", hop_ends(d->pci, &b, ends, sizeof(ends)),
		   pci_link_str(b.cur_mts, b.cur_width, cur, sizeof(cur)), b.gbps);
		if (b.max_mts || b.max_width > 0)
			doctor_evidence(o->cur, "its ends can do at most %s", pci_link_str(b.max_mts, b.max_width, max, sizeof(max)));
		doctor_fix(o->cur, "put the card in a slot whose link (every bridge up to the root port) is as fast and "
		       "as wide as the card: fabtop show pci names each");
	}
}

/* AER's uncorrectable errors on the device or a bridge above it: transactions were lost. */
static void check_aer(struct doctor_sink *o, const struct fab_device *d)
{
	bool said = false;

	for (size_t i = 0; i < d->pci->nchain; i++) {
		const struct pci_func *f = &d->pci->chain[i];
		uint64_t nf = f->aer.nonfatal.known ? f->aer.nonfatal.value : 0;
		uint64_t fa = f->aer.fatal.known ? f->aer.fatal.value : 0;

		if (!nf && !fa)
			continue;
		if (!said) {
			doctor_sink_add(o, DOCTOR_PLATFORM, "pcie-aer-uncorrectable", DOCTOR_WARNING, "", d->name, 0,
			    "%s or a bridge above it has had uncorrectable PCIe errors", d->name);
			doctor_cause(o->cur, "AER counted uncorrectable errors since boot where %s's traffic passes: a "
				 "non-fatal one loses a transaction (a timeout, a poisoned or malformed TLP), a "
				 "fatal one resets the link. Errors are often counted at the link's other end.",
			      d->name);
			doctor_fix(o->cur, "read the kernel log for the AER reports (journalctl -k | grep -i aer) and which "
			       "bits were set; reseat or replace the card, riser or cable if they recur");
			said = true;
		}
		doctor_evidence(o->cur, "%s: %" PRIu64 " non-fatal, %" PRIu64 " fatal", f->addr, nf, fa);
	}
}

/*
 * Ports that should train alike: the same link layer on devices of one
 * model (hca_type, "MT4123"; the driver where a device has none). A 25 Gb/s
 * management NIC beside 200 Gb/s HCAs, or an iWARP RNIC beside an IB CA,
 * is no sibling.
 */
static bool siblings(const struct fab_device *d, const struct fab_port *p, const struct fab_device *e,
		     const struct fab_port *q)
{
	const char *a = d->hca_type[0] ? d->hca_type : d->driver, *b = e->hca_type[0] ? e->hca_type : e->driver;

	return port_up(q) && q->link_layer == p->link_layer && a[0] && !strcmp(a, b);
}

/*
 * The rate most of p's siblings run at (p among them), held by two ports
 * at least (the higher on a tie); 0 when there is none.
 */
static double usual_rate(const struct fab_host *h, const struct fab_device *d, const struct fab_port *p)
{
	double best = 0;
	size_t best_n = 0;

	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *q = &h->devs[i].ports[j];
			size_t n = 0;

			if (!siblings(d, p, &h->devs[i], q))
				continue;
			for (size_t k = 0; k < h->ndevs; k++)
				for (size_t l = 0; l < h->devs[k].nports; l++)
					n += siblings(d, p, &h->devs[k], &h->devs[k].ports[l]) &&
					     h->devs[k].ports[l].rate_gbps == q->rate_gbps;
			if (n > best_n || (n == best_n && q->rate_gbps > best)) {
				best = q->rate_gbps;
				best_n = n;
			}
		}
	return best_n >= 2 ? best : 0;
}

/*
 * A port at less than half the rate its siblings across the host's
 * devices run at: one 40 Gb/s port beside three at 200. A port slower than
 * another of its own device is port-slow's (finding 4) already.
 */
static void check_siblings(struct doctor_sink *o, const struct fab_host *h)
{
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_device *d = &h->devs[i];
			const struct fab_port *p = &d->ports[j];
			double usual;

			if (!port_up(p) || port_is_slow(d, p, NULL))
				continue;
			usual = usual_rate(h, d, p);
			if (!usual || p->rate_gbps * 2 >= usual)
				continue;
			doctor_sink_add(o, DOCTOR_PLATFORM, "port-slow-sibling", DOCTOR_WARNING, "", d->name, p->num,
			    "%s port %u runs at %g Gb/s, far below the %g Gb/s of this host's other %s %s ports",
			    d->name, p->num, p->rate_gbps, usual, d->hca_type[0] ? d->hca_type : d->driver,
			    fab_link_layer_str(p->link_layer));
			doctor_cause(o->cur, "The host's other ports of this model and kind run at %g Gb/s; this one trained "
				 "far slower: a cable or transceiver of a slower kind, a split cable, or a switch "
				 "port configured slower. A job spread over the host's ports waits for the slowest.",
			      usual);
			doctor_evidence(o->cur, "rate %s", p->rate);
			doctor_fix(o->cur, "compare the cable and transceiver with those of the fast ports; check the peer "
			       "port's speed (iblinkinfo, or ethtool on the switch side)");
		}
}

size_t pci_check(const struct fab_host *h, struct doctor_finding *out, size_t cap)
{
	struct doctor_sink o = { .out = out, .cap = cap };

	for (size_t i = 0; i < h->ndevs; i++) {
		if (!h->devs[i].pci)
			continue;
		check_degraded(&o, &h->devs[i]);
		check_below_port(&o, &h->devs[i]);
		check_aer(&o, &h->devs[i]);
	}
	check_siblings(&o, h);
	return o.n;
}
