/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The MAD view of the local InfiniBand ports as a recording keeps it: partners, the SM, both ends' PMA. */
#ifndef FABTOP_RECORD_MAD_H
#define FABTOP_RECORD_MAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/ibfabric.h"
#include "record/codec.h"

/* What the live view had just done when it was written (a replay does the same with it). */
enum rec_mad_news {
	REC_MAD_OPENED = 0,	/* opened, or no view (reason says why) */
	REC_MAD_SAMPLED = 1,	/* new PMA samples of both ends */
	REC_MAD_REQUERIED = 2,	/* the ports were asked again: partners may have changed */
};

/* One MAD record's view (doc/recording.md): no view and why, or each local port. */
struct rec_mad {
	char reason[768];		/* why there is no view ("" when there is one, or none was tried) */
	enum rec_mad_news news;
	struct ib_local_port *ports;
	bool *changed;			/* [nports]: another partner, or none, than at the query before */
	size_t nports;
};

void rec_mad_encode(struct rec_buf *b, const struct rec_mad *m);
/* Into a zeroed m; 0, -ENOMEM, or -EINVAL with c->err saying what was expected. */
int rec_mad_decode(struct rec_cur *c, struct rec_mad *m);
/* One PMA (its fields, then its counters with their states) as message field, and back into a zeroed pma. */
void rec_mad_encode_pma(struct rec_buf *b, unsigned int field, const struct ib_pma *pma);
void rec_mad_decode_pma(struct rec_cur *c, const struct rec_field *f, struct ib_pma *pma);
/* The arrays; m is zeroed. */
void rec_mad_free(struct rec_mad *m);

#endif
