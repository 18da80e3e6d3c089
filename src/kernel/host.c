// SPDX-License-Identifier: GPL-2.0-or-later
/* Reads class/infiniband (devices, ports, counters, GIDs) and their netdevs under a root. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kernel/host.h"
#include "kernel/pci.h"
#include "kernel/sysfs.h"
#include "derive/counters.h"
#include "derive/gid.h"
#include "warn.h"
#include "util.h"

void collect_counter_text(struct fab_counter *c, const char *raw)
{
	uint64_t v = 0;
	bool known = sysfs_parse_u64(raw, &v) == 0;

	snprintf(c->raw, sizeof(c->raw), "%s", raw);
	counter_sample_value(c, known, v);
}

#define MAX_DEVICES	FAB_MAX_DEVICES
#define MAX_PORTS	FAB_MAX_PORTS
#define MAX_COUNTERS	FAB_MAX_DIR_COUNTERS
#define MAX_GIDS	FAB_MAX_GIDS
#define MAX_NETS	4096

/* State of one collection run. */
struct collector {
	const struct fab_ctx *ctx;
	struct fab_host *old;	/* the snapshot whose counter fds are taken over, NULL: none */
	int rootfd;		/* the sysfs root */
	int netfd;		/* root/class/net, -1 if absent */
	unsigned int what;
	bool is_switch;		/* the device being read is an IB switch */
	bool is_rnic;		/* ... an iWARP RNIC: its GIDs are not RoCE */
};

/*
 * Counter files stay open between refreshes (one pread each) while their fd
 * is below half the soft limit: the other half is for a rescan's second
 * snapshot and everything else. Past it a counter is opened, read and
 * closed at each refresh instead: slower, but no host is too big.
 */
static int counter_fd_budget(void)
{
	static int budget;
	struct rlimit rl;

	if (budget)
		return budget;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 20))
		budget = 1 << 19;
	else
		budget = (int)(rl.rlim_cur / 2);
	return budget;
}

/*
 * Read an attribute into buf. Missing attributes are silently unknown (old
 * kernels and other drivers lack many); anything else odd is warned once.
 */
static bool read_attr(int dirfd, const char *where, const char *attr, char *buf, size_t size)
{
	char tmp[SYSFS_ATTR_MAX];
	ssize_t n = sysfs_read_str(dirfd, attr, tmp, sizeof(tmp));

	buf[0] = '\0';
	if (n < 0) {
		/* EINVAL from gid_attrs is the kernel's "no such attribute here". */
		if (n != -ENOENT && n != -EINVAL && n != -ENODATA && n != -EOPNOTSUPP)
			warn_once("%s/%s: unreadable (%s)", where, attr, strerror((int)-n));
		return false;
	}
	if ((size_t)n >= size) {
		warn_once("%s/%s: value too long (%zd bytes), ignored", where, attr, n);
		return false;
	}
	memcpy(buf, tmp, (size_t)n + 1);
	util_clean(buf);
	return n > 0;
}

static void read_opt_u64(int dirfd, const char *where, const char *attr, struct opt_u64 *out)
{
	char buf[64];

	out->known = false;
	if (!read_attr(dirfd, where, attr, buf, sizeof(buf)))
		return;
	if (sysfs_parse_u64(buf, &out->value) == 0)
		out->known = true;
	else
		warn_once("%s/%s: not a number: '%s'", where, attr, buf);
}

/* "100 Gb/sec (4X EDR)" -> 100; "2.5 Gb/sec (1X SDR)" -> 2.5. */
static bool parse_rate_gbps(const char *s, double *out)
{
	const char *end;
	double v;

	if (util_num_double(s, UTIL_NUM_BLANKS | UTIL_NUM_PREFIX, 0, 1e6, &v, &end))
		return false;
	while (*end == ' ')
		end++;
	if (strncmp(end, "Gb/sec", 6))
		return false;
	*out = v;
	return true;
}

static void collect_port_attrs(int pfd, const char *where,
			       struct fab_port *p)
{
	const char *text;
	int v;

	if (read_attr(pfd, where, "state", p->state_raw, sizeof(p->state_raw))) {
		v = sysfs_parse_enum(p->state_raw, &text);
		p->state = v >= 0 && v <= PORT_STATE_ACTIVE_DEFER ? (enum fab_port_state)v : PORT_STATE_UNKNOWN;
		/* The kernel prints "N: NAME"; a name that disagrees with N is not trusted. */
		if (p->state != PORT_STATE_UNKNOWN && strcasecmp(text, fab_port_state_str(p->state)))
			p->state = PORT_STATE_UNKNOWN;
		if (p->state == PORT_STATE_UNKNOWN)
			warn_once("%s/state: unexpected value '%s'", where, p->state_raw);
	}
	if (read_attr(pfd, where, "phys_state", p->phys_state_raw, sizeof(p->phys_state_raw))) {
		v = sysfs_parse_enum(p->phys_state_raw, &text);
		p->phys_state = v >= 0 && v <= PHYS_STATE_PHY_TEST ? (enum fab_phys_state)v : PHYS_STATE_UNKNOWN;
		if (p->phys_state != PHYS_STATE_UNKNOWN && strcasecmp(text, fab_phys_state_str(p->phys_state)))
			p->phys_state = PHYS_STATE_UNKNOWN;
		if (p->phys_state == PHYS_STATE_UNKNOWN)
			warn_once("%s/phys_state: unexpected value '%s'", where, p->phys_state_raw);
	}
	if (read_attr(pfd, where, "rate", p->rate, sizeof(p->rate))) {
		p->rate_known = parse_rate_gbps(p->rate, &p->rate_gbps);
		if (!p->rate_known)
			warn_once("%s/rate: unexpected value '%s'", where, p->rate);
	}
	if (read_attr(pfd, where, "link_layer", p->link_layer_raw, sizeof(p->link_layer_raw))) {
		if (!strcmp(p->link_layer_raw, "InfiniBand"))
			p->link_layer = LINK_LAYER_INFINIBAND;
		else if (!strcmp(p->link_layer_raw, "Ethernet"))
			p->link_layer = LINK_LAYER_ETHERNET;
		else
			warn_once("%s/link_layer: unexpected value '%s'", where, p->link_layer_raw);
	}
	read_opt_u64(pfd, where, "lid", &p->lid);
	read_opt_u64(pfd, where, "sm_lid", &p->sm_lid);
	read_opt_u64(pfd, where, "lid_mask_count", &p->lmc);
	read_opt_u64(pfd, where, "sm_sl", &p->sm_sl);
	read_opt_u64(pfd, where, "cap_mask", &p->cap_mask);
}

