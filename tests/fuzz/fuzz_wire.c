// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the probe's wire messages (hello, accept, reject, data, rping's own) from a peer's bytes. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "probe/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_rping_info ri;
	struct wire_hello h;
	struct wire_accept a;
	struct wire_reject r;
	struct wire_msg m;
	uint64_t ping;

	wire_rping_info_parse(data, size, &ri);
	wire_rping_payload_check(data, size, &ping);
	if (wire_hello_parse(data, size, &h) == WIRE_OK) {
		uint8_t again[WIRE_HELLO_LEN];

		/* what parses packs back to something that parses the same */
		wire_hello_pack(&h, again);
		if (wire_hello_parse(again, sizeof(again), &h) != WIRE_OK)
			__builtin_trap();
	}
	wire_accept_parse(data, size, &a);
	wire_reject_parse(data, size, &r);
	wire_msg_parse(data, size, &m);
	return 0;
}
