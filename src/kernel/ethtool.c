// SPDX-License-Identifier: GPL-2.0-or-later
/* Read a netdev's ethtool statistics through SIOCETHTOOL: the count, the names, the values. */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/ethtool.h"
#include "kernel/ethtool_parse.h"

/* No driver reports this many; a larger count is a broken answer, not an allocation. */
#define ETHTOOL_MAX_STATS	65536

static int eth_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* How many ETH_SS_STATS strings the driver has (ETHTOOL_GSSET_INFO, else GDRVINFO). */
static int stats_count(int fd, const char *ifname, unsigned int *n)
{
	/* Room for the one count asked for after the header's flexible
	 * data[]: a union, since a struct ending in one cannot be a member
	 * followed by more (clang's -Wgnu-variable-sized-type-not-at-end). */
	union {
		struct ethtool_sset_info hdr;
		unsigned char room[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} sset;
	struct ethtool_drvinfo drv;
	int rc;

	memset(&sset, 0, sizeof(sset));
	sset.hdr.cmd = ETHTOOL_GSSET_INFO;
	sset.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	rc = eth_ioctl(fd, ifname, &sset);
	if (!rc) {
		*n = sset.hdr.sset_mask & (1ULL << ETH_SS_STATS) ? sset.hdr.data[0] : 0;
		return 0;
	}
	if (rc != -EOPNOTSUPP)
		return rc;
	memset(&drv, 0, sizeof(drv));
	drv.cmd = ETHTOOL_GDRVINFO;
	rc = eth_ioctl(fd, ifname, &drv);
	if (!rc)
		*n = drv.n_stats;
	return rc;
}

int ethtool_read(const char *ifname, struct roce_ethtool *out)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	unsigned int n = 0;
	size_t cap;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (!ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return out->err = -EINVAL;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return out->err = -errno;
	rc = stats_count(fd, ifname, &n);
	if (rc)
		goto out;
	if (!n) {
		rc = -EOPNOTSUPP;
		goto out;
	}
	if (n > ETHTOOL_MAX_STATS) {
		rc = -EBADMSG;
		goto out;
	}
	/*
	 * The kernel writes as many entries as the driver counts at the time
	 * of each call, whatever len says: room for a count that grew in
	 * between (channels added), and an answer of another count refused.
	 */
	cap = 2 * (size_t)n + 64;
	gs = calloc(1, sizeof(*gs) + cap * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + cap * sizeof(uint64_t));
	if (!gs || !st) {
		rc = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	rc = eth_ioctl(fd, ifname, gs);
	if (!rc)
		rc = eth_ioctl(fd, ifname, st);
	/* A driver whose count moved between the calls is not trusted this time. */
	if (!rc && (gs->len != n || st->n_stats != n))
		rc = -EBADMSG;
	if (!rc)
		rc = ethtool_stats_parse(gs->data, (size_t)n * ETH_GSTRING_LEN, st->data,
					 (size_t)n * sizeof(uint64_t), n, out);
out:
	free(gs);
	free(st);
	close(fd);
	out->err = rc;
	return rc;
}
