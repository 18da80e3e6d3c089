// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a recording (see reader.h and doc/recording.md). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "model/events.h"
#include "record/codec.h"
#include "record/cost.h"
#include "record/mad.h"
#include "record/subnet.h"
#include "record/reader.h"
#include "record/roce.h"
#include "record/sample.h"
#include "record/schema.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Where the decompressed stream came from: after in_off bytes of the file, out_off bytes were out. */
struct stream_map {
	uint64_t *in, *out;
	size_t n, cap;
};

static void map_add(struct stream_map *m, uint64_t in, uint64_t out)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		uint64_t *a = realloc(m->in, cap * sizeof(*a)), *b;

		if (!a)
			return;
		m->in = a;
		b = realloc(m->out, cap * sizeof(*b));
		if (!b)
			return;
		m->out = b;
		m->cap = cap;
	}
	m->in[m->n] = in;
	m->out[m->n] = out;
	m->n++;
}

/* Searched, not walked: every record asks, and a file of small records has millions. */
static uint64_t map_file_off(const struct stream_map *m, uint64_t out)
{
	size_t lo = 0, hi = m->n;

	/* the first entry past out; the one before it is where out came from */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->out[mid] <= out)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? m->in[lo - 1] : 0;
}

static int read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, errlen, "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > REC_READER_MAX_STREAM) {
		close(fd);
		return fail(err, errlen, "%s: %" PRIu64 " bytes is more than a recording this fabtop reads (%llu)",
			    path, (uint64_t)st.st_size, REC_READER_MAX_STREAM);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return fail(err, errlen, "%s: out of memory", path);
	}
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	*data = buf;
	*len = got;
	return 0;
}

static const char *record_name(uint64_t type);
static int check_body(struct rec_reader *r, const struct rec_entry *e, char *err, size_t errlen);

/*
 * Check the records the stream holds whole from *checked on: their length,
 * their CRC, the header first. Done while decompressing, so a stream that is
 * wrong from its start (a bomb of zeros) fails at its first record instead
 * of at the reader's cap. A record not whole yet waits for more output; what
 * cannot be framed at all is left to index_records(), which says what.
 */
static int check_records(struct rec_reader *r, size_t *checked, const struct stream_map *map, char *err,
			 size_t errlen)
{
	struct rec_cur c;

	rec_cur_init(&c, r->data + *checked, r->len - *checked, NULL);
	while (c.p < c.end) {
		const uint8_t *start = c.p;
		size_t off = (size_t)(start - r->data);
		uint64_t type, len;
		uint32_t crc, want;

		if (!rec_get_varint(&c, &type) || !rec_get_varint(&c, &len))
			return 0;
		if (!off && type != REC_HEADER)
			return fail(err, errlen, "%s: byte 0: expected the header record first, found a %s record",
				    r->path, record_name(type));
		if (len > REC_READER_MAX_RECORD)
			return fail(err, errlen, "%s: byte %zu of the stream (about byte %" PRIu64 " of the file): "
				    "a %s record of %" PRIu64 " bytes, more than this fabtop reads (%u)", r->path,
				    off, map_file_off(map, off), record_name(type), len, REC_READER_MAX_RECORD);
		if (len + 4 > (uint64_t)(c.end - c.p))
			return 0;
		want = (uint32_t)c.p[len] | (uint32_t)c.p[len + 1] << 8 | (uint32_t)c.p[len + 2] << 16 |
		       (uint32_t)c.p[len + 3] << 24;
		crc = rec_crc32(0, start, (size_t)(c.p - start) + (size_t)len);
		if (crc != want)
			return fail(err, errlen, "%s: byte %zu of the stream (about byte %" PRIu64 " of the file): "
				    "expected a %s record with CRC-32 %08x, found %08x: the file is corrupt",
				    r->path, off, map_file_off(map, off), record_name(type), want, crc);
		if (off) {
			struct rec_entry e = {
				.type = (enum rec_record)(type < REC_NRECORD ? type : 0),
				.off = (size_t)(c.p - r->data), .len = (size_t)len, .file_off = map_file_off(map, off),
			};

			/* here, not after the whole stream is out: a file refused stops decompressing */
			if (check_body(r, &e, err, errlen))
				return -1;
		}
		c.p += len + 4;
		*checked = (size_t)(c.p - r->data);
	}
	return 0;
}

