// SPDX-License-Identifier: GPL-2.0-or-later
/* The RoCE chain of every Ethernet RDMA port: DCB (rtnetlink) and ethtool statistics, live or replayed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/dcb.h"
#include "kernel/dcb_parse.h"
#include "kernel/ethtool.h"
#include "kernel/ethtool_nl.h"
#include "kernel/ethtool_nl_parse.h"
#include "kernel/ethtool_parse.h"
#include "kernel/roce.h"
#include "kernel/sysfs.h"
#include "derive/roce_ctr.h"
#include "util.h"

#define RECORDING_MAX	(1 << 20)	/* a recording larger than this is not one */

/* The whole file, up to RECORDING_MAX; 0 or -errno. */
static int slurp(const char *path, void **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	size_t n;

	*buf = NULL;
	*len = 0;
	if (!f)
		return -errno;
	b = malloc(RECORDING_MAX);
	if (!b) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(b, 1, RECORDING_MAX, f);
	if (ferror(f) || n == RECORDING_MAX) {
		fclose(f);
		free(b);
		return -EFBIG;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

int roce_replay_dcb(const char *path, struct roce_dcb *out)
{
	void *buf;
	size_t len;
	int rc = slurp(path, &buf, &len);

	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	rc = dcb_parse_buf(buf, len, out);
	free(buf);
	return rc;
}

/* A PAUSE_GET answer recorded with its family id first (u16, host order, then 2 bytes of padding). */
int roce_replay_pause(const char *path, struct roce_ethtool *out)
{
	void *buf;
	size_t len;
	uint16_t family;
	int rc = slurp(path, &buf, &len);

	if (rc)
		return out->pause_err = rc;
	if (len < 4) {
		free(buf);
		return out->pause_err = -EBADMSG;
	}
	memcpy(&family, buf, sizeof(family));
	rc = ethtool_nl_parse_pause_buf((char *)buf + 4, len - 4, family, out);
	if (rc)
		out->pause_err = rc;
	free(buf);
	return rc;
}

/* u32 count, the names (32 bytes each), the values (u64, host order). */
int roce_replay_ethtool(const char *path, struct roce_ethtool *out)
{
	void *buf;
	size_t len;
	uint32_t n;
	int rc = slurp(path, &buf, &len);

	memset(out, 0, sizeof(*out));
	if (rc)
		return out->err = rc;
	if (len < sizeof(n)) {
		free(buf);
		return out->err = -EBADMSG;
	}
	memcpy(&n, buf, sizeof(n));
	if ((uint64_t)n * (ETHTOOL_NAME_LEN + 8) != len - sizeof(n))
		rc = -EBADMSG;
	else
		rc = ethtool_stats_parse((char *)buf + 4, (size_t)n * ETHTOOL_NAME_LEN,
					 (char *)buf + 4 + (size_t)n * ETHTOOL_NAME_LEN, (size_t)n * 8, n, out);
	free(buf);
	out->err = rc;
	return rc;
}

/* DCQCN's per-priority enables under ROOT/class/net/IF/ecn, where the driver has them (roce_port.ecn). */
static void read_ecn(const char *root, const char *netdev, struct roce_ecn *e)
{
	char path[256];
	int fd = open(root ? root : "/sys", O_PATH | O_DIRECTORY | O_CLOEXEC);

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return;
	snprintf(path, sizeof(path), "class/net/%s/ecn", netdev);
	e->known = sysfs_exists(fd, path) > 0;
	for (int p = 0; e->known && p < ROCE_PRIOS; p++) {
		uint64_t v;

		snprintf(path, sizeof(path), "class/net/%s/ecn/roce_np/enable/%d", netdev, p);
		if (!sysfs_read_u64(fd, path, &v)) {
			e->np_known[p] = true;
			e->np[p] = v != 0;
		}
		snprintf(path, sizeof(path), "class/net/%s/ecn/roce_rp/enable/%d", netdev, p);
		if (!sysfs_read_u64(fd, path, &v)) {
			e->rp_known[p] = true;
			e->rp[p] = v != 0;
		}
	}
	close(fd);
}

/* The netdev DCB lives on: the first one that is no VLAN, else a VLAN's parent. */
static const char *lower_netdev(const struct fab_port *p)
{
	for (unsigned int i = 0; i < p->nnetdevs && i < FAB_MAX_NETDEVS; i++)
		if (!p->netdevs[i].parent[0])
			return p->netdevs[i].name;
	for (unsigned int i = 0; i < p->nnetdevs && i < FAB_MAX_NETDEVS; i++)
		if (p->netdevs[i].parent[0])
			return p->netdevs[i].parent;
	return NULL;
}

/* What the host's collection already knows: hw_counters by role, rdma_cm's TOS and mode, GID types. */
static void port_facts(const struct fab_port *p, struct roce_port *rp)
{
	for (int r = 0; r < ROCE_CC_NROLES; r++) {
		const struct fab_counter *c = roce_cc_counter(p, (enum roce_cc_role)r);

		if (c && c->known) {
			rp->cc[r].known = true;
			rp->cc[r].value = c->value;
		}
	}
	if (p->default_roce_tos.known && p->default_roce_tos.value < 256) {
		rp->tos.known = true;
		rp->tos.value = (unsigned int)p->default_roce_tos.value;
	}
	snprintf(rp->roce_mode, sizeof(rp->roce_mode), "%s", p->default_roce_mode);
	for (size_t g = 0; g < p->ngids; g++)
		if (p->gids[g].type == GID_TYPE_ROCE_V2)
			rp->has_v2_gids = true;
}

int roce_ports_of(const struct fab_host *h, struct roce_state *st)
{
	size_t n = 0;

	st->ports = NULL;
	st->nports = 0;
	/* iWARP RNICs (node type 4) are Ethernet too, but no RoCE: no PFC chain of theirs to read. */
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++)
			n += h->devs[i].node_type_num != 4 && h->devs[i].ports[k].link_layer == LINK_LAYER_ETHERNET;
	if (!n)
		return 0;
	st->ports = calloc(n, sizeof(*st->ports));
	if (!st->ports)
		return -ENOMEM;
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];
			struct roce_port *rp;
			const char *nd;

			if (d->node_type_num == 4 || p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			rp = &st->ports[st->nports++];
			snprintf(rp->dev, sizeof(rp->dev), "%s", d->name);
			rp->port = p->num;
			port_facts(p, rp);
			nd = lower_netdev(p);
			if (nd)
				snprintf(rp->netdev, sizeof(rp->netdev), "%s", nd);
		}
	}
	return 0;
}