static void collect_pkeys(int pfd, const char *where, struct fab_port *p)
{
	char **names;
	int n, i;

	n = sysfs_list(pfd, "pkeys", &names, 4096);
	for (i = 0; i < n && p->npkeys < FAB_MAX_PKEYS; i++) {
		char path[300], buf[32];
		uint64_t v;

		snprintf(path, sizeof(path), "pkeys/%s", names[i]);
		if (!read_attr(pfd, where, path, buf, sizeof(buf)))
			continue;
		/* pkeys/N reads "0xffff"; 0 is an empty slot. */
		if (sysfs_parse_u64(buf, &v) || v > 0xffff) {
			warn_once("%s/%s: not a P_Key: '%s'", where, path, buf);
			continue;
		}
		if (v)
			p->pkeys[p->npkeys++] = (uint16_t)v;
	}
	if (n > 0)
		sysfs_names_free(names, n);
}

/* Append the counters of one directory (counters/, counters_ext/, hw_counters/). */
/*
 * The open file of this counter in the previous snapshot, taken over when
 * it still reads (a device removed and added again under the same name
 * leaves its old files reading ENODEV: those are opened anew). -1: none.
 */
static int take_counter_fd(struct fab_port *old, size_t pos, const struct fab_counter *c, char *buf, size_t size,
			   ssize_t *len)
{
	struct fab_counter *oc;
	int fd;

	if (!old)
		return -1;
	/* Same directory order as last time, usually: try the same place first. */
	oc = pos < old->ncounters && !strcmp(old->counters[pos].name, c->name) ? &old->counters[pos]
									       : fab_port_find_counter(old, c->name);
	if (!oc || oc->source != c->source || oc->fd < 0)
		return -1;
	*len = sysfs_pread_str(oc->fd, buf, size);
	if (*len < 0 && *len != -EINVAL && *len != -EOPNOTSUPP)
		return -1;
	fd = oc->fd;
	/* Should this collection fail, the old snapshot still reads it, by path. */
	oc->fd = -1;
	oc->reopen = true;
	return fd;
}

/* The IB CM's per-port MAD counters (present once ib_cm is loaded). */
static const struct {
	const char *dir;
	enum fab_counter_source src;
} cm_dirs[] = {
	{ "cm_tx_msgs", COUNTER_SRC_CM_TX_MSGS },
	{ "cm_tx_retries", COUNTER_SRC_CM_TX_RETRIES },
	{ "cm_rx_msgs", COUNTER_SRC_CM_RX_MSGS },
	{ "cm_rx_duplicates", COUNTER_SRC_CM_RX_DUPLICATES },
};
_Static_assert(3 + ARRAY_SIZE(cm_dirs) <= FAB_MAX_COUNTER_DIRS, "FAB_MAX_PORT_COUNTERS counts every directory");

static int collect_counter_dir(int pfd, const char *where, const char *dir,
			       enum fab_counter_source src, struct fab_port *p, struct fab_port *old)
{
	struct fab_counter *nc;
	char **names;
	bool ext;
	int n, i, budget = counter_fd_budget();

	n = sysfs_list(pfd, dir, &names, MAX_COUNTERS);
	if (n == -ENOENT || n == -ENOTDIR)
		return 0;
	if (n < 0) {
		warn_once("%s/%s: unreadable (%s)", where, dir, strerror(-n));
		return 0;
	}
	if (n == 0)
		return 0;
	nc = realloc(p->counters, (p->ncounters + (size_t)n) * sizeof(*nc));
	if (!nc) {
		sysfs_names_free(names, n);
		return -ENOMEM;
	}
	p->counters = nc;

