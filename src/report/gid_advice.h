/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fabtop show gids --for: the GID index to use, in text and JSON. */
#ifndef FABTOP_REPORT_GID_ADVICE_H
#define FABTOP_REPORT_GID_ADVICE_H

#include <stdio.h>

#include "derive/gid_choice.h"
#include "report/json.h"

/* The choice for w: the index, the settings that carry it, the warnings. */
void gid_advice_text(FILE *f, const struct gid_want *w, const struct gid_choice *c);
/* The same as the members of a "gid_choice" object in the open object. */
void gid_advice_json(struct json *j, const struct gid_want *w, const struct gid_choice *c);

#endif
