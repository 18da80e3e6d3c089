// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small hostile recordings cannot make fabtop use gigabytes: files of a few
 * KiB that ask for more devices, ports, counters, GIDs, links or MAD ports
 * than the collector reads or than the reader's budget (record/schema.h),
 * and zstd streams of zeros that decompress to gigabytes, are made here and
 * replayed by the real binary (`fabtop --replay FILE show ...`). Each must
 * fail with a message saying why, in well under a second, in well under
 * 100 MB (the child's peak RSS from wait4(), started by a small runner).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "record/codec.h"
#include "record/file.h"
#include "record/reader.h"
#include "tap.h"

static char dir[] = "/tmp/fabtop-bounds.XXXXXX";

/* One framed record: type, length, body, CRC-32 (doc/recording.md). */
static void frame(struct rec_buf *s, unsigned int type, const struct rec_buf *body)
{
	size_t start = s->len;
	uint32_t crc;
	uint8_t le[4];

	rec_put_varint(s, type);
	rec_put_varint(s, body->len);
	rec_put_raw(s, body->data, body->len);
	crc = rec_crc32(0, s->data + start, s->len - start);
	for (int i = 0; i < 4; i++)
		le[i] = (uint8_t)(crc >> (8 * i));
	rec_put_raw(s, le, 4);
}

static void header(struct rec_buf *s)
{
	struct rec_buf b = { 0 };

	rec_put_uint(&b, 1, REC_FORMAT_MAJOR);
	rec_put_uint(&b, 2, REC_FORMAT_MINOR);
	rec_put_str(&b, 4, "bomb");
	frame(s, REC_HEADER, &b);
	rec_buf_free(&b);
}

/* n empty fields numbered field (3 bytes or less each: the smallest a file can ask for a struct). */
static void empties(struct rec_buf *b, unsigned int field, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rec_put_bytes(b, field, NULL, 0);
}

/* A record of type whose body (REC_F_BODY) is msg. */
static void record(struct rec_buf *s, unsigned int type, const struct rec_buf *msg)
{
	struct rec_buf b = { 0 };

	rec_put_sint(&b, REC_F_MONO, 1000);
	rec_put_sint(&b, REC_F_WALL, 1000);
	rec_put_bytes(&b, REC_F_BODY, msg->data, msg->len);
	frame(s, type, &b);
	rec_buf_free(&b);
}

/* A host of ndev devices of nport empty ports, the first port holding ngid empty GIDs and nctr counters. */
static void host(struct rec_buf *s, size_t ndev, size_t nport, size_t ngid, size_t nctr)
{
	struct rec_buf h = { 0 };

	rec_put_str(&h, 1, "bomb");
	for (size_t d = 0; d < ndev; d++) {
		size_t m = rec_put_begin(&h, 3);

		rec_put_str(&h, 1, "mlx5_0");
		for (size_t p = 0; p < nport; p++) {
			size_t k = rec_put_begin(&h, 20);

			if (!d && !p) {
				rec_put_uint(&h, 1, 1);
				empties(&h, 34, ngid);
				empties(&h, 33, nctr);
			}
			rec_put_end(&h, k);
		}
		rec_put_end(&h, m);
	}
	record(s, REC_HOST, &h);
	rec_buf_free(&h);
}

/* The format line, then the stream compressed, then raw (bytes appended to the zstd stream as they are). */
static int write_file(const char *name, const struct rec_buf *stream, const struct rec_buf *raw, char *path,
		      size_t size, size_t *flen)
{
	size_t bound = ZSTD_compressBound(stream->len), n;
	uint8_t *z = malloc(bound);
	FILE *f;

	snprintf(path, size, "%s/%s.ftrec", dir, name);
	if (!z)
		return -1;
	n = ZSTD_compress(z, bound, stream->data, stream->len, 19);
	f = fopen(path, "we");
	if (ZSTD_isError(n) || !f) {
		free(z);
		if (f)
			fclose(f);
		return -1;
	}
	fprintf(f, REC_MAGIC "%u.%u\n", REC_FORMAT_MAJOR, REC_FORMAT_MINOR);
	fwrite(z, 1, n, f);
	if (raw)
		fwrite(raw->data, 1, raw->len, f);
	free(z);
	*flen = (size_t)ftell(f);
	return fclose(f);
}

/* A zstd frame of nblocks RLE blocks of 128 KiB of zeros: 4 bytes each, 2.3 GiB from 72 KiB. */
static void zeros_frame(struct rec_buf *b, size_t nblocks)
{
	static const uint8_t head[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38 };

	rec_put_raw(b, head, sizeof(head));
	for (size_t i = 0; i < nblocks; i++) {
		uint32_t bh = (uint32_t)(i + 1 == nblocks) | 1u << 1 | (128u << 10) << 3;
		uint8_t blk[4] = { (uint8_t)bh, (uint8_t)(bh >> 8), (uint8_t)(bh >> 16), 0 };

		rec_put_raw(b, blk, sizeof(blk));
	}
}

/*
 * nrec subnet records of nnodes nodes each, every node 7 bytes that claim
 * 255 ports and hold none: before the budget counted what is present, each
 * node cost ~16 KiB decoded and each record the whole 256 MiB.
 */
static void claimed_ports(struct rec_buf *s, size_t nrec, size_t nnodes)
{
	static const uint8_t node[] = { 0x52, 0x05, 0x0a, 0x03, 0x28, 0xff, 0x01 };
	struct rec_buf m = { 0 };

	for (size_t i = 0; i < nnodes; i++)
		rec_put_raw(&m, node, sizeof(node));
	for (size_t r = 0; r < nrec; r++)
		record(s, REC_SUBNET, &m);
	rec_buf_free(&m);
}

static uint32_t rnd32(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint32_t)(*x >> 32);
}

