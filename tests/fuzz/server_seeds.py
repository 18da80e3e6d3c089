#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the hand-made seeds of fuzz_server (tests/data/fuzz/server/) in the
# input format described at the top of tests/fuzz/fuzz_server.c.
import os
import struct
import sys

CONNECT, ESTABLISHED, DISCONNECTED, CM_ERROR, SEND, SQ_COMPLETE, WC_ERROR, SLEEP, FAIL, STOP, \
    RPING_PING, HANDLE = range(12)
NO_HANDLE = 0x80
# enum fake_fn
REG_MR, POST_SEND, POST_RECV, ACCEPT, CREATE_CQ, BIND = 13, 14, 15, 5, 11, 2
# errno table index in op_fail: ENOMEM, EIO, EINVAL, ETIMEDOUT, ENODEV, EAGAIN
ENOMEM, EIO = 0, 1


def opts(max_conns=1, serve=0, spin=False, auto_disc=False, timeout_ms=150, idle_ms=300):
    b0 = (max_conns - 1) | serve << 2 | (0x10 if spin else 0) | (0x20 if auto_disc else 0)
    b1 = (timeout_ms // 50 - 1) | (idle_ms // 100 - 1) << 4
    return bytes([b0, b1])


def rping_connect():
    return bytes([CONNECT, 0x01])          # 56 zero bytes, as stock rping sends


def hello(mode, flags=0, depth=1, size=64, count=0):
    return bytes([CONNECT, 0x02, mode, flags, depth]) + struct.pack(">IB", size, count)


def peer(k, flag=False):
    return k | (0x80 if flag else 0)


seeds = {
    # rping -c -C 2: two whole pings, then the client hangs up; --once ends the server
    "rping-clean": opts(serve=1) + rping_connect() + bytes([ESTABLISHED, 0,
        RPING_PING, 0, 12, RPING_PING, 0, 74, DISCONNECTED, peer(0, True)]),
    # fabtop probe --mode bw --op send -S 4096 -Q 8 -C 64: DATA in sequence, FIN, FIN_ACK
    "bw-send": opts(serve=1) + hello(1, 1, 8, 4096, 64) + bytes([ESTABLISHED, 0,
        SEND, 0, 3, 32, SEND, 0, 3, 32, SEND, 0, 4, SQ_COMPLETE, 0, 0, DISCONNECTED, peer(0, True)]),
    # fabtop probe --mode bw (WRITEs): PROGRESS, FIN with the count, FIN_ACK
    "bw-write": opts(serve=1) + hello(1, 0, 16, 65536, 0) + bytes([ESTABLISHED, 0,
        SEND, 0, 2, 6, 1, 10, SLEEP, 2, SEND, 0, 2, 3, 1, 20, SQ_COMPLETE, 0, 0,
        DISCONNECTED, peer(0, True)]),
    # fabtop probe --mode lat -S 64: PING, PONG, in turn
    "lat": opts(serve=1) + hello(2, 0, 1, 64, 0) + bytes([ESTABLISHED, 0,
        SEND, 0, 3, 1, SQ_COMPLETE, 0, 0, SEND, 0, 3, 1, SQ_COMPLETE, 0, 0,
        SEND, 0, 3, 1, SQ_COMPLETE, 0, 0, DISCONNECTED, peer(0)]),
    # garbage hellos, a flood past --max-conns, garbage messages, a bogus rkey, eviction
    "hostile": opts(max_conns=2, idle_ms=1600) +
        bytes([CONNECT, 0x03, 40]) + b"FBTH\x07" + bytes(range(35)) +
        hello(3) + hello(1, 2, 200, 0) + rping_connect() + rping_connect() + rping_connect() +
        bytes([ESTABLISHED, 0, SEND, 0, 0, 100]) + bytes(range(100)) +
        bytes([SEND, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
               SLEEP, 4, CONNECT | NO_HANDLE, 0x01, CONNECT, 0x11,
               ESTABLISHED, 1, SEND, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0, 64, SQ_COMPLETE, 1, 0,
               WC_ERROR, 1, 0, SEND, 0, 2, 7, 1, 0, SLEEP, 6, DISCONNECTED, 0]),
    # RLIMIT_MEMLOCK: ibv_reg_mr fails (ENOMEM); then rdma_accept, ibv_post_recv and
    # ibv_post_send fail in turn, each on a new client; the last one works
    "memlock": opts(max_conns=4) +
        bytes([FAIL, REG_MR, ENOMEM]) + rping_connect() +
        bytes([FAIL, REG_MR, 0x10 | ENOMEM]) + hello(1, 0, 4, 1 << 20, 1) +
        bytes([FAIL, ACCEPT, 3]) + rping_connect() +
        bytes([FAIL, POST_RECV, 0x20 | EIO]) + hello(2, 0, 1, 128, 0) +
        bytes([FAIL, CREATE_CQ, ENOMEM]) + rping_connect() +
        rping_connect() + bytes([ESTABLISHED, 0, FAIL, POST_SEND, EIO, RPING_PING, 0, 30]),
    # the listener cannot bind (no RDMA device has the address)
    "bind-fails": bytes([0x40, 0x00, 2]),
    # probe_stop() with clients in every state and nobody answering the DREQs
    "stop-busy": opts(max_conns=3) + rping_connect() + hello(2, 0, 1, 16, 0) + hello(1, 1, 16, 65536, 0) +
        bytes([ESTABLISHED, 1, SEND, 1, 3, 5, ESTABLISHED, 0, STOP, SEND, 0, 3, 2, SLEEP, 1]),
    # --max-conns 1: A is evicted for B (A still closing), then B for C while A is still
    # closing: no slot is left, so C is refused as busy and B was dropped for nothing
    # (the server once evicted here and then refused the newcomer: a regression seed)
    "evict-no-room": opts(idle_ms=1600, timeout_ms=800) + rping_connect() + bytes([ESTABLISHED, 0,
        SLEEP | NO_HANDLE, 4]) + rping_connect() + bytes([ESTABLISHED, 1, SLEEP | NO_HANDLE, 4]) + rping_connect(),
}

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "fuzz", "server")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
