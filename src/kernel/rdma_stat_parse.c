// SPDX-License-Identifier: GPL-2.0-or-later
/* Parse nldev STAT_GET answers (a port's hw counters, its QP binding mode, QP counters) into model/stat.h. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/nl_parse.h"
#include "kernel/rdma_nl_parse.h"
#include "kernel/rdma_stat_parse.h"
#include "util.h"

/* Room for one more element of *arr (n used, *cap allocated); NULL on allocation failure. */
static void *grow(void **arr, size_t n, size_t *cap, size_t elem)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *p = realloc(*arr, ncap * elem);

		if (!p)
			return NULL;
		*arr = p;
		*cap = ncap;
	}
	return (char *)*arr + n * elem;
}

/* Arrays grow by doubling from 8: the capacity is the next power of two from n. */
static size_t cap_of(size_t n)
{
	size_t c = 8;

	if (!n)
		return 0;
	while (c < n)
		c *= 2;
	return c;
}

/*
 * The entries of a STAT_HWCOUNTERS nest appended to the array c of n. An entry without a
 * name or a value, or that breaks the policy, is left out and counted.
 */
static int parse_hwcounters(const struct nlattr *table, struct stat_hwcounter **c, size_t *n, unsigned int *bad)
{
	const struct nlattr *entry;
	size_t cap = cap_of(*n);

	if (!rdma_nl_parse_whole(mnl_attr_get_payload(table), mnl_attr_get_payload_len(table)))
		return -EBADMSG;
	mnl_attr_for_each_nested(entry, table) {
		struct rdma_nl_tb e;
		struct stat_hwcounter *h;

		if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		if (rdma_nl_parse_nest(entry, &e) || !e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] ||
		    !e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]) {
			(*bad)++;
			continue;
		}
		h = grow((void **)c, *n, &cap, sizeof(**c));
		if (!h)
			return -ENOMEM;
		memset(h, 0, sizeof(*h));
		rdma_nl_parse_str(e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME], h->name, sizeof(h->name));
		/* an empty name names nothing a person could look for */
		if (!h->name[0]) {
			(*bad)++;
			continue;
		}
		h->value = mnl_attr_get_u64(e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]);
		(*n)++;
	}
	return 0;
}

/* The QPs bound to a counter: RES_QP of RES_QP_ENTRY { RES_LQPN }. */
static int parse_bound_qps(const struct nlattr *table, struct stat_qp_counter *q, unsigned int *bad)
{
	const struct nlattr *entry;
	size_t cap = 0;

	if (!rdma_nl_parse_whole(mnl_attr_get_payload(table), mnl_attr_get_payload_len(table)))
		return -EBADMSG;
	mnl_attr_for_each_nested(entry, table) {
		struct rdma_nl_tb e;
		uint32_t *qpn;

		if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		if (rdma_nl_parse_nest(entry, &e) || !e.a[RDMA_NLDEV_ATTR_RES_LQPN]) {
			(*bad)++;
			continue;
		}
		qpn = grow((void **)&q->qpns, q->nqpns, &cap, sizeof(*q->qpns));
		if (!qpn)
			return -ENOMEM;
		*qpn = mnl_attr_get_u32(e.a[RDMA_NLDEV_ATTR_RES_LQPN]);
		q->nqpns++;
	}
	return 0;
}

static void free_qpc(struct stat_qp_counter *q)
{
	free(q->qpns);
	free(q->c);
	q->qpns = NULL;
	q->c = NULL;
}

