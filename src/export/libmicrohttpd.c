// SPDX-License-Identifier: GPL-2.0-or-later
/* libmicrohttpd, opened when fabtop export starts its HTTP server instead of at every start. */
#include "config.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "dynlib.h"
#include "export/libmicrohttpd.h"
#include "util.h"

/*
 * httpd.c calls libmicrohttpd by its documented names; the definitions
 * here stand in for the library's and call it through what dlsym()
 * found (doc/monitor.md says why). The executable does not export them,
 * so the library's own calls stay inside it. MHD's thread calls some of
 * them: they only read what libmicrohttpd_load() wrote before the server started.
 */
static struct {
	struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
					      MHD_AccessHandlerCallback, void *, va_list);
	void (*stop_daemon)(struct MHD_Daemon *);
	struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
	struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
							      MHD_ContentReaderFreeCallback);
	enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
	void (*destroy_response)(struct MHD_Response *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
	const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind, const char *);
	const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType,
								...);
} lib;

static const struct dynlib_sym syms[] = {
	{ "MHD_start_daemon_va", &lib.start_daemon_va },
	{ "MHD_stop_daemon", &lib.stop_daemon },
	{ "MHD_create_response_from_buffer", &lib.create_response_from_buffer },
	{ "MHD_create_response_from_callback", &lib.create_response_from_callback },
	{ "MHD_add_response_header", &lib.add_response_header },
	{ "MHD_destroy_response", &lib.destroy_response },
	{ "MHD_queue_response", &lib.queue_response },
	{ "MHD_lookup_connection_value", &lib.lookup_connection_value },
	{ "MHD_get_connection_info", &lib.get_connection_info },
};

static struct dynlib lib_so = DYNLIB_INIT(FABTOP_LIBMICROHTTPD_SONAME, "fabtop export's HTTP server", syms);

int libmicrohttpd_load(char *err, size_t errsize)
{
	return dynlib_load(&lib_so, err, errsize);
}

/* Its options are pairs of varying types: the library's own va_list entry reads them. */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
				    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	struct MHD_Daemon *d;
	va_list ap;

	if (!lib.start_daemon_va)
		return NULL;
	va_start(ap, dh_cls);
	d = lib.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}

void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
	if (lib.stop_daemon)
		lib.stop_daemon(daemon);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode)
{
	return lib.create_response_from_buffer ? lib.create_response_from_buffer(size, buffer, mode) : NULL;
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
						       void *crc_cls, MHD_ContentReaderFreeCallback crfc)
{
	return lib.create_response_from_callback ?
		lib.create_response_from_callback(size, block_size, crc, crc_cls, crfc) : NULL;
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content)
{
	return lib.add_response_header ? lib.add_response_header(response, header, content) : MHD_NO;
}

void MHD_destroy_response(struct MHD_Response *response)
{
	if (lib.destroy_response)
		lib.destroy_response(response);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
				   struct MHD_Response *response)
{
	return lib.queue_response ? lib.queue_response(connection, status_code, response) : MHD_NO;
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key)
{
	return lib.lookup_connection_value ? lib.lookup_connection_value(connection, kind, key) : NULL;
}

/* Only the kinds that take no further argument are asked for (the descriptor, the client's address). */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
							enum MHD_ConnectionInfoType info_type, ...)
{
	return lib.get_connection_info ? lib.get_connection_info(connection, info_type) : NULL;
}
