// SPDX-License-Identifier: GPL-2.0-or-later
/* The advice when /dev/infiniband/umad* cannot be used: which node, its owner/mode, and the fix. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "mad/umad.h"

static char tmp[] = "/tmp/fabtop-umad.XXXXXX";

static void mk(const char *rel, const char *content, mode_t mode)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	f = fopen(p, "w");
	if (!f) {
		printf("Bail out! cannot create %s\n", p);
		exit(1);
	}
	fputs(content, f);
	fclose(f);
	chmod(p, mode);
}

static void mkd(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	mkdir(p, 0755);
}

int main(void)
{
	char why[1024], node[512];
	struct group *gr;
	struct fab_ctx ctx;
	struct umad_local ports[4];
	int n;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	gr = getgrgid(getgid());

	/* A node with group access: join the group. */
	mk("umad0", "", 0660);
	snprintf(node, sizeof(node), "%s/umad0", tmp);
	umad_explain_open_error(node, EACCES, why, sizeof(why));
	TAP_OK(strstr(why, node) != NULL, "names the device node: %s", why);
	ASSERT_CONTAINS(why, "mode 0660", "says its mode");
	if (gr) {
		char want[128];

		snprintf(want, sizeof(want), "usermod -aG %s $USER", gr->gr_name);
		ASSERT_CONTAINS(why, want, "tells to join the node's group");
	} else {
		printf("ok %d # SKIP no group name for gid %u\n", ++tap_n, (unsigned int)getgid());
	}
	ASSERT_CONTAINS(why, "run as root", "mentions root");
	ASSERT_CONTAINS(why, "udev rule", "gives a udev rule");
	ASSERT_CONTAINS(why, "KERNEL==\"umad*\"", "matching umad nodes");
	ASSERT_CONTAINS(why, "everything from sysfs still works", "says what still works");

	/* Owner-only node: a group has to be given access first. */
	chmod(node, 0600);
	umad_explain_open_error(node, EACCES, why, sizeof(why));
	ASSERT_CONTAINS(why, "mode 0600", "0600: says the mode");
	ASSERT_CONTAINS(why, "give a group read/write access", "and to give a group access");

	/* No node at all: the module. */
	snprintf(node, sizeof(node), "%s/umad9", tmp);
	umad_explain_open_error(node, EACCES, why, sizeof(why));
	TAP_OK(strstr(why, "modprobe ib_umad") != NULL, "missing node: load ib_umad: %s", why);

	/* Another error is reported as itself. */
	snprintf(node, sizeof(node), "%s/umad0", tmp);
	umad_explain_open_error(node, EIO, why, sizeof(why));
	ASSERT_CONTAINS(why, strerror(EIO), "other errors as they are");

	/* Listing ports on a machine without IB: the reason, rooted where asked. */
	if (access("/sys/class/infiniband_mad", F_OK) == 0) {
		printf("ok %d # SKIP this machine has InfiniBand management devices\n", ++tap_n);
		printf("ok %d # SKIP this machine has InfiniBand management devices\n", ++tap_n);
	} else {
		memset(&ctx, 0, sizeof(ctx));
		ctx.sysfs_root = tmp;
		n = umad_list_ports(&ctx, ports, 4, why, sizeof(why));
		TAP_OK(n == 0 && strstr(why, "no RDMA devices") && strstr(why, tmp), "no devices (%d ports): %s", n, why);
		mkd("class");
		mkd("class/infiniband");
		n = umad_list_ports(&ctx, ports, 4, why, sizeof(why));
		TAP_OK(n == 0 && strstr(why, "modprobe ib_umad"), "devices but no umad (%d ports): %s", n, why);

		rmdir(strcat(strcpy(node, tmp), "/class/infiniband"));
		rmdir(strcat(strcpy(node, tmp), "/class"));
	}
	unlink(strcat(strcpy(node, tmp), "/umad0"));
	rmdir(tmp);
	return tap_done();
}
