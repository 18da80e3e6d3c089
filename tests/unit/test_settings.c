// SPDX-License-Identifier: GPL-2.0-or-later
/* settings_write(): a planted symlink is never followed, a foreign directory is refused, the file round-trips. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "ui/settings.h"

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/fabtop-settings.XXXXXX", path[512], victim[512], cmd[700];
	struct settings s = { 0 }, back;
	const char *text;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/cfg/fabtop/fabtoprc", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	s.have_interval = true;
	s.interval_s = 2;
	snprintf(s.pane, sizeof(s.pane), "gids");
	snprintf(s.prometheus, sizeof(s.prometheus), "http://127.0.0.1:9090/prom");
	settings_set_sort(&s, "cluster", "host", true);

	ASSERT_EQ_INT(settings_write(&s, path), 0, "written, directories made");
	ASSERT_EQ_INT(settings_read(&back, path), 0, "read back");
	TAP_OK(back.have_interval && back.interval_s == 2 && !strcmp(back.pane, "gids"),
	       "round trip: interval %g pane %s", back.interval_s, back.pane);
	/* W must not drop the [cluster] section, nor put the sort lines inside it. */
	ASSERT_EQ_STR(back.prometheus, "http://127.0.0.1:9090/prom", "round trip: [cluster] prometheus");
	TAP_OK(back.nsorts == 1 && !strcmp(back.sorts[0].view, "cluster") && back.sorts[0].desc,
	       "round trip: sort.cluster (%u sorts, first %s desc %d)", back.nsorts,
	       back.nsorts ? back.sorts[0].view : "-", back.nsorts ? back.sorts[0].desc : 0);


	/*
	 * A symlink planted at the settings file itself, the name the writer
	 * finally writes (its temporary name is mkstemp's, which nobody can
	 * plant): a writer that opened the path would write through the link.
	 */
	{
		FILE *v = fopen(victim, "w");

		fputs("precious\n", v);
		fclose(v);
	}
	if (unlink(path) || symlink(victim, path))
		return 1;
	ASSERT_EQ_INT(settings_write(&s, path), 0, "written over a symlink planted at its own name");
	text = slurp(victim);
	ASSERT_EQ_STR(text ? text : "(gone)", "precious\n", "the symlink's target is untouched");
	{
		struct stat st;

		TAP_OK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600,
		       "the settings file is a regular 0600 file in the link's place (mode %o)",
		       (unsigned int)(st.st_mode & 0777));
	}
	ASSERT_EQ_INT(settings_read(&back, path), 0, "and it reads back");
	ASSERT_EQ_STR(back.pane, "gids", "with what was written");

	/* A directory owned by someone else (only root can make one): refused. */
	if (geteuid() == 0) {
		char foreign[400];

		snprintf(foreign, sizeof(foreign), "%s/other/fabtop", dir);
		snprintf(cmd, sizeof(cmd), "%s/other", dir);
		mkdir(cmd, 0755);
		mkdir(foreign, 0755);
		if (chown(foreign, 65534, 65534) == 0) {
			snprintf(path, sizeof(path), "%s/fabtoprc", foreign);
			ASSERT_EQ_INT(settings_write(&s, path), -EPERM, "a directory of another user is refused");
			TAP_OK(access(path, F_OK) != 0, "and nothing was written there");
		} else {
			TAP_SKIP("chown to nobody failed: %s", strerror(errno));
			TAP_SKIP("-");
		}
	} else {
		TAP_SKIP("a directory of another user needs root to make");
		TAP_SKIP("-");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}
