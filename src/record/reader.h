/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a recording: the whole stream checked and indexed at open, any sample rebuilt on demand. */
#ifndef FABTOP_RECORD_READER_H
#define FABTOP_RECORD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"
#include "model/net.h"
#include "record/file.h"

struct rec_reader {
	char *path;
	struct rec_info info;
	uint8_t *data;			/* the decompressed stream */
	size_t len;
	struct rec_entry *recs;		/* every record after the header, in order */
	size_t nrecs;
	size_t *samples;		/* indexes into recs of HOST, VALUES and SAMPLE records */
	size_t nsamples;
	bool ended;			/* the recorder closed the file (an END record) */
	char note[320];			/* why the tail was left out (killed recorder), "" if nothing */
	size_t decoded;			/* bytes the records decoded at open took, in all */
	size_t decode_budget;		/* past this, the file is refused (REC_READER_MAX_DECODED) */
};

/*
 * What a reader takes (doc/recording.md), a clear error past each, never an
 * exhausted host: the decompressed stream (a day of a 64-port host with
 * every counter moving is ~310 MB), one record (a host record of a thousand
 * devices is a few MiB), the records (three weeks of samples at 1 s), and the
 * zstd window (the writer's is 2 MiB).
 */
#define REC_READER_MAX_STREAM	(512ull << 20)
#define REC_READER_MAX_RECORD	(32u << 20)
#define REC_READER_MAX_RECORDS	(2u << 20)
#define REC_READER_WINDOW_LOG	23
/*
 * What the records decoded at open (host, network, MAD view, subnet, RoCE
 * chain) may take in memory, summed over the whole file: 512 MiB, or 1024
 * bytes per byte of the file when that is more. Each is decoded, checked
 * and freed, so this bounds the time and churn of opening, not what is
 * held: opening stays linear in the file's size (~0.4 s for the worst small
 * file made so far; a crafted file gets at most ~1 us of decoding per byte
 * of it). An InfiniBand port's MAD view is ~11 KB a sample but some tens of
 * bytes of file, so a long recording is never refused for its length.
 */
#define REC_READER_MAX_DECODED		(512ull << 20)
#define REC_READER_DECODED_PER_BYTE	1024ull
#define REC_READER_MAX_DECODED_TEXT	"512 MiB, or 1024 bytes per byte of the file,"

/* The whole-file budget of a file of len bytes (the larger of the two, never past SIZE_MAX). */
size_t rec_reader_budget(size_t len);

/*
 * Open, decompress, check and index path. 0, or -1 with err saying what
 * is wrong and where ("byte N: expected ..."). A tail cut inside a record
 * (the recorder was killed) is not an error: the samples before it read,
 * and r->note says what was left out.
 */
int rec_reader_open(struct rec_reader *r, const char *path, char *err, size_t errlen);
/* The same from the file's bytes in memory (name for messages); data is not kept. */
int rec_reader_parse(struct rec_reader *r, const char *name, const uint8_t *data, size_t len, char *err,
		     size_t errlen);
/* The same within another whole-file budget of decoded bytes (its edges tested without a 1 GiB file). */
int rec_reader_parse_within(struct rec_reader *r, const char *name, const uint8_t *data, size_t len,
			    size_t decode_budget, char *err, size_t errlen);
void rec_reader_close(struct rec_reader *r);

/* h (freed first when it holds a host) becomes the host at sample i. 0, -ENOMEM or -EINVAL (err). */
int rec_reader_host_at(const struct rec_reader *r, size_t i, struct fab_host *h, char *err, size_t errlen);
/*
 * h holds sample i - 1: move it to sample i, in place when the structure
 * stays (*structure false), rebuilt when a host record comes (*structure true).
 */
int rec_reader_step(const struct rec_reader *r, size_t i, struct fab_host *h, bool *structure,
		    char *err, size_t errlen);
/* The network state in force at sample i (st zeroed or freed). 0, -ENOENT (none recorded), -ENOMEM, -EINVAL. */
int rec_reader_net_at(const struct rec_reader *r, size_t i, struct net_state *st, char *err, size_t errlen);
/* The index of the last NET record at or before sample i, or (size_t)-1: tells when the network changed. */
size_t rec_reader_net_record(const struct rec_reader *r, size_t i);
/*
 * The last record of kind type written before the sample after i (what
 * the live screen last showed while it was at sample i, as events do)
 * whose index is below before ((size_t)-1: any), or (size_t)-1: what was
 * in force at sample i, and walking back from it.
 */
size_t rec_reader_last(const struct rec_reader *r, size_t i, enum rec_record type, size_t before);
/* The sample at or before wall time t (the first one when t is earlier). */
size_t rec_reader_sample_at_wall(const struct rec_reader *r, uint64_t wall_ns);
/*
 * The events recorded up to sample i (those written after it and before the
 * next sample belong to it) appended to log, from record index *from on
 * (0: the start); *from is moved past them. 0, or -EINVAL with err.
 */
struct event_log;
int rec_reader_events(const struct rec_reader *r, size_t i, size_t *from, struct event_log *log, char *err,
		      size_t errlen);
/* The first sample after i that has events of its own; i itself when none. */
size_t rec_reader_next_event_sample(const struct rec_reader *r, size_t i);
/* A record's body (the REC_F_BODY field), for records of other kinds (events). false: none. */
bool rec_reader_body(const struct rec_reader *r, size_t rec, const uint8_t **body, size_t *len);

#endif
