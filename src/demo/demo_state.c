// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The demo's fixes kept between runs: "fabtop-demo-state 1 boot=ID route=0|1
 * own=0|1", one line. A state from an earlier boot is no state: a real
 * host loses a runtime fix when it reboots, and so does the simulated one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo/demo_state.h"
#include "util.h"

#define STATE_MAGIC "fabtop-demo-state 1"

/* Scenario names are ours (demo_scenario.c), but the path must never leave the folder. */
static bool name_ok(const char *name)
{
	if (!*name || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
	return true;
}

int demo_state_path(const char *name, char *buf, size_t size)
{
	char tail[128];

	name = name ? name : "default";
	if (!name_ok(name))
		return -1;
	snprintf(tail, sizeof(tail), "fabtop/demo/%s", name);
	return util_xdg_path(buf, size, "XDG_STATE_HOME", ".local/state", tail);
}

/* This boot's id; "-" where the kernel does not say (then a state lasts until removed). */
static void boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	snprintf(buf, size, "-");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	if (!buf[0] || strchr(buf, ' '))
		snprintf(buf, size, "-");
}

int demo_state_load(const char *name, struct demo_state *st, char *err, size_t esize)
{
	char path[4200], line[256], boot[64], now[64];
	int route, own, end = 0;
	FILE *f;

	*st = (struct demo_state){ 0 };
	if (demo_state_path(name, path, sizeof(path)))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	if (sscanf(line, STATE_MAGIC " boot=%63s route=%d own=%d%*[\n]%n", boot, &route, &own, &end) != 3 ||
	    (size_t)end != strlen(line) || (route != 0 && route != 1) || (own != 0 && own != 1)) {
		snprintf(err, esize, "%s: not a fabtop demo state; the simulated host starts unfixed", path);
		return -EINVAL;
	}
	boot_id(now, sizeof(now));
	if (strcmp(boot, now))
		return 0;
	st->route = route;
	st->own = own;
	return 0;
}

/* mkdir -p of the state folder, private to the user. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

int demo_state_save(const char *name, const struct demo_state *st)
{
	char path[4200], tmp[4300], boot[64];
	FILE *f;
	int rc = 0, fd;

	if (demo_state_path(name, path, sizeof(path)))
		return -ENOENT;
	if (!st->route && !st->own)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	if ((rc = make_dirs(path)))
		return rc;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return rc;
	}
	boot_id(boot, sizeof(boot));
	fprintf(f, STATE_MAGIC " boot=%s route=%d own=%d\n", boot, st->route, st->own);
	/* the new state replaces the old whole, or not at all */
	if (fflush(f) || fsync(fd))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}