int roce_collect(const struct fab_host *h, const char *root, struct roce_state *st)
{
	bool live = !root || !strcmp(root, "/sys");
	int rc;

	memset(st, 0, sizeof(*st));
	st->t_ns = util_now_ns();
	rc = roce_ports_of(h, st);
	for (size_t i = 0; !rc && i < st->nports; i++) {
		struct roce_port *rp = &st->ports[i];

		if (!rp->netdev[0]) {
			rp->dcb.err = rp->eth.err = -ENODEV;
			continue;
		}
		read_ecn(root, rp->netdev, &rp->ecn);
		if (live) {
			int r = dcb_query(rp->netdev, &rp->dcb);

			if (r && !rp->dcb.err)
				rp->dcb.err = r;
			ethtool_read(rp->netdev, &rp->eth);
			ethtool_nl_pause(rp->netdev, &rp->eth);
		} else {
			char path[4096];
			int r;

			rp->recorded = true;
			snprintf(path, sizeof(path), "%s/fabtop-recorded/%s/dcb.nl", root, rp->netdev);
			r = roce_replay_dcb(path, &rp->dcb);
			if (r && !rp->dcb.err)
				rp->dcb.err = r;
			snprintf(path, sizeof(path), "%s/fabtop-recorded/%s/ethtool.bin", root, rp->netdev);
			roce_replay_ethtool(path, &rp->eth);
			snprintf(path, sizeof(path), "%s/fabtop-recorded/%s/pause.nl", root, rp->netdev);
			roce_replay_pause(path, &rp->eth);
		}
	}
	return rc;
}

/* "name value" lines into the roles they have; unknown names are skipped. */
static int replay_cc(const char *path, struct roce_port *rp)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char name[128];
		unsigned long long v;
		int r;

		if (sscanf(line, "%127s %llu", name, &v) != 2)
			continue;
		r = roce_cc_role_of(name);
		if (r >= 0) {
			rp->cc[r].known = true;
			rp->cc[r].value = v;
		}
	}
	fclose(f);
	return 0;
}

int roce_collect_next(const char *root, const struct roce_state *prev, struct roce_state *st)
{
	char path[4096];
	struct stat sb;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/fabtop-recorded/next", root);
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
		return -ENOENT;
	st->ports = calloc(prev->nports ? prev->nports : 1, sizeof(*st->ports));
	if (!st->ports)
		return -ENOMEM;
	st->nports = prev->nports;
	st->t_ns = prev->t_ns + 1000000000ull;
	for (size_t i = 0; i < prev->nports; i++) {
		struct roce_port *rp = &st->ports[i];

		*rp = prev->ports[i];
		/* a port without a second recording keeps the first: its rates read 0 */
		if (rp->netdev[0]) {
			snprintf(path, sizeof(path), "%s/fabtop-recorded/next/%s/ethtool.bin", root, rp->netdev);
			if (!stat(path, &sb)) {
				struct roce_ethtool keep = rp->eth;

				roce_replay_ethtool(path, &rp->eth);
				/* link pause has no second recording: the first one's settings and frames stay */
				rp->eth.pause_err = keep.pause_err;
				rp->eth.pause_known = keep.pause_known;
				rp->eth.pause_autoneg = keep.pause_autoneg;
				rp->eth.pause_rx = keep.pause_rx;
				rp->eth.pause_tx = keep.pause_tx;
				for (int k = ROCE_PORT_GLOBAL_RX_PAUSE; k <= ROCE_PORT_GLOBAL_TX_PAUSE; k++)
					if (!rp->eth.port[k].known)
						rp->eth.port[k] = keep.port[k];
			}
		}
		snprintf(path, sizeof(path), "%s/fabtop-recorded/next/%s-%u.hw_counters", root, rp->dev, rp->port);
		replay_cc(path, rp);
	}
	return 0;
}
