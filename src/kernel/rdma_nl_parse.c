// SPDX-License-Identifier: GPL-2.0-or-later
/* Parse nldev device and resource messages (QPs, cm_ids, CQs, MRs, PDs) into model/res.h, checked through libmnl. */
#include "config.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/nl_parse.h"
#include "kernel/rdma_nl_parse.h"
#include "util.h"

#ifndef AF_IB
#define AF_IB 27	/* struct sockaddr_ib (include/rdma/ib.h): cm_ids of the IB port space */
#endif

#define TB_MAX RDMA_NLDEV_ATTR_MAX

/*
 * The attributes we read and what each must be (uapi rdma_netlink.h gives
 * the types in comments). MNL_TYPE_UNSPEC: not ours, skipped. Addresses
 * are sockaddr_storage; their length is checked per family when read.
 */
static const enum mnl_attr_data_type policy[TB_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_QP] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_LQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_PID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_RES_CM_ID] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_PS] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR] = MNL_TYPE_BINARY,
	[RDMA_NLDEV_ATTR_RES_DST_ADDR] = MNL_TYPE_BINARY,
	[RDMA_NLDEV_ATTR_RES_CQ] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_MR] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_PD] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_PDN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_CQN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_MRN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = MNL_TYPE_U32,
	/* the statistics (kernel/rdma_stat_parse.c) */
	[RDMA_NLDEV_ATTR_STAT_MODE] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_RES] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_COUNTER] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = MNL_TYPE_U64,
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	struct rdma_nl_tb *tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	/* Attributes newer than our header, or not ours: skipped. */
	if (type >= TB_MAX || policy[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, policy[type]) < 0) {
		tb->bad = true;
		return MNL_CB_ERROR;
	}
	tb->a[type] = attr;
	return MNL_CB_OK;
}

/*
 * libmnl's walk stops quietly at an attribute that does not fit: check
 * first that [p, p+len) is whole attributes, so a truncated message is
 * called so instead of read as a shorter one.
 */
bool rdma_nl_parse_whole(const void *p, size_t len)
{
	size_t off = 0;

	while (len - off >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)(const void *)((const char *)p + off);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len - off)
			return false;
		off += NLA_ALIGN(a->nla_len);
		if (off >= len)
			return true;
	}
	return off == len;
}

int rdma_nl_parse_attrs(const struct nlmsghdr *nlh, struct rdma_nl_tb *tb)
{
	memset(tb, 0, sizeof(*tb));
	if (!rdma_nl_parse_whole(mnl_nlmsg_get_payload(nlh), mnl_nlmsg_get_payload_len(nlh)))
		return -EBADMSG;
	if (mnl_attr_parse(nlh, 0, attr_cb, tb) != MNL_CB_OK || tb->bad)
		return -EBADMSG;
	return 0;
}

int rdma_nl_parse_nest(const struct nlattr *nest, struct rdma_nl_tb *tb)
{
	memset(tb, 0, sizeof(*tb));
	if (!rdma_nl_parse_whole(mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest)))
		return -EBADMSG;
	if (mnl_attr_parse_nested(nest, attr_cb, tb) != MNL_CB_OK || tb->bad)
		return -EBADMSG;
	return 0;
}

uint16_t rdma_nl_type(int cmd)
{
	return (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
}

bool rdma_nl_is_nldev(const struct nlmsghdr *nlh)
{
	return RDMA_NL_GET_CLIENT(nlh->nlmsg_type) == RDMA_NL_NLDEV;
}

void rdma_nl_parse_str(const struct nlattr *a, char *buf, size_t size)
{
	size_t n = strnlen(mnl_attr_get_str(a), mnl_attr_get_payload_len(a));

	if (n >= size)
		n = size - 1;
	memcpy(buf, mnl_attr_get_str(a), n);
	buf[n] = '\0';
	util_clean(buf);
}

int rdma_nl_parse_dev(const struct nlmsghdr *nlh, uint32_t *index, char *name, size_t size)
{
	struct rdma_nl_tb tb;

	if (!rdma_nl_is_nldev(nlh))
		return -ENOENT;
	if (rdma_nl_parse_attrs(nlh, &tb) || !tb.a[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb.a[RDMA_NLDEV_ATTR_DEV_NAME])
		return -EBADMSG;
	*index = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_DEV_INDEX]);
	rdma_nl_parse_str(tb.a[RDMA_NLDEV_ATTR_DEV_NAME], name, size);
	return 0;
}

