// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA resources without RDMA: recorded nldev dumps replayed against rdma's own JSON of the same moment, handmade malformed messages, cgroup patterns, a /proc fixture tree, the reports. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../unit/tap.h"
#include "rdma_json.h"
#include "kernel/proc_attr.h"
#include "kernel/rdma_nl_parse.h"
#include "derive/cgroup.h"
#include "model/res.h"
#include "report/res.h"
#include "util.h"

static char dir[4096];

static int replay(const char *name, struct res_state *rs, int *done)
{
	char path[4200];
	unsigned char *buf;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/tests/data/rdma-nl/%s.bin", dir, name);
	buf = tap_slurp(path, &len);
	if (!buf)
		return -ENOENT;
	rc = rdma_nl_parse_buf(buf, len, rs, done);
	free(buf);
	return rc;
}

static const struct res_qp *qp_by_lqpn(const struct res_state *rs, uint32_t lqpn)
{
	for (size_t i = 0; i < rs->nqps; i++)
		if (rs->qps[i].lqpn == lqpn)
			return &rs->qps[i];
	return NULL;
}

/* rdma res show qp -j, recorded with the dumps: every QP it lists, field by field. */
static void check_qps_against_rdma(const struct res_state *rs)
{
	char path[4200];
	struct rdma_json_qp *v = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/tests/data/rdma-nl/qp.json", dir);
	n = rdma_json_qps(path, &v);
	ASSERT_CMP_INT(n, >, 0, "rdma's qp.json loads");
	ASSERT_EQ_U64((uint64_t)n, rs->nqps, "as many QPs as rdma res show qp -j lists");
	for (int i = 0; i < n; i++) {
		const struct res_qp *q = qp_by_lqpn(rs, v[i].lqpn);

		ASSERT_NOT_NULL(q, "a QP rdma lists is parsed");
		if (!q)
			continue;
		ASSERT_EQ_STR(q->dev, v[i].ifname, "QP device");
		ASSERT_EQ_STR(res_qp_type_name(q->type), v[i].type, "QP type");
		ASSERT_EQ_STR(res_qp_state_name(q->state), v[i].state, "QP state");
		ASSERT_EQ_U64(q->port, v[i].port, "QP port");
		ASSERT_EQ_U64(q->holder.pid, v[i].has_pid ? v[i].pid : 0, "QP pid");
		ASSERT_EQ_INT(q->has_rqpn, v[i].has_rqpn, "remote QPN given exactly when rdma prints one");
		if (v[i].has_rqpn)
			ASSERT_EQ_U64(q->rqpn, v[i].rqpn, "remote QPN");
		if (q->holder.kern)
			ASSERT_CONTAINS(v[i].comm, q->holder.kern_name, "kernel holder named as rdma names it");
	}
	free(v);
}

