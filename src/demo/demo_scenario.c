// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo's scenarios as a table: what each breaks, its story, where to look, its fix (doc/lab.md). */
#include "config.h"

#include <string.h>

#include "demo/demo_scenario.h"
#include "demo/demo_state.h"
#include "util.h"

static const struct demo_scenario default_demo = {
	.name = NULL,
	.breaks = DS_NOISE | DS_SAME_SUBNET,
};

static const struct demo_scenario scenarios[] = {
	{
		.name = "two-nics",
		.breaks = DS_SAME_SUBNET,
		.story = "memserver34 has ib0 and ib1 in one /16: a connection from its second address "
			 "172.16.34.2 to the cpu server gets RDMA_CM_EVENT_REJECTED",
		.hint = "Probe (6): e 172.16.16.1, f f (from ib1), Enter; the why, then Doctor (5): finding 1, a applies it",
		.fixed = "172.16.34.2 has its own table and rule: its traffic leaves by ib1, the probe from it connects",
	},
	{
		.name = "container",
		.breaks = DS_CONTAINER,
		.story = "a container sees mlx5_1 but not its netdev: ib_write_bw -d mlx5_1 fails with "
			 "'Failed to modify QP to RTR' (No such device)",
		.hint = "GIDs (3): NETDEV column; Doctor (5): gid-netdev-not-in-netns; Probe (6): e 10.20.0.2, Enter",
		.fix_cmd = "ip link set dev enp65s0f0 netns CONTAINER; ip link set dev enp65s0f0.100 netns CONTAINER; "
			   "then their addresses inside   (or: docker run --network host)",
		.fixed = "enp65s0f0 and its VLAN are in the container: the GIDs have their netdevs, the probe to "
			 "10.20.0.2 connects",
	},
	{
		.name = "roce-v1",
		.breaks = DS_ROCE_V1,
		.story = "RoCE to gpu07 runs at a third of the link: rdma_cm takes RoCE v1 (GID index 2), which "
			 "carries no DSCP and lands on a lossy priority",
		.hint = "RoCE (0): roce-v1-forced; GIDs (3): index 2 vs 3; Probe (6): e 10.20.0.2, m m (bw), Enter",
		.fix_cmd = "echo \"RoCE v2\" > /sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_mode",
		.fixed = "default_roce_mode is RoCE v2: GID index 3, DSCP 26 on the lossless priority, the whole share of the link",
	},
	{
		.name = "pfc-off",
		.breaks = DS_PFC_OFF,
		.story = "RoCE to gpu07 stalls under load: PFC is off on priority 3, where RDMA lands, so the "
			 "switch drops instead of pausing",
		.hint = "RoCE (0): roce-lossy, no pauses, discards; Counters (2): out_of_sequence; Probe (6): 10.20.0.2 bw",
		.fix_cmd = "dcb pfc set dev enp65s0f0 prio-pfc 3:on",
		.fixed = "PFC is on for priority 3: the switch pauses instead of dropping, the probe gets its whole share",
	},
	{
		.name = "no-sm",
		.breaks = DS_NO_SM,
		.story = "mlx5_0's ports stay in INIT with the link up: no subnet manager runs, so no LIDs, no "
			 "IPoIB carrier, and every IB connection times out",
		.hint = "Ports (1): state INIT, LID 0, SM LID 0; Doctor (5): port-no-sm; Probe (6): e 172.16.16.1, Enter",
		.fix_cmd = "systemctl start opensm   (on one node of the subnet)",
		.fixed = "opensm runs: LIDs 7 and 8, SM LID 1, the ports are ACTIVE and the probe to 172.16.16.1 connects",
	},
	{
		.name = "bad-cable",
		.breaks = DS_BAD_CABLE,
		.story = "ib1's cable is failing: symbol errors climb, the link flaps, and it came back at 1X "
			 "(25 Gb/s of 100)",
		.hint = "Ports (1): rate and state of mlx5_0/2; Counters (2): symbol_error, link_downed; Events (7)",
		.fix_cmd = "replace the cable of mlx5_0 port 2 (it retrains at 4X)",
		.fixed = "a new cable: mlx5_0 port 2 runs at 100 Gb/sec (4X EDR), no new symbol errors, no flaps",
	},
};

const struct demo_scenario *demo_scenario_default(void)
{
	return &default_demo;
}

const struct demo_scenario *demo_scenario_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(scenarios); i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}

void demo_scenario_list(FILE *f)
{
	fprintf(f, "Scenarios of the demo fabric (fabtop --demo NAME; every one simulated, doc/lab.md):\n");
	struct demo_state st;
	char err[8];
	int nfixed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++) {
		demo_state_load(scenarios[i].name, &st, err, sizeof(err));
		nfixed += st.route || st.own;
		fprintf(f, "  %-10s %s%s\n", scenarios[i].name, st.route || st.own ? "[FIXED] " : "",
			scenarios[i].story);
	}
	fprintf(f, "Without NAME, fabtop --demo shows the default demo host (all of its trouble at once).\n");
	if (nfixed)
		fprintf(f, "[FIXED]: fixed in an earlier run; it stays fixed until this machine reboots "
			"(doctor --undo takes the routing fix back, doc/lab.md).\n");
}
