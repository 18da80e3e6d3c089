// SPDX-License-Identifier: GPL-2.0-or-later
/* An RDMA device's PCI function and bridges, and the host's GPUs, from sysfs under a root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/pci.h"
#include "kernel/pci_parse.h"
#include "kernel/sysfs.h"
#include "util.h"
#include "warn.h"

/* An attribute as text; false when absent or unreadable (old kernels and non-PCIe functions lack many). */
static bool read_text(int dirfd, const char *attr, char *buf, size_t size)
{
	ssize_t n = sysfs_read_str(dirfd, attr, buf, size);

	if (n < 0) {
		buf[0] = '\0';
		return false;
	}
	util_clean(buf);
	return true;
}

static void read_speed(int fd, const char *addr, const char *attr, char *raw, unsigned int *mts)
{
	int rc;

	*mts = 0;
	if (!read_text(fd, attr, raw, PCI_SPEED_LEN))
		return;
	rc = pci_parse_speed(raw, mts);
	if (rc == -EINVAL)
		warn_once("%s/%s: not a PCIe link speed: '%s'", addr, attr, raw);
}

static void read_width(int fd, const char *addr, const char *attr, int *lanes)
{
	char buf[32];

	*lanes = -1;
	if (read_text(fd, attr, buf, sizeof(buf)) && pci_parse_width(buf, lanes)) {
		*lanes = -1;
		/* all ones (63 lanes): a function in D3cold answers no config read */
		warn_once("%s/%s: not a PCIe link width: '%s'", addr, attr, buf);
	}
}

static void read_aer(int fd, const char *attr, const char *key, struct opt_u64 *v)
{
	char buf[SYSFS_ATTR_MAX];

	/* lines: parsed as read, never shown (util_clean() would join them) */
	v->known = sysfs_read_str(fd, attr, buf, sizeof(buf)) >= 0 && !pci_parse_aer_total(buf, key, &v->value);
}

static void read_func(int fd, const char *addr, struct pci_func *f)
{
	snprintf(f->addr, sizeof(f->addr), "%s", addr);
	read_speed(fd, addr, "current_link_speed", f->link.cur_speed, &f->link.cur_mts);
	read_speed(fd, addr, "max_link_speed", f->link.max_speed, &f->link.max_mts);
	read_width(fd, addr, "current_link_width", &f->link.cur_width);
	read_width(fd, addr, "max_link_width", &f->link.max_width);
	read_aer(fd, "aer_dev_correctable", "ERR_COR", &f->aer.correctable);
	read_aer(fd, "aer_dev_nonfatal", "ERR_NONFATAL", &f->aer.nonfatal);
	read_aer(fd, "aer_dev_fatal", "ERR_FATAL", &f->aer.fatal);
}

static void read_place(int fd, const char *addr, struct pci_place *at)
{
	char buf[32];

	at->numa_node = -1;
	if (read_text(fd, "numa_node", buf, sizeof(buf)) && pci_parse_numa(buf, &at->numa_node)) {
		at->numa_node = -1;
		warn_once("%s/numa_node: not a NUMA node: '%s'", addr, buf);
	}
	read_text(fd, "local_cpulist", at->cpulist, sizeof(at->cpulist));
}

/*
 * Where link (below root) really is, as a path below root/devices/:
 * "pci0000:00/0000:00:01.0/0000:03:00.0". A target outside the root's
 * devices/ (a tree's link out of itself) is none. 0, or -ENOENT.
 */
static int resolve_below(const char *root, const char *link, char *out, size_t size)
{
	char path[PATH_MAX], real[PATH_MAX], base[PATH_MAX];
	size_t blen;

	if (snprintf(path, sizeof(path), "%s/%s", root, link) >= (int)sizeof(path) || !realpath(path, real) ||
	    !realpath(root, base))
		return -ENOENT;
	blen = strlen(base);
	if (blen == 1)	/* the root is "/" */
		blen = 0;
	if (strncmp(real, base, blen) || strncmp(real + blen, "/devices/", 9))
		return -ENOENT;
	if (snprintf(out, size, "%s", real + blen + 9) >= (int)size)
		return -ENOENT;
	return 0;
}

/* The start of the last component of path[0, len). */
static size_t last_component(const char *path, size_t len)
{
	while (len && path[len - 1] != '/')
		len--;
	return len;
}

/*
 * Walk up from the function at `path` while the directories are PCI
 * functions: each is read into chain[] (the first is the device). Returns
 * how many, 0 when path's last component is no PCI function.
 */
