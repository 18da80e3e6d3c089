// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA netlink statistics (libmnl): STAT_GET per port, the QP counter dump (change/stat_set.c sends STAT_SET). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/host.h"
#include "kernel/nl_parse.h"
#include "kernel/nl_sock.h"
#include "kernel/rdma_nl_parse.h"
#include "kernel/rdma_stat.h"
#include "kernel/rdma_stat_parse.h"
#include "derive/counters.h"
#include "util.h"
#include "warn.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

#define STAT_BUF	32768	/* the kernel answers in pages; a port's counters fit one */
#define STAT_TIMEOUT_S	5	/* a kernel that stops answering never hangs a refresh */
#define MAX_DEVS	1024

struct rdma_stat {
	struct nl_sock sock;	/* kept open from one refresh to the next */
	struct {
		uint32_t index;
		char name[RES_NAME_LEN];
	} *devs;
	size_t ndevs;
	bool listed_again;	/* a name not found made us list the devices once more */
	void (*tap)(const void *buf, size_t len, void *arg);	/* sees every answer raw (recorders) */
	void *tap_arg;
};

void rdma_stat_tap(struct rdma_stat *rs, void (*tap)(const void *buf, size_t len, void *arg), void *arg)
{
	rs->tap = tap;
	rs->tap_arg = arg;
}

/* What one request's answers are fed to. */
struct reply {
	struct stat_state *st;
	struct rdma_stat *rs;	/* RDMA_NLDEV_CMD_GET answers: the device list */
};

static int dev_add(struct rdma_stat *rs, const struct nlmsghdr *nlh)
{
	char name[RES_NAME_LEN];
	uint32_t idx;
	void *n;

	if (rdma_nl_parse_dev(nlh, &idx, name, sizeof(name)) || rs->ndevs >= MAX_DEVS)
		return 0;
	n = realloc(rs->devs, (rs->ndevs + 1) * sizeof(*rs->devs));
	if (!n)
		return -ENOMEM;
	rs->devs = n;
	rs->devs[rs->ndevs].index = idx;
	memcpy(rs->devs[rs->ndevs].name, name, sizeof(name));
	rs->ndevs++;
	return 0;
}

struct walk {
	struct rdma_stat *rs;
	struct reply *r;
	bool ended;		/* NLMSG_DONE, an error, or the one answer of a request that is no dump */
	int err;
};

static int reply_one(const struct nlmsghdr *nlh, void *arg)
{
	struct walk *w = arg;
	int rc = nl_msg_control(nlh, &w->ended);

	if (rc != -ENOENT) {
		if (rc < 0 && rc != -EBADMSG) {
			w->ended = true;
			w->err = rc;
			return NL_WALK_END;
		}
		return rc;
	}
	if (!(nlh->nlmsg_flags & NLM_F_MULTI))
		w->ended = true;
	if (w->r->rs && nlh->nlmsg_type == rdma_nl_type(RDMA_NLDEV_CMD_GET))
		return dev_add(w->r->rs, nlh);
	if (w->r->st) {
		rc = rdma_stat_parse_msg(nlh, w->r->st);
		if (rc == -ENOMEM)
			return rc;
		if (rc == -EBADMSG) {
			w->r->st->bad++;
			w->err = w->err ? w->err : -EBADMSG;
		}
	}
	return 0;
}

/* One buffer of the answer: to the recorder's tap, then message by message to reply_one(). */
static int reply_buf(const void *buf, size_t len, void *arg)
{
	struct walk *w = arg;
	struct rdma_stat *rs = w->rs;
	int rc;

	if (rs->tap)
		rs->tap(buf, len, rs->tap_arg);
	rc = nl_msgs_walk(buf, len, reply_one, w);
	if (rc < 0 && rc != -EBADMSG)
		return rc;
	if (rc == -EBADMSG) {
		if (w->r->st)
			w->r->st->bad++;
		w->err = w->err ? w->err : -EBADMSG;
	}
	return w->ended ? NL_WALK_END : 0;
}

/* Send nlh (its sequence is set here) and feed every answer to r until the request ends. 0 or -errno. */
static int transact(struct rdma_stat *rs, struct nlmsghdr *nlh, struct reply *r)
{
	struct walk w = { .rs = rs, .r = r };
	int rc = nl_sock_ask(&rs->sock, nlh, reply_buf, &w);

	return rc ? rc : w.err;
}

static struct nlmsghdr *request(struct rdma_stat *rs, int cmd, uint16_t flags)
{
	return nl_sock_request(&rs->sock, rdma_nl_type(cmd), flags);
}

/* A request about one port of one device. */
static struct nlmsghdr *port_request(struct rdma_stat *rs, int cmd, uint32_t dev_index, uint32_t port)
{
	struct nlmsghdr *nlh = request(rs, cmd, 0);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	return nlh;
}

static int list_devs(struct rdma_stat *rs)
{
	struct reply r = { .rs = rs };

	rs->ndevs = 0;
	return transact(rs, request(rs, RDMA_NLDEV_CMD_GET, NLM_F_DUMP), &r);
}

