/* Internals of src/apply shared by its files (not for use outside src/apply/). */
#ifndef NTUNE_APPLY_IMPL_H
#define NTUNE_APPLY_IMPL_H

#include "apply/apply.h"
#include "os/os.h"

/* Writes name in the namespace (in_netns) or here. */
int	 apply_access_set_in(struct apply_access *, bool in_netns, const char *name,
	    const char *value, char **cause);
/* How this machine's platform layer classes a tunable (loader-only, runtime...); -1 unknown. */
int	 apply_access_kind(struct apply_access *, const char *name, enum os_tunable_kind *);

#endif
