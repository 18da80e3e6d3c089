// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtoprc: "key=value" lines in sections ("[cluster]"), comments with '#'; unknown or bad lines warn and are skipped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "ui/settings.h"
#include "warn.h"
#include "util.h"

#define SETTINGS_LINE_MAX 512

int settings_path(char *buf, size_t size)
{
	return util_xdg_path(buf, size, "XDG_CONFIG_HOME", ".config", "fabtop/fabtoprc");
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static bool valid_id(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= SETTINGS_ID_LEN)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '/' || *s == '-' || *s == '.'))
			return false;
	return true;
}

void settings_set_sort(struct settings *s, const char *view, const char *column, bool desc)
{
	struct settings_sort *ss = NULL;

	for (unsigned int i = 0; i < s->nsorts; i++)
		if (!strcmp(s->sorts[i].view, view))
			ss = &s->sorts[i];
	if (!ss) {
		if (s->nsorts >= SETTINGS_MAX_SORTS)
			return;
		ss = &s->sorts[s->nsorts++];
	}
	snprintf(ss->view, sizeof(ss->view), "%s", view);
	snprintf(ss->column, sizeof(ss->column), "%s", column);
	ss->desc = desc;
}

const struct settings_sort *settings_get_sort(const struct settings *s, const char *view)
{
	for (unsigned int i = 0; i < s->nsorts; i++)
		if (!strcmp(s->sorts[i].view, view))
			return &s->sorts[i];
	return NULL;
}

/* A "key=value" line of the [cluster] section: the Cluster pane's. */
static const char *settings_cluster_line(struct settings *s, const char *key, const char *val)
{
	if (!strcmp(key, "prometheus")) {
		if (!util_is_http_url(val))
			return "prometheus wants an http:// or https:// URL";
		snprintf(s->prometheus, sizeof(s->prometheus), "%s", val);
		return NULL;
	}
	return "unknown setting in [cluster]";
}

/* The sections: the lines before the first belong to the monitor as a whole. */
static const struct {
	const char *name;
	const char *(*line)(struct settings *s, const char *key, const char *val);
} settings_sections[] = {
	{ "cluster", settings_cluster_line },
};

/* One "key=value" line; returns a reason when it is bad. */
static const char *settings_line(struct settings *s, char *key, char *val)
{
	if (!strcmp(key, "interval")) {
		if (util_parse_double(val, 0.1, 3600, &s->interval_s))
			return "interval wants seconds between 0.1 and 3600";
		s->have_interval = true;
	} else if (!strcmp(key, "pane")) {
		if (!valid_id(val))
			return "pane wants a pane name";
		snprintf(s->pane, sizeof(s->pane), "%s", val);
	} else if (!strcmp(key, "color") || !strcmp(key, "colour")) {
		if (parse_bool(val, &s->color))
			return "color wants yes or no";
		s->have_color = true;
	} else if (!strcmp(key, "window")) {
		uint64_t v;

		if (util_parse_u64(val, 10, 3600, &v) || (v != 60 && v != 600 && v != 3600))
			return "window wants 60, 600 or 3600 (seconds)";
		s->window_s = (unsigned int)v;
		s->have_window = true;
	} else if (!strcmp(key, "counters")) {
		if (ctx_counters_mode(val) < 0)
			return "counters wants auto, sysfs, pma or netlink";
		snprintf(s->counters, sizeof(s->counters), "%s", val);
	} else if (!strncmp(key, "sort.", 5)) {
		char *dir = strchr(val, ',');
		bool desc = false;

		if (dir) {
			*dir++ = '\0';
			if (!strcmp(dir, "desc"))
				desc = true;
			else if (strcmp(dir, "asc"))
				return "sort wants COLUMN,asc or COLUMN,desc";
		}
		if (!valid_id(key + 5) || !valid_id(val))
			return "sort wants sort.PANE=COLUMN,asc|desc";
		settings_set_sort(s, key + 5, val, desc);
	} else {
		return "unknown setting";
	}
	return NULL;
}