struct rdma_stat *rdma_stat_open(int *err)
{
	struct rdma_stat *rs = calloc(1, sizeof(*rs));
	int rc;

	if (!rs) {
		*err = -ENOMEM;
		return NULL;
	}
	rc = nl_sock_open(&rs->sock, NETLINK_RDMA, STAT_TIMEOUT_S, STAT_BUF);
	if (!rc)
		rc = list_devs(rs);
	if (rc && rc != -EBADMSG) {
		*err = rc;
		rdma_stat_close(rs);
		return NULL;
	}
	return rs;
}

void rdma_stat_close(struct rdma_stat *rs)
{
	if (!rs)
		return;
	nl_sock_close(&rs->sock);
	free(rs->devs);
	free(rs);
}

int rdma_stat_dev_index(struct rdma_stat *rs, const char *name, uint32_t *index)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < rs->ndevs; i++)
			if (!strcmp(rs->devs[i].name, name)) {
				*index = rs->devs[i].index;
				return 0;
			}
		/* a device added (or renamed) since: list them once more, not at every miss */
		if (pass || rs->listed_again)
			break;
		rs->listed_again = true;
		if (list_devs(rs) == -ENOMEM)
			return -ENOMEM;
	}
	return -ENODEV;
}

int rdma_stat_port_hw(struct rdma_stat *rs, uint32_t dev_index, uint32_t port, struct stat_state *st)
{
	struct nlmsghdr *nlh = port_request(rs, RDMA_NLDEV_CMD_STAT_GET, dev_index, port);
	struct reply r = { .st = st };
	size_t before = st->nhw;
	int rc;

	rc = transact(rs, nlh, &r);
	if (!rc && st->nhw == before)
		rc = -EBADMSG;		/* an answer, but not the port's counters */
	return rc;
}

int rdma_stat_qp_mode(struct rdma_stat *rs, uint32_t dev_index, uint32_t port, struct stat_state *st)
{
	struct nlmsghdr *nlh = port_request(rs, RDMA_NLDEV_CMD_STAT_GET, dev_index, port);
	struct reply r = { .st = st };
	size_t before = st->nmodes;
	int rc;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	/* the kernel wants a mode attribute in the question too; its value is not read */
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_NONE);
	rc = transact(rs, nlh, &r);
	if (!rc && st->nmodes == before)
		rc = -EBADMSG;
	return rc;
}

int rdma_stat_qp_counters(struct rdma_stat *rs, uint32_t dev_index, struct stat_state *st)
{
	struct nlmsghdr *nlh = request(rs, RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP);
	struct reply r = { .st = st };

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	return transact(rs, nlh, &r);
}

struct nlmsghdr *rdma_stat_port_request(struct rdma_stat *rs, int cmd, uint32_t dev_index, uint32_t port)
{
	return port_request(rs, cmd, dev_index, port);
}

int rdma_stat_send(struct rdma_stat *rs, struct nlmsghdr *nlh)
{
	struct reply r = { 0 };

	return transact(rs, nlh, &r);
}

const char *rdma_stat_strerror(int err)
{
	switch (err) {
	case -EPROTONOSUPPORT:
		return "no RDMA netlink in this kernel (ib_core not loaded?)";
	case -EPERM:
	case -EACCES:
		return "the kernel refused: changing RDMA statistics needs CAP_NET_ADMIN (run as root)";
	case -EINVAL:
		return "the kernel has no such statistics for it (EINVAL)";
	case -EOPNOTSUPP:
		return "the driver does not support QP counters";
	case -ENODEV:
		return "no such RDMA device in the kernel's list";
	case -ETIMEDOUT:
		return "the kernel did not answer in time";
	case -EBADMSG:
		return "the kernel's answer was malformed";
	default:
		return strerror(-err);
	}
}

