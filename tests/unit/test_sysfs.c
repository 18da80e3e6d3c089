// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the sysfs parsing helpers: numbers, enums, name ordering. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/sysfs.h"
#include "tap.h"

static void test_parse_u64(void)
{
	uint64_t v = 0;

	ASSERT_EQ_INT(sysfs_parse_u64("42\n", &v), 0, "decimal with newline parses");
	ASSERT_EQ_U64(v, 42, "decimal value");
	ASSERT_EQ_INT(sysfs_parse_u64("0x2651e84a", &v), 0, "hex parses");
	ASSERT_EQ_U64(v, 0x2651e84aULL, "hex value");
	ASSERT_EQ_INT(sysfs_parse_u64("18446744073709551615", &v), 0, "2^64-1 parses");
	ASSERT_EQ_U64(v, UINT64_MAX, "2^64-1 value");
	ASSERT_EQ_INT(sysfs_parse_u64("18446744073709551616", &v), -ERANGE, "2^64 is out of range");
	ASSERT_EQ_INT(sysfs_parse_u64("99999999999999999999999", &v), -ERANGE, "huge is out of range");
	ASSERT_EQ_INT(sysfs_parse_u64("-1", &v), -EINVAL, "negative is garbage");
	ASSERT_EQ_INT(sysfs_parse_u64("", &v), -EINVAL, "empty is garbage");
	ASSERT_EQ_INT(sysfs_parse_u64("N/A (no PMA)", &v), -EINVAL, "N/A is not a number");
	ASSERT_EQ_INT(sysfs_parse_u64("12abc", &v), -EINVAL, "trailing junk is garbage");
	ASSERT_EQ_INT(sysfs_parse_u64("0x", &v), -EINVAL, "bare 0x is garbage");
}

static void test_parse_enum(void)
{
	const char *t;

	ASSERT_EQ_INT(sysfs_parse_enum("4: ACTIVE", &t), 4, "state number");
	ASSERT_EQ_STR(t, "ACTIVE", "state text");
	ASSERT_EQ_INT(sysfs_parse_enum("5: LinkUp", &t), 5, "phys_state number");
	ASSERT_EQ_INT(sysfs_parse_enum("ACTIVE", &t), -1, "no number");
	ASSERT_EQ_STR(t, "ACTIVE", "text kept when no number");
	ASSERT_EQ_INT(sysfs_parse_enum("9999999999: X", &t), -1, "absurd number rejected");
}

static void test_read_and_list(void)
{
	char dir[] = "/tmp/fabtop-unit.XXXXXX", buf[16], **names;
	int dfd, fd, n;
	ssize_t r;

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = openat(dfd, "a", O_WRONLY | O_CREAT, 0644);
	r = write(fd, "  7 \n\n", 6);
	(void)r;
	close(fd);
	fd = openat(dfd, "big", O_WRONLY | O_CREAT, 0644);
	r = write(fd, "0123456789abcdefXYZ", 19);
	close(fd);
	mkdirat(dfd, "sub", 0755);
	mkfifoat(dfd, "fifo", 0644);
	mkdirat(dfd, "n", 0755);
	for (int i = 0; i < 12; i++) {
		char p[16];

		snprintf(p, sizeof(p), "n/%d", i);
		close(openat(dfd, p, O_WRONLY | O_CREAT, 0644));
	}

	r = sysfs_read_str(dfd, "a", buf, sizeof(buf));
	ASSERT_EQ_INT(r, 3, "trailing whitespace stripped");
	ASSERT_EQ_STR(buf, "  7", "value kept");
	ASSERT_EQ_INT(sysfs_read_str(dfd, "big", buf, sizeof(buf)), -EFBIG, "too long is EFBIG");
	ASSERT_EQ_INT(sysfs_read_str(dfd, "sub", buf, sizeof(buf)), -EISDIR, "directory is refused");
	r = sysfs_read_str(dfd, "fifo", buf, sizeof(buf));
	TAP_OK(r <= 0 && !buf[0], "fifo reads as nothing, without hanging (rc %zd, %zu bytes)", r, strlen(buf));
	ASSERT_EQ_INT(sysfs_read_str(dfd, "missing", buf, sizeof(buf)), -ENOENT, "missing is ENOENT");
	n = sysfs_list(dfd, "n", &names, 100);
	ASSERT_EQ_INT(n, 12, "list count");
	if (n == 12) {
		ASSERT_EQ_STR(names[1], "1", "numeric order 1");
		ASSERT_EQ_STR(names[2], "2", "numeric order: 2 before 10");
		ASSERT_EQ_STR(names[11], "11", "numeric order last");
	}
	sysfs_names_free(names, n);
	n = sysfs_list(dfd, "n", &names, 5);
	ASSERT_EQ_INT(n, 5, "list honours max");
	sysfs_names_free(names, n);
	close(dfd);
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		int status = system(cmd);

		if (status)
			TAP_OK(0, "cleanup: %s gave status %d", cmd, status);

	}
}

int main(void)
{
	test_parse_u64();
	test_parse_enum();
	test_read_and_list();
	return tap_done();
}
