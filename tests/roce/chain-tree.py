#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the fixture tree tests/data/trees/roce-chain: four RoCE ports, each
# reproducing findings of the lossless chain (doc/roce.md), as a sysfs tree,
# an rdma_cm configfs tree (config/), and recorded answers: dcbnl (dcb.nl,
# the netlink bytes of linux/dcbnl.h shapes) and ethtool statistics
# (ethtool.bin) for a first sample, and fabtop-recorded/next/ for a second
# one a second later. Values are made up for the tests. Run from the top.
import os
import shutil
import struct
import sys

T = sys.argv[1] if len(sys.argv) > 1 else "tests/data/trees/roce-chain"


def w(path, text):
    os.makedirs(os.path.dirname(os.path.join(T, path)), exist_ok=True)
    mode = "wb" if isinstance(text, bytes) else "w"
    with open(os.path.join(T, path), mode) as f:
        f.write(text)


def attr(t, payload):
    a = struct.pack("=HH", 4 + len(payload), t) + payload
    return a + b"\0" * (-len(a) % 4)


def dcb_answer(ifname, pfc_en, apps, trust=None):
    ets = struct.pack("=BBB", 0, 8, 0) + bytes([50, 0, 0, 50, 0, 0, 0, 0]) + bytes(8) + \
        bytes([2, 0, 0, 2, 0, 0, 0, 0]) + bytes(range(8)) + bytes(24)
    pfc = struct.pack("=BBBxH2x", 8, pfc_en, 0, 32) + bytes(128)
    table = b"".join(attr(1, struct.pack("=BBH", 5, prio, dscp)) for dscp, prio in apps)
    ieee = attr(1, ets) + attr(2, pfc) + attr(3, table)
    if trust:
        ieee += attr(11, b"".join(attr(1, bytes([t])) for t in trust))
    body = struct.pack("=BBH", 0, 21, 0) + attr(1, ifname.encode() + b"\0") + attr(13, ieee) + attr(14, b"\x0a")
    return struct.pack("=IHHII", 16 + len(body), 78, 0, 1, 0) + body


def dcb_error(errno):
    return struct.pack("=IHHII", 36, 2, 0, 1, 0) + struct.pack("=i", -errno) + bytes(16)


def pause_answer(family, autoneg, rx, tx, rx_frames, tx_frames):
    # ETHTOOL_MSG_PAUSE_GET_REPLY (22 in linux/ethtool_netlink.h's reply enum), stats padded as the kernel does
    stats = attr(1, b"") + attr(2, struct.pack("=Q", tx_frames)) + attr(3, struct.pack("=Q", rx_frames))
    body = struct.pack("=BBH", 22, 1, 0) + attr(1 | 0x8000, attr(2, b"enp1s0f0\0")) + \
        attr(2, bytes([autoneg])) + attr(3, bytes([rx])) + attr(4, bytes([tx])) + attr(5 | 0x8000, stats)
    return struct.pack("=HH", family, 0) + struct.pack("=IHHII", 16 + len(body), family, 0, 2, 0) + body


def pause_error(family, errno):
    return struct.pack("=HH", family, 0) + struct.pack("=IHHII", 36, 2, 0, 2, 0) + struct.pack("=i", -errno) + bytes(16)


def ethtool(counters):
    names = b"".join(n.encode().ljust(32, b"\0") for n, _ in counters)
    vals = struct.pack("=%dQ" % len(counters), *[v for _, v in counters])
    return struct.pack("=I", len(counters)) + names + vals


def prio_stats(p, rx_pause, tx_pause, rx_us, tx_us, marked=0):
    return [("rx_prio%d_pause" % p, rx_pause), ("tx_prio%d_pause" % p, tx_pause),
            ("rx_prio%d_pause_duration" % p, rx_us), ("tx_prio%d_pause_duration" % p, tx_us),
            ("rx_prio%d_marked" % p, marked), ("rx_prio%d_discards" % p, 0)]


def port(dev, guid, netdev, mac, ip, cc, mode, tos):
    d = "class/infiniband/%s/" % dev
    w(d + "node_type", "1: CA\n")
    w(d + "node_guid", guid + "\n")
    w(d + "sys_image_guid", guid + "\n")
    w(d + "fw_ver", "22.39.1002\n")
    w(d + "hca_type", "MT4125\n")
    p = d + "ports/1/"
    w(p + "state", "4: ACTIVE\n")
    w(p + "phys_state", "5: LinkUp\n")
    w(p + "link_layer", "Ethernet\n")
    w(p + "rate", "100 Gb/sec (2X HDR)\n")
    ll = "fe80:0000:0000:0000:%s" % mac
    v4 = "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % tuple(int(x) for x in ip.split("."))
    for i, (g, t) in enumerate([(ll, "IB/RoCE v1"), (ll, "RoCE v2"), (v4, "IB/RoCE v1"), (v4, "RoCE v2")]):
        w(p + "gids/%d" % i, g + "\n")
        w(p + "gid_attrs/types/%d" % i, t + "\n")
        w(p + "gid_attrs/ndevs/%d" % i, netdev + "\n")
    for name, v in cc.items():
        w(p + "hw_counters/" + name, "%d\n" % v)
    w("class/net/%s/mtu" % netdev, "9000\n")
    w("class/net/%s/operstate" % netdev, "up\n")
    w("class/net/%s/ifindex" % netdev, "%d\n" % (10 + int(dev[-1])))
    c = "config/rdma_cm/%s/ports/1/" % dev
    w(c + "default_roce_mode", mode + "\n")
    w(c + "default_roce_tos", "%d\n" % tos)


