// SPDX-License-Identifier: GPL-2.0-or-later
/* Counter samples as differences from the steady-state prediction (see sample.h, doc/recording.md). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/sample.h"

/* Inside a port entry. */
enum {
	PE_INDEX = 1,		/* the port's position in the host, devices in order */
	PE_FIELDS = 2,		/* the port table's fields that changed */
	PE_SAMPLE_NS = 3,	/* sint: sample_ns minus its prediction */
	PE_PREV_SAMPLE_NS = 4,	/* when not the old sample_ns */
	PE_FIRST_SAMPLE_NS = 5,	/* when changed */
	PE_COUNTERS = 6,	/* packed counter entries */
};

static bool raw_plain(const struct rec_counter_state *st)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, st->value);
	return st->known && !strcmp(st->raw, num);
}

/* Set the value; a raw text that was the value's decimal form follows it. */
static void counter_with_value(struct rec_counter_state *st, uint64_t value, bool plain)
{
	st->value = value;
	if (plain) {
		memset(st->raw, 0, sizeof(st->raw));
		snprintf(st->raw, sizeof(st->raw), "%" PRIu64, value);
	}
}

/* The state a counter is expected to have one sample after old (a raw text that was its value's follows it). */
static void predict_counter(struct rec_counter_state *p, const struct rec_counter_state *old)
{
	*p = *old;
	p->prev_known = old->known;
	p->prev_saturated = old->saturated;
	p->prev_value = old->value;
	if (old->known && old->prev_known && !old->saturated && !old->prev_saturated)
		counter_with_value(p, old->value + (old->value - old->prev_value), raw_plain(old));
}

static uint64_t predict_sample_ns(const struct fab_port *old)
{
	if (old->sample_ns && old->prev_sample_ns && old->sample_ns > old->prev_sample_ns)
		return old->sample_ns + (old->sample_ns - old->prev_sample_ns);
	return old->sample_ns;
}

static size_t host_nports(const struct fab_host *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->ndevs; i++)
		n += h->devs[i].nports;
	return n;
}

void rec_shadow_free(struct rec_shadow *s)
{
	for (size_t i = 0; i < s->nports; i++)
		free(s->ports[i].counters);
	free(s->ports);
	rec_buf_free(&s->packed);
	rec_buf_free(&s->fields);
	rec_buf_free(&s->diff);
	memset(s, 0, sizeof(*s));
}

int rec_shadow_set(struct rec_shadow *s, const struct fab_host *h)
{
	size_t n = 0;

	rec_shadow_free(s);
	s->ports = calloc(host_nports(h) ? host_nports(h) : 1, sizeof(*s->ports));
	if (!s->ports)
		return -ENOMEM;
	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];
			struct rec_shadow_port *sp = &s->ports[n++];

			s->nports = n;
			sp->port = *p;
			sp->port.counters = NULL;
			sp->port.gids = NULL;
			sp->counters = calloc(p->ncounters ? p->ncounters : 1, sizeof(*sp->counters));
			if (!sp->counters) {
				rec_shadow_free(s);
				return -ENOMEM;
			}
			sp->ncounters = p->ncounters;
			for (size_t k = 0; k < p->ncounters; k++)
				rec_counter_state_get(&sp->counters[k], &p->counters[k]);
		}
	}
	return 0;
}

bool rec_shadow_matches(const struct rec_shadow *s, const struct fab_host *h)
{
	size_t n = 0;

	if (host_nports(h) != s->nports)
		return false;
	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];
			const struct rec_shadow_port *sp = &s->ports[n++];

			if (p->ncounters != sp->ncounters || p->num != sp->port.num)
				return false;
		}
	}
	return true;
}

/* One counter entry: the gap since the last entry, the value's miss, then the other fields that differ. */
static void encode_counter(struct rec_buf *b, struct rec_buf *diff, size_t gap, const struct rec_counter_state *pred,
			   const struct rec_counter_state *act)
{
	struct rec_counter_state like = *pred;

	counter_with_value(&like, act->value, raw_plain(pred));
	rec_buf_reset(diff);
	rec_encode_diff(diff, &rec_counter_state_table, act, &like);
	/* the gap's low bit says whether other fields follow: most entries are a value alone */
	rec_put_varint(b, (uint64_t)gap << 1 | (diff->len ? 1 : 0));
	rec_put_varint(b, rec_zigzag((int64_t)(act->value - pred->value)));
	if (diff->len) {
		rec_put_varint(b, diff->len);
		rec_put_raw(b, diff->data, diff->len);
	}
	if (diff->oom)
		b->oom = true;
}

