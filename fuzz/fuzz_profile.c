/*
 * Fuzzes the profile parser (name=value text and OPNsense config.xml) and the lint over
 * it; and tuned.conf includes over profiles held in the input itself: "\n%%% NAME\n"
 * starts the profile /fuzz/NAME/tuned.conf, the text before the first one is
 * /fuzz/main/tuned.conf. Nothing is read from the file system.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MARK	"\n%%% "

/* The profile at path, if the input holds it (a kb_profile_reader's read). */
static int
read_input(void *arg, const char *path, char **text, size_t *len)
{
	const char *all = arg, *s, *name, *nl, *end;
	size_t n;

	if (strncmp(path, "/fuzz/", 6) != 0)
		return -1;
	for (s = strstr(all, MARK); s != NULL; s = strstr(s + 1, MARK)) {
		name = s + strlen(MARK);
		if ((nl = strchr(name, '\n')) == NULL)
			return -1;
		n = (size_t)(nl - name);
		if (strncmp(path + 6, name, n) != 0 || strcmp(path + 6 + n, "/tuned.conf") != 0)
			continue;
		end = strstr(nl, MARK);
		end = end != NULL ? end : nl + strlen(nl);
		*len = (size_t)(end - (nl + 1 > end ? end : nl + 1));
		*text = xmalloc(*len + 1);
		memcpy(*text, nl + 1 > end ? end : nl + 1, *len);
		(*text)[*len] = '\0';
		return 0;
	}
	return -1;
}

/* The main profile read with its includes: every entry and note names a file it read. */
static void
tuned_includes(const struct kb *kb, const char *text)
{
	struct kb_profile_reader rd = { read_input, (void *)text, "/fuzz-root" };
	const char *mark = strstr(text, MARK);
	size_t len = mark != NULL ? (size_t)(mark - text) : strlen(text), i, j;
	struct kb_profile *p;
	struct kb_diag *d;
	char *cause = NULL;

	if ((p = kb_profile_parse_from("/fuzz/main/tuned.conf", text, len, &rd, true, &cause)) ==
	    NULL) {
		free(cause);
		return;
	}
	for (i = 0; i < p->nentries; i++) {
		if (p->entries[i].line < 1 || p->entries[i].file == NULL)
			abort();
		for (j = 0; j < p->nfiles && p->entries[i].file != p->files[j]; j++)
			;
		if (p->entries[i].file != p->path && j == p->nfiles)
			abort();
	}
	for (i = 0; i < p->nnotes; i++) {
		if (p->notes[i].file != NULL && strncmp(p->notes[i].file, "/fuzz/", 6) != 0)
			abort();
	}
	if (kb != NULL) {
		kb_check(kb, p, NULL, kb_target_guess(p, OS_PLATFORM_LINUX), &d, &i);
		kb_diags_free(d, i);
	}
	kb_profile_free(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct kb *kb;
	static int loaded;
	struct kb_profile *p;
	struct kb_system sys;
	struct kb_diag *d;
	size_t n, i;
	char *text, *cause = NULL;

	if (!loaded) {
		loaded = 1;
		if (kb_load(NTUNE_SRCDIR "/share/knobs", &kb, NULL) == -1)
			kb = NULL;
	}
	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	/* The `sysctl -a` dump reading (ntune diff) on the same input. */
	if ((p = kb_profile_parse_dump("fuzz.txt", text, len, &cause)) != NULL) {
		for (i = 0; i < p->nentries; i++)
			if (p->entries[i].name[0] == '\0' || p->entries[i].value == NULL)
				abort();
		kb_profile_free(p);
	}
	free(cause);
	cause = NULL;
	tuned_includes(kb, text);
	p = kb_profile_parse("fuzz.conf", text, len, &cause);
	if (p == NULL) {
		free(cause);
		free(text);
		return 0;
	}
	for (i = 0; i < p->nentries; i++) {
		if (p->entries[i].name[0] == '\0' || p->entries[i].line < 1)
			abort();
		kb_profile_get(p, p->entries[i].name);
	}
	if (kb != NULL) {
		memset(&sys, 0, sizeof sys);
		sys.platform = kb_os_guess(kb, p);
		sys.ncpu = 8;
		sys.smt = -1;
		sys.rss_kernel = -1;
		kb_check(kb, p, &sys, kb_target_guess(p, sys.platform), &d, &n);
		kb_diags_free(d, n);
	}
	kb_profile_free(p);
	free(text);
	return 0;
}
