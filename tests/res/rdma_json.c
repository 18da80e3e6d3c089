// SPDX-License-Identifier: GPL-2.0-or-later
/* Read iproute2's rdma JSON and fabtop's own JSON report for the replay test, with jansson. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_json.h"

static void str_of(json_t *o, const char *key, char *buf, size_t size)
{
	const char *s = json_string_value(json_object_get(o, key));

	snprintf(buf, size, "%s", s ? s : "");
}

int rdma_json_qps(const char *path, struct rdma_json_qp **out)
{
	json_error_t err;
	json_t *arr = json_load_file(path, 0, &err), *o;
	struct rdma_json_qp *v;
	size_t i;

	if (!arr || !json_is_array(arr)) {
		json_decref(arr);
		return -1;
	}
	v = calloc(json_array_size(arr) + 1, sizeof(*v));
	if (!v) {
		json_decref(arr);
		return -1;
	}
	json_array_foreach(arr, i, o) {
		json_t *pid = json_object_get(o, "pid"), *rqpn = json_object_get(o, "rqpn");

		str_of(o, "ifname", v[i].ifname, sizeof(v[i].ifname));
		str_of(o, "type", v[i].type, sizeof(v[i].type));
		str_of(o, "state", v[i].state, sizeof(v[i].state));
		str_of(o, "comm", v[i].comm, sizeof(v[i].comm));
		v[i].lqpn = (uint32_t)json_integer_value(json_object_get(o, "lqpn"));
		v[i].port = (uint32_t)json_integer_value(json_object_get(o, "port"));
		v[i].has_pid = pid != NULL;
		v[i].pid = (uint32_t)json_integer_value(pid);
		v[i].has_rqpn = rqpn != NULL;
		v[i].rqpn = (uint32_t)json_integer_value(rqpn);
	}
	*out = v;
	i = json_array_size(arr);
	json_decref(arr);
	return (int)i;
}

long rdma_json_res_array_len(const char *text, const char *key)
{
	json_error_t err;
	json_t *doc = json_loads(text, 0, &err);
	json_t *a = doc ? json_object_get(json_object_get(doc, "res"), key) : NULL;
	long n = json_is_array(a) ? (long)json_array_size(a) : -1;

	json_decref(doc);
	return n;
}
