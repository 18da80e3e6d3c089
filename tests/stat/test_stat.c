// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA netlink statistics without RDMA: STAT_GET answers built in the kernel's shapes, cut at every length, corrupted, with unknown attributes, through the parser and the reports. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "kernel/rdma_nl_parse.h"
#include "kernel/rdma_stat_parse.h"
#include "source/source.h"
#include "ctx.h"
#include "model/res.h"
#include "model/stat.h"
#include "report/json.h"
#include "report/stat.h"
#include "util.h"

#define BUF 8192
#define UNKNOWN_ATTR (RDMA_NLDEV_ATTR_MAX + 7)	/* an attribute newer than our header */

static struct nlmsghdr *msg_start(char *buf, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = rdma_nl_type(RDMA_NLDEV_CMD_STAT_GET);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = 1;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	return nlh;
}

/* One hw counter entry as rdma_nl_stat_hwcounter_entry() writes it (pad first when the kernel aligns). */
static void hwentry(struct nlmsghdr *nlh, const char *name, uint64_t v, bool pad)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	if (pad)
		mnl_attr_put(nlh, RDMA_NLDEV_ATTR_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	mnl_attr_nest_end(nlh, e);
}

/* A port's STAT_GET answer: rxe's counters, one optional counter only netlink has, an unknown attribute. */
static size_t port_hw_msg(char *buf)
{
	struct nlmsghdr *nlh = msg_start(buf, 0);
	struct nlattr *t;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, UNKNOWN_ATTR, 99);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	hwentry(nlh, "sent_pkts", 1234, false);
	hwentry(nlh, "rcvd_pkts", 1200, true);
	hwentry(nlh, "duplicate_request", 0, false);
	hwentry(nlh, "cc_rx_ce_pkts", UINT64_MAX - 1, false);
	mnl_attr_nest_end(nlh, t);
	return nlh->nlmsg_len;
}

static size_t mode_msg(char *buf, uint32_t mode)
{
	struct nlmsghdr *nlh = msg_start(buf, 0);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, mode);
	if (mode == RDMA_COUNTER_MODE_AUTO)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMA_COUNTER_MASK_QP_TYPE);
	return nlh->nlmsg_len;
}

/* A QP counter dump message as fill_res_counter_entry() writes it: two counters, then NLMSG_DONE. */
static size_t counters_msg(char *buf)
{
	struct nlmsghdr *nlh = msg_start(buf, NLM_F_MULTI), *done;
	struct nlattr *t, *e, *q, *qe, *h;

	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER);
	for (uint32_t id = 1; id <= 2; id++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, id == 1 ? 2 : 4);	/* RC, UD */
		mnl_attr_put_u32(nlh, UNKNOWN_ATTR, 7);
		q = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
		for (uint32_t n = 0; n < id; n++) {
			qe = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 16 + id * 10 + n);
			mnl_attr_nest_end(nlh, qe);
		}
		mnl_attr_nest_end(nlh, q);
		h = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
		hwentry(nlh, "rx_write_requests", 100 * id, false);
		hwentry(nlh, "rx_read_requests", 7, false);
		mnl_attr_nest_end(nlh, h);
		mnl_attr_nest_end(nlh, e);
	}
	mnl_attr_nest_end(nlh, t);
	done = mnl_nlmsg_put_header(buf + NLMSG_ALIGN(nlh->nlmsg_len));
	done->nlmsg_type = NLMSG_DONE;
	done->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(done, sizeof(int));
	return NLMSG_ALIGN(nlh->nlmsg_len) + done->nlmsg_len;
}

static size_t error_msg(char *buf, int err)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = err;
	return nlh->nlmsg_len;
}

static void test_port_hw(void)
{
	char buf[BUF];
	struct stat_state st = { 0 };
	size_t len = port_hw_msg(buf);
	int done = 0;
	const struct stat_hwcounter *c;

	ASSERT_EQ_INT(rdma_stat_parse_buf(buf, len, &st, &done), 0, "a port's STAT_GET answer parses");
	ASSERT_EQ_U64(st.nhw, 1, "one port's counters");
	ASSERT_EQ_STR(st.hw[0].dev, "rxe0", "its device");
	ASSERT_EQ_U64(st.hw[0].port, 1, "its port");
	ASSERT_EQ_U64(st.hw[0].n, 4, "every counter, the one after a pad attribute too");
	c = stat_port_hw_find(&st.hw[0], "rcvd_pkts");
	TAP_OK(c && c->value == 1200, "rcvd_pkts (after a pad attribute) is 1200");
	c = stat_port_hw_find(&st.hw[0], "cc_rx_ce_pkts");
	TAP_OK(c && c->value == UINT64_MAX - 1, "a 64-bit value whole (an optional counter sysfs does not have)");
	ASSERT_EQ_U64(st.bad, 0, "the unknown attribute is skipped, not counted bad");
	stat_state_free(&st);
}

