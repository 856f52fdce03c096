/*
 * Captures (capture.h): the script that reads a router with its base system only,
 * the parser of what it prints, and the directory form (one file per section).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/os.h"
#include "remote/capture.h"
#include "util/util.h"

#define NAME_MAX_LEN	64

/*
 * The script. @T@ is the token, @S@ the default of SECS; nothing else is put into
 * it. Every section is a fixed command; ROOT ($2 or $NTUNE_ROOT) only ever appears
 * quoted as a path prefix. POSIX sh has no local variables: sec() and put() use names
 * (_sn, _ss, _pv) that no section's function touches. The commands and files are those of the contract
 * (doc/interfaces.md, "Captures"). A command's output that does not end in a
 * newline still leaves the end line on a line of its own: sec() prints one
 * newline before it, and the parser takes that newline away again.
 */
static const char script_text[] =
"#!/bin/sh\n"
"# ntune capture (format 1): prints what ntune reads from this router between\n"
"# lines that start with ::@T@::. It only reads: it writes no file, not even a\n"
"# temporary one, and runs only base-system commands (sh, uname, sysctl, ifconfig,\n"
"# netstat, vmstat, top...). Usage: sh THIS [SECONDS] > capture.txt\n"
"# (the load is sampled for SECONDS, 1 to 3600, default @S@), then read it with\n"
"# `ntune inspect --from capture.txt` or `ntune doctor --from capture.txt`.\n"
"S=${1:-@S@}\n"
"case $S in\n"
"''|*[!0-9]*|?????*) echo \"capture: SECONDS is a whole number from 1 to 3600\" >&2; exit 2 ;;\n"
"esac\n"
"if [ \"$S\" -lt 1 ] || [ \"$S\" -gt 3600 ]; then\n"
"\techo \"capture: SECONDS is a whole number from 1 to 3600\" >&2; exit 2\n"
"fi\n"
"R=${NTUNE_ROOT:-}\n"
"if [ $# -ge 2 ]; then R=$2; fi\n"
"T=@T@\n"
"LC_ALL=C\n"
"export LC_ALL\n"
"PATH=$PATH:/sbin:/bin:/usr/sbin:/usr/bin:/usr/local/sbin:/usr/local/bin\n"
"sec() {\n"
"\t_sn=$1\n"
"\tshift\n"
"\techo \"::$T:: begin $_sn\"\n"
"\t\"$@\"\n"
"\t_ss=$?\n"
"\tprintf '\\n::%s:: end %s %s\\n' \"$T\" \"$_sn\" \"$_ss\"\n"
"}\n"
"file() {\n"
"\tif [ -f \"$R$2\" ] && [ -r \"$R$2\" ]; then sec \"$1\" cat \"$R$2\"; fi\n"
"}\n"
"has() {\n"
"\tcommand -v \"$1\" >/dev/null 2>&1\n"
"}\n"
"bsd_platform() {\n"
"\tr=1\n"
"\tif [ -r \"$R/etc/platform\" ]; then cat \"$R/etc/platform\"; r=$?; fi\n"
"\tif has opnsense-version; then opnsense-version; r=$?; fi\n"
"\treturn $r\n"
"}\n"
"bsd_dmesg() {\n"
"\tif [ -r \"$R/var/run/dmesg.boot\" ]; then cat \"$R/var/run/dmesg.boot\"; else dmesg; fi\n"
"}\n"
"bsd_cpuset_irq() {\n"
"\thas cpuset || return 127\n"
"\tfor i in $(vmstat -i | sed -n 's/^irq\\([0-9][0-9]*\\):.*/\\1/p'); do\n"
"\t\tcpuset -g -x \"$i\" 2>/dev/null\n"
"\tdone\n"
"\treturn 0\n"
"}\n"
"bsd_counters() {\n"
"\tr=0\n"
"\t" OS_FBSD_SAMPLE(" || r=$?\n\t") "\n"
"\treturn $r\n"
"}\n"
"linux_sysctl_d() {\n"
"\tfor f in \"$R\"/etc/sysctl.d/*.conf; do\n"
"\t\t[ -f \"$f\" ] || continue\n"
"\t\techo \"# file: ${f#\"$R\"}\"\n"
"\t\tcat \"$f\" || return\n"
"\t\t[ -z \"$(tail -c 1 \"$f\")\" ] || echo\n"
"\tdone\n"
"}\n"
"linux_nic() {\n"
"\tv=${1#\"$R\"}\n"
"\techo \"::D $v\"\n"
"\tfor q in \"$1\"/queues/*; do\n"
"\t\t[ -d \"$q\" ] && echo \"::D $v/queues/${q##*/}\"\n"
"\tdone\n"
"\t[ -e \"$1/device\" ] || return 0\n"
"\td=$(cd -P \"$1/device\" && pwd -P) || return 0\n"
"\tp=${d%/*}\n"
"\tw=$v/${p##*/}/${d##*/}\n"
"\techo \"::D $w\"\n"
"\techo \"::L $v/device -> ${p##*/}/${d##*/}\"\n"
"\tfor a in vendor device numa_node; do\n"
"\t\t[ -r \"$d/$a\" ] && printf '::F %s\\n%s\\n' \"$w/$a\" \"$(cat \"$d/$a\")\"\n"
"\t\t[ -r \"$p/$a\" ] && printf '::F %s\\n%s\\n' \"${w%/*}/$a\" \"$(cat \"$p/$a\")\"\n"
"\tdone\n"
"\tfor a in driver subsystem; do\n"
"\t\tif [ -L \"$d/$a\" ]; then echo \"::L $w/$a -> $(readlink \"$d/$a\")\"; fi\n"
"\tdone\n"
"\tfor m in \"$d\"/msi_irqs/*; do [ -e \"$m\" ] && printf '::F %s\\n\\n' \"$w/msi_irqs/${m##*/}\"; done\n"
"\tfor m in \"$p\"/msi_irqs/*; do [ -e \"$m\" ] && printf '::F %s\\n\\n' \"${w%/*}/msi_irqs/${m##*/}\"; done\n"
"\treturn 0\n"
"}\n"
"linux_tree() {\n"
"\techo \"::R $R\"\n"
"\tset --\n"
"\tfor f in \"$R\"/proc/cpuinfo \"$R\"/proc/stat \"$R\"/proc/interrupts \"$R\"/proc/net/dev \\\n"
"\t    \"$R\"/proc/net/softnet_stat \\\n"
"\t    \"$R\"/etc/os-release \"$R\"/sys/devices/system/cpu/online \"$R\"/sys/devices/system/cpu/smt/control \\\n"
"\t    \"$R\"/sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id \\\n"
"\t    \"$R\"/sys/devices/system/cpu/cpu[0-9]*/topology/core_id \\\n"
"\t    \"$R\"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor \\\n"
"\t    \"$R\"/proc/irq/[0-9]*/smp_affinity_list \"$R\"/proc/irq/[0-9]*/effective_affinity_list \\\n"
"\t    \"$R\"/sys/class/net/*/address \"$R\"/sys/class/net/*/mtu \"$R\"/sys/class/net/*/flags \\\n"
"\t    \"$R\"/sys/class/net/*/speed \"$R\"/sys/class/net/*/tx_queue_len \"$R\"/sys/class/net/*/operstate \\\n"
"\t    \"$R\"/sys/class/net/*/gro_flush_timeout \"$R\"/sys/class/net/*/napi_defer_hard_irqs \\\n"
"\t    \"$R\"/sys/class/net/*/threaded \\\n"
"\t    \"$R\"/proc/sys/net/ipv[46]/neigh/*/base_reachable_time \"$R\"/proc/sys/net/ipv[46]/neigh/*/retrans_time \\\n"
"\t    \"$R\"/sys/class/net/*/queues/*/rps_cpus \"$R\"/sys/class/net/*/queues/*/rps_flow_cnt \\\n"
"\t    \"$R\"/sys/class/net/*/queues/*/xps_cpus; do\n"
"\t\t[ -f \"$f\" ] && [ -r \"$f\" ] && set -- \"$@\" \"$f\"\n"
"\tdone\n"
"\tif [ $# -gt 0 ]; then head -n 1000000 \"$@\" 2>/dev/null; echo; fi\n"
"\tfor n in \"$R\"/sys/devices/system/cpu/cpu[0-9]*/node[0-9]* \"$R\"/sys/devices/system/node/node[0-9]*; do\n"
"\t\t[ -e \"$n\" ] && echo \"::D ${n#\"$R\"}\"\n"
"\tdone\n"
"\tfor i in \"$R\"/sys/class/net/*; do\n"
"\t\t[ -e \"$i\" ] && linux_nic \"$i\"\n"
"\tdone\n"
"\treturn 0\n"
"}\n"
"linux_ethtool() {\n"
"\thas ethtool || return 127\n"
"\tfor i in \"$R\"/sys/class/net/*; do\n"
"\t\t[ -e \"$i\" ] || continue\n"
"\t\tn=${i##*/}\n"
"\t\tcase $n in\n"
"\t\t''|-*|.|..|????????????????*|*[!A-Za-z0-9_.@+-]*) continue ;;\n"
"\t\tesac\n"
"\t\to=$(ethtool \"$1\" \"$n\" 2>&1)\n"
"\t\tprintf '::IF %s %s\\n%s\\n' \"$n\" \"$?\" \"$o\"\n"
"\tdone\n"
"\treturn 0\n"
"}\n"
"linux_napi() {\n"
"\tfor c in \"$R\"/proc/[0-9]*/comm; do\n"
"\t\tread -r n 2>/dev/null <\"$c\" || continue\n"
"\t\tcase $n in napi/*) ;; *) continue ;; esac\n"
"\t\tprintf '%s %s\\n' \"$n\" \"$(sed -n 's/^Cpus_allowed_list:[ \t]*//p' \"${c%/comm}/status\" 2>/dev/null)\"\n"
"\tdone\n"
"\treturn 0\n"
"}\n"
"linux_netns() {\n"
"\tset -- $(ls -iL /proc/self/ns/net 2>/dev/null) && [ -n \"$1\" ] || return 1\n"
"\techo \"self $1\"\n"
"\tset -- $(ls -iL /proc/1/ns/net 2>/dev/null)\n"
"\t[ -n \"$1\" ] && echo \"init $1\"\n"
"\tfor f in /run/netns/* /var/run/netns/*; do\n"
"\t\t[ -e \"$f\" ] || continue\n"
"\t\tset -- $(ls -iL \"$f\" 2>/dev/null)\n"
"\t\t[ -n \"$1\" ] && echo \"ns $1 ${f##*/}\"\n"
"\tdone\n"
"\treturn 0\n"
"}\n"
"linux_sysctl_modes() {\n"
"\t(cd \"$R/proc/sys\" && find . -type f ! -perm 644 -exec ls -ld {} +)\n"
"}\n"
"linux_counters() {\n"
"\tr=0\n"
"\tfor f in " OS_LINUX_SAMPLE_FILES "; do cat \"$R$f\" || r=$?; done\n"
"\t[ \"$r\" = 0 ] || return \"$r\"\n"
"\tf=" OS_LINUX_SAMPLE_OPTIONAL "\n"
"\tif [ -r \"$R$f\" ]; then cat \"$R$f\"; fi\n"
"}\n"
"echo \"::$T:: ntune-capture 1\"\n"
"OS=$(uname -s)\n"
"sec uname.txt uname -a\n"
"case $OS in\n"
"FreeBSD)\n"
"\tsec platform.txt bsd_platform\n"
"\tsec sysctl-a.txt sysctl -a\n"
"\tsec kenv.txt kenv\n"
"\tsec ifconfig-a.txt ifconfig -a\n"
"\tsec pciconf-lv.txt pciconf -lv\n"
"\tsec vmstat-i.txt vmstat -i\n"
"\tsec netstat-Q.txt netstat -Q\n"
"\tsec netstat-m.txt netstat -m\n"
"\tsec cpuset-irq.txt bsd_cpuset_irq\n"
"\tsec netstat-ibnd.txt netstat -ibnd\n"
"\tsec dmesg.txt bsd_dmesg\n"
"\tfile loader.conf /boot/loader.conf\n"
"\tfile loader.conf.local /boot/loader.conf.local\n"
"\tfile sysctl.conf /etc/sysctl.conf\n"
"\tfile sysctl.conf.local /etc/sysctl.conf.local\n"
"\t# only its <sysctl> elements, even on one line: the rest holds password hashes and keys\n"
"\tif [ -f \"$R/conf/config.xml\" ] && [ -r \"$R/conf/config.xml\" ]; then\n"
"\t\tsec config-sysctl.xml awk '{ s = $0; o = \"\"; w = on\n"
"\t\t\twhile (s != \"\") {\n"
"\t\t\t\tif (!on) {\n"
"\t\t\t\t\ti = match(s, /<sysctl[ \\t>]/); if (i == 0) break\n"
"\t\t\t\t\ts = substr(s, i); if (s ~ /^<sysctl[^>]*\\/>/) { s = substr(s, 8); continue }\n"
"\t\t\t\t\ton = 1\n"
"\t\t\t\t}\n"
"\t\t\t\tj = index(s, \"</sysctl>\"); if (j == 0) { o = o s; break }\n"
"\t\t\t\to = o substr(s, 1, j + 8); s = substr(s, j + 9); on = 0\n"
"\t\t\t}\n"
"\t\t\tif (o != \"\") { match($0, /^[ \\t]*/); print (w ? \"\" : substr($0, 1, RLENGTH)) o }\n"
"\t\t}' \"$R/conf/config.xml\"\n"
"\tfi\n"
"\tt0=$(date -u +%s)\n"
"\tsec before.txt bsd_counters\n"
"\t[ \"${NTUNE_CAPTURE_TOP:-yes}\" = no ] || sec top.txt top -b -HSP -s \"$S\" -d 2 all\n"
"\tsec after.txt bsd_counters\n"
"\t;;\n"
"Linux)\n"
"\tfile platform.txt /etc/os-release\n"
"\tsec sysctl-a.txt sysctl -a\n"
"\tsec ifconfig-a.txt ip -d addr\n"
"\tfile vmstat-i.txt /proc/interrupts\n"
"\tfile sysctl.conf /etc/sysctl.conf\n"
"\tsec sysctl.conf.local linux_sysctl_d\n"
"\tsec linux-tree.txt linux_tree\n"
"\tfor o in i g l c k a; do sec ethtool-$o.txt linux_ethtool -$o; done\n"
"\tsec tc-qdisc.txt tc qdisc show\n"
"\tsec napi-threads.txt linux_napi\n"
"\tsec netns.txt linux_netns\n"
"\tsec sysctl-modes.txt linux_sysctl_modes\n"
"\tt0=$(date -u +%s)\n"
"\tsec before.txt linux_counters\n"
"\t[ \"${NTUNE_CAPTURE_TOP:-yes}\" = no ] || sec top.txt top -b -H -1 -d \"$S\" -n 2\n"
"\tsec after.txt linux_counters\n"
"\t;;\n"
"*)\n"
"\tt0=$(date -u +%s)\n"
"\t;;\n"
"esac\n"
"sec clock.txt printf '%s\\n%s\\n' \"$t0\" \"$(date -u +%s)\"\n"
"echo \"::$T:: done\"\n";