/* The owner: a kernel module's name, or a pid (absent: the task is gone or not in our PID namespace). */
void rdma_nl_parse_holder(const struct rdma_nl_tb *tb, struct res_holder *h)
{
	memset(h, 0, sizeof(*h));
	if (tb->a[RDMA_NLDEV_ATTR_RES_KERN_NAME]) {
		h->kern = true;
		rdma_nl_parse_str(tb->a[RDMA_NLDEV_ATTR_RES_KERN_NAME], h->kern_name, sizeof(h->kern_name));
	} else if (tb->a[RDMA_NLDEV_ATTR_RES_PID]) {
		h->pid = mnl_attr_get_u32(tb->a[RDMA_NLDEV_ATTR_RES_PID]);
	}
}

static bool get_u32(const struct rdma_nl_tb *tb, int type, uint32_t *out)
{
	if (!tb->a[type])
		return false;
	*out = mnl_attr_get_u32(tb->a[type]);
	return true;
}

static uint8_t get_u8(const struct rdma_nl_tb *tb, int type)
{
	return tb->a[type] ? mnl_attr_get_u8(tb->a[type]) : 0;
}

/* sockaddr_in, sockaddr_in6 or sockaddr_ib, as far as the attribute holds it. -EBADMSG when short. */
static int get_sockaddr(const struct nlattr *a, struct res_sockaddr *sa)
{
	const uint8_t *p = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a);
	uint16_t family, port;
	uint64_t sid;

	memset(sa, 0, sizeof(*sa));
	if (len < sizeof(family))
		return -EBADMSG;
	memcpy(&family, p, sizeof(family));
	switch (family) {
	case AF_INET:		/* family, port, 4-byte address */
		if (len < 8)
			return -EBADMSG;
		memcpy(&port, p + 2, 2);
		memcpy(sa->addr, p + 4, 4);
		sa->port = ntohs(port);
		break;
	case AF_INET6:		/* family, port, flowinfo, 16-byte address */
		if (len < 24)
			return -EBADMSG;
		memcpy(&port, p + 2, 2);
		memcpy(sa->addr, p + 8, 16);
		sa->port = ntohs(port);
		break;
	case AF_IB:		/* family, pkey, flowinfo, GID, service id: the port is its low 16 bits */
		if (len < 32)
			return -EBADMSG;
		memcpy(sa->addr, p + 8, 16);
		memcpy(&sid, p + 24, 8);
		sa->port = (uint16_t)(be64toh(sid) & 0xffff);
		break;
	default:		/* AF_UNSPEC (not resolved yet) or a family we do not show */
		family = 0;
		break;
	}
	sa->family = (uint8_t)family;
	return 0;
}

/* Grow an array by one zeroed element; NULL on allocation failure. */
static void *grow(void **arr, size_t *n, size_t elem)
{
	char *p;

	/* capacity doubles at powers of two from 16: 16, 32, 64, ... */
	if (*n >= 16 && (*n & (*n - 1)) == 0) {
		p = realloc(*arr, *n * 2 * elem);
		if (!p)
			return NULL;
		*arr = p;
	} else if (*n == 0) {
		p = realloc(*arr, 16 * elem);
		if (!p)
			return NULL;
		*arr = p;
	}
	p = (char *)*arr + *n * elem;
	memset(p, 0, elem);
	(*n)++;
	return p;
}

#define GROW(arr, n) grow((void **)&(arr), &(n), sizeof(*(arr)))

