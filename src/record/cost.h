/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a decoded record holds in memory: the reader's whole-file budget adds these up. */
#ifndef FABTOP_RECORD_COST_H
#define FABTOP_RECORD_COST_H

#include <stddef.h>

#include "model/fabric.h"
#include "model/net.h"
#include "model/roce.h"
#include "record/mad.h"
#include "record/subnet.h"

/* Bytes of the arrays each owns (and its own struct), as the decoders allocated them. */
size_t rec_cost_host(const struct fab_host *h);
size_t rec_cost_net(const struct net_state *st);
size_t rec_cost_mad(const struct rec_mad *m);
size_t rec_cost_subnet(const struct rec_subnet *s);
size_t rec_cost_roce(const struct roce_state *st);

#endif