bool
capture_secs_valid(double secs)
{
	return isfinite(secs) && secs >= 1 && secs <= CAPTURE_SECS_MAX;
}

/* A random token: "n" and 15 letters or digits from /dev/urandom (time and pid if it fails). */
static void
make_token(char tok[17])
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[15];
	size_t i;
	int fd;
	ssize_t got = -1;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) != -1) {
		got = read(fd, r, sizeof r);
		close(fd);
	}
	if (got != (ssize_t)sizeof r) {
		unsigned long x = (unsigned long)time(NULL) * 2654435761UL ^ (unsigned long)getpid();

		for (i = 0; i < sizeof r; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			r[i] = (unsigned char)(x >> 33);
		}
	}
	tok[0] = 'n';
	for (i = 0; i < sizeof r; i++)
		tok[i + 1] = alnum[r[i] % (sizeof alnum - 1)];
	tok[16] = '\0';
}

char *
capture_script(double secs)
{
	struct strbuf sb;
	const char *p = script_text, *at;
	char tok[17], num[16];

	if (!capture_secs_valid(secs))
		secs = 10;
	snprintf(num, sizeof num, "%.0f", secs);
	make_token(tok);
	strbuf_init(&sb);
	while ((at = strchr(p, '@')) != NULL) {
		strbuf_add(&sb, p, (size_t)(at - p));
		if (strncmp(at, "@T@", 3) == 0)
			strbuf_adds(&sb, tok);
		else if (strncmp(at, "@S@", 3) == 0)
			strbuf_adds(&sb, num);
		else {
			strbuf_addc(&sb, '@');
			p = at + 1;
			continue;
		}
		p = at + 3;
	}
	strbuf_adds(&sb, p);
	return strbuf_detach(&sb);
}