static void test_recorded(void)
{
	static const char *const kinds[] = { "dev", "qp", "cm_id", "cq", "mr", "pd" };
	struct res_state rs;
	int done, rc;

	memset(&rs, 0, sizeof(rs));
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		done = 0;
		rc = replay(kinds[i], &rs, &done);
		ASSERT_EQ_INT(rc, 0, kinds[i]);
		ASSERT_EQ_INT(done, 1, "the dump ends with NLMSG_DONE");
	}
	ASSERT_EQ_U64(rs.ndevs, 1, "one device (rxe0)");
	ASSERT_EQ_U64(rs.bad, 0, "nothing malformed in a real dump");
	ASSERT_CMP_U64(rs.nqps, >=, 9, "QPs of rping pairs, the probe and the kernel's GSI QP");
	ASSERT_CMP_U64(rs.ncms, >=, 9, "cm_ids: a listener and both ends of every connection");
	check_qps_against_rdma(&rs);
	{
		size_t listen = 0, kern = 0;

		for (size_t i = 0; i < rs.ncms; i++)
			if (rs.cms[i].state == 8 && rs.cms[i].src.port == 7174 && rs.cms[i].src.family == AF_INET)
				listen++;
		for (size_t i = 0; i < rs.nqps; i++)
			if (rs.qps[i].holder.kern && !strcmp(rs.qps[i].holder.kern_name, "ib_core"))
				kern++;
		ASSERT_EQ_U64(listen, 1, "rping's listener on 7174");
		ASSERT_EQ_U64(kern, 1, "the GSI QP is the kernel's (ib_core)");
	}
	ASSERT_EQ_INT(res_procs_build(&rs), 0, "holders grouped");
	ASSERT_CMP_U64(rs.nprocs, >=, 5, "several holders");
	ASSERT_EQ_INT(rs.nprocs && rs.procs[rs.nprocs - 1].holder.kern, 1, "the kernel's holder sorts last");

	/* Every prefix of a real dump: never a crash, a cut message is malformed, never misread. */
	{
		char path[4200];
		unsigned char *buf;
		size_t len, worst = 0;

		snprintf(path, sizeof(path), "%s/tests/data/rdma-nl/cm_id.bin", dir);
		buf = tap_slurp(path, &len);
		ASSERT_NOT_NULL(buf, "cm_id.bin");
		for (size_t cut = 0; buf && cut < len; cut++) {
			struct res_state t;
			int d = 0;

			memset(&t, 0, sizeof(t));
			rc = rdma_nl_parse_buf(buf, cut, &t, &d);
			if (t.ncms > rs.ncms || (rc != 0 && rc != -EBADMSG))
				worst++;
			res_state_free(&t);
		}
		ASSERT_EQ_U64(worst, 0, "every truncation of cm_id.bin parses to at most the whole, or -EBADMSG");
		free(buf);
	}
	res_state_free(&rs);
}

/* A handmade nldev message: the device, then a table with entries that fill() writes. */
static struct nlmsghdr *msg_begin(char *buf, int cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = rdma_nl_type(cmd);
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	return nlh;
}

static void put_qp(struct nlmsghdr *nlh, uint32_t lqpn, uint32_t pid, bool bad_lqpn, bool unknown)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	if (bad_lqpn)
		mnl_attr_put_u16(nlh, RDMA_NLDEV_ATTR_RES_LQPN, (uint16_t)lqpn);	/* too short for a u32 */
	else
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, lqpn + 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);	/* RC */
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);	/* RTS */
	if (unknown) {
		mnl_attr_put_u64(nlh, 900, 7);			/* newer than any header */
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DRIVER_STRING, "x");	/* known, not ours */
	}
	if (pid)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, pid);
	else
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_ipoib");
	mnl_attr_nest_end(nlh, e);
}