/*
 * Decompress what the file holds, into at most REC_READER_MAX_STREAM bytes
 * (a check on the output's size, never on what a doubling would reach); a
 * stream that stops inside a block is a truncated tail, not an error.
 */
static int decompress(struct rec_reader *r, const uint8_t *in, size_t inlen, uint64_t base,
		      struct stream_map *map, bool *cut, char *err, size_t errlen)
{
	ZSTD_DCtx *z = ZSTD_createDCtx();
	size_t cap = inlen < REC_READER_MAX_STREAM / 4 - 4096 ? inlen * 4 + 4096 : REC_READER_MAX_STREAM;
	size_t left = 0, checked = 0;
	ZSTD_inBuffer ib = { in, 0, 0 };
	bool full = false;
	int rc = 0;

	*cut = false;
	r->data = malloc(cap);
	if (!z || !r->data) {
		ZSTD_freeDCtx(z);
		return fail(err, errlen, "%s: out of memory", r->path);
	}
	/* the writer's window is 2 MiB (level 3): a frame that asks for more is refused, not allocated */
	ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, REC_READER_WINDOW_LOG);
	/* fed in small pieces, so an error's position in the file is known to a few KiB */
	while (ib.size < inlen || ib.pos < ib.size || full) {
		ZSTD_outBuffer ob;

		if (ib.pos == ib.size && ib.size < inlen)
			ib.size = inlen - ib.size > 4096 ? ib.size + 4096 : inlen;
		if (cap - r->len < ZSTD_DStreamOutSize() && cap < REC_READER_MAX_STREAM) {
			size_t ncap = cap < REC_READER_MAX_STREAM / 2 ? 2 * cap : REC_READER_MAX_STREAM;
			uint8_t *d = realloc(r->data, ncap);

			if (!d) {
				rc = fail(err, errlen, "%s: out of memory", r->path);
				break;
			}
			r->data = d;
			cap = ncap;
		}
		if (r->len == cap) {
			rc = fail(err, errlen, "%s: decompresses to more than %llu bytes, more than this fabtop reads",
				  r->path, REC_READER_MAX_STREAM);
			break;
		}
		ob = (ZSTD_outBuffer){ r->data + r->len, cap - r->len, 0 };
		left = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(left)) {
			rc = fail(err, errlen, "%s: byte %" PRIu64 ": expected zstd-compressed records, "
				  "but the data is corrupt (%s)", r->path, base + ib.pos, ZSTD_getErrorName(left));
			break;
		}
		r->len += ob.pos;
		map_add(map, base + ib.pos, r->len);
		rc = check_records(r, &checked, map, err, errlen);
		if (rc)
			break;
		/* a full output buffer may leave more in the decoder: ask again even when the input is in */
		full = ob.pos == ob.size;
		if (!ob.pos && ib.pos == ib.size && ib.size == inlen)
			break;
	}
	*cut = !rc && left != 0;
	ZSTD_freeDCtx(z);
	return rc;
}

static void parse_info(struct rec_info *info, const uint8_t *p, size_t n, struct rec_cur *c)
{
	struct rec_field f;

	rec_cur_init(c, p, n, NULL);
	while (rec_next(c, &f)) {
		switch (f.num) {
		case 1: info->major = (uint32_t)f.u; break;
		case 2: info->minor = (uint32_t)f.u; break;
		case 3: rec_field_str(&f, info->fabtop_version, sizeof(info->fabtop_version)); break;
		case 4: rec_field_str(&f, info->hostname, sizeof(info->hostname)); break;
		case 5: rec_field_str(&f, info->source, sizeof(info->source)); break;
		case 6: if (f.wire == REC_WIRE_FIXED64) info->interval_s = rec_field_double(&f); break;
		case 7: info->start_mono_ns = f.u; break;
		case 8: info->start_wall_ns = f.u; break;
		}
	}
}

static const char *record_name(uint64_t type)
{
	static const char *const names[] = {
		[REC_HEADER] = "header", [REC_HOST] = "host", [REC_VALUES] = "keyframe",
		[REC_SAMPLE] = "sample", [REC_NET] = "network", [REC_EVENT] = "event", [REC_END] = "end",
		[REC_MAD] = "MAD view", [REC_PROBE] = "probe", [REC_SUBNET] = "subnet",
		[REC_ROCE] = "RoCE chain",
	};

	return type < REC_NRECORD && names[type] ? names[type] : "unknown";
}