/* ---- the set ---------------------------------------------------------- */

static bool
name_valid(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > NAME_MAX_LEN || !(isalnum((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

static struct capture_section *
find(const struct capture_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i].name, name) == 0)
			return &set->v[i];
	return NULL;
}

const struct capture_section *
capture_get(const struct capture_set *set, const char *name)
{
	const struct capture_section *s = find(set, name);

	return s != NULL && s->status == 0 ? s : NULL;
}

/* Is name a section holding XML (an OPNsense/pfSense config.xml or its <sysctl> part)? */
static bool
xml_section(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && strcmp(name + n - 4, ".xml") == 0;
}

/* The next "<sysctl>" or "<sysctl ATTR...>" at or after p (not "<sysctl/>"), else end. */
static const char *
sysctl_open(const char *p, const char *end)
{
	const char *c, *gt;

	while ((c = memmem(p, (size_t)(end - p), "<sysctl", 7)) != NULL) {
		p = c + 7;
		if (p < end && (*p == '\0' || strchr(" \t\r\n>", *p) == NULL))
			continue;	/* <sysctlfoo> */
		gt = memchr(p, '>', (size_t)(end - p));
		if (gt != NULL && gt[-1] != '/')
			return c;
	}
	return end;
}

/*
 * What a config.xml section keeps: its <sysctl> elements and, of the rest, only the
 * blanks and line ends (the line numbers stay). The rest holds password hashes, keys and
 * certificates, and a config.xml saved on one line would have it on the <sysctl> line.
 */
static char *
xml_sysctl_only(const char *text, size_t len, size_t *outlen)
{
	const char *p = text, *end = text + len, *open, *close;
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	while (p < end) {
		open = sysctl_open(p, end);
		for (; p < open; p++)
			if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
				strbuf_addc(&sb, *p);
		if (open == end)
			break;
		if ((close = memmem(open, (size_t)(end - open), "</sysctl>", 9)) == NULL) {
			p = open + 1;	/* not closed: not kept */
			continue;
		}
		strbuf_add(&sb, open, (size_t)(close + 9 - open));
		p = close + 9;
	}
	*outlen = sb.len;
	return strbuf_detach(&sb);
}

void
capture_set_add(struct capture_set *set, const char *name, const char *text, size_t len,
    int status)
{
	struct capture_section *s = find(set, name);

	if (s == NULL) {
		set->v = xreallocarray(set->v, set->n + 1, sizeof *set->v);
		s = &set->v[set->n++];
		memset(s, 0, sizeof *s);
		s->name = xstrdup(name);
	} else
		free(s->text);
	if (xml_section(name))
		s->text = xml_sysctl_only(text, len, &s->len);
	else {
		s->text = xstrndup(text, len);
		s->len = len;
	}
	s->status = status;
}

void
capture_set_free(struct capture_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->v[i].name);
		free(set->v[i].text);
	}
	free(set->v);
	free(set->origin);
	memset(set, 0, sizeof *set);
}

