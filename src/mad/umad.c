// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding and opening local IB ports through libibumad, with advice when access is denied. */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "kernel/sysfs.h"
#include "mad/umad.h"
#include "util.h"

/* The umadN node of ca/port, from <root>/class/infiniband_mad/umadN/{ibdev,port}. */
static void umad_dev_of(const struct fab_ctx *ctx, const char *ca, unsigned int port,
			const char *dev_root, char *out, size_t outsz)
{
	char path[512], name[FAB_NAME_LEN];
	char **names = NULL;
	uint64_t p;
	int dfd, n;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/class/infiniband_mad", ctx->sysfs_root);
	dfd = sysfs_open_dir(AT_FDCWD, path);
	if (dfd < 0)
		return;
	n = sysfs_list(dfd, ".", &names, 1024);
	for (int i = 0; i < n; i++) {
		char f[300];

		if (strncmp(names[i], "umad", 4))
			continue;
		snprintf(f, sizeof(f), "%s/ibdev", names[i]);
		if (sysfs_read_str(dfd, f, name, sizeof(name)) < 0 || strcmp(name, ca))
			continue;
		snprintf(f, sizeof(f), "%s/port", names[i]);
		if (sysfs_read_u64(dfd, f, &p) < 0 || p != port)
			continue;
		snprintf(out, outsz, "%s/infiniband/%s", dev_root, names[i]);
		break;
	}
	if (n > 0)
		sysfs_names_free(names, n);
	close(dfd);
}

int umad_list_ports(const struct fab_ctx *ctx, struct umad_local *out, size_t max,
		    char *why, size_t whysz)
{
	char (*cas)[UMAD_CA_NAME_LEN];
	char path[512];
	size_t n = 0, eth = 0;
	int ncas;

	why[0] = '\0';
	cas = calloc(32, sizeof(*cas));
	if (!cas)
		return -ENOMEM;
	/*
	 * libibumad reads the live /sys; umad_init() only checks the ABI file.
	 * With no devices at all it still names one ("mthca0", a default that
	 * umad_get_ca() then fails on), so only ports actually read count.
	 */
	umad_init();
	ncas = umad_get_cas_names(cas, 32);
	for (int i = 0; i < ncas && n < max; i++) {
		umad_ca_t ca;

		if (umad_get_ca(cas[i], &ca) < 0)
			continue;
		for (int p = 0; p < UMAD_CA_MAX_PORTS && n < max; p++) {
			umad_port_t *up = ca.ports[p];

			if (!up)
				continue;
			/* RoCE/iWARP ports have no SMA to talk to. */
			if (!strcmp(up->link_layer, "Ethernet")) {
				eth++;
				continue;
			}
			snprintf(out[n].ca, sizeof(out[n].ca), "%s", ca.ca_name);
			out[n].port = (unsigned int)up->portnum;
			umad_dev_of(ctx, ca.ca_name, out[n].port, "/dev", out[n].dev, sizeof(out[n].dev));
			n++;
		}
		umad_release_ca(&ca);
	}
	free(cas);
	if (n)
		return (int)n;

	snprintf(path, sizeof(path), "%s/class/infiniband", ctx->sysfs_root);
	if (eth)
		snprintf(why, whysz, "no InfiniBand ports: the RDMA devices here are all Ethernet "
			 "(RoCE/iWARP), which have no subnet management");
	else if (access(path, F_OK))
		snprintf(why, whysz, "no RDMA devices: %s is absent (no RDMA driver loaded)", path);
	else
		snprintf(why, whysz, "no InfiniBand management devices: %s/class/infiniband_mad is "
			 "absent or empty; load the ib_umad module (modprobe ib_umad)", ctx->sysfs_root);
	return 0;
}

