// SPDX-License-Identifier: GPL-2.0-or-later
/* The IB CM's per-port counters as fabtop reads them: their definitions, the REJs since the first sample, and the doctor's finding 7. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "source/snapshot.h"
#include "derive/counters.h"
#include "derive/doctor.h"
#include "model/net.h"
#include "util.h"

static const struct {
	const char *file;
	enum fab_counter_source src;
} cm[] = {
	{ "rej", COUNTER_SRC_CM_TX_MSGS }, { "rej", COUNTER_SRC_CM_RX_MSGS },
	{ "req", COUNTER_SRC_CM_TX_MSGS }, { "req", COUNTER_SRC_CM_RX_MSGS },
	{ "req", COUNTER_SRC_CM_TX_RETRIES }, { "rep", COUNTER_SRC_CM_RX_DUPLICATES },
};

/* One port with the CM's counters, as kernel/host.c names them ("DIR/FILE"). */
static void host_with_cm(struct fab_host *h, struct fab_device *d, struct fab_port *p, struct fab_counter *c)
{
	memset(h, 0, sizeof(*h));
	memset(d, 0, sizeof(*d));
	memset(p, 0, sizeof(*p));
	snprintf(d->name, sizeof(d->name), "rxe0");
	p->num = 1;
	p->state = PORT_STATE_ACTIVE;
	p->phys_state = PHYS_STATE_LINK_UP;
	p->link_layer = LINK_LAYER_ETHERNET;
	for (size_t i = 0; i < ARRAY_SIZE(cm); i++) {
		counter_define(&c[i], cm[i].file, cm[i].src, false);
		snprintf(c[i].name, sizeof(c[i].name), "%s/%s", fab_counter_source_str(cm[i].src), cm[i].file);
		counter_sample_value(&c[i], true, 5);
	}
	p->counters = c;
	p->ncounters = ARRAY_SIZE(cm);
	d->ports = p;
	d->nports = 1;
	h->devs = d;
	h->ndevs = 1;
}

static const struct doctor_finding *run(const struct fab_host *h, struct doctor_report *r)
{
	static struct net_state net;
	struct doctor_input in = { .host = h, .net = &net, .routes = snapshot_routes(&net) };

	memset(r, 0, sizeof(*r));
	if (doctor_run(&in, NULL, r))
		return NULL;
	for (size_t i = 0; i < r->nfindings; i++)
		if (r->findings[i].id == DOCTOR_CM_REJECT)
			return &r->findings[i];
	return NULL;
}

int main(void)
{
	struct fab_host h;
	struct fab_device d;
	struct fab_port p;
	struct fab_counter c[ARRAY_SIZE(cm)];
	struct doctor_report r;
	const struct doctor_finding *f;
	uint64_t tx, rx;

	host_with_cm(&h, &d, &p, c);
	ASSERT_EQ_INT(counter_is_cm(&c[0]), 1, "cm_tx_msgs/rej is a CM counter");
	ASSERT_EQ_INT(c[0].kind, COUNTER_KIND_ERROR, "a REJ sent is worth attention");
	ASSERT_EQ_INT(c[2].kind, COUNTER_KIND_OTHER, "a REQ is traffic");
	ASSERT_EQ_INT(c[4].kind, COUNTER_KIND_ERROR, "a resent REQ is worth attention");
	ASSERT_EQ_INT(c[5].kind, COUNTER_KIND_ERROR, "a duplicate REP received is worth attention");
	ASSERT_EQ_U64(c[0].bits, 64, "atomic_long: 64 bits");
	ASSERT_EQ_INT(counter_is_cm_rej(&c[0], DIR_XMIT), 1, "REJ sent");
	ASSERT_EQ_INT(counter_is_cm_rej(&c[1], DIR_RCV), 1, "REJ received");
	ASSERT_EQ_INT(counter_is_cm_rej(&c[1], DIR_XMIT), 0, "a received REJ is not a sent one");
	ASSERT_EQ_INT(counter_is_cm_rej(&c[2], DIR_XMIT), 0, "a REQ is no REJ");

	/* REJs counted before fabtop started are history, not a finding. */
	ASSERT_EQ_INT(host_cm_rejs(&h, &tx, &rx), 0, "no REJ moved at the first sample");
	f = run(&h, &r);
	ASSERT_NULL(f, "no finding 7 without movement");
	doctor_report_free(&r);

	/* One connect refused: the peer's REJ received, and one of ours sent. */
	counter_sample_value(&c[0], true, 6);
	counter_sample_value(&c[1], true, 7);
	counter_sample_value(&c[2], true, 8);
	ASSERT_EQ_INT(host_cm_rejs(&h, &tx, &rx), 1, "REJs moved");
	ASSERT_EQ_U64(tx, 1, "one sent");
	ASSERT_EQ_U64(rx, 2, "two received");
	f = run(&h, &r);
	ASSERT_NOT_NULL(f, "finding 7");
	if (f) {
		ASSERT_EQ_STR(f->code, "cm-reject", "its code");
		ASSERT_EQ_STR(f->device, "rxe0", "its device");
		ASSERT_EQ_U64(f->port, 1, "its port");
		ASSERT_CONTAINS(f->title, "REJ sent 1, received 2", "title: the counts");
		ASSERT_CONTAINS(f->cause, "nothing listens", "cause: nothing listening");
		ASSERT_CONTAINS(f->cause, "consumer reject", "cause: the application refused");
		ASSERT_CONTAINS(f->evidence[1], "cm_tx_msgs/req +3", "evidence: the requests");
		ASSERT_CONTAINS(f->fix[0], "fabtop show res cm", "fix: who listens where");
	}
	doctor_report_free(&r);

	/* A counter reset (the module reloaded) gives no delta, so no finding. */
	counter_sample_value(&c[0], true, 0);
	counter_sample_value(&c[1], true, 0);
	ASSERT_EQ_INT(host_cm_rejs(&h, &tx, &rx), 0, "after a reset: nothing to count");
	return tap_done();
}
