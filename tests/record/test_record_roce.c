// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE chain record (format 1.3). Its codec gives every field of
 * every port back, counters with their known flags, an APP table of 128
 * entries; it refuses a 129th entry, a ninth trust selector and more ports
 * than the budget, fast; a cut or flipped body decodes or says why. The
 * recorder writes a chain only when it differs from the last one written
 * (not for its time alone), from the chain in force when recording starts;
 * the replay source serves the chain in force at the cursor, says so when
 * another comes into force, and says there is none in a recording without
 * it. A file whose chain asks too much is refused at open, naming it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"
#include "ctx.h"
#include "record/reader.h"
#include "record/roce.h"
#include "record/schema.h"
#include "record/writer.h"
#include "tap.h"
#include "util.h"

/* Field numbers of doc/recording.md's RoCE chain message, to write what the encoder never would. */
enum { F_PORT = 1, F_DCB = 10, F_APP = 20, F_PFC_REQUESTS = 21, DCB_NTRUST = 15 };

/* Every field of a port set, none to its zero; port i's values differ from port 0's. */
static void port_fill(struct roce_port *rp, unsigned int i)
{
	struct roce_dcb *d = &rp->dcb;
	struct roce_ethtool *e = &rp->eth;

	memset(rp, 0, sizeof(*rp));
	snprintf(rp->dev, sizeof(rp->dev), "mlx5_%u", i);
	rp->port = 1 + i;
	snprintf(rp->netdev, sizeof(rp->netdev), "enp65s0f%u", i);
	rp->recorded = true;
	d->err = i ? -EOPNOTSUPP : 0;
	d->has_ets = d->has_pfc = d->has_dcbx = d->has_trust = true;
	d->ets_cap = 8;
	for (unsigned int p = 0; p < ROCE_PRIOS; p++) {
		d->prio_tc[p] = (uint8_t)(7 - p);
		d->tc_tx_bw[p] = (uint8_t)(10 + p);
		d->tc_tsa[p] = p == 7 ? 255 : 2;
		d->pfc_requests[p] = 1000ull * p + i;
		d->pfc_indications[p] = (1ull << 40) + p;	/* past 32 bits */
		d->trust[p] = p ? ROCE_APP_SEL_DSCP : ROCE_APP_SEL_PCP;
	}
	d->pfc_cap = 8;
	d->pfc_en = 0x08 | i;
	d->pfc_delay = 0x1234;
	/* the whole table, the last entry too: 64 DSCP values, 63 ethertypes and one to priority 0 */
	for (unsigned int a = 0; a < ROCE_MAX_APPS; a++)
		d->apps[a] = (struct roce_app){ .selector = a < 64 ? ROCE_APP_SEL_DSCP : ROCE_APP_SEL_ETHERTYPE,
						.priority = (uint8_t)(a % 8), .protocol = a < 64 ? (uint16_t)a :
						(uint16_t)(0x8900 + a) };
	d->apps[ROCE_MAX_APPS - 1].protocol = 0xffff;
	d->napps = ROCE_MAX_APPS;
	d->apps_dropped = 3;
	d->ntrust = ROCE_MAX_TRUST;
	d->dcbx = 0x0a;
	d->unknown_attrs = 2;
	e->err = i ? -ENODEV : 0;
	e->nstats = 412;
	e->nmatched = 26;
	/* every counter known but one a priority, one port-wide and one cc (unknown stays unknown); some at 0 */
	for (unsigned int k = 0; k < ROCE_PRIO_NCTRS; k++)
		for (unsigned int p = 0; p < ROCE_PRIOS; p++)
			e->prio[k][p] = (struct roce_ctr){ .known = !(k == 2 && p == 5),
							   .value = k == 2 && p == 5 ? 0 : (k == 1 ? 0 : 100ull * k + p + i) };
	for (unsigned int k = 0; k < ROCE_PORT_NCTRS; k++)
		e->port[k] = (struct roce_ctr){ .known = k != 3, .value = k == 3 ? 0 : UINT64_MAX - k };
	e->pause_err = i ? -ENOENT : 0;
	e->pause_known = true;
	e->pause_autoneg = e->pause_rx = e->pause_tx = true;
	for (unsigned int r = 0; r < ROCE_CC_ROLES; r++)
		rp->cc[r] = (struct roce_ctr){ .known = r != 4, .value = r == 4 ? 0 : 5000ull + r };
	rp->tos.known = true;
	rp->tos.value = 106;
	snprintf(rp->roce_mode, sizeof(rp->roce_mode), "IB/RoCE v1");
	rp->ecn.known = true;
	for (unsigned int p = 0; p < ROCE_PRIOS; p++) {
		rp->ecn.np_known[p] = rp->ecn.rp_known[p] = p != 6;
		rp->ecn.np[p] = p == 3;
		rp->ecn.rp[p] = p == 3 || p == 4;
	}
	rp->has_v2_gids = true;
}