/* ---- parsing ---------------------------------------------------------- */

/* The parse of one text: where we are, the token once known. */
struct cparse {
	const char	*origin;
	char		 tok[80];	/* "::TOKEN:: " */
	size_t		 toklen;
	size_t		 lineno;
	char		**cause;
};

static int
perr(struct cparse *p, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
perr(struct cparse *p, size_t line, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	util_cause(p->cause, "%s:%zu: %s", p->origin, line, msg);
	free(msg);
	return -1;
}

/*
 * A header line "::TOKEN:: ntune-capture N" (TOKEN letters and digits, 8 to 64):
 * the token's length (with the colons and the blank) and N, or 0.
 */
static size_t
header(const char *line, size_t len, long *format)
{
	size_t i = 2, j;
	long n;

	if (len < 4 || strncmp(line, "::", 2) != 0)
		return 0;
	while (i < len && isalnum((unsigned char)line[i]))
		i++;
	if (i - 2 < 8 || i - 2 > 64 || len - i < 3 || strncmp(line + i, ":: ", 3) != 0)
		return 0;
	i += 3;
	if (len - i < 15 || strncmp(line + i, "ntune-capture ", 14) != 0 ||
	    !isdigit((unsigned char)line[i + 14]))
		return 0;
	/* the digits to the line's end, read within len: the text need not end with a NUL */
	for (j = i + 14, n = 0; j < len && isdigit((unsigned char)line[j]) && n < 100000; j++)
		n = n * 10 + (line[j] - '0');
	if (j != len)
		return 0;
	*format = n;
	return i;
}

/* The next line of text from *pos: its start and length without "\n" or "\r\n". */
static bool
next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *llen)
{
	const char *nl;
	size_t l;

	if (*pos >= len)
		return false;
	*line = text + *pos;
	nl = memchr(*line, '\n', len - *pos);
	l = nl != NULL ? (size_t)(nl - *line) : len - *pos;
	*pos += l + (nl != NULL);
	if (l > 0 && (*line)[l - 1] == '\r')
		l--;
	*llen = l;
	return true;
}