void rec_sample_encode(struct rec_buf *b, struct rec_shadow *s, const struct fab_host *h)
{
	struct rec_buf *packed = &s->packed, *fields = &s->fields;
	size_t n = 0;

	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++, n++) {
			const struct fab_port *p = &h->devs[i].ports[j];
			struct rec_shadow_port *sp = &s->ports[n];
			uint64_t pred_ns = predict_sample_ns(&sp->port);
			size_t last = 0, m = 0;
			bool any = false;

			rec_buf_reset(packed);
			for (size_t k = 0; k < p->ncounters; k++) {
				struct rec_counter_state pred, act;

				predict_counter(&pred, &sp->counters[k]);
				rec_counter_state_get(&act, &p->counters[k]);
				if (memcmp(&pred, &act, sizeof(act))) {
					encode_counter(packed, &s->diff, k - last, &pred, &act);
					last = k + 1;
				}
				sp->counters[k] = act;
			}
#define ENTRY() do { if (!any) { m = rec_put_begin(b, REC_SAMPLE_PORT); rec_put_uint(b, PE_INDEX, n); any = true; } } while (0)
			rec_buf_reset(fields);
			rec_encode_diff(fields, &rec_port_table, p, &sp->port);
			if (fields->len) {
				ENTRY();
				rec_put_bytes(b, PE_FIELDS, fields->data, fields->len);
			}
			if (fields->oom)
				b->oom = true;
			if (p->sample_ns != pred_ns) {
				ENTRY();
				rec_put_sint(b, PE_SAMPLE_NS, (int64_t)(p->sample_ns - pred_ns));
			}
			if (p->prev_sample_ns != sp->port.sample_ns) {
				ENTRY();
				rec_put_uint(b, PE_PREV_SAMPLE_NS, p->prev_sample_ns);
			}
			if (p->first_sample_ns != sp->port.first_sample_ns) {
				ENTRY();
				rec_put_uint(b, PE_FIRST_SAMPLE_NS, p->first_sample_ns);
			}
			if (packed->oom)
				b->oom = true;
			if (packed->len) {
				ENTRY();
				rec_put_bytes(b, PE_COUNTERS, packed->data, packed->len);
			}
#undef ENTRY
			if (any)
				rec_put_end(b, m);
			sp->port = *p;
			sp->port.counters = NULL;
			sp->port.gids = NULL;
		}
	}
}

static struct fab_port *port_at(struct fab_host *h, uint64_t idx)
{
	for (size_t i = 0; i < h->ndevs; i++) {
		if (idx < h->devs[i].nports)
			return &h->devs[i].ports[idx];
		idx -= h->devs[i].nports;
	}
	return NULL;
}

static void apply_counters(struct rec_cur *c, const struct rec_field *f, struct fab_port *p)
{
	struct rec_cur k;
	size_t at = 0;

	rec_cur_sub(&k, c, f);
	while (k.p < k.end) {
		uint64_t gap, dv, len = 0;
		struct rec_counter_state st;
		struct rec_cur d;
		struct rec_field g;
		bool plain;

		if (!rec_get_varint(&k, &gap) || !rec_get_varint(&k, &dv) || ((gap & 1) && !rec_get_varint(&k, &len)))
			break;
		gap >>= 1;
		if (gap >= p->ncounters - at || len > (uint64_t)(k.end - k.p)) {
			rec_fail(&k, k.p, gap >= p->ncounters - at ? "a counter of the port" : "a length within the entry");
			break;
		}
		at += gap;
		/* the prediction was applied already: the entry corrects it */
		rec_counter_state_get(&st, &p->counters[at]);
		plain = raw_plain(&st);
		counter_with_value(&st, st.value + (uint64_t)rec_unzigzag(dv), plain);
		rec_cur_init(&d, k.p, (size_t)len, k.base);
		while (rec_next(&d, &g))
			rec_decode_field(&d, &rec_counter_state_table, &st, &g);
		if (d.err) {
			rec_fail(&k, d.base + d.err_off, d.err);
			break;
		}
		k.p += len;
		rec_counter_state_set(&p->counters[at], &st);
		at++;
	}
	if (k.err)
		rec_fail(c, k.base + k.err_off, k.err);
}

