// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus answer parser and the cluster merge on recorded (tests/data/prom) and handmade answers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/prom.h"
#include "remote/prom_cluster.h"
#include "model/cluster.h"
#include "tap.h"

static char *slurp(const char *name, size_t *len)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/data/prom/%s", top ? top : ".", name);
	return tap_slurp(path, len);
}

/* Parse a recorded answer; the status, or -1 when the file is missing (a failed check says so). */
static int parse_file(const char *name, struct prom_vector *v, char *err, size_t errsize)
{
	size_t len = 0;
	char *buf = slurp(name, &len);
	int rc;

	if (!buf) {
		memset(v, 0, sizeof(*v));
		snprintf(err, errsize, "cannot read tests/data/prom/%s", name);
		return -1;
	}
	rc = (int)prom_parse(buf, len, v, err, errsize);
	free(buf);
	return rc;
}

static int parse_str(const char *s, struct prom_vector *v, char *err, size_t errsize)
{
	return (int)prom_parse(s, strlen(s), v, err, errsize);
}

static void test_vector(void)
{
	struct prom_vector v;
	char err[PROM_ERR_LEN];

	ASSERT_EQ_INT(parse_file("state.json", &v, err, sizeof(err)), PROM_OK, "state.json: a vector answer parses");
	ASSERT_EQ_U64(v.nsamples, 3, "three samples");
	if (v.nsamples == 3) {
		ASSERT_EQ_STR(prom_sample_label(&v.samples[0], "__name__"), "fabtop_port_state", "the metric name");
		ASSERT_EQ_STR(prom_sample_label(&v.samples[1], "instance"), "node1:9879", "the instance label");
		ASSERT_EQ_STR(prom_sample_label(&v.samples[2], "device"), "mlx5_1", "the device label");
		ASSERT_NULL(prom_sample_label(&v.samples[0], "nosuch"), "an absent label is NULL");
		ASSERT_NEAR(v.samples[1].value, 1, 0, "the value");
		ASSERT_NEAR(v.samples[0].ts_s, 1718000000.123, 1e-3, "the timestamp");
	}
	prom_vector_free(&v);

	ASSERT_EQ_INT(parse_file("empty.json", &v, err, sizeof(err)), PROM_OK, "an empty result parses");
	ASSERT_EQ_U64(v.nsamples, 0, "to no samples");
	prom_vector_free(&v);

	ASSERT_EQ_INT(parse_file("scalar.json", &v, err, sizeof(err)), PROM_OK, "a scalar answer parses");
	ASSERT_EQ_U64(v.nsamples, 1, "to one sample");
	if (v.nsamples == 1) {
		ASSERT_NEAR(v.samples[0].value, 42, 0, "its value");
		ASSERT_EQ_U64(v.samples[0].nlabels, 0, "without labels");
	}
	prom_vector_free(&v);

	ASSERT_EQ_INT(parse_file("warnings.json", &v, err, sizeof(err)), PROM_OK, "an answer with warnings parses");
	if (v.nsamples == 1)
		ASSERT_NEAR(v.samples[0].value, 1.8446744073709552e+19, 1e4, "a huge counter keeps its value");
	prom_vector_free(&v);
}

static void test_values(void)
{
	struct prom_vector v;
	char err[PROM_ERR_LEN];
	double d = 0;

	ASSERT_EQ_INT(parse_file("in.json", &v, err, sizeof(err)), PROM_OK, "in.json parses");
	if (v.nsamples == 3) {
		ASSERT_NEAR(v.samples[0].value, 8e9, 0, "a plain value");
		TAP_OK(isnan(v.samples[1].value), "\"NaN\" is NaN (got %g)", v.samples[1].value);
		TAP_OK(isinf(v.samples[2].value) && v.samples[2].value > 0, "\"+Inf\" is +Inf (got %g)",
		       v.samples[2].value);
	} else {
		ASSERT_EQ_U64(v.nsamples, 3, "in.json has three samples");
	}
	prom_vector_free(&v);

	ASSERT_EQ_INT(prom_parse_value("-Inf", &d), 0, "-Inf is a value");
	TAP_OK(isinf(d) && d < 0, "-Inf is -Inf (got %g)", d);
	ASSERT_EQ_INT(prom_parse_value("1e999", &d), 0, "1e999 is a value");
	TAP_OK(isinf(d), "1e999 is out of range: +Inf (got %g)", d);
	ASSERT_EQ_INT(prom_parse_value("-0.5e-3", &d), 0, "-0.5e-3 is a value");
	ASSERT_NEAR(d, -0.0005, 1e-12, "-0.5e-3");
	ASSERT_EQ_INT(prom_parse_value("0x10", &d), -1, "hex is not how Prometheus writes a value");
	ASSERT_EQ_INT(prom_parse_value("nan", &d), -1, "nor lower-case nan");
	ASSERT_EQ_INT(prom_parse_value(" 1", &d), -1, "nor a leading blank");
	ASSERT_EQ_INT(prom_parse_value("1 ", &d), -1, "nor a trailing one");
	ASSERT_EQ_INT(prom_parse_value("", &d), -1, "nor nothing");
	ASSERT_EQ_INT(prom_parse_value("infinity", &d), -1, "nor infinity");

	ASSERT_EQ_INT(parse_str("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
				"[{\"metric\":{},\"value\":[1,\"abc\"]}]}}", &v, err, sizeof(err)),
		      PROM_ERR_SHAPE, "a value that is not a number refuses the answer");
	ASSERT_EQ_STR(err, "sample 0: value \"abc\" is not a number", "and says which");
	prom_vector_free(&v);
	ASSERT_EQ_INT(parse_str("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
				"[{\"metric\":{},\"value\":[1e308,\"1\"]}]}}", &v, err, sizeof(err)),
		      PROM_OK, "a huge timestamp is still a number");
	prom_vector_free(&v);
	ASSERT_EQ_INT(parse_str("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
				"[{\"metric\":{},\"value\":[99999999999999999999999,\"1\"]}]}}", &v, err, sizeof(err)),
		      PROM_ERR_JSON, "an integer past 64 bits is refused by jansson");
	prom_vector_free(&v);
}