bool
capture_is_capture(const char *text, size_t len)
{
	const char *line;
	size_t pos = 0, l;
	long f;

	while (next_line(text, len, &pos, &line, &l))
		if (header(line, l, &f) > 0)
			return true;
	return false;
}

/* "end NAME STATUS" after the token: NAME must be the section's, STATUS 0..255. */
static int
end_line(struct cparse *p, const char *rest, size_t n, const char *name, int *status)
{
	size_t nl = strlen(name);
	char num[8];
	char *e;
	long st;

	if (n < 4 + nl + 2 || strncmp(rest, "end ", 4) != 0 || strncmp(rest + 4, name, nl) != 0 ||
	    rest[4 + nl] != ' ')
		return perr(p, p->lineno, "section '%s' ends with '%.*s'", name, (int)(n > 60 ? 60 : n),
		    rest);
	n -= 5 + nl;
	rest += 5 + nl;
	if (n == 0 || n >= sizeof num)
		return perr(p, p->lineno, "bad exit status in the end line of section '%s'", name);
	memcpy(num, rest, n);
	num[n] = '\0';
	st = strtol(num, &e, 10);
	if (*e != '\0' || !isdigit((unsigned char)num[0]) || st > 255)
		return perr(p, p->lineno, "bad exit status '%s' in the end line of section '%s'", num,
		    name);
	*status = (int)st;
	return 0;
}

