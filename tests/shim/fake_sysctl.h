/* The fake sysctl MIB of fake_sysctl.c (tests only). */
#ifndef FAKE_SYSCTL_H
#define FAKE_SYSCTL_H

#include <stddef.h>

/* Installs the oids names[i] = values[i]; kenv holds "name=value" strings, NULL-terminated. */
void	fake_sysctl_load(const char *const *names, const char *const *values, size_t n,
	    const char *const *kenv);
void	fake_sysctl_free(void);

#endif