static int body_error(const struct rec_reader *r, const struct rec_entry *e, const struct rec_cur *c, int rc,
		      char *err, size_t errlen)
{
	if (rc == -ENOMEM)
		fail(err, errlen, "%s: out of memory", r->path);
	else
		fail(err, errlen, "%s: byte %zu of the stream (a %s record, about byte %" PRIu64 " of the file): "
		     "expected %s", r->path, c->err_off, record_name(e->type), e->file_off,
		     c->err ? c->err : "a well-formed record");
	return rc;
}

/*
 * What the records decoded at open have taken in all: each is within its
 * own budget, and this bounds the file's (its time and what it churns
 * through), so that many small records cannot add up to minutes.
 */
static int spend(struct rec_reader *r, const struct rec_entry *e, size_t cost, char *err, size_t errlen)
{
	if (cost > r->decode_budget - r->decoded)
		return fail(err, errlen, "%s: a %s record (about byte %" PRIu64 " of the file) takes the records "
			    "decoded so far past %zu bytes: at most %s of decoded records in one file (the reader's "
			    "budget: each is decoded once at open to check it)", r->path, record_name(e->type),
			    e->file_off, r->decode_budget, REC_READER_MAX_DECODED_TEXT);
	r->decoded += cost;
	return 0;
}

/*
 * The structs a record's body asks for, decoded once and freed: a host,
 * network state, MAD view, subnet or RoCE chain that is malformed, or that asks for more than
 * the collector reads or the budget allows (record/schema.h), is the file's
 * error at open, not an empty screen later; what it took counts against
 * the whole file's budget.
 */
static int check_body(struct rec_reader *r, const struct rec_entry *e, char *err, size_t errlen)
{
	struct rec_cur c, sub;
	struct rec_field f;
	size_t cost = 0;
	int rc = 0;

	if (e->type != REC_HOST && e->type != REC_NET && e->type != REC_MAD && e->type != REC_SUBNET &&
	    e->type != REC_ROCE)
		return 0;
	rec_cur_init(&c, r->data + e->off, e->len, r->data);
	while (rec_next(&c, &f)) {
		if (f.num != REC_F_BODY)
			continue;
		if (f.wire != REC_WIRE_BYTES) {
			rec_fail(&c, f.bytes ? f.bytes : c.p, "a record's body");
			break;
		}
		rec_cur_sub(&sub, &c, &f);
		if (e->type == REC_HOST) {
			struct fab_host h = { 0 };

			rc = rec_decode_host(&sub, &h);
			cost = rec_cost_host(&h);
			fab_host_free(&h);
		} else if (e->type == REC_NET) {
			struct net_state st = { 0 };

			rc = rec_decode_net(&sub, &st);
			cost = rec_cost_net(&st);
			net_state_free(&st);
		} else if (e->type == REC_SUBNET) {
			struct rec_subnet *sn = calloc(1, sizeof(*sn));

			rc = sn ? rec_subnet_decode(&sub, sn) : -ENOMEM;
			if (sn) {
				cost = rec_cost_subnet(sn);
				rec_subnet_free(sn);
			}
			free(sn);
		} else if (e->type == REC_ROCE) {
			struct roce_state rs = { 0 };

			rc = rec_roce_decode(&sub, &rs);
			cost = rec_cost_roce(&rs);
			roce_state_free(&rs);
		} else {
			struct rec_mad m = { 0 };

			rc = rec_mad_decode(&sub, &m);
			cost = rec_cost_mad(&m);
			rec_mad_free(&m);
		}
		return rc ? body_error(r, e, &sub, rc, err, errlen) : spend(r, e, cost, err, errlen);
	}
	if (!c.err && e->type == REC_HOST)
		rec_fail(&c, c.p, "a host record's body");
	return c.err ? body_error(r, e, &c, -EINVAL, err, errlen) : 0;
}

