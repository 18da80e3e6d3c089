/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one set of sysfs/procfs/configfs read helpers; every call names its directory. */
#ifndef FABTOP_KERNEL_SYSFS_H
#define FABTOP_KERNEL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Attributes longer than this are treated as garbage (-EFBIG), not read whole. */
#define SYSFS_ATTR_MAX 4096

/*
 * Open a directory below dirfd (AT_FDCWD for an absolute path), following
 * symlinks as sysfs requires. Returns an O_PATH-free read fd or -errno.
 */
int sysfs_open_dir(int dirfd, const char *path);

/*
 * Open an attribute for repeated preads. Refuses anything but a regular
 * file (a FIFO in a hostile tree must not hang us). Returns fd or -errno.
 */
int sysfs_open_attr(int dirfd, const char *path);
/*
 * The root is a tree (--sysfs), not the kernel's /sys: attributes are then
 * opened only when they are regular files, and links leave neither the
 * tree's mount nor go through /proc (-EPERM for a device node or FIFO).
 */
void sysfs_set_tree(bool tree);

/*
 * Read an open attribute from offset 0 into buf, NUL-terminated, trailing
 * whitespace removed. Returns the length or -errno (-EFBIG when the value
 * does not fit in buf).
 */
ssize_t sysfs_pread_str(int fd, char *buf, size_t size);

/* Open, read and close an attribute: the one-shot form of the above. */
ssize_t sysfs_read_str(int dirfd, const char *path, char *buf, size_t size);

/*
 * Parse an unsigned decimal or 0x-prefixed hex number with optional
 * surrounding whitespace. 0 on success, -EINVAL on garbage or a sign,
 * -ERANGE past 2^64-1.
 */
int sysfs_parse_u64(const char *s, uint64_t *out);
int sysfs_read_u64(int dirfd, const char *path, uint64_t *out);

/*
 * Parse the leading number of "N: TEXT" values (port state, phys_state,
 * node_type). Returns the number or -1; *text points past "N: " or is the
 * whole string when there is no number.
 */
int sysfs_parse_enum(const char *s, const char **text);

/*
 * The entry names of a directory, sorted so numeric names come in numeric
 * order ("2" before "10"), without "." and "..". Returns the count or
 * -errno; free with sysfs_names_free(). At most max entries are returned.
 */
int sysfs_list(int dirfd, const char *path, char ***names, size_t max);
void sysfs_names_free(char **names, int n);

/* The target's last path component of a symlink, e.g. device/driver -> "mlx5_core". */
ssize_t sysfs_link_name(int dirfd, const char *path, char *buf, size_t size);

/* Does path below dirfd exist (following symlinks)? */
int sysfs_exists(int dirfd, const char *path);

#endif