static size_t walk_chain(int rootfd, const char *path, struct pci_func *chain, size_t max, struct pci_place *at)
{
	size_t len = strlen(path), n = 0;
	char dir[PCI_PATH_LEN + 16];

	while (len && n < max) {
		size_t start = last_component(path, len);
		char name[PCI_ADDR_LEN];
		int fd;

		if (len - start >= sizeof(name))
			break;
		memcpy(name, path + start, len - start);
		name[len - start] = '\0';
		if (!pci_is_func_name(name))
			break;
		snprintf(dir, sizeof(dir), "devices/%.*s", (int)len, path);
		fd = sysfs_open_dir(rootfd, dir);
		if (fd < 0)
			break;
		read_func(fd, name, &chain[n]);
		if (n == 0 && at)
			read_place(fd, name, at);
		close(fd);
		n++;
		len = start ? start - 1 : 0;
	}
	return n;
}

int pci_collect_hca(int rootfd, const char *root, const char *name, struct pci_hca **out)
{
	char link[FAB_NAME_LEN + 64], path[PCI_PATH_LEN];
	struct pci_hca *h;

	*out = NULL;
	snprintf(link, sizeof(link), "class/infiniband/%s/device", name);
	if (resolve_below(root, link, path, sizeof(path))) {
		/*
		 * No device link (a tree without it: the link points back into
		 * its own parent, a loop an archive cannot hold): the device's
		 * own directory sits at PARENT/infiniband/NAME, as the kernel
		 * registers it under its parent.
		 */
		size_t len;

		snprintf(link, sizeof(link), "class/infiniband/%s", name);
		if (resolve_below(root, link, path, sizeof(path)))
			return 0;
		len = strlen(path);
		len = last_component(path, len);
		if (len < sizeof("infiniband/") || strncmp(path + len - sizeof("infiniband/") + 1, "infiniband/",
							    sizeof("infiniband/") - 1))
			return 0;
		len -= sizeof("infiniband/");
		path[len] = '\0';
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	snprintf(h->at.path, sizeof(h->at.path), "%s", path);
	h->nchain = walk_chain(rootfd, path, h->chain, PCI_MAX_CHAIN, &h->at);
	if (!h->nchain) {
		free(h);	/* a device on another bus (a virtual device's platform parent) */
		return 0;
	}
	*out = h;
	return 0;
}

/* Function `name` of bus/pci/devices into g when it is a GPU; true then. */
static bool read_gpu(int rootfd, const char *root, const char *name, struct pci_gpu *g)
{
	char link[PCI_ADDR_LEN + 32], buf[32];
	int fd;

	snprintf(link, sizeof(link), "bus/pci/devices/%s", name);
	fd = sysfs_open_dir(rootfd, link);
	if (fd < 0)
		return false;
	memset(g, 0, sizeof(*g));
	if (!read_text(fd, "class", buf, sizeof(buf)) || pci_parse_class(buf, &g->pci_class) ||
	    !pci_class_is_gpu(g->pci_class) || resolve_below(root, link, g->at.path, sizeof(g->at.path))) {
		close(fd);
		return false;
	}
	if (read_text(fd, "vendor", buf, sizeof(buf)))
		pci_parse_id(buf, &g->vendor);
	if (read_text(fd, "device", buf, sizeof(buf)))
		pci_parse_id(buf, &g->device);
	read_func(fd, name, &g->fn);
	read_place(fd, name, &g->at);
	close(fd);
	return true;
}

int pci_collect_gpus(int rootfd, const char *root, struct pci_gpu **gpus, size_t *n)
{
	char **names;
	int nn;

	*gpus = NULL;
	*n = 0;
	/* a host has a few hundred functions; a tree that lists more is odd */
	nn = sysfs_list(rootfd, "bus/pci/devices", &names, 65536);
	if (nn <= 0)
		return 0;
	for (int i = 0; i < nn && *n < PCI_MAX_GPUS; i++) {
		struct pci_gpu g;

		if (!pci_is_func_name(names[i]) || !read_gpu(rootfd, root, names[i], &g))
			continue;
		if (!*gpus) {
			*gpus = calloc(PCI_MAX_GPUS, sizeof(**gpus));
			if (!*gpus) {
				sysfs_names_free(names, nn);
				return -ENOMEM;
			}
		}
		(*gpus)[(*n)++] = g;
	}
	sysfs_names_free(names, nn);
	return 0;
}
