// SPDX-License-Identifier: GPL-2.0-or-later
/* Write net.ipv4.conf.IFACE.* under a proc root: a change of the system, asked for by a person. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "change/sysctl_write.h"
#include "kernel/sysctl.h"

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