/*
 * A record of a type no reader knows holding blob random bytes, then n
 * such records of 4 random bytes (12 bytes each): the file cannot
 * compress, so it is about as big as its stream, which the reader maps
 * back to the file in pieces of a few KiB, and every small record after
 * the blob asks where it is in the file.
 */
static void many_records(struct rec_buf *s, size_t blob, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct rec_buf b = { 0 };

	for (size_t i = 0; i < blob; i += 4) {
		uint32_t v = rnd32(&x);

		rec_put_raw(&b, &v, blob - i < 4 ? blob - i : 4);
	}
	if (blob) {
		struct rec_buf r = { 0 };

		rec_put_bytes(&r, 15, b.data, b.len);
		frame(s, 40, &r);
		rec_buf_free(&r);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t v = rnd32(&x);

		rec_buf_reset(&b);
		rec_put_bytes(&b, 15, &v, sizeof(v));
		frame(s, 40, &b);
	}
	rec_buf_free(&b);
}

struct run {
	int status;
	double seconds;
	long maxrss_kb;
	char err[2048];
};

/*
 * The runs are started by a runner forked before this test allocates
 * anything: a child's ru_maxrss also counts the memory its parent had when
 * it forked (the kernel keeps the peak of the image exec replaced), so the
 * runner must be small for the figure to be fabtop's own.
 */
static int to_runner = -1, from_runner = -1;