/* Frame the stream into records, checking each; the first bad one ends the file or is an error. */
static int index_records(struct rec_reader *r, const struct stream_map *map, bool cut, char *err, size_t errlen)
{
	struct rec_cur c;
	size_t cap = 0, scap = 0;
	uint64_t mono = 0, wall = 0;
	bool header = false;

	rec_cur_init(&c, r->data, r->len, NULL);
	while (c.p < c.end) {
		const uint8_t *start = c.p;
		size_t off = (size_t)(start - r->data);
		uint64_t type, len;
		struct rec_cur body;
		struct rec_field f;
		struct rec_entry *e;

		if (!rec_get_varint(&c, &type) || !rec_get_varint(&c, &len) || len + 4 > (uint64_t)(c.end - c.p)) {
			if (cut || !r->ended) {
				/* the recorder stopped inside this record: what came before stands */
				snprintf(r->note, sizeof(r->note), "%s: the recording stops inside a record at byte %zu of "
					 "its stream (about byte %" PRIu64 " of the file): it was not closed (killed?); "
					 "%zu samples read", r->path, off, map_file_off(map, off), r->nsamples);
				return header ? 0 : fail(err, errlen, "%s: the recording stops before its header ends: "
							 "no samples", r->path);
			}
			return fail(err, errlen, "%s: byte %zu of the stream (about byte %" PRIu64 " of the file): "
				    "expected a record's type and length", r->path, off, map_file_off(map, off));
		}
		/* its length and CRC were checked as it was decompressed (check_records()) */
		rec_cur_init(&body, c.p, (size_t)len, r->data);
		c.p += len + 4;
		if (!header) {
			if (type != REC_HEADER)
				return fail(err, errlen, "%s: byte %zu: expected the header record first, found a %s record",
					    r->path, off, record_name(type));
			parse_info(&r->info, body.p, (size_t)len, &body);
			if (body.err)
				return fail(err, errlen, "%s: byte %zu of the stream: header: expected %s", r->path,
					    off + body.err_off, body.err);
			if (r->info.major != REC_FORMAT_MAJOR)
				return fail(err, errlen, "%s: the header says format %u.%u; this fabtop reads format %u.x",
					    r->path, r->info.major, r->info.minor, REC_FORMAT_MAJOR);
			mono = r->info.start_mono_ns;
			wall = r->info.start_wall_ns;
			header = true;
			continue;
		}
		if (r->nrecs == REC_READER_MAX_RECORDS)
			return fail(err, errlen, "%s: byte %zu of the stream: more than %u records, more than this "
				    "fabtop reads", r->path, off, REC_READER_MAX_RECORDS);
		if (r->nrecs == cap) {
			struct rec_entry *n = realloc(r->recs, (cap = cap ? 2 * cap : 1024) * sizeof(*n));

			if (!n)
				return fail(err, errlen, "%s: out of memory", r->path);
			r->recs = n;
		}
		e = &r->recs[r->nrecs];
		memset(e, 0, sizeof(*e));
		e->type = (enum rec_record)(type < REC_NRECORD ? type : 0);
		e->off = (size_t)(body.p - r->data);
		e->len = (size_t)len;
		e->file_off = map_file_off(map, off);
		while (rec_next(&body, &f)) {
			if (f.num == REC_F_MONO)
				mono += (uint64_t)rec_unzigzag(f.u);
			else if (f.num == REC_F_WALL)
				wall += (uint64_t)rec_unzigzag(f.u);
		}
		if (body.err)
			return fail(err, errlen, "%s: byte %zu of the stream (a %s record): expected %s", r->path,
				    body.err_off, record_name(type), body.err);
		e->mono_ns = mono;
		e->wall_ns = wall;
		if (type == REC_END)
			r->ended = true;
		if (type == REC_HOST || type == REC_VALUES || type == REC_SAMPLE) {
			if (!r->nsamples && type != REC_HOST)
				return fail(err, errlen, "%s: byte %zu of the stream: expected a host record before the "
					    "first %s record", r->path, off, record_name(type));
			if (r->nsamples == scap) {
				size_t *n = realloc(r->samples, (scap = scap ? 2 * scap : 1024) * sizeof(*n));

				if (!n)
					return fail(err, errlen, "%s: out of memory", r->path);
				r->samples = n;
			}
			r->samples[r->nsamples++] = r->nrecs;
		}
		r->nrecs++;	/* unknown record types (a newer minor version) are kept and skipped */
	}
	if (!header)
		return fail(err, errlen, "%s: the recording ends before its header: no samples", r->path);
	if (cut && !r->note[0])
		snprintf(r->note, sizeof(r->note), "%s: the recording was not closed (killed?): %zu samples read",
			 r->path, r->nsamples);
	return 0;
}

size_t rec_reader_budget(size_t len)
{
	if (len > SIZE_MAX / REC_READER_DECODED_PER_BYTE)
		return SIZE_MAX;
	return len * REC_READER_DECODED_PER_BYTE > REC_READER_MAX_DECODED ? len * REC_READER_DECODED_PER_BYTE :
									    REC_READER_MAX_DECODED;
}

