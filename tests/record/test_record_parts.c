// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records of format 1.1: the MAD view of the local IB ports and the
 * probe's runs. Each goes through its codec and back unchanged; each body
 * cut at every length and with every byte flipped decodes or says why,
 * never a crash. In a file, the replay source serves them at the cursor:
 * a recorded MAD watch that follows the samples (a partner replaced shows
 * at its sample), show fabric's ports, the probe run in force; a record
 * of a kind this version does not know is skipped.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_watch.h"
#include "source/source.h"
#include "ctx.h"
#include "record/mad.h"
#include "record/probe.h"
#include "record/reader.h"
#include "record/writer.h"
#include "tap.h"
#include "util.h"

static void pma_fill(struct ib_pma *pma, uint16_t lid, uint64_t base)
{
	static const char *const names[] = { "symbol_error", "port_xmit_data", "port_rcv_data" };

	pma->state = IBQ_OK;
	pma->cpi_known = true;
	pma->cap_mask = 0x1200;
	pma->ext = true;
	pma->lid = lid;
	pma->port_select = 1;
	pma->sample_ns = 5000000000ull + base;
	pma->prev_sample_ns = 4000000000ull + base;
	pma->n = 3;
	for (size_t i = 0; i < pma->n; i++) {
		struct fab_counter *c = &pma->c[i];

		snprintf(c->name, sizeof(c->name), "%s", names[i]);
		c->source = COUNTER_SRC_PMA;
		c->kind = i ? COUNTER_KIND_DATA : COUNTER_KIND_ERROR;
		c->bits = i ? 64 : 16;
		c->known = c->prev_known = c->first_known = true;
		c->value = base + 1000 * i + 17;
		c->prev_value = base + 1000 * i;
		c->first_value = 3;
		c->fd = -1;
	}
}

/* Two local ports; the first one's partner is spine (a switch port), the second has no link. */
static void view_fill(struct rec_mad *m, struct ib_local_port *ports, bool *changed, const char *spine,
		      uint8_t spine_port)
{
	memset(m, 0, sizeof(*m));
	memset(ports, 0, 2 * sizeof(*ports));
	for (unsigned int i = 0; i < 2; i++) {
		struct ib_local_port *lp = &ports[i];

		snprintf(lp->ca, sizeof(lp->ca), "mlx5_0");
		lp->port = i + 1;
		snprintf(lp->umad_dev, sizeof(lp->umad_dev), "/dev/infiniband/umad%u", i);
		lp->self_state = IBQ_OK;
		lp->node.node_guid = 0x0002c903000a0b00ull;
		lp->node.node_type = 1;
		lp->node.num_ports = 2;
		snprintf(lp->node.desc, sizeof(lp->node.desc), "hosta mlx5_0");
		lp->pi.num = (uint8_t)(i + 1);
		lp->pi.lid = (uint16_t)(10 + i);
		lp->pi.sm_lid = 1;
		lp->pi.state = i ? 1 : 4;
		lp->pi.phys_state = i ? 3 : 5;
		lp->pi.width = 2;
		lp->pi.speed = 4;
		lp->pi.cap_mask = 0x2651e848;
		lp->sm.state = i ? IBQ_NONE : IBQ_OK;
		lp->sm.lid = 1;
		lp->sm.guid = i ? 0 : 0x0002c90300000001ull;
		lp->sm.sm_state = i ? 0 : 3;
		lp->sm.act_count = i ? 0 : 4242;
		pma_fill(&lp->pma, lp->pi.lid, 1000000ull * (i + 1));
		if (!i) {
			lp->peer_state = IBQ_OK;
			lp->peer.node_guid = spine[6] == 'a' ? 0x200000 : 0x200001;
			lp->peer.node_type = 2;
			snprintf(lp->peer.desc, sizeof(lp->peer.desc), "%s", spine);
			lp->peer_pi.num = spine_port;
			lp->peer_pi.lid = 2;
			lp->peer_pi.state = 4;
			lp->peer_pi.phys_state = 5;
			pma_fill(&lp->peer_pma, 2, 7000000ull);
		} else {
			snprintf(lp->note, sizeof(lp->note), "the link is not up (Polling): no partner to ask");
		}
		changed[i] = false;
	}
	m->news = REC_MAD_REQUERIED;
	m->ports = ports;
	m->changed = changed;
	m->nports = 2;
}