CC0 = {"np_cnp_sent": 100, "np_ecn_marked_roce_packets": 100, "rp_cnp_handled": 40, "rp_cnp_ignored": 0,
       "out_of_buffer": 0, "out_of_sequence": 0, "packet_seq_err": 0}
shutil.rmtree(T, ignore_errors=True)
R = "fabtop-recorded/"

# mlx5_0: RDMA marked DSCP 26 -> priority 3, but PFC is on priority 4: lossy, and PFC unused.
port("mlx5_0", "b859:9f03:00a1:0000", "enp1s0f0", "ba59:9fff:fea1:0000", "10.1.0.1", CC0, "RoCE v2", 104)
w(R + "enp1s0f0/dcb.nl", dcb_answer("enp1s0f0", 1 << 4, [(26, 3), (48, 6)]))
w(R + "enp1s0f0/pause.nl", pause_answer(27, 0, 1, 1, 7, 5))
w(R + "enp1s0f0/ethtool.bin", ethtool(prio_stats(3, 0, 0, 0, 0) + prio_stats(4, 10, 0, 500, 0) +
                                      [("rx_out_of_buffer", 0), ("rx_packets", 123456)]))
w(R + "next/enp1s0f0/ethtool.bin", ethtool(prio_stats(3, 0, 0, 0, 0) + prio_stats(4, 12, 0, 700, 0) +
                                           [("rx_out_of_buffer", 0), ("rx_packets", 223456)]))

# mlx5_1: set up right (PFC on 3), but priority 3 is paused 95% of the second and out_of_buffer moves.
port("mlx5_1", "b859:9f03:00a1:0001", "enp2s0f0", "ba59:9fff:fea1:0001", "10.1.1.1", CC0, "RoCE v2", 106)
w(R + "enp2s0f0/dcb.nl", dcb_answer("enp2s0f0", 1 << 3, [(26, 3)], trust=[5]))
w(R + "enp2s0f0/ethtool.bin", ethtool(prio_stats(3, 1000, 0, 2000000, 0) + [("tx_pause_storm_warning_events", 0)]))
w(R + "next/enp2s0f0/ethtool.bin", ethtool(prio_stats(3, 9000, 0, 2950000, 0) + [("tx_pause_storm_warning_events", 3)]))
# DCQCN on for priority 3, as it should be (MLNX_OFED's mlx5 sysfs)
for prio in range(8):
    w("class/net/enp2s0f0/ecn/roce_np/enable/%d" % prio, "%d\n" % (prio == 3))
    w("class/net/enp2s0f0/ecn/roce_rp/enable/%d" % prio, "%d\n" % (prio == 3))
# out_of_sequence moves too, but PFC is known (and right): no loss-without-PFC symptom
w(R + "next/mlx5_1-1.hw_counters", "np_cnp_sent 150\nnp_ecn_marked_roce_packets 150\nout_of_buffer 4096\n"
  "out_of_sequence 5000\n")

# mlx5_2: default_roce_tos unset while DSCP is trusted; ECN marks without CNPs; CNPs ignored.
port("mlx5_2", "b859:9f03:00a1:0002", "enp3s0f0", "ba59:9fff:fea1:0002", "10.1.2.1", CC0, "RoCE v2", 0)
w(R + "enp3s0f0/dcb.nl", dcb_answer("enp3s0f0", 1 << 3, [(26, 3), (0, 0)], trust=[5, 255]))
w(R + "enp3s0f0/ethtool.bin", ethtool(prio_stats(0, 0, 0, 0, 0, marked=10)))
w(R + "next/enp3s0f0/ethtool.bin", ethtool(prio_stats(0, 0, 0, 0, 0, marked=1010)))
# DCQCN on priority 3 only, while RDMA (DSCP 0) lands on priority 0: roce-ecn-off
for prio in range(8):
    w("class/net/enp3s0f0/ecn/roce_np/enable/%d" % prio, "%d\n" % (prio == 3))
    w("class/net/enp3s0f0/ecn/roce_rp/enable/%d" % prio, "%d\n" % (prio == 3))
w(R + "next/mlx5_2-1.hw_counters", "np_ecn_marked_roce_packets 1100\nnp_cnp_sent 100\nrp_cnp_ignored 50\n")

# mlx5_3: RoCE v1 forced on a port with RoCE v2 GIDs; its driver has no DCB.
port("mlx5_3", "b859:9f03:00a1:0003", "enp4s0f0", "ba59:9fff:fea1:0003", "10.1.3.1", CC0, "IB/RoCE v1", 104)
w(R + "enp4s0f0/dcb.nl", dcb_error(95))
w(R + "enp4s0f0/ethtool.bin", ethtool([("rx_packets", 1)]))
w(R + "enp4s0f0/pause.nl", pause_error(27, 95))
# ...and sequence errors climb by millions: the symptom, while PFC cannot be read
w(R + "next/mlx5_3-1.hw_counters", "out_of_sequence 2500000\npacket_seq_err 1200\n")