int rec_reader_parse(struct rec_reader *r, const char *name, const uint8_t *file, size_t flen, char *err,
		     size_t errlen)
{
	return rec_reader_parse_within(r, name, file, flen, rec_reader_budget(flen), err, errlen);
}

int rec_reader_parse_within(struct rec_reader *r, const char *name, const uint8_t *file, size_t flen,
			    size_t decode_budget, char *err, size_t errlen)
{
	struct stream_map map = { 0 };
	size_t nl;
	unsigned int major = 0, minor = 0;
	char magic[64];
	bool cut = false;
	int rc;

	memset(r, 0, sizeof(*r));
	r->decode_budget = decode_budget;
	r->path = strdup(name);
	if (!r->path)
		return fail(err, errlen, "%s: out of memory", name);
	for (nl = 0; nl < flen && nl < sizeof(magic) - 1 && file[nl] != '\n'; nl++)
		;
	memcpy(magic, file, nl);
	magic[nl] = '\0';
	if (strncmp(magic, REC_MAGIC, strlen(REC_MAGIC)) || nl == flen ||
	    sscanf(magic + strlen(REC_MAGIC), "%u.%u", &major, &minor) != 2) {
		fail(err, errlen, "%s: byte 0: expected \"%sMAJOR.MINOR\": not a fabtop recording", name, REC_MAGIC);
		goto fail;
	}
	if (major != REC_FORMAT_MAJOR) {
		fail(err, errlen, "%s: recording format %u.%u was written by a %s fabtop; this one reads format %u.x",
		     name, major, minor, major > REC_FORMAT_MAJOR ? "newer" : "different", REC_FORMAT_MAJOR);
		goto fail;
	}
	if (decompress(r, file + nl + 1, flen - nl - 1, nl + 1, &map, &cut, err, errlen))
		goto fail;
	rc = index_records(r, &map, cut, err, errlen);
	if (rc)
		goto fail;
	if (!r->nsamples) {
		fail(err, errlen, "%s: the recording holds no sample", name);
		goto fail;
	}
	free(map.in);
	free(map.out);
	return 0;
fail:
	free(map.in);
	free(map.out);
	rec_reader_close(r);
	return -1;
}

int rec_reader_open(struct rec_reader *r, const char *path, char *err, size_t errlen)
{
	uint8_t *file = NULL;
	size_t flen = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (read_file(path, &file, &flen, err, errlen))
		return -1;
	rc = rec_reader_parse(r, path, file, flen, err, errlen);
	free(file);
	return rc;
}

