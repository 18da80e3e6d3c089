// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading /proc/PID (under the context's proc root) for the holders of RDMA resources. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/proc_attr.h"
#include "kernel/sysfs.h"
#include "derive/cgroup.h"
#include "util.h"

/* The value of "KEY:\t..." in a status text, NULL when absent. */
static const char *status_field(const char *status, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = status; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == ':')
			return l + kl + 1;
	return NULL;
}

/* The first number of a status field's value. */
static bool first_u32(const char *v, uint32_t *out)
{
	uint64_t x;

	if (util_num_u64(v, UTIL_NUM_BLANKS | UTIL_NUM_PREFIX, 10, UINT32_MAX, &x, NULL))
		return false;
	*out = (uint32_t)x;
	return true;
}

/* NSpid: pids from our namespace inward; more than one: a namespace below ours. */
static void ns_pid(const char *v, struct res_proc *p)
{
	unsigned int n = 0;
	uint32_t last = 0;

	while (v && *v && *v != '\n') {
		const char *end;
		uint64_t x;

		if (util_num_u64(v, UTIL_NUM_BLANKS | UTIL_NUM_PREFIX, 10, UINT32_MAX, &x, &end))
			break;
		last = (uint32_t)x;
		n++;
		v = end;
	}
	if (n) {
		p->ns_pid = last;
		p->other_pidns = n > 1;
	}
}

static void user_name(uint32_t uid, char *buf, size_t size)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	buf[0] = '\0';
	if (getpwuid_r((uid_t)uid, &pw, tmp, sizeof(tmp), &res) == 0 && res)
		snprintf(buf, size, "%s", res->pw_name);
	util_clean(buf);
}

void proc_attr_fill(const char *proc_root, struct res_proc *p)
{
	char dir[PATH_MAX], buf[SYSFS_ATTR_MAX];
	const char *v;
	int fd;

	if (p->holder.kern || !p->holder.pid)
		return;
	snprintf(dir, sizeof(dir), "%s/%u", proc_root, p->holder.pid);
	fd = sysfs_open_dir(AT_FDCWD, dir);
	if (fd < 0)
		return;
	if (sysfs_read_str(fd, "comm", buf, sizeof(buf)) >= 0) {
		p->seen = true;
		snprintf(p->comm, sizeof(p->comm), "%.*s", (int)sizeof(p->comm) - 1, buf);
		util_clean(p->comm);
	}
	if (sysfs_read_str(fd, "status", buf, sizeof(buf)) >= 0) {
		p->seen = true;
		if ((v = status_field(buf, "Uid")) && first_u32(v, &p->uid)) {
			p->has_uid = true;
			user_name(p->uid, p->user, sizeof(p->user));
		}
		if ((v = status_field(buf, "Tgid")))
			first_u32(v, &p->tgid);
		if ((v = status_field(buf, "NSpid")))
			ns_pid(v, p);
	}
	if (sysfs_read_str(fd, "cgroup", buf, sizeof(buf)) >= 0 && cgroup_path_of(buf, p->cgroup, sizeof(p->cgroup))) {
		util_clean(p->cgroup);
		cgroup_classify(p->cgroup, &p->unit);
	}
	close(fd);
}

void proc_attr_fill_all(const char *proc_root, struct res_state *rs)
{
	for (size_t i = 0; i < rs->nprocs; i++)
		proc_attr_fill(proc_root, &rs->procs[i]);
}
