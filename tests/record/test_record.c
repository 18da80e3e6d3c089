// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recording replays to the same reports: the demo fabric is sampled,
 * recorded, and every sample's `show` JSON is compared with the replay's,
 * played in order and reached by a jump. Then the file is cut at every
 * length and corrupted byte by byte: a clear message or the samples before
 * the damage, never a crash.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "source/snapshot.h"
#include "source/source.h"
#include "ctx.h"
#include "record/codec.h"
#include "record/reader.h"
#include "record/writer.h"
#include "report/json.h"
#include "report/show.h"
#include "tap.h"
#include "util.h"

/* A bit more than two keyframes' worth, so jumps land before, on and after them. */
#define NSAMPLES (2 * REC_KEYFRAME_SAMPLES + 37)

static char *render(const struct fab_host *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out o;

	if (!f)
		return NULL;
	out_open(&o, f, true);
	show_ports(&o, h);
	show_counters(&o, h);
	show_gids(&o, h);
	out_close(&o);
	fclose(f);
	return buf;
}

/*
 * Every byte of every record's body and CRC in the first records of
 * stream (through the first sample; framing left alone) flipped one at a
 * time, the stream compressed again: each copy must be refused by the CRC
 * check. zstd's own checksum is off (ZSTD_compress's default), so nothing
 * but the CRC stands between a flipped byte and the reader. *total says how
 * many were flipped, *crc how many were refused naming the CRC.
 */
static size_t flip_every_body_byte(const uint8_t *stream, size_t slen, size_t *total, size_t *crc, bool *intact_reads)
{
	static const char magic[] = "fabtop recording 1.3\n";
	size_t refused = 0, prefix = 0, bodies[64][2], nb = 0, cap, mlen = strlen(magic);
	uint8_t *copy = malloc(slen), *file;
	struct rec_cur c;
	char err[512];

	*total = *crc = 0;
	*intact_reads = false;
	rec_cur_init(&c, stream, slen, stream);
	/* the records up to and including the first sample: header, host, keyframe, ... */
	while (c.p < c.end && nb < 64) {
		uint64_t type, len;

		if (!rec_get_varint(&c, &type) || !rec_get_varint(&c, &len) || len + 4 > (uint64_t)(c.end - c.p))
			break;
		bodies[nb][0] = (size_t)(c.p - stream);
		bodies[nb][1] = (size_t)len + 4;
		nb++;
		c.p += len + 4;
		prefix = (size_t)(c.p - stream);
		if (type == REC_SAMPLE)
			break;
	}
	cap = mlen + ZSTD_compressBound(prefix);
	file = malloc(cap);
	if (!copy || !file || !nb) {
		free(copy);
		free(file);
		return 0;
	}
	memcpy(file, magic, mlen);
	memcpy(copy, stream, prefix);
	{
		size_t n = ZSTD_compress(file + mlen, cap - mlen, copy, prefix, 1);
		struct rec_reader r;

		if (!ZSTD_isError(n) && !rec_reader_parse(&r, "intact", file, mlen + n, err, sizeof(err))) {
			*intact_reads = r.nsamples >= 1;
			printf("# intact: %zu samples, %zu records, %zu bytes of stream\n", r.nsamples, r.nrecs, prefix);
			rec_reader_close(&r);
		}
	}
	for (size_t b = 0; b < nb; b++) {
		for (size_t at = bodies[b][0]; at < bodies[b][0] + bodies[b][1]; at++) {
			struct rec_reader r;
			size_t n;

			copy[at] ^= 0x01;
			n = ZSTD_compress(file + mlen, cap - mlen, copy, prefix, 1);
			copy[at] ^= 0x01;
			if (ZSTD_isError(n))
				continue;
			(*total)++;
			if (!rec_reader_parse(&r, "flip", file, mlen + n, err, sizeof(err))) {
				rec_reader_close(&r);
				continue;
			}
			refused++;
			*crc += strstr(err, "CRC-32") != NULL;
		}
	}
	free(copy);
	free(file);
	return refused;
}

