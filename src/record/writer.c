// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing a recording: framed records through one zstd stream, flushed record by record. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "record/codec.h"
#include "record/sample.h"
#include "record/schema.h"
#include "record/writer.h"
#include "util.h"

struct rec_writer {
	char *path;
	int fd;
	int error;
	ZSTD_CCtx *z;
	struct rec_buf body, frame, out;
	struct rec_shadow shadow;
	bool have_host;
	size_t since_keyframe;
	struct rec_buf last_net;	/* the last network state written, encoded */
	bool have_net;
	uint64_t last_mono, last_wall;
	uint64_t bytes, samples;
};

/*
 * zstd at level 3 with a flush after every record: the file on disk always
 * ends with whole blocks, so a recorder killed at any moment leaves a file
 * that decodes up to its last flushed record (doc/recording.md). Chosen
 * over zlib: it compresses these records about a third better at a fraction
 * of the CPU, and Debian ships it (libzstd).
 */
#define REC_ZSTD_LEVEL	3

static int write_all(struct rec_writer *w, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(w->fd, c, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += k;
		n -= (size_t)k;
		w->bytes += (uint64_t)k;
	}
	return 0;
}

static int fail(struct rec_writer *w, int err)
{
	if (!w->error)
		w->error = err;
	return w->error;
}

/* One record: type, length, body, CRC-32 of those, compressed and flushed whole. */
static int emit(struct rec_writer *w, enum rec_record type, const struct rec_buf *body, ZSTD_EndDirective end)
{
	uint8_t crc_le[4];
	uint32_t crc;
	ZSTD_inBuffer in;
	size_t left;

	if (w->error)
		return w->error;
	if (body->oom)
		return fail(w, -ENOMEM);
	rec_buf_reset(&w->frame);
	rec_put_varint(&w->frame, type);
	rec_put_varint(&w->frame, body->len);
	rec_put_raw(&w->frame, body->data, body->len);
	crc = rec_crc32(0, w->frame.data, w->frame.len);
	for (int i = 0; i < 4; i++)
		crc_le[i] = (uint8_t)(crc >> (8 * i));
	rec_put_raw(&w->frame, crc_le, 4);
	if (w->frame.oom)
		return fail(w, -ENOMEM);
	in = (ZSTD_inBuffer){ w->frame.data, w->frame.len, 0 };
	do {
		ZSTD_outBuffer out = { w->out.data, w->out.cap, 0 };
		int rc;

		left = ZSTD_compressStream2(w->z, &out, &in, end);
		if (ZSTD_isError(left))
			return fail(w, -EIO);
		rc = write_all(w, out.dst, out.pos);
		if (rc)
			return fail(w, rc);
	} while (left || in.pos < in.size);
	return 0;
}

static void put_times(struct rec_writer *w, struct rec_buf *b, uint64_t mono, uint64_t wall)
{
	rec_put_sint(b, REC_F_MONO, (int64_t)(mono - w->last_mono));
	rec_put_sint(b, REC_F_WALL, (int64_t)(wall - w->last_wall));
	w->last_mono = mono;
	w->last_wall = wall;
}

static void put_header(struct rec_buf *b, const struct rec_info *info)
{
	size_t schema;

	rec_put_uint(b, 1, REC_FORMAT_MAJOR);
	rec_put_uint(b, 2, REC_FORMAT_MINOR);
	rec_put_str(b, 3, info->fabtop_version);
	rec_put_str(b, 4, info->hostname);
	rec_put_str(b, 5, info->source);
	rec_put_double(b, 6, info->interval_s);
	rec_put_uint(b, 7, info->start_mono_ns);
	rec_put_uint(b, 8, info->start_wall_ns);
	/* The schema: every table's fields by number, name and type, so the file explains itself. */
	for (size_t t = 0; t < rec_ntables; t++) {
		schema = rec_put_begin(b, 9);
		rec_put_str(b, 1, rec_tables[t]->name);
		for (size_t i = 0; i < rec_tables[t]->n; i++) {
			size_t f = rec_put_begin(b, 2);

			rec_put_uint(b, 1, rec_tables[t]->f[i].num);
			rec_put_str(b, 2, rec_tables[t]->f[i].name);
			rec_put_uint(b, 3, rec_tables[t]->f[i].type);
			rec_put_end(b, f);
		}
		rec_put_end(b, schema);
	}
}

struct rec_writer *rec_writer_open(const char *path, const struct rec_info *info, char *err, size_t errlen)
{
	struct rec_writer *w = calloc(1, sizeof(*w));
	char magic[64];
	int n;

