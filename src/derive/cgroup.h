/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a process's cgroup path says it runs in: a container, a Kubernetes pod, a Slurm job (doc/show.md). */
#ifndef FABTOP_DERIVE_CGROUP_H
#define FABTOP_DERIVE_CGROUP_H

#include "model/res.h"

/*
 * Classify a cgroup path ("/system.slice/docker-<64 hex>.scope",
 * "/kubepods.slice/.../cri-containerd-<hex>.scope", "/slurm/uid_0/job_42/...")
 * by the patterns doc/show.md lists; u->kind is RES_UNIT_NONE when none
 * matches. Pure: the path is only looked at.
 */
void cgroup_classify(const char *path, struct res_unit *u);

/*
 * The path of a /proc/PID/cgroup text: the unified hierarchy's ("0::PATH"),
 * else the first v1 line's with a name= or cpu controller. false when none.
 */
bool cgroup_path_of(const char *text, char *path, size_t size);

#endif
