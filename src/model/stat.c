// SPDX-License-Identifier: GPL-2.0-or-later
/* Releasing and naming the RDMA statistics model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/stat.h"
#include "util.h"

void stat_state_free(struct stat_state *st)
{
	for (size_t i = 0; i < st->nhw; i++)
		free(st->hw[i].c);
	for (size_t i = 0; i < st->nqpc; i++) {
		free(st->qpc[i].qpns);
		free(st->qpc[i].c);
	}
	free(st->hw);
	free(st->modes);
	free(st->qpc);
	memset(st, 0, sizeof(*st));
}

const char *stat_mode_name(uint32_t mode)
{
	static const char *const names[] = { "none", "auto", "manual" };

	return util_name(names, ARRAY_SIZE(names), (int64_t)mode, "unknown");
}

const struct stat_hwcounter *stat_port_hw_find(const struct stat_port_hw *hw, const char *name)
{
	for (size_t i = 0; i < hw->n; i++)
		if (!strcmp(hw->c[i].name, name))
			return &hw->c[i];
	return NULL;
}
