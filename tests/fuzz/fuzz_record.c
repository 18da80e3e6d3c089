// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: the recording reader, whatever a file holds. The first byte
 * picks the way in: 0, the bytes are a whole file (format line, zstd,
 * framing, CRCs) and every sample of it is rebuilt, in order and by jumps;
 * 1, they are record bodies past the framing (a host, then samples, a
 * network state, MAD views, probe runs, subnets and RoCE chains), so the
 * decoders behind the CRC are reached too.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/fabric.h"
#include "model/net.h"
#include "record/codec.h"
#include "record/mad.h"
#include "record/probe.h"
#include "record/reader.h"
#include "record/roce.h"
#include "record/sample.h"
#include "record/subnet.h"
#include "record/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void mad_body(const uint8_t *p, size_t n)
{
	struct rec_cur c;
	struct rec_mad m = { 0 };

	rec_cur_init(&c, p, n, p);
	rec_mad_decode(&c, &m);
	rec_mad_free(&m);
}

static void probe_body(const uint8_t *p, size_t n)
{
	static struct rec_probe pr;
	struct rec_cur c;

	rec_cur_init(&c, p, n, p);
	rec_probe_decode(&c, &pr);
}

static void subnet_body(const uint8_t *p, size_t n)
{
	struct rec_cur c;
	struct rec_subnet s = { 0 };

	rec_cur_init(&c, p, n, p);
	rec_subnet_decode(&c, &s);
	rec_subnet_free(&s);
}

static void roce_body(const uint8_t *p, size_t n)
{
	struct rec_cur c;
	struct roce_state st = { 0 };

	rec_cur_init(&c, p, n, p);
	rec_roce_decode(&c, &st);
	roce_state_free(&st);
}

static void whole_file(const uint8_t *data, size_t size)
{
	struct rec_reader r;
	struct fab_host h;
	struct net_state st;
	char err[768];

	if (rec_reader_parse(&r, "fuzz", data, size, err, sizeof(err)))
		return;
	memset(&h, 0, sizeof(h));
	if (!rec_reader_host_at(&r, 0, &h, err, sizeof(err))) {
		for (size_t i = 1; i < r.nsamples; i++) {
			bool structure;

			if (rec_reader_step(&r, i, &h, &structure, err, sizeof(err)))
				break;
		}
	}
	fab_host_free(&h);
	memset(&h, 0, sizeof(h));
	rec_reader_host_at(&r, r.nsamples / 2, &h, err, sizeof(err));
	fab_host_free(&h);
	if (!rec_reader_net_at(&r, r.nsamples - 1, &st, err, sizeof(err)))
		net_state_free(&st);
	/* the MAD views and probe runs, walked back from the last sample as the replay does */
	for (size_t k = (size_t)-1; (k = rec_reader_last(&r, r.nsamples - 1, REC_MAD, k)) != (size_t)-1;) {
		const uint8_t *body;
		size_t len;

		if (rec_reader_body(&r, k, &body, &len))
			mad_body(body, len);
	}
	for (size_t k = (size_t)-1; (k = rec_reader_last(&r, r.nsamples - 1, REC_PROBE, k)) != (size_t)-1;) {
		const uint8_t *body;
		size_t len;

		if (rec_reader_body(&r, k, &body, &len))
			probe_body(body, len);
	}
	for (size_t k = (size_t)-1; (k = rec_reader_last(&r, r.nsamples - 1, REC_SUBNET, k)) != (size_t)-1;) {
		const uint8_t *body;
		size_t len;

		if (rec_reader_body(&r, k, &body, &len))
			subnet_body(body, len);
	}
	for (size_t k = (size_t)-1; (k = rec_reader_last(&r, r.nsamples - 1, REC_ROCE, k)) != (size_t)-1;) {
		const uint8_t *body;
		size_t len;

		if (rec_reader_body(&r, k, &body, &len))
			roce_body(body, len);
	}
	rec_reader_close(&r);
}

/*
 * Length-prefixed pieces: kind 0 a host body, 1 a sample, 2 a keyframe, 3 a
 * network, 4 a MAD view, 5 a probe run, 6 a subnet, 7 a RoCE chain.
 */
static void bodies(const uint8_t *data, size_t size)
{
	struct rec_cur c, piece;
	struct fab_host h;
	struct net_state st;
	uint64_t len, kind;
	bool have_host = false;

	memset(&h, 0, sizeof(h));
	rec_cur_init(&c, data, size, NULL);
	while (c.p < c.end && rec_get_varint(&c, &kind) && rec_get_varint(&c, &len) &&
	       len <= (uint64_t)(c.end - c.p)) {
		rec_cur_init(&piece, c.p, (size_t)len, data);
		c.p += len;
		switch (kind % 8) {
		case 0:
			fab_host_free(&h);
			memset(&h, 0, sizeof(h));
			have_host = rec_decode_host(&piece, &h) == 0;
			break;
		case 1:
			if (have_host)
				rec_sample_apply(&piece, &h);
			break;
		case 2:
			if (have_host)
				rec_values_apply(&piece, &h);
			break;
		case 3:
			memset(&st, 0, sizeof(st));
			if (rec_decode_net(&piece, &st) != -ENOMEM)
				net_state_free(&st);
			break;
		case 4:
			mad_body(piece.p, (size_t)(piece.end - piece.p));
			break;
		case 5:
			probe_body(piece.p, (size_t)(piece.end - piece.p));
			break;
		case 6:
			subnet_body(piece.p, (size_t)(piece.end - piece.p));
			break;
		case 7:
			roce_body(piece.p, (size_t)(piece.end - piece.p));
			break;
		}
	}
	fab_host_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] == 0)
		whole_file(data + 1, size - 1);
	else
		bodies(data + 1, size - 1);
	return 0;
}
