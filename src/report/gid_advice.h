/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fabtop show gids --for: the GID index to use, text or JSON from one walk. */
#ifndef FABTOP_REPORT_GID_ADVICE_H
#define FABTOP_REPORT_GID_ADVICE_H

#include <stdio.h>

#include "derive/gid_choice.h"
#include "derive/gid_route.h"
#include "report/out.h"

/*
 * The choice for w: the index, the settings that carry it, the warnings;
 * in JSON the "gid_choice" member of the open object. r: how an address
 * no GID carries was routed (NULL or GID_ROUTE_NONE: it was not).
 */
void gid_advice(struct out *o, const struct gid_want *w, const struct gid_choice *c, const struct gid_route *r);

#endif