static void probe_fill(struct rec_probe *p, uint64_t run, uint64_t elapsed_ns, enum probe_state state, double gbps)
{
	struct probe_status st;
	struct probe_event ev[3];

	memset(&st, 0, sizeof(st));
	memset(ev, 0, sizeof(ev));
	st.state = state;
	st.mode = PROBE_MODE_BW;
	snprintf(st.local, sizeof(st.local), "10.9.0.1:40000");
	snprintf(st.remote, sizeof(st.remote), "10.9.0.2:7174");
	snprintf(st.device, sizeof(st.device), "rxe0");
	st.port_num = 1;
	st.sgid_index = 1;
	snprintf(st.sgid_type, sizeof(st.sgid_type), "RoCE v2");
	st.size = 65536;
	st.depth = 16;
	st.msgs = 12345;
	st.bytes = 12345ull * 65536;
	st.data_ns = elapsed_ns;
	st.gbps = gbps;
	st.msgs_per_s = gbps * 1e9 / 8 / 65536;
	st.avg_gbps = gbps * 0.9;
	st.lat.n = 10;
	st.lat.min_ns = 1000;
	st.lat.p50_ns = 2000;
	st.lat.p99_ns = 9000;
	st.lat.max_ns = 12000;
	for (unsigned int i = 0; i < 3; i++) {
		ev[i].t_ns = 1000000ull * (i + 1);
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", i == 0 ? "ADDR_RESOLVED" : i == 1 ? "ROUTE_RESOLVED" :
			 "ESTABLISHED");
		snprintf(ev[i].text, sizeof(ev[i].text), "step %u", i);
	}
	st.events = ev;
	st.n_events = 3;
	st.events_total = 3;
	rec_probe_from(p, run, elapsed_ns, "10.9.0.2", "d0", &st);
	p->point = true;
}

/* Every prefix and every flipped byte of body through decode: an answer each time, never a crash. */
static void hostile(const struct rec_buf *b, int (*decode)(const uint8_t *, size_t), const char *what)
{
	uint8_t *copy = malloc(b->len ? b->len : 1);
	size_t cut_err = 0, flip_err = 0;

	for (size_t n = 0; n < b->len; n++)
		cut_err += decode(b->data, n) != 0;
	for (size_t i = 0; copy && i < b->len; i++) {
		memcpy(copy, b->data, b->len);
		copy[i] ^= 0xff;
		flip_err += decode(copy, b->len) != 0;
	}
	TAP_OK(cut_err > 0, "%s: cut at each of %zu lengths: decoded or refused (%zu refused)", what, b->len, cut_err);
	TAP_OK(flip_err > 0, "%s: each byte flipped: decoded or refused (%zu refused)", what, flip_err);
	free(copy);
}

static int mad_decode_bytes(const uint8_t *p, size_t n)
{
	struct rec_cur c;
	struct rec_mad m = { 0 };
	int rc;

	rec_cur_init(&c, p, n, p);
	rc = rec_mad_decode(&c, &m);
	rec_mad_free(&m);
	return rc;
}

static int probe_decode_bytes(const uint8_t *p, size_t n)
{
	struct rec_cur c;
	static struct rec_probe pr;

	rec_cur_init(&c, p, n, p);
	return rec_probe_decode(&c, &pr);
}

