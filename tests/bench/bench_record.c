// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: what a recording costs. An hour of the demo fabric at 1 s
 * (simulated time, so 3,600 samples take seconds), and 600 samples of the
 * 64-port bench tree with every counter file rewritten between samples as a
 * busy host's would move. Printed beside what a CSV recorder of the same
 * counters writes (plain, and zstd-compressed as a whole afterwards).
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "source/snapshot.h"
#include "source/source.h"
#include "ctx.h"
#include "record/reader.h"
#include "util.h"

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* The anchor: one CSV line per port and sample, every counter's value. */
struct csv {
	char *buf;
	size_t len, cap;
};

static void csv_add(struct csv *c, const struct fab_host *h, uint64_t t)
{
	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];
			char line[65536];
			int n = snprintf(line, sizeof(line), "%" PRIu64 ",%s,%u", t, h->devs[i].name, p->num);

			for (size_t k = 0; k < p->ncounters && n < (int)sizeof(line) - 32; k++)
				n += snprintf(line + n, sizeof(line) - (size_t)n, ",%" PRIu64, p->counters[k].value);
			line[n++] = '\n';
			if (c->len + (size_t)n > c->cap) {
				c->cap = (c->cap + (size_t)n) * 2;
				c->buf = realloc(c->buf, c->cap);
				if (!c->buf)
					exit(1);
			}
			memcpy(c->buf + c->len, line, (size_t)n);
			c->len += (size_t)n;
		}
	}
}

static size_t zstd_size(const struct csv *c)
{
	size_t cap = ZSTD_compressBound(c->len), n;
	void *out = malloc(cap);

	if (!out)
		return 0;
	n = ZSTD_compress(out, cap, c->buf, c->len, 3);
	free(out);
	return ZSTD_isError(n) ? 0 : n;
}

/* A busy host's counters between two samples: data and packets at a rate with noise, errors now and then. */
static void move_counters(const char *root, const struct fab_host *h, unsigned int step)
{
	char path[4096], val[32];

	for (size_t i = 0; i < h->ndevs; i++) {
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				const struct fab_counter *c = &p->counters[k];
				const char *dir = c->source == COUNTER_SRC_HW_COUNTERS ? "hw_counters" :
						  c->source == COUNTER_SRC_COUNTERS_EXT ? "counters_ext" : "counters";
				uint64_t inc;
				int fd, n;

				switch (c->kind) {
				case COUNTER_KIND_DATA:
					inc = 600000000u + (uint64_t)(rand() % 200000000);
					break;
				case COUNTER_KIND_PACKETS:
					inc = 2000000u + (uint64_t)(rand() % 500000);
					break;
				case COUNTER_KIND_ERROR:
					inc = (step + k) % 97 == 0 ? (uint64_t)(rand() % 5) : 0;
					break;
				default:
					inc = (uint64_t)(rand() % 1000);
					break;
				}
				n = snprintf(val, sizeof(val), "%" PRIu64 "\n", (c->known ? c->value : 0) + inc);
				snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/%s/%s", root, h->devs[i].name,
					 p->num, dir, c->name);
				/*
				 * values only grow, so no truncation is needed (ext4 flushes a file
				 * truncated and rewritten at close: that would time the disk)
				 */
				fd = open(path, O_WRONLY);
				if (fd < 0 || pwrite(fd, val, (size_t)n, 0) != n) {
					fprintf(stderr, "bench: cannot write %s\n", path);
					exit(1);
				}
				close(fd);
			}
		}
	}
}

static size_t nports_of(const struct fab_host *h, size_t *ncounters)
{
	size_t n = 0;

	*ncounters = 0;
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			n++;
			*ncounters += h->devs[i].ports[j].ncounters;
		}
	return n;
}