/* A state of n ports into ports (zeroed so that whole ports compare). */
static void state_fill(struct roce_state *st, struct roce_port *ports, size_t n, uint64_t t_ns)
{
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++)
		port_fill(&ports[i], (unsigned int)i);
	st->ports = ports;
	st->nports = n;
	st->t_ns = t_ns;
}

static int decode_bytes(const uint8_t *p, size_t n, struct roce_state *st, struct rec_cur *c)
{
	memset(st, 0, sizeof(*st));
	rec_cur_init(c, p, n, p);
	return rec_roce_decode(c, st);
}

static int decode_only(const uint8_t *p, size_t n)
{
	struct roce_state st;
	struct rec_cur c;
	int rc = decode_bytes(p, n, &st, &c);

	roce_state_free(&st);
	return rc;
}

/* Which field of port 0 first differs, for the message of a failed comparison. */
static const char *first_diff(const struct roce_port *a, const struct roce_port *b)
{
	static const struct { const char *name; size_t off, size; } parts[] = {
#define P(f) { #f, offsetof(struct roce_port, f), sizeof(((struct roce_port *)0)->f) }
		P(dev), P(port), P(netdev), P(recorded), P(dcb), P(eth), P(cc), P(tos), P(roce_mode), P(ecn),
		P(has_v2_gids),
#undef P
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (memcmp((const char *)a + parts[i].off, (const char *)b + parts[i].off, parts[i].size))
			return parts[i].name;
	return "none";
}

static void codec(void)
{
	static struct roce_port ports[2];
	struct roce_state st, got;
	struct rec_buf b = { 0 }, again = { 0 }, later = { 0 };
	struct rec_cur c;
	size_t chain, chain_later, cut_err = 0, flip_err = 0;
	uint8_t *copy;
	int rc;

	state_fill(&st, ports, 2, 7000000001ull);
	chain = rec_roce_encode(&b, &st);
	rc = decode_bytes(b.data, b.len, &got, &c);
	ASSERT_EQ_INT(rc, 0, "a chain of two ports decodes");
	ASSERT_EQ_U64(got.nports, 2, "both ports");
	ASSERT_EQ_U64(got.t_ns, st.t_ns, "its time");
	for (size_t i = 0; i < 2 && got.nports == 2; i++) {
		const char *d = first_diff(&got.ports[i], &ports[i]);

		TAP_OK(!strcmp(d, "none"), "port %zu comes back whole (the first field that differs: %s)", i, d);
	}
	TAP_OK(got.nports && got.ports[0].dcb.napps == 128 && got.ports[0].dcb.apps[127].protocol == 0xffff &&
	       got.ports[0].dcb.apps[127].selector == ROCE_APP_SEL_ETHERTYPE && got.ports[0].dcb.apps[127].priority == 7,
	       "all 128 APP entries, the last one too");
	TAP_OK(got.nports && !got.ports[0].eth.prio[2][5].known && got.ports[0].eth.prio[1][0].known &&
	       !got.ports[0].eth.prio[1][0].value && !got.ports[0].eth.port[3].known && !got.ports[0].cc[4].known &&
	       got.ports[0].eth.port[0].value == UINT64_MAX,
	       "known counters at 0 stay known, unknown ones unknown, 64-bit values whole");
	TAP_OK(got.nports == 2 && got.ports[1].dcb.err == -EOPNOTSUPP && got.ports[1].eth.err == -ENODEV &&
	       got.ports[1].eth.pause_err == -ENOENT, "the answers' errors, negative");
	rec_roce_encode(&again, &got);
	TAP_OK(again.len == b.len && !memcmp(again.data, b.data, b.len), "and encodes again to the same bytes");
	roce_state_free(&got);

	/* two reads of one chain differ by their time alone: the bytes before it are equal */
	st.t_ns += 1000000000ull;
	chain_later = rec_roce_encode(&later, &st);
	TAP_OK(chain == chain_later && !memcmp(b.data, later.data, chain) &&
	       (later.len != b.len || memcmp(b.data, later.data, b.len)),
	       "a later read of the same chain: the same chain bytes (%zu), another time", chain);
	ports[1].dcb.pfc_en ^= 0x10;
	rec_buf_reset(&later);
	chain_later = rec_roce_encode(&later, &st);
	TAP_OK(chain != chain_later || memcmp(b.data, later.data, chain), "PFC changed on one priority: other chain bytes");
	ports[1].dcb.pfc_en ^= 0x10;

	/* no port: an empty chain (a host without RoCE ports) */
	rec_buf_reset(&again);
	st.nports = 0;
	st.t_ns = 0;
	ASSERT_EQ_U64(rec_roce_encode(&again, &st), 0, "a chain without ports is no bytes");
	TAP_OK(!decode_bytes(again.data, again.len, &got, &c) && !got.nports && !got.ports, "and decodes to none");

	/* every prefix and every flipped byte: an answer each time, never a crash (ASan, valgrind) */
	for (size_t n = 0; n < b.len; n++)
		cut_err += decode_only(b.data, n) != 0;
	copy = malloc(b.len);
	for (size_t i = 0; copy && i < b.len; i++) {
		memcpy(copy, b.data, b.len);
		copy[i] ^= 0xff;
		flip_err += decode_only(copy, b.len) != 0;
	}
	free(copy);
	TAP_OK(cut_err > 0, "cut at each of %zu lengths: decoded or refused (%zu refused)", b.len, cut_err);
	TAP_OK(flip_err > 0, "each byte flipped: decoded or refused (%zu refused)", flip_err);
	rec_buf_free(&b);
	rec_buf_free(&again);
	rec_buf_free(&later);
}

/* One port whose DCB message holds napps APP entries, ntrust and nprios PFC request counts. */
static void hostile_port(struct rec_buf *b, unsigned int napps, unsigned int ntrust, unsigned int nprios)
{
	size_t port = rec_put_begin(b, F_PORT), dcb;

	rec_put_str(b, 1, "mlx5_0");
	dcb = rec_put_begin(b, F_DCB);
	rec_put_uint(b, DCB_NTRUST, ntrust);
	for (unsigned int a = 0; a < napps; a++) {
		struct roce_app app = { .selector = ROCE_APP_SEL_DSCP, .priority = 3, .protocol = (uint16_t)a };

		rec_put_msg(b, F_APP, &rec_roce_app_table, &app);
	}
	if (nprios) {
		size_t m = rec_put_begin(b, F_PFC_REQUESTS);

		for (unsigned int p = 0; p < nprios; p++)
			rec_put_varint(b, p + 1);
		rec_put_end(b, m);
	}
	rec_put_end(b, dcb);
	/* a field of a later version, in the port: skipped */
	rec_put_uint(b, 99, 1);
	rec_put_end(b, port);
}

static void refused(void)
{
	struct rec_buf b = { 0 };
	struct roce_state got;
	struct rec_cur c;
	uint64_t t0;
	int rc;

	hostile_port(&b, 128, 8, 8);
	rc = decode_bytes(b.data, b.len, &got, &c);
	TAP_OK(rc == 0 && got.nports == 1 && got.ports[0].dcb.napps == 128 && got.ports[0].dcb.ntrust == 8 &&
	       got.ports[0].dcb.pfc_requests[7] == 8, "128 APP entries, 8 trust selectors, 8 priorities: read "
	       "(an unknown field skipped)");
	roce_state_free(&got);

	rec_buf_reset(&b);
	hostile_port(&b, 129, 8, 0);
	rc = decode_bytes(b.data, b.len, &got, &c);
	ASSERT_EQ_INT(rc, -EINVAL, "a 129th APP entry is refused");
	ASSERT_EQ_STR(c.err, "at most 128 APP entries in a port's DCB (the most the collector keeps)", "saying why");
	TAP_OK(!got.ports && !got.nports, "and nothing is left allocated");

	rec_buf_reset(&b);
	hostile_port(&b, 2, 9, 0);
	rc = decode_bytes(b.data, b.len, &got, &c);
	ASSERT_EQ_INT(rc, -EINVAL, "a trust order of 9 selectors is refused");
	ASSERT_EQ_STR(c.err, "at most 8 selectors in a port's DCB trust order (the most the collector keeps)",
		      "saying why");

	rec_buf_reset(&b);
	hostile_port(&b, 2, 1, 9);
	rc = decode_bytes(b.data, b.len, &got, &c);
	ASSERT_EQ_INT(rc, -EINVAL, "PFC counts of 9 priorities are refused");
	ASSERT_EQ_STR(c.err, "at most 8 priorities' counts (IEEE 802.1Q has 8)", "saying why");

	/* 2 bytes in a file, 1.9 KB decoded: past the budget in 35 KB */
	rec_buf_reset(&b);
	for (size_t i = 0; i <= REC_DECODE_BUDGET / sizeof(struct roce_port); i++)
		rec_put_bytes(&b, F_PORT, NULL, 0);
	t0 = util_now_ns();
	rc = decode_bytes(b.data, b.len, &got, &c);
	ASSERT_EQ_INT(rc, -EINVAL, "empty ports past the 32 MiB budget are refused");
	ASSERT_EQ_STR(c.err, REC_DECODE_BUDGET_TEXT, "saying why");
	TAP_OK(util_now_ns() - t0 < 1000000000ull, "in well under a second (%zu bytes)", b.len);
	rec_buf_free(&b);
}

/*
 * A source whose chain the test sets (its host, network and samples are the
 * demo's), under the recorder as source_open() puts every live source.
 */
static struct roce_port fake_ports[1];
static uint64_t fake_t_ns;

static int fake_open(struct source *s)
{
	s->priv = source_open_ops(s->ctx, &source_demo_ops);
	return s->priv ? 0 : -ENOMEM;
}

static int fake_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	return source_collect(s->priv, h, what);
}

