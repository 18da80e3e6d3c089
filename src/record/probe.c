// SPDX-License-Identifier: GPL-2.0-or-later
/* A probe run as a record body and back (see probe.h and doc/recording.md). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "record/probe.h"

/* Field numbers of the probe message past its table's (doc/recording.md). */
enum { PROBE_EVENT = 40, PROBE_WHY = 41 };

void rec_probe_encode(struct rec_buf *b, const struct rec_probe *p)
{
	rec_encode(b, &rec_probe_table, p);
	for (unsigned int i = 0; i < p->st.n_events && i < PROBE_MAX_EVENTS; i++)
		rec_put_msg(b, PROBE_EVENT, &rec_probe_event_table, &p->events[i]);
	for (unsigned int i = 0; i < p->why.n && i < EXPLAIN_MAX_LINES; i++)
		rec_put_str(b, PROBE_WHY, p->why.line[i]);
}

int rec_probe_decode(struct rec_cur *c, struct rec_probe *p)
{
	struct rec_field f;
	unsigned int n = 0;

	memset(p, 0, sizeof(*p));
	while (rec_next(c, &f)) {
		if (rec_decode_field(c, &rec_probe_table, p, &f))
			continue;
		if (f.num == PROBE_WHY && p->why.n < EXPLAIN_MAX_LINES) {
			rec_field_str(&f, p->why.line[p->why.n], sizeof(p->why.line[0]));
			p->why.n++;
		}
		if (f.num != PROBE_EVENT)
			continue;
		/* the newest PROBE_MAX_EVENTS: a longer list keeps its tail */
		if (n == PROBE_MAX_EVENTS) {
			memmove(p->events, p->events + 1, (PROBE_MAX_EVENTS - 1) * sizeof(p->events[0]));
			n--;
		}
		memset(&p->events[n], 0, sizeof(p->events[n]));
		rec_decode_msg(c, &f, &rec_probe_event_table, &p->events[n++]);
	}
	p->st.events = p->events;
	p->st.n_events = n;
	if (p->st.events_total < n)
		p->st.events_total = n;
	return c->err ? -EINVAL : 0;
}

void rec_probe_from(struct rec_probe *p, uint64_t run, uint64_t elapsed_ns, const char *peer,
		    const char *from_ifname, const struct probe_status *st)
{
	memset(p, 0, sizeof(*p));
	p->run = run;
	p->elapsed_ns = elapsed_ns;
	snprintf(p->peer, sizeof(p->peer), "%s", peer ? peer : "");
	snprintf(p->from_ifname, sizeof(p->from_ifname), "%s", from_ifname ? from_ifname : "");
	p->st = *st;
	p->st.n_events = st->n_events < PROBE_MAX_EVENTS ? st->n_events : PROBE_MAX_EVENTS;
	if (p->st.n_events)
		memcpy(p->events, st->events, p->st.n_events * sizeof(p->events[0]));
	p->st.events = p->events;
}
