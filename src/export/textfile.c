// SPDX-License-Identifier: GPL-2.0-or-later
/* node_exporter's textfile collector reads FILE at any moment: it is replaced by rename, never rewritten in place. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/textfile.h"

int textfile_write(const char *path, const char *data, size_t len, char *err, size_t errsize)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t off = 0;
	int fd, e = 0;

	/*
	 * The temporary name starts with a dot and does not end in .prom: the
	 * collector skips it, and mkstemp's O_EXCL makes a planted link at it
	 * impossible.
	 */
	if (slash)
		snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		snprintf(tmp, sizeof(tmp), ".%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, errsize, "cannot create a file beside %s: %s", path, strerror(e));
		return -e;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			break;
		}
		off += (size_t)n;
	}
	/* Readable by the collector, which rarely runs as our user. */
	if (!e && fchmod(fd, 0644))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp, path))
		e = errno;
	if (e) {
		unlink(tmp);
		snprintf(err, errsize, "writing %s failed: %s", path, strerror(e));
		return -e;
	}
	return 0;
}
