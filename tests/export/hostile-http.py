#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile HTTP clients against a fabtop exporter on loopback: slowloris,
# oversized headers and bodies, a thousand connections at once, readers that
# never read, a hundred concurrent scrapes. After each attack (and during the
# ones that hold connections) a real scrape must succeed and the exporter
# must keep collecting. Prints TAP. Every loop is bounded in count and time.
# The attacks come from 127.0.0.1, the real scrapes from 127.0.0.2 (and the
# hundred concurrent ones from four addresses): the exporter limits
# connections per address, so an attacker's address is not a scraper's.
import socket
import sys
import threading
import time

host, port = sys.argv[1].rsplit(":", 1)
port = int(port)
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


def scrape(timeout=3.0, accept=None, src="127.0.0.2"):
    """(status, body) of one GET /metrics from source address src, or (None, error)."""
    try:
        s = socket.create_connection((host, port), timeout=timeout, source_address=(src, 0))
        hdr = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        if accept:
            hdr += "Accept: %s\r\n" % accept
        s.sendall((hdr + "\r\n").encode())
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split()[1]) if head.startswith(b"HTTP/") else None
        return status, body
    except OSError as e:
        return None, str(e).encode()


def collections():
    st, body = scrape()
    if st != 200:
        return None
    for line in body.decode(errors="replace").splitlines():
        if line.startswith("fabtop_exporter_collections_total "):
            return int(line.split()[1])
    return None


def wait_collections_move(c0, what):
    deadline = time.monotonic() + 5
    c = c0
    while time.monotonic() < deadline:
        c = collections()
        if c is not None and c0 is not None and c > c0:
            break
        time.sleep(0.2)
    ok(c is not None and c0 is not None and c > c0, "collection goes on " + what, "before %s, after %s" % (c0, c))


def real_scrape_ok(what):
    t0 = time.monotonic()
    st, body = scrape(accept="application/openmetrics-text;version=1.0.0")
    dt = time.monotonic() - t0
    ok(st == 200 and body.endswith(b"# EOF\n") and dt < 3,
       "a real scrape is served whole %s (%.2f s)" % (what, dt), "status %s, %d bytes" % (st, len(body)))


def connect_many(count, timeout=2.0):
    socks = []
    for _ in range(count):
        try:
            socks.append(socket.create_connection((host, port), timeout=timeout, source_address=("127.0.0.1", 0)))
        except OSError:
            break
    return socks


idle = socket.create_connection((host, port), timeout=2)	# sends nothing: must be timed out
idle_t0 = time.monotonic()
real_scrape_ok("before anything")

# Slowloris: 300 connections that never finish their headers, a byte at a time.
c0 = collections()
loris = connect_many(300)
for s in loris:
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
stop = time.monotonic() + 3
while time.monotonic() < stop:
    for s in loris:
        try:
            s.send(b"X")
        except OSError:
            pass
    real_scrape_ok("during a slowloris of %d connections" % len(loris))
    time.sleep(0.5)
wait_collections_move(c0, "during the slowloris")
for s in loris:
    s.close()

# Oversized headers: refused fast, the server unharmed.
s = socket.create_connection((host, port), timeout=5)
t0 = time.monotonic()
try:
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"A" * (1 << 20) + b"\r\n\r\n")
except OSError:
    pass
try:
    reply = s.recv(4096)
except OSError:
    reply = b""
s.close()
ok(time.monotonic() - t0 < 5 and not reply.startswith(b"HTTP/1.1 200"),
   "a 1 MiB header is refused (%s)" % (reply.split(b"\r\n")[0].decode(errors="replace") or "connection closed"))
real_scrape_ok("after an oversized request")

# A body nobody asked for: answered at once, never read to its end.
s = socket.create_connection((host, port), timeout=5)
s.sendall(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n" + b"B" * 65536)
try:
    reply = s.recv(4096)
except OSError:
    reply = b""
s.close()
ok(reply.startswith(b"HTTP/1.1 405"), "a POST with a 1 GB body gets 405 at once", repr(reply[:80]))

# A thousand connections at once, held open, saying nothing.
c0 = collections()
flood = connect_many(1000)
ok(len(flood) >= 1000, "1000 connections opened (%d)" % len(flood))
real_scrape_ok("while 1000 idle connections are held")
wait_collections_move(c0, "during the flood")
for s in flood:
    s.close()

# Readers that ask and never read: the server sends what fits and moves on.
stuck = connect_many(50)
for s in stuck:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
real_scrape_ok("while 50 clients never read their answer")

# A hundred concurrent scrapes, all whole.
results = []
lock = threading.Lock()


def one(i):
    r = scrape(timeout=10, accept="application/openmetrics-text;version=1.0.0", src="127.0.0.%d" % (10 + i % 4))
    with lock:
        results.append(r)


threads = [threading.Thread(target=one, args=(i,)) for i in range(100)]
t0 = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join(15)
dt = time.monotonic() - t0
whole = sum(1 for st, body in results if st == 200 and body.endswith(b"# EOF\n"))
ok(whole == 100, "100 concurrent scrapes all served whole in %.2f s" % dt, "%d of %d" % (whole, len(results)))
for s in stuck:
    s.close()

# The idle connection of the start was closed by the server's timeout.
idle.settimeout(max(0.1, 13 - (time.monotonic() - idle_t0)))
try:
    closed = idle.recv(1) == b""
except OSError:
    closed = False
ok(closed, "an idle connection is closed by the server (after %.1f s)" % (time.monotonic() - idle_t0))
idle.close()
real_scrape_ok("at the end")

print("1..%d" % n)
sys.exit(1 if failed else 0)