static void codecs(void)
{
	struct ib_local_port ports[2];
	bool changed[2];
	struct rec_mad m, got = { 0 };
	struct rec_buf b = { 0 }, again = { 0 };
	struct rec_cur c;
	static struct rec_probe p, q;
	int rc;

	view_fill(&m, ports, changed, "spine-a", 1);
	changed[0] = true;
	rec_mad_encode(&b, &m);
	rec_cur_init(&c, b.data, b.len, b.data);
	rc = rec_mad_decode(&c, &got);
	ASSERT_EQ_INT(rc, 0, "a MAD view decodes");
	ASSERT_EQ_U64(got.nports, 2, "both local ports");
	rec_mad_encode(&again, &got);
	TAP_OK(again.len == b.len && !memcmp(again.data, b.data, b.len), "and encodes again to the same bytes");
	TAP_OK(got.nports == 2 && !strcmp(got.ports[0].peer.desc, "spine-a") && got.ports[0].peer_pi.num == 1 &&
	       got.ports[0].sm.guid == 0x0002c90300000001ull && got.ports[0].sm.act_count == 4242 &&
	       got.ports[0].peer_pma.n == 3 && got.ports[0].peer_pma.c[2].value == 7002017 &&
	       got.ports[0].peer_pma.c[2].prev_value == 7002000 && got.ports[0].peer_pma.c[0].first_value == 3 &&
	       got.ports[0].pma.sample_ns == 5001000000ull && !strcmp(got.ports[1].note, ports[1].note) &&
	       got.changed[0] && !got.changed[1] && got.news == REC_MAD_REQUERIED,
	       "partner, SM, both ends' PMA counters, notes and the partner change come back");
	rec_mad_free(&got);
	hostile(&b, mad_decode_bytes, "MAD view");

	/* No view: only the reason. */
	rec_buf_reset(&b);
	memset(&m, 0, sizeof(m));
	snprintf(m.reason, sizeof(m.reason), "InfiniBand management view: /dev/infiniband/umad0: Permission denied");
	rec_mad_encode(&b, &m);
	rec_cur_init(&c, b.data, b.len, b.data);
	memset(&got, 0, sizeof(got));
	TAP_OK(!rec_mad_decode(&c, &got) && !got.nports && !strcmp(got.reason, m.reason), "no view: its reason");
	rec_mad_free(&got);

	/* A recording is input: the strings it holds are cleaned as they are read (CR, LF, BS, ESC, C1). */
	rec_buf_reset(&b);
	snprintf(m.reason, sizeof(m.reason), "a\r\nb\bc\033]0;t\007\302\233d\233");
	rec_mad_encode(&b, &m);
	rec_cur_init(&c, b.data, b.len, b.data);
	memset(&got, 0, sizeof(got));
	rc = rec_mad_decode(&c, &got);
	ASSERT_EQ_INT(rc, 0, "a recorded string with controls decodes");
	ASSERT_EQ_STR(got.reason, "a??b?c?]0;t???d?", "and comes back cleaned");
	rec_mad_free(&got);

	probe_fill(&p, 2, 3500000000ull, PROBE_RUNNING, 9.5);
	rec_buf_reset(&b);
	rec_probe_encode(&b, &p);
	rec_cur_init(&c, b.data, b.len, b.data);
	rc = rec_probe_decode(&c, &q);
	ASSERT_EQ_INT(rc, 0, "a probe run decodes");
	TAP_OK(q.run == 2 && q.elapsed_ns == 3500000000ull && q.point && q.st.state == PROBE_RUNNING &&
	       q.st.mode == PROBE_MODE_BW && q.st.gbps == 9.5 && q.st.lat.p99_ns == 9000 && q.st.sgid_index == 1 &&
	       !strcmp(q.st.device, "rxe0") && !strcmp(q.peer, "10.9.0.2") && !strcmp(q.from_ifname, "d0") &&
	       q.st.n_events == 3 && q.st.events == q.events && !strcmp(q.events[2].name, "ESTABLISHED"),
	       "its state, numbers, latency, device and CM events come back");
	rec_buf_reset(&again);
	rec_probe_encode(&again, &q);
	TAP_OK(again.len == b.len && !memcmp(again.data, b.data, b.len), "and encode again to the same bytes");
	TAP_OK(q.why.n == 0, "a run that did not fail has no explanation");

	/* a failure with the monitor's explanation of it (a replay cannot ask the live kernel) */
	probe_fill(&p, 3, 900000000ull, PROBE_FAILED, 0);
	snprintf(p.why.line[0], sizeof(p.why.line[0]), "route: traffic from 172.16.34.2 to 172.16.34.10 leaves "
		 "by eth0, not by eth1 which holds 172.16.34.2 (table 254)");
	snprintf(p.why.line[1], sizeof(p.why.line[1]), "see doctor finding 1 (same-subnet-route): two interfaces "
		 "in one subnet");
	p.why.n = 2;
	rec_buf_reset(&b);
	rec_probe_encode(&b, &p);
	rec_cur_init(&c, b.data, b.len, b.data);
	rc = rec_probe_decode(&c, &q);
	ASSERT_EQ_INT(rc, 0, "a failed probe run decodes");
	TAP_OK(q.st.state == PROBE_FAILED && q.why.n == 2 && !strcmp(q.why.line[0], p.why.line[0]) &&
	       !strcmp(q.why.line[1], p.why.line[1]) && q.st.n_events == 3, "with its explanation, line by line");
	rec_buf_reset(&again);
	rec_probe_encode(&again, &q);
	TAP_OK(again.len == b.len && !memcmp(again.data, b.data, b.len), "and encode again to the same bytes");
	hostile(&b, probe_decode_bytes, "probe run");
	rec_buf_free(&b);
	rec_buf_free(&again);
}

