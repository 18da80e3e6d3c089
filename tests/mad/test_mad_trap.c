// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SM's traps: InformInfo built as opensm reads it, its GetResp and a
 * Report of trap 128 parsed from the bytes opensm sent on the ibsim fabric
 * (tests/data/mad/sa_*.bin), and the subscription's whole life over a
 * scripted SA with a fake clock: Sets, answers, Reports acknowledged,
 * retries, giving up, renewal, unsubscribing.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "derive/mad_decode.h"
#include "mad/mad_trap.h"

#define MS 1000000ull
#define S (1000 * MS)

static size_t load(const char *name, uint8_t *buf)
{
	char path[1024];
	const char *top = getenv("TOP_SRCDIR");
	size_t n;
	FILE *f;

	memset(buf, 0, MAD_SIZE);
	snprintf(path, sizeof(path), "%s/tests/data/mad/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f || !(n = fread(buf, 1, MAD_SIZE, f))) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return n;
}

static uint64_t tid_of(const uint8_t *m)
{
	uint64_t t = 0;

	for (int i = 8; i < 16; i++)
		t = t << 8 | m[i];
	return t;
}

static void set_tid(uint8_t *m, uint64_t t)
{
	for (int i = 15; i >= 8; i--, t >>= 8)
		m[i] = (uint8_t)t;
}

static void test_wire(void)
{
	uint8_t rep[MAD_SIZE], resp[MAD_SIZE], gr[MAD_SIZE], set[MAD_SIZE], bad[MAD_SIZE];
	size_t rlen = load("sa_report_trap128.bin", rep), glen = load("sa_inform_resp_trap128.bin", gr);
	static const uint8_t issuer_gid[16] = { 0xfe, 0x80, [13] = 0x20, [15] = 0x04 };
	struct mad_notice n;
	uint64_t tid;
	uint16_t trap;
	bool acc;

	ASSERT_EQ_INT(mad_trap_parse_report(rep, rlen, &n), 0, "opensm's Report of trap 128 parses");
	TAP_OK(n.generic && n.type == 1 && n.producer == 2, "generic, urgent, from a switch");
	ASSERT_EQ_INT(n.trap, 128, "trap 128");
	ASSERT_EQ_INT(n.issuer_lid, 7, "issued by LID 7 (leaf 3)");
	ASSERT_EQ_INT(n.lid, 7, "its details name the switch's LID");
	TAP_OK(!memcmp(n.issuer_gid, issuer_gid, 16), "IssuerGID fe80::20:4, as opensm filled it in");

	mad_trap_build_report_resp(resp, rep, rlen);
	ASSERT_EQ_INT(resp[3], MAD_METHOD_REPORT_RESP, "the acknowledgement is a ReportResp");
	ASSERT_EQ_U64(tid_of(resp), tid_of(rep), "... with the Report's TID");
	TAP_OK(resp[1] == MAD_CLASS_SA && resp[2] == 2 && !memcmp(resp + 16, rep + 16, rlen - 16),
	       "... the SA class, version 2, and the Notice as it came");

	ASSERT_EQ_INT(mad_trap_parse_inform_resp(gr, glen, &tid, &trap, &acc), 0, "opensm's GetResp parses");
	TAP_OK(trap == 128 && acc, "trap 128, accepted");
	ASSERT_EQ_U64(tid & 0xffffffffu, tid_of(gr) & 0xffffffffu, "its TID");

	/* What fabtop sends is what opensm answered to (it echoes the InformInfo it read). */
	mad_trap_build_inform(set, tid, 128, true);
	TAP_OK(set[0] == 1 && set[1] == MAD_CLASS_SA && set[2] == 2 && set[3] == MAD_METHOD_SET &&
	       set[16] == 0 && set[17] == MAD_ATTR_INFORM_INFO, "Set(InformInfo): base 1, SA class version 2");
	TAP_OK(!memcmp(set + MAD_SA_DATA_OFF, gr + MAD_SA_DATA_OFF, 36),
	       "its InformInfo is byte for byte the one opensm accepted and echoed");
	mad_trap_build_inform(set, 1, 65, false);
	TAP_OK(set[MAD_SA_DATA_OFF + 23] == 0 && set[MAD_SA_DATA_OFF + 27] == 65, "unsubscribe: Subscribe 0, trap 65");

	/* Refused, truncated, other MADs. */
	memcpy(bad, gr, glen);
	bad[MAD_SA_DATA_OFF + 23] = 0;
	TAP_OK(!mad_trap_parse_inform_resp(bad, glen, &tid, &trap, &acc) && !acc, "Subscribe 0 in the answer: refused");
	memcpy(bad, gr, glen);
	bad[4] = 0x02;
	TAP_OK(!mad_trap_parse_inform_resp(bad, glen, &tid, &trap, &acc) && !acc, "a status in the answer: refused");
	ASSERT_EQ_INT(mad_trap_parse_inform_resp(gr, glen - 1, &tid, &trap, &acc), MAD_DECODE_TRUNCATED,
		      "a GetResp cut short is refused");
	ASSERT_EQ_INT(mad_trap_parse_report(rep, MAD_SA_DATA_OFF + 79, &n), MAD_DECODE_TRUNCATED,
		      "a Report cut inside its Notice is refused");
	ASSERT_EQ_INT(mad_trap_parse_report(gr, glen, &n), MAD_DECODE_TRUNCATED, "a GetResp is no Report (too short)");
	memcpy(bad, rep, rlen);
	bad[3] = MAD_METHOD_REPORT_RESP;
	ASSERT_EQ_INT(mad_trap_parse_report(bad, rlen, &n), MAD_DECODE_MALFORMED, "a ReportResp is no Report");
	memcpy(bad, rep, rlen);
	bad[1] = MAD_CLASS_PMA;
	ASSERT_EQ_INT(mad_trap_parse_report(bad, rlen, &n), MAD_DECODE_MALFORMED, "another class is no Report");
	memcpy(bad, rep, rlen);
	bad[0] = 0x80;
	ASSERT_EQ_INT(mad_trap_parse_report(bad, rlen, &n), MAD_DECODE_MALFORMED, "an OPA base version is refused");
	memcpy(bad, rep, rlen);
	bad[MAD_SA_DATA_OFF + 4] = 0;
	bad[MAD_SA_DATA_OFF + 5] = 129;
	bad[MAD_SA_DATA_OFF + 12] = 0x01;
	bad[MAD_SA_DATA_OFF + 13] = 0x02;
	bad[MAD_SA_DATA_OFF + 14] = 9;
	TAP_OK(!mad_trap_parse_report(bad, rlen, &n) && n.trap == 129 && n.lid == 0x102 && n.port == 9,
	       "trap 129: the LID and port of its details");
}

/* A scripted SA: records what is sent, answers from a queue. */
struct sa {
	uint8_t sent[64][MAD_SIZE];
	uint16_t sent_dlid[64];
	int nsent;
	uint8_t q[16][MAD_SIZE];
	size_t qlen[16];
	int head, tail;
};

static int sa_send(void *priv, const uint8_t *mad, size_t len, uint16_t dlid, uint32_t qpn)
{
	struct sa *sa = priv;

	(void)qpn;
	if (sa->nsent < 64) {
		memcpy(sa->sent[sa->nsent], mad, len);
		sa->sent_dlid[sa->nsent] = dlid;
	}
	sa->nsent++;
	return 0;
}

static int sa_recv(void *priv, uint8_t *mad, size_t *len, int *status)
{
	struct sa *sa = priv;

	if (sa->head == sa->tail)
		return -EAGAIN;
	*len = sa->qlen[sa->head % 16];
	memcpy(mad, sa->q[sa->head % 16], *len);
	*status = 0;
	sa->head++;
	return 0;
}

static void sa_push(struct sa *sa, const uint8_t *m, size_t len)
{
	memcpy(sa->q[sa->tail % 16], m, len);
	sa->qlen[sa->tail % 16] = len;
	sa->tail++;
}

/* Answer every Set sent since from: opensm's recorded GetResp with the Set's TID and trap (refusing trap `refuse`). */
static void sa_answer(struct sa *sa, int from, unsigned int refuse)
{
	uint8_t gr[MAD_SIZE];
	size_t glen = load("sa_inform_resp_trap128.bin", gr);

	for (int i = from; i < sa->nsent && i < 64; i++) {
		const uint8_t *s = sa->sent[i];

		if (s[3] != MAD_METHOD_SET)
			continue;
		set_tid(gr, tid_of(s));
		memcpy(gr + MAD_SA_DATA_OFF, s + MAD_SA_DATA_OFF, 36);
		gr[MAD_SA_DATA_OFF + 23] = (unsigned int)(s[MAD_SA_DATA_OFF + 26] << 8 | s[MAD_SA_DATA_OFF + 27]) != refuse;
		sa_push(sa, gr, glen);
	}
}

static void test_session(void)
{
	struct sa sa = { 0 };
	struct mad_transport tp = { sa_send, sa_recv, -1, &sa };
	struct mad_trap *t = mad_trap_new_transport(&tp, 1);
	const struct mad_trap_stats *st = mad_trap_stats(t);
	uint8_t rep[MAD_SIZE];
	size_t rlen = load("sa_report_trap128.bin", rep);
	uint64_t now = 100 * S;
	struct pollfd pfd;
	int tmo = -1, n;
	unsigned int got, traps = 0;

	got = mad_trap_step(t, now);
	ASSERT_EQ_INT(sa.nsent, MAD_TRAP_NSUB, "the first step sends one Set(InformInfo) per trap");
	for (int i = 0; i < MAD_TRAP_NSUB; i++)
		traps += (unsigned int)(sa.sent[i][MAD_SA_DATA_OFF + 26] << 8 | sa.sent[i][MAD_SA_DATA_OFF + 27]) ==
			 mad_trap_numbers[i] && sa.sent_dlid[i] == 1 && sa.sent[i][MAD_SA_DATA_OFF + 23] == 1;
	ASSERT_EQ_INT(traps, MAD_TRAP_NSUB, "... subscribing to 64, 65, 128, 129, 130, 131, sent to the SA's LID");
	TAP_OK(!st->subscribed && !got, "not subscribed before the answers");
	n = mad_trap_fds(t, &pfd, 1, &tmo, now);
	TAP_OK(n == 0 && tmo > 0 && tmo <= 100, "no pollable fd: looked at every 100 ms at most (%d ms)", tmo);

	sa_answer(&sa, 0, 0);
	got = mad_trap_step(t, now + 10 * MS);
	TAP_OK(st->subscribed && (got & MAD_TRAP_STATE) && !(got & MAD_TRAP_REPORT), "the answers: subscribed");
	TAP_OK(st->reason[0] == '\0', "no reason given");

	sa_push(&sa, rep, rlen);
	n = sa.nsent;
	got = mad_trap_step(t, now + 20 * MS);
	TAP_OK(got & MAD_TRAP_REPORT, "a Report of trap 128: the step says the subnet changed");
	TAP_OK(st->reports == 1 && st->by_trap[2] == 1, "... counted under 128");
	TAP_OK(sa.nsent == n + 1 && sa.sent[n][3] == MAD_METHOD_REPORT_RESP && tid_of(sa.sent[n]) == tid_of(rep) &&
	       sa.sent_dlid[n] == 1, "... and acknowledged with a ReportResp of its TID to the SA");

	sa_push(&sa, rep, MAD_SA_DATA_OFF + 40);
	n = sa.nsent;
	got = mad_trap_step(t, now + 30 * MS);
	TAP_OK(!(got & MAD_TRAP_REPORT) && sa.nsent == n && st->reports == 1, "a Report cut short: ignored, not acknowledged");
	rep[MAD_SA_DATA_OFF + 5] = 144;
	sa_push(&sa, rep, rlen);
	got = mad_trap_step(t, now + 40 * MS);
	TAP_OK((got & MAD_TRAP_REPORT) && st->by_trap[MAD_TRAP_NSUB] == 1, "a trap not asked for (144): counted as other");

	/* Renewed after 300 s: the SM may have restarted and forgotten. */
	n = sa.nsent;
	mad_trap_step(t, now + 299 * S);
	ASSERT_EQ_INT(sa.nsent, n, "nothing sent before the renewal is due");
	mad_trap_step(t, now + 301 * S);
	ASSERT_EQ_INT(sa.nsent, n + MAD_TRAP_NSUB, "after 300 s every subscription is renewed");
	TAP_OK(st->subscribed, "... still subscribed while the renewal is asked");

	/* The renewal unanswered: sent again each second, three times, then given up for 30 s. */
	mad_trap_step(t, now + 302 * S);
	mad_trap_step(t, now + 303 * S);
	ASSERT_EQ_INT(sa.nsent, n + 3 * MAD_TRAP_NSUB, "unanswered Sets are sent again each second, three times");
	got = mad_trap_step(t, now + 304 * S);
	TAP_OK(!st->subscribed && (got & MAD_TRAP_STATE), "then given up on: no longer subscribed");
	TAP_OK(st->set_failures == 1 && strstr(st->reason, "did not accept"), "... with the reason: %s", st->reason);
	n = sa.nsent;
	mad_trap_step(t, now + 320 * S);
	ASSERT_EQ_INT(sa.nsent, n, "... and nothing sent for 30 s");
	mad_trap_step(t, now + 335 * S);
	ASSERT_EQ_INT(sa.nsent, n + MAD_TRAP_NSUB, "then asked again");

	/* One refused: not subscribed, and the refused one is not asked again at once. */
	sa_answer(&sa, n, 130);
	mad_trap_step(t, now + 335 * S + 10 * MS);
	TAP_OK(!st->subscribed, "the SA refuses trap 130: not subscribed");
	n = sa.nsent;
	mad_trap_step(t, now + 337 * S);
	ASSERT_EQ_INT(sa.nsent, n, "... and the refusal is not asked again at once");

	/* Freeing unsubscribes from what was accepted. */
	n = sa.nsent;
	mad_trap_free(t);
	traps = 0;
	for (int i = n; i < sa.nsent && i < 64; i++)
		traps += sa.sent[i][3] == MAD_METHOD_SET && sa.sent[i][MAD_SA_DATA_OFF + 23] == 0;
	ASSERT_EQ_INT(traps, MAD_TRAP_NSUB - 1, "freed: the five accepted subscriptions are withdrawn (Subscribe 0)");
}

int main(void)
{
	test_wire();
	test_session();
	return tap_done();
}
