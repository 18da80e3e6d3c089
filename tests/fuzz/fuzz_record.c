// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: the recording reader, whatever a file holds. The first byte
 * picks the way in: 0, the bytes are a whole file (format line, zstd,
 * framing, CRCs) and every sample of it is rebuilt, in order and by jumps;
 * 1, they are record bodies past the framing (a host, then samples and a
 * network state), so the decoders behind the CRC are reached too.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/fabric.h"
#include "model/net.h"
#include "record/codec.h"
#include "record/reader.h"
#include "record/sample.h"
#include "record/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	rec_reader_close(&r);
}

/* Length-prefixed pieces: a host body, then sample or keyframe bodies, then a network body. */
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
		switch (kind % 4) {
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