static void test_handmade(void)
{
	char buf[8192];
	struct res_state rs;
	struct nlmsghdr *nlh;
	struct nlattr *t;

	memset(&rs, 0, sizeof(rs));
	nlh = msg_begin(buf, RDMA_NLDEV_CMD_RES_QP_GET);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
	put_qp(nlh, 100, 4242, false, true);
	put_qp(nlh, 101, 0, false, false);
	put_qp(nlh, 102, 4243, true, false);
	mnl_attr_nest_end(nlh, t);
	ASSERT_EQ_INT(rdma_nl_parse_res(nlh, &rs), 0, "a QP table with an unknown attribute and a bad entry");
	ASSERT_EQ_U64(rs.nqps, 2, "the good entries stay");
	ASSERT_EQ_U64(rs.bad, 1, "the entry with a 2-byte LQPN is left out and counted");
	ASSERT_EQ_U64(rs.qps[0].lqpn, 100, "first QP");
	ASSERT_EQ_STR(rs.qps[0].dev, "mlx5_0", "device name from the message");
	ASSERT_EQ_U64(rs.qps[0].holder.pid, 4242, "pid");
	ASSERT_EQ_INT(rs.qps[1].holder.kern, 1, "a kernel consumer");
	ASSERT_EQ_STR(rs.qps[1].holder.kern_name, "ib_ipoib", "its name");

	/* An attribute longer than the message: the whole message is malformed. */
	{
		struct res_state t2;
		struct nlattr *a = (struct nlattr *)((char *)nlh + NLMSG_HDRLEN);

		memset(&t2, 0, sizeof(t2));
		a->nla_len = (uint16_t)(nlh->nlmsg_len + 8);
		ASSERT_EQ_INT(rdma_nl_parse_res(nlh, &t2), -EBADMSG, "an attribute past the message's end");
		ASSERT_EQ_INT(rdma_nl_parse_buf(nlh, nlh->nlmsg_len, &t2, NULL), -EBADMSG, "the same in a buffer");
		ASSERT_EQ_U64(t2.nqps, 0, "nothing read from it");
		res_state_free(&t2);
	}

	/* cm_ids: IPv6 and AF_IB addresses, a short one. */
	{
		unsigned char sa6[128] = { 0 }, sib[128] = { 0 }, sshort[4] = { 0 };
		uint16_t fam = AF_INET6, port = htons(4791), ibfam = 27;
		uint64_t sid = htobe64(0x0000000001060000ull | 7174);

		memcpy(sa6, &fam, 2);
		memcpy(sa6 + 2, &port, 2);
		inet_pton(AF_INET6, "fe80::1", sa6 + 8);
		memcpy(sib, &ibfam, 2);
		memcpy(sib + 24, &sid, 8);
		memcpy(sshort, &fam, 2);
		res_state_free(&rs);
		nlh = msg_begin(buf, RDMA_NLDEV_CMD_RES_CM_ID_GET);
		t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID);
		for (int k = 0; k < 3; k++) {
			struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);

			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x0106);
			mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 8);
			mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, k == 2 ? sizeof(sshort) : 128,
				     k == 0 ? sa6 : k == 1 ? sib : sshort);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 55);
			mnl_attr_nest_end(nlh, e);
		}
		mnl_attr_nest_end(nlh, t);
		ASSERT_EQ_INT(rdma_nl_parse_res(nlh, &rs), 0, "cm_id table");
		ASSERT_EQ_U64(rs.ncms, 2, "IPv6 and AF_IB ids kept");
		ASSERT_EQ_U64(rs.bad, 1, "the 4-byte IPv6 address is left out");
		{
			char a[64];

			res_sockaddr_str(&rs.cms[0].src, a, sizeof(a));
			ASSERT_EQ_STR(a, "fe80::1", "IPv6 source");
			ASSERT_EQ_U64(rs.cms[0].src.port, 4791, "IPv6 port");
			ASSERT_EQ_U64(rs.cms[1].src.port, 7174, "AF_IB: the service id's port");
			ASSERT_EQ_STR(res_cm_state_name(rs.cms[0].state), "LISTEN", "state name");
			ASSERT_EQ_STR(res_ps_name(rs.cms[0].ps), "TCP", "port space");
		}
	}
	res_state_free(&rs);

	/* The kernel's refusal, and a message of another netlink client. */
	{
		struct nlmsgerr *e;

		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = NLMSG_ERROR;
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
		e->error = -EPERM;
		ASSERT_EQ_INT(rdma_nl_parse_buf(buf, nlh->nlmsg_len, &rs, NULL), -EPERM, "NLMSG_ERROR gives its errno");
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = (uint16_t)RDMA_NL_GET_TYPE(RDMA_NL_LS, 1);
		ASSERT_EQ_INT(rdma_nl_parse_res(nlh, &rs), -ENOENT, "not an nldev message");
		nlh = msg_begin(buf, RDMA_NLDEV_CMD_RES_QP_GET);
		ASSERT_EQ_INT(rdma_nl_parse_res(nlh, &rs), -ENOENT, "a device without a table");
	}
	res_state_free(&rs);
}

