// SPDX-License-Identifier: GPL-2.0-or-later
/* A host shown first and filled in port by port ends up as one collected whole; re-collections keep the GID tables. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/host.h"
#include "source/snapshot.h"
#include "source/source.h"
#include "ctx.h"
#include "tap.h"
#include "util.h"

/* The GID tables, counters and netdevs of a and b are the same. */
static void same_host(const struct fab_host *a, const struct fab_host *b, const char *what)
{
	size_t gids = 0, diff = 0;

	ASSERT_EQ_U64(a->ndevs, b->ndevs, what);
	for (size_t i = 0; i < a->ndevs && i < b->ndevs; i++)
		for (size_t j = 0; j < a->devs[i].nports && j < b->devs[i].nports; j++) {
			const struct fab_port *p = &a->devs[i].ports[j], *q = &b->devs[i].ports[j];

			diff += p->ngids != q->ngids || p->ncounters != q->ncounters || p->nnetdevs != q->nnetdevs ||
				p->gid_tbl_len != q->gid_tbl_len;
			for (size_t k = 0; k < p->ngids && k < q->ngids; k++)
				diff += p->gids[k].index != q->gids[k].index || memcmp(p->gids[k].raw, q->gids[k].raw, 16) ||
					strcmp(p->gids[k].netdev, q->gids[k].netdev) || p->gids[k].type != q->gids[k].type;
			for (unsigned int k = 0; k < p->nnetdevs && k < q->nnetdevs; k++)
				diff += strcmp(p->netdevs[k].name, q->netdevs[k].name) != 0;
			gids += p->ngids;
		}
	TAP_OK(diff == 0 && gids > 0, "%s: %zu GIDs, %zu differences", what, gids, diff);
}

static size_t pending_ports(const struct fab_host *h, unsigned int what)
{
	size_t n;

	return snapshot_host_pending(h, what, &n);
}

/* Make every kept GID table look empty (the entries stay allocated, freed with the host). */
static void hide_gids(struct fab_host *h)
{
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++)
			h->devs[i].ports[j].ngids = 0;
}

