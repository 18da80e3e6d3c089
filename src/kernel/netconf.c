// SPDX-License-Identifier: GPL-2.0-or-later
/* Which tool keeps this host's network configuration: the doctor names the persistent fix that fits it. */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/netconf.h"
#include "kernel/sysfs.h"

/* Past this many processes the scan stops: the answer is then "not seen". */
#define NETCONF_MAX_PIDS 65536

/* Does a process whose comm is one of names run under proc_root? */
static bool proc_runs(const char *proc_root, const char *const *names)
{
	char **pids, path[64], comm[32];
	bool found = false;
	int n;

	int dfd = sysfs_open_dir(AT_FDCWD, proc_root);

	if (dfd < 0)
		return false;
	n = sysfs_list(dfd, ".", &pids, NETCONF_MAX_PIDS);
	for (int i = 0; i < n && !found; i++) {
		if (!isdigit((unsigned char)pids[i][0]))
			continue;
		snprintf(path, sizeof(path), "%s/comm", pids[i]);
		if (sysfs_read_str(dfd, path, comm, sizeof(comm)) > 0)
			for (const char *const *p = names; *p && !found; p++)
				found = !strcmp(comm, *p);
	}
	if (n > 0)
		sysfs_names_free(pids, n);
	close(dfd);
	return found;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Is there a *.yaml in dir (netplan reads /etc/netplan, /run/netplan, /lib/netplan: /etc is the admin's)? */
static bool dir_has_yaml(int dirfd, const char *dir)
{
	char **names;
	bool found = false;
	int n = sysfs_list(dirfd, dir, &names, 4096);

	for (int i = 0; i < n && !found; i++)
		found = has_suffix(names[i], ".yaml");
	if (n > 0)
		sysfs_names_free(names, n);
	return found;
}

/* Does an interfaces(5) file configure an interface other than lo ("iface NAME ...")? */
static bool interfaces_file_configures(const char *path)
{
	char line[512], name[64];
	bool found = false;
	struct stat st;
	FILE *f;
	/* Only a regular file: a FIFO in a fixture tree must not hang the doctor. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return false;
	}
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, " iface %63s", name) == 1 && strcmp(name, "lo"))
			found = true;
	fclose(f);
	return found;
}

static bool ifupdown_configures(const char *etc_root)
{
	char path[4096], **names;
	bool found;
	int n;

	snprintf(path, sizeof(path), "%s/network/interfaces", etc_root);
	found = interfaces_file_configures(path);
	/* Debian's default file sources the files of interfaces.d: they count too. */
	snprintf(path, sizeof(path), "%s/network/interfaces.d", etc_root);
	n = sysfs_list(AT_FDCWD, path, &names, 4096);
	for (int i = 0; i < n && !found; i++) {
		snprintf(path, sizeof(path), "%s/network/interfaces.d/%s", etc_root, names[i]);
		found = interfaces_file_configures(path);
	}
	if (n > 0)
		sysfs_names_free(names, n);
	return found;
}

enum fix_host netconf_detect(const struct fab_ctx *ctx)
{
	static const char *const nm[] = { "NetworkManager", NULL };
	/* comm holds 15 bytes: systemd-networkd is "systemd-network" there. */
	static const char *const networkd[] = { "systemd-network", "systemd-networkd", NULL };
	char path[4096];

	if (proc_runs(ctx->proc_root, nm))
		return FIX_HOST_NETWORKMANAGER;
	snprintf(path, sizeof(path), "%s/netplan", ctx->etc_root);
	if (dir_has_yaml(AT_FDCWD, path))
		return FIX_HOST_NETPLAN;
	if (ifupdown_configures(ctx->etc_root))
		return FIX_HOST_IFUPDOWN;
	if (proc_runs(ctx->proc_root, networkd))
		return FIX_HOST_NETWORKD;
	return FIX_HOST_UNKNOWN;
}
