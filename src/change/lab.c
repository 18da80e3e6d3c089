// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fabtop lab up|down: every object is written to the state file before it
 * is created, so `down` removes all of it even after `up` was killed. The
 * objects are made by ip(8) and rdma(8), run without a shell (doc/lab.md).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "change/lab.h"
#include "change/lab_state.h"
#include "util.h"

#define LAB_TABLE	"4791"	/* the peer's VRF */
#define LAB_UDP_TABLE	"4793"	/* what the peer sends: out by its NIC (build_routing) */
#define LAB_PEER	"172.16.34.10"
#define LAB_PORT	"7174"
#define UDP_L3MDEV	"/proc/sys/net/ipv4/udp_l3mdev_accept"

const char *lab_state_path(void)
{
	const char *p = getenv("FABTOP_LAB_STATE");

	return p && *p ? p : "/run/fabtop/lab.state";
}

/* Run argv (no shell); its stdout into out_buf when given. Returns its exit status, or -1. */
static int run_cmd(const char *const argv[], bool quiet, char *out_buf, size_t out_size)
{
	int pfd[2] = { -1, -1 }, st;
	pid_t pid;

	if (out_buf && pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int nul = open("/dev/null", O_RDWR);

		if (out_buf) {
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
		}
		else if (quiet)
			dup2(nul, 1);
		if (quiet)
			dup2(nul, 2);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (out_buf) {
		size_t got = 0;

		close(pfd[1]);
		/* read to the end, keeping what fits: a child never blocks on a full pipe */
		for (;;) {
			char chunk[512];
			ssize_t r = read(pfd[0], chunk, sizeof(chunk));
			size_t take;

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			take = (size_t)r < out_size - 1 - got ? (size_t)r : out_size - 1 - got;
			memcpy(out_buf + got, chunk, take);
			got += take;
		}
		out_buf[got] = '\0';
		close(pfd[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define RUN(quiet, ...) run_cmd((const char *const[]){ __VA_ARGS__, NULL }, quiet, NULL, 0)

/* Append one object's line to the state file and flush it to disk, before the object is made. */
static int record(int fd, const struct lab_obj *o)
{
	char line[96];
	size_t len;

	if (!lab_state_format(o, line, sizeof(line) - 1))
		return -1;
	len = strlen(line);
	line[len++] = '\n';
	return write(fd, line, len) == (ssize_t)len && fsync(fd) == 0 ? 0 : -1;
}

static int record_obj(int fd, enum lab_kind k, const char *name, unsigned long num)
{
	struct lab_obj o = { .kind = k, .num = num };

	snprintf(o.name, sizeof(o.name), "%s", name ? name : "");
	return record(fd, &o);
}

/* Is 172.16.0.0/16 (the lab's subnet) already on an interface here? Its name into who. */
static bool subnet_taken(char *who, size_t size)
{
	struct ifaddrs *ifa, *i;
	bool taken = false;

	if (getifaddrs(&ifa))
		return false;
	for (i = ifa; i && !taken; i = i->ifa_next) {
		const struct sockaddr_in *sa = (const struct sockaddr_in *)i->ifa_addr;

		if (sa && sa->sin_family == AF_INET && (ntohl(sa->sin_addr.s_addr) >> 16) == 0xac10) {
			snprintf(who, size, "%s", i->ifa_name);
			taken = true;
		}
	}
	freeifaddrs(ifa);
	return taken;
}

/*
 * Objects the lab would create, here already. `up` writes an object down
 * before it makes it and a failed `up` removes what is written down, so
 * one that was already there would be removed with the rest: each is
 * refused here instead, before anything is made, and named.
 */
static const char *const lab_links[] = { "fl-a", "fl-b", "fl-p", "fl-peer" };
static const char *const lab_rxes[] = { "fl_rxe_a", "fl_rxe_b", "fl_rxe_p" };

/* One object in the way, said under a heading the first time. */
static void in_the_way(FILE *err, int *found, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void in_the_way(FILE *err, int *found, const char *fmt, ...)
{
	va_list ap;

	if (!(*found)++)
		fprintf(err, "fabtop lab: already on this host, and the lab would create or route it:\n");
	fputs("  ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
}

/* Does the IPv4 prefix a/len overlap 172.16.0.0/16 (the default route, len 0, aside)? */
static bool covers_lab(const char *prefix)
{
	char buf[64], *slash;
	struct in_addr a;
	unsigned long len = 32;
	uint32_t mask, net = 0xac100000u;

	snprintf(buf, sizeof(buf), "%s", prefix);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		len = strtoul(slash + 1, NULL, 10);
	}
	if (!len || len > 32 || inet_pton(AF_INET, buf, &a) != 1)
		return false;
	/* two prefixes overlap when they agree on the shorter one's bits */
	len = len < 16 ? len : 16;
	mask = (uint32_t)(0xffffffffu << (32 - len));
	return (ntohl(a.s_addr) & mask) == (net & mask);
}

/* Every IPv4 route of every table that reaches into the lab's subnet, or lives in its tables. */
static int check_routes(FILE *err, int *found)
{
	static const char *const types[] = { "unicast", "local", "broadcast", "anycast", "multicast",
					     "blackhole", "unreachable", "prohibit", "throw", "nat" };
	char out[65536], *line, *save = NULL;

	if (run_cmd((const char *const[]){ "ip", "-4", "route", "show", "table", "all", NULL }, false, out,
		    sizeof(out)))
		return -1;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char first[64] = "", second[64] = "";
		const char *dst = first;

		if (sscanf(line, "%63s %63s", first, second) < 1)
			continue;
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(first, types[i]))
				dst = second;
		if (covers_lab(dst) || strstr(line, " table " LAB_TABLE) || strstr(line, " table " LAB_UDP_TABLE)) {
			in_the_way(err, found, "route %s", line);
		}
	}
	return 0;
}

/*
 * Before anything is made: none of the lab's links, Soft-RoCE devices,
 * its namespace or its two rules exists, and no route reaches into
 * 172.16.0.0/16 (a route there would take the lab's traffic, or the lab's
 * would be lost in it). Lists every one found; 0 when none, else -1.
 */
static int check_free(FILE *err)
{
	char path[300], rules[8192];
	int found = 0;

	for (size_t i = 0; i < sizeof(lab_links) / sizeof(lab_links[0]); i++)
		if (if_nametoindex(lab_links[i]))
			in_the_way(err, &found, "link %s", lab_links[i]);
	for (size_t i = 0; i < sizeof(lab_rxes) / sizeof(lab_rxes[0]); i++) {
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s", lab_rxes[i]);
		if (access(path, F_OK) == 0)
			in_the_way(err, &found, "rdma link %s", lab_rxes[i]);
	}
	if (access("/run/netns/fl-switch", F_OK) == 0)
		in_the_way(err, &found, "netns fl-switch");
	if (run_cmd((const char *const[]){ "ip", "rule", "list", "pref", "0", NULL }, false, rules, sizeof(rules)))
		return -1;
	if (strstr(rules, "l3mdev"))
		in_the_way(err, &found, "rule pref 0 l3mdev");
	if (strstr(rules, "from " LAB_PEER " "))
		in_the_way(err, &found, "rule pref 0 from " LAB_PEER);
	if (check_routes(err, &found))
		return -1;
	if (found)
		fprintf(err, "fabtop lab: nothing done: remove them, or use `fabtop --demo two-nics`\n");
	return found ? -1 : 0;
}

static int modules(FILE *err)
{
	static const char *const mods[] = { "rdma_rxe", "rdma_ucm", "vrf", "veth", "bridge" };

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char out[512] = "", *nl;
		int rc = run_cmd((const char *const[]){ "modprobe", mods[i], NULL }, false, out, sizeof(out));

		if (!rc)
			continue;
		nl = strchr(out, '\n');
		if (nl)
			*nl = '\0';
		if (!out[0])
			snprintf(out, sizeof(out), rc == 127 ? "modprobe not found" : "exit status %d", rc);
		if (!i)
			fprintf(err, "fabtop lab: rdma_rxe is not available (modprobe rdma_rxe failed: %s): "
				"try `fabtop --demo two-nics`\n", out);
		else
			fprintf(err, "fabtop lab: modprobe %s failed (%s): the lab needs it\n", mods[i], out);
		return -1;
	}
	return 0;
}

/* The switch: a bridge in the lab's namespace, one veth to each NIC; the peer's NIC in a VRF. */
static int build_wires(int fd)
{
	static const char *const nic[] = { "fl-a", "fl-b", "fl-p" };
	static const char *const sw[] = { "fl-sw-a", "fl-sw-b", "fl-sw-p" };

	if (record_obj(fd, LAB_NETNS, "fl-switch", 0) || RUN(false, "ip", "netns", "add", "fl-switch") ||
	    RUN(false, "ip", "-n", "fl-switch", "link", "add", "fl-br", "type", "bridge", "forward_delay", "0",
		"stp_state", "0") ||
	    RUN(false, "ip", "-n", "fl-switch", "link", "set", "fl-br", "up"))
		return -1;
	for (size_t i = 0; i < 3; i++)
		if (record_obj(fd, LAB_LINK, nic[i], 0) ||
		    RUN(false, "ip", "link", "add", nic[i], "type", "veth", "peer", "name", sw[i], "netns", "fl-switch") ||
		    RUN(false, "ip", "-n", "fl-switch", "link", "set", sw[i], "master", "fl-br", "up"))
			return -1;
	if (record_obj(fd, LAB_LINK, "fl-peer", 0) ||
	    RUN(false, "ip", "link", "add", "fl-peer", "type", "vrf", "table", LAB_TABLE) ||
	    RUN(false, "ip", "link", "set", "fl-p", "master", "fl-peer") ||
	    RUN(false, "ip", "link", "set", "fl-peer", "up") || RUN(false, "ip", "link", "set", "fl-a", "up") ||
	    RUN(false, "ip", "link", "set", "fl-b", "up") || RUN(false, "ip", "link", "set", "fl-p", "up"))
		return -1;
	/* the memory server: two NICs in one subnet, strict rp_filter (doc/doctor.md, finding 1) */
	if (RUN(false, "ip", "addr", "add", "172.16.34.1/16", "dev", "fl-a") ||
	    RUN(false, "ip", "addr", "add", "172.16.34.2/16", "dev", "fl-b") ||
	    RUN(false, "sysctl", "-q", "-w", "net.ipv4.conf.fl-a.rp_filter=1", "net.ipv4.conf.fl-b.rp_filter=1"))
		return -1;
	/* the peer: its address on the VRF device, whose rxe receives what its slave fl-p gets */
	return RUN(false, "ip", "addr", "add", LAB_PEER "/32", "dev", "fl-peer") ||
	       RUN(false, "ip", "route", "add", "172.16.0.0/16", "dev", "fl-peer", "table", LAB_TABLE) ||
	       RUN(false, "ip", "route", "add", "172.16.0.0/16", "dev", "fl-p", "table", LAB_UDP_TABLE) ? -1 : 0;
}

static int read_sysctl(const char *path, unsigned long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%lu", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int write_sysctl(const char *path, unsigned long v)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fprintf(f, "%lu\n", v) > 0;
	return fclose(f) == 0 && rc ? 0 : -1;
}

/*
 * The routing that keeps the peer's traffic on the wires (doc/lab.md):
 * - udp_l3mdev_accept: the rxe socket, bound to no device, takes what
 *   arrives through the VRF;
 * - what the peer sends from its address (its RoCE packets, and the RDMA
 *   CM's look-up of the next hop's MAC) looks in a table whose one route
 *   leaves by fl-p, its wire (iif lo: sent from this host, not the RDMA
 *   CM's raw check below);
 * - the l3mdev rule ahead of the local table: else the memory server's
 *   addresses are local to the peer and its packets never leave. The VRF's
 *   table routes the subnet by the VRF device itself, which is what the RDMA
 *   CM's check of a request (validate_ipv4_net_dev(): the way back to the
 *   client must leave by the GID's net device) wants to see.
 */
static int build_routing(int fd)
{
	unsigned long old;

	if (read_sysctl(UDP_L3MDEV, &old) || record_obj(fd, LAB_SYSCTL, NULL, old) || write_sysctl(UDP_L3MDEV, 1))
		return -1;
	if (record_obj(fd, LAB_RULE_UDP, NULL, 0) ||
	    RUN(false, "ip", "rule", "add", "pref", "0", "from", LAB_PEER, "iif", "lo", "table",
		LAB_UDP_TABLE) ||
	    record_obj(fd, LAB_RULE_L3MDEV, NULL, 0) || RUN(false, "ip", "rule", "add", "pref", "0", "l3mdev"))
		return -1;
	/* a second local rule behind ours, then the first one goes: there is always one */
	return record_obj(fd, LAB_LOCAL_RULE, NULL, 0) || RUN(false, "ip", "rule", "add", "pref", "0", "table", "local") ||
	       RUN(false, "ip", "rule", "del", "pref", "0", "table", "local") ? -1 : 0;
}

static int build_rxe(int fd)
{
	static const char *const dev[] = { "fl_rxe_a", "fl_rxe_b", "fl_rxe_p" };
	static const char *const nd[] = { "fl-a", "fl-b", "fl-peer" };

	for (size_t i = 0; i < 3; i++)
		if (record_obj(fd, LAB_RXE, dev[i], 0) ||
		    RUN(false, "rdma", "link", "add", dev[i], "type", "rxe", "netdev", nd[i]))
			return -1;
	return 0;
}

/* The peer's listener, detached: fabtop probe --listen on the peer's address. */
static int start_listener(int fd, const char *self)
{
	char log[300];
	pid_t pid;

	snprintf(log, sizeof(log), "%s.listener.log", lab_state_path());
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* a symlink planted at the log's name is not written through */
		int o = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		int nul = open("/dev/null", O_RDONLY);

		setsid();
		if (o >= 0) {
			dup2(o, 1);
			dup2(o, 2);
		}
		if (nul >= 0)
			dup2(nul, 0);
		execl(self, "fabtop", "probe", "--listen", LAB_PEER, "-p", LAB_PORT, (char *)NULL);
		_exit(127);
	}
	if (record_obj(fd, LAB_LISTENER, NULL, (unsigned long)pid))
		return -1;
	/* one that cannot listen (the port taken, no rdma_cm) ends at once */
	for (int t = 0; t < 10; t++) {
		int st;

		usleep(100000);
		if (waitpid(pid, &st, WNOHANG) == pid) {
			char said[1024] = "";
			int lfd = open(log, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
			FILE *f = lfd >= 0 ? fdopen(lfd, "r") : NULL;
			size_t n = f ? fread(said, 1, sizeof(said) - 1, f) : 0;

			if (f)
				fclose(f);
			said[n] = '\0';
			fprintf(stderr, "fabtop lab: the peer's listener ended at once; it said:\n%s", said);
			return -1;
		}
	}
	return 0;
}

/*
 * The state file's directory: made when missing, and then it must be a
 * directory of root's that no one else can write. The state file says what
 * `down` removes and which pid it signals; a directory another user can
 * write would let them plant one, or a symlink where it is written.
 */
static int state_dir_ok(const char *path, bool make, FILE *err)
{
	char dir[300];
	struct stat st;

	if (util_dir_of(path, dir, sizeof(dir)) < 0) {
		fprintf(err, "fabtop lab: %s: the state file's directory is too long a path\n", path);
		return -1;
	}
	if (make)
		mkdir(dir, 0755);
	if (lstat(dir, &st)) {
		if (errno == ENOENT && !make)
			return 0;	/* no directory, so no lab: `down` says so */
		fprintf(err, "fabtop lab: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(err, "fabtop lab: %s, where the lab's state is kept, is not a directory owned by root that "
			"only root can write (owner uid %u, mode %04o): nothing done\n", dir, (unsigned int)st.st_uid,
			(unsigned int)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

/*
 * One `up` or `down` at a time: a lock on the directory that holds the
 * state file (a lock file of its own would be left behind by `down`),
 * held until the process ends. Returns its descriptor, or -1 (said on err).
 */
static int state_lock(const char *path, FILE *err)
{
	char dir[300];
	int fd;

	if (util_dir_of(path, dir, sizeof(dir)) < 0) {
		fprintf(err, "fabtop lab: %s: the state file's directory is too long a path\n", path);
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		fprintf(err, "fabtop lab: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		fprintf(err, "fabtop lab: another `fabtop lab up` or `down` is running (%s is locked): nothing done\n",
			dir);
		close(fd);
		return -1;
	}
	return fd;
}

static int lab_down_locked(FILE *out, FILE *err);

static int lab_up_locked(const char *self, const char *path, FILE *out, FILE *err)
{
	char who[IFNAMSIZ + 1];
	int fd, rc;

	if (access(path, F_OK) == 0) {
		fprintf(err, "fabtop lab: a lab is already up, or an `up` was interrupted (%s exists): "
			"`fabtop lab down` first\n", path);
		return 1;
	}
	if (subnet_taken(who, sizeof(who))) {
		fprintf(err, "fabtop lab: 172.16.0.0/16, the lab's subnet, is in use on this host (%s): nothing done\n", who);
		return 1;
	}
	if (check_free(err))
		return 1;
	if (modules(err))
		return 1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(err, "fabtop lab: %s: %s\n", path, strerror(errno));
		return 1;
	}
	rc = write(fd, LAB_STATE_HEADER "\n", sizeof(LAB_STATE_HEADER)) == (ssize_t)sizeof(LAB_STATE_HEADER) ? 0 : -1;
	if (!rc)
		rc = build_wires(fd);
	if (!rc)
		rc = build_routing(fd);
	if (!rc)
		rc = build_rxe(fd);
	if (!rc)
		rc = start_listener(fd, self);
	close(fd);
	if (rc) {
		fprintf(err, "fabtop lab: building the lab failed; removing what was made\n");
		lab_down_locked(out, err);
		return 1;
	}
	fprintf(out, "fabtop lab: up (state in %s)\n"
		"  memory server: fl-a 172.16.34.1/16 (fl_rxe_a), fl-b 172.16.34.2/16 (fl_rxe_b), strict rp_filter\n"
		"  peer:          " LAB_PEER " (fl_rxe_p, VRF fl-peer), fabtop probe --listen on port " LAB_PORT "\n"
		"  wires:         a bridge in network namespace fl-switch\n"
		"next:\n"
		"  fabtop probe " LAB_PEER " --from 172.16.34.2    fails\n"
		"  fabtop doctor                                   says why\n"
		"  fabtop doctor --apply --yes                     fixes it\n"
		"  fabtop probe " LAB_PEER " --from 172.16.34.2    works\n"
		"  fabtop lab down                                 removes it all\n", path);
	return 0;
}

int lab_up(const char *self, FILE *out, FILE *err)
{
	const char *path = lab_state_path();
	int lock, rc;

	if (state_dir_ok(path, true, err))
		return 1;
	lock = state_lock(path, err);
	if (lock < 0)
		return 1;
	rc = lab_up_locked(self, path, out, err);
	close(lock);
	return rc;
}

/* Is pid our listener (a reused pid is left alone)? */
static bool our_listener(unsigned long pid)
{
	char path[64], buf[256];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%lu/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	for (ssize_t i = 0; i < r; i++)
		if (!buf[i])
			buf[i] = ' ';
	return strstr(buf, "probe --listen " LAB_PEER " -p " LAB_PORT) != NULL;
}

/* How many "lookup local" rules at priority 0? */
static int local_rules(void)
{
	char out[4096];
	int n = 0;

	if (run_cmd((const char *const[]){ "ip", "rule", "list", "pref", "0", NULL }, false, out, sizeof(out)))
		return -1;
	for (const char *p = out; (p = strstr(p, "lookup local")); p++)
		n++;
	return n;
}

/* Remove one object; 0 when it is gone (or was never made), -1 when it stays. */
static int remove_obj(const struct lab_obj *o, FILE *out)
{
	char path[300];
	int rc = 0;

	switch (o->kind) {
	case LAB_LISTENER:
		if (our_listener(o->num))
			kill((pid_t)o->num, SIGTERM);
		break;
	case LAB_RXE:
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s", o->name);
		if (access(path, F_OK) == 0)
			rc = RUN(true, "rdma", "link", "delete", o->name);
		break;
	case LAB_SYSCTL:
		rc = write_sysctl(UDP_L3MDEV, o->num);
		break;
	case LAB_LOCAL_RULE:
		/* interrupted between the two steps: two local rules, one goes; never the last one */
		if (local_rules() > 1)
			rc = RUN(true, "ip", "rule", "del", "pref", "0", "table", "local");
		break;
	case LAB_RULE_UDP:
		RUN(true, "ip", "rule", "del", "pref", "0", "from", LAB_PEER, "iif", "lo", "table",
		    LAB_UDP_TABLE);
		break;
	case LAB_RULE_L3MDEV:
		RUN(true, "ip", "rule", "del", "pref", "0", "l3mdev");
		break;
	case LAB_LINK:
		if (if_nametoindex(o->name))
			rc = RUN(true, "ip", "link", "del", o->name);
		break;
	case LAB_NETNS:
		snprintf(path, sizeof(path), "/run/netns/%s", o->name);
		if (access(path, F_OK) == 0)
			rc = RUN(true, "ip", "netns", "del", o->name);
		break;
	}
	if (rc)
		fprintf(out, "fabtop lab: could not remove %s\n", o->kind == LAB_SYSCTL ? "sysctl udp_l3mdev_accept" : o->name);
	return rc ? -1 : 0;
}

int lab_down(FILE *out, FILE *err)
{
	const char *path = lab_state_path();
	int lock, rc;

	if (state_dir_ok(path, false, err))
		return 1;
	if (access(path, F_OK) && errno == ENOENT) {
		fprintf(out, "fabtop lab: no lab is up (no %s)\n", path);
		return 0;
	}
	lock = state_lock(path, err);
	if (lock < 0)
		return 1;
	rc = lab_down_locked(out, err);
	close(lock);
	return rc;
}

static int lab_down_locked(FILE *out, FILE *err)
{
	const char *path = lab_state_path();
	char *text = NULL, log[300];
	size_t n, bad, first_bad, left = 0, len = 0;
	struct lab_obj *v;
	FILE *f = fopen(path, "r");

	if (!f) {
		if (errno == ENOENT) {
			fprintf(out, "fabtop lab: no lab is up (no %s)\n", path);
			return 0;
		}
		fprintf(err, "fabtop lab: %s: %s\n", path, strerror(errno));
		return 1;
	}
	text = calloc(1, 65536);
	if (text)
		len = fread(text, 1, 65535, f);
	fclose(f);
	if (!text || memchr(text, '\0', len)) {
		fprintf(err, "fabtop lab: %s is not a lab state file (binary or unreadable): nothing removed\n", path);
		free(text);
		return 1;
	}
	v = lab_state_parse(text, &n, &bad, &first_bad);
	free(text);
	for (size_t i = n; i-- > 0;) {
		if (remove_obj(&v[i], err))
			left++;
		if (v[i].kind == LAB_LISTENER)
			for (int t = 0; t < 40 && our_listener(v[i].num); t++)
				usleep(50000);
	}
	free(v);
	if (bad)
		fprintf(err, "fabtop lab: %zu line(s) of %s are not the lab's own objects (first: line %zu): "
			"left alone; read the file, then remove it by hand\n", bad, path, first_bad);
	if (left || bad) {
		fprintf(err, "fabtop lab: down incomplete: %zu object(s) could not be removed\n", left);
		return 1;
	}
	snprintf(log, sizeof(log), "%s.listener.log", path);
	unlink(log);
	if (unlink(path)) {
		fprintf(err, "fabtop lab: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(out, "fabtop lab: down: %zu object(s) removed\n", n);
	return 0;
}
