// SPDX-License-Identifier: GPL-2.0-or-later
/* nl_sock against this kernel's rtnetlink: answers, errors, timeouts, a signal, and buffers that are not ours. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "kernel/nl_sock.h"

#define BUF 8192

/* How many buffers and link messages a request's answer brought. */
struct seen {
	int bufs;
	int links;
};

static int count_links(const struct nlmsghdr *nlh, void *arg)
{
	struct seen *sn = arg;

	sn->links += nlh->nlmsg_type == RTM_NEWLINK;
	return 0;
}

static int count_cb(const void *buf, size_t len, void *arg)
{
	struct seen *sn = arg;

	sn->bufs++;
	return nl_msgs_walk(buf, len, count_links, sn) < 0 ? -EBADMSG : 0;
}

/* The first buffer decides: a link message is the answer, an NLMSG_ERROR its error. */
static int link_answer(const void *buf, size_t len, void *arg)
{
	const struct nlmsghdr *m = buf;
	struct seen *sn = arg;
	bool ended = false;
	int rc = nl_msg_control(m, &ended);

	(void)len;
	sn->bufs++;
	if (rc != -ENOENT)
		return rc ? rc : NL_WALK_END;
	sn->links += m->nlmsg_type == RTM_NEWLINK;
	return NL_WALK_END;
}

