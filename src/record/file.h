/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recording file: a text line naming the format, then one zstd stream of framed records. */
#ifndef FABTOP_RECORD_FILE_H
#define FABTOP_RECORD_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* doc/recording.md describes every record; a reader takes any minor version of its major. */
#define REC_FORMAT_MAJOR	1
#define REC_FORMAT_MINOR	3
#define REC_MAGIC		"fabtop recording "	/* then "MAJOR.MINOR\n" */

enum rec_record {
	REC_HEADER = 1,		/* what, where, when, and the schema */
	REC_HOST = 2,		/* the whole host: structure and values */
	REC_VALUES = 3,		/* a keyframe: every counter's state, no structure */
	REC_SAMPLE = 4,		/* a counter sample: what differs from the prediction */
	REC_NET = 5,		/* the network state, when it changed */
	REC_EVENT = 6,		/* something that happened (model/events.h) */
	REC_END = 7,		/* the recorder closed the file */
	REC_MAD = 8,		/* the MAD view of the local IB ports, when it changed (format 1.1) */
	REC_PROBE = 9,		/* the probe's state and numbers, every interval while one runs (format 1.1) */
	REC_SUBNET = 10,	/* the whole subnet of the Fabric pane, when swept or sampled (format 1.2) */
	REC_ROCE = 11,		/* the RoCE lossless chain of the Ethernet ports, when it changed (format 1.3) */
	REC_NRECORD
};

/* Every record but the header starts with these: times as differences from the record before. */
#define REC_F_MONO	1	/* sint: CLOCK_MONOTONIC ns since the previous record */
#define REC_F_WALL	2	/* sint: CLOCK_REALTIME ns since the previous record */
#define REC_F_BODY	3	/* the record's message (host, net, event, MAD view, probe, ...) or, in samples, port entries */

/* What the header says about the recording. */
struct rec_info {
	char fabtop_version[32];
	char hostname[128];
	char source[256];		/* "/sys", "demo fabric (simulated, seed 7)" */
	double interval_s;
	uint64_t start_mono_ns, start_wall_ns;
	uint32_t major, minor;
};

/* A sample (HOST, VALUES or SAMPLE record) or another record, as indexed when the file is opened. */
struct rec_entry {
	enum rec_record type;
	size_t off, len;		/* the body in the decompressed stream */
	uint64_t mono_ns, wall_ns;	/* absolute */
	uint64_t file_off;		/* about where in the file it came from (compressed) */
};

#endif