/* One section from its begin line's rest ("begin NAME"); *pos is past that line. */
static int
section(struct cparse *p, const char *text, size_t len, size_t *pos, const char *rest, size_t n,
    struct capture_set *set)
{
	char name[NAME_MAX_LEN + 1];
	const char *line, *start = text + *pos;
	size_t l, begin = p->lineno, body;
	int status = 0;

	if (n < 7 || strncmp(rest, "begin ", 6) != 0)
		return perr(p, begin, "expected a begin line, found '%.*s'", (int)(n > 60 ? 60 : n),
		    rest);
	if (!name_valid(rest + 6, n - 6))
		return perr(p, begin, "bad section name '%.*s' (letters, digits, '.', '_', '-')",
		    (int)(n - 6 > 60 ? 60 : n - 6), rest + 6);
	memcpy(name, rest + 6, n - 6);
	name[n - 6] = '\0';
	if (find(set, name) != NULL)
		return perr(p, begin, "section '%s' appears twice", name);
	for (;;) {
		body = (size_t)(text + *pos - start);
		if (!next_line(text, len, pos, &line, &l))
			return perr(p, p->lineno, "section '%s' (begun at line %zu) is cut short: "
			    "no end line (the capture is truncated)", name, begin);
		p->lineno++;
		if (l >= p->toklen && memcmp(line, p->tok, p->toklen) == 0)
			break;
	}
	if (end_line(p, line + p->toklen, l - p->toklen, name, &status) == -1)
		return -1;
	/* the newline the script printed before the end line is not the command's */
	if (body > 0 && start[body - 1] == '\n')
		body--;
	if (body > 0 && start[body - 1] == '\r')
		body--;
	capture_set_add(set, name, start, body, status);
	set->v[set->n - 1].line = begin;
	return 0;
}

