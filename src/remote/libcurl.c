// SPDX-License-Identifier: GPL-2.0-or-later
/* libcurl, opened when the Cluster pane first asks its Prometheus instead of at every start. */
#include "config.h"

/* The functions below are libcurl's own names: no type-checking macros over them. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "remote/libcurl.h"
#include "dynlib.h"
#include "util.h"

/*
 * prom.c calls libcurl by its documented names and keeps libcurl's
 * header and its type checks; the definitions here stand in for the
 * library's and call it through what dlsym() found. The executable does
 * not export them (nothing it links asks for them), so libcurl's own
 * calls stay inside libcurl.
 */
static struct {
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	char *(*easy_escape)(CURL *, const char *, int);
	const char *(*easy_strerror)(CURLcode);
	void (*free)(void *);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_cleanup)(CURLM *);
	CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
} lib;

static const struct dynlib_sym syms[] = {
	{ "curl_global_init", &lib.global_init },
	{ "curl_easy_init", &lib.easy_init },
	{ "curl_easy_cleanup", &lib.easy_cleanup },
	{ "curl_easy_setopt", &lib.easy_setopt },
	{ "curl_easy_getinfo", &lib.easy_getinfo },
	{ "curl_easy_escape", &lib.easy_escape },
	{ "curl_easy_strerror", &lib.easy_strerror },
	{ "curl_free", &lib.free },
	{ "curl_multi_init", &lib.multi_init },
	{ "curl_multi_cleanup", &lib.multi_cleanup },
	{ "curl_multi_setopt", &lib.multi_setopt },
	{ "curl_multi_add_handle", &lib.multi_add_handle },
	{ "curl_multi_remove_handle", &lib.multi_remove_handle },
	{ "curl_multi_info_read", &lib.multi_info_read },
	{ "curl_multi_socket_action", &lib.multi_socket_action },
};

static struct dynlib lib_so = DYNLIB_INIT(FABTOP_LIBCURL_SONAME, "the Cluster pane's Prometheus client", syms);

int libcurl_load(char *err, size_t errsize)
{
	return dynlib_load(&lib_so, err, errsize);
}

CURLcode curl_global_init(long flags)
{
	return lib.global_init ? lib.global_init(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init(void)
{
	return lib.easy_init ? lib.easy_init() : NULL;
}

void curl_easy_cleanup(CURL *curl)
{
	if (lib.easy_cleanup)
		lib.easy_cleanup(curl);
}

/*
 * An option's number says the type of its one argument (CURLOPTTYPE_*
 * ranges), as libcurl itself reads it: pass it on as that type.
 */
#define SETOPT_FORWARD(fn, handle, option, ap)							\
	((option) < CURLOPTTYPE_OBJECTPOINT ? (fn)((handle), (option), va_arg((ap), long)) :		\
	 (option) < CURLOPTTYPE_FUNCTIONPOINT ? (fn)((handle), (option), va_arg((ap), void *)) :	\
	 (option) < CURLOPTTYPE_OFF_T ? (fn)((handle), (option), va_arg((ap), void (*)(void))) :	\
	 (option) < CURLOPTTYPE_BLOB ? (fn)((handle), (option), va_arg((ap), curl_off_t)) :		\
	 (fn)((handle), (option), va_arg((ap), void *)))

CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...)
{
	va_list ap;
	CURLcode rc;

	if (!lib.easy_setopt)
		return CURLE_FAILED_INIT;
	va_start(ap, option);
	rc = SETOPT_FORWARD(lib.easy_setopt, curl, option, ap);
	va_end(ap);
	return rc;
}

/* Every CURLINFO_* takes a pointer to where its answer goes. */
CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...)
{
	va_list ap;
	CURLcode rc;

	if (!lib.easy_getinfo)
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	rc = lib.easy_getinfo(curl, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

char *curl_easy_escape(CURL *handle, const char *string, int length)
{
	return lib.easy_escape ? lib.easy_escape(handle, string, length) : NULL;
}

const char *curl_easy_strerror(CURLcode code)
{
	return lib.easy_strerror ? lib.easy_strerror(code) : "libcurl is not loaded";
}

void curl_free(void *p)
{
	if (lib.free)
		lib.free(p);
}

CURLM *curl_multi_init(void)
{
	return lib.multi_init ? lib.multi_init() : NULL;
}

CURLMcode curl_multi_cleanup(CURLM *multi)
{
	return lib.multi_cleanup ? lib.multi_cleanup(multi) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...)
{
	va_list ap;
	CURLMcode rc;

	if (!lib.multi_setopt)
		return CURLM_BAD_HANDLE;
	va_start(ap, option);
	rc = SETOPT_FORWARD(lib.multi_setopt, multi, option, ap);
	va_end(ap);
	return rc;
}

CURLMcode curl_multi_add_handle(CURLM *multi, CURL *curl)
{
	return lib.multi_add_handle ? lib.multi_add_handle(multi, curl) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *curl)
{
	return lib.multi_remove_handle ? lib.multi_remove_handle(multi, curl) : CURLM_BAD_HANDLE;
}

CURLMsg *curl_multi_info_read(CURLM *multi, int *msgs_in_queue)
{
	if (!lib.multi_info_read) {
		*msgs_in_queue = 0;
		return NULL;
	}
	return lib.multi_info_read(multi, msgs_in_queue);
}

CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t s, int ev_bitmask, int *running_handles)
{
	return lib.multi_socket_action ? lib.multi_socket_action(multi, s, ev_bitmask, running_handles) :
		CURLM_BAD_HANDLE;
}
