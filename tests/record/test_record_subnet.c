// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The subnet record (format 1.2): the Fabric pane's nodes, ports, PMA
 * samples, links and lost links come back; hostile bodies (cut, flipped,
 * links to nodes that are not there, more than the budget) are refused
 * with what was expected, never a crash; in a file the record in force at
 * a sample is served, a corrupt one is the file's error at open naming the
 * record, and a subnet body under a record type this reader does not know
 * (what a 1.1 reader sees of type 10) is skipped.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "record/file.h"
#include "record/reader.h"
#include "record/subnet.h"
#include "record/writer.h"
#include "source/source.h"
#include "tap.h"

static void pma_fill(struct ib_pma *pma, uint16_t lid, uint64_t sym)
{
	static const char *const names[] = { "symbol_error", "port_xmit_data", "port_xmit_wait" };

	pma->state = IBQ_OK;
	pma->lid = lid;
	pma->port_select = 1;
	pma->tick_state = IBQ_OK;
	pma->tick = 7;
	pma->sample_ns = 5000000000ull;
	pma->prev_sample_ns = 4000000000ull;
	pma->n = 3;
	for (size_t i = 0; i < pma->n; i++) {
		struct fab_counter *c = &pma->c[i];

		snprintf(c->name, sizeof(c->name), "%s", names[i]);
		c->source = COUNTER_SRC_PMA;
		c->kind = i == 0 ? COUNTER_KIND_ERROR : i == 1 ? COUNTER_KIND_DATA : COUNTER_KIND_WAIT;
		c->bits = i == 1 ? 64 : 32;
		c->known = c->prev_known = c->first_known = true;
		c->value = sym + 1000 * i;
		c->prev_value = 1000 * i;
		c->fd = -1;
	}
}

/* A switch (GUID 20, 2 ports) cabled to a CA (GUID 11) on its port 1; port 2 up, far end unknown; a lost link. */
static void subnet_fill(struct rec_subnet *s)
{
	struct ib_fnode *n;

	memset(s, 0, sizeof(*s));
	s->news = REC_SUBNET_SAMPLED;
	s->sweeps = 3;
	snprintf(s->status, sizeof(s->status), "sampling 3 ports");
	s->f.nnodes = 2;
	s->f.nodes = n = calloc(2, sizeof(*n));
	n[0].id = (struct ib_node_id){ .node_guid = 20, .node_type = 2, .num_ports = 2 };
	snprintf(n[0].id.desc, sizeof(n[0].id.desc), "leaf 1");
	n[0].lid = 4;
	n[1].id = (struct ib_node_id){ .node_guid = 11, .node_type = 1, .num_ports = 1 };
	snprintf(n[1].id.desc, sizeof(n[1].id.desc), "h1 mlx5_0");
	n[0].ports = calloc(3, sizeof(*n[0].ports));
	n[1].ports = calloc(2, sizeof(*n[1].ports));
	for (unsigned int p = 1; p <= 2; p++)
		n[0].ports[p] = (struct ib_fport){ .known = true, .pi = { .num = (uint8_t)p, .state = 4, .phys_state = 5,
									   .width = 2, .speed = 4 } };
	n[1].ports[1] = (struct ib_fport){ .known = true, .linked = true, .peer = 0, .peer_port = 1,
					   .pi = { .num = 1, .lid = 9, .state = 4, .phys_state = 5, .width = 2, .speed = 4 } };
	n[0].ports[1].linked = true;
	n[0].ports[1].peer = 1;
	n[0].ports[1].peer_port = 1;
	n[0].ports[1].pma = calloc(1, sizeof(struct ib_pma));
	n[1].ports[1].pma = calloc(1, sizeof(struct ib_pma));
	pma_fill(n[0].ports[1].pma, 4, 5);
	pma_fill(n[1].ports[1].pma, 9, 0);
	s->f.nlinks = 1;
	s->f.links = calloc(1, sizeof(*s->f.links));
	s->f.links[0] = (struct ib_link){ .a = 0, .b = 1, .a_port = 1, .b_port = 1 };
	s->nlost = 1;
	s->lost = calloc(1, sizeof(*s->lost));
	s->lost[0].a.node_guid = 30;
	snprintf(s->lost[0].a.desc, sizeof(s->lost[0].a.desc), "leaf 9");
	s->lost[0].a_port = 2;
	snprintf(s->lost[0].why, sizeof(s->lost[0].why), "port DOWN/Polling");
}

