/* The running executable's path on Linux: /proc/self/exe. */
#include <unistd.h>

#include "util/util.h"

int
util_self_exe(char *buf, size_t len)
{
	ssize_t n;

	if (len == 0 || (n = readlink("/proc/self/exe", buf, len - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}
