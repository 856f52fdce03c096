/* Tiny shared helpers: allocation, error causes, strings, files, paths. */
#ifndef NTUNE_UTIL_H
#define NTUNE_UTIL_H

/* FreeBSD's <sys/param.h> defines nitems() too: included here, so any include order works. */
#include <sys/param.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#ifndef nitems
#define nitems(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Allocation that aborts with a message instead of returning NULL. */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...) __attribute__((format(printf, 2, 3)));
int	 xvasprintf(char **, const char *, va_list);

/*
 * Library functions report failure by returning -1 or NULL and, when cause is
 * not NULL, storing a malloc'd message in *cause (the caller frees it).
 *
 * Who names what: a cause says what went wrong with the object the function was
 * given, in that object's terms ("cannot open '/proc/sys/x': Permission denied",
 * "maximum is 2"); the caller, which knows why it asked, adds the knob, file or
 * line in front ("p.conf:3: cannot set 'if.eth0.channels.rx' to '999': maximum
 * is 2"). So no subject is named twice, and a caller never parses a cause: a
 * decision that depends on the kind of failure uses a return value or errno, not
 * the text.
 */
void	 util_cause(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable byte buffer. */
struct strbuf {
	char	*buf;
	size_t	 len;
	size_t	 cap;
};
void	 strbuf_init(struct strbuf *);
void	 strbuf_add(struct strbuf *, const void *, size_t);
void	 strbuf_addc(struct strbuf *, char);
void	 strbuf_adds(struct strbuf *, const char *);
void	 strbuf_addf(struct strbuf *, const char *, ...) __attribute__((format(printf, 2, 3)));
char	*strbuf_detach(struct strbuf *);	/* NUL-terminated, caller frees */
void	 strbuf_free(struct strbuf *);

/* Reads a whole file (or "-" for stdin) into a NUL-terminated buffer; -1 + cause on error. */
int	 util_read_file(const char *path, char **data, size_t *len, char **cause);
/*
 * Writes data to path atomically: temp file in the same directory (O_EXCL, O_NOFOLLOW),
 * fsync, rename, fsync dir. A symbolic link at path is refused unless it leads to a
 * character device or a FIFO (`-o /dev/stdout`), written in place like a device.
 */
int	 util_write_file_atomic(const char *path, const void *data, size_t len, int mode, char **cause);
/*
 * The directory of dir/rel opened with no symbolic link followed below dir (dir is the
 * caller's own); *name is rel's last component. -1 + "cannot write 'DIR/PART': why".
 */
int	 util_open_parent(const char *dir, const char *rel, const char **name, char **cause);
/*
 * Writes data to dir/rel atomically (as util_write_file_atomic) with no symbolic link
 * followed below dir, and none written through: a -o DIR where links may be planted.
 */
int	 util_write_file_in(const char *dir, const char *rel, const void *data, size_t len,
	    int mode, char **cause);
/*
 * -1 + "'DIR/NAME' is a symbolic link (...)" when dir holds a link (one planted in a -o DIR),
 * checked before anything is written there; 0 otherwise or when dir cannot be listed.
 */
int	 util_dir_no_links(const char *dir, char **cause);
/* mkdir(path, 0755); an existing one is fine; -1 + "cannot create 'PATH': why" otherwise. */
int	 util_mkdir(const char *path, char **cause);
/* The same for text (mode 0644) at DIR/NAME, by util_write_file_in. */
int	 util_write_text_at(const char *dir, const char *name, const char *text, char **cause);
/* Reads one line of a small file (e.g. /sys attribute) without its newline. */
int	 util_read_line(const char *path, char *buf, size_t len, char **cause);

/* A non-negative number with an optional k, M or G suffix ("10k", "1.5M"); -1 if invalid. */
int	 util_parse_scaled(const char *s, double *out);

/*
 * A string vector: v[0..*n) of malloc'd strings, v[*n] NULL (an argv once not
 * empty); util_strv_add appends a copy of s, util_strv_vaddf a formatted one,
 * and both return the grown array.
 */
char	**util_strv_add(char **v, size_t *n, const char *s);
char	**util_strv_vaddf(char **v, size_t *n, const char *fmt, va_list);
void	 util_strv_free(char **v, size_t n);
/* Frees an array of n elements of size bytes, calling elem_free on each one first. */
void	 util_array_free(void *base, size_t n, size_t size, void (*elem_free)(void *));

/*
 * UTC time t (0: now) as ISO 8601 "2026-12-04T14:11:02Z", or with compact
 * "20261204T141102Z" for names that sort by time. Returns buf.
 */
#define UTIL_UTC_LEN	24
char	*util_utc(time_t t, bool compact, char buf[UTIL_UTC_LEN]);

/*
 * An interface or device name split into its driver letters and unit number:
 * "ix0" -> "ix" and 0, "vtnet12" -> "vtnet" and 12. A name without a unit number
 * ("lo", "wan", "123", or letters that do not fit in len) gives the whole name and -1.
 * letters always holds a string.
 */
int	 util_ifname_unit(const char *ifname, char *letters, size_t len);

/* String helpers. */
char	*util_trim(char *);			/* trims white space in place */
int	 util_startswith(const char *, const char *);
size_t	 util_edit_distance(const char *, const char *);
/* The candidate closest to word (edit distance <= max(2, len/3)), or NULL. */
const char *util_did_you_mean(const char *word, const char *const *candidates, size_t n);

/*
 * A network namespace of ip-netns(8) (/run/netns/NAME): util_netns_open gives an
 * fd to setns(2) (O_CLOEXEC), util_netns_enter moves this thread into it,
 * util_netns_enter_sys also gives the thread's process its own mount namespace
 * with a /sys that shows the namespace's devices (as `ip netns exec` does); -1 + cause.
 * Linux-only: elsewhere they fail with "network namespaces are Linux-only".
 */
int	 util_netns_open(const char *name, char **cause);
int	 util_netns_enter(const char *name, char **cause);
int	 util_netns_enter_sys(const char *name, char **cause);

/*
 * Sorts n elements of size bytes at base with cmp(a, b, arg), like qsort_r but
 * portable (glibc, FreeBSD 13 and FreeBSD 14 disagree on qsort_r's argument order)
 * and stable: equal elements keep their order.
 */
void	 util_sort(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *, void *), void *arg);

/* Monotonic time in seconds and nanoseconds. */
double	 util_now(void);
uint64_t util_now_ns(void);
/*
 * Sleeps secs seconds (nothing when <= 0), resuming after a signal unless
 * *stop (may be NULL) has become non-zero.
 */
void	 util_sleep(double secs, const volatile sig_atomic_t *stop);

/*
 * Writes (out) or reads all len bytes of buf on fd, resuming after EINTR:
 * 0, or -1 on an error or end of file before len bytes.
 */
int	 util_xfer(int fd, void *buf, size_t len, bool out);

/*
 * The absolute path of the running executable into buf; -1 when unknown.
 * Per system: src/util/self_linux.c (/proc/self/exe), self_freebsd.c (kern.proc.pathname).
 */
int	 util_self_exe(char *buf, size_t len);

/*
 * Directory of ntune's data files (knobs/, profiles/): $NTUNE_SHARE, else the
 * source tree's share/ when running from a build directory, else share/ntune next
 * to the binary's bin directory (an unpacked package), else the build-time datadir.
 */
const char *util_share_dir(void);

#endif