	{
		char probe[300];

		snprintf(probe, sizeof(probe), "%s/unicast_xmit_packets", dir);
		ext = src == COUNTER_SRC_COUNTERS && sysfs_exists(pfd, probe);
	}
	for (i = 0; i < n; i++) {
		struct fab_counter *c = &p->counters[p->ncounters];
		char path[600], buf[64];
		ssize_t len;
		int fd;

		/* lifespan is hw_counters' cache time in ms, a setting, not a counter. */
		if (src == COUNTER_SRC_HW_COUNTERS && !strcmp(names[i], "lifespan"))
			continue;
		if (strlen(names[i]) >= sizeof(c->name)) {
			warn_once("%s/%s: counter name too long, skipped", where, dir);
			continue;
		}
		counter_define(c, names[i], src, ext);
		/* The CM's four directories name the same message types: the directory is part of the name. */
		if (counter_is_cm(c))
			snprintf(c->name, sizeof(c->name), "%s/%s", dir, names[i]);
		util_clean(c->name);	/* a file name is any byte but '/': shown cleaned, opened by path */
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		fd = take_counter_fd(old, p->ncounters, c, buf, sizeof(buf), &len);
		if (fd < 0) {
			fd = sysfs_open_attr(pfd, path);
			if (fd < 0) {
				warn_once("%s/%s: unreadable (%s)", where, path, strerror(-fd));
				collect_counter_text(c, "");
				p->ncounters++;
				continue;
			}
			len = sysfs_pread_str(fd, buf, sizeof(buf));
		}
		if (fd < budget) {
			c->fd = fd;
		} else {
			close(fd);
			c->reopen = true;
		}
		if (len < 0) {
			if (len != -EINVAL && len != -EOPNOTSUPP)
				warn_once("%s/%s: unreadable (%s)", where, path, strerror((int)-len));
			buf[0] = '\0';
		}
		util_clean(buf);
		collect_counter_text(c, buf);
		/* Saturated counters are expected on busy links: shown as such, not warned. */
		if (!c->known && buf[0] && strncmp(buf, "N/A", 3)) {
			uint64_t v;

			if (sysfs_parse_u64(buf, &v) == 0)
				warn_once("%s/%s: %s does not fit a %u-bit counter", where, path, buf, c->bits);
			else
				warn_once("%s/%s: not a counter value: '%s'", where, path, buf);
		}
		if (c->known && (src == COUNTER_SRC_COUNTERS || src == COUNTER_SRC_COUNTERS_EXT))
			p->has_pma = true;
		p->ncounters++;
	}
	sysfs_names_free(names, n);
	return 0;
}

/* Every counter directory of a port, in the order the reports list them (a collection and a fill alike). */
static int collect_port_counters(int pfd, const char *where, struct fab_port *p, struct fab_port *old)
{
	int rc = collect_counter_dir(pfd, where, "counters", COUNTER_SRC_COUNTERS, p, old);

	if (!rc)
		rc = collect_counter_dir(pfd, where, "counters_ext", COUNTER_SRC_COUNTERS_EXT, p, old);
	if (!rc)
		rc = collect_counter_dir(pfd, where, "hw_counters", COUNTER_SRC_HW_COUNTERS, p, old);
	for (size_t k = 0; !rc && k < ARRAY_SIZE(cm_dirs); k++)
		rc = collect_counter_dir(pfd, where, cm_dirs[k].dir, cm_dirs[k].src, p, old);
	return rc;
}

