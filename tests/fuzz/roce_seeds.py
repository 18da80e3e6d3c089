#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the seeds of fuzz_roce (tests/data/fuzz/roce/): dcbnl answers laid
# out as linux/dcbnl.h shapes them (whole, with unknown attributes, cut
# short, a "not supported" error) and ethtool statistics of the drivers'
# names. Run from the top of the tree; the seeds are committed.
import os
import struct
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/data/fuzz/roce"
RTM_GETDCB, NLMSG_ERROR = 78, 2
DCB_CMD_IEEE_GET = 21
IFNAME, IEEE, DCBX = 1, 13, 14
ETS, PFC, APP_TABLE, APP, TRUST_TABLE, TRUST = 1, 2, 3, 1, 11, 1


def attr(t, payload):
    a = struct.pack("=HH", 4 + len(payload), t) + payload
    return a + b"\0" * (-len(a) % 4)


def msg(t, body, seq=1):
    return struct.pack("=IHHII", 16 + len(body), t, 0, seq, 0) + body


def ets():
    return struct.pack("=BBB", 0, 8, 0) + bytes([50, 0, 0, 50, 0, 0, 0, 0]) + bytes(8) + \
        bytes([2, 0, 0, 2, 0, 0, 0, 0]) + bytes(range(8)) + bytes(24)


def pfc(en):
    return struct.pack("=BBBxH2x", 8, en, 0, 32) + struct.pack("=8Q", *([0] * 8)) + \
        struct.pack("=8Q", *([0, 0, 0, 2000, 0, 0, 0, 0]))


def answer(extra=b""):
    apps = attr(APP, struct.pack("=BBH", 5, 3, 26)) + attr(APP, struct.pack("=BBH", 5, 6, 48))
    ieee = attr(ETS, ets()) + attr(PFC, pfc(0x08)) + attr(APP_TABLE, apps) + \
        attr(TRUST_TABLE, attr(TRUST, b"\x05"))
    body = struct.pack("=BBH", 0, DCB_CMD_IEEE_GET, 0) + attr(IFNAME, b"eth0\0") + \
        attr(IEEE, ieee + extra) + attr(DCBX, b"\x0a") + extra
    return msg(RTM_GETDCB, body)


def ethtool(names):
    n = len(names)
    blob = b"".join(x.encode().ljust(32, b"\0")[:32] for x in names)
    vals = struct.pack("=%dQ" % n, *range(100, 100 + n))
    return bytes([1]) + struct.pack("=H", n) + blob + vals


seeds = {
    "dcb_whole.bin": b"\0" + answer(),
    "dcb_unknown_attrs.bin": b"\0" + answer(attr(60, b"\xde\xad\xbe\xef")),
    "dcb_cut.bin": b"\0" + answer()[:90],
    "dcb_eopnotsupp.bin": b"\0" + msg(NLMSG_ERROR, struct.pack("=i", -95) + bytes(16)),
    "dcb_pfc_short.bin": b"\0" + msg(RTM_GETDCB, struct.pack("=BBH", 0, DCB_CMD_IEEE_GET, 0) +
                                     attr(IEEE, attr(PFC, b"\x08\x08\x00\x00"))),
    "ethtool_mlx5.bin": ethtool(["rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause",
                                 "tx_prio3_pause_duration", "rx_out_of_buffer", "rx_prio3_marked",
                                 "tx_pause_storm_warning_events", "rx_packets"]),
    "ethtool_bnxt_ice.bin": ethtool(["rx_pfc_ena_frames_pri3", "pfc_pri3_rx_duration_us",
                                     "rx_priority_3_xoff.nic", "tx_priority_3_xoff.nic"]),
    "pause_reply.bin": bytes([2]) + msg(27, struct.pack("=BBH", 22, 1, 0) + attr(2, b"\0") + attr(3, b"\1") +
                                        attr(4, b"\1") + attr(5 | 0x8000, attr(1, b"") + attr(2, struct.pack("=Q", 5)) +
                                                               attr(3, struct.pack("=Q", 7)))),
    "pause_eopnotsupp.bin": bytes([2]) + msg(NLMSG_ERROR, struct.pack("=i", -95) + bytes(16)),
    "ethtool_count_too_big.bin": bytes([1]) + struct.pack("=H", 500) + b"rx_prio3_pause".ljust(40, b"\0"),
}
os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
