// SPDX-License-Identifier: GPL-2.0-or-later
/* Lookups over the PCI model (model/pci.h). */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include "model/pci.h"
#include "util.h"

/*
 * PCI Code and ID Assignment Specification, base class 03h (display
 * controller): what `nvidia-smi topo -m` and NCCL count as GPUs, of any
 * vendor. XGA (01h) and "other" (80h) display controllers are not
 * accelerators.
 */
static const uint32_t gpu_classes[] = {
	0x0300,		/* VGA compatible controller */
	0x0302,		/* 3D controller (datacenter GPUs without a display output) */
};

bool pci_class_is_gpu(uint32_t pci_class)
{
	for (size_t i = 0; i < ARRAY_SIZE(gpu_classes); i++)
		if (pci_class >> 8 == gpu_classes[i])
			return true;
	return false;
}

/* n hex digits at s (exactly n, or at least n when more is set); where they end, NULL if not. */
static const char *hex_run(const char *s, size_t n, bool more)
{
	size_t k = 0;

	while ((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f') || (s[k] >= 'A' && s[k] <= 'F'))
		k++;
	if (k < n || (!more && k != n))
		return NULL;
	return s + k;
}

bool pci_is_func_name(const char *name)
{
	const char *s = hex_run(name, 4, true);

	if (!s || *s++ != ':' || !(s = hex_run(s, 2, false)) || *s++ != ':' || !(s = hex_run(s, 2, false)) ||
	    *s++ != '.')
		return false;
	return *s >= '0' && *s <= '7' && !s[1];
}
