// SPDX-License-Identifier: GPL-2.0-or-later
/* Record raw rtnetlink dumps (link, addr, route, rule, neigh) into files for replay tests. */
#include "config.h"

#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "kernel/netlink.h"
#include "util.h"

static int save_cb(const void *buf, size_t len, void *arg)
{
	FILE *f = arg;

	return fwrite(buf, 1, len, f) == len ? 0 : -EIO;
}

static const struct {
	int type;
	const char *name;
} kinds[] = {
	{ RTM_GETLINK, "link" }, { RTM_GETADDR, "addr" }, { RTM_GETROUTE, "route" },
	{ RTM_GETRULE, "rule" }, { RTM_GETNEIGH, "neigh" },
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nl_record DIR  (writes DIR/{link,addr,route,rule,neigh}.bin)\n");
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		char path[4096];
		FILE *f;
		int rc;

		snprintf(path, sizeof(path), "%s/%s.bin", argv[1], kinds[i].name);
		f = fopen(path, "wb");
		if (!f) {
			fprintf(stderr, "nl_record: %s: %s\n", path, strerror(errno));
			return 1;
		}
		rc = netlink_dump_raw(kinds[i].type, save_cb, f);
		if (fclose(f) || rc) {
			fprintf(stderr, "nl_record: %s: %s\n", path, strerror(rc ? -rc : errno));
			return 1;
		}
	}
	return 0;
}
