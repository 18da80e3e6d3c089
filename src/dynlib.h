/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Libraries only some commands need, opened when first needed instead of at every start. */
#ifndef FABTOP_DYNLIB_H
#define FABTOP_DYNLIB_H

#include <pthread.h>
#include <stddef.h>

#include "util.h"

/* One function to look up, and where its address goes (a function pointer's address). */
struct dynlib_sym {
	const char *name;
	void *addr;
};

/*
 * dlopen() the library by its soname and fill every entry of syms, all or
 * none: a missing function closes the library again. `who` says what needs
 * it, for the message. 0, or -ELIBACC with err saying which library, why,
 * and who needed it.
 */
int dynlib_open(const char *soname, const char *who, const struct dynlib_sym *syms, size_t nsyms,
		char *err, size_t errsize);

/*
 * One library of the program: opened at the first dynlib_load() (from any
 * thread), never again, its outcome kept for every later caller.
 */
struct dynlib {
	const char *soname;
	const char *who;
	const struct dynlib_sym *syms;
	size_t nsyms;
	pthread_once_t once;
	int rc;
	char why[384];
};
#define DYNLIB_INIT(soname_, who_, syms_) \
	{ .soname = (soname_), .who = (who_), .syms = (syms_), .nsyms = ARRAY_SIZE(syms_), .once = PTHREAD_ONCE_INIT }

/* 0, or -ELIBACC with err saying why (the same answer every time). */
int dynlib_load(struct dynlib *l, char *err, size_t errsize);

#endif
