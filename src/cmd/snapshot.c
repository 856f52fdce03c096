/*
 * ntune snapshot: everything inspect sees, plus the raw counters and every
 * sysctl under net., vm. (Linux) or net., kern., hw., dev., vm., machdep.
 * (FreeBSD), as one JSON document that `ntune inspect --from` reads anywhere.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/osdoc.h"
#include "os/collect.h"
#include "util/util.h"

static void
add_boot_file(json_t *files, const char *root, const char *path)
{
	char *full, *text, *cause = NULL;
	size_t len;

	xasprintf(&full, "%s%s", root, path);
	if (util_read_file(full, &text, &len, &cause) == 0) {
		/* Boot files are small text; a huge or binary one is not a boot file. */
		if (len <= 1024 * 1024 && strlen(text) == len)
			json_array_append_new(files, json_pack("{s:s, s:s}", "path", path, "text", text));
		free(text);
	}
	free(cause);
	free(full);
}

static int
namecmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The files the OS re-applies at boot (sysctl.d, sysctl.conf, loader.conf), so that
 * `ntune check --from` can warn where another file sets a knob to another value.
 */
static json_t *
boot_files(const char *backend, const char *root)
{
	static const char *const linux_dirs[] = {
		"/usr/lib/sysctl.d", "/run/sysctl.d", "/etc/sysctl.d",
	};
	static const char *const bsd_files[] = {
		"/boot/loader.conf", "/boot/loader.conf.local", "/etc/sysctl.conf",
		"/etc/sysctl.conf.local",
	};
	json_t *files = json_array();
	struct dirent *de;
	char *dir, *path, **names;
	size_t i, j, n;
	DIR *d;

	if (strcmp(backend, "linux") != 0) {
		for (i = 0; i < nitems(bsd_files); i++)
			add_boot_file(files, root, bsd_files[i]);
		return files;
	}
	for (i = 0; i < nitems(linux_dirs); i++) {
		xasprintf(&dir, "%s%s", root, linux_dirs[i]);
		d = opendir(dir);
		free(dir);
		if (d == NULL)
			continue;
		names = NULL;
		n = 0;
		while ((de = readdir(d)) != NULL) {
			if (strlen(de->d_name) < 6 ||
			    strcmp(de->d_name + strlen(de->d_name) - 5, ".conf") != 0)
				continue;
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrdup(de->d_name);
		}
		closedir(d);
		if (n > 1)
			qsort(names, n, sizeof *names, namecmp);
		for (j = 0; j < n; j++) {
			xasprintf(&path, "%s/%s", linux_dirs[i], names[j]);
			add_boot_file(files, root, path);
			free(path);
			free(names[j]);
		}
		free(names);
	}
	add_boot_file(files, root, "/etc/sysctl.conf");
	return files;
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "from", required_argument, NULL, 'f' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	const char *out = NULL, **from = NULL, *root;
	size_t nfrom = 0;
	struct os_ctx *ctx;
	char *cause = NULL, *text;
	json_t *doc;
	char *arg;
	int ch, rc;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'o':
			out = arg;
			break;
		case 'f':
			from = xreallocarray(from, nfrom + 1, sizeof *from);
			from[nfrom++] = arg;
			break;
		}
	}
	ctx = cmd_os_open(&cmd_snapshot, from, nfrom);
	free(from);
	if (ctx == NULL)
		return 2;
	/* the boot files are read under the same captured tree */
	root = os_target_root();
	if ((doc = cmd_os_document(&cmd_snapshot, ctx, OS_COLLECT_SNAPSHOT)) == NULL) {
		os_close(ctx);
		return 2;
	}
	if (nfrom == 0)
		json_object_set_new(doc, "boot_files", boot_files(os_backend_name(ctx), root));
	os_close(ctx);
	text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	rc = 0;
	if (out == NULL || strcmp(out, "-") == 0) {
		fputs(text, stdout);
		putchar('\n');
		if (fflush(stdout) != 0) {
			cmd_error(&cmd_snapshot, 0, "cannot write to stdout");
			rc = 2;
		}
	} else {
		size_t len = strlen(text);

		text[len] = '\n';
		if (util_write_file_atomic(out, text, len + 1, 0644, &cause) != 0) {
			cmd_error(&cmd_snapshot, 0, "%s", cause);
			free(cause);
			rc = 2;
		}
		text[len] = '\0';
	}
	free(text);
	if (cmd_os_errors(&cmd_snapshot, doc) > 0 && rc == 0)
		rc = 1;
	json_decref(doc);
	return rc;
}

const struct ntune_cmd cmd_snapshot = {
	.name = "snapshot",
	.summary = "save everything inspect sees, plus all network sysctls, as JSON",
	.usage = "snapshot [-o FILE] [--from FILE]...",
	.optstring = "o:f:",
	.longopts = longopts,
	.max_args = 0,
	.run = run,
};
