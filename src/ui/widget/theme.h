/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Colour roles of the monitor and their attributes, with a monochrome fallback. */
#ifndef FABTOP_UI_WIDGET_THEME_H
#define FABTOP_UI_WIDGET_THEME_H

#include <curses.h>
#include <stdbool.h>

enum theme_role {
	ROLE_NORMAL = 0,
	ROLE_TITLE,		/* the summary header */
	ROLE_TAB,
	ROLE_TAB_ACTIVE,
	ROLE_COL_HEADER,
	ROLE_COL_SORTED,
	ROLE_SELECTED,
	ROLE_OK,		/* healthy: ACTIVE, LinkUp */
	ROLE_WARN,		/* attention: INIT, fading error, high load */
	ROLE_BAD,		/* broken: DOWN, moving errors, saturated */
	ROLE_DIM,		/* unknown, n/a, hints */
	ROLE_FKEY,		/* function bar key */
	ROLE_FLABEL,		/* function bar label */
	ROLE_GRAPH_IN,
	ROLE_GRAPH_OUT,
	ROLE_ERR_MOVING,	/* a row whose error counters moved this interval */
	ROLE_ERR_FADING,	/* ... moved recently */
	ROLE_STATUS,
	ROLE_BORDER,
	ROLE_HEADING,		/* section titles in overlays */
	ROLE_COUNT
};

/* Set up colour pairs when color is true and the terminal has colours. */
void theme_init(bool color);
/* The attribute of a role (colour pair and/or bold/reverse/underline). */
chtype theme_attr(int role);

#endif
