/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SM's traps: subscribed to with InformInfo, received as the SA's Reports and acknowledged, under a poll loop. */
#ifndef FABTOP_MAD_MAD_TRAP_H
#define FABTOP_MAD_MAD_TRAP_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "mad/mad.h"

/*
 * The traps asked for (IBA 14.2.5.1, 13.4.8.2): 64/65 a port's GID in and
 * out of service (the SM's own), 128 a switch's port changed state, 129-131
 * errors past a port's thresholds. opensm forwards 64, 65 and 128 (it acts
 * on 129-131 itself); asking for all costs nothing.
 */
#define MAD_TRAP_NSUB	6
extern const uint16_t mad_trap_numbers[MAD_TRAP_NSUB];

/* Subnet administration (IBA 15.2): the class, its version, the methods and attributes used here. */
#define MAD_METHOD_SET		0x02
#define MAD_METHOD_REPORT	0x06
#define MAD_METHOD_REPORT_RESP	0x86
#define MAD_ATTR_NOTICE		0x0002
#define MAD_ATTR_INFORM_INFO	0x0003
#define MAD_SA_DATA_OFF		56	/* after the RMPP header, SM_Key, AttributeOffset and ComponentMask */
#define MAD_QP1_QKEY_GSI	0x80010000u

/* A Notice (IBA 13.4.8.2) as a Report carries it. */
struct mad_notice {
	bool generic;
	uint8_t type;			/* 0 fatal, 1 urgent, 2 security, 3 SM, 4 informational */
	uint32_t producer;		/* node type of the issuer (1 CA, 2 switch, 3 router, 4 SM) */
	uint16_t trap;
	uint16_t issuer_lid;
	uint16_t lid;			/* 128-131: the LID in the details (128: the switch's) */
	uint8_t port;			/* 129-131: the port */
	uint8_t gid[16];		/* 64/65: the port's GID */
	uint8_t issuer_gid[16];
};

/* What the subscription has done, for the exporter and the pane. */
struct mad_trap_stats {
	bool subscribed;		/* the SA accepted every subscription (and none failed since) */
	uint16_t sm_lid;		/* where they were sent (0: no port to send from yet) */
	uint64_t reports;		/* Reports received and acknowledged */
	uint64_t by_trap[MAD_TRAP_NSUB + 1];	/* by mad_trap_numbers[], the last: any other */
	uint64_t set_failures;		/* InformInfo Sets refused or unanswered */
	char reason[384];		/* why there is no subscription ("" when there is, or while asking) */
};

/* What mad_trap_step() brought. */
#define MAD_TRAP_REPORT	(1u << 0)	/* a Report came: the subnet changed */
#define MAD_TRAP_STATE	(1u << 1)	/* subscribed, or failed: the stats changed */

struct mad_trap;

/* NULL when out of memory; ctx must outlive it. Nothing is opened before the first step. */
struct mad_trap *mad_trap_new(const struct fab_ctx *ctx);
/*
 * The same over a test's transport (mad.h): sm_lid is the SA's LID and
 * Reports are acknowledged there. The transport is used from the first step.
 */
struct mad_trap *mad_trap_new_transport(const struct mad_transport *tp, uint16_t sm_lid);
/* Unsubscribes (best effort: the Sets are sent, not waited for) and frees. */
void mad_trap_free(struct mad_trap *t);
const struct mad_trap_stats *mad_trap_stats(const struct mad_trap *t);

/* The fd to poll (POLLIN) into fds; lower *timeout_ms to the next deadline. */
int mad_trap_fds(const struct mad_trap *t, struct pollfd *fds, int max, int *timeout_ms, uint64_t now_ns);
/* Read and acknowledge Reports, (re)subscribe when due; MAD_TRAP_* bits. Never blocks. */
unsigned int mad_trap_step(struct mad_trap *t, uint64_t now_ns);

/* The wire, apart from I/O (tests feed them recorded MADs). */
void mad_trap_build_inform(uint8_t *buf, uint64_t tid, uint16_t trap, bool subscribe);
/* A Report(Notice): 0 and *n, or MAD_DECODE_TRUNCATED/MALFORMED (not a Report of a Notice). */
int mad_trap_parse_report(const uint8_t *mad, size_t len, struct mad_notice *n);
/* The ReportResp for a Report (the same TID and Notice, method ReportResp) into out[MAD_SIZE]. */
void mad_trap_build_report_resp(uint8_t *out, const uint8_t *report, size_t len);
/*
 * A GetResp to Set(InformInfo): 0 with its TID, trap number and whether
 * the SA accepted it (status 0 and Subscribe still 1), or MAD_DECODE_*.
 */
int mad_trap_parse_inform_resp(const uint8_t *mad, size_t len, uint64_t *tid, uint16_t *trap, bool *accepted);

#endif
