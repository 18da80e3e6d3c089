// SPDX-License-Identifier: GPL-2.0-or-later
/* Bounded, hang-proof reads of kernel attribute files under a chosen root. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/sysfs.h"
#include "util.h"

int sysfs_open_dir(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A tree given with --sysfs, not the kernel's own: see sysfs_open_attr(). */
static bool tree_mode;

void sysfs_set_tree(bool tree)
{
	tree_mode = tree;
}

static int open_resolved(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		/* no way out of the tree's mount, no /proc magic links */
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)	/* kernels before 5.6 */
		fd = openat(dirfd, path, flags);
	return fd;
}

/*
 * In a tree, a file is looked at (fstatat) before it is opened: a device
 * node or FIFO planted where an attribute should be is never opened (that
 * alone can start a watchdog or block a writer), and the open itself
 * follows no link out of the tree's mount. The look follows links
 * wherever they go, but only decides: the open resolves the same path
 * with the limits, so it fails or opens what was looked at (short of a
 * race with whoever writes the tree, as with any look before an open).
 * Two syscalls instead of one: the live /sys is not checked.
 */
static int open_tree_attr(int dirfd, const char *path)
{
	struct stat st;
	int fd;

	if (fstatat(dirfd, path, &st, AT_NO_AUTOMOUNT))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EPERM;
	fd = open_resolved(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

int sysfs_open_attr(int dirfd, const char *path)
{
	int fd;

	if (tree_mode)
		return open_tree_attr(dirfd, path);
	/*
	 * O_NONBLOCK: opening or reading a FIFO planted where a file should be
	 * returns at once (empty) instead of hanging. Directories fail the read
	 * with EISDIR. No fstat: a 1024-entry GID table is read per port, and
	 * every syscall per file counts there.
	 */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

ssize_t sysfs_pread_str(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (size < 2)
		return -EINVAL;
	/* One byte more than fits tells a too-long value from an exact fit. */
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -errno;
	if ((size_t)n == size - 1) {
		char extra;

		if (pread(fd, &extra, 1, n) == 1) {
			buf[0] = '\0';
			return -EFBIG;
		}
	}
	buf[n] = '\0';
	/* A NUL inside the value ends it, as it would for any C consumer. */
	n = (ssize_t)strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n;
}

ssize_t sysfs_read_str(int dirfd, const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (size)
		buf[0] = '\0';
	fd = sysfs_open_attr(dirfd, path);
	if (fd < 0)
		return fd;
	n = sysfs_pread_str(fd, buf, size);
	close(fd);
	return n;
}

int sysfs_parse_u64(const char *s, uint64_t *out)
{
	return util_num_u64(s, UTIL_NUM_BLANKS | UTIL_NUM_0X, 10, UINT64_MAX, out, NULL);
}

int sysfs_read_u64(int dirfd, const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n = sysfs_read_str(dirfd, path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return sysfs_parse_u64(buf, out);
}

int sysfs_parse_enum(const char *s, const char **text)
{
	const char *p = s;
	long v = 0;
	int digits = 0;

	*text = s;
	while (isspace((unsigned char)*p))
		p++;
	while (isdigit((unsigned char)*p) && digits < 6) {
		v = v * 10 + (*p - '0');
		p++;
		digits++;
	}
	if (!digits || *p != ':' || isdigit((unsigned char)*p))
		return -1;
	p++;
	while (isspace((unsigned char)*p))
		p++;
	*text = p;
	return (int)v;
}

/* Numbers in numeric order, then names; "port10" sorts after "port9". */
static int sysfs_name_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			const char *xs = x, *ys = y;
			size_t xl, yl;
			int c;

			while (*xs == '0' && isdigit((unsigned char)xs[1]))
				xs++;
			while (*ys == '0' && isdigit((unsigned char)ys[1]))
				ys++;
			for (x = xs; isdigit((unsigned char)*x); x++)
				;
			for (y = ys; isdigit((unsigned char)*y); y++)
				;
			xl = (size_t)(x - xs);
			yl = (size_t)(y - ys);
			if (xl != yl)
				return xl < yl ? -1 : 1;
			c = memcmp(xs, ys, xl);
			if (c)
				return c;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

int sysfs_list(int dirfd, const char *path, char ***names, size_t max)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	int fd;

	*names = NULL;
	fd = sysfs_open_dir(dirfd, path);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		int err = -errno;

		close(fd);
		return err;
	}
	while ((de = readdir(d)) != NULL && n < max) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nv = realloc(v, ncap * sizeof(*v));

			if (!nv)
				break;
			v = nv;
			cap = ncap;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), sysfs_name_cmp);
	*names = v;
	return (int)n;
}

void sysfs_names_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

ssize_t sysfs_link_name(int dirfd, const char *path, char *buf, size_t size)
{
	char target[4096];
	const char *base;
	ssize_t n;
	size_t len;

	if (size)
		buf[0] = '\0';
	n = readlinkat(dirfd, path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	len = strlen(base);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, base, len + 1);
	return (ssize_t)len;
}

int sysfs_exists(int dirfd, const char *path)
{
	return faccessat(dirfd, path, F_OK, 0) == 0;
}