/* RTM_GETLINK of one interface (not a dump): one answer without NLM_F_MULTI. */
static struct nlmsghdr *get_link(struct nl_sock *s, int ifindex)
{
	struct nlmsghdr *nlh = nl_sock_request(s, RTM_GETLINK, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

/* A message the kernel drops without a word: it is not a request. */
static struct nlmsghdr *unanswered(struct nl_sock *s)
{
	struct nlmsghdr *nlh = get_link(s, 1);

	nlh->nlmsg_flags = 0;
	return nlh;
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * Queue len bytes on s's socket from another one, as if the kernel had sent
 * them; false when this kernel refuses (sending to a port takes CAP_NET_ADMIN).
 */
static bool inject(const struct nl_sock *s, const void *data, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = s->portid };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	bool ok;

	if (fd < 0)
		return false;
	ok = sendto(fd, data, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len;
	close(fd);
	return ok;
}

/* A link message for s's port with sequence seq (nlmsg_len may lie). */
static void fake_msg(char *out, const struct nl_sock *s, unsigned int seq, uint32_t nlmsg_len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)out;

	memset(out, 0, NLMSG_SPACE(sizeof(struct ifinfomsg)));
	h->nlmsg_len = nlmsg_len;
	h->nlmsg_type = RTM_NEWLINK;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = s->portid;
}

static void test_answers(void)
{
	struct nl_sock s;
	struct seen sn = { 0 };
	bool intr = true;
	struct nlmsghdr *nlh;
	int rc;

	ASSERT_EQ_INT(nl_sock_open(&s, NETLINK_ROUTE, 2, BUF), 0, "a route socket opens and binds");
	nlh = nl_sock_request(&s, RTM_GETLINK, NLM_F_DUMP);
	((struct rtgenmsg *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct rtgenmsg)))->rtgen_family = AF_UNSPEC;
	rc = nl_sock_dump(&s, nlh, count_cb, &sn, &intr);
	ASSERT_EQ_INT(rc, 0, "a link dump ends (NLMSG_DONE)");
	ASSERT_CMP_INT(sn.links, >=, 1, "and brings the links (lo at least)");
	TAP_OK(!intr, "an undisturbed dump is not flagged interrupted");

	sn = (struct seen){ 0 };
	rc = nl_sock_dump(&s, get_link(&s, 1), count_cb, &sn, NULL);
	ASSERT_EQ_INT(rc, 0, "a request that is no dump ends at its one answer (no NLM_F_MULTI)");
	ASSERT_EQ_INT(sn.links, 1, "the answer is lo's link message");

	sn = (struct seen){ 0 };
	rc = nl_sock_ask(&s, get_link(&s, 0x7ffffff0), link_answer, &sn);
	ASSERT_EQ_INT(rc, -ENODEV, "the kernel's error comes back as its -errno");
	nl_sock_close(&s);
}

static void test_waits(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	struct nl_sock s;
	struct seen sn = { 0 };
	int rc;

	ASSERT_EQ_INT(nl_sock_open(&s, NETLINK_ROUTE, 1, BUF), 0, "a socket with a 1 s timeout opens");
	rc = nl_sock_ask(&s, unanswered(&s), link_answer, &sn);
	ASSERT_EQ_INT(rc, -ETIMEDOUT, "no answer within the timeout: -ETIMEDOUT");

	/* no SA_RESTART, and SO_RCVTIMEO would ignore it anyway: the wait sees EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	setitimer(ITIMER_REAL, &it, NULL);
	rc = nl_sock_ask(&s, unanswered(&s), link_answer, &sn);
	sigaction(SIGALRM, &old, NULL);
	ASSERT_EQ_INT(alarms, 1, "a signal came during the wait");
	ASSERT_EQ_INT(rc, -ETIMEDOUT, "and did not end it: still -ETIMEDOUT, not -EINTR");
	ASSERT_EQ_INT(sn.bufs, 0, "nothing was handed over");
	nl_sock_close(&s);
}

/* Buffers from another socket to ours: skipped when not ours or not whole, unless strict. */
static void test_strays(void)
{
	char msg[NLMSG_SPACE(sizeof(struct ifinfomsg))];
	struct nl_sock s;
	struct seen sn = { 0 };
	int rc;

	if (nl_sock_open(&s, NETLINK_ROUTE, 1, BUF)) {
		TAP_SKIP("no route socket");
		return;
	}
	fake_msg(msg, &s, s.seq + 1000, sizeof(msg));
	if (!inject(&s, msg, sizeof(msg))) {
		nl_sock_close(&s);
		TAP_SKIP("stray buffers: sending to another socket's port takes CAP_NET_ADMIN");
		return;
	}
	inject(&s, msg, sizeof(msg));
	inject(&s, msg, sizeof(msg));
	s.max_reads = 2;
	rc = nl_sock_ask(&s, get_link(&s, 1), link_answer, &sn);
	ASSERT_EQ_INT(rc, -ETIMEDOUT, "max_reads: three buffers of another request read, the bound of two gives up");
	nl_sock_close(&s);

	ASSERT_EQ_INT(nl_sock_open(&s, NETLINK_ROUTE, 1, BUF), 0, "a fresh socket");
	sn = (struct seen){ 0 };
	fake_msg(msg, &s, s.seq + 1000, sizeof(msg));
	inject(&s, msg, sizeof(msg));
	fake_msg(msg, &s, s.seq, sizeof(msg) + 64);	/* ours, but longer than what came */
	inject(&s, msg, sizeof(msg));
	rc = nl_sock_ask(&s, get_link(&s, 1), link_answer, &sn);
	ASSERT_EQ_INT(rc, 0, "another request's buffer and a cut one are skipped; the answer comes");
	ASSERT_EQ_INT(sn.bufs, 1, "only the answer was handed over");

	sn = (struct seen){ 0 };
	inject(&s, msg, 8);
	rc = nl_sock_ask(&s, get_link(&s, 1), link_answer, &sn);
	ASSERT_EQ_INT(rc, 0, "a buffer shorter than a header is skipped too");
	ASSERT_EQ_INT(sn.bufs, 1, "and not handed over");
	nl_sock_close(&s);

	ASSERT_EQ_INT(nl_sock_open(&s, NETLINK_ROUTE, 1, BUF), 0, "a strict socket");
	s.strict = true;
	fake_msg(msg, &s, s.seq + 1000, sizeof(msg) + 64);
	inject(&s, msg, sizeof(msg));
	rc = nl_sock_ask(&s, get_link(&s, 1), link_answer, &sn);
	ASSERT_EQ_INT(rc, -EBADMSG, "strict: a cut buffer fails the request");
	inject(&s, msg, 8);
	rc = nl_sock_ask(&s, get_link(&s, 1), link_answer, &sn);
	ASSERT_EQ_INT(rc, -EBADMSG, "strict: so does one shorter than a header");
	nl_sock_close(&s);
}

int main(void)
{
	struct nl_sock s;
	int rc = nl_sock_open(&s, NETLINK_ROUTE, 1, BUF);

	if (rc) {
		printf("1..0 # SKIP no rtnetlink socket here: %s\n", strerror(-rc));
		return 0;
	}
	nl_sock_close(&s);
	test_answers();
	test_waits();
	test_strays();
	return tap_done();
}
