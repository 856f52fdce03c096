/*
 * Persistence writers: the files an OS reads at boot, each with one block ntune
 * owns between marker lines (Linux: the whole /etc/sysctl.d/90-ntune.conf).
 *   FreeBSD, pfSense: loader tunables -> /boot/loader.conf.local (name="value"),
 *                     runtime sysctls  -> /etc/sysctl.conf.local (name=value).
 *   OPNsense:         every tunable    -> /boot/loader.conf.local, as OPNsense
 *                     itself puts all of System > Tunables into loader.conf.
 *   Linux:            sysctls          -> /etc/sysctl.d/90-ntune.conf; if.* and
 *                     cpu.governor have no such file and are listed as not persisted.
 */
#include <sys/utsname.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "kb/kb.h"
#include "util/util.h"


bool
apply_os_is_bsd(const char *os)
{
	return os_platform_family(os_platform_parse(os)) == OS_PLATFORM_FREEBSD;
}

const char *
apply_detect_os(void)
{
	struct utsname u;
	enum os_platform p;

	if (uname(&u) == 0 && os_platform_parse(u.sysname) == OS_PLATFORM_FREEBSD) {
		p = os_platform_from_root("", NULL, 0);
		return os_platform_name(p != OS_PLATFORM_UNKNOWN ? p : OS_PLATFORM_FREEBSD);
	}
	return os_platform_name(OS_PLATFORM_LINUX);
}

char *
apply_replace_block(const char *text, const char *block)
{
	struct strbuf sb;
	const char *begin, *end, *after;

	strbuf_init(&sb);
	if (text == NULL)
		text = "";
	begin = strstr(text, APPLY_BLOCK_BEGIN);
	if (begin != NULL && (begin == text || begin[-1] == '\n') &&
	    (end = strstr(begin, APPLY_BLOCK_END)) != NULL) {
		after = end + strlen(APPLY_BLOCK_END);
		if (*after == '\n')
			after++;
		strbuf_add(&sb, text, begin - text);
		if (block != NULL)
			strbuf_addf(&sb, "%s\n%s%s\n", APPLY_BLOCK_BEGIN, block, APPLY_BLOCK_END);
		strbuf_adds(&sb, after);
	} else {
		strbuf_adds(&sb, text);
		if (block != NULL) {
			if (sb.len > 0 && sb.buf[sb.len - 1] != '\n')
				strbuf_addc(&sb, '\n');
			strbuf_addf(&sb, "%s\n%s%s\n", APPLY_BLOCK_BEGIN, block, APPLY_BLOCK_END);
		}
	}
	if (sb.buf == NULL)
		return xstrdup("");
	return strbuf_detach(&sb);
}

static void
file_free(void *p)
{
	struct apply_file *f = p;

	free(f->path);
	free(f->text);
}

void
apply_files_free(struct apply_file *f, size_t n)
{
	util_array_free(f, n, sizeof *f, file_free);
}

/* The text inside ntune's block of text, or NULL. */
static char *
block_of(const char *text)
{
	const char *begin, *end;

	if (text == NULL || (begin = strstr(text, APPLY_BLOCK_BEGIN)) == NULL ||
	    (end = strstr(begin, APPLY_BLOCK_END)) == NULL)
		return NULL;
	begin += strlen(APPLY_BLOCK_BEGIN);
	if (*begin == '\n')
		begin++;
	return xstrndup(begin, end > begin ? (size_t)(end - begin) : 0);
}

/*
 * Adds the file rel (under root) with ntune's block holding what an earlier
 * apply left there plus lines (name, value pairs), the later value winning.
 */
static int
add_file(struct apply_file **files, size_t *n, const char *root, const char *rel,
    char **names, char **values, size_t nlines, const char *fmt, char **cause)
{
	struct kb_profile *prev = NULL;
	struct strbuf block;
	char *path, *old = NULL, *inner;
	size_t len, i, j;

	xasprintf(&path, "%s%s", root != NULL ? root : "", rel);
	if (access(path, F_OK) == 0 && util_read_file(path, &old, &len, cause) == -1) {
		free(path);
		return -1;
	}
	strbuf_init(&block);
	if ((inner = block_of(old)) != NULL) {
		prev = kb_profile_parse(path, inner, strlen(inner), NULL);
		free(inner);
	}
	for (i = 0; prev != NULL && i < prev->nentries; i++) {
		for (j = 0; j < nlines; j++) {
			if (strcmp(prev->entries[i].name, names[j]) == 0)
				break;
		}
		if (j == nlines && kb_profile_get(prev, prev->entries[i].name) == &prev->entries[i])
			strbuf_addf(&block, fmt, prev->entries[i].name, prev->entries[i].value);
	}
	kb_profile_free(prev);
	for (j = 0; j < nlines; j++)
		strbuf_addf(&block, fmt, names[j], values[j]);
	*files = xreallocarray(*files, *n + 1, sizeof **files);
	(*files)[*n].path = path;
	(*files)[*n].text = apply_replace_block(old, block.buf != NULL ? block.buf : "");
	(*n)++;
	free(old);
	strbuf_free(&block);
	return 0;
}