/* Text with every "\r\n" made "\n" (a paste from Windows), malloc'd. */
static char *
unix_lines(const char *text, size_t len, size_t *out)
{
	char *s = xmalloc(len + 1);
	size_t i, o = 0;

	for (i = 0; i < len; i++)
		if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
			s[o++] = text[i];
	s[o] = '\0';
	*out = o;
	return s;
}

static int
parse_body(struct cparse *p, const char *text, size_t len, struct capture_set *set)
{
	const char *line;
	size_t pos = 0, l, hlen = 0;
	long format = 0;

	while (next_line(text, len, &pos, &line, &l)) {
		p->lineno++;
		if ((hlen = header(line, l, &format)) > 0)
			break;
	}
	if (hlen == 0) {
		util_cause(p->cause, "%s: not a capture (no '::TOKEN:: ntune-capture %d' line)",
		    p->origin, CAPTURE_FORMAT);
		return -1;
	}
	if (format != CAPTURE_FORMAT)
		return perr(p, p->lineno, "capture format %ld (this ntune reads format %d)", format,
		    CAPTURE_FORMAT);
	memcpy(p->tok, line, hlen);
	p->toklen = hlen;
	while (next_line(text, len, &pos, &line, &l)) {
		p->lineno++;
		if (l < p->toklen || memcmp(line, p->tok, p->toklen) != 0)
			continue;	/* outside sections: a terminal's noise, kept out */
		if (l - p->toklen == 4 && memcmp(line + p->toklen, "done", 4) == 0)
			return 0;
		if (section(p, text, len, &pos, line + p->toklen, l - p->toklen, set) == -1)
			return -1;
	}
	return perr(p, p->lineno, "the capture ends without its '%sdone' line (it is truncated)",
	    p->tok);
}

int
capture_parse(const char *text, size_t len, const char *origin, struct capture_set *set,
    char **cause)
{
	struct cparse p;
	char *unix_text;
	size_t ulen;
	int rc;

	memset(set, 0, sizeof *set);
	memset(&p, 0, sizeof p);
	p.origin = origin;
	p.cause = cause;
	if (memchr(text, '\0', len) != NULL) {
		util_cause(cause, "%s: binary data, not a capture", origin);
		return -1;
	}
	unix_text = unix_lines(text, len, &ulen);
	rc = parse_body(&p, unix_text, ulen, set);
	free(unix_text);
	if (rc == -1)
		capture_set_free(set);
	else
		set->origin = xstrdup(origin);
	return rc;
}