/* The netlink counters of p replace its hw_counters/ ones; returns -ENOMEM or 0. */
static int port_apply(struct fab_port *p, const struct stat_port_hw *hw, uint64_t now_ns)
{
	size_t kept = 0;
	struct fab_counter *nc;

	for (size_t i = 0; i < p->ncounters; i++) {
		struct fab_counter *c = &p->counters[i];

		if (c->source == COUNTER_SRC_HW_COUNTERS || c->source == COUNTER_SRC_NETLINK) {
			if (c->fd >= 0)
				close(c->fd);
			continue;
		}
		p->counters[kept++] = *c;
	}
	p->ncounters = kept;
	nc = realloc(p->counters, (kept + hw->n + 1) * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	p->counters = nc;
	for (size_t i = 0; i < hw->n; i++) {
		struct fab_counter *c = &p->counters[p->ncounters++];
		char raw[24];

		counter_define(c, hw->c[i].name, COUNTER_SRC_NETLINK, false);
		snprintf(raw, sizeof(raw), "%" PRIu64, hw->c[i].value);
		collect_counter_text(c, raw);
	}
	if (!p->sample_ns)
		p->sample_ns = p->first_sample_ns = now_ns;
	return 0;
}

int rdma_stat_host_apply(struct rdma_stat *rs, struct fab_host *h, const char *dev, int port)
{
	uint64_t now = util_now_ns();

	/* a (re)collection: devices may have come back under new indexes */
	if (list_devs(rs) == -ENOMEM)
		return -ENOMEM;
	rs->listed_again = false;

	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *d = &h->devs[i];
		uint32_t idx;
		int rc;

		if (dev && strcmp(d->name, dev))
			continue;
		rc = rdma_stat_dev_index(rs, d->name, &idx);
		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			warn_once("--counters netlink: %s: %s; its counters from sysfs", d->name, rdma_stat_strerror(rc));
			continue;
		}
		for (size_t j = 0; j < d->nports; j++) {
			struct stat_state st = { 0 };

			if (port >= 0 && d->ports[j].num != (unsigned int)port)
				continue;
			rc = rdma_stat_port_hw(rs, idx, d->ports[j].num, &st);
			if (!rc)
				rc = port_apply(&d->ports[j], &st.hw[0], now);
			stat_state_free(&st);
			if (rc == -ENOMEM)
				return rc;
			if (rc)
				warn_once("--counters netlink: %s/%u: %s; its counters from sysfs", d->name,
					  d->ports[j].num, rdma_stat_strerror(rc));
		}
	}
	return 0;
}

/*
 * The sysfs refresh (collect_counters_refresh()) has already moved every
 * port's sample times to this sample: only the values are read here.
 */
void rdma_stat_host_refresh(struct rdma_stat *rs, struct fab_host *h)
{
	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *d = &h->devs[i];
		uint32_t idx = 0;
		int idx_rc = 1;		/* 1: not looked up yet */

		for (size_t j = 0; j < d->nports; j++) {
			struct fab_port *p = &d->ports[j];
			struct stat_state st = { 0 };
			bool any = false;
			int rc;

			for (size_t k = 0; k < p->ncounters && !any; k++)
				any = p->counters[k].source == COUNTER_SRC_NETLINK;
			if (!any)
				continue;
			if (idx_rc == 1)
				idx_rc = rdma_stat_dev_index(rs, d->name, &idx);
			/* a device gone: its counters unknown until the structure check collects again */
			rc = idx_rc ? idx_rc : rdma_stat_port_hw(rs, idx, p->num, &st);
			for (size_t k = 0, at = 0; k < p->ncounters; k++) {
				struct fab_counter *c = &p->counters[k];
				const struct stat_hwcounter *v = NULL;

				if (c->source != COUNTER_SRC_NETLINK)
					continue;
				if (!rc) {
					/* the same order as the last answer, usually: try the same place first */
					v = at < st.hw[0].n && !strcmp(st.hw[0].c[at].name, c->name) ? &st.hw[0].c[at]
													: stat_port_hw_find(&st.hw[0], c->name);
					at++;
				}
				if (v) {
					char raw[24];

					snprintf(raw, sizeof(raw), "%" PRIu64, v->value);
					collect_counter_text(c, raw);
				} else {
					collect_counter_text(c, "");	/* vanished or unanswered: unknown, not stale */
				}
			}
			stat_state_free(&st);
		}
	}
}

static void why(struct stat_state *st, const char *what, int err)
{
	if (st->err)
		return;
	st->err = err;
	snprintf(st->why, sizeof(st->why), "%s: %s", what, rdma_stat_strerror(err));
}

int rdma_stat_collect_qp(const struct fab_host *h, struct stat_state *st)
{
	struct rdma_stat *rs;
	char what[RES_NAME_LEN + 32];
	int err = 0;

	memset(st, 0, sizeof(*st));
	rs = rdma_stat_open(&err);
	if (!rs) {
		if (err == -ENOMEM)
			return err;
		why(st, "RDMA netlink", err);
		return 0;
	}
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];
		uint32_t idx;
		int rc = rdma_stat_dev_index(rs, d->name, &idx);

		if (!rc) {
			for (size_t j = 0; j < d->nports && rc != -ENOMEM; j++) {
				rc = rdma_stat_qp_mode(rs, idx, d->ports[j].num, st);
				snprintf(what, sizeof(what), "%s/%u: the QP counter mode", d->name, d->ports[j].num);
				if (rc && rc != -ENOMEM)
					why(st, what, rc);
			}
			if (rc != -ENOMEM)
				rc = rdma_stat_qp_counters(rs, idx, st);
			snprintf(what, sizeof(what), "%s: the QP counters", d->name);
		} else {
			snprintf(what, sizeof(what), "%s", d->name);
		}
		if (rc == -ENOMEM) {
			rdma_stat_close(rs);
			stat_state_free(st);
			return rc;
		}
		if (rc)
			why(st, what, rc);
	}
	rdma_stat_close(rs);
	return 0;
}
