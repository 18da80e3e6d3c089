// SPDX-License-Identifier: GPL-2.0-or-later
/* The PCI attributes' parsers (kernel/pci_parse.c): every kernel's spelling, and what is not a value. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/pci_parse.h"
#include "model/pci.h"
#include "../unit/tap.h"

/* current_link_speed and max_link_speed as kernels print them (drivers/pci/pci-sysfs.c, probe.c). */
static void speeds(void)
{
	static const struct {
		const char *text;
		int rc;
		unsigned int mts;
	} t[] = {
		/* pci_speed_string(), Linux 5.1 on */
		{ "2.5 GT/s PCIe\n", 0, 2500 }, { "5.0 GT/s PCIe\n", 0, 5000 }, { "8.0 GT/s PCIe\n", 0, 8000 },
		{ "16.0 GT/s PCIe\n", 0, 16000 }, { "32.0 GT/s PCIe\n", 0, 32000 }, { "64.0 GT/s PCIe\n", 0, 64000 },
		{ "Unknown\n", -ENOENT, 0 },
		/* the switch of older pci-sysfs.c */
		{ "2.5 GT/s\n", 0, 2500 }, { "5 GT/s\n", 0, 5000 }, { "8 GT/s\n", 0, 8000 }, { "16 GT/s", 0, 16000 },
		{ "32 GT/s\n", 0, 32000 }, { "Unknown speed\n", -ENOENT, 0 },
		/* not a PCIe rate */
		{ "33 MHz PCI\n", -EINVAL, 0 }, { "16.0 GB/s PCIe\n", -EINVAL, 0 }, { "16.0 GT/s PCIe x\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 }, { "-8 GT/s\n", -EINVAL, 0 }, { "GT/s\n", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned int mts = 0;
		int rc = pci_parse_speed(t[i].text, &mts);
		char d[80];

		snprintf(d, sizeof(d), "speed '%.*s': result", (int)strcspn(t[i].text, "\n"), t[i].text);
		ASSERT_EQ_INT(rc, t[i].rc, d);
		snprintf(d, sizeof(d), "speed '%.*s': MT/s", (int)strcspn(t[i].text, "\n"), t[i].text);
		if (!t[i].rc)
			ASSERT_EQ_U64(mts, t[i].mts, d);
	}
}

static void widths(void)
{
	int w = -1;

	ASSERT_EQ_INT(pci_parse_width("16\n", &w), 0, "width 16 parses");
	ASSERT_EQ_INT(w, 16, "width 16");
	ASSERT_EQ_INT(pci_parse_width("0\n", &w), 0, "width 0 (a link down) is a width");
	ASSERT_EQ_INT(w, 0, "width 0");
	ASSERT_EQ_INT(pci_parse_width("x8", &w), 0, "x8 parses");
	ASSERT_EQ_INT(w, 8, "x8 is 8 lanes");
	ASSERT_EQ_INT(pci_parse_width("32\n", &w), 0, "32 lanes, the most PCIe has");
	ASSERT_EQ_INT(pci_parse_width("63\n", &w), -EINVAL, "63 (all ones: a function in D3cold) is no width");
	ASSERT_EQ_INT(pci_parse_width("33", &w), -EINVAL, "33 lanes is no width");
	ASSERT_EQ_INT(pci_parse_width("-1", &w), -EINVAL, "a sign is no width");
	ASSERT_EQ_INT(pci_parse_width("", &w), -EINVAL, "empty is no width");
}

static void aer(void)
{
	/* drivers/pci/pcie/aer.c: a line per error bit, then the total */
	const char *cor = "RxErr 3\nBadTLP 1\nBadDLLP 0\nRollover 0\nTimeout 2\nNonFatalErr 0\nCorrIntErr 0\n"
			  "HeaderOF 0\nTOTAL_ERR_COR 6\n";
	const char *fatal = "Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 0\nTOTAL_ERR_FATAL 0\n";
	const char *nonfatal = "CmpltTO 4\nUnxCmplt 1\nTOTAL_ERR_NONFATAL 5";
	uint64_t v = 99;

	ASSERT_EQ_INT(pci_parse_aer_total(cor, "ERR_COR", &v), 0, "TOTAL_ERR_COR found");
	ASSERT_EQ_U64(v, 6, "correctable total is the TOTAL_ line, not a bit's count");
	ASSERT_EQ_INT(pci_parse_aer_total(fatal, "ERR_FATAL", &v), 0, "TOTAL_ERR_FATAL found");
	ASSERT_EQ_U64(v, 0, "fatal total 0");
	ASSERT_EQ_INT(pci_parse_aer_total(nonfatal, "ERR_NONFATAL", &v), 0, "last line without a newline");
	ASSERT_EQ_U64(v, 5, "non-fatal total 5");
	ASSERT_EQ_INT(pci_parse_aer_total(cor, "ERR_FATAL", &v), -ENOENT, "another file's key is not found");
	ASSERT_EQ_INT(pci_parse_aer_total("TOTAL_ERR_COR_X 5\n", "ERR_COR", &v), -ENOENT,
		      "a longer key is not the total");
	ASSERT_EQ_INT(pci_parse_aer_total("TOTAL_ERR_COR many\n", "ERR_COR", &v), -EINVAL, "garbage total");
	ASSERT_EQ_INT(pci_parse_aer_total("", "ERR_COR", &v), -ENOENT, "empty file");
}

static void numa_class_id(void)
{
	int node = 7;
	uint32_t cls = 0;
	uint16_t id = 0;

	ASSERT_EQ_INT(pci_parse_numa("-1\n", &node), 0, "numa_node -1 parses");
	ASSERT_EQ_INT(node, -1, "numa_node -1 is unknown");
	ASSERT_EQ_INT(pci_parse_numa("1\n", &node), 0, "numa_node 1 parses");
	ASSERT_EQ_INT(node, 1, "numa_node 1");
	ASSERT_EQ_INT(pci_parse_numa("-2\n", &node), -EINVAL, "numa_node -2 is garbage");
	ASSERT_EQ_INT(pci_parse_numa("node0", &node), -EINVAL, "numa_node text is garbage");
	ASSERT_EQ_INT(pci_parse_class("0x030200\n", &cls), 0, "class parses");
	ASSERT_EQ_U64(cls, 0x030200, "class 0x030200");
	ASSERT_EQ_INT(pci_parse_class("030200\n", &cls), -EINVAL, "class without 0x");
	ASSERT_EQ_INT(pci_parse_class("0x1030200\n", &cls), -EINVAL, "class past 24 bits");
	ASSERT_EQ_INT(pci_parse_id("0x10de\n", &id), 0, "vendor parses");
	ASSERT_EQ_U64(id, 0x10de, "vendor 0x10de");
	ASSERT_EQ_INT(pci_parse_id("0x110de\n", &id), -EINVAL, "vendor past 16 bits");
}

static void names_and_classes(void)
{
	TAP_OK(pci_is_func_name("0000:03:00.0"), "0000:03:00.0 is a function");
	TAP_OK(pci_is_func_name("10000:e1:00.7"), "a VMD domain's function");
	TAP_OK(!pci_is_func_name("pci0000:00"), "a host bridge is not a function");
	TAP_OK(!pci_is_func_name("0000:03:00.8"), "function 8 does not exist");
	TAP_OK(!pci_is_func_name("0000:03:00.0x"), "nothing may follow");
	TAP_OK(!pci_is_func_name("000:03:00.0"), "three domain digits");
	TAP_OK(!pci_is_func_name("0000:3:00.0"), "one bus digit");
	TAP_OK(!pci_is_func_name("infiniband"), "a class directory");
	TAP_OK(pci_class_is_gpu(0x030000), "VGA controller is a GPU");
	TAP_OK(pci_class_is_gpu(0x030200), "3D controller is a GPU");
	TAP_OK(!pci_class_is_gpu(0x030100), "XGA controller is not");
	TAP_OK(!pci_class_is_gpu(0x038000), "other display controller is not");
	TAP_OK(!pci_class_is_gpu(0x020700), "an InfiniBand controller is not");
	TAP_OK(!pci_class_is_gpu(0x120000), "a processing accelerator is not");
}

int main(void)
{
	speeds();
	widths();
	aer();
	numa_class_id();
	names_and_classes();
	return tap_done();
}