/* fabtop --replay path show what, as a user runs it: exit, time and peak RSS; its stderr into errpath. */
static void runner_one(const char *path, const char *what, const char *errpath, FILE *out)
{
	const char *fabtop = getenv("FABTOP");
	struct timespec t0, t1;
	struct rusage ru;
	int status = -1;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (!pid) {
		int o = open("/dev/null", O_WRONLY), e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		/* without the bounds this would take minutes and gigabytes: cut it short */
		alarm(20);
		dup2(o, 1);
		dup2(e, 2);
		execl(fabtop, "fabtop", "--replay", path, "show", what, (char *)NULL);
		_exit(127);
	}
	memset(&ru, 0, sizeof(ru));
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		status = -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(out, "%d %.6f %ld\n", status,
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	fflush(out);
}

static int runner_start(void)
{
	int req[2], ans[2];
	pid_t pid;

	if (pipe(req) || pipe(ans))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		FILE *in = fdopen(req[0], "r"), *out = fdopen(ans[1], "w");
		char line[1200], path[600], what[32], errpath[600];

		close(req[1]);
		close(ans[0]);
		while (in && out && fgets(line, sizeof(line), in))
			if (sscanf(line, "%599s %31s %599s", path, what, errpath) == 3)
				runner_one(path, what, errpath, out);
		_exit(0);
	}
	close(req[0]);
	close(ans[1]);
	to_runner = req[1];
	from_runner = ans[0];
	return 0;
}

static int run(const char *path, const char *what, struct run *out)
{
	char errpath[300], line[1400], ans[128];
	ssize_t n;
	size_t got = 0;
	int fd;

	memset(out, 0, sizeof(*out));
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	snprintf(line, sizeof(line), "%s %s %s\n", path, what, errpath);
	if (write(to_runner, line, strlen(line)) != (ssize_t)strlen(line))
		return -1;
	while (got < sizeof(ans) - 1 && (n = read(from_runner, ans + got, 1)) == 1 && ans[got] != '\n')
		got++;
	ans[got] = '\0';
	if (sscanf(ans, "%d %lf %ld", &out->status, &out->seconds, &out->maxrss_kb) != 3)
		return -1;
	fd = open(errpath, O_RDONLY);
	n = fd >= 0 ? read(fd, out->err, sizeof(out->err) - 1) : 0;
	out->err[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return 0;
}

static long rss_limit_kb;
static bool sanitized;		/* built with the sanitizers: their shadow memory and checks distort both */

/* The run's time and peak RSS within their bounds: checked in the plain builds, skipped under the sanitizers. */
static void within(const char *name, const struct run *r, long rss_kb)
{
	if (sanitized) {
		TAP_SKIP("%s: time and memory (%.3f s, %ld KiB) are bounded in the plain builds, not under the "
			 "sanitizers", name, r->seconds, r->maxrss_kb);
		TAP_SKIP("%s: (the same, memory)", name);
		return;
	}
	TAP_OK(r->seconds < 1.0, "%s: in %.3f s (< 1 s)", name, r->seconds);
	TAP_OK(r->maxrss_kb < rss_kb, "%s: peak RSS %ld KiB (< %ld KiB)", name, r->maxrss_kb, rss_kb);
}

static void expect(const char *name, const struct rec_buf *stream, const struct rec_buf *raw, const char *what,
		   const char *says)
{
	char path[300];
	size_t flen = 0;
	struct run r;

	if (write_file(name, stream, raw, path, sizeof(path), &flen) || run(path, what, &r)) {
		TAP_OK(0, "%s: made and run", name);
		return;
	}
	TAP_OK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 1 && strstr(r.err, says),
	       "%s (%zu bytes): show %s exits 1 saying \"%s\"", name, flen, what, says);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 1 || !strstr(r.err, says)) {
		printf("#   status %d, stderr: ", r.status);
		tap_print_str(r.err);
		printf("\n");
	}
	within(name, &r, rss_limit_kb);
}

/* The file the stream makes, parsed in this process within budget: 0 or -1, *decoded what its records took. */
static int parse_within(const struct rec_buf *stream, size_t budget, size_t *decoded, char *err, size_t errlen)
{
	struct rec_buf f = { 0 };
	size_t bound = ZSTD_compressBound(stream->len), n;
	struct rec_reader r;
	char magic[64];
	int rc;

	snprintf(magic, sizeof(magic), REC_MAGIC "%u.%u\n", REC_FORMAT_MAJOR, REC_FORMAT_MINOR);
	rec_put_raw(&f, magic, strlen(magic));
	{
		uint8_t *z = malloc(bound);

		n = z ? ZSTD_compress(z, bound, stream->data, stream->len, 3) : 0;
		if (z && !ZSTD_isError(n))
			rec_put_raw(&f, z, n);
		free(z);
	}
	rc = rec_reader_parse_within(&r, "budget", f.data, f.len, budget, err, errlen);
	*decoded = rc ? 0 : r.decoded;
	if (!rc)
		rec_reader_close(&r);
	rec_buf_free(&f);
	return rc;
}