static void test_errors(void)
{
	struct prom_vector v;
	char err[PROM_ERR_LEN];
	static const struct {
		const char *json;
		int status;
		const char *why;
	} bad[] = {
		{ "", PROM_ERR_JSON, "nothing" },
		{ "null", PROM_ERR_JSON, "a bare null (jansson wants an object or array)" },
		{ "[]", PROM_ERR_SHAPE, "a list" },
		{ "{}", PROM_ERR_SHAPE, "no status" },
		{ "{\"status\":1}", PROM_ERR_SHAPE, "a status that is not a string" },
		{ "{\"status\":\"pending\"}", PROM_ERR_SHAPE, "an unknown status" },
		{ "{\"status\":\"success\"}", PROM_ERR_SHAPE, "no data" },
		{ "{\"status\":\"success\",\"data\":[]}", PROM_ERR_SHAPE, "data a list" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\"}}", PROM_ERR_SHAPE, "no result" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":{}}}", PROM_ERR_SHAPE,
		  "result an object" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1]}}", PROM_ERR_SHAPE,
		  "a sample that is a number" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":[],"
		  "\"value\":[1,\"1\"]}]}}", PROM_ERR_SHAPE, "metric a list" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":"
		  "{\"a\":1},\"value\":[1,\"1\"]}]}}", PROM_ERR_SHAPE, "a label value that is a number" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
		  "\"value\":[1,1]}]}}", PROM_ERR_SHAPE, "a value that is a number, not a string" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
		  "\"value\":[\"1\",\"1\"]}]}}", PROM_ERR_SHAPE, "a timestamp that is a string" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
		  "\"value\":[1]}]}}", PROM_ERR_SHAPE, "a value pair of one" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{}}]}}",
		  PROM_ERR_SHAPE, "no value" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}} x", PROM_ERR_JSON,
		  "trailing garbage" },
		{ "{\"status\":\"success\",\"status\":\"error\"}", PROM_ERR_JSON, "a duplicate key" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[1,\"x\"]}}",
		  PROM_ERR_SHAPE, "a string answer" },
	};

	ASSERT_EQ_INT(parse_file("error.json", &v, err, sizeof(err)), PROM_ERR_API, "\"status\":\"error\"");
	ASSERT_EQ_STR(err, "bad_data: invalid parameter \"query\": 1:19: parse error: unexpected \"}\"",
		      "Prometheus's errorType and error are kept");
	prom_vector_free(&v);
	ASSERT_EQ_INT(parse_str("{\"status\":\"error\"}", &v, err, sizeof(err)), PROM_ERR_API,
		      "an error without a message");
	ASSERT_EQ_STR(err, "(no message)", "says so");
	prom_vector_free(&v);
	ASSERT_EQ_INT(parse_file("truncated.json", &v, err, sizeof(err)), PROM_ERR_JSON, "truncated JSON");
	TAP_OK(!strncmp(err, "not a JSON answer", 17), "is not JSON (%s)", err);
	ASSERT_EQ_U64(v.nsamples, 0, "and leaves no samples");
	prom_vector_free(&v);
	ASSERT_EQ_INT(parse_file("matrix.json", &v, err, sizeof(err)), PROM_ERR_SHAPE, "a range answer");
	ASSERT_EQ_STR(err, "a matrix answer where an instant vector was expected", "says what it is");
	prom_vector_free(&v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ_INT(parse_str(bad[i].json, &v, err, sizeof(err)), bad[i].status, bad[i].why);
		ASSERT_EQ_U64(v.nsamples, 0, "  nothing kept of it");
		prom_vector_free(&v);
	}
	/* A buffer without a NUL: the parser reads len bytes only. */
	{
		const char json[] = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}XXXX";

		ASSERT_EQ_INT(prom_parse(json, sizeof(json) - 5, &v, err, sizeof(err)), PROM_OK,
			      "a length short of the buffer's end is respected");
		prom_vector_free(&v);
	}
	ASSERT_EQ_INT(prom_parse(NULL, 0, &v, err, sizeof(err)), PROM_ERR_JSON, "no buffer at all");
	prom_vector_free(&v);
}