int rec_sample_apply(struct rec_cur *c, struct fab_host *h)
{
	struct rec_field f;

	/* Every port and counter moves on as predicted; the entries correct what did not. */
	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			struct fab_port *p = &h->devs[i].ports[j];
			uint64_t ns = predict_sample_ns(p);

			for (size_t k = 0; k < p->ncounters; k++) {
				struct rec_counter_state old, pred;

				rec_counter_state_get(&old, &p->counters[k]);
				predict_counter(&pred, &old);
				rec_counter_state_set(&p->counters[k], &pred);
			}
			p->prev_sample_ns = p->sample_ns;
			p->sample_ns = ns;
		}
	}
	while (rec_next(c, &f)) {
		struct rec_cur e;
		struct rec_field g;
		struct fab_port *p = NULL;

		if (f.num != REC_SAMPLE_PORT)
			continue;
		rec_cur_sub(&e, c, &f);
		while (rec_next(&e, &g)) {
			if (g.num == PE_INDEX) {
				p = port_at(h, g.u);
				if (!p)
					rec_fail(&e, e.p, "a port index within the host");
				continue;
			}
			if (!p) {
				rec_fail(&e, e.p, "the port index first");
				break;
			}
			switch (g.num) {
			case PE_FIELDS: {
				struct rec_cur d;
				struct rec_field x;
				unsigned int num = p->num;

				rec_cur_sub(&d, &e, &g);
				while (rec_next(&d, &x))
					rec_decode_field(&d, &rec_port_table, p, &x);
				if (d.err)
					rec_fail(&e, d.base + d.err_off, d.err);
				p->num = num;	/* a port keeps its number: structure changes come as a new host */
				break;
			}
			case PE_SAMPLE_NS:
				p->sample_ns += (uint64_t)rec_unzigzag(g.u);
				break;
			case PE_PREV_SAMPLE_NS:
				p->prev_sample_ns = g.u;
				break;
			case PE_FIRST_SAMPLE_NS:
				p->first_sample_ns = g.u;
				break;
			case PE_COUNTERS:
				apply_counters(&e, &g, p);
				break;
			}
		}
		if (e.err)
			rec_fail(c, e.base + e.err_off, e.err);
	}
	return c->err ? -EINVAL : 0;
}

/* Inside a keyframe's port: its times, then every counter's state in order. */
enum { VP_INDEX = 1, VP_TIME = 2, VP_COUNTER = 3, VP_FIELDS = 4 };

void rec_values_encode(struct rec_buf *b, const struct fab_host *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++, n++) {
			const struct fab_port *p = &h->devs[i].ports[j];
			size_t m = rec_put_begin(b, REC_SAMPLE_PORT);

			rec_put_uint(b, VP_INDEX, n);
			rec_put_msg(b, VP_TIME, &rec_port_time_table, p);
			rec_put_msg(b, VP_FIELDS, &rec_port_table, p);
			for (size_t k = 0; k < p->ncounters; k++)
				rec_encode_counter_state(b, VP_COUNTER, &p->counters[k]);
			rec_put_end(b, m);
		}
	}
}

int rec_values_apply(struct rec_cur *c, struct fab_host *h)
{
	struct rec_field f;

	while (rec_next(c, &f)) {
		struct rec_cur e;
		struct rec_field g;
		struct fab_port *p = NULL;
		size_t k = 0;

		if (f.num != REC_SAMPLE_PORT)
			continue;
		rec_cur_sub(&e, c, &f);
		while (rec_next(&e, &g)) {
			if (g.num == VP_INDEX) {
				p = port_at(h, g.u);
				if (!p)
					rec_fail(&e, e.p, "a port index within the host");
			} else if (!p) {
				rec_fail(&e, e.p, "the port index first");
			} else if (g.num == VP_TIME) {
				p->sample_ns = p->prev_sample_ns = p->first_sample_ns = 0;
				rec_decode_msg(&e, &g, &rec_port_time_table, p);
			} else if (g.num == VP_FIELDS) {
				struct fab_port fields = { 0 };
				unsigned int num = p->num;

				rec_decode_msg(&e, &g, &rec_port_table, &fields);
				/* every field of the table is in the keyframe: copy them all, the number kept */
				for (size_t i = 0; i < rec_port_table.n; i++) {
					const struct rec_desc *d = &rec_port_table.f[i];

					memcpy((char *)p + d->off, (const char *)&fields + d->off, d->size);
				}
				p->num = num;
			} else if (g.num == VP_COUNTER) {
				if (k >= p->ncounters)
					rec_fail(&e, e.p, "no more counters than the port has");
				else
					rec_decode_counter_state(&e, &g, &p->counters[k++]);
			}
		}
		if (e.err)
			rec_fail(c, e.base + e.err_off, e.err);
	}
	return c->err ? -EINVAL : 0;
}
