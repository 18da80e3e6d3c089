// SPDX-License-Identifier: GPL-2.0-or-later
/* Read (and, for --apply, write) net.ipv4.conf.{all,default,IFACE}.* under a proc root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect/sysctl.h"
#include "collect/sysfs.h"
#include "util.h"
#include "warn.h"

/* The path below proc_root of one setting: "sys/net/ipv4/conf/IFACE/NAME". */
static int sysctl_path(const char *ifname, enum net_sysctl_id id, char *buf, size_t size)
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

int sysctl_write_iface(const char *proc_root, const char *ifname, enum net_sysctl_id id, int value)
{
	char rel[256], path[4096], buf[16];
	int fd, n, rc = 0;

	rc = sysctl_path(ifname, id, rel, sizeof(rel));
	if (rc)
		return rc;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", proc_root, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", value);
	errno = 0;
	if (write(fd, buf, (size_t)n) != n)
		rc = errno ? -errno : -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}