/* The device a resource message is about. */
struct dev_id {
	uint32_t index;
	char name[RES_NAME_LEN];
};

static int add_qp(const struct rdma_nl_tb *e, const struct dev_id *d, struct res_state *rs)
{
	struct res_qp *q;

	if (!e->a[RDMA_NLDEV_ATTR_RES_LQPN] || !e->a[RDMA_NLDEV_ATTR_RES_TYPE] || !e->a[RDMA_NLDEV_ATTR_RES_STATE])
		return -EBADMSG;
	if (!(q = GROW(rs->qps, rs->nqps)))
		return -ENOMEM;
	q->dev_index = d->index;
	memcpy(q->dev, d->name, sizeof(q->dev));
	get_u32(e, RDMA_NLDEV_ATTR_PORT_INDEX, &q->port);
	get_u32(e, RDMA_NLDEV_ATTR_RES_LQPN, &q->lqpn);
	q->has_rqpn = get_u32(e, RDMA_NLDEV_ATTR_RES_RQPN, &q->rqpn);
	q->has_rq_psn = get_u32(e, RDMA_NLDEV_ATTR_RES_RQ_PSN, &q->rq_psn);
	q->has_sq_psn = get_u32(e, RDMA_NLDEV_ATTR_RES_SQ_PSN, &q->sq_psn);
	q->has_pdn = get_u32(e, RDMA_NLDEV_ATTR_RES_PDN, &q->pdn);
	q->has_path_mig = e->a[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] != NULL;
	q->path_mig_state = get_u8(e, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE);
	q->type = get_u8(e, RDMA_NLDEV_ATTR_RES_TYPE);
	q->state = get_u8(e, RDMA_NLDEV_ATTR_RES_STATE);
	rdma_nl_parse_holder(e, &q->holder);
	return 0;
}

static int add_cm(const struct rdma_nl_tb *e, const struct dev_id *d, struct res_state *rs)
{
	struct res_sockaddr src = { 0 }, dst = { 0 };
	struct res_cm *c;

	if (!e->a[RDMA_NLDEV_ATTR_RES_STATE] || !e->a[RDMA_NLDEV_ATTR_RES_PS])
		return -EBADMSG;
	if (e->a[RDMA_NLDEV_ATTR_RES_SRC_ADDR] && get_sockaddr(e->a[RDMA_NLDEV_ATTR_RES_SRC_ADDR], &src))
		return -EBADMSG;
	if (e->a[RDMA_NLDEV_ATTR_RES_DST_ADDR] && get_sockaddr(e->a[RDMA_NLDEV_ATTR_RES_DST_ADDR], &dst))
		return -EBADMSG;
	if (!(c = GROW(rs->cms, rs->ncms)))
		return -ENOMEM;
	c->dev_index = d->index;
	memcpy(c->dev, d->name, sizeof(c->dev));
	get_u32(e, RDMA_NLDEV_ATTR_PORT_INDEX, &c->port);
	c->has_qp = get_u32(e, RDMA_NLDEV_ATTR_RES_LQPN, &c->lqpn);
	c->has_idn = get_u32(e, RDMA_NLDEV_ATTR_RES_CM_IDN, &c->cm_idn);
	get_u32(e, RDMA_NLDEV_ATTR_RES_PS, &c->ps);
	c->qp_type = get_u8(e, RDMA_NLDEV_ATTR_RES_TYPE);
	c->state = get_u8(e, RDMA_NLDEV_ATTR_RES_STATE);
	c->src = src;
	c->dst = dst;
	rdma_nl_parse_holder(e, &c->holder);
	return 0;
}

