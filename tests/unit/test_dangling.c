// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ib-oldkernel tree (tests/data/trees/ib-oldkernel/README): a whole
 * 128-entry IB GID table whose unused entries read fe80::0, and a class
 * link that leads nowhere. The collector keeps the one real GID a port has
 * and no device for the dangling link, and the structure check, which skips
 * such a link the same way, sees nothing changed: no re-collection at every
 * check.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/host.h"
#include "source/source.h"
#include "kernel/watch.h"
#include "ctx.h"
#include "tap.h"

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[] = "/tmp/fabtop-dangling.XXXXXX", root[300], cmd[5000];
	struct fab_ctx ctx;
	struct fab_host h;
	bool devs[4] = { false };

	if (!mkdtemp(dir))
		return 1;
	snprintf(root, sizeof(root), "%s/t", dir);
	snprintf(cmd, sizeof(cmd), "cp -R '%s/tests/data/trees/ib-oldkernel' '%s' && chmod -R u+w '%s' && "
		 "ln -s ../../devices/pci0000:00/0000:00:03.0/0000:04:00.0/infiniband/mlx4_1 "
		 "'%s/class/infiniband/mlx4_1'", top ? top : ".", root, root, root);
	if (system(cmd)) {
		printf("Bail out! cannot copy the tree: %s\n", cmd);
		return 1;
	}
	ctx_init(&ctx);
	ctx.sysfs_root = root;
	ctx.live_sysfs = false;

	memset(&h, 0, sizeof(h));
	ASSERT_EQ_INT(collect_host(&ctx, &h, COLLECT_ALL), 0, "the tree with a dangling class link is collected");
	ASSERT_EQ_U64(h.ndevs, 1, "the dangling link is no device");
	TAP_OK(h.ndevs >= 1 && !strcmp(h.devs[0].name, "mlx4_0"), "the device is mlx4_0 (%s)",
	       h.ndevs ? h.devs[0].name : "none");
	for (size_t p = 0; h.ndevs && p < h.devs[0].nports; p++) {
		const struct fab_port *port = &h.devs[0].ports[p];

		ASSERT_EQ_U64(port->gid_tbl_len, 128, "the whole table is 128 entries");
		ASSERT_EQ_U64(port->ngids, 1, "one of them a GID: the prefix with a zero interface ID is empty");
	}
	ASSERT_EQ_INT(watch_changed_devices(&ctx, &h, devs), 0, "the structure check sees no change");
	TAP_OK(!devs[0], "and no device to read again");
	/* the link's device appears: now the structure changed */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/devices/pci0000:00/0000:00:03.0/0000:04:00.0/infiniband/mlx4_1/ports'",
		 root);
	if (system(cmd))
		return 1;
	TAP_OK(watch_changed_devices(&ctx, &h, NULL) < 0, "a device behind the link, once there, is a change");
	fab_host_free(&h);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}
