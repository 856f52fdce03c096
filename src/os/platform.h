/*
 * The platforms ntune knows: one table with each platform's name (as --os and the
 * knowledge base spell it), its display name and its family (OPNsense and pfSense
 * are FreeBSD with their own kernels and tools). Everything that asks "is this
 * OPNsense?" goes through here instead of comparing strings.
 */
#ifndef NTUNE_OS_PLATFORM_H
#define NTUNE_OS_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

enum os_platform {
	OS_PLATFORM_UNKNOWN = 0,
	OS_PLATFORM_FREEBSD,
	OS_PLATFORM_OPNSENSE,
	OS_PLATFORM_PFSENSE,
	OS_PLATFORM_LINUX,
};

/* opnsense, OPNsense, freebsd... (case-insensitive); OS_PLATFORM_UNKNOWN for anything else. */
enum os_platform os_platform_parse(const char *);
/* freebsd, opnsense, pfsense, linux; "unknown" for OS_PLATFORM_UNKNOWN. */
const char *os_platform_name(enum os_platform);
/* "FreeBSD", "OPNsense", "pfSense", "Linux", "unknown". */
const char *os_platform_label(enum os_platform);
/* FREEBSD for FreeBSD, OPNsense and pfSense; LINUX for Linux; UNKNOWN otherwise. */
enum os_platform os_platform_family(enum os_platform);
/* A FreeBSD-based distribution (OPNsense, pfSense): not plain FreeBSD. */
bool	 os_platform_is_distro(enum os_platform);
/* The names --os accepts, for messages: "freebsd, opnsense, pfsense, linux". */
const char *os_platform_list(void);
/*
 * The family the first word of uname -s (or uname -a) output names, spelled as
 * uname does ("FreeBSD", "Linux"): FREEBSD, LINUX, else UNKNOWN. How a probe, a
 * capture and this machine say their OS.
 */
enum os_platform os_platform_of_uname(const char *);
/* The distribution a text names (kern.version, /etc/platform, a distro string), else UNKNOWN. */
enum os_platform os_platform_in_text(const char *);

/*
 * The platform files under root ("" = this machine) prove: /usr/local/opnsense/version
 * (OPNsense), /etc/platform naming pfSense. UNKNOWN when neither is there; else *why
 * (when not NULL, size n) says which file.
 */
enum os_platform os_platform_from_root(const char *root, char *why, size_t n);

/*
 * The files os re-applies tunables from at boot, under root ("" or NULL = this
 * machine), src/os/boot_files.c: on Linux the *.conf of /usr/lib, /lib, /run and
 * /etc sysctl.d (each directory in name order, a directory that is another one's
 * link once) and /etc/sysctl.conf; on FreeBSD, OPNsense and pfSense loader.conf,
 * loader.conf.local, sysctl.conf and sysctl.conf.local. fn gets each readable one:
 * its path on the system ("/etc/sysctl.conf") and the path it is read at (root + path).
 */
typedef void os_boot_file_fn(void *arg, const char *path, const char *at);
void	 os_boot_files(enum os_platform, const char *root, os_boot_file_fn *fn, void *arg);

#endif
