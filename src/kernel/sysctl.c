// SPDX-License-Identifier: GPL-2.0-or-later
/* Read net.ipv4.conf.{all,default,IFACE}.* under a proc root (change/sysctl_write.c writes them). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/sysctl.h"
#include "kernel/sysfs.h"
#include "util.h"
#include "warn.h"

int sysctl_path(const char *ifname, enum net_sysctl_id id, char *buf, size_t size)
{
	int n;

	/* "." and ".." are not interface names; '/' would leave the directory. */
	if (!ifname[0] || strchr(ifname, '/') || !strcmp(ifname, ".") || !strcmp(ifname, ".."))
		return -EINVAL;
	n = snprintf(buf, size, "sys/net/ipv4/conf/%s/%s", ifname, net_sysctl_name(id));
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static struct net_opt_int read_one(int rootfd, const char *ifname, enum net_sysctl_id id)
{
	struct net_opt_int v = { 0 };
	char path[256], buf[32];
	uint64_t u;
	ssize_t n;

	if (sysctl_path(ifname, id, path, sizeof(path)))
		return v;
	n = sysfs_read_str(rootfd, path, buf, sizeof(buf));
	if (n < 0)
		return v;
	if (sysfs_parse_u64(buf, &u) || u > 1000) {
		warn_once("%s: not a setting: '%s'", path, util_clean(buf));
		return v;
	}
	v.known = true;
	v.value = (int)u;
	return v;
}

int sysctl_read_iface(const char *proc_root, const char *ifname, struct net_if_sysctls *out)
{
	char path[256];
	int rootfd, rc = 0;

	memset(out, 0, sizeof(*out));
	if (strlen(ifname) >= sizeof(out->ifname))
		return -EINVAL;
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	rootfd = sysfs_open_dir(AT_FDCWD, proc_root);
	if (rootfd < 0)
		return rootfd;
	snprintf(path, sizeof(path), "sys/net/ipv4/conf/%s", ifname);
	if (strchr(ifname, '/') || sysfs_exists(rootfd, path) <= 0) {
		rc = -ENOENT;
		goto out;
	}
	for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
		struct net_sysctl_val *v = &out->v[id];

		v->all = read_one(rootfd, "all", (enum net_sysctl_id)id);
		v->dflt = read_one(rootfd, "default", (enum net_sysctl_id)id);
		v->iface = read_one(rootfd, ifname, (enum net_sysctl_id)id);
		v->effective = net_sysctl_combine((enum net_sysctl_id)id, v->all, v->iface);
	}
out:
	close(rootfd);
	return rc;
}