static int add_obj(const struct rdma_nl_tb *e, const struct dev_id *d, enum res_obj_kind kind, struct res_state *rs)
{
	static const int id_attr[RES_OBJ_KINDS] = {
		[RES_OBJ_CQ] = RDMA_NLDEV_ATTR_RES_CQN,
		[RES_OBJ_MR] = RDMA_NLDEV_ATTR_RES_MRN,
		[RES_OBJ_PD] = RDMA_NLDEV_ATTR_RES_PDN,
	};
	struct res_obj *o;

	if (!(o = GROW(rs->objs, rs->nobjs)))
		return -ENOMEM;
	o->dev_index = d->index;
	memcpy(o->dev, d->name, sizeof(o->dev));
	o->kind = kind;
	get_u32(e, id_attr[kind], &o->id);
	rdma_nl_parse_holder(e, &o->holder);
	return 0;
}

/* The resource tables: which attribute holds them, and what an entry becomes. */
static const struct res_table {
	int table, entry;
	int kind;		/* -1: QP, -2: cm_id, else enum res_obj_kind */
} tables[] = {
	{ RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY, -1 },
	{ RDMA_NLDEV_ATTR_RES_CM_ID, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, -2 },
	{ RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RES_OBJ_CQ },
	{ RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY, RES_OBJ_MR },
	{ RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY, RES_OBJ_PD },
};

static int add_entry(const struct res_table *t, const struct rdma_nl_tb *e, const struct dev_id *d,
		     struct res_state *rs)
{
	if (t->kind == -1)
		return add_qp(e, d, rs);
	if (t->kind == -2)
		return add_cm(e, d, rs);
	return add_obj(e, d, (enum res_obj_kind)t->kind, rs);
}

/* Every entry of one table; a bad entry is counted and left out, the others stay. */
static int parse_table(const struct res_table *t, const struct nlattr *table, const struct dev_id *d,
		       struct res_state *rs)
{
	const struct nlattr *entry;
	struct rdma_nl_tb e;
	int rc;

	if (!rdma_nl_parse_whole(mnl_attr_get_payload(table), mnl_attr_get_payload_len(table)))
		return -EBADMSG;
	mnl_attr_for_each_nested(entry, table) {
		if (mnl_attr_get_type(entry) != t->entry)
			continue;
		rc = rdma_nl_parse_nest(entry, &e);
		if (!rc)
			rc = add_entry(t, &e, d, rs);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			rs->bad++;
	}
	return 0;
}

int rdma_nl_parse_res(const struct nlmsghdr *nlh, struct res_state *rs)
{
	struct rdma_nl_tb tb;
	struct dev_id d = { 0 };
	bool any = false;
	int rc;

	if (!rdma_nl_is_nldev(nlh))
		return -ENOENT;
	if (rdma_nl_parse_attrs(nlh, &tb))
		return -EBADMSG;
	if (!tb.a[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb.a[RDMA_NLDEV_ATTR_DEV_NAME])
		return -EBADMSG;
	d.index = mnl_attr_get_u32(tb.a[RDMA_NLDEV_ATTR_DEV_INDEX]);
	rdma_nl_parse_str(tb.a[RDMA_NLDEV_ATTR_DEV_NAME], d.name, sizeof(d.name));
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		if (!tb.a[tables[i].table])
			continue;
		any = true;
		rc = parse_table(&tables[i], tb.a[tables[i].table], &d, rs);
		if (rc)
			return rc;
	}
	return any ? 0 : -ENOENT;
}

/* One message of a dump: a device (counted) or a resource. */
static int res_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct res_state *rs = arg;
	int rc;

	if (nlh->nlmsg_type == rdma_nl_type(RDMA_NLDEV_CMD_GET)) {
		uint32_t idx;
		char name[RES_NAME_LEN];

		if (rdma_nl_parse_dev(nlh, &idx, name, sizeof(name)))
			return -EBADMSG;
		rs->ndevs++;
		return 0;
	}
	/* A malformed resource is counted (a device is not: it holds none). */
	rc = rdma_nl_parse_res(nlh, rs);
	if (rc == -EBADMSG)
		rs->bad++;
	return rc;
}

int rdma_nl_parse_buf(const void *buf, size_t len, struct res_state *rs, int *done)
{
	return nl_dump_walk(buf, len, res_msg, rs, done);
}