static void test_mode_and_counters(void)
{
	char buf[BUF];
	struct stat_state st = { 0 };
	size_t len;
	int done = 0;

	len = mode_msg(buf, RDMA_COUNTER_MODE_AUTO);
	ASSERT_EQ_INT(rdma_stat_parse_buf(buf, len, &st, NULL), 0, "the QP mode answer parses");
	TAP_OK(st.nmodes == 1 && st.modes[0].mode == RDMA_COUNTER_MODE_AUTO && st.modes[0].has_mask &&
	       st.modes[0].mask == RDMA_COUNTER_MASK_QP_TYPE, "auto mode by QP type");
	ASSERT_EQ_STR(stat_mode_name(st.modes[0].mode), "auto", "named auto");
	ASSERT_EQ_STR(stat_mode_name(77), "unknown", "a mode beyond the table is unknown");
	len = counters_msg(buf);
	ASSERT_EQ_INT(rdma_stat_parse_buf(buf, len, &st, &done), 0, "the QP counter dump parses");
	ASSERT_EQ_INT(done, 1, "NLMSG_DONE ends it");
	ASSERT_EQ_U64(st.nqpc, 2, "two counters");
	TAP_OK(st.nqpc == 2 && st.qpc[0].id == 1 && st.qpc[0].nqpns == 1 && st.qpc[0].qpns[0] == 26 &&
	       st.qpc[0].has_qp_type && st.qpc[0].qp_type == 2, "counter 1: RC, QP 26");
	TAP_OK(st.nqpc == 2 && st.qpc[1].nqpns == 2 && st.qpc[1].qpns[1] == 37 && st.qpc[1].n == 2 &&
	       st.qpc[1].c[0].value == 200, "counter 2: QPs 36 and 37, rx_write_requests 200");

	/* the reports, with the resource tracker naming QP 26's holder */
	{
		struct res_state rs = { 0 };
		struct res_qp qp = { .lqpn = 26, .holder = { .pid = 4242 } };
		char *out = NULL;
		size_t outlen = 0;
		FILE *f = open_memstream(&out, &outlen);
		struct json j;
		struct out o;

		snprintf(qp.dev, sizeof(qp.dev), "rxe0");
		rs.qps = &qp;
		rs.nqps = 1;
		out_init_text(&o, f);
		stat_report_qp(&o, &st, &rs, NULL, 0);
		json_init(&j, f);
		json_obj_begin(&j);
		out_init_json(&o, &j);
		stat_report_qp(&o, &st, &rs, "rxe0", 1);
		json_obj_end(&j);
		json_end(&j);
		fclose(f);
		TAP_OK(out && strstr(out, "rxe0/1: QP counter mode auto (by QP type), 2 counters"), "text: the port's mode");
		TAP_OK(out && strstr(out, "QP 26") && strstr(out, "(pid 4242)"), "text: QP 26 held by pid 4242");
		TAP_OK(out && strstr(out, "are not bound to a counter"), "text: the caveat");
		TAP_OK(out && strstr(out, "\"lqpn\":26,\"pid\":4242"), "json: QP 26 and its pid");
		TAP_OK(out && strstr(out, "\"rx_write_requests\":200"), "json: values by name");
		free(out);
	}
	stat_state_free(&st);
}

static void diag_cut(size_t m, size_t l, int rc)
{
	printf("# message %zu cut to %zu bytes: rc %d\n", m, l, rc);
}