static bool fake_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	return source_refresh(s->priv, h, now_ns);
}

static int fake_net(struct source *s, struct net_state *st)
{
	return source_net(s->priv, st);
}

/* A copy of the chain the test set, read a second later each time. */
static int fake_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	(void)s;
	(void)h;
	st->ports = malloc(sizeof(fake_ports));
	if (!st->ports)
		return -ENOMEM;
	memcpy(st->ports, fake_ports, sizeof(fake_ports));
	st->nports = 1;
	st->t_ns = fake_t_ns += 1000000000ull;
	return 0;
}

static void fake_close(struct source *s)
{
	source_close(s->priv);
}

static const struct source_ops fake_ops = {
	.name = "fake", .open = fake_open, .collect = fake_collect, .refresh = fake_refresh, .net = fake_net,
	.roce = fake_roce, .close = fake_close,
};

/* The chain in force at sample i of a replay: its PFC enables, -1 when there is none. */
static int pfc_at(struct source *rsrc, struct fab_host *rh, size_t i, uint64_t *t_ns)
{
	struct roce_state st;
	int rc, pfc;

	source_seek(rsrc, rh, SOURCE_SEEK_SAMPLE, (int64_t)i);
	rc = source_roce(rsrc, rh, &st);
	pfc = rc ? rc : st.nports == 1 ? st.ports[0].dcb.pfc_en : -2;
	if (t_ns)
		*t_ns = st.t_ns;
	roce_state_free(&st);
	return pfc;
}

