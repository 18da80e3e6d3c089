// SPDX-License-Identifier: GPL-2.0-or-later
/* The run context's defaults: the live system, colours unless NO_COLOR. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"

void ctx_init(struct fab_ctx *ctx)
{
	const char *nc = getenv("NO_COLOR");

	memset(ctx, 0, sizeof(*ctx));
	ctx->sysfs_root = "/sys";
	ctx->proc_root = "/proc";
	ctx->configfs_root = "/sys/kernel/config";
	ctx->interval_s = 1.0;
	ctx->color = !(nc && *nc);
	ctx->seed = 1;
	ctx->live_sysfs = true;
}
