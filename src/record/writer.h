/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing a recording as it happens: append-only, every record flushed whole (doc/recording.md). */
#ifndef FABTOP_RECORD_WRITER_H
#define FABTOP_RECORD_WRITER_H

#include "model/fabric.h"
#include "model/net.h"
#include "record/file.h"

struct rec_writer;

/* Every this many samples the full counter state is written again, so seeking never replays more. */
#define REC_KEYFRAME_SAMPLES	300

/* Create path (replacing it) and write the header. NULL with err filled: why. */
struct rec_writer *rec_writer_open(const char *path, const struct rec_info *info, char *err, size_t errlen);
/* The whole host (after a collection: the structure may have changed). 0 or -errno. */
int rec_writer_host(struct rec_writer *w, const struct fab_host *h, uint64_t mono_ns, uint64_t wall_ns);
/* A counter sample of h (a host record instead when its structure is not the last one written). */
int rec_writer_sample(struct rec_writer *w, const struct fab_host *h, uint64_t mono_ns, uint64_t wall_ns);
/* The network state, written only when it differs from the last one. */
int rec_writer_net(struct rec_writer *w, const struct net_state *st, uint64_t mono_ns, uint64_t wall_ns);
/* A record of another kind with its body already encoded (events). */
int rec_writer_record(struct rec_writer *w, enum rec_record type, const void *body, size_t len,
		      uint64_t mono_ns, uint64_t wall_ns);
/* Bytes in the file so far, samples written. */
uint64_t rec_writer_bytes(const struct rec_writer *w);
uint64_t rec_writer_samples(const struct rec_writer *w);
const char *rec_writer_path(const struct rec_writer *w);
/* The first write error (-errno), 0 while fine: a writer that failed writes nothing more. */
int rec_writer_error(const struct rec_writer *w);
/* Write the end record and close; 0 or the first error. NULL is fine. */
int rec_writer_close(struct rec_writer *w);

#endif