static void recorded(void)
{
	char path[] = "fabtop-test-roce-XXXXXX", err[768];
	struct fab_ctx ctx, rctx;
	struct source *src, *rsrc;
	struct fab_host h, rh;
	struct net_state net;
	struct roce_state st;
	struct rec_reader r;
	size_t n = 0;
	uint64_t t = 1000000000ull, t_ns = 0;
	bool structure[3] = { false };
	int fd = mkstemp(path);

	close(fd);
	ctx_init(&ctx);
	ctx.demo = true;
	ctx.seed = 7;
	port_fill(&fake_ports[0], 0);
	src = source_recorder_wrap(source_open_ops(&ctx, &fake_ops));
	memset(&h, 0, sizeof(h));
	memset(&net, 0, sizeof(net));
	TAP_OK(src && !source_collect(src, &h, COLLECT_ALL) && !source_net(src, &net), "a host to record");
	if (!src)
		return;
	/* read before recording starts, as the first look of the monitor and of fabtop record read it */
	TAP_OK(!source_roce(src, &h, &st) && st.nports == 1, "the chain through the recorder, not recording");
	roce_state_free(&st);
	TAP_OK(!source_record_start(src, path, &h, &net, err, sizeof(err)), "recording starts");
	for (int i = 1; i <= 4; i++) {
		source_refresh(src, &h, t += 1000000000ull);
		/* read twice a sample, as the doctor and the RoCE pane may: time alone is no change */
		for (int k = 0; k < 2; k++) {
			fake_ports[0].dcb.pfc_en = i >= 3 ? 0 : 0x08;
			source_roce(src, &h, &st);
			roce_state_free(&st);
		}
	}
	TAP_OK(!source_record_stop(src), "recording stops");
	fab_host_free(&h);
	net_state_free(&net);
	source_close(src);

	if (rec_reader_open(&r, path, err, sizeof(err))) {
		TAP_OK(0, "the recording reads: %s", err);
		unlink(path);
		return;
	}
	ASSERT_EQ_U64(r.nsamples, 5, "five samples");
	for (size_t k = (size_t)-1; (k = rec_reader_last(&r, r.nsamples - 1, REC_ROCE, k)) != (size_t)-1;)
		n++;
	ASSERT_EQ_U64(n, 2, "two chains written of nine read: the one in force at the start, and PFC off at 3");

	ctx_init(&rctx);
	rctx.replay = &r;
	rsrc = source_open(&rctx);
	memset(&rh, 0, sizeof(rh));
	TAP_OK(rsrc && !source_collect(rsrc, &rh, COLLECT_ALL), "the replay source opens");
	ASSERT_EQ_INT(pfc_at(rsrc, &rh, 0, &t_ns), 0x08, "sample 0: the chain in force when recording started");
	ASSERT_EQ_U64(t_ns, 1000000000ull, "read at its own time");
	ASSERT_EQ_INT(pfc_at(rsrc, &rh, 2, NULL), 0x08, "sample 2: the same");
	ASSERT_EQ_INT(pfc_at(rsrc, &rh, 3, &t_ns), 0, "sample 3: PFC off");
	ASSERT_EQ_U64(t_ns, 6000000000ull, "read at its own time");
	ASSERT_EQ_INT(pfc_at(rsrc, &rh, 4, NULL), 0, "sample 4: still off");
	/* from sample 1 (at 0 the network state is not in force yet: the step to 1 says so for it) */
	source_seek(rsrc, &rh, SOURCE_SEEK_SAMPLE, 1);
	for (int i = 0; i < 3; i++)
		structure[i] = source_refresh(rsrc, &rh, 0);
	TAP_OK(!structure[0] && structure[1] && !structure[2],
	       "played on, the step to sample 3 alone says so (another chain came into force): %d %d %d",
	       structure[0], structure[1], structure[2]);
	{
		struct roce_port *p = malloc(sizeof(*p));

		port_fill(p, 0);
		p->dcb.pfc_en = 0;
		TAP_OK(!source_roce(rsrc, &rh, &st) && st.nports == 1 && !memcmp(&st.ports[0], p, sizeof(*p)),
		       "the replayed chain is the one read, whole");
		roce_state_free(&st);
		free(p);
	}
	fab_host_free(&rh);
	source_close(rsrc);
	rec_reader_close(&r);
	unlink(path);
}

