// SPDX-License-Identifier: GPL-2.0-or-later
/* Libraries only some commands need, opened when first needed instead of at every start. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"

/*
 * Why not link them: libcurl and libmicrohttpd bring some thirty libraries
 * (TLS, HTTP/2, LDAP, Kerberos ...) that the dynamic loader maps and
 * relocates at every start, two thirds of a start's CPU, for the Cluster
 * pane and the exporter alone (doc/monitor.md has the figures).
 */
int dynlib_open(const char *soname, const char *who, const struct dynlib_sym *syms, size_t nsyms,
		char *err, size_t errsize)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	const char *why;

	if (!h) {
		why = dlerror();
		snprintf(err, errsize, "cannot load %s, which %s needs: %s", soname, who,
			 why ? why : "unknown error");
		return -ELIBACC;
	}
	for (size_t i = 0; i < nsyms; i++) {
		void *fn;

		dlerror();
		fn = dlsym(h, syms[i].name);
		if (!fn) {
			why = dlerror();
			snprintf(err, errsize, "%s has no %s (too old?), which %s needs: %s", soname,
				 syms[i].name, who, why ? why : "not found");
			dlclose(h);
			for (size_t j = 0; j < i; j++)
				memset(syms[j].addr, 0, sizeof(void *));
			return -ELIBACC;
		}
		/* A data pointer into a function pointer's bytes: what POSIX guarantees dlsym() for. */
		memcpy(syms[i].addr, &fn, sizeof(fn));
	}
	return 0;
}

/* pthread_once() passes nothing: the library being opened is handed over here, under the once. */
static __thread struct dynlib *opening;

static void open_once(void)
{
	struct dynlib *l = opening;

	l->rc = dynlib_open(l->soname, l->who, l->syms, l->nsyms, l->why, sizeof(l->why));
}

int dynlib_load(struct dynlib *l, char *err, size_t errsize)
{
	opening = l;
	pthread_once(&l->once, open_once);
	if (l->rc)
		snprintf(err, errsize, "%s", l->why);
	return l->rc;
}