/* ---- the directory form ----------------------------------------------- */

int
capture_read_dir(const char *dir, struct capture_set *set, char **cause)
{
	struct dirent *de;
	struct stat st;
	char *path, *data;
	size_t len;
	DIR *d;
	int rc = 0;

	memset(set, 0, sizeof *set);
	if ((d = opendir(dir)) == NULL) {
		util_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!name_valid(de->d_name, strlen(de->d_name)))
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (lstat(path, &st) != 0)
			st.st_mode = 0;
		if (S_ISLNK(st.st_mode)) {
			util_cause(cause, "'%s' is a symbolic link (a capture's files are read, none "
			    "followed)", path);
			rc = -1;
		} else if (S_ISREG(st.st_mode)) {
			if ((rc = util_read_file(path, &data, &len, cause)) == 0) {
				capture_set_add(set, de->d_name, data, len, 0);
				free(data);
			}
		}
		free(path);
	}
	closedir(d);
	if (rc == 0 && set->n == 0) {
		util_cause(cause, "%s: no capture files in it (uname.txt, sysctl-a.txt, ...)", dir);
		rc = -1;
	}
	if (rc == -1)
		capture_set_free(set);
	else
		set->origin = xstrdup(dir);
	return rc;
}

static int
write_one(const char *dir, const struct capture_section *s, int mode, char **cause)
{
	char *path;
	int fd, rc = 0;

	xasprintf(&path, "%s/%s", dir, s->name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)) == -1 ||
	    util_xfer(fd, s->text, s->len, true) != 0 || fsync(fd) != 0) {
		util_cause(cause, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	if (fd != -1)
		close(fd);
	free(path);
	return rc;
}

/* 0: dir is absent or empty; 1: it holds something; -1 + cause: it cannot be read. */
static int
dir_state(const char *dir, char **cause)
{
	struct dirent *de;
	DIR *d;
	int full = 0;

	if ((d = opendir(dir)) == NULL) {
		if (errno == ENOENT)
			return 0;
		util_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			full = 1;
	closedir(d);
	return full;
}

int
capture_write_dir(const struct capture_set *set, const char *dir, char **cause)
{
	char *tmp, *path;
	size_t i;
	int rc = 0, state, secret = 0;

	/* a config.xml's part (filtered, capture_set_add) is the owner's only: 0700, 0600 */
	for (i = 0; i < set->n; i++)
		secret |= xml_section(set->v[i].name);
	if ((state = dir_state(dir, cause)) == -1)
		return -1;
	if (state == 1) {
		util_cause(cause, "'%s' is not empty (captures are written to a new directory)", dir);
		return -1;
	}
	xasprintf(&tmp, "%s.tmp.XXXXXX", dir);
	if (mkdtemp(tmp) == NULL) {
		util_cause(cause, "cannot make '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	for (i = 0; i < set->n && rc == 0; i++)
		if (set->v[i].status == 0 && name_valid(set->v[i].name, strlen(set->v[i].name)))
			rc = write_one(tmp, &set->v[i], secret ? 0600 : 0644, cause);
	if (rc == 0 && (chmod(tmp, secret ? 0700 : 0755) != 0 || rename(tmp, dir) != 0)) {
		util_cause(cause, "cannot rename '%s' to '%s': %s", tmp, dir, strerror(errno));
		rc = -1;
	}
	if (rc == -1) {
		for (i = 0; i < set->n; i++) {
			xasprintf(&path, "%s/%s", tmp, set->v[i].name);
			(void)unlink(path);
			free(path);
		}
		(void)rmdir(tmp);
	}
	free(tmp);
	return rc;
}

int
capture_load(const char *path, struct capture_set *set, char **cause)
{
	struct stat st;
	char *data;
	size_t len;
	int rc;

	memset(set, 0, sizeof *set);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return capture_read_dir(path, set, cause);
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	rc = capture_parse(data, len, path, set, cause);
	free(data);
	return rc;
}