static int write_mad(struct rec_writer *w, const char *spine, uint8_t port, bool changed0, uint64_t t)
{
	struct ib_local_port ports[2];
	bool changed[2];
	struct rec_mad m;
	struct rec_buf b = { 0 };
	int rc;

	view_fill(&m, ports, changed, spine, port);
	changed[0] = changed0;
	rec_mad_encode(&b, &m);
	rc = rec_writer_record(w, REC_MAD, b.data, b.len, t, t);
	rec_buf_free(&b);
	return rc;
}

static int write_probe(struct rec_writer *w, enum probe_state state, double gbps, uint64_t t)
{
	static struct rec_probe p;
	struct rec_buf b = { 0 };
	int rc;

	probe_fill(&p, 1, t, state, gbps);
	rec_probe_encode(&b, &p);
	rc = rec_writer_record(w, REC_PROBE, b.data, b.len, t, t);
	rec_buf_free(&b);
	return rc;
}

/* Samples 0..9; the MAD view at 0 (spine-a), at 6 (spine-b: replaced); probe records at 3 and 4; an unknown record at 5. */
static void in_a_file(void)
{
	char path[] = "fabtop-test-parts-XXXXXX", err[768];
	struct fab_ctx ctx, rctx;
	struct source *src, *rsrc;
	struct fab_host h, rh;
	struct rec_info info = { .interval_s = 1 };
	struct rec_reader r;
	struct rec_writer *w;
	struct mad_watch *mw;
	const struct ib_local_port *lp;
	struct source_rec sr;
	struct ib_fabric f;
	struct mad_fabric *v = NULL;
	uint64_t t = 1000000000ull;
	int fd = mkstemp(path), rc = 0;

	close(fd);
	ctx_init(&ctx);
	ctx.demo = true;
	ctx.seed = 7;
	src = source_open(&ctx);
	memset(&h, 0, sizeof(h));
	TAP_OK(src && !source_collect(src, &h, COLLECT_ALL), "a host to record");
	info.start_mono_ns = info.start_wall_ns = t;
	w = rec_writer_open(path, &info, err, sizeof(err));
	TAP_OK(w != NULL, "a recording is written");
	if (!w)
		return;
	rc |= rec_writer_host(w, &h, t, t);
	rc |= write_mad(w, "spine-a", 1, false, t + 1);
	for (int i = 1; i < 10; i++) {
		t += 1000000000ull;
		source_refresh(src, &h, t);
		rc |= rec_writer_sample(w, &h, t, t);
		if (i == 3)
			rc |= write_probe(w, PROBE_RUNNING, 9.5, t + 1);
		if (i == 4)
			rc |= write_probe(w, PROBE_DONE, 0, t + 1);
		if (i == 5)
			rc |= rec_writer_record(w, (enum rec_record)42, "future", 6, t + 1, t + 1);
		if (i == 6)
			rc |= write_mad(w, "spine-b", 4, true, t + 1);
	}
	rc |= rec_writer_close(w);
	ASSERT_EQ_INT(rc, 0, "MAD views, probe runs and a record of an unknown kind are written");
	fab_host_free(&h);
	source_close(src);

	rc = rec_reader_open(&r, path, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "the file reads (the unknown record skipped)");
	if (rc) {
		printf("# %s\n", err);
		unlink(path);
		return;
	}
	ASSERT_EQ_U64(r.nsamples, 10, "ten samples");
	TAP_OK(rec_reader_last(&r, 0, REC_MAD, (size_t)-1) != (size_t)-1 &&
	       rec_reader_last(&r, 5, REC_MAD, (size_t)-1) == rec_reader_last(&r, 0, REC_MAD, (size_t)-1) &&
	       rec_reader_last(&r, 6, REC_MAD, (size_t)-1) != rec_reader_last(&r, 5, REC_MAD, (size_t)-1) &&
	       rec_reader_last(&r, 2, REC_PROBE, (size_t)-1) == (size_t)-1,
	       "the record in force at a sample is the last one before the next sample");

	ctx_init(&rctx);
	rctx.replay = &r;
	rctx.replay_pos = 0;
	rsrc = source_open(&rctx);
	memset(&rh, 0, sizeof(rh));
	TAP_OK(rsrc && !source_collect(rsrc, &rh, COLLECT_ALL), "the replay source opens");
	mw = source_mad_watch(rsrc);
	TAP_OK(mw && mad_watch_open(mw, &rh, 1, util_now_ns()) && mad_watch_has_view(mw),
	       "the replay gives a recorded MAD watch, opened on the recorded ports");
	TAP_OK(mad_watch_fds(mw, false, NULL, 0, NULL, 0) == 0, "which has nothing to poll (it never sends a MAD)");
	ASSERT_EQ_INT(mad_watch_handle(mw, false, 1, util_now_ns()), MAD_WATCH_REQUERIED,
		      "its first news is the recorded one");
	lp = mad_watch_port(mw, "mlx5_0", 1, NULL);
	TAP_OK(lp && lp->peer_state == IBQ_OK && !strcmp(lp->peer.desc, "spine-a") && !mw->partner[0].changed,
	       "port 1's partner at sample 0: spine-a");
	ASSERT_EQ_INT(mad_watch_handle(mw, false, 1, util_now_ns()), MAD_WATCH_NOTHING, "nothing new at the same sample");
	for (int i = 1; i <= 5; i++)
		source_refresh(rsrc, &rh, 0);
	ASSERT_EQ_INT(mad_watch_handle(mw, false, 1, util_now_ns()), MAD_WATCH_NOTHING, "nothing new up to sample 5");
	TAP_OK(source_recorded(rsrc, REC_PROBE, (size_t)-1, &sr), "the probe run in force at sample 5");
	{
		static struct rec_probe p;
		struct rec_cur c;

		rec_cur_init(&c, sr.body, sr.len, NULL);
		TAP_OK(!rec_probe_decode(&c, &p) && p.st.state == PROBE_DONE, "is the last one recorded: done");
		TAP_OK(source_recorded(rsrc, REC_PROBE, sr.index, &sr), "walking back: the one before");
		rec_cur_init(&c, sr.body, sr.len, NULL);
		TAP_OK(!rec_probe_decode(&c, &p) && p.st.state == PROBE_RUNNING && p.st.gbps == 9.5,
		       "running at 9.5 Gb/s");
		TAP_OK(!source_recorded(rsrc, REC_PROBE, sr.index, &sr), "and none before it");
	}
	source_refresh(rsrc, &rh, 0);
	ASSERT_EQ_INT(mad_watch_handle(mw, false, 1, util_now_ns()), MAD_WATCH_REQUERIED,
		      "at sample 6 the recorded re-query comes");
	lp = mad_watch_port(mw, "mlx5_0", 1, NULL);
	TAP_OK(lp && !strcmp(lp->peer.desc, "spine-b") && lp->peer_pi.num == 4 && mw->partner[0].changed,
	       "with the new partner (spine-b port 4), marked as changed");
	TAP_OK(rsrc->ops->fabric && !rsrc->ops->fabric(rsrc, &f, &v) && f.nports == 2 && !v &&
	       !strcmp(f.ports[0].peer.desc, "spine-b"), "show fabric's local ports at the cursor, no session");
	ib_fabric_free(&f);
	source_seek(rsrc, &rh, SOURCE_SEEK_SAMPLE, 2);
	mad_watch_handle(mw, false, 1, util_now_ns());
	lp = mad_watch_port(mw, "mlx5_0", 1, NULL);
	TAP_OK(lp && !strcmp(lp->peer.desc, "spine-a"), "a jump back brings spine-a back");
	mad_watch_free(mw);
	fab_host_free(&rh);
	source_close(rsrc);
	rec_reader_close(&r);
	unlink(path);
}

int main(void)
{
	codecs();
	in_a_file();
	return tap_done();
}