#define LOADER_CONF_LOCAL	"/boot/loader.conf.local"
#define LOADER_FMT		"%s=\"%s\"\n"

int
apply_persist_loader(const char *root, char **names, char **values, size_t n,
    struct apply_file **files, size_t *nfiles, char **cause)
{
	*files = NULL;
	*nfiles = 0;
	if (n == 0)
		return 0;
	return add_file(files, nfiles, root, LOADER_CONF_LOCAL, names, values, n, LOADER_FMT, cause);
}

int
apply_persist_files(const struct kb *kb, const struct apply_change *ch, size_t n, const char *os,
    const char *root, const char *netns, struct apply_file **files, size_t *nfiles,
    char ***not_persisted, size_t *nnot, char **cause)
{
	char **ln = NULL, **lv = NULL, **sn = NULL, **sv = NULL;
	size_t nl = 0, nlv = 0, ns = 0, nsv = 0;
	const struct kb_knob *k;
	size_t i;
	bool bsd = apply_os_is_bsd(os), to_loader;
	int rc = 0;

	*files = NULL;
	*nfiles = 0;
	for (i = 0; i < n; i++) {
		if (ch[i].action == APPLY_SKIP_OP || ch[i].action == APPLY_TRIAL_BOOT)
			continue;	/* a trial goes to nextboot(8) (trial.c), not to a boot file */
		k = kb_find(kb, ch[i].name, os);
		if (!bsd) {
			if (util_startswith(ch[i].name, "if.") || util_startswith(ch[i].name, "cpu.") ||
			    (netns != NULL && ch[i].in_netns) ||
			    (k != NULL && k->placement != KB_PLACE_SYSCTL &&
			    k->placement != KB_PLACE_BOTH)) {
				*not_persisted = util_strv_add(*not_persisted, nnot, ch[i].name);
				continue;
			}
			sn = util_strv_add(sn, &ns, ch[i].name);
			sv = util_strv_add(sv, &nsv, ch[i].want);
			continue;
		}
		if (util_startswith(ch[i].name, "if.") || (k != NULL &&
		    k->placement == KB_PLACE_IFCONFIG)) {
			*not_persisted = util_strv_add(*not_persisted, nnot, ch[i].name);
			continue;
		}
		to_loader = os_platform_parse(os) == OS_PLATFORM_OPNSENSE || ch[i].action == APPLY_BOOT_ONLY ||
		    (k != NULL && k->placement == KB_PLACE_LOADER);
		if (to_loader) {
			ln = util_strv_add(ln, &nl, ch[i].name);
			lv = util_strv_add(lv, &nlv, ch[i].want);
		} else {
			sn = util_strv_add(sn, &ns, ch[i].name);
			sv = util_strv_add(sv, &nsv, ch[i].want);
		}
	}
	if (!bsd) {
		if (ns > 0)
			rc = add_file(files, nfiles, root, "/etc/sysctl.d/90-ntune.conf", sn, sv, ns,
			    "%s = %s\n", cause);
	} else {
		if (rc == 0 && nl > 0)
			rc = add_file(files, nfiles, root, LOADER_CONF_LOCAL, ln, lv, nl, LOADER_FMT,
			    cause);
		if (rc == 0 && ns > 0)
			rc = add_file(files, nfiles, root, "/etc/sysctl.conf.local", sn, sv, ns,
			    "%s=%s\n", cause);
	}
	util_strv_free(ln, nl);
	util_strv_free(lv, nlv);
	util_strv_free(sn, ns);
	util_strv_free(sv, nsv);
	if (rc == -1) {
		apply_files_free(*files, *nfiles);
		*files = NULL;
		*nfiles = 0;
	}
	return rc;
}