static int decode_bytes(const uint8_t *p, size_t n, struct rec_subnet *out, const char **err)
{
	struct rec_cur c;
	int rc;

	rec_cur_init(&c, p, n, p);
	memset(out, 0, sizeof(*out));
	rc = rec_subnet_decode(&c, out);
	*err = c.err;
	return rc;
}

static void codec(void)
{
	struct rec_subnet s, got;
	struct rec_buf b = { 0 }, again = { 0 };
	const char *err;
	size_t refused = 0;
	uint8_t *copy;
	int rc;

	subnet_fill(&s);
	rec_subnet_encode(&b, &s);
	rc = decode_bytes(b.data, b.len, &got, &err);
	ASSERT_EQ_INT(rc, 0, "a subnet decodes");
	TAP_OK(got.f.nnodes == 2 && got.f.nlinks == 1 && got.nlost == 1 && got.sweeps == 3 &&
	       got.news == REC_SUBNET_SAMPLED && !strcmp(got.status, "sampling 3 ports"),
	       "its nodes, links, lost links, sweeps, news and status come back");
	TAP_OK(got.f.nodes && got.f.nodes[0].lid == 4 && !strcmp(got.f.nodes[1].id.desc, "h1 mlx5_0") &&
	       got.f.nodes[1].ports[1].linked && got.f.nodes[1].ports[1].peer == 0 &&
	       got.f.nodes[1].ports[1].pi.lid == 9 && got.f.nodes[0].ports[2].known && !got.f.nodes[0].ports[2].pma,
	       "each port's PortInfo, cable and whether it has counters");
	TAP_OK(got.f.nodes && got.f.nodes[0].ports[1].pma && got.f.nodes[0].ports[1].pma->n == 3 &&
	       got.f.nodes[0].ports[1].pma->c[0].value == 5 && got.f.nodes[0].ports[1].pma->c[0].prev_value == 0 &&
	       got.f.nodes[0].ports[1].pma->tick == 7 && got.f.nodes[0].ports[1].pma->tick_state == IBQ_OK &&
	       got.f.nodes[0].ports[1].pma->sample_ns == 5000000000ull,
	       "the PMA samples: both values, times and the xmit wait's tick");
	TAP_OK(got.lost && got.lost[0].a.node_guid == 30 && !strcmp(got.lost[0].why, "port DOWN/Polling"),
	       "the lost link with why");
	rec_subnet_encode(&again, &got);
	TAP_OK(again.len == b.len && !memcmp(again.data, b.data, b.len), "and encodes again to the same bytes");
	rec_subnet_free(&got);

	/* cut at every length and every byte flipped: decoded or refused, never a crash (ASan in CI) */
	copy = malloc(b.len);
	for (size_t n = 0; n < b.len; n++) {
		refused += decode_bytes(b.data, n, &got, &err) != 0;
		rec_subnet_free(&got);
	}
	TAP_OK(refused > 0, "cut at each of %zu lengths: decoded or refused (%zu refused)", b.len, refused);
	refused = 0;
	for (size_t i = 0; i < b.len; i++) {
		memcpy(copy, b.data, b.len);
		copy[i] ^= 0xff;
		refused += decode_bytes(copy, b.len, &got, &err) != 0;
		rec_subnet_free(&got);
	}
	TAP_OK(refused > 0, "each byte flipped: decoded or refused (%zu refused)", refused);
	free(copy);

	/* a link to a node the record does not hold */
	s.f.links[0].b = 7;
	rec_buf_reset(&b);
	rec_subnet_encode(&b, &s);
	rc = decode_bytes(b.data, b.len, &got, &err);
	TAP_OK(rc == -EINVAL && err && strstr(err, "naming nodes and ports of the record"),
	       "a link to node 7 of 2 is refused, saying what was expected: %s", err ? err : "(none)");
	rec_subnet_free(&got);
	s.f.links[0].b = 1;
	/* a port number past the node's ports */
	s.f.nodes[1].id.num_ports = 0;
	s.f.nodes[1].ports[0] = s.f.nodes[1].ports[1];
	s.f.nodes[1].ports[1] = (struct ib_fport){ 0 };
	rec_buf_reset(&b);
	rec_subnet_encode(&b, &s);
	rc = decode_bytes(b.data, b.len, &got, &err);
	TAP_OK(rc == -EINVAL && err, "a link on port 1 of a node of 0 ports is refused: %s", err ? err : "(none)");
	rec_subnet_free(&got);
	s.f.nodes[1].id.num_ports = 1;
	s.f.nodes[1].ports[1] = s.f.nodes[1].ports[0];
	s.f.nodes[1].ports[0] = (struct ib_fport){ 0 };
	rec_subnet_free(&s);
	rec_buf_free(&b);
	rec_buf_free(&again);
}

