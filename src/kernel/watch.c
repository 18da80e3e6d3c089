// SPDX-License-Identifier: GPL-2.0-or-later
/* Part of the loop's collect step: notice device, port and state changes with a few sysfs reads. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/sysfs.h"
#include "kernel/watch.h"
#include "util.h"

#define WATCH_MAX_DEVICES 1024
#define WATCH_MAX_PORTS 272

/* The attribute as collect_host() keeps it: trimmed, printable, "" when unreadable. */
static void read_raw(int dirfd, const char *path, char *buf, size_t size)
{
	if (sysfs_read_str(dirfd, path, buf, size) < 0)
		buf[0] = '\0';
	util_clean(buf);
}

static bool opt_differs(int pfd, const char *attr, const struct opt_u64 *v)
{
	uint64_t x;
	bool known = sysfs_read_u64(pfd, attr, &x) == 0;

	return known != v->known || (known && x != v->value);
}

static bool port_differs(int devfd, const char *pname, const struct fab_port *p)
{
	char path[300], buf[FAB_TEXT_LEN];
	bool changed = false;
	int pfd;

	snprintf(path, sizeof(path), "ports/%s", pname);
	pfd = sysfs_open_dir(devfd, path);
	if (pfd < 0)
		return true;
	/* Same buffer sizes as the model, so an over-long value reads "" on both sides. */
	read_raw(pfd, "state", buf, sizeof(p->state_raw));
	changed |= strcmp(buf, p->state_raw) != 0;
	read_raw(pfd, "phys_state", buf, sizeof(p->phys_state_raw));
	changed |= strcmp(buf, p->phys_state_raw) != 0;
	read_raw(pfd, "rate", buf, sizeof(p->rate));
	changed |= strcmp(buf, p->rate) != 0;
	changed |= opt_differs(pfd, "lid", &p->lid);
	changed |= opt_differs(pfd, "sm_lid", &p->sm_lid);
	close(pfd);
	return changed;
}

static bool device_differs(int devfd, const struct fab_device *d)
{
	char **ports;
	bool changed = false;
	int n;

	n = sysfs_list(devfd, "ports", &ports, WATCH_MAX_PORTS);
	if (n < 0)
		n = 0;
	if ((size_t)n != d->nports)
		changed = true;
	for (int i = 0; i < n && !changed; i++) {
		char num[16];

		snprintf(num, sizeof(num), "%u", d->ports[i].num);
		changed = strcmp(ports[i], num) || port_differs(devfd, ports[i], &d->ports[i]);
	}
	if (n > 0)
		sysfs_names_free(ports, n);
	return changed;
}

int watch_changed_devices(const struct fab_ctx *ctx, const struct fab_host *h, bool *devs)
{
	char **names;
	int rootfd, n, changed = 0;
	size_t j = 0;

	rootfd = sysfs_open_dir(AT_FDCWD, ctx->sysfs_root);
	if (rootfd < 0)
		return h->sysfs_missing ? 0 : -1;
	n = sysfs_list(rootfd, "class/infiniband", &names, WATCH_MAX_DEVICES);
	if (n < 0) {
		close(rootfd);
		return !h->sysfs_missing || h->ndevs ? -1 : 0;
	}
	/*
	 * collect_host() keeps the listing's order and leaves out the names
	 * that lead to no directory (a dangling link): skipped here the same
	 * way, the devices compare one to one.
	 */
	if (h->sysfs_missing)
		changed = -1;
	for (int i = 0; i < n && changed >= 0; i++) {
		char shown[FAB_NAME_LEN], path[300];
		int devfd;

		snprintf(path, sizeof(path), "class/infiniband/%s", names[i]);
		devfd = sysfs_open_dir(rootfd, path);
		if (devfd < 0)
			continue;
		/* The model keeps names printable (and cut to its size): compare likewise. */
		snprintf(shown, sizeof(shown), "%s", names[i]);
		util_clean(shown);
		if (j >= h->ndevs || strcmp(shown, h->devs[j].name))
			changed = -1;
		else if (device_differs(devfd, &h->devs[j])) {
			/* A name the model had to make printable is read again by a full collection only. */
			if (strcmp(shown, names[i]))
				changed = -1;
			else {
				changed++;
				if (devs)
					devs[j] = true;
			}
		}
		close(devfd);
		j++;
		if (changed > 0 && !devs)
			break;
	}
	if (changed >= 0 && j != h->ndevs && !(changed > 0 && !devs))
		changed = -1;
	if (n > 0)
		sysfs_names_free(names, n);
	close(rootfd);
	return changed;
}

bool watch_changed(const struct fab_ctx *ctx, const struct fab_host *h)
{
	return watch_changed_devices(ctx, h, NULL) != 0;
}
