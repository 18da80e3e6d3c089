// SPDX-License-Identifier: GPL-2.0-or-later
/* Container, pod and job names from cgroup paths, by the patterns doc/show.md documents. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "derive/cgroup.h"
#include "util.h"

/* A container id: exactly 64 lower-case hex digits. */
static bool is_id64(const char *s, size_t n)
{
	if (n != 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

/* "PREFIX<64 hex>SUFFIX" as the whole component: the id is copied to id. */
static bool wrapped_id(const char *c, size_t n, const char *prefix, const char *suffix, char *id, size_t size)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);

	if (n < pl + sl || strncmp(c, prefix, pl) || strncmp(c + n - sl, suffix, sl))
		return false;
	if (!is_id64(c + pl, n - pl - sl))
		return false;
	snprintf(id, size, "%.*s", (int)(n - pl - sl), c + pl);
	return true;
}

/* Container runtimes' scope names under systemd, and their cgroupfs parents. */
static const struct {
	const char *prefix, *suffix;
	enum res_unit_kind kind;
} scopes[] = {
	{ "docker-", ".scope", RES_UNIT_DOCKER },
	{ "libpod-", ".scope", RES_UNIT_PODMAN },
	{ "cri-containerd-", ".scope", RES_UNIT_CONTAINERD },
	{ "crio-", ".scope", RES_UNIT_CRIO },
};

static const struct {
	const char *parent;
	enum res_unit_kind kind;
} parents[] = {
	{ "docker", RES_UNIT_DOCKER },
	{ "libpod_parent", RES_UNIT_PODMAN },
};

/* A number after "job_" as the whole component. */
static bool job_component(const char *c, size_t n, char *id, size_t size)
{
	uint64_t v;
	char num[24];

	if (n < 5 || n - 4 >= sizeof(num) || strncmp(c, "job_", 4))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(n - 4), c + 4);
	if (util_parse_u64(num, 10, UINT32_MAX, &v))
		return false;
	snprintf(id, size, "%s", num);
	return true;
}

/*
 * The pod uid of a kubepods component: "pod<uid>" (cgroupfs) or
 * "kubepods[-<qos>]-pod<uid with _>.slice" (systemd), dashes restored.
 */
static bool pod_component(const char *c, size_t n, char *uid, size_t size)
{
	const char *p = NULL;
	size_t len, i;

	if (n > 3 && !strncmp(c, "pod", 3)) {
		p = c + 3;
		len = n - 3;
	} else if (n > 6 && !strncmp(c, "kubepods", 8) && !strncmp(c + n - 6, ".slice", 6)) {
		const char *end = c + n - 6, *q;

		for (q = c; q + 4 < end && strncmp(q, "-pod", 4); q++)
			;
		if (q + 4 >= end)
			return false;
		p = q + 4;
		len = (size_t)(end - p);
	} else {
		return false;
	}
	if (!len || len >= size || len > 64)
		return false;
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)p[i]) && p[i] != '-' && p[i] != '_')
			return false;
		uid[i] = p[i] == '_' ? '-' : p[i];
	}
	uid[i] = '\0';
	return true;
}

void cgroup_classify(const char *path, struct res_unit *u)
{
	const char *c = path, *prev = "";
	size_t prevlen = 0;
	bool kube = false, slurm = false;
	char pod[RES_ID_LEN] = "", uidc[RES_ID_LEN] = "";

	memset(u, 0, sizeof(*u));
	while (c && *c) {
		const char *slash;
		size_t n;

		while (*c == '/')
			c++;
		if (!*c)
			break;
		slash = strchr(c, '/');
		n = slash ? (size_t)(slash - c) : strlen(c);
		if (!strncmp(c, "kubepods", 8))
			kube = true;
		if ((n == 5 && !strncmp(c, "slurm", 5)) || (n == 17 && !strncmp(c, "slurmstepd.scope", 16)) ||
		    (n >= 10 && !strncmp(c, "slurmstepd", 10)))
			slurm = true;
		if (kube && !pod[0])
			pod_component(c, n, pod, sizeof(pod));
		if (slurm && n > 4 && !strncmp(c, "uid_", 4))
			snprintf(uidc, sizeof(uidc), "%.*s", (int)n, c);
		if (slurm && u->kind != RES_UNIT_SLURM_JOB && job_component(c, n, u->id, sizeof(u->id))) {
			u->kind = RES_UNIT_SLURM_JOB;
			snprintf(u->pod, sizeof(u->pod), "%s", uidc);
		}
		for (size_t i = 0; i < ARRAY_SIZE(scopes) && u->kind == RES_UNIT_NONE; i++)
			if (wrapped_id(c, n, scopes[i].prefix, scopes[i].suffix, u->id, sizeof(u->id)))
				u->kind = scopes[i].kind;
		for (size_t i = 0; i < ARRAY_SIZE(parents) && u->kind == RES_UNIT_NONE; i++)
			if (prevlen == strlen(parents[i].parent) && !strncmp(prev, parents[i].parent, prevlen) &&
			    wrapped_id(c, n, "", "", u->id, sizeof(u->id)))
				u->kind = parents[i].kind;
		/* Under kubepods a bare 64-hex component is the container (cgroupfs driver). */
		if (kube && u->kind == RES_UNIT_NONE && pod[0] && wrapped_id(c, n, "", "", u->id, sizeof(u->id)))
			u->kind = RES_UNIT_CONTAINERD;
		prev = c;
		prevlen = n;
		c = slash;
	}
	if (kube && pod[0] && u->kind != RES_UNIT_SLURM_JOB) {
		u->kind = RES_UNIT_K8S_POD;
		snprintf(u->pod, sizeof(u->pod), "%s", pod);
	}
}

/* The controllers field of a v1 line "ID:CONTROLLERS:PATH", and the path. */
static bool v1_fields(const char *line, size_t n, const char **ctl, size_t *ctl_len, const char **path, size_t *path_len)
{
	const char *c1 = memchr(line, ':', n), *c2;

	if (!c1)
		return false;
	c2 = memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
	if (!c2)
		return false;
	*ctl = c1 + 1;
	*ctl_len = (size_t)(c2 - c1 - 1);
	*path = c2 + 1;
	*path_len = n - (size_t)(c2 + 1 - line);
	return true;
}

bool cgroup_path_of(const char *text, char *path, size_t size)
{
	const char *line = text, *ctl, *p, *v1 = NULL;
	size_t ctl_len, plen, v1_len = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (v1_fields(line, n, &ctl, &ctl_len, &p, &plen)) {
			/* cgroup v2: "0::PATH", the one answer */
			if (ctl_len == 0 && n >= 3 && !strncmp(line, "0::", 3)) {
				snprintf(path, size, "%.*s", (int)plen, p);
				return true;
			}
			/* v1: systemd's named hierarchy or the cpu controller's, where runtimes put their scopes */
			if (!v1 && ((ctl_len >= 5 && !strncmp(ctl, "name=", 5)) || memmem(ctl, ctl_len, "cpu", 3))) {
				v1 = p;
				v1_len = plen;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!v1)
		return false;
	snprintf(path, size, "%.*s", (int)v1_len, v1);
	return true;
}
