/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot as an OpenMetrics / Prometheus text exposition (fabtop export; doc/export.md lists every metric). */
#ifndef FABTOP_REPORT_OPENMETRICS_H
#define FABTOP_REPORT_OPENMETRICS_H

#include <stdint.h>
#include <stdio.h>

#include "derive/doctor.h"
#include "model/fabric.h"
#include "model/ibfabric.h"
#include "derive/fabric_links.h"

/* The two text formats a scraper may ask for (content negotiation). */
enum openmetrics_format {
	OPENMETRICS_1_0,	/* application/openmetrics-text; version=1.0.0 */
	OPENMETRICS_PROM_0_0_4,	/* text/plain; version=0.0.4 (also node_exporter's textfile collector) */
};

/* The latest results of one probe the exporter runs (export --probe). */
struct openmetrics_probe {
	const char *peer, *from, *port;	/* the target as given ("" for no --from) */
	bool ran;			/* a run has finished */
	bool ok;			/* the latest one connected and every ping came back */
	char result[24];		/* "ok" or the event that ended it ("REJECTED", "TIMEOUT", ...) */
	char detail[264];		/* the failure in one line, "" when ok */
	char device[64];		/* RDMA device that carried it, "" unknown */
	double connect_s;		/* start to ESTABLISHED of the latest good run */
	double rtt_s[4];		/* min, p50, p99, max round trip of the latest good run */
	/* runs so far by result: results[i] counted runs[i] times */
	char results[8][24];
	uint64_t runs[8];
	size_t nresults;
};

/* What one exposition shows; NULL parts are left out. */
struct openmetrics_input {
	const struct fab_host *host;
	const struct doctor_report *doctor;	/* the findings, NULL: the network could not be read */
	const struct ib_fabric *ib;		/* the MAD view: partners, SM, partner PMA; NULL: none */
	const struct openmetrics_probe *probes;	/* [nprobes] */
	size_t nprobes;
	const uint64_t *event_totals;		/* [EVENT_KIND_COUNT] events derived per kind; NULL: none */
	/* export --fabric: the whole subnet (fabric NULL: not asked for) */
	const struct ib_fabric *fabric;
	const struct fabric_lost_link *lost;	/* [nlost] links up at a sweep before, not now */
	size_t nlost;
	uint64_t fabric_sweeps;			/* sweeps taken (0: none shown yet) */
	double fabric_round_s;			/* wall time of the last whole round of PMA samples */
	const struct mad_trap_stats *fabric_traps;	/* the SM's traps (NULL: no subscription made) */
};

/* fabtop's own cost and activity (changes per scrape, so written apart from the host). */
struct openmetrics_self {
	uint64_t collections;		/* samples taken since start */
	uint64_t collect_errors;	/* collections that failed in part (network, memory) */
	double collect_s;		/* wall time of the latest collection */
	double cpu_s;			/* CPU time spent collecting and rendering since start */
	double last_unix;		/* when the latest collection ended (Unix time), 0: none */
	uint64_t scrapes;		/* HTTP scrapes served (0 for a textfile) */
	uint64_t rejected;		/* HTTP requests refused (limits, bad method, unknown path) */
	size_t series;			/* samples in the latest host exposition */
};

/* The Content-Type of a format. */
const char *openmetrics_content_type(enum openmetrics_format fmt);
/* The format an Accept header asks for (NULL: none given): OpenMetrics only when named. */
enum openmetrics_format openmetrics_negotiate(const char *accept);

/* The host's families; returns the number of samples written. */
size_t openmetrics_write_host(FILE *f, enum openmetrics_format fmt, const struct openmetrics_input *in);
/*
 * The fabtop_fabric_* families of in->fabric (nothing when it is NULL):
 * written apart so an exporter renders them only when the subnet's view
 * changed (a round of samples, a sweep), not with every host sample.
 */
size_t openmetrics_write_fabric(FILE *f, enum openmetrics_format fmt, const struct openmetrics_input *in);
/* The exporter's own families. */
void openmetrics_write_self(FILE *f, enum openmetrics_format fmt, const struct openmetrics_self *s);
/* What closes an exposition ("# EOF" in OpenMetrics). */
void openmetrics_write_end(FILE *f, enum openmetrics_format fmt);

/* A label value as the text formats require: \\, \" and \n escaped, invalid UTF-8 as U+FFFD. */
void openmetrics_label_value(FILE *f, const char *v);

#endif