int main(void)
{
	static char *live[NSAMPLES];
	char path[] = "fabtop-test-record-XXXXXX", err[768];
	struct fab_ctx ctx, rctx;
	struct source *src, *rsrc;
	struct fab_host h, rh;
	struct net_state net;
	struct rec_reader r;
	uint64_t now;
	size_t bad_seq = 0, bad_jump = 0, len = 0, cut_ok = 0, cut_err = 0, flip_err = 0, flip_ok = 0;
	uint8_t *file;
	int fd = mkstemp(path), rc;

	ctx_init(&ctx);
	ctx.demo = true;
	ctx.seed = 7;
	TAP_OK(fd >= 0, "a temporary file");
	close(fd);

	src = source_open(&ctx);
	memset(&h, 0, sizeof(h));
	TAP_OK(src && !source_collect(src, &h, COLLECT_ALL), "the demo fabric is collected");
	TAP_OK(!snapshot_net(src, &h, &net), "and its network");
	rc = source_record_start(src, path, &h, &net, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "recording starts");
	net_state_free(&net);
	now = util_now_ns();
	for (size_t i = 0; i < NSAMPLES; i++) {
		live[i] = render(&h);
		now += 1000000000u;
		source_refresh(src, &h, now);
		if (i % 50 == 0 && !snapshot_net(src, &h, &net))
			net_state_free(&net);
	}
	ASSERT_EQ_INT(source_record_stop(src), 0, "recording stops cleanly");
	fab_host_free(&h);
	source_close(src);

	rc = rec_reader_open(&r, path, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "the recording opens");
	if (rc)
		printf("# %s\n", err);
	ASSERT_EQ_U64(r.nsamples, NSAMPLES + 1, "every sample is there (the first and one per refresh)");
	TAP_OK(r.ended && !r.note[0], "closed cleanly, nothing left out");

	/* In order, through the replay source as the monitor and `show` use it. */
	ctx_init(&rctx);
	rctx.replay = &r;
	rctx.replay_pos = 0;
	rsrc = source_open(&rctx);
	memset(&rh, 0, sizeof(rh));
	TAP_OK(rsrc && !source_collect(rsrc, &rh, COLLECT_ALL), "the replay source opens at the first sample");
	for (size_t i = 0; i < NSAMPLES; i++) {
		char *got = render(&rh);

		if (!got || strcmp(got, live[i])) {
			if (!bad_seq++)
				printf("# sample %zu differs in order:\n# live:   %.300s\n# replay: %.300s\n", i, live[i],
				       got ? got : "(null)");
		}
		free(got);
		source_refresh(rsrc, &rh, 0);
	}
	ASSERT_EQ_U64(bad_seq, 0, "played in order, every sample's report is the live one");

	/* Jumps: backwards, across keyframes, onto them. */
	for (size_t i = NSAMPLES; i-- > 0;) {
		char *got;

		if (i % 7 && i % REC_KEYFRAME_SAMPLES > 2 && i > 3)
			continue;
		source_seek(rsrc, &rh, SOURCE_SEEK_SAMPLE, (int64_t)i);
		got = render(&rh);
		if (!got || strcmp(got, live[i])) {
			if (!bad_jump++)
				printf("# sample %zu differs after a jump:\n# live:   %.300s\n# replay: %.300s\n", i,
				       live[i], got ? got : "(null)");
		}
		free(got);
	}
	ASSERT_EQ_U64(bad_jump, 0, "reached by a jump, every sample's report is the live one");
	fab_host_free(&rh);
	source_close(rsrc);
	rec_reader_close(&r);

	/* Cut anywhere: the samples before the cut, or a clear message. */
	file = tap_slurp(path, &len);
	TAP_OK(file != NULL, "the file reads back");
	for (size_t cut = 0; file && cut < len; cut += 1 + cut / 40) {
		struct rec_reader c;

		if (!rec_reader_parse(&c, "cut", file, cut, err, sizeof(err))) {
			cut_ok += c.nsamples > 0 && c.note[0];
			rec_reader_close(&c);
		} else {
			cut_err += strstr(err, "cut: ") == err;
		}
	}
	TAP_OK(cut_ok > 10 && cut_err > 0, "a cut file reads up to the cut with a note (%zu) or says why not (%zu)",
	       cut_ok, cut_err);
	/* A flipped byte anywhere after the first line: a message naming the place, or a file that still reads. */
	for (size_t at = 25; file && at < len; at += 1 + at / 60) {
		struct rec_reader c;

		file[at] ^= 0x5a;
		if (!rec_reader_parse(&c, "flip", file, len, err, sizeof(err))) {
			flip_ok++;
			rec_reader_close(&c);
		} else {
			flip_err += strstr(err, "byte ") != NULL;
		}
		file[at] ^= 0x5a;
	}
	TAP_OK(flip_err > 0, "corruption is named by its place (%zu found, %zu read anyway)", flip_err, flip_ok);
	{
		struct rec_reader c;
		char future[] = "fabtop recording 9.0\n";

		TAP_OK(rec_reader_parse(&c, "f", (const uint8_t *)future, sizeof(future) - 1, err, sizeof(err)) &&
		       strstr(err, "newer"), "a future major version is refused: %s", err);
		TAP_OK(rec_reader_parse(&c, "g", (const uint8_t *)"GIF89a", 6, err, sizeof(err)) &&
		       strstr(err, "not a fabtop recording"), "another file is refused: %s", err);
	}
	/* The stream itself, its first records' bodies flipped byte by byte: the CRC refuses every one. */
	if (file) {
		struct rec_reader whole;
		size_t total = 0, crc = 0, refused = 0;
		bool intact = false;

		rc = rec_reader_parse(&whole, "whole", file, len, err, sizeof(err));
		ASSERT_EQ_INT(rc, 0, "the file parses, for its stream");
		if (!rc) {
			refused = flip_every_body_byte(whole.data, whole.len, &total, &crc, &intact);
			rec_reader_close(&whole);
		}
		TAP_OK(intact, "the stream through its first sample, compressed again, reads (one sample)");
		ASSERT_CMP_U64(total, >, 1000, "bytes of the first records' bodies and CRCs flipped");
		ASSERT_ALL(refused, total, "every one refused: no flipped body is read");
		ASSERT_ALL(crc, total, "every one by the CRC check, naming it");
	}
	free(file);
	for (size_t i = 0; i < NSAMPLES; i++)
		free(live[i]);
	unlink(path);
	return tap_done();
}
