// SPDX-License-Identifier: GPL-2.0-or-later
/* Device async events: every device's ibv async fd under one epoll fd, read, acked and logged. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "kernel/async.h"
#include "util.h"

struct async_dev {
	char name[FAB_NAME_LEN];
	struct ibv_context *vctx;	/* NULL: closed (died, or gone from the host) */
	uint64_t opened_ns;		/* CLOCK_MONOTONIC of the open */
};

/*
 * For a driver without ucontext disassociation the kernel's uverbs removal
 * waits, when the device goes (`rdma link delete`, a driver unload), until
 * every open context is closed: a watcher holding one for hours would hold
 * the removal as long. Which drivers disassociate is not visible from user
 * space, so every context is closed and opened again this often (when
 * nothing is pending on it): a removal waits at most this long, and a
 * notification in the microseconds between close and open is the price.
 * Drivers that disassociate send DEVICE_FATAL instead.
 */
#define ASYNC_REOPEN_NS	(5ull * 1000000000ull)

struct async_watch {
	int epfd;
	struct async_dev *devs;
	size_t ndevs;
};

/* What each notification means, for people (IBA 11.6.3; rdma-core's ibv_event_type). */
static const struct {
	int type;
	enum event_severity severity;
	const char *what;
} async_kinds[] = {
	{ IBV_EVENT_PORT_ACTIVE, EVENT_INFO, "port became ACTIVE (device notification)" },
	{ IBV_EVENT_PORT_ERR, EVENT_ERROR, "port left ACTIVE (device notification)" },
	{ IBV_EVENT_GID_CHANGE, EVENT_INFO, "GID table changed (device notification)" },
	{ IBV_EVENT_LID_CHANGE, EVENT_WARNING, "LID changed (device notification)" },
	{ IBV_EVENT_SM_CHANGE, EVENT_WARNING, "subnet manager changed (device notification)" },
	{ IBV_EVENT_PKEY_CHANGE, EVENT_WARNING, "P_Key table changed (device notification)" },
	{ IBV_EVENT_CLIENT_REREGISTER, EVENT_WARNING, "SM asked to re-register (device notification)" },
	{ IBV_EVENT_DEVICE_FATAL, EVENT_ERROR, "device failed: fatal error (device notification)" },
};

static bool async_is_port_event(int type)
{
	switch (type) {
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_GID_CHANGE:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
		return true;
	default:
		return false;
	}
}

struct fab_event async_event_make(const char *device, int type, unsigned int port, uint64_t real_ns,
				  uint64_t mono_ns)
{
	struct fab_event ev;
	size_t i;

	memset(&ev, 0, sizeof(ev));
	ev.kind = EVENT_ASYNC;
	ev.real_ns = real_ns;
	ev.mono_ns = mono_ns;
	snprintf(ev.device, sizeof(ev.device), "%s", device);
	ev.port = async_is_port_event(type) ? port : 0;
	for (i = 0; i < ARRAY_SIZE(async_kinds); i++)
		if (async_kinds[i].type == type)
			break;
	if (i < ARRAY_SIZE(async_kinds)) {
		ev.severity = async_kinds[i].severity;
		event_set_what(&ev, "%s", async_kinds[i].what);
	} else {
		ev.severity = EVENT_WARNING;
		event_set_what(&ev, "device notification %d", type);
	}
	event_set_evidence(&ev, "ibv_get_async_event: %s (%d)%s", ibv_event_type_str((enum ibv_event_type)type),
			   type, ev.port ? "" : ", not about a port");
	return ev;
}

struct async_watch *async_watch_new(void)
{
	struct async_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->epfd = -1;
	return w;
}

static void async_dev_close(struct async_watch *w, struct async_dev *d)
{
	if (!d->vctx)
		return;
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, d->vctx->async_fd, NULL);
	ibv_close_device(d->vctx);
	d->vctx = NULL;
}

static bool host_has_dev(const struct fab_host *h, const char *name)
{
	for (size_t i = 0; i < h->ndevs; i++)
		if (!strcmp(h->devs[i].name, name))
			return true;
	return false;
}

/* Open name's device and put its async fd under the epoll fd; false when it cannot be had. */
static bool async_dev_open(struct async_watch *w, struct async_dev *d, struct ibv_device **list, int n)
{
	struct epoll_event ee = { .events = EPOLLIN };
	int fl;

	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), d->name))
			continue;
		d->vctx = ibv_open_device(list[i]);
		if (!d->vctx)
			return false;
		d->opened_ns = util_now_ns();
		fl = fcntl(d->vctx->async_fd, F_GETFL);
		ee.data.ptr = d;
		if (fl < 0 || fcntl(d->vctx->async_fd, F_SETFL, fl | O_NONBLOCK) ||
		    epoll_ctl(w->epfd, EPOLL_CTL_ADD, d->vctx->async_fd, &ee)) {
			ibv_close_device(d->vctx);
			d->vctx = NULL;
			return false;
		}
		return true;
	}
	return false;
}

