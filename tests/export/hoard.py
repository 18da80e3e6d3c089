#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# One client holding thousands of connections to a fabtop exporter on
# loopback from 127.0.0.1, while a scraper at 127.0.0.2 must be served.
# Usage: hoard.py HOST:PORT COUNT. Prints TAP (or "1..0 # SKIP" when the
# descriptor limit cannot be raised). Bounded: COUNT sockets, every wait
# has a deadline, and the whole run stops itself after 90 s.
import errno
import resource
import signal
import socket
import sys
import time

host, port = sys.argv[1].rsplit(":", 1)
port = int(port)
count = int(sys.argv[2])
signal.alarm(90)

need = count + 64
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < need:
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard) if hard != resource.RLIM_INFINITY else need, hard))
    except (ValueError, OSError):
        pass
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < need:
    print("1..0 # SKIP the descriptor limit is %d (hard %d); %d connections need %d" % (soft, hard, count, need))
    sys.exit(0)

n = 0
failed = 0


def ok(cond, desc, *diag):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, desc))
    if not cond:
        failed += 1
        for d in diag:
            print("# %s" % d)
    sys.stdout.flush()


def scrape(src, timeout):
    """(status, seconds, error) of one GET /metrics from source address src."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection((host, port), timeout=timeout, source_address=(src, 0))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while time.monotonic() < t0 + timeout:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
        head = data.split(b"\r\n", 1)[0]
        status = int(head.split()[1]) if head.startswith(b"HTTP/") else None
        return status, time.monotonic() - t0, None
    except OSError as e:
        return None, time.monotonic() - t0, str(e)


st, secs, err = scrape("127.0.0.2", 5)
ok(st == 200, "before the hoard: a scrape from 127.0.0.2 is served", "status %s after %.1f s: %s" % (st, secs, err))

# The hoard: COUNT non-blocking connects from 127.0.0.1, never a byte sent.
socks = []
refused = 0
t0 = time.monotonic()
for i in range(count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    s.bind(("127.0.0.1", 0))
    rc = s.connect_ex((host, port))
    if rc not in (0, errno.EINPROGRESS):
        refused += 1
        s.close()
        continue
    socks.append(s)
ok(len(socks) == count, "127.0.0.1 holds %d connections (%d opened in %.1f s)" % (count, len(socks), time.monotonic() - t0),
   "%d refused at once" % refused)

# While they are held: the other address is served, in well under the idle timeout.
st, secs, err = scrape("127.0.0.2", 8)
ok(st == 200 and secs < 5, "while 127.0.0.1 holds them, a scrape from 127.0.0.2 is served (%.1f s)" % secs,
   "status %s after %.1f s: %s" % (st, secs, err))
st, secs, err = scrape("127.0.0.2", 8)
ok(st == 200 and secs < 5, "and a second one (%.1f s)" % secs, "status %s after %.1f s: %s" % (st, secs, err))

for s in socks:
    s.close()
st, secs, err = scrape("127.0.0.1", 15)
ok(st == 200, "the hoard gone, 127.0.0.1 is served again", "status %s after %.1f s: %s" % (st, secs, err))
print("1..%d" % n)
sys.exit(1 if failed else 0)