static void test_cgroups(void)
{
	static const struct {
		const char *path;
		enum res_unit_kind kind;
		const char *id, *pod;
	} cases[] = {
		{ "/system.slice/docker-3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708.scope",
		  RES_UNIT_DOCKER, "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708", "" },
		{ "/docker/3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
		  RES_UNIT_DOCKER, "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708", "" },
		{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff.scope/container",
		  RES_UNIT_PODMAN, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "" },
		{ "/system.slice/cri-containerd-aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899.scope",
		  RES_UNIT_CONTAINERD, "aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899", "" },
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1c2d3e4f_aaaa_bbbb_cccc_0123456789ab.slice/cri-containerd-aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899.scope",
		  RES_UNIT_K8S_POD, "aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899",
		  "1c2d3e4f-aaaa-bbbb-cccc-0123456789ab" },
		{ "/kubepods/besteffort/pod1c2d3e4f-aaaa-bbbb-cccc-0123456789ab/aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899",
		  RES_UNIT_K8S_POD, "aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899",
		  "1c2d3e4f-aaaa-bbbb-cccc-0123456789ab" },
		{ "/kubepods.slice/kubepods-pod1c2d3e4f_aaaa_bbbb_cccc_0123456789ab.slice/crio-aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899.scope",
		  RES_UNIT_K8S_POD, "aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899",
		  "1c2d3e4f-aaaa-bbbb-cccc-0123456789ab" },
		{ "/slurm/uid_0/job_42/step_0", RES_UNIT_SLURM_JOB, "42", "uid_0" },
		{ "/slurm/uid_1000/job_4711/step_batch/task_0", RES_UNIT_SLURM_JOB, "4711", "uid_1000" },
		{ "/system.slice/slurmstepd.scope/job_77/step_0/user/task_0", RES_UNIT_SLURM_JOB, "77", "" },
		{ "/system.slice/docker-3f2a.scope", RES_UNIT_NONE, "", "" },		/* not 64 hex */
		{ "/system.slice/docker-3F2A1B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F708.scope",
		  RES_UNIT_NONE, "", "" },
		{ "/user.slice/job_42", RES_UNIT_NONE, "", "" },			/* not under slurm */
		{ "/slurm/uid_0/job_x", RES_UNIT_NONE, "", "" },
		{ "/", RES_UNIT_NONE, "", "" },
		{ "", RES_UNIT_NONE, "", "" },
		{ "////", RES_UNIT_NONE, "", "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct res_unit u;

		cgroup_classify(cases[i].path, &u);
		ASSERT_EQ_STR(res_unit_kind_name(u.kind), res_unit_kind_name(cases[i].kind), cases[i].path);
		ASSERT_EQ_STR(u.id, cases[i].id, "its id");
		ASSERT_EQ_STR(u.pod, cases[i].pod, "its pod or user");
	}
	{
		char p[256];

		ASSERT_EQ_INT(cgroup_path_of("0::/a/b\n", p, sizeof(p)), 1, "v2 path");
		ASSERT_EQ_STR(p, "/a/b", "v2 path");
		ASSERT_EQ_INT(cgroup_path_of("12:cpuset:/x\n11:cpu,cpuacct:/y\n0::/z\n", p, sizeof(p)), 1, "hybrid");
		ASSERT_EQ_STR(p, "/z", "the unified path wins in a hybrid layout");
		ASSERT_EQ_INT(cgroup_path_of("5:memory:/m\n4:name=systemd:/s\n", p, sizeof(p)), 1, "v1");
		ASSERT_EQ_STR(p, "/s", "v1: systemd's named hierarchy");
		ASSERT_EQ_INT(cgroup_path_of("garbage", p, sizeof(p)), 0, "no path in garbage");
		ASSERT_EQ_INT(cgroup_path_of("", p, sizeof(p)), 0, "no path in nothing");
	}
}