void umad_explain_open_error(const char *node, int err, char *why, size_t whysz)
{
	struct stat st;
	struct group *gr;
	struct passwd *pw;
	char owner[64] = "?", group[64] = "?";

	if (stat(node, &st)) {
		snprintf(why, whysz, "cannot open %s: %s. The ib_umad module creates it: "
			 "modprobe ib_umad (and check that udev created /dev/infiniband)",
			 node, strerror(errno));
		return;
	}
	if (err != EACCES && err != EPERM) {
		snprintf(why, whysz, "cannot open %s: %s", node, strerror(err));
		return;
	}
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	snprintf(owner, sizeof(owner), "%s", pw ? pw->pw_name : "?");
	snprintf(group, sizeof(group), "%s", gr ? gr->gr_name : "?");
	if (!pw)
		snprintf(owner, sizeof(owner), "%u", (unsigned int)st.st_uid);
	if (!gr)
		snprintf(group, sizeof(group), "%u", (unsigned int)st.st_gid);
	snprintf(why, whysz,
		 "no access to %s (mode %04o, owner %s, group %s): PMA counters, the link partner "
		 "and the SM need it; everything from sysfs still works. Fix: run as root, or "
		 "%s, or add a udev rule such as "
		 "KERNEL==\"umad*\", GROUP=\"rdma\", MODE=\"0660\" in /etc/udev/rules.d/90-umad.rules "
		 "and add yourself to group rdma",
		 node, (unsigned int)(st.st_mode & 07777), owner, group,
		 (st.st_mode & 0060) == 0060 && gr ? "add yourself to its group (usermod -aG <group> $USER, then log in again)"
						   : "give a group read/write access");
	/* Say the group's name in the usermod hint when there is one. */
	if ((st.st_mode & 0060) == 0060 && gr) {
		char *p = strstr(why, "<group>");

		if (p) {
			char tail[1024];

			snprintf(tail, sizeof(tail), "%s", p + strlen("<group>"));
			snprintf(p, whysz - (size_t)(p - why), "%s%s", gr->gr_name, tail);
		}
	}
}

int umad_open(const struct fab_ctx *ctx, const struct umad_local *p, const char *dev_root,
	      char *why, size_t whysz)
{
	char node[64];
	int id, err;

	why[0] = '\0';
	errno = 0;
	id = umad_open_port(p->ca, (int)p->port);
	if (id >= 0)
		return id;
	/* libibumad turns every open failure into -EIO; the errno of open(2) says more. */
	err = errno ? errno : -id;
	umad_dev_of(ctx, p->ca, p->port, dev_root, node, sizeof(node));
	if (!node[0])
		snprintf(node, sizeof(node), "%s/infiniband/umad*", dev_root);
	if (access(node, R_OK | W_OK) && (errno == EACCES || errno == EPERM))
		err = EACCES;
	umad_explain_open_error(node, err, why, whysz);
	return -err;
}

/*
 * libibumad reads the system's own /sys. A --sysfs tree may be used with
 * MADs only when it describes the very devices libibumad sees (the
 * simulator's per-process tree does; a fixture tree does not): every CA
 * libibumad lists is in the tree with the same node GUID.
 */
bool umad_tree_is_live(const struct fab_ctx *ctx)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	int root;
	bool same = n > 0;

	if (n <= 0)
		return false;
	root = sysfs_open_dir(AT_FDCWD, ctx->sysfs_root);
	if (root < 0)
		return false;
	for (int i = 0; i < n && same; i++) {
		umad_ca_t ca;
		char path[128], buf[64];
		uint64_t guid;

		if (umad_get_ca(names[i], &ca) < 0) {
			same = false;
			break;
		}
		snprintf(path, sizeof(path), "class/infiniband/%.*s/node_guid", UMAD_CA_NAME_LEN, names[i]);
		same = sysfs_read_str(root, path, buf, sizeof(buf)) > 0 && !util_parse_guid(buf, &guid) &&
		       guid && guid == be64toh(ca.node_guid);
		umad_release_ca(&ca);
	}
	close(root);
	return same;
}
