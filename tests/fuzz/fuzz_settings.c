// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the monitor's settings file, whatever another program or user left in it. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ui/settings.h"
#include "warn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings s;
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fabtop-fuzz-settings.%ld", (long)getpid());
		warn_set_quiet(true);
		atexit(cleanup);
	}
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	settings_read(&s, path);
	return 0;
}
