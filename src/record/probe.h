/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A probe run as a recording keeps it: the Probe pane's state, numbers and CM event timeline. */
#ifndef FABTOP_RECORD_PROBE_H
#define FABTOP_RECORD_PROBE_H

#include "record/codec.h"
#include "record/schema.h"

/* The probe's fields, then its CM events (the newest st.n_events of st.events_total). */
void rec_probe_encode(struct rec_buf *b, const struct rec_probe *p);
/* Into p (zeroed first); st.events points into p->events. 0, or -EINVAL with c->err. */
int rec_probe_decode(struct rec_cur *c, struct rec_probe *p);
/* p from a live status (its events copied), the peer as typed and the source interface. */
void rec_probe_from(struct rec_probe *p, uint64_t run, uint64_t elapsed_ns, const char *peer,
		    const char *from_ifname, const struct probe_status *st);

#endif
