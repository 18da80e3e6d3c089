/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libmicrohttpd, opened when fabtop export starts its HTTP server instead of at every start. */
#ifndef FABTOP_EXPORT_LIBMICROHTTPD_H
#define FABTOP_EXPORT_LIBMICROHTTPD_H

#include <stddef.h>

/*
 * Open libmicrohttpd (once; a failure is remembered) so that the MHD_*
 * functions httpd.c calls reach it. 0, or -ELIBACC with err saying why.
 */
int libmicrohttpd_load(char *err, size_t errsize);

#endif