/* Samples until a re-collection spread over samples has read every device. */
static void roll(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now)
{
	bool nomem;

	for (int i = 0; i < 100 && k->roll_next < k->roll_end && k->roll_next < h->ndevs; i++)
		snapshot_host_sample(src, h, k, now, NULL, &nomem);
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char root[4096];
	struct fab_ctx ctx;
	struct fab_host full, h, kept;
	struct snapshot_clock k;
	struct source *src;
	size_t nports, calls = 0, big_calls = 0;
	uint64_t n0;
	bool nomem;

	snprintf(root, sizeof(root), "%s/tests/data/trees/roce", top ? top : ".");
	ctx_init(&ctx);
	ctx.sysfs_root = root;
	ctx.live_sysfs = false;

	memset(&full, 0, sizeof(full));
	ASSERT_EQ_INT(collect_host(&ctx, &full, COLLECT_ALL), 0, "a full collection of the roce tree");
	ASSERT_EQ_U64(pending_ports(&full, COLLECT_ALL), 0, "a full collection leaves nothing pending");

	/* Ports first: counters and GID tables pending in every port. */
	memset(&h, 0, sizeof(h));
	ASSERT_EQ_INT(collect_host(&ctx, &h, COLLECT_NETDEVS), 0, "a collection without counters and GIDs");
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_GIDS), snapshot_host_pending(&h, COLLECT_COUNTERS, &nports),
		      "GID tables and counters are pending in the same ports");
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_GIDS), nports, "in every port");
	ASSERT_EQ_U64(h.devs[0].ports[0].ngids + h.devs[0].ports[0].ncounters, 0, "none read yet");

	/* A deadline already passed: each call reads at least a few entries and goes on at the next. */
	for (size_t i = 0; i < h.ndevs; i++)
		for (size_t j = 0; j < h.devs[i].nports; j++) {
			size_t n = 0;

			while (h.devs[i].ports[j].pending && n < 1000) {
				ASSERT_EQ_INT(collect_port_fill(&ctx, &h, i, j, COLLECT_ALL, 1), 0, "a fill step");
				n++;
			}
			calls += n;
			if (full.devs[i].ports[j].gid_tbl_len > 8)
				big_calls += n;
			if (n >= 1000)
				TAP_OK(0, "port %zu/%zu is still pending after 1000 steps", i, j);
		}
	TAP_OK(big_calls >= 2, "a table of more than 8 entries took %zu steps past its deadline (%zu in all)",
	       big_calls, calls);
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_ALL), 0, "nothing pending once filled");
	same_host(&h, &full, "filled in step by step = collected at once");

	/* A re-collection keeps the tables (no GID read) and reads none again unless asked. */
	memset(&kept, 0, sizeof(kept));
	kept.handover = &h;
	ASSERT_EQ_INT(collect_host(&ctx, &kept, COLLECT_COUNTERS | COLLECT_NETDEVS | COLLECT_KEEP_GIDS), 0,
		      "a re-collection with the GID tables kept");
	ASSERT_EQ_U64(pending_ports(&kept, COLLECT_ALL), 0, "kept tables are not pending");
	same_host(&kept, &full, "kept = collected");
	fab_host_free(&h);

	/* A table half read when the host is collected again is read again, the old one on show meanwhile. */
	kept.devs[0].ports[0].pending |= COLLECT_GIDS;
	memset(&h, 0, sizeof(h));
	h.handover = &kept;
	ASSERT_EQ_INT(collect_host(&ctx, &h, COLLECT_COUNTERS | COLLECT_NETDEVS | COLLECT_KEEP_GIDS), 0,
		      "a re-collection while a table is half read");
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_GIDS), 1, "that table is pending again");
	ASSERT_EQ_U64(h.devs[0].ports[0].ngids, full.devs[0].ports[0].ngids, "its old entries stay on show");
	fab_host_free(&h);
	fab_host_free(&kept);

	/* Through the snapshot layer, as the monitor and the exporter hold a host. */
	src = source_open_ops(&ctx, &source_live_ops);
	TAP_OK(src != NULL, "the live source over the tree");
	memset(&h, 0, sizeof(h));
	memset(&k, 0, sizeof(k));
	ASSERT_EQ_INT(snapshot_host_start(src, &h, &k, util_now_ns()), 0, "snapshot_host_start()");
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_GIDS), nports, "it leaves the GID tables pending");
	calls = 0;
	while (snapshot_host_fill(src, &h, SNAPSHOT_FILL_NS) && calls < 1000)
		calls++;
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_ALL), 0, "snapshot_host_fill() reads them all");
	same_host(&h, &full, "the snapshot filled in = collected at once");

	/*
	 * Re-collections keep the GID tables they do not read again: hidden
	 * here (ngids 0), a table shows whole again only if it was read.
	 */
	hide_gids(&h);
	k.last_rescan_ns = k.last_watch_ns = 1;
	snapshot_host_sample(src, &h, &k, 1 + SNAPSHOT_FULL_RESCAN_NS, NULL, &nomem);
	roll(src, &h, &k, 1 + SNAPSHOT_FULL_RESCAN_NS);
	TAP_OK(k.recollections >= 2, "a periodic re-collection, device by device (%llu)",
	       (unsigned long long)k.recollections);
	TAP_OK(!nomem, "with memory");
	while (snapshot_host_fill(src, &h, SNAPSHOT_FILL_NS) && calls < 2000)
		calls++;
	ASSERT_EQ_U64(pending_ports(&h, COLLECT_ALL), 0, "all read after it");
	same_host(&h, &full, "the periodic one read every GID table again");

	/* One on request (a key): no port moved, no table read again. */
	hide_gids(&h);
	n0 = k.recollections;
	k.rescan_wanted = true;
	snapshot_host_sample(src, &h, &k, 2 + SNAPSHOT_FULL_RESCAN_NS, NULL, &nomem);
	roll(src, &h, &k, 2 + SNAPSHOT_FULL_RESCAN_NS);
	TAP_OK(k.recollections > n0, "a re-collection on request (%llu devices)",
	       (unsigned long long)(k.recollections - n0));
	ASSERT_EQ_U64(h.devs[0].ports[0].ngids + h.devs[1].ports[0].ngids, 0,
		      "it read no GID table again (no port moved)");
	/* A netlink event: the RoCE ports' tables follow their netdevs' addresses. */
	k.rescan_wanted = k.roce_event = true;
	snapshot_host_sample(src, &h, &k, 3 + SNAPSHOT_FULL_RESCAN_NS, NULL, &nomem);
	roll(src, &h, &k, 3 + SNAPSHOT_FULL_RESCAN_NS);
	TAP_OK(!k.roce_event, "a netlink event is taken");
	while (snapshot_host_fill(src, &h, SNAPSHOT_FILL_NS) && calls < 3000)
		calls++;
	same_host(&h, &full, "and the RoCE ports' GID tables are read again");
	fab_host_free(&h);
	source_close(src);
	fab_host_free(&full);
	return tap_done();
}