/* A recording of samples and, when roce is set, one chain record of that body. */
static int write_file(const char *path, const struct rec_buf *roce, char *err, size_t errlen)
{
	struct fab_ctx ctx;
	struct source *src;
	struct fab_host h = { 0 };
	struct rec_info info = { .interval_s = 1, .start_mono_ns = 1, .start_wall_ns = 1 };
	struct rec_writer *w;
	int rc = 0;

	ctx_init(&ctx);
	ctx.demo = true;
	src = source_open_ops(&ctx, &source_demo_ops);
	if (!src || source_collect(src, &h, COLLECT_ALL) || !(w = rec_writer_open(path, &info, err, errlen))) {
		fab_host_free(&h);
		source_close(src);
		return -1;
	}
	rc |= rec_writer_host(w, &h, 2, 2);
	if (roce)
		rc |= rec_writer_record(w, REC_ROCE, roce->data, roce->len, 3, 3);
	source_refresh(src, &h, 1000000002ull);
	rc |= rec_writer_sample(w, &h, 1000000002ull, 1000000002ull);
	rc |= rec_writer_close(w);
	fab_host_free(&h);
	source_close(src);
	return rc;
}

static void in_files(void)
{
	char path[] = "fabtop-test-roce-XXXXXX", err[768];
	struct fab_ctx rctx;
	struct rec_reader r;
	struct rec_buf b = { 0 };
	struct source *rsrc;
	struct fab_host rh = { 0 };
	struct roce_state st;
	int fd = mkstemp(path), rc;

	close(fd);
	TAP_OK(!write_file(path, NULL, err, sizeof(err)) && !rec_reader_open(&r, path, err, sizeof(err)),
	       "a recording without a RoCE chain (a fabtop before 1.3) reads");
	ctx_init(&rctx);
	rctx.replay = &r;
	rsrc = source_open(&rctx);
	TAP_OK(rsrc && !source_collect(rsrc, &rh, COLLECT_ALL), "and replays");
	rc = rsrc ? source_roce(rsrc, &rh, &st) : 0;
	ASSERT_EQ_INT(rc, -EOPNOTSUPP, "its chain: none, as a source without one");
	fab_host_free(&rh);
	source_close(rsrc);
	rec_reader_close(&r);

	hostile_port(&b, 129, 1, 0);
	TAP_OK(!write_file(path, &b, err, sizeof(err)), "a recording whose chain holds 129 APP entries is written");
	rc = rec_reader_open(&r, path, err, sizeof(err));
	TAP_OK(rc != 0 && strstr(err, "a RoCE chain record") && strstr(err, "at most 128 APP entries"),
	       "and refused at open, naming the record and why: %s", rc ? err : "(read)");
	if (!rc)
		rec_reader_close(&r);
	rec_buf_free(&b);
	unlink(path);
}

int main(void)
{
	codec();
	refused();
	recorded();
	in_files();
	return tap_done();
}
