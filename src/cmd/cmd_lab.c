// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop lab up [NAME] | lab down: the real lab on this kernel (doc/lab.md, "The real lab"). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "change/lab.h"
#include "cmd/commands.h"
#include "util.h"

/* The labs `lab up NAME` builds; the first is the default. */
static const struct lab_name {
	const char *name;
	const char *what;
} lab_names[] = {
	{ "two-nics", "the two-NIC host of `fabtop --demo two-nics`, built for real with Soft-RoCE" },
};

static void lab_usage(FILE *f)
{
	fprintf(f, "usage: fabtop lab up [NAME] | fabtop lab down\n");
	for (size_t i = 0; i < ARRAY_SIZE(lab_names); i++)
		fprintf(f, "  %-10s %s%s\n", lab_names[i].name, lab_names[i].what, i ? "" : " (the default)");
	fprintf(f, "  root only (doc/lab.md); state in $FABTOP_LAB_STATE (default /run/fabtop/lab.state)\n");
}

static const struct lab_name *lab_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(lab_names); i++)
		if (!strcmp(name, lab_names[i].name))
			return &lab_names[i];
	return NULL;
}

int cmd_lab(struct fab_ctx *ctx, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	bool up = !strcmp(what, "up"), down = !strcmp(what, "down");

	(void)ctx;
	if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
		lab_usage(stdout);
		return EXIT_OK;
	}
	if (up && argc == 3 && !lab_find(argv[2])) {
		fprintf(stderr, "fabtop lab: no lab '%s'; the labs:", argv[2]);
		for (size_t i = 0; i < ARRAY_SIZE(lab_names); i++)
			fprintf(stderr, " %s", lab_names[i].name);
		fprintf(stderr, "\n");
		return EXIT_USAGE;
	}
	if ((!up && !down) || argc > 3 || (down && argc > 2)) {
		lab_usage(stderr);
		return EXIT_USAGE;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "fabtop lab: root only: it creates a network namespace, links, Soft-RoCE devices "
			"and routing rules (try sudo, or `fabtop --demo two-nics` without root)\n");
		return EXIT_RUNTIME;
	}
	if (up) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		/* the listener shows as fabtop in ps and rdma resource, not as "exe" */
		if (n <= 0 || (size_t)n >= sizeof(self) - 1)
			snprintf(self, sizeof(self), "/proc/self/exe");
		else
			self[n] = '\0';
		return lab_up(self, stdout, stderr) ? EXIT_RUNTIME : EXIT_OK;
	}
	return lab_down(stdout, stderr) ? EXIT_RUNTIME : EXIT_OK;
}