void rec_reader_close(struct rec_reader *r)
{
	free(r->path);
	free(r->data);
	free(r->recs);
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

/* The body of one sample record applied to h (a host record: h rebuilt). */
static int apply(const struct rec_reader *r, size_t rec, struct fab_host *h, char *err, size_t errlen)
{
	const struct rec_entry *e = &r->recs[rec];
	struct rec_cur c, sub;
	struct rec_field f;
	int rc = 0;

	rec_cur_init(&c, r->data + e->off, e->len, r->data);
	if (e->type == REC_SAMPLE || e->type == REC_VALUES) {
		rc = e->type == REC_SAMPLE ? rec_sample_apply(&c, h) : rec_values_apply(&c, h);
		return rc ? body_error(r, e, &c, rc, err, errlen) : 0;
	}
	while (rec_next(&c, &f)) {
		if (f.num != REC_F_BODY)
			continue;
		fab_host_free(h);
		memset(h, 0, sizeof(*h));
		rec_cur_sub(&sub, &c, &f);
		rc = rec_decode_host(&sub, h);
		if (rc) {
			fab_host_free(h);
			memset(h, 0, sizeof(*h));
			return body_error(r, e, &sub, rc, err, errlen);
		}
		return 0;
	}
	return body_error(r, e, &c, -EINVAL, err, errlen);
}

int rec_reader_host_at(const struct rec_reader *r, size_t i, struct fab_host *h, char *err, size_t errlen)
{
	size_t from = i;
	int rc;

	if (i >= r->nsamples)
		return fail(err, errlen, "%s: no sample %zu (it has %zu)", r->path, i, r->nsamples), -EINVAL;
	/* back to the last host record, then forward from the last keyframe after it */
	while (r->recs[r->samples[from]].type != REC_HOST)
		from--;
	rc = apply(r, r->samples[from], h, err, errlen);
	for (size_t k = i; !rc && k > from; k--) {
		if (r->recs[r->samples[k]].type == REC_VALUES) {
			rc = apply(r, r->samples[k], h, err, errlen);
			from = k;
			break;
		}
	}
	for (size_t k = from + 1; !rc && k <= i; k++)
		rc = apply(r, r->samples[k], h, err, errlen);
	return rc;
}

int rec_reader_step(const struct rec_reader *r, size_t i, struct fab_host *h, bool *structure,
		    char *err, size_t errlen)
{
	if (i >= r->nsamples)
		return fail(err, errlen, "%s: no sample %zu (it has %zu)", r->path, i, r->nsamples), -EINVAL;
	*structure = r->recs[r->samples[i]].type == REC_HOST;
	return apply(r, r->samples[i], h, err, errlen);
}

size_t rec_reader_last(const struct rec_reader *r, size_t i, enum rec_record type, size_t before)
{
	size_t last = i + 1 < r->nsamples ? r->samples[i + 1] - 1 : r->nrecs - 1;

	if (before <= last)
		last = before - 1;
	for (size_t k = last + 1; k-- > 0;)
		if (r->recs[k].type == type)
			return k;
	return (size_t)-1;
}

size_t rec_reader_net_record(const struct rec_reader *r, size_t i)
{
	size_t last = i < r->nsamples ? r->samples[i] : r->nrecs - 1;

	for (size_t k = last + 1; k-- > 0;)
		if (r->recs[k].type == REC_NET)
			return k;
	return (size_t)-1;
}

int rec_reader_net_at(const struct rec_reader *r, size_t i, struct net_state *st, char *err, size_t errlen)
{
	size_t k = rec_reader_net_record(r, i);
	const uint8_t *body;
	size_t len;
	struct rec_cur c;
	int rc;

	memset(st, 0, sizeof(*st));
	if (k == (size_t)-1 || !rec_reader_body(r, k, &body, &len))
		return -ENOENT;
	rec_cur_init(&c, body, len, r->data);
	rc = rec_decode_net(&c, st);
	if (rc) {
		net_state_free(st);
		memset(st, 0, sizeof(*st));
		return body_error(r, &r->recs[k], &c, rc, err, errlen);
	}
	return 0;
}

size_t rec_reader_sample_at_wall(const struct rec_reader *r, uint64_t wall_ns)
{
	size_t lo = 0, hi = r->nsamples;

	/* the last sample not later than wall_ns (samples are in time order as recorded) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->recs[r->samples[mid]].wall_ns <= wall_ns)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

bool rec_reader_body(const struct rec_reader *r, size_t rec, const uint8_t **body, size_t *len)
{
	struct rec_cur c;
	struct rec_field f;

	if (rec >= r->nrecs)
		return false;
	rec_cur_init(&c, r->data + r->recs[rec].off, r->recs[rec].len, r->data);
	while (rec_next(&c, &f)) {
		if (f.num == REC_F_BODY && f.wire == REC_WIRE_BYTES) {
			*body = f.bytes;
			*len = f.len;
			return true;
		}
	}
	return false;
}

/* The record index where sample i's records end (the next sample's, or the end). */
static size_t sample_end(const struct rec_reader *r, size_t i)
{
	return i + 1 < r->nsamples ? r->samples[i + 1] : r->nrecs;
}

int rec_reader_events(const struct rec_reader *r, size_t i, size_t *from, struct event_log *log, char *err,
		      size_t errlen)
{
	size_t end = i < r->nsamples ? sample_end(r, i) : r->nrecs;

	for (; *from < end; (*from)++) {
		const uint8_t *body;
		size_t len;
		struct rec_cur c;
		struct fab_event ev;

		if (r->recs[*from].type != REC_EVENT || !rec_reader_body(r, *from, &body, &len))
			continue;
		rec_cur_init(&c, body, len, r->data);
		if (rec_decode_event(&c, &ev))
			return body_error(r, &r->recs[*from], &c, -EINVAL, err, errlen);
		event_log_append(log, &ev);
	}
	return 0;
}

size_t rec_reader_next_event_sample(const struct rec_reader *r, size_t i)
{
	for (size_t k = i + 1; k < r->nsamples; k++)
		for (size_t e = r->samples[k]; e < sample_end(r, k); e++)
			if (r->recs[e].type == REC_EVENT)
				return k;
	return i;
}
