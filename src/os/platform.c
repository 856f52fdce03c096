/* The platform table and the evidence that names a FreeBSD distribution. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "os/platform.h"
#include "util/util.h"

/*
 * The first row of a platform gives its name and label; a later row with the
 * same platform is an alias: parsed and found in text, never printed.
 */
static const struct {
	enum os_platform p;
	const char *name;
	const char *label;
	enum os_platform family;
} table[] = {
	{ OS_PLATFORM_FREEBSD, "freebsd", "FreeBSD", OS_PLATFORM_FREEBSD },
	{ OS_PLATFORM_OPNSENSE, "opnsense", "OPNsense", OS_PLATFORM_FREEBSD },
	{ OS_PLATFORM_PFSENSE, "pfsense", "pfSense", OS_PLATFORM_FREEBSD },
	{ OS_PLATFORM_LINUX, "linux", "Linux", OS_PLATFORM_LINUX },
	/* Aliases. */
	{ OS_PLATFORM_PFSENSE, "pfsense-plus", "pfSense Plus", OS_PLATFORM_FREEBSD },
};

enum os_platform
os_platform_parse(const char *s)
{
	size_t i;

	if (s == NULL)
		return OS_PLATFORM_UNKNOWN;
	for (i = 0; i < nitems(table); i++) {
		if (strcasecmp(s, table[i].name) == 0)
			return table[i].p;
	}
	return OS_PLATFORM_UNKNOWN;
}

const char *
os_platform_name(enum os_platform p)
{
	size_t i;

	for (i = 0; i < nitems(table); i++) {
		if (table[i].p == p)
			return table[i].name;
	}
	return "unknown";
}

const char *
os_platform_label(enum os_platform p)
{
	size_t i;

	for (i = 0; i < nitems(table); i++) {
		if (table[i].p == p)
			return table[i].label;
	}
	return "unknown";
}

enum os_platform
os_platform_family(enum os_platform p)
{
	size_t i;

	for (i = 0; i < nitems(table); i++) {
		if (table[i].p == p)
			return table[i].family;
	}
	return OS_PLATFORM_UNKNOWN;
}

bool
os_platform_is_distro(enum os_platform p)
{
	return p != OS_PLATFORM_UNKNOWN && os_platform_family(p) != p;
}

const char *
os_platform_list(void)
{
	static char list[128];
	size_t i, n = 0;

	for (i = 0; i < nitems(table) && n < sizeof list; i++) {
		if (strcmp(os_platform_name(table[i].p), table[i].name) != 0)
			continue;	/* an alias */
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n > 0 ? ", " : "",
		    table[i].name);
	}
	return list;
}

enum os_platform
os_platform_of_uname(const char *s)
{
	enum os_platform p;
	char word[32];
	size_t n;

	if (s == NULL)
		return OS_PLATFORM_UNKNOWN;
	n = strcspn(s, " \t\r\n");
	if (n >= sizeof word)
		return OS_PLATFORM_UNKNOWN;
	memcpy(word, s, n);
	word[n] = '\0';
	/* as uname spells it: a family's own label, never a distribution's */
	p = os_platform_parse(word);
	return p == os_platform_family(p) && strcmp(word, os_platform_label(p)) == 0 ? p :
	    OS_PLATFORM_UNKNOWN;
}

enum os_platform
os_platform_in_text(const char *s)
{
	size_t i;

	if (s == NULL)
		return OS_PLATFORM_UNKNOWN;
	for (i = 0; i < nitems(table); i++) {
		if (os_platform_is_distro(table[i].p) && (strstr(s, table[i].label) != NULL ||
		    strstr(s, table[i].name) != NULL))
			return table[i].p;
	}
	return OS_PLATFORM_UNKNOWN;
}

enum os_platform
os_platform_from_root(const char *root, char *why, size_t n)
{
	char path[4096], line[256] = "";
	enum os_platform p;

	if (root == NULL)
		root = "";
	snprintf(path, sizeof path, "%s/usr/local/opnsense/version", root);
	if (access(path, F_OK) == 0) {
		if (why != NULL)
			snprintf(why, n, "%s exists", path);
		return OS_PLATFORM_OPNSENSE;
	}
	snprintf(path, sizeof path, "%s/etc/platform", root);
	if (util_read_line(path, line, sizeof line, NULL) == 0 &&
	    (p = os_platform_in_text(line)) != OS_PLATFORM_UNKNOWN) {
		if (why != NULL)
			snprintf(why, n, "%s says '%s'", path, line);
		return p;
	}
	return OS_PLATFORM_UNKNOWN;
}