	if (!w || !(w->path = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		free(w);
		return NULL;
	}
	/* 0600: a recording holds routes and process names; a planted symlink is replaced, never followed */
	w->fd = util_create_file(path);
	if (w->fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		free(w->path);
		free(w);
		return NULL;
	}
	w->z = ZSTD_createCCtx();
	w->out.cap = ZSTD_CStreamOutSize();
	w->out.data = malloc(w->out.cap);
	if (!w->z || !w->out.data ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->z, ZSTD_c_compressionLevel, REC_ZSTD_LEVEL))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	w->last_mono = info->start_mono_ns;
	w->last_wall = info->start_wall_ns;
	n = snprintf(magic, sizeof(magic), REC_MAGIC "%u.%u\n", REC_FORMAT_MAJOR, REC_FORMAT_MINOR);
	if (write_all(w, magic, (size_t)n)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	put_header(&w->body, info);
	if (emit(w, REC_HEADER, &w->body, ZSTD_e_flush)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-w->error));
		goto fail;
	}
	return w;
fail:
	close(w->fd);
	ZSTD_freeCCtx(w->z);
	rec_buf_free(&w->out);
	rec_buf_free(&w->body);
	rec_buf_free(&w->frame);
	free(w->path);
	free(w);
	return NULL;
}

int rec_writer_host(struct rec_writer *w, const struct fab_host *h, uint64_t mono_ns, uint64_t wall_ns)
{
	size_t m;

	if (w->error)
		return w->error;
	rec_buf_reset(&w->body);
	put_times(w, &w->body, mono_ns, wall_ns);
	m = rec_put_begin(&w->body, REC_F_BODY);
	rec_encode_host(&w->body, h);
	rec_put_end(&w->body, m);
	if (rec_shadow_set(&w->shadow, h))
		return fail(w, -ENOMEM);
	w->have_host = true;
	w->since_keyframe = 0;
	w->samples++;
	return emit(w, REC_HOST, &w->body, ZSTD_e_flush);
}

int rec_writer_sample(struct rec_writer *w, const struct fab_host *h, uint64_t mono_ns, uint64_t wall_ns)
{
	enum rec_record type = REC_SAMPLE;

	if (w->error)
		return w->error;
	if (!w->have_host || !rec_shadow_matches(&w->shadow, h))
		return rec_writer_host(w, h, mono_ns, wall_ns);
	rec_buf_reset(&w->body);
	put_times(w, &w->body, mono_ns, wall_ns);
	if (++w->since_keyframe >= REC_KEYFRAME_SAMPLES) {
		rec_values_encode(&w->body, h);
		if (rec_shadow_set(&w->shadow, h))
			return fail(w, -ENOMEM);
		type = REC_VALUES;
		w->since_keyframe = 0;
	} else {
		rec_sample_encode(&w->body, &w->shadow, h);
	}
	w->samples++;
	return emit(w, type, &w->body, ZSTD_e_flush);
}

int rec_writer_net(struct rec_writer *w, const struct net_state *st, uint64_t mono_ns, uint64_t wall_ns)
{
	struct rec_buf net = { 0 };
	size_t m;
	int rc;

	if (w->error)
		return w->error;
	rec_encode_net(&net, st);
	if (net.oom) {
		rec_buf_free(&net);
		return fail(w, -ENOMEM);
	}
	if (w->have_net && net.len == w->last_net.len && !memcmp(net.data, w->last_net.data, net.len)) {
		rec_buf_free(&net);
		return 0;
	}
	rec_buf_reset(&w->body);
	put_times(w, &w->body, mono_ns, wall_ns);
	m = rec_put_begin(&w->body, REC_F_BODY);
	rec_put_raw(&w->body, net.data, net.len);
	rec_put_end(&w->body, m);
	rec_buf_free(&w->last_net);
	w->last_net = net;
	w->have_net = true;
	rc = emit(w, REC_NET, &w->body, ZSTD_e_flush);
	return rc;
}

int rec_writer_record(struct rec_writer *w, enum rec_record type, const void *body, size_t len,
		      uint64_t mono_ns, uint64_t wall_ns)
{
	if (w->error)
		return w->error;
	rec_buf_reset(&w->body);
	put_times(w, &w->body, mono_ns, wall_ns);
	rec_put_bytes(&w->body, REC_F_BODY, body, len);
	return emit(w, type, &w->body, ZSTD_e_flush);
}

uint64_t rec_writer_bytes(const struct rec_writer *w)
{
	return w->bytes;
}

uint64_t rec_writer_samples(const struct rec_writer *w)
{
	return w->samples;
}

const char *rec_writer_path(const struct rec_writer *w)
{
	return w->path;
}

int rec_writer_error(const struct rec_writer *w)
{
	return w->error;
}

int rec_writer_close(struct rec_writer *w)
{
	int rc;

	if (!w)
		return 0;
	rec_buf_reset(&w->body);
	put_times(w, &w->body, w->last_mono, w->last_wall);
	emit(w, REC_END, &w->body, ZSTD_e_end);
	if (close(w->fd) && !w->error)
		w->error = -errno;
	rc = w->error;
	ZSTD_freeCCtx(w->z);
	rec_shadow_free(&w->shadow);
	rec_buf_free(&w->body);
	rec_buf_free(&w->frame);
	rec_buf_free(&w->out);
	rec_buf_free(&w->last_net);
	free(w->path);
	free(w);
	return rc;
}
