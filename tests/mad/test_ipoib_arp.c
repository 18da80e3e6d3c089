// SPDX-License-Identifier: GPL-2.0-or-later
/* An IPoIB neighbour's port GUID out of /proc/net/arp text: complete, incomplete, Ethernet and malformed entries. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "../unit/tap.h"
#include "kernel/ipoib_arp.h"

/* As the kernel's arp_seq_show() writes it: an IPoIB address is 20 bytes (flags+QPN, then the GID). */
static const char arp[] =
	"IP address       HW type     Flags       HW address            Mask     Device\n"
	"192.0.2.1        0x1         0x2         02:fc:00:00:00:05     *        eth0\n"
	"10.9.0.32        0x20        0x2         80:00:00:48:fe:c0:00:00:00:00:00:01:f4:52:14:03:00:0a:bc:de     *        ib0\n"
	"10.9.0.33        0x20        0x0         00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00     *        ib0\n"
	"10.9.0.34        0x20        0x2         80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0a:bc     *        ib0\n"
	"10.9.0.35        0x20        0x6         80:00:04:0a:FE:80:00:00:00:00:00:00:00:00:00:00:00:10:00:0b     *        ib1";

int main(void)
{
	uint64_t guid = 0;
	char dev[16];

	ASSERT_EQ_INT(ipoib_arp_parse(arp, "10.9.0.32", &guid, dev, sizeof(dev)), 0, "an IPoIB entry");
	ASSERT_EQ_U64(guid, 0xf4521403000abcdeull, "its port GUID: the GID's last 8 bytes");
	ASSERT_EQ_STR(dev, "ib0", "and its device");
	ASSERT_EQ_INT(ipoib_arp_parse(arp, "10.9.0.35", &guid, dev, sizeof(dev)), 0,
		      "the last line without a newline, upper-case hex, flags with more bits");
	ASSERT_EQ_U64(guid, 0x000000000010000bull, "its port GUID");
	ASSERT_EQ_STR(dev, "ib1", "on ib1");
	ASSERT_EQ_INT(ipoib_arp_parse(arp, "10.9.0.33", &guid, dev, sizeof(dev)), -ENOENT,
		      "an incomplete entry: not known");
	ASSERT_EQ_INT(ipoib_arp_parse(arp, "192.0.2.1", &guid, dev, sizeof(dev)), -EPROTOTYPE,
		      "an Ethernet neighbour: not InfiniBand");
	ASSERT_EQ_INT(ipoib_arp_parse(arp, "10.9.0.34", &guid, dev, sizeof(dev)), -EINVAL, "19 bytes: malformed");
	ASSERT_EQ_INT(ipoib_arp_parse(arp, "10.9.0.3", &guid, dev, sizeof(dev)), -ENOENT,
		      "a prefix of an address is not the address");
	ASSERT_EQ_INT(ipoib_arp_parse("", "10.9.0.32", &guid, dev, sizeof(dev)), -ENOENT, "an empty table");
	return tap_done();
}
