// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: MAD replies from the fabric (any node may answer anything) through every decoder. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "derive/mad_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t attrs[] = {
		MAD_ATTR_CLASS_PORT_INFO, MAD_ATTR_NODE_DESC, MAD_ATTR_NODE_INFO, MAD_ATTR_PORT_INFO,
		MAD_ATTR_SM_INFO, MAD_ATTR_PORT_COUNTERS, MAD_ATTR_PORT_COUNTERS_EXT, MAD_ATTR_LFT,
	};
	struct mad_hdr hdr;
	struct mad_node_info ni;
	struct mad_port_info pi;
	struct mad_sm_info si;
	struct mad_class_port_info cpi;
	struct mad_pma_counters pc;
	struct mad_switch_info swi;
	uint8_t port;
	uint16_t lid;
	char desc[65];

	mad_decode_hdr(data, size, &hdr);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		const uint8_t *d;
		size_t dl;

		if (mad_decode_reply_data(data, size, attrs[i], &d, &dl, &hdr))
			continue;
		mad_decode_node_info(d, dl, &ni);
		mad_decode_port_info(d, dl, &pi);
		mad_decode_sm_info(d, dl, &si);
		mad_decode_class_port_info(d, dl, &cpi);
		mad_decode_port_counters(d, dl, &pc);
		mad_decode_port_counters_ext(d, dl, &pc);
		mad_decode_node_desc(d, dl, desc, sizeof(desc));
		mad_decode_switch_info(d, dl, &swi);
		mad_decode_lft_port(d, dl, (uint16_t)size, &port);
		mad_decode_node_record(d, dl, &lid, &ni, desc, sizeof(desc));
	}
	/* the data part alone, as a decoder sees it */
	mad_decode_port_info(data, size, &pi);
	mad_decode_node_desc(data, size, desc, sizeof(desc));
	return 0;
}