/*
 * The whole file's budget on both sides, within a small one: a file whose
 * records take exactly the budget opens, one byte less refuses it, saying
 * so. And a node's cost is what it holds: claiming 255 ports or 1, with
 * no port in the record, costs the same.
 */
static void budget_edges(void)
{
	struct rec_buf s = { 0 }, one = { 0 };
	size_t all = 0, again = 0, small = 0;
	char err[1024] = "";
	int rc;

	header(&s);
	host(&s, 1, 1, 0, 0);
	claimed_ports(&s, 3, 100);
	rc = parse_within(&s, SIZE_MAX, &all, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "three records of 100 nodes claiming 255 ports open");
	if (rc)
		printf("#   %s\n", err);
	TAP_OK(all > 0 && all < 3 * 100 * 1024, "they take %zu bytes decoded in all (< 100 KiB a record, not 1.6 MB)",
	       all);
	rc = parse_within(&s, all, &again, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "the same file within a budget of exactly what it takes opens");
	ASSERT_EQ_U64(again, all, "and takes the same");
	rc = parse_within(&s, all - 1, &again, err, sizeof(err));
	ASSERT_EQ_INT(rc, -1, "within one byte less it is refused");
	ASSERT_CONTAINS(err, "of decoded records in one file (the reader's budget", "saying why");
	/* the budget grows with the file past its floor, so a long recording opens in time linear in its size */
	ASSERT_EQ_U64(rec_reader_budget(0), REC_READER_MAX_DECODED, "an empty file: the 512 MiB floor");
	ASSERT_EQ_U64(rec_reader_budget(512u << 10), REC_READER_MAX_DECODED,
		      "512 KiB of file: 1024 bytes a byte is the floor exactly");
	ASSERT_EQ_U64(rec_reader_budget((512u << 10) + 1), REC_READER_MAX_DECODED + REC_READER_DECODED_PER_BYTE,
		      "one byte more: 1024 bytes more of budget");
	ASSERT_EQ_U64(rec_reader_budget(SIZE_MAX / 2), SIZE_MAX, "a size that would overflow: no wrap, the most there is");

	/* the same nodes claiming one port: a node costs what it holds, not what it claims */
	{
		static const uint8_t node[] = { 0x52, 0x04, 0x0a, 0x02, 0x28, 0x01 };
		struct rec_buf m = { 0 };

		header(&one);
		host(&one, 1, 1, 0, 0);
		for (size_t i = 0; i < 100; i++)
			rec_put_raw(&m, node, sizeof(node));
		for (int r = 0; r < 3; r++)
			record(&one, REC_SUBNET, &m);
		rec_buf_free(&m);
	}
	rc = parse_within(&one, SIZE_MAX, &small, err, sizeof(err));
	ASSERT_EQ_INT(rc, 0, "the nodes claiming one port open");
	ASSERT_EQ_U64(all, small, "claiming 255 ports costs what claiming 1 does, with none recorded");
	rec_buf_free(&s);
	rec_buf_free(&one);
}

/* A file that must open (exit 0), fast and in less than rss_kb. */
static void expect_open(const char *name, const struct rec_buf *stream, const char *what, long rss_kb)
{
	char path[300];
	size_t flen = 0;
	struct run r;

	if (write_file(name, stream, NULL, path, sizeof(path), &flen) || run(path, what, &r)) {
		TAP_OK(0, "%s: made and run", name);
		return;
	}
	TAP_OK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "%s (%zu bytes): show %s exits 0", name, flen,
	       what);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
		printf("#   status %d, stderr: ", r.status);
		tap_print_str(r.err);
		printf("\n");
	}
	within(name, &r, rss_kb);
}