/* samples at 1 s; returns 0 or 1 (could not run) */
static int run(const char *what, struct fab_ctx *ctx, const char *root, unsigned int samples, const char *path)
{
	struct source *src = source_open(ctx);
	struct fab_host h;
	struct net_state net;
	struct csv csv = { 0 };
	struct stat st;
	char err[512];
	uint64_t now = util_now_ns();
	size_t nports, ncounters, zcsv;
	double cpu_rec = 0, t0, hour;
	int rc;

	memset(&h, 0, sizeof(h));
	if (!src || source_collect(src, &h, COLLECT_ALL)) {
		fprintf(stderr, "bench: cannot collect %s\n", what);
		return 1;
	}
	nports = nports_of(&h, &ncounters);
	rc = snapshot_net(src, &h, &net);
	if (source_record_start(src, path, &h, rc ? NULL : &net, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	if (!rc)
		net_state_free(&net);
	for (unsigned int s = 0; s < samples; s++) {
		if (root)
			move_counters(root, &h, s);
		now += 1000000000u;
		/* the recorder's part: the refresh with it, minus the same refresh's read (measured apart below) */
		t0 = cpu_s();
		source_refresh(src, &h, now);
		cpu_rec += cpu_s() - t0;
		if (s % 5 == 0 && !snapshot_net(src, &h, &net))
			net_state_free(&net);
		csv_add(&csv, &h, now);
	}
	if (source_record_stop(src)) {
		fprintf(stderr, "bench: writing %s failed\n", path);
		return 1;
	}
	/* the same refreshes without a recording: what reading alone costs */
	t0 = cpu_s();
	for (unsigned int s = 0; s < samples; s++) {
		now += 1000000000u;
		source_refresh(src, &h, now);
	}
	cpu_rec -= cpu_s() - t0;
	fab_host_free(&h);
	source_close(src);
	if (stat(path, &st) || st.st_size <= 0) {
		fprintf(stderr, "bench: %s is empty\n", path);
		return 1;
	}
	{
		struct rec_reader r;

		if (rec_reader_open(&r, path, err, sizeof(err)) || r.nsamples != samples + 1) {
			fprintf(stderr, "bench: the recording does not read back: %s\n", err);
			return 1;
		}
		rec_reader_close(&r);
	}
	zcsv = zstd_size(&csv);
	hour = 3600.0 / samples;
	printf("record %s (%zu ports, %zu counters), %u samples at 1 s:\n", what, nports, ncounters, samples);
	printf("  fabtop:   %.3f MB/hour (%.0f bytes/sample, %.3f MB/hour per 4 ports), recording CPU %.1f us/sample\n",
	       (double)st.st_size * hour / 1e6, (double)st.st_size / samples,
	       (double)st.st_size * hour / 1e6 * 4 / (double)nports, cpu_rec > 0 ? cpu_rec / samples * 1e6 : 0.0);
	printf("  anchor:   CSV of the same counters %.3f MB/hour; that CSV zstd-compressed whole %.3f MB/hour\n",
	       (double)csv.len * hour / 1e6, (double)zcsv * hour / 1e6);
	printf("  goal:     <= 1 MB/hour for a 4-port host at 1 s: %s\n",
	       (double)st.st_size * hour / 1e6 * 4 / (double)nports <= 1.0 ? "met" : "MISSED");
	free(csv.buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct fab_ctx ctx;
	char path[4096];

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: bench_record demo|SYSFS_TREE OUTDIR\n");
		return 2;
	}
	ctx_init(&ctx);
	srand(7);
	snprintf(path, sizeof(path), "%s/bench.ftrec", argv[2]);
	if (!strcmp(argv[1], "demo")) {
		ctx.demo = true;
		ctx.seed = 7;
		return run("demo fabric", &ctx, NULL, 3600, path);
	}
	ctx.sysfs_root = argv[1];
	ctx.live_sysfs = false;
	return run("bench tree, every counter moving", &ctx, argv[1], argc > 3 ? (unsigned int)atoi(argv[3]) : 300, path);
}
