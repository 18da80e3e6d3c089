#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU a server process spends per scrape: COUNT sequential GET /metrics,
# the time on CPU before and after (the scheduler's, in ns:
# /proc/PID/task/*/schedstat) of the process and of its HTTP server's
# thread (libmicrohttpd names it "MHD-..."; the process again when it has
# none): the process's figure holds the collections that fell in the
# while. Then CONCURRENT scrapes at once, all of which must come back
# whole. With "gzip" the scrapes accept it, once the exporter serves it
# (its first such scrape is answered in plain text), and every body must
# be one whole gzip member. MIN_SAMPLES: the warm-up waits for a page
# with as many samples (a sweep's first page may lack the counters).
# Prints "PROCESS_MS_PER_SCRAPE SERVER_THREAD_MS_PER_SCRAPE BYTES_SENT
# SAMPLES CONCURRENT_OK CONCURRENT_S".
import os
import sys
import threading
import time
import zlib

sys.dont_write_bytecode = True	# nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rawhttp  # noqa: E402  (tests/rawhttp.py)

pid, addr, count, concurrent = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
gzip = len(sys.argv) > 5 and sys.argv[5] == "gzip"
min_samples = int(sys.argv[6]) if len(sys.argv) > 6 else 0	# warm up until the page has as many
host, port = addr.rsplit(":", 1)
port = int(port)


def on_cpu_s(tid):
    """Time a thread has run (user and system), in ns from the scheduler: finer than ticks."""
    with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
        return int(f.read().split()[0]) / 1e9


def server_thread():
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
            if f.read().startswith("MHD-"):
                return tid
    return None


def cpu_s():
    """The process's CPU (its threads now), and the server thread's (the process's when it has none)."""
    threads = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            threads[tid] = on_cpu_s(tid)
        except OSError:
            pass			# ended meanwhile
    total = sum(threads.values())
    return total, threads.get(server, total)


def scrape():
    status, headers, body, _ = rawhttp.get(host, port, headers=[("Accept-Encoding", "gzip")] if gzip else [],
                                           timeout=30)
    ok = status is not None and status.split(" ")[1:2] == ["200"]
    if headers.get("content-encoding") != "gzip":
        return ok, False, body, len(body)
    z = zlib.decompressobj(31)
    text = z.decompress(body)
    return ok and z.eof and not z.unused_data, True, text, len(body)


server = server_thread()
deadline = time.monotonic() + 30
while True:			# warm-up, and the page's size
    ok, gzipped, body, sent = scrape()
    if not ok:
        sys.exit("bench: the first scrape failed")
    samples = sum(1 for l in body.split(b"\n") if l and not l.startswith(b"#"))
    if gzipped == gzip and samples >= min_samples:
        break
    if time.monotonic() > deadline:
        sys.exit("bench: no %s page of %d samples in 30 s" % ("gzip'ed" if gzip else "plain", min_samples))
    time.sleep(0.2)
c0 = cpu_s()
for _ in range(count):
    ok, gzipped, _, _ = scrape()
    if not ok or gzipped != gzip:
        sys.exit("bench: a scrape failed")
c1 = cpu_s()

results = []
lock = threading.Lock()


def one():
    try:
        r = scrape()
    except OSError:
        r = (False, False, b"", 0)
    with lock:
        results.append(r[0] and r[1] == gzip and len(r[2]) > 0)


threads = [threading.Thread(target=one) for _ in range(concurrent)]
t0 = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join(60)
print("%.3f %.3f %d %d %d %.3f" % ((c1[0] - c0[0]) * 1000 / count, (c1[1] - c0[1]) * 1000 / count, sent, samples,
                                  sum(results), time.monotonic() - t0))
