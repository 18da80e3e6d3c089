/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing the exposition for node_exporter's textfile collector: whole or not at all. */
#ifndef FABTOP_EXPORT_TEXTFILE_H
#define FABTOP_EXPORT_TEXTFILE_H

#include <stddef.h>

/*
 * Replace path with len bytes of data atomically (a temporary file in the
 * same directory, then rename), so a collector reading at any moment sees
 * the previous file or this one, never a part. 0, or -errno with the reason
 * in err.
 */
int textfile_write(const char *path, const char *data, size_t len, char *err, size_t errsize);

#endif
