/* Shim: FreeBSD's <kenv.h>. */
#ifndef SHIM_KENV_H
#define SHIM_KENV_H

#define KENV_GET	0
#define KENV_SET	1
#define KENV_UNSET	2
#define KENV_DUMP	3

int	kenv(int action, const char *name, char *value, int len);

#endif