int settings_read(struct settings *s, const char *path)
{
	char line[SETTINGS_LINE_MAX];
	unsigned int lineno = 0;
	int section = -1;	/* -1: before any section; -2: an unknown one, whose lines are skipped */
	FILE *f;
	int fd;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	{
		struct stat st;

		/* A FIFO or device in place of the file must not hang the start. */
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			warn_once("%s: not a regular file, ignored", path);
			return 0;
		}
	}
	f = fdopen(fd, "r");
	if (!f) {
		int e = errno;

		close(fd);
		return -e;
	}
	while (fgets(line, sizeof(line), f)) {
		char *l, *eq;
		const char *why;
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			warn_once("%s:%u: line too long, ignored", path, lineno);
			continue;
		}
		l = trim(line);
		if (!*l || *l == '#')
			continue;
		if (*l == '[') {
			char *end = strchr(l, ']');

			section = -2;
			if (!end || trim(end + 1)[0]) {
				warn_once("%s:%u: not a [section] line, the section's lines are ignored", path, lineno);
				continue;
			}
			*end = '\0';
			for (size_t i = 0; i < ARRAY_SIZE(settings_sections); i++)
				if (!strcmp(trim(l + 1), settings_sections[i].name))
					section = (int)i;
			if (section == -2)
				warn_once("%s:%u: unknown section [%s], its lines are ignored", path, lineno, trim(l + 1));
			continue;
		}
		if (section == -2)
			continue;
		eq = strchr(l, '=');
		if (!eq) {
			warn_once("%s:%u: not key=value, ignored", path, lineno);
			continue;
		}
		*eq = '\0';
		why = section >= 0 ? settings_sections[section].line(s, trim(l), trim(eq + 1)) :
				     settings_line(s, trim(l), trim(eq + 1));
		if (why)
			warn_once("%s:%u: %s, ignored", path, lineno, why);
	}
	fclose(f);
	return 0;
}

static int mkdir_parents(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The settings directory, opened once and used by its fd from then on (a
 * directory swapped for a symlink after a check by path would be written
 * through): not a symlink itself (O_NOFOLLOW), and it must belong to the
 * user who writes there (or to root): root running the monitor with another
 * user's XDG_CONFIG_HOME must not write where that user controls the names.
 * The fd and *base (the file's name in it), or -EPERM, -ELOOP, -errno.
 */
static int open_dir(const char *path, const char **base)
{
	char dir[PATH_MAX];
	struct stat st;
	ptrdiff_t at = util_dir_of(path, dir, sizeof(dir));
	int dfd;

	if (at < 0)
		return -ENAMETOOLONG;
	*base = path + at;
	if (!**base)
		return -EISDIR;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fstat(dfd, &st)) {
		int rc = -errno;

		close(dfd);
		return rc;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(dfd);
		return -EPERM;
	}
	return dfd;
}

/* A fresh name in dfd nobody can have planted (O_EXCL, O_NOFOLLOW, 0600): its fd, tmp its name. */
static int create_tmp(int dfd, const char *base, char *tmp, size_t size)
{
	uint64_t r = util_now_ns() ^ (uint64_t)getpid() << 32;

	for (int tries = 0; tries < 64; tries++) {
		int fd;

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		if (snprintf(tmp, size, ".%s.%016" PRIx64, base, r) >= (int)size)
			return -ENAMETOOLONG;
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int settings_write(const struct settings *s, const char *path)
{
	char tmp[NAME_MAX + 1];
	const char *base;
	FILE *f;
	int dfd, fd, rc;

	rc = mkdir_parents(path);
	if (rc)
		return rc;
	dfd = open_dir(path, &base);
	if (dfd < 0)
		return dfd;
	/*
	 * A fresh name, then an atomic rename, both in the directory opened:
	 * a symlink at any name in it is never followed, and a reader sees the
	 * old file or the new one.
	 */
	fd = create_tmp(dfd, base, tmp, sizeof(tmp));
	if (fd < 0) {
		close(dfd);
		return fd;
	}
	f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		goto fail;
	}
	fprintf(f, "# fabtop monitor settings, written by fabtop (key W); see doc/monitor.md\n");
	if (s->have_interval)
		fprintf(f, "interval=%g\n", s->interval_s);
	if (s->pane[0])
		fprintf(f, "pane=%s\n", s->pane);
	if (s->have_color)
		fprintf(f, "color=%s\n", s->color ? "yes" : "no");
	if (s->have_window)
		fprintf(f, "window=%u\n", s->window_s);
	if (s->counters[0])
		fprintf(f, "counters=%s\n", s->counters);
	for (unsigned int i = 0; i < s->nsorts; i++)
		fprintf(f, "sort.%s=%s,%s\n", s->sorts[i].view, s->sorts[i].column,
			s->sorts[i].desc ? "desc" : "asc");
	if (s->prometheus[0])
		fprintf(f, "\n[cluster]\nprometheus=%s\n", s->prometheus);
	if (fflush(f) || ferror(f) || fsync(fd)) {
		rc = errno ? -errno : -EIO;
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		rc = -errno;
		goto fail;
	}
	if (renameat(dfd, tmp, dfd, base)) {
		rc = -errno;
		goto fail;
	}
	close(dfd);
	return 0;
fail:
	unlinkat(dfd, tmp, 0);
	close(dfd);
	return rc;
}