/*
 * 40,000 nodes of 255 ports in 7 bytes each hold no port: they cost what
 * they hold (each one port slot), not 16 KiB. 300 nodes of 255 ports with
 * an empty PMA each (~4.3 KB decoded, a few bytes in the file) are past the
 * budget, refused before it is reached.
 */
static void budget(void)
{
	struct rec_buf b = { 0 };
	struct rec_subnet got;
	const char *err;
	int rc;

	for (int i = 0; i < 40000; i++) {
		size_t m = rec_put_begin(&b, 10), k = rec_put_begin(&b, 1);

		rec_put_uint(&b, 5, 255);	/* ib_node num_ports */
		rec_put_end(&b, k);
		rec_put_end(&b, m);
	}
	rc = decode_bytes(b.data, b.len, &got, &err);
	ASSERT_EQ_INT(rc, 0, "40,000 nodes claiming 255 ports and holding none decode");
	TAP_OK(!rc && got.f.nnodes == 40000 && got.f.nodes[0].id.num_ports == 0 &&
	       ib_fabric_mem_bytes(&got.f) == 40000 * (sizeof(struct ib_fnode) + sizeof(struct ib_fport)),
	       "each a node and one port slot: %zu bytes", rc ? 0 : ib_fabric_mem_bytes(&got.f));
	if (!rc)
		rec_subnet_free(&got);
	rec_buf_reset(&b);
	for (int i = 0; i < 300; i++) {
		size_t m = rec_put_begin(&b, 10), k = rec_put_begin(&b, 1);

		rec_put_uint(&b, 5, 255);
		rec_put_end(&b, k);
		for (unsigned int p = 1; p <= 255; p++) {
			size_t q = rec_put_begin(&b, 3);

			rec_put_uint(&b, 1, p);
			rec_put_bytes(&b, 7, NULL, 0);	/* an empty PMA */
			rec_put_end(&b, q);
		}
		rec_put_end(&b, m);
	}
	rc = decode_bytes(b.data, b.len, &got, &err);
	TAP_OK(rc == -EINVAL && err && strstr(err, "256 MiB"), "%zu bytes asking for 76,500 PMAs: "
	       "refused by the budget: %s", b.len, err ? err : "(none)");
	rec_subnet_free(&got);
	rec_buf_free(&b);
}

static int write_subnet(struct rec_writer *w, unsigned int type, uint64_t sym, bool corrupt, uint64_t t)
{
	struct rec_subnet s;
	struct rec_buf b = { 0 };
	int rc;

	subnet_fill(&s);
	s.f.nodes[0].ports[1].pma->c[0].value = sym;
	if (corrupt)
		s.f.links[0].a = 99;
	rec_subnet_encode(&b, &s);
	rc = rec_writer_record(w, (enum rec_record)type, b.data, b.len, t, t);
	rec_subnet_free(&s);
	rec_buf_free(&b);
	return rc;
}

