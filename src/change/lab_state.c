// SPDX-License-Identifier: GPL-2.0-or-later
/* The real lab's state file, parsed strictly: only the lab's own objects come out (doc/lab.md). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change/lab_state.h"

static const char *const kind_word[] = {
	[LAB_NETNS] = "netns", [LAB_LINK] = "link", [LAB_RXE] = "rxe",
	[LAB_RULE_L3MDEV] = "rule-l3mdev", [LAB_RULE_UDP] = "rule-udp",
	[LAB_LOCAL_RULE] = "local-rule", [LAB_SYSCTL] = "sysctl", [LAB_LISTENER] = "listener",
};

/* A name the lab may have made: its prefix, then letters, digits, '-' and '_' only. */
static bool lab_name(const char *s)
{
	size_t len = strlen(s);

	if (len < 4 || len >= LAB_NAME_LEN || (strncmp(s, "fl-", 3) && strncmp(s, "fl_", 3)))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '-' || s[i] == '_'))
			return false;
	return true;
}

static bool number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || s[0] < '0' || s[0] > '9')
		return false;
	*out = strtoul(s, &end, 10);
	return !*end && *out <= max;
}

/* One line (already cut at its end) into o; false when it is not a lab object. */
static bool parse_line(char *line, struct lab_obj *o)
{
	char *save = NULL, *w[4] = { NULL };
	size_t nw = 0, k;

	for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (nw == 4)
			return false;
		w[nw++] = t;
	}
	for (k = 0; k < sizeof(kind_word) / sizeof(kind_word[0]); k++)
		if (nw && !strcmp(w[0], kind_word[k]))
			break;
	if (k == sizeof(kind_word) / sizeof(kind_word[0]))
		return false;
	memset(o, 0, sizeof(*o));
	o->kind = (enum lab_kind)k;
	switch (o->kind) {
	case LAB_NETNS: case LAB_LINK: case LAB_RXE:
		if (nw != 2 || !lab_name(w[1]))
			return false;
		break;
	case LAB_RULE_L3MDEV: case LAB_RULE_UDP: case LAB_LOCAL_RULE:
		return nw == 1;
	case LAB_SYSCTL:
		return nw == 3 && !strcmp(w[1], "udp_l3mdev_accept") && number(w[2], 1, &o->num);
	case LAB_LISTENER:
		if (nw != 2 || !number(w[1], 4194304, &o->num) || o->num < 2)
			return false;
		return true;
	}
	if (nw >= 2)
		snprintf(o->name, sizeof(o->name), "%s", w[1]);
	return true;
}

struct lab_obj *lab_state_parse(const char *text, size_t *n, size_t *bad, size_t *first_bad)
{
	struct lab_obj *v = NULL;
	size_t lineno = 0;

	*n = *bad = *first_bad = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char line[128];
		struct lab_obj o, *grown;

		lineno++;
		if (len && text[0] == '#') {
			text += len + (nl ? 1 : 0);
			continue;
		}
		if (len >= sizeof(line) || !len || memchr(text, '\0', len)) {
			if (len) {
				(*bad)++;
				if (!*first_bad)
					*first_bad = lineno;
			}
			text += len + (nl ? 1 : 0);
			continue;
		}
		memcpy(line, text, len);
		line[len] = '\0';
		text += len + (nl ? 1 : 0);
		if (!parse_line(line, &o)) {
			(*bad)++;
			if (!*first_bad)
				*first_bad = lineno;
			continue;
		}
		grown = realloc(v, (*n + 1) * sizeof(*v));
		if (!grown) {
			free(v);
			*n = 0;
			return NULL;
		}
		v = grown;
		v[(*n)++] = o;
	}
	return v;
}

bool lab_state_format(const struct lab_obj *o, char *buf, size_t size)
{
	int w;

	switch (o->kind) {
	case LAB_RULE_L3MDEV: case LAB_RULE_UDP: case LAB_LOCAL_RULE:
		w = snprintf(buf, size, "%s", kind_word[o->kind]);
		break;
	case LAB_SYSCTL:
		w = snprintf(buf, size, "%s udp_l3mdev_accept %lu", kind_word[o->kind], o->num);
		break;
	case LAB_LISTENER:
		w = snprintf(buf, size, "%s %lu", kind_word[o->kind], o->num);
		break;
	default:
		w = snprintf(buf, size, "%s %s", kind_word[o->kind], o->name);
		break;
	}
	return w > 0 && (size_t)w < size;
}
