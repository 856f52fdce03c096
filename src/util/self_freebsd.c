/*
 * The running executable's path on FreeBSD: sysctl kern.proc.pathname of this
 * process ({CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1}, sysctl(3)), which
 * needs no procfs.
 */
#include <sys/types.h>
#include <sys/sysctl.h>

#include "util/util.h"

int
util_self_exe(char *buf, size_t len)
{
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1 };
	size_t n = len;

	if (len == 0 || sysctl(mib, 4, buf, &n, NULL, 0) != 0 || n == 0 || buf[0] != '/')
		return -1;
	buf[len - 1] = '\0';
	return 0;
}