/* Samples 0..5 of the demo host; subnets at 1 (5 symbol errors) and 4 (9); at 2 a corrupt one under an unknown type. */
static int write_file(const char *path, bool corrupt_at_4)
{
	char err[768];
	struct fab_ctx ctx;
	struct source *src;
	struct fab_host h;
	struct rec_info info = { .interval_s = 1 };
	struct rec_writer *w;
	uint64_t t = 1000000000ull;
	int rc = 0;

	ctx_init(&ctx);
	ctx.demo = true;
	ctx.seed = 7;
	src = source_open(&ctx);
	memset(&h, 0, sizeof(h));
	if (!src || source_collect(src, &h, COLLECT_ALL))
		return -1;
	info.start_mono_ns = info.start_wall_ns = t;
	w = rec_writer_open(path, &info, err, sizeof(err));
	if (!w)
		return -1;
	rc |= rec_writer_host(w, &h, t, t);
	for (int i = 1; i < 6; i++) {
		t += 1000000000ull;
		source_refresh(src, &h, t);
		rc |= rec_writer_sample(w, &h, t, t);
		if (i == 1)
			rc |= write_subnet(w, REC_SUBNET, 5, false, t + 1);
		if (i == 2)	/* what a reader that does not know type 10 meets: a type it skips */
			rc |= write_subnet(w, REC_NRECORD + 20, 6, true, t + 1);
		if (i == 4)
			rc |= write_subnet(w, REC_SUBNET, 9, corrupt_at_4, t + 1);
	}
	rc |= rec_writer_close(w);
	fab_host_free(&h);
	source_close(src);
	return rc;
}

static uint64_t sym_at(struct rec_reader *r, size_t pos)
{
	const uint8_t *body;
	size_t len, k = rec_reader_last(r, pos, REC_SUBNET, (size_t)-1);
	struct rec_subnet s;
	const char *err;
	uint64_t v = 0;

	if (k == (size_t)-1 || !rec_reader_body(r, k, &body, &len))
		return 0;
	if (!decode_bytes(body, len, &s, &err) && s.f.nnodes && s.f.nodes[0].ports[1].pma)
		v = s.f.nodes[0].ports[1].pma->c[0].value;
	rec_subnet_free(&s);
	return v;
}

static void in_a_file(void)
{
	char path[] = "fabtop-test-subnet-XXXXXX", err[768];
	struct rec_reader r;
	int fd = mkstemp(path), rc;

	close(fd);
	ASSERT_EQ_INT(write_file(path, false), 0, "a recording with subnets, one under an unknown type");
	rc = rec_reader_open(&r, path, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "it reads: the unknown record (a corrupt subnet body) is skipped unread");
	if (!rc) {
		ASSERT_EQ_U64(r.nsamples, 6, "six samples");
		ASSERT_EQ_U64(sym_at(&r, 0), 0, "no subnet at sample 0");
		ASSERT_EQ_U64(sym_at(&r, 1), 5, "the subnet written after sample 1 is in force at 1");
		ASSERT_EQ_U64(sym_at(&r, 3), 5, "... and at 3 (the unknown record is none of it)");
		ASSERT_EQ_U64(sym_at(&r, 5), 9, "the one after sample 4 at 5");
		rec_reader_close(&r);
	}
	ASSERT_EQ_INT(write_file(path, true), 0, "the same with the subnet after sample 4 corrupt");
	rc = rec_reader_open(&r, path, err, sizeof(err));
	TAP_OK(rc != 0 && strstr(err, "a subnet record") && strstr(err, "naming nodes and ports of the record"),
	       "is refused at open, naming the record and what was expected: %s", rc ? err : "(read)");
	if (!rc)
		rec_reader_close(&r);
	unlink(path);
}

int main(void)
{
	codec();
	budget();
	in_a_file();
	return tap_done();
}