/* Nothing pending on d's fd now (so closing it loses no notification already queued). */
static bool async_dev_idle(const struct async_dev *d)
{
	struct pollfd p = { .fd = d->vctx->async_fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

int async_watch_sync(struct async_watch *w, const struct fab_host *h)
{
	uint64_t now = util_now_ns();

	struct ibv_device **list = NULL;
	struct async_dev *nd;
	size_t n = 0, open = 0;
	int nlist = 0;

	if (w->epfd < 0) {
		w->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (w->epfd < 0)
			return -errno;
	}
	/* The gone ones first: their slots are reused. */
	for (size_t i = 0; i < w->ndevs; i++)
		if (!host_has_dev(h, w->devs[i].name))
			async_dev_close(w, &w->devs[i]);
	nd = calloc(h->ndevs ? h->ndevs : 1, sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	for (size_t i = 0; i < h->ndevs; i++) {
		struct async_dev *old = NULL;

		for (size_t j = 0; j < w->ndevs; j++)
			if (!strcmp(w->devs[j].name, h->devs[i].name))
				old = &w->devs[j];
		snprintf(nd[n].name, sizeof(nd[n].name), "%s", h->devs[i].name);
		bool due = !old || now - old->opened_ns >= ASYNC_REOPEN_NS;

		if (old && old->vctx && due && async_dev_idle(old))
			async_dev_close(w, old);	/* its time is up: let a pending removal through */
		if (old && old->vctx) {
			nd[n].vctx = old->vctx;
			nd[n].opened_ns = old->opened_ns;
			old->vctx = NULL;
		} else if (due) {
			/* A device that could not be opened is tried again as often as one is renewed. */
			nd[n].opened_ns = now;
			if (!list)
				list = ibv_get_device_list(&nlist);
			if (list)
				async_dev_open(w, &nd[n], list, nlist);
		} else {
			nd[n].opened_ns = old->opened_ns;
		}
		n++;
	}
	if (list)
		ibv_free_device_list(list);
	for (size_t j = 0; j < w->ndevs; j++)
		async_dev_close(w, &w->devs[j]);
	free(w->devs);
	w->devs = nd;
	w->ndevs = n;
	/* The epoll data points into the array: re-point every open device. */
	for (size_t i = 0; i < n; i++) {
		struct epoll_event ee = { .events = EPOLLIN, .data.ptr = &nd[i] };

		if (!nd[i].vctx)
			continue;
		if (epoll_ctl(w->epfd, EPOLL_CTL_MOD, nd[i].vctx->async_fd, &ee))
			async_dev_close(w, &nd[i]);
		else
			open++;
	}
	return open ? w->epfd : -ENODEV;
}

static uint64_t real_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Everything one device has pending; true when it must be closed (fatal). */
static bool async_dev_drain(struct async_dev *d, struct event_log *log, unsigned int *n)
{
	struct ibv_async_event ae;
	bool fatal = false;

	/* Bounded: a device that floods is read again at the next wake-up. */
	for (int i = 0; i < 256 && !ibv_get_async_event(d->vctx, &ae); i++) {
		struct fab_event ev = async_event_make(d->name, ae.event_type, (unsigned int)ae.element.port_num,
						       real_now_ns(), util_now_ns());

		/* Acked before anything else: an unacked event blocks the device's close. */
		ibv_ack_async_event(&ae);
		if (log) {
			event_log_append(log, &ev);
			(*n)++;
		}
		if (ae.event_type == IBV_EVENT_DEVICE_FATAL)
			fatal = true;
	}
	return fatal;
}

unsigned int async_watch_drain(struct async_watch *w, struct event_log *log)
{
	struct epoll_event ee[16];
	unsigned int n = 0;
	int k;

	if (!w || w->epfd < 0)
		return 0;
	k = epoll_wait(w->epfd, ee, (int)ARRAY_SIZE(ee), 0);
	for (int i = 0; i < k; i++) {
		struct async_dev *d = ee[i].data.ptr;
		bool dead;

		if (!d->vctx)
			continue;
		dead = async_dev_drain(d, log, &n);
		/* Hung up (the device was removed) or fatal: closed now, reopened if it comes back. */
		if (dead || (ee[i].events & (EPOLLHUP | EPOLLERR)))
			async_dev_close(w, d);
	}
	return n;
}

void async_watch_free(struct async_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->ndevs; i++)
		async_dev_close(w, &w->devs[i]);
	free(w->devs);
	if (w->epfd >= 0)
		close(w->epfd);
	free(w);
}
