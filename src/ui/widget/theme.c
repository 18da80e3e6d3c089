// SPDX-License-Identifier: GPL-2.0-or-later
/* The colour theme: one table of roles, with attributes for mono terminals. */
#include "config.h"

#include "ui/widget/theme.h"

struct theme_def {
	short fg, bg;		/* -1: the terminal's default */
	chtype color_attr;	/* added to the pair when colours are on */
	chtype mono_attr;	/* used alone when they are off */
};

static const struct theme_def theme_defs[ROLE_COUNT] = {
	[ROLE_NORMAL]     = { -1, -1, 0, 0 },
	[ROLE_TITLE]      = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[ROLE_TAB]        = { COLOR_WHITE, COLOR_BLUE, 0, 0 },
	[ROLE_TAB_ACTIVE] = { COLOR_BLACK, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD },
	[ROLE_COL_HEADER] = { COLOR_BLACK, COLOR_GREEN, 0, A_UNDERLINE },
	[ROLE_COL_SORTED] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_UNDERLINE | A_BOLD },
	[ROLE_SELECTED]   = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[ROLE_OK]         = { COLOR_GREEN, -1, 0, 0 },
	[ROLE_WARN]       = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[ROLE_BAD]        = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_DIM]        = { COLOR_BLUE, -1, A_BOLD, A_DIM },
	[ROLE_FKEY]       = { COLOR_WHITE, -1, A_BOLD, A_BOLD },
	[ROLE_FLABEL]     = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[ROLE_GRAPH_IN]   = { COLOR_GREEN, -1, 0, 0 },
	[ROLE_GRAPH_OUT]  = { COLOR_MAGENTA, -1, 0, 0 },
	[ROLE_ERR_MOVING] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD | A_REVERSE },
	[ROLE_ERR_FADING] = { COLOR_RED, -1, 0, A_BOLD },
	[ROLE_STATUS]     = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[ROLE_BORDER]     = { COLOR_CYAN, -1, 0, 0 },
	[ROLE_HEADING]    = { COLOR_CYAN, -1, A_BOLD, A_BOLD | A_UNDERLINE },
};

static bool theme_color;

void theme_init(bool color)
{
	theme_color = false;
	if (!color || !has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	for (int i = 1; i < ROLE_COUNT && i < COLOR_PAIRS; i++)
		init_pair((short)i, theme_defs[i].fg, theme_defs[i].bg);
	theme_color = COLOR_PAIRS > ROLE_COUNT;
}

chtype theme_attr(int role)
{
	if (role <= 0 || role >= ROLE_COUNT)
		return A_NORMAL;
	if (!theme_color)
		return theme_defs[role].mono_attr;
	return COLOR_PAIR(role) | theme_defs[role].color_attr;
}