static void test_proc_tree(void)
{
	char root[4200];
	struct res_state rs;
	static const uint32_t pids[] = { 4242, 4243, 77, 99, 31337 };
	char *text = NULL;
	size_t tlen = 0;
	FILE *f;

	snprintf(root, sizeof(root), "%s/tests/data/res/proc", dir);
	memset(&rs, 0, sizeof(rs));
	rs.ndevs = 1;
	rs.qps = calloc(ARRAY_SIZE(pids) + 1, sizeof(*rs.qps));
	for (size_t i = 0; i < ARRAY_SIZE(pids); i++) {
		rs.qps[i].holder.pid = pids[i];
		rs.qps[i].lqpn = 10 + (uint32_t)i;
		snprintf(rs.qps[i].dev, sizeof(rs.qps[i].dev), "mlx5_0");
	}
	rs.qps[ARRAY_SIZE(pids)].holder.kern = true;
	snprintf(rs.qps[ARRAY_SIZE(pids)].holder.kern_name, RES_COMM_LEN, "ib_ipoib");
	rs.nqps = ARRAY_SIZE(pids) + 1;
	ASSERT_EQ_INT(res_procs_build(&rs), 0, "holders");
	proc_attr_fill_all(root, &rs);
	ASSERT_EQ_U64(rs.nprocs, 6, "five pids and the kernel");
	/* sorted by pid: 77, 99, 4242, 4243, 31337, [ib_ipoib] */
	ASSERT_EQ_STR(rs.procs[0].comm, "ib_write_bw", "comm of 77");
	ASSERT_EQ_U64(rs.procs[0].uid, 4000000, "uid of 77");
	ASSERT_EQ_STR(rs.procs[0].user, "", "a uid without a name");
	ASSERT_EQ_INT(rs.procs[0].other_pidns, 1, "77 runs in a PID namespace below ours");
	ASSERT_EQ_U64(rs.procs[0].ns_pid, 1, "where it is pid 1");
	ASSERT_EQ_STR(res_unit_kind_name(rs.procs[0].unit.kind), "pod", "77 is in a Kubernetes pod");
	ASSERT_EQ_STR(rs.procs[1].unit.id, "4711", "99: Slurm job from a v1 hierarchy");
	ASSERT_EQ_STR(res_unit_kind_name(rs.procs[2].unit.kind), "docker", "4242 in a docker scope");
	ASSERT_EQ_U64(rs.procs[3].tgid, 4242, "4243 is a thread of 4242");
	ASSERT_EQ_INT(rs.procs[4].seen, 0, "31337 is not in the tree");
	ASSERT_EQ_INT(rs.procs[5].holder.kern, 1, "the kernel last");

	f = open_memstream(&text, &tlen);
	{
		struct out o;

		out_init_text(&o, f);
		res_report(&o, &rs, RES_PART_PROC);
	}
	fclose(f);
	ASSERT_CONTAINS(text, "pod 1c2d3e4f", "text: the pod");
	ASSERT_CONTAINS(text, "slurm job 4711", "text: the job");
	ASSERT_CONTAINS(text, "docker 3f2a1b4c5d6e", "text: the container, short");
	ASSERT_CONTAINS(text, "4242/4243", "text: the thread under its process");
	ASSERT_CONTAINS(text, "77(1)", "text: the pid inside its namespace");
	ASSERT_CONTAINS(text, "(not visible in /proc)", "text: a pid /proc does not show");
	ASSERT_CONTAINS(text, "[ib_ipoib]", "text: the kernel consumer");
	ASSERT_NOT_CONTAINS(text, "QPs:", "proc only");
	free(text);
	text = NULL;
	f = open_memstream(&text, &tlen);
	{
		struct json j;
		struct out o;

		json_init(&j, f);
		json_obj_begin(&j);
		out_init_json(&o, &j);
		res_report(&o, &rs, RES_PART_ALL);
		json_obj_end(&j);
		json_end(&j);
	}
	fclose(f);
	ASSERT_EQ_INT((int)rdma_json_res_array_len(text, "procs"), 6, "the JSON report parses: procs");
	ASSERT_EQ_INT((int)rdma_json_res_array_len(text, "qps"), 6, "qps");
	free(text);
	res_state_free(&rs);
}

/* A process may name itself anything (prctl PR_SET_NAME): an OSC 52 clipboard write, with ESC or as C1. */
static void test_proc_hostile_comm(void)
{
	char root[4200];
	struct res_proc p;

	snprintf(root, sizeof(root), "%s/tests/data/res/proc", dir);
	memset(&p, 0, sizeof(p));
	p.holder.pid = 5252;
	proc_attr_fill(root, &p);
	ASSERT_EQ_STR(p.comm, "?]52;c;eA==?", "comm with ESC ] 52 ... BEL: cleaned as it is read");
	memset(&p, 0, sizeof(p));
	p.holder.pid = 5253;
	proc_attr_fill(root, &p);
	ASSERT_EQ_STR(p.comm, "??52;c;eA==??", "comm with the C1 OSC and ST (U+009D, U+009C): cleaned");
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");

	snprintf(dir, sizeof(dir), "%s", top ? top : ".");
	test_recorded();
	test_handmade();
	test_cgroups();
	test_proc_tree();
	test_proc_hostile_comm();
	return tap_done();
}