/* One STAT_COUNTER_ENTRY: -EBADMSG leaves it out (the caller counts it). */
static int parse_counter(const struct nlattr *entry, uint32_t dev_index, const char *dev, struct stat_state *st)
{
	struct stat_qp_counter q, *slot;
	struct rdma_nl_tb e;
	size_t cap = cap_of(st->nqpc);
	int rc;

	if (rdma_nl_parse_nest(entry, &e) || !e.a[RDMA_NLDEV_ATTR_PORT_INDEX] ||
	    !e.a[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] || !e.a[RDMA_NLDEV_ATTR_STAT_MODE])
		return -EBADMSG;
	memset(&q, 0, sizeof(q));
	q.dev_index = dev_index;
	snprintf(q.dev, sizeof(q.dev), "%s", dev);
	q.port = mnl_attr_get_u32(e.a[RDMA_NLDEV_ATTR_PORT_INDEX]);
	q.id = mnl_attr_get_u32(e.a[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);
	q.mode = mnl_attr_get_u32(e.a[RDMA_NLDEV_ATTR_STAT_MODE]);
	if (e.a[RDMA_NLDEV_ATTR_RES_TYPE]) {
		q.has_qp_type = true;
		q.qp_type = mnl_attr_get_u8(e.a[RDMA_NLDEV_ATTR_RES_TYPE]);
	}
	rdma_nl_parse_holder(&e, &q.holder);
	rc = e.a[RDMA_NLDEV_ATTR_RES_QP] ? parse_bound_qps(e.a[RDMA_NLDEV_ATTR_RES_QP], &q, &st->bad) : 0;
	if (!rc && e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		rc = parse_hwcounters(e.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], &q.c, &q.n, &st->bad);
	if (!rc) {
		slot = grow((void **)&st->qpc, st->nqpc, &cap, sizeof(*st->qpc));
		rc = slot ? 0 : -ENOMEM;
		if (slot) {
			*slot = q;
			st->nqpc++;
			return 0;
		}
	}
	free_qpc(&q);
	return rc;
}

int rdma_stat_parse_msg(const struct nlmsghdr *nlh, struct stat_state *st)
{
	struct rdma_nl_tb tb;
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	int rc;

	if (!rdma_nl_is_nldev(nlh) || nlh->nlmsg_type != rdma_nl_type(RDMA_NLDEV_CMD_STAT_GET))
		return -ENOENT;
	if (rdma_nl_parse_attrs(nlh, &tb) || !tb.a[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb.a[RDMA_NLDEV_ATTR_DEV_NAME])
		return -EBADMSG;
	dev_index = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_DEV_INDEX]);
	rdma_nl_parse_str(tb.a[RDMA_NLDEV_ATTR_DEV_NAME], dev, sizeof(dev));

	if (tb.a[RDMA_NLDEV_ATTR_STAT_COUNTER]) {
		const struct nlattr *table = tb.a[RDMA_NLDEV_ATTR_STAT_COUNTER], *entry;

		if (!rdma_nl_parse_whole(mnl_attr_get_payload(table), mnl_attr_get_payload_len(table)))
			return -EBADMSG;
		mnl_attr_for_each_nested(entry, table) {
			if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY)
				continue;
			rc = parse_counter(entry, dev_index, dev, st);
			if (rc == -ENOMEM)
				return rc;
			if (rc)
				st->bad++;
		}
		return 0;
	}
	if (!tb.a[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EBADMSG;
	if (tb.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
		struct stat_port_hw hw = { .dev_index = dev_index }, *slot;
		size_t cap = cap_of(st->nhw);

		snprintf(hw.dev, sizeof(hw.dev), "%s", dev);
		hw.port = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_PORT_INDEX]);
		rc = parse_hwcounters(tb.a[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], &hw.c, &hw.n, &st->bad);
		slot = rc ? NULL : grow((void **)&st->hw, st->nhw, &cap, sizeof(*st->hw));
		if (!slot) {
			free(hw.c);
			return rc ? rc : -ENOMEM;
		}
		*slot = hw;
		st->nhw++;
		return 0;
	}
	if (tb.a[RDMA_NLDEV_ATTR_STAT_MODE]) {
		struct stat_port_mode *m;
		size_t cap = cap_of(st->nmodes);

		m = grow((void **)&st->modes, st->nmodes, &cap, sizeof(*st->modes));
		if (!m)
			return -ENOMEM;
		memset(m, 0, sizeof(*m));
		m->dev_index = dev_index;
		snprintf(m->dev, sizeof(m->dev), "%s", dev);
		m->port = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_PORT_INDEX]);
		m->mode = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_STAT_MODE]);
		if (tb.a[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]) {
			m->has_mask = true;
			m->mask = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]);
		}
		st->nmodes++;
		return 0;
	}
	/* A port with neither: an answer of a shape this parser does not know. */
	return -EBADMSG;
}

static int stat_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct stat_state *st = arg;
	int rc = rdma_stat_parse_msg(nlh, st);

	if (rc == -EBADMSG)
		st->bad++;
	return rc;
}

int rdma_stat_parse_buf(const void *buf, size_t len, struct stat_state *st, int *done)
{
	return nl_dump_walk(buf, len, stat_msg, st, done);
}