int main(void)
{
	const char *san = getenv("FABTOP_SANITIZERS");
	struct rec_buf s = { 0 }, raw = { 0 }, m = { 0 };

	if (!getenv("FABTOP") || !mkdtemp(dir) || runner_start()) {
		printf("1..0 # SKIP no FABTOP binary, temporary directory or runner\n");
		return 0;
	}
	/* "well under 100 MB" */
	sanitized = san && !strcmp(san, "yes");
	rss_limit_kb = 64 * 1024;

	/* 1000 devices of 256 empty ports: each count allowed, together ~480 MB of structs */
	header(&s);
	host(&s, 1000, 256, 0, 0);
	expect("empty-ports", &s, NULL, "gids", "at most 32 MiB of decoded structs");
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 300000, 0, 0);
	expect("ports", &s, NULL, "ports", "at most 256 ports in a device");
	rec_buf_reset(&s);
	header(&s);
	host(&s, 5000, 0, 0, 0);
	expect("devices", &s, NULL, "ports", "at most 1024 devices in a host");
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 500000, 0);
	expect("gids", &s, NULL, "gids", "at most 4096 GIDs in a port");
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 0, 500000);
	expect("counters", &s, NULL, "counters", "at most 3584 counters in a port");

	/* a network state of a million empty links (2 bytes each in the file, 108 in memory) */
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 0, 0);
	empties(&m, 1, 1000000);
	record(&s, REC_NET, &m);
	expect("links", &s, NULL, "net", "at most 32 MiB of decoded structs");
	/* a MAD view of 100,000 empty local ports (~9.5 KiB each in memory) */
	rec_buf_reset(&s);
	rec_buf_reset(&m);
	header(&s);
	host(&s, 1, 1, 0, 0);
	empties(&m, 3, 100000);
	record(&s, REC_MAD, &m);
	expect("mad-ports", &s, NULL, "fabric", "at most 32 MiB of decoded structs");

	budget_edges();

	/* 20 subnet records of 16,000 nodes that claim 255 ports each and hold none: a few KiB */
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 0, 0);
	claimed_ports(&s, 20, 16000);
	expect_open("claimed-ports", &s, "ports", rss_limit_kb);
	/* the same 4,000 times (448 MB of stream): each record is small, the whole file is not */
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 0, 0);
	claimed_ports(&s, 4000, 16000);
	expect("claimed-ports-4000", &s, NULL, "ports", "of decoded records in one file");

	/*
	 * 2,000,000 records of 12 bytes: 24 MB that do not compress. The file,
	 * its stream and the index (48 bytes a record, doc/recording.md) are
	 * held at once: 144 MB on top of the usual limit.
	 */
	rec_buf_reset(&s);
	header(&s);
	host(&s, 1, 1, 0, 0);
	many_records(&s, 0, 2000000);
	expect_open("many-records", &s, "ports", rss_limit_kb + (24 + 24 + 96) * 1024);

	/* 72 KiB of zstd that is 2.3 GiB of zeros: after the format line, and after a good header */
	rec_buf_reset(&s);
	zeros_frame(&raw, 18000);
	expect("zeros", &s, &raw, "gids", "expected the header record first");
	header(&s);
	expect("header-then-zeros", &s, &raw, "gids", "expected a unknown record with CRC-32");
	/* a record that says it is 1 GiB long, then zeros */
	rec_put_varint(&s, REC_HOST);
	rec_put_varint(&s, 1u << 30);
	expect("huge-record", &s, &raw, "gids", "a host record of 1073741824 bytes, more than this fabtop reads");

	rec_buf_free(&s);
	rec_buf_free(&raw);
	rec_buf_free(&m);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
