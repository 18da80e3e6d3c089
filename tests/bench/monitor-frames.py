#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drive the monitor on a tree in a pseudo-terminal and read its frame log
(FABTOP_FRAME_LOG, see doc/architecture.md): the first frame after exec,
keys answered while the host is still being read, and the worst frame of a
re-collection after a port change and of the periodic one.

usage: monitor-frames.py FABTOP TREE PERIODIC_S
Prints "key value" lines for monitor.sh; exits 1 with a reason when it
cannot measure."""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time

fabtop, tree, periodic_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
log = os.path.join(os.path.dirname(tree), "frames.log")


def fail(why):
    print("bench: " + why, file=sys.stderr)
    sys.exit(1)


def frames():
    """(on screen ns, busy ns, CPU so far ns, re-collection, still read, CPU of this frame ns)"""
    out = []
    cpu = 0
    try:
        with open(log) as f:
            for line in f:
                w = line.split(" ", 5)
                if len(w) == 6 and w[0] == "frame" and line.endswith("\n"):
                    out.append((int(w[1]), int(w[2]), int(w[3]), w[4] == "1", w[5].strip(), int(w[3]) - cpu))
                    cpu = int(w[3])
    except FileNotFoundError:
        pass
    return out


def wait_for(pred, secs, what):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if proc.poll() is not None:
            fail("the monitor exited (status %s) while waiting for %s" % (proc.returncode, what))
        r = pred(frames())
        if r is not None:
            return r
        time.sleep(0.01)
    fail("timed out after %d s waiting for %s" % (secs, what))


master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
env = dict(os.environ, TERM="xterm", FABTOP_FRAME_LOG=log, XDG_CONFIG_HOME=os.path.join(os.path.dirname(tree), "cfg"))
t0 = time.monotonic_ns()
proc = subprocess.Popen([fabtop, "--sysfs", tree, "--interval", "1", "--pane", "ports"],
                        stdin=slave, stdout=slave, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
os.close(slave)


def drain():	# the screen output must be read or the monitor blocks writing it
    while True:
        try:
            if not os.read(master, 65536):
                return
        except OSError:
            return


threading.Thread(target=drain, daemon=True).start()

try:
    first = wait_for(lambda f: f[0] if f else None, 30, "the first frame")
    # Keys while the rest is read: a pane switch every 30 ms, answered by the next frame.
    waits = []
    while frames()[-1][4] != "-" and proc.poll() is None:
        sent = time.monotonic_ns()
        os.write(master, b"3" if len(waits) % 2 else b"1")
        n = wait_for(lambda f: next((x for x in f if x[0] >= sent), None), 10, "a frame after a key")
        waits.append((n[0] - sent) / 1e6)
        time.sleep(0.03)
    done = wait_for(lambda f: next((x for x in f if x[4] == "-"), None), 120, "everything read")
    print("first_frame_ms %.1f" % ((first[0] - t0) / 1e6))
    print("first_frame_cpu_ms %.1f" % (first[2] / 1e6))
    print("first_frame_text %s" % first[4])
    print("all_read_ms %.1f" % ((done[0] - t0) / 1e6))
    print("all_read_cpu_ms %.1f" % (done[2] / 1e6))
    print("worst_frame_loading_ms %.1f" % max(x[1] / 1e6 for x in frames()[1:] if x[0] <= done[0]))
    print("worst_frame_loading_cpu_ms %.1f" % max(x[5] / 1e6 for x in frames()[1:] if x[0] <= done[0]))
    print("keys %d" % len(waits))
    print("key_worst_ms %.1f" % (max(waits) if waits else -1))

    def rescan_window(after):
        """The re-collection frame after `after` and the frames until all is read again."""
        r = wait_for(lambda f: next((x for x in f if x[3] and x[0] > after), None), periodic_s + 30,
                     "a re-collection")
        end = wait_for(lambda f: next((x for x in f if x[0] >= r[0] and x[4] == "-"), None), 120,
                       "the re-collection to be read in")
        fr = [x for x in frames() if r[0] <= x[0] <= end[0]]
        return r, end, fr

    # The periodic re-collection: SNAPSHOT_FULL_RESCAN_NS after the start.
    r, end, fr = rescan_window(done[0])
    print("periodic_after_s %.1f" % ((r[0] - t0) / 1e9))
    print("periodic_rescan_frame_ms %.1f" % (r[1] / 1e6))
    print("periodic_worst_ms %.1f" % max(x[1] / 1e6 for x in fr))
    print("periodic_rescan_frame_cpu_ms %.1f" % (r[5] / 1e6))
    print("periodic_worst_cpu_ms %.1f" % max(x[5] / 1e6 for x in fr))
    print("periodic_frames %d" % len(fr))
    print("periodic_spread_ms %.1f" % ((end[0] - r[0]) / 1e6))

    # A port goes down: noticed by the structure check (every 5 s).
    mark = frames()[-1][0]
    port = os.path.join(tree, "class/infiniband/mlx5_7/ports/1")
    with open(os.path.join(port, "state"), "w") as f:
        f.write("1: DOWN\n")
    r, end, fr = rescan_window(mark)
    print("change_rescan_frame_ms %.1f" % (r[1] / 1e6))
    print("change_worst_ms %.1f" % max(x[1] / 1e6 for x in fr))
    print("change_rescan_frame_cpu_ms %.1f" % (r[5] / 1e6))
    print("change_worst_cpu_ms %.1f" % max(x[5] / 1e6 for x in fr))
    print("change_frames %d" % len(fr))
    print("change_text %s" % r[4])
finally:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