/* Cut at every length: a whole message or -EBADMSG, never a crash, never more than the whole gives. */
static void test_truncated(void)
{
	char buf[BUF], cut[BUF];
	size_t (*makers[])(char *) = { port_hw_msg, counters_msg };
	unsigned int wrong = 0, lens = 0;

	for (size_t m = 0; m < ARRAY_SIZE(makers); m++) {
		size_t len = makers[m](buf);

		for (size_t l = 0; l < len; l++) {
			struct stat_state st = { 0 };
			struct nlmsghdr *nlh = (struct nlmsghdr *)(void *)cut;
			int rc;

			/* the buffer cut short */
			memcpy(cut, buf, l);
			rc = rdma_stat_parse_buf(cut, l, &st, NULL);
			/* (a dump cut right after its first message, before NLMSG_DONE, is that message whole) */
			if (l && rc != -EBADMSG && !(rc == 0 && ((st.nhw == 1 && st.hw[0].n == 4) || st.nqpc == 2))) {
				diag_cut(m, l, rc);
				wrong++;
			}
			stat_state_free(&st);
			/* the message's own length cut short (a consistent header, attributes cut) */
			if (l < NLMSG_HDRLEN)
				continue;
			memcpy(cut, buf, len);
			nlh->nlmsg_len = (uint32_t)l;
			rc = rdma_stat_parse_msg(nlh, &st);
			if (rc != -EBADMSG && rc != 0)
				wrong++;
			if (st.nhw && st.hw[0].n > 4)
				wrong++;
			stat_state_free(&st);
			lens++;
		}
	}
	ASSERT_EQ_U64(wrong, 0, "cut at every length (buffer and message): malformed or whole, never more");
	TAP_OK(lens > 200, "many lengths tried");
}

static void test_corrupt(void)
{
	char buf[BUF];
	struct stat_state st = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *t, *e;
	int rc;

	/* a value of 4 bytes where the kernel puts u64, and a name without its NUL: those entries only are left out */
	nlh = msg_start(buf, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "short_value");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, 4, "abcd");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);
	mnl_attr_nest_end(nlh, e);
	hwentry(nlh, "good", 9, false);
	mnl_attr_nest_end(nlh, t);
	rc = rdma_stat_parse_buf(buf, nlh->nlmsg_len, &st, NULL);
	ASSERT_EQ_INT(rc, 0, "a message with bad entries parses");
	TAP_OK(st.nhw == 1 && st.hw[0].n == 1 && !strcmp(st.hw[0].c[0].name, "good"), "only the good entry is kept");
	ASSERT_EQ_U64(st.bad, 4, "four entries counted bad (short value, no NUL, no name, empty name)");
	stat_state_free(&st);

	/* a device index of the wrong size: the whole message is malformed */
	nlh = mnl_nlmsg_put_header(memset(buf, 0, BUF));
	nlh->nlmsg_type = rdma_nl_type(RDMA_NLDEV_CMD_STAT_GET);
	mnl_attr_put_u16(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	ASSERT_EQ_INT(rdma_stat_parse_msg(nlh, &st), -EBADMSG, "a 2-byte device index: -EBADMSG");
	/* no port, no counters: not an answer this parser knows */
	nlh = msg_start(buf, 0);
	ASSERT_EQ_INT(rdma_stat_parse_msg(nlh, &st), -EBADMSG, "a device and nothing else: -EBADMSG");
	/* another command's message */
	nlh->nlmsg_type = rdma_nl_type(RDMA_NLDEV_CMD_RES_QP_GET);
	ASSERT_EQ_INT(rdma_stat_parse_msg(nlh, &st), -ENOENT, "a resource message is not ours: -ENOENT");
	/* a counter entry without its id is left out, the dump goes on */
	nlh = msg_start(buf, NLM_F_MULTI);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, t);
	ASSERT_EQ_INT(rdma_stat_parse_msg(nlh, &st), 0, "a dump with a bad entry parses");
	TAP_OK(st.nqpc == 0 && st.bad == 1, "the entry without an id is left out and counted");
	stat_state_free(&st);
	/* the kernel's refusal */
	ASSERT_EQ_INT(rdma_stat_parse_buf(buf, error_msg(buf, -EPERM), &st, NULL), -EPERM, "NLMSG_ERROR -EPERM is returned");
	stat_state_free(&st);
}