static int gid_append(struct fab_port *p, size_t *cap, const struct fab_gid *g)
{
	if (p->ngids == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct fab_gid *n = realloc(p->gids, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->gids = n;
		*cap = ncap;
	}
	p->gids[p->ngids++] = *g;
	return 0;
}

/* Netdev and type of a non-empty entry, from gid_attrs. */
static void gid_attrs(struct collector *col, int pfd, const char *where,
		      struct fab_port *p, struct fab_gid *g)
{
	/* Switches have no link_layer file, but only ever speak InfiniBand. */
	enum fab_link_layer ll = p->link_layer == LINK_LAYER_UNKNOWN && col->is_switch ?
				 LINK_LAYER_INFINIBAND : p->link_layer;
	char path[64], buf[FAB_NAME_LEN];

	snprintf(path, sizeof(path), "gid_attrs/ndevs/%u", g->index);
	if (read_attr(pfd, where, path, buf, sizeof(buf)) && strlen(buf) < sizeof(g->netdev))
		snprintf(g->netdev, sizeof(g->netdev), "%s", buf);
	/* The kernel types an RNIC's GIDs "IB/RoCE v1"; they carry no RoCE at all. */
	if (col->is_rnic)
		g->type = GID_TYPE_IWARP;
	if (g->type == GID_TYPE_UNKNOWN) {
		snprintf(path, sizeof(path), "gid_attrs/types/%u", g->index);
		read_attr(pfd, where, path, buf, sizeof(buf));
		g->type = gid_type_parse(buf, ll);
	}
	g->netdev_in_ns = g->netdev[0] && col->netfd >= 0 && sysfs_exists(col->netfd, g->netdev);
}

#if HAVE_DECL_IBV_QUERY_GID_TABLE
/*
 * The fast path: one ibv_query_gid_table() call instead of ~3 reads per
 * entry. Only on the live /sys (a fixture tree has no device to open).
 * Returns the number of entries found, or -1 to fall back to sysfs.
 */
static int collect_gids_verbs(struct collector *col, int pfd, const char *where,
			      const char *devname, struct fab_port *p)
{
	struct ibv_device **list;
	struct ibv_context *vctx = NULL;
	struct ibv_device_attr_ex attr;
	struct ibv_gid_entry *ents = NULL;
	struct ibv_port_attr pattr;
	size_t cap = 0;
	ssize_t n = -1;
	int i, ndev;

	if (!col->ctx->live_sysfs)
		return -1;
	list = ibv_get_device_list(&ndev);
	if (!list)
		return -1;
	for (i = 0; i < ndev; i++)
		if (!strcmp(ibv_get_device_name(list[i]), devname)) {
			vctx = ibv_open_device(list[i]);
			break;
		}
	ibv_free_device_list(list);
	if (!vctx)
		return -1;
	if (ibv_query_port(vctx, (uint8_t)p->num, &pattr) == 0) {
		p->active_mtu.known = p->max_mtu.known = true;
		p->active_mtu.value = 128u << pattr.active_mtu;
		p->max_mtu.value = 128u << pattr.max_mtu;
		p->gid_tbl_len = (unsigned int)pattr.gid_tbl_len;
	}
	if (ibv_query_device_ex(vctx, NULL, &attr) == 0 && pattr.gid_tbl_len > 0) {
		size_t max = (size_t)attr.orig_attr.phys_port_cnt * (size_t)pattr.gid_tbl_len;

		ents = calloc(max ? max : 1, sizeof(*ents));
		if (ents)
			n = ibv_query_gid_table(vctx, ents, max, 0);
	}
	for (i = 0; n > 0 && i < n; i++) {
		struct fab_gid g = { 0 };

		if (ents[i].port_num != p->num)
			continue;
		g.index = ents[i].gid_index;
		memcpy(g.raw, ents[i].gid.raw, 16);
		if (gid_is_empty(g.raw, col->is_rnic))
			continue;
		gid_format(&g);
		switch (col->is_rnic ? -1 : (int)ents[i].gid_type) {
		case IBV_GID_TYPE_IB: g.type = GID_TYPE_IB; break;
		case IBV_GID_TYPE_ROCE_V1: g.type = GID_TYPE_ROCE_V1; break;
		case IBV_GID_TYPE_ROCE_V2: g.type = GID_TYPE_ROCE_V2; break;
		default: g.type = GID_TYPE_UNKNOWN; break;
		}
		/* ifindex may belong to another namespace: take the name from sysfs. */
		gid_attrs(col, pfd, where, p, &g);
		if (gid_append(p, &cap, &g)) {
			n = -1;
			break;
		}
	}
	free(ents);
	ibv_close_device(vctx);
	return n < 0 ? -1 : (int)p->ngids;
}
#endif

/*
 * The sysfs GID table from entry *at of the listing on, until deadline_ns
 * (0: none) has passed: 0 when all is read (p->gid_tbl_len set), 1 when
 * *at is where to go on, -ENOMEM. *cap is p->gids' allocated size.
 */
#define GID_DEADLINE_EVERY 8	/* entries between looks at the clock */
static int collect_gids_sysfs(struct collector *col, int pfd, const char *where, struct fab_port *p,
			      size_t *cap, unsigned int *at, uint64_t deadline_ns)
{
	char **names;
	int n, i, rc = 0;

	n = sysfs_list(pfd, "gids", &names, MAX_GIDS);
	if (n < 0) {
		if (n != -ENOENT)
			warn_once("%s/gids: unreadable (%s)", where, strerror(-n));
		return 0;
	}
	for (i = (int)*at; i < n; i++) {
		struct fab_gid g = { 0 };
		char path[300], buf[64];
		uint64_t idx;

		if (deadline_ns && i > (int)*at && (i - (int)*at) % GID_DEADLINE_EVERY == 0 &&
		    util_now_ns() >= deadline_ns) {
			rc = 1;
			break;
		}
		if (sysfs_parse_u64(names[i], &idx) || idx > 0xffffff)
			continue;
		snprintf(path, sizeof(path), "gids/%s", names[i]);
		if (!read_attr(pfd, where, path, buf, sizeof(buf)))
			continue;
		if (!gid_parse(buf, g.raw)) {
			warn_once("%s/%s: not a GID: '%s'", where, path, buf);
			continue;
		}
		if (gid_is_empty(g.raw, col->is_rnic))
			continue;
		g.index = (unsigned int)idx;
		gid_format(&g);
		gid_attrs(col, pfd, where, p, &g);
		if (gid_append(p, cap, &g)) {
			rc = -ENOMEM;
			break;
		}
	}
	*at = (unsigned int)i;
	if (!rc)
		p->gid_tbl_len = (unsigned int)n;
	if (n > 0)
		sysfs_names_free(names, n);
	return rc;
}

static void netdev_add(struct collector *col, struct fab_port *p, const char *name)
{
	struct fab_netdev *nd;
	char where[128];
	int fd;

	if (!name[0] || strlen(name) >= FAB_IFNAMSIZ || strchr(name, '/'))
		return;
	for (unsigned int i = 0; i < p->nnetdevs; i++)
		if (!strcmp(p->netdevs[i].name, name))
			return;
	if (p->nnetdevs >= FAB_MAX_NETDEVS)
		return;
	nd = &p->netdevs[p->nnetdevs++];
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	util_clean(nd->name);		/* shown cleaned; opened below by the name the tree gives */
	if (col->netfd < 0)
		return;
	fd = sysfs_open_dir(col->netfd, name);
	if (fd < 0)
		return;		/* not in this namespace: the container case */
	nd->in_ns = true;
	snprintf(where, sizeof(where), "class/net/%s", name);
	read_opt_u64(fd, where, "mtu", &nd->mtu);
	read_opt_u64(fd, where, "ifindex", &nd->ifindex);
	read_attr(fd, where, "operstate", nd->operstate, sizeof(nd->operstate));
	read_attr(fd, where, "mode", nd->ipoib_mode, sizeof(nd->ipoib_mode));
	if (nd->ipoib_mode[0])
		read_opt_u64(fd, where, "pkey", &nd->pkey);
	/* A VLAN or IPoIB child names its lower device as lower_* in sysfs. */
	{
		char **names;
		int n = sysfs_list(fd, ".", &names, 4096);

		for (int i = 0; i < n; i++)
			if (!strncmp(names[i], "lower_", 6) && strlen(names[i] + 6) < FAB_IFNAMSIZ) {
				snprintf(nd->parent, sizeof(nd->parent), "%s", names[i] + 6);
				break;
			}
		if (n > 0)
			sysfs_names_free(names, n);
	}
	close(fd);
}

/*
 * Which port a netdev of a multi-port device belongs to: dev_port is the
 * 0-based port (IPoIB, mlx4_en); old IPoIB used dev_id. One-port devices
 * own all their netdevs.
 */
static unsigned int netdev_port(int netdirfd, size_t nports, unsigned int first_port)
{
	uint64_t v;

	if (nports <= 1)
		return first_port;
	if (sysfs_read_u64(netdirfd, "dev_port", &v) == 0 && v < MAX_PORTS)
		return (unsigned int)v + 1;
	if (sysfs_read_u64(netdirfd, "dev_id", &v) == 0 && v < MAX_PORTS)
		return (unsigned int)v + 1;
	return first_port;
}

static void collect_netdevs(struct collector *col, int devfd, struct fab_device *d)
{
	char buf[FAB_NAME_LEN];
	char **names;
	int n, i;

	if (!d->nports)
		return;
	/* rxe (and siw) name their netdev in "parent". */
	if (read_attr(devfd, d->name, "parent", buf, sizeof(buf)))
		netdev_add(col, &d->ports[0], buf);

	/* PCI devices: device/net/ holds the netdevs of the same function. */
	n = sysfs_list(devfd, "device/net", &names, 256);
	for (i = 0; i < n; i++) {
		char path[300];
		unsigned int port;
		int nfd;

		snprintf(path, sizeof(path), "device/net/%s", names[i]);
		nfd = sysfs_open_dir(devfd, path);
		port = netdev_port(nfd, d->nports, d->ports[0].num);
		if (nfd >= 0)
			close(nfd);
		for (size_t j = 0; j < d->nports; j++)
			if (d->ports[j].num == port)
				netdev_add(col, &d->ports[j], names[i]);
	}
	if (n > 0)
		sysfs_names_free(names, n);

	/* RoCE GIDs name the netdevs (VLANs, macvlans) traffic really uses. */
	for (size_t j = 0; j < d->nports; j++)
		for (size_t k = 0; k < d->ports[j].ngids; k++)
			netdev_add(col, &d->ports[j], d->ports[j].gids[k].netdev);
}

/* The other direction: class/net/X/device/infiniband/DEV, for drivers without device/net. */
static void collect_netdevs_reverse(struct collector *col, struct fab_device *devs, size_t ndevs)
{
	char **names;
	int n, i;

	if (col->netfd < 0)
		return;
	n = sysfs_list(col->netfd, ".", &names, MAX_NETS);
	for (i = 0; i < n; i++) {
		char path[300];

		for (size_t k = 0; k < ndevs; k++) {
			struct fab_device *d = &devs[k];
			int nfd;

			if (!d->nports)
				continue;
			snprintf(path, sizeof(path), "%s/device/infiniband/%s", names[i], d->name);
			if (!sysfs_exists(col->netfd, path))
				continue;
			nfd = sysfs_open_dir(col->netfd, names[i]);
			{
				unsigned int port = netdev_port(nfd, d->nports, d->ports[0].num);

				for (size_t j = 0; j < d->nports; j++)
					if (d->ports[j].num == port)
						netdev_add(col, &d->ports[j], names[i]);
			}
			if (nfd >= 0)
				close(nfd);
		}
	}
	if (n > 0)
		sysfs_names_free(names, n);
}

static void collect_roce_mode(struct collector *col, struct fab_device *d, struct fab_port *p)
{
	char path[4096];
	char buf[FAB_NAME_LEN];
	int fd;

	snprintf(path, sizeof(path), "%s/rdma_cm/%s/ports/%u", col->ctx->configfs_root, d->name, p->num);
	fd = sysfs_open_dir(AT_FDCWD, path);
	if (fd < 0)
		return;
	if (read_attr(fd, path, "default_roce_mode", buf, sizeof(buf)))
		snprintf(p->default_roce_mode, sizeof(p->default_roce_mode), "%s", buf);
	/* Linux 4.16+: the TOS the RDMA CM gives RoCE connections, 0 when unset. */
	read_opt_u64(fd, path, "default_roce_tos", &p->default_roce_tos);
	close(fd);
}

/*
 * The port's GID table: verbs where they answer (all at once), sysfs
 * otherwise, from entry *at until deadline_ns (see collect_gids_sysfs()).
 * 0 when all is read, 1 to go on at *at, -ENOMEM.
 */
static int collect_gids_from(struct collector *col, int pfd, const char *where, const char *devname,
			     struct fab_port *p, size_t *cap, unsigned int *at, uint64_t deadline_ns)
{
#if HAVE_DECL_IBV_QUERY_GID_TABLE
	if (!*at) {
		if (collect_gids_verbs(col, pfd, where, devname, p) >= 0)
			return 0;
		free(p->gids);
		p->gids = NULL;
		p->ngids = 0;
		*cap = 0;
	}
#else
	(void)devname;
#endif
	return collect_gids_sysfs(col, pfd, where, p, cap, at, deadline_ns);
}

static int collect_gids(struct collector *col, int pfd, const char *where, const char *devname,
			struct fab_port *p)
{
	size_t cap = 0;
	unsigned int at = 0;

	return collect_gids_from(col, pfd, where, devname, p, &cap, &at, 0);
}

/*
 * Without COLLECT_GIDS: the table of the same port in the handed-over
 * snapshot (COLLECT_KEEP_GIDS; copied, so a collection that fails leaves
 * the old one whole), or none yet: p->pending says it is still to be read.
 */
static int keep_gids(struct collector *col, const struct fab_device *d, struct fab_port *p)
{
	const struct fab_port *old = NULL;

	if ((col->what & COLLECT_KEEP_GIDS) && col->old)
		old = fab_host_find_port(col->old, d->name, p->num);
	if (!old || (old->pending & COLLECT_GIDS))
		p->pending |= COLLECT_GIDS;	/* a table half read starts again */
	if (!old)
		return 0;
	p->gid_tbl_len = old->gid_tbl_len;
	p->active_mtu = old->active_mtu;	/* verbs give these with the GIDs */
	p->max_mtu = old->max_mtu;
	if (!old->ngids)
		return 0;
	p->gids = malloc(old->ngids * sizeof(*p->gids));
	if (!p->gids)
		return -ENOMEM;
	memcpy(p->gids, old->gids, old->ngids * sizeof(*p->gids));
	p->ngids = old->ngids;
	return 0;
}

static int collect_port(struct collector *col, int devfd, struct fab_device *d,
			const char *pname, struct fab_port *p)
{
	char where[FAB_NAME_LEN + 32], path[300];
	uint64_t num;
	int pfd, rc = 0;

	memset(p, 0, sizeof(*p));
	p->state = PORT_STATE_UNKNOWN;
	p->phys_state = PHYS_STATE_UNKNOWN;
	if (sysfs_parse_u64(pname, &num) || num >= MAX_PORTS)
		return -EINVAL;
	p->num = (unsigned int)num;
	snprintf(where, sizeof(where), "%s/ports/%u", d->name, p->num);
	snprintf(path, sizeof(path), "ports/%s", pname);
	pfd = sysfs_open_dir(devfd, path);
	if (pfd < 0) {
		warn_once("%s: unreadable (%s)", where, strerror(-pfd));
		return 0;
	}
	collect_port_attrs(pfd, where, p);
	collect_pkeys(pfd, where, p);
	if (col->what & COLLECT_COUNTERS) {
		struct fab_port *old = col->old ? fab_host_find_port(col->old, d->name, p->num) : NULL;

		rc = collect_port_counters(pfd, where, p, old);
		p->sample_ns = p->first_sample_ns = util_now_ns();
	}
	if (!(col->what & COLLECT_COUNTERS))
		p->pending |= COLLECT_COUNTERS;
	if (!rc && (col->what & COLLECT_GIDS))
		rc = collect_gids(col, pfd, where, d->name, p);
	else if (!rc)
		rc = keep_gids(col, d, p);
	collect_roce_mode(col, d, p);
	close(pfd);
	return rc;
}

/* GUIDs read "0002:c903:0031:78f0" (kept as text); anything else is unknown. */
static void read_guid(int devfd, const char *where, const char *attr, char *buf, size_t size)
{
	uint64_t guid;

	if (!read_attr(devfd, where, attr, buf, size))
		return;
	/* util_parse_guid() takes other spellings too: the kernel's layout is checked here. */
	if (strlen(buf) != 19 || buf[4] != ':' || buf[9] != ':' || buf[14] != ':' ||
	    util_parse_guid(buf, &guid)) {
		warn_once("%s/%s: not a GUID: '%s'", where, attr, buf);
		buf[0] = '\0';
	}
}

static const char *const node_type_names[] = {
	[1] = "CA", [2] = "Switch", [3] = "Router", [4] = "RNIC", [5] = "usNIC",
	[6] = "usNIC UDP", [7] = "Unspecified",
};

static int collect_device(struct collector *col, const char *name, struct fab_device *d)
{
	char **ports;
	char buf[FAB_NAME_LEN];
	const char *text;
	int devfd, n, i, rc = 0;

	memset(d, 0, sizeof(*d));
	d->node_type_num = -1;
	snprintf(d->name, sizeof(d->name), "%s", name);
	util_clean(d->name);
	{
		char path[300];

		snprintf(path, sizeof(path), "class/infiniband/%s", name);
		devfd = sysfs_open_dir(col->rootfd, path);
	}
	if (devfd < 0) {
		/*
		 * A dangling link or a loop: the device vanished or the tree is
		 * odd. Said, and no device: 1 tells the caller to leave it out
		 * (watch.c skips such names the same way).
		 */
		warn_once("%s: unreadable (%s), not a device", d->name, strerror(-devfd));
		return 1;
	}
	if (read_attr(devfd, d->name, "node_type", buf, sizeof(buf))) {
		d->node_type_num = sysfs_parse_enum(buf, &text);
		if (d->node_type_num > 0 && (size_t)d->node_type_num < ARRAY_SIZE(node_type_names))
			snprintf(d->node_type, sizeof(d->node_type), "%s", node_type_names[d->node_type_num]);
		else
			snprintf(d->node_type, sizeof(d->node_type), "%s", text);
	}
	col->is_switch = d->node_type_num == 2;
	col->is_rnic = d->node_type_num == 4;
	read_guid(devfd, d->name, "node_guid", d->node_guid, sizeof(d->node_guid));
	read_guid(devfd, d->name, "sys_image_guid", d->sys_image_guid, sizeof(d->sys_image_guid));
	read_attr(devfd, d->name, "fw_ver", d->fw_ver, sizeof(d->fw_ver));
	read_attr(devfd, d->name, "hca_type", d->hca_type, sizeof(d->hca_type));
	read_attr(devfd, d->name, "board_id", d->board_id, sizeof(d->board_id));
	read_attr(devfd, d->name, "hw_rev", d->hw_rev, sizeof(d->hw_rev));
	read_attr(devfd, d->name, "node_desc", d->node_desc, sizeof(d->node_desc));
	if (sysfs_link_name(devfd, "device/driver", d->driver, sizeof(d->driver)) < 0)
		d->driver[0] = '\0';

	n = sysfs_list(devfd, "ports", &ports, MAX_PORTS + 16);
	if (n < 0 && n != -ENOENT)
		warn_once("%s/ports: unreadable (%s)", d->name, strerror(-n));
	if (n > 0) {
		d->ports = calloc((size_t)n, sizeof(*d->ports));
		if (!d->ports) {
			sysfs_names_free(ports, n);
			close(devfd);
			return -ENOMEM;
		}
		for (i = 0; i < n && !rc; i++) {
			rc = collect_port(col, devfd, d, ports[i], &d->ports[d->nports]);
			if (rc == -EINVAL) {
				warn_once("%s/ports/%s: not a port number, skipped", d->name, ports[i]);
				rc = 0;
				continue;
			}
			d->nports++;
		}
		sysfs_names_free(ports, n);
	}
	if (!rc && (col->what & COLLECT_NETDEVS))
		collect_netdevs(col, devfd, d);
	if (!rc && (col->what & COLLECT_PCI))
		rc = pci_collect_hca(col->rootfd, col->ctx->sysfs_root, name, &d->pci);
	close(devfd);
	return rc;
}

int collect_host(const struct fab_ctx *ctx, struct fab_host *h, unsigned int what)
{
	struct collector col = { .ctx = ctx, .netfd = -1, .what = what, .old = h->handover };
	char **names;
	int n, i, rc = 0;

	memset(h, 0, sizeof(*h));
	h->root = ctx->sysfs_root;
	sysfs_set_tree(!ctx->live_sysfs);
	if (gethostname(h->hostname, sizeof(h->hostname) - 1))
		h->hostname[0] = '\0';
	util_clean(h->hostname);	/* sethostname() takes any byte */
	col.rootfd = sysfs_open_dir(AT_FDCWD, ctx->sysfs_root);
	if (col.rootfd < 0) {
		h->sysfs_missing = true;
		return 0;
	}
	col.netfd = sysfs_open_dir(col.rootfd, "class/net");
	n = sysfs_list(col.rootfd, "class/infiniband", &names, MAX_DEVICES);
	if (n < 0) {
		h->sysfs_missing = true;
		n = 0;
	}
	if (n > 0) {
		h->devs = calloc((size_t)n, sizeof(*h->devs));
		if (!h->devs)
			rc = -ENOMEM;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = collect_device(&col, names[i], &h->devs[h->ndevs]);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		h->ndevs++;
	}
	if (n > 0)
		sysfs_names_free(names, n);
	if (!rc && (what & COLLECT_NETDEVS))
		collect_netdevs_reverse(&col, h->devs, h->ndevs);
	/* GPUs only where there are RDMA devices to place them against */
	if (!rc && (what & COLLECT_PCI) && h->ndevs)
		rc = pci_collect_gpus(col.rootfd, ctx->sysfs_root, &h->gpus, &h->ngpus);
	if (col.netfd >= 0)
		close(col.netfd);
	close(col.rootfd);
	if (rc)
		fab_host_free(h);
	return rc;
}

int collect_port_fill(const struct fab_ctx *ctx, struct fab_host *h, size_t dev, size_t port, unsigned int what,
		      uint64_t deadline_ns)
{
	struct collector col = { .ctx = ctx, .netfd = -1, .what = what };
	struct fab_device *d = &h->devs[dev];
	struct fab_port *p = &d->ports[port], np;
	char where[FAB_NAME_LEN + 32], path[300];
	bool netdevs = what & COLLECT_NETDEVS;
	int devfd, pfd, rc = 0;

	what &= p->pending & (COLLECT_COUNTERS | COLLECT_GIDS);
	p->pending &= ~what;
	if (!what)
		return 0;
	snprintf(where, sizeof(where), "%s/ports/%u", d->name, p->num);
	col.rootfd = sysfs_open_dir(AT_FDCWD, ctx->sysfs_root);
	if (col.rootfd < 0)
		return 0;	/* gone: the next structure check notices */
	snprintf(path, sizeof(path), "class/infiniband/%s", d->name);
	devfd = sysfs_open_dir(col.rootfd, path);
	snprintf(path, sizeof(path), "ports/%u", p->num);
	pfd = devfd < 0 ? devfd : sysfs_open_dir(devfd, path);
	if (pfd < 0)
		goto out;
	col.is_switch = d->node_type_num == 2;
	col.is_rnic = d->node_type_num == 4;
	if (what & COLLECT_COUNTERS) {
		rc = collect_port_counters(pfd, where, p, NULL);
		p->sample_ns = p->first_sample_ns = util_now_ns();
		p->prev_sample_ns = 0;
	}
	if (!rc && (what & COLLECT_GIDS)) {
		/*
		 * Read aside over as many steps as the deadline needs, then
		 * swapped in: until then (and after an allocation failure) the
		 * old table stays on show.
		 */
		memset(&np, 0, sizeof(np));
		np.num = p->num;
		np.link_layer = p->link_layer;
		np.active_mtu = p->active_mtu;
		np.max_mtu = p->max_mtu;
		np.gids = p->gids_next;
		np.ngids = p->ngids_next;
		col.netfd = sysfs_open_dir(col.rootfd, "class/net");
		rc = collect_gids_from(&col, pfd, where, d->name, &np, &p->gids_next_cap, &p->gids_next_at,
				       deadline_ns);
		if (rc == 1) {
			p->gids_next = np.gids;
			p->ngids_next = np.ngids;
			p->pending |= COLLECT_GIDS;
			rc = 0;
		} else if (!rc) {
			free(p->gids);
			p->gids = np.gids;
			p->ngids = np.ngids;
			p->gid_tbl_len = np.gid_tbl_len;
			p->active_mtu = np.active_mtu;
			p->max_mtu = np.max_mtu;
			fab_port_gids_next_drop(p, false);
			/* RoCE GIDs name the netdevs (VLANs, macvlans) traffic really uses. */
			if (netdevs)
				for (size_t k = 0; k < p->ngids; k++)
					netdev_add(&col, p, p->gids[k].netdev);
		} else {
			free(np.gids);
			fab_port_gids_next_drop(p, false);
			p->pending |= COLLECT_GIDS;
		}
		if (col.netfd >= 0)
			close(col.netfd);
	}
	close(pfd);
out:
	if (devfd >= 0)
		close(devfd);
	close(col.rootfd);
	return rc;
}

int collect_device_again(const struct fab_ctx *ctx, struct fab_host *h, size_t dev, unsigned int what,
			 struct fab_device *nd)
{
	struct collector col = { .ctx = ctx, .netfd = -1, .what = what, .old = h };
	int rc;

	memset(nd, 0, sizeof(*nd));
	sysfs_set_tree(!ctx->live_sysfs);
	col.rootfd = sysfs_open_dir(AT_FDCWD, ctx->sysfs_root);
	if (col.rootfd < 0)
		return 0;	/* an empty device: the next structure check collects the host */
	col.netfd = sysfs_open_dir(col.rootfd, "class/net");
	rc = collect_device(&col, h->devs[dev].name, nd);
	if (rc == 1)
		rc = 0;	/* gone since: an empty device until the next structure check collects the host */
	if (!rc && (what & COLLECT_NETDEVS))
		collect_netdevs_reverse(&col, nd, 1);
	if (col.netfd >= 0)
		close(col.netfd);
	close(col.rootfd);
	if (rc)
		fab_device_free(nd);
	return rc;
}

/*
 * A counter past the fd budget: root/class/infiniband/DEV/ports/N/DIR/NAME,
 * opened for a read. Kept open from then on when its fd is now within the
 * budget (after a rescan the old snapshot's descriptors are free again).
 */
static ssize_t reread_counter(const struct fab_host *h, const struct fab_device *d, const struct fab_port *p,
			      struct fab_counter *c, char *buf, size_t size)
{
	static const char *const dirs[] = {
		[COUNTER_SRC_COUNTERS] = "counters",
		[COUNTER_SRC_COUNTERS_EXT] = "counters_ext",
		[COUNTER_SRC_HW_COUNTERS] = "hw_counters",
	};
	char path[PATH_MAX];
	ssize_t len;
	int fd;

	if (counter_is_cm(c)) {
		/* the name is already "DIR/FILE" */
		if (!h->root || snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/%s", h->root, d->name,
					 p->num, c->name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
	} else if ((unsigned int)c->source >= ARRAY_SIZE(dirs) || !dirs[c->source] || !h->root ||
		   snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/%s/%s", h->root, d->name, p->num,
			    dirs[c->source], c->name) >= (int)sizeof(path)) {
		return -ENAMETOOLONG;
	}
	fd = sysfs_open_attr(AT_FDCWD, path);
	if (fd < 0)
		return fd;
	len = sysfs_pread_str(fd, buf, size);
	if (fd < counter_fd_budget()) {
		c->fd = fd;
		c->reopen = false;
	} else {
		close(fd);
	}
	return len;
}

void collect_counters_refresh(struct fab_host *h, uint64_t now_ns)
{
	char buf[64];

	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			struct fab_port *p = &h->devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				struct fab_counter *c = &p->counters[k];
				ssize_t len;

				if (c->fd >= 0)
					len = sysfs_pread_str(c->fd, buf, sizeof(buf));
				else if (c->reopen)
					len = reread_counter(h, &h->devs[i], p, c, buf, sizeof(buf));
				else
					continue;
				if (len < 0)
					buf[0] = '\0';	/* vanished device: unknown, not stale */
				collect_counter_text(c, buf);
			}
			p->prev_sample_ns = p->sample_ns;
			p->sample_ns = now_ns;
		}
	}
}
