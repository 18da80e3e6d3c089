/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libcurl, opened when the Cluster pane first asks its Prometheus instead of at every start. */
#ifndef FABTOP_REMOTE_LIBCURL_H
#define FABTOP_REMOTE_LIBCURL_H

#include <stddef.h>

/*
 * Open libcurl (once; a failure is remembered) so that the curl_*
 * functions prom.c calls reach it. 0, or -ELIBACC with err saying why.
 */
int libcurl_load(char *err, size_t errsize);

#endif