/* Answers recorded on the real kernel (tests/data/rdma-stat/README) against iproute2's reading of them. */
static void test_recorded(const char *top)
{
	char path[4200], name[STAT_NAME_LEN + 1];
	struct stat_state st = { 0 };
	unsigned char *buf;
	unsigned long long v;
	unsigned int lines = 0, same = 0;
	size_t len = 0;
	int done = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/rdma-stat/port_hw.bin", top);
	buf = tap_slurp(path, &len);
	TAP_OK(buf != NULL, "recorded rxe0/1 STAT_GET answer read");
	if (!buf)
		return;
	ASSERT_EQ_INT(rdma_stat_parse_buf(buf, len, &st, NULL), 0, "the real answer parses");
	free(buf);
	TAP_OK(st.nhw == 1 && !strcmp(st.hw[0].dev, "rxe0") && st.hw[0].port == 1, "rxe0/1");
	snprintf(path, sizeof(path), "%s/tests/data/rdma-stat/port_hw.txt", top);
	f = fopen(path, "r");
	while (f && st.nhw && fscanf(f, "%64s %llu", name, &v) == 2) {
		const struct stat_hwcounter *c = stat_port_hw_find(&st.hw[0], name);

		lines++;
		if (c && c->value == v)
			same++;
		else
			printf("# %s: rdma says %llu, the parser %s\n", name, v, c ? "another value" : "nothing");
	}
	if (f)
		fclose(f);
	TAP_OK(lines >= 10 && same == lines && st.nhw && st.hw[0].n == lines,
	       "every counter and value as rdma statistic show link (%u of %u)", same, lines);
	stat_state_free(&st);

	snprintf(path, sizeof(path), "%s/tests/data/rdma-stat/mode.bin", top);
	buf = tap_slurp(path, &len);
	TAP_OK(buf && rdma_stat_parse_buf(buf, len, &st, NULL) == 0 && st.nmodes == 1 &&
	       st.modes[0].mode == RDMA_COUNTER_MODE_NONE, "the recorded QP mode: none (rdma: qp auto off)");
	free(buf);
	snprintf(path, sizeof(path), "%s/tests/data/rdma-stat/counters.bin", top);
	buf = tap_slurp(path, &len);
	TAP_OK(buf && rdma_stat_parse_buf(buf, len, &st, &done) == 0 && done == 1 && st.nqpc == 0,
	       "the recorded QP counter dump of rxe: NLMSG_DONE alone, no counter");
	free(buf);
	stat_state_free(&st);
}

/* The qp_counters op behind the recorder that source_open() puts around the live and demo sources. */
static void test_source_op(const char *top)
{
	struct fab_ctx ctx;
	struct source *src;
	struct fab_host h = { 0 };
	struct stat_state st = { 0 };
	char tree[4200];
	int rc;

	ctx_init(&ctx);
	snprintf(tree, sizeof(tree), "%s/tests/data/trees/roce", top);
	ctx.sysfs_root = tree;
	ctx.live_sysfs = false;
	src = source_open(&ctx);
	TAP_OK(src && source_collect(src, &h, 0) == 0, "the live source (recorded) on a tree");
	rc = src ? source_qp_counters(src, &h, &st) : -1;
	/* what the kernel here says does not matter: the op answers through the recorder */
	TAP_OK(rc == 0, "qp_counters is forwarded by the recorder (rc %d, %s)", rc, st.err ? st.why : "read");
	stat_state_free(&st);
	fab_host_free(&h);
	source_close(src);
	ctx.demo = true;
	src = source_open(&ctx);
	TAP_OK(src && source_collect(src, &h, 0) == 0, "the demo source (recorded)");
	ASSERT_EQ_INT(src ? source_qp_counters(src, &h, &st) : 0, -EOPNOTSUPP, "the demo has no QP counters");
	fab_host_free(&h);
	source_close(src);
}

/* Seeds for the fuzzer (tests/data/fuzz/rdma_stat): the messages above, written by `test_stat --seeds DIR`. */
static int write_seeds(const char *dir)
{
	struct {
		const char *name;
		size_t (*make)(char *);
	} seeds[] = { { "port_hw", port_hw_msg }, { "counters", counters_msg } };
	char buf[BUF], path[4200];

	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		size_t len = seeds[i].make(buf);
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len)
			return 1;
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s_cut", dir, seeds[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len / 2, f) != len / 2)
			return 1;
		fclose(f);
	}
	{
		size_t len = mode_msg(buf, RDMA_COUNTER_MODE_AUTO);
		FILE *f;

		snprintf(path, sizeof(path), "%s/mode_auto", dir);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len)
			return 1;
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2]);
	test_port_hw();
	test_mode_and_counters();
	test_truncated();
	test_corrupt();
	test_recorded(getenv("TOP_SRCDIR") ? getenv("TOP_SRCDIR") : ".");
	test_source_op(getenv("TOP_SRCDIR") ? getenv("TOP_SRCDIR") : ".");
	return tap_done();
}
