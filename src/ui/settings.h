/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's settings file, $XDG_CONFIG_HOME/fabtop/fabtoprc: read at start, written on request. */
#ifndef FABTOP_UI_SETTINGS_H
#define FABTOP_UI_SETTINGS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define SETTINGS_MAX_SORTS 16	/* one per pane: at least UI_MAX_VIEWS (ui/ui.h) */
#define SETTINGS_ID_LEN 32

struct settings_sort {
	char view[SETTINGS_ID_LEN];	/* "ports" */
	char column[SETTINGS_ID_LEN];	/* the column title, lower case: "state" */
	bool desc;
};

struct settings {
	bool have_interval;
	double interval_s;
	char pane[SETTINGS_ID_LEN];	/* "" when not set */
	bool have_color;
	bool color;
	bool have_window;
	unsigned int window_s;
	struct settings_sort sorts[SETTINGS_MAX_SORTS];
	unsigned int nsorts;
	char counters[8];		/* counters=auto|sysfs|pma|netlink; "" when not set */
	char prometheus[UTIL_URL_MAX];	/* [cluster] prometheus=URL; "" when not set */
};

/* The file's path: $XDG_CONFIG_HOME/fabtop/fabtoprc or ~/.config/fabtop/fabtoprc. -1 if neither is set. */
int settings_path(char *buf, size_t size);
/*
 * Read path into s (zeroed first). A missing file is not an error (returns
 * 0); bad lines are warned about (warn_once) and skipped. -errno when the
 * file exists but cannot be read.
 */
int settings_read(struct settings *s, const char *path);
/*
 * Write s to path atomically, creating its directory. 0 or -errno: -EPERM
 * when the directory belongs to another user (not root), -ELOOP when it is
 * a symbolic link; nothing is written then.
 */
int settings_write(const struct settings *s, const char *path);
/* Remember a view's sort column. */
void settings_set_sort(struct settings *s, const char *view, const char *column, bool desc);
const struct settings_sort *settings_get_sort(const struct settings *s, const char *view);

#endif
