// SPDX-License-Identifier: GPL-2.0-or-later
/* One gzip member from parts deflated apart: zlib's inflate reads it whole; Accept-Encoding's q-values. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export/gzip.h"
#include "tap.h"

/* header + body + gzip_finish(tail), inflated as gzip (one member); NULL: not a valid member. */
static char *member_text(const struct gzip_part *body, const char *tail, size_t *len)
{
	unsigned char *end, *m;
	size_t end_len, mlen, size = body->text_len + strlen(tail) + 1;
	char *out = malloc(size);
	z_stream z = { 0 };
	int rc;

	if (gzip_finish(body, tail, strlen(tail), &end, &end_len))
		return NULL;
	mlen = GZIP_HEADER_LEN + body->len + end_len;
	m = malloc(mlen);
	memcpy(m, gzip_header, GZIP_HEADER_LEN);
	memcpy(m + GZIP_HEADER_LEN, body->data, body->len);
	memcpy(m + GZIP_HEADER_LEN + body->len, end, end_len);
	free(end);
	inflateInit2(&z, 16 + 15);	/* gzip only: the trailer's CRC and length are checked */
	z.next_in = m;
	z.avail_in = (uInt)mlen;
	z.next_out = (unsigned char *)out;
	z.avail_out = (uInt)size;
	rc = inflate(&z, Z_FINISH);
	/* One member: it ends where the bytes end. */
	if (rc != Z_STREAM_END || z.avail_in) {
		free(out);
		out = NULL;
	}
	*len = size - z.avail_out;
	inflateEnd(&z);
	free(m);
	return out;
}

static void check_member(const struct gzip_part *body, const char *head, const char *tail, const char *desc)
{
	size_t len;
	char *got = member_text(body, tail, &len), *want;

	if (asprintf(&want, "%s%s", head, tail) < 0)
		abort();
	TAP_OK(got && len == strlen(want) && !memcmp(got, want, len), "%s: inflates to the text (%zu bytes)", desc,
	       strlen(want));
	free(got);
	free(want);
}

static void test_member(void)
{
	struct gzip_part a, b, ab, empty;
	size_t big_len = 3 << 20;
	char *big = malloc(big_len + 1);

	/* Text like a page's: repeated label sets, changing values, past deflate's 32 KiB window. */
	for (size_t i = 0, n = 0; n < big_len; i++)
		n += (size_t)snprintf(big + n, big_len + 1 - n, "m{node=\"n%zu\",port=\"%zu\"} %zu\n", i / 36, i % 36,
				      i * 7919 % 100003);
	ASSERT_EQ_INT(gzip_part_make(&a, "# host\nfabtop_up 1\n", 19, 1), 0, "the host's part");
	ASSERT_EQ_INT(gzip_part_make(&b, big, big_len, 1), 0, "a 3 MiB part");
	TAP_OK(b.len < big_len / 4, "it compresses (%zu -> %zu bytes)", big_len, b.len);
	ASSERT_EQ_INT(gzip_part_join(&ab, &a, &b), 0, "joined");
	ASSERT_EQ_U64(ab.text_len, 19 + big_len, "the joined part counts both texts");

	char *want = malloc(19 + big_len + 1);

	memcpy(want, "# host\nfabtop_up 1\n", 19);
	memcpy(want + 19, big, big_len + 1);
	check_member(&ab, want, "# self\nfabtop_scrapes 1\n# EOF\n", "host + subnet + a tail");
	check_member(&ab, want, "# self\nfabtop_scrapes 2\n# EOF\n", "the same body with another tail");
	check_member(&ab, want, "", "an empty tail");
	ASSERT_EQ_INT(gzip_part_make(&empty, "", 0, 1), 0, "an empty part");
	check_member(&empty, "", "x 1\n", "an empty body");
	gzip_part_free(&empty);
	ASSERT_EQ_INT(gzip_part_make(&empty, NULL, 0, 1), 0, "no text at all (a part never rendered)");
	check_member(&empty, "", "x 1\n", "... makes an empty body");
	free(want);

	/* A body deflated to its end (Z_FINISH) is no part: the tail after it would be lost. */
	unsigned char *fin;
	size_t fin_len;
	struct gzip_part finished = a;

	/* gzip_finish() of an empty body makes the "last" blocks of a: laid before a tail they end the stream. */
	ASSERT_EQ_INT(gzip_finish(&(struct gzip_part){ 0 }, "# host\nfabtop_up 1\n", 19, &fin, &fin_len), 0,
		      "a text deflated to its end");
	finished.data = fin;
	finished.len = fin_len - 8;
	size_t len;
	char *got = member_text(&finished, "tail\n", &len);

	ASSERT_NULL(got, "a part that ends the stream makes no valid member with a tail after it");
	free(got);
	free(fin);
	gzip_part_free(&a);
	gzip_part_free(&b);
	gzip_part_free(&ab);
	gzip_part_free(&empty);
	ASSERT_NULL(ab.data, "a freed part is empty");
	free(big);
}

static void test_accepted(void)
{
	static const struct {
		const char *header;
		bool want;
	} cases[] = {
		{ NULL, false },
		{ "", false },
		{ "gzip", true },
		{ "GZip", true },
		{ "x-gzip", true },
		{ "gzip, deflate, br", true },
		{ "deflate, gzip;q=1.0, *;q=0.5", true },
		{ "br;q=1.0, gzip;q=0.8, *;q=0.1", true },	/* Firefox */
		{ "gzip;q=0", false },
		{ "gzip;q=0.0", false },
		{ "gzip ; q=0.000", false },
		{ "gzip;Q=0", false },
		{ "gzip;q=0.001", true },
		{ "gzip;q=0, *", false },		/* named: * does not count for it */
		{ "*", true },
		{ "*;q=0", false },
		{ "identity", false },
		{ "deflate, br", false },
		{ "gzipx", false },
		{ "xgzip", false },
		{ "gzip;q=2", false },			/* not a qvalue: refused */
		{ "gzip;q=", false },
		{ "gzip;q=0.5x", false },
		{ "gzip;level=1;q=0.5", true },
		{ "  gzip  ", true },
		{ ",,gzip,,", true },
		{ "identity;q=1, gzip;q=0", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ASSERT_EQ_INT(gzip_accepted(cases[i].header), cases[i].want, cases[i].header ? cases[i].header : "(none)");
}

int main(void)
{
	test_member();
	test_accepted();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