static void test_quote(void)
{
	char buf[64];

	ASSERT_EQ_INT(prom_quote("a\"b\\c\nd", buf, sizeof(buf)), 0, "quote a label value");
	ASSERT_EQ_STR(buf, "a\\\"b\\\\c\\nd", "with \\\" \\\\ \\n escaped");
	ASSERT_EQ_INT(prom_quote("0123456789", buf, 10), -1, "a value that does not fit is refused");
	ASSERT_EQ_INT(prom_quote("\"\"\"\"", buf, 8), -1, "escapes count toward the size");
}

static void merge_file(struct cluster *c, enum prom_cluster_family f, const char *name)
{
	struct prom_vector v;
	char err[PROM_ERR_LEN];

	if (parse_file(name, &v, err, sizeof(err)) != PROM_OK)
		printf("# %s: %s\n", name, err);
	prom_cluster_merge(c, f, &v);
	prom_vector_free(&v);
}

static void test_merge(void)
{
	struct cluster c;
	const struct cluster_port *p;

	cluster_init(&c);
	merge_file(&c, PROM_CLUSTER_STATE, "state.json");
	merge_file(&c, PROM_CLUSTER_IN, "in.json");
	merge_file(&c, PROM_CLUSTER_PARTNER, "partner.json");
	merge_file(&c, PROM_CLUSTER_FINDINGS, "findings.json");
	merge_file(&c, PROM_CLUSTER_STATE, "missing-labels.json");
	prom_cluster_finish(&c);
	ASSERT_EQ_U64(c.nports, 4, "one row per instance x device x port (3 + node3's)");
	ASSERT_EQ_U64(c.nhosts, 3, "three hosts");
	ASSERT_EQ_U64(c.ignored, 2, "series without a device or an instance are counted, not rows");
	p = cluster_port_find(&c, "node1:9879", "mlx5_0", "2");
	ASSERT_NOT_NULL(p, "node1 mlx5_0/2 is found by name");
	if (p) {
		ASSERT_EQ_INT(p->state, PORT_STATE_DOWN, "its state");
		TAP_OK(isnan(p->in_bits_per_s), "NaN in is unknown (got %g)", p->in_bits_per_s);
		TAP_OK(isnan(p->rate_bytes_per_s), "no rate answer: unknown (got %g)", p->rate_bytes_per_s);
	}
	p = cluster_port_find(&c, "node1:9879", "mlx5_0", "1");
	if (p) {
		ASSERT_NEAR(p->in_bits_per_s, 8e9, 0, "node1 mlx5_0/1 in");
		ASSERT_EQ_STR(p->partner_desc, "leaf01 HCA-1", "its far end");
		ASSERT_EQ_STR(p->partner_port, "17", "its far port");
		ASSERT_EQ_INT(c.hosts[p->host].findings, 0, "a host without findings series has none");
	} else {
		TAP_OK(0, "node1 mlx5_0/1 is found");
	}
	p = cluster_port_find(&c, "node2:9879", "mlx5_1", "1");
	if (p) {
		TAP_OK(isnan(p->in_bits_per_s), "+Inf in is no rate at all (got %g)", p->in_bits_per_s);
		ASSERT_EQ_INT(c.hosts[p->host].findings, 3, "node2's findings");
	} else {
		TAP_OK(0, "node2 mlx5_1/1 is found");
	}
	ASSERT_NULL(cluster_port_find(&c, "node1:9879", "mlx5_0", "3"), "an unknown port is not found");
	cluster_free(&c);
}

/* Thousands of rows: the index grows and every port is found again. */
static void test_scale(void)
{
	struct cluster c;
	char inst[32], port[8];
	size_t found = 0;

	cluster_init(&c);
	for (int h = 0; h < 5000; h++)
		for (int p = 1; p <= 2; p++) {
			snprintf(inst, sizeof(inst), "node%05d:9879", h);
			snprintf(port, sizeof(port), "%d", p);
			cluster_port_get(&c, inst, "mlx5_0", port);
		}
	ASSERT_EQ_U64(c.nports, 10000, "10,000 ports added");
	ASSERT_EQ_U64(c.nhosts, 5000, "of 5,000 hosts");
	for (int h = 0; h < 5000; h++) {
		snprintf(inst, sizeof(inst), "node%05d:9879", h);
		found += cluster_port_find(&c, inst, "mlx5_0", "2") != NULL;
	}
	ASSERT_EQ_U64(found, 5000, "and found again");
	ASSERT_NULL(cluster_port_get(&c, "", "mlx5_0", "1"), "an empty instance is no row");
	{
		char big[CLUSTER_INSTANCE_LEN + 8];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		ASSERT_NULL(cluster_port_get(&c, big, "mlx5_0", "1"), "an instance too long is no row");

	}
	cluster_free(&c);
}

int main(void)
{
	test_vector();
	test_values();
	test_errors();
	test_quote();
	test_merge();
	test_scale();
	return tap_done();
}
