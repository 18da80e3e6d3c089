// SPDX-License-Identifier: GPL-2.0-or-later
/* The RoCE lossless chain of one netdev: lookups over the collected DCB state. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "model/roce.h"

int roce_dcb_dscp_prio(const struct roce_dcb *d, unsigned int dscp)
{
	for (unsigned int i = 0; i < d->napps && i < ROCE_MAX_APPS; i++)
		if (d->apps[i].selector == ROCE_APP_SEL_DSCP && d->apps[i].protocol == dscp)
			return d->apps[i].priority & 7;
	return -1;
}

void roce_state_free(struct roce_state *st)
{
	free(st->ports);
	st->ports = NULL;
	st->nports = 0;
}

const char *roce_dcb_err_str(int err)
{
	switch (err) {
	case 0:
		return "answered";
	case -EOPNOTSUPP:
		return "the netdev's driver has no DCB support (no PFC, ETS or APP table to read)";
	case -ENODEV:
		return "no such netdev in this network namespace";
	case -EPERM:
	case -EACCES:
		return "not permitted";
	case -ENODATA:
		return "the kernel acknowledged but sent no DCB data";
	case -ENOENT:
		return "no recorded answer for this netdev";
	case -ETIMEDOUT:
		return "no answer within a second";
	case -EBADMSG:
		return "the answer was malformed";
	default:
		return "the request failed";
	}
}
