/*
 * Fuzzes the parsers of a Linux capture's ethtool, tc and /proc sections
 * (src/remote/capture_facts.c): the first byte picks the section (ethtool -i, -g, -l,
 * -c, -k, -a, tc qdisc show, napi threads, netns, sysctl file modes), the rest is its text;
 * the NAPI list is then asked for two interfaces.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/capture_facts.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
mode(void *arg, const char *path, int m)
{
	(void)arg;
	return path[0] == '/' && m >= 0 ? 0 : -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char opts[] = "iglcka";
	struct capture_facts f;
	const char *text = (const char *)data + 1;
	char *cause = NULL, name[64], *v;
	size_t len;
	unsigned k;

	if (size == 0 || memchr(data, '\0', size) != NULL)
		return 0;
	k = data[0] % 10;
	len = size - 1;
	memset(&f, 0, sizeof f);
	if (k < 6)
		(void)capture_facts_ethtool(&f, opts[k], "fuzz", text, len, &cause);
	else if (k == 6)
		(void)capture_facts_qdisc(&f, "fuzz", text, len, &cause);
	else if (k == 7 && capture_facts_napi(&f, "fuzz", text, len, &cause) == 0) {
		free(capture_facts_napi_cpus(&f, "eth0", "1", "0-3"));
		v = capture_facts_napi_cpus(&f, "enp3s0f0np1", NULL, "0");
		free(v);
	} else if (k == 8)
		(void)capture_facts_netns("fuzz", text, len, name, sizeof name, &cause);
	else if (k == 9)
		(void)capture_facts_modes("fuzz", text, len, mode, NULL, &cause);
	free(cause);
	capture_facts_free(&f);
	return 0;
}
