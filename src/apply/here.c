/* This machine for the one apply engine (agentless_local): its OS, its journal. */
#include <sys/utsname.h>

#include <stdlib.h>

#include "apply/apply.h"
#include "apply/remote_script.h"
#include "os/platform.h"

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

const char *
apply_state_dir(const char *override)
{
	const char *s = getenv("NTUNE_STATE_DIR");

	if (override != NULL && *override != '\0')
		return override;
	if (s != NULL && *s != '\0')
		return s;
	/* The place a DUT of this family has: a local apply and one over ssh share journal and lock. */
	return apply_os_is_bsd(apply_detect_os()) ? RSCRIPT_STATE_FREEBSD : RSCRIPT_STATE_LINUX;
}
