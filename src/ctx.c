// SPDX-License-Identifier: GPL-2.0-or-later
/* The run context's defaults: the live system, colours unless NO_COLOR. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "util.h"

void ctx_init(struct fab_ctx *ctx)
{
	const char *nc = getenv("NO_COLOR");

	memset(ctx, 0, sizeof(*ctx));
	ctx->sysfs_root = "/sys";
	ctx->proc_root = "/proc";
	ctx->configfs_root = "/sys/kernel/config";
	ctx->etc_root = "/etc";
	ctx->interval_s = 1.0;
	ctx->color = !(nc && *nc);
	ctx->seed = 1;
	ctx->live_sysfs = true;
	ctx->fabric_mem_mb = CTX_FABRIC_MEM_MB;
}

static const char *const counters_modes[] = {
	[COUNTERS_AUTO] = "auto",
	[COUNTERS_SYSFS] = "sysfs",
	[COUNTERS_PMA] = "pma",
	[COUNTERS_NETLINK] = "netlink",
};

int ctx_counters_mode(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(counters_modes); i++)
		if (!strcmp(name, counters_modes[i]))
			return (int)i;
	return -1;
}

const char *ctx_counters_mode_str(enum fab_counters_mode m)
{
	return (unsigned int)m < ARRAY_SIZE(counters_modes) ? counters_modes[m] : "?";
}
