/* What every file of src/doctor reads: a capture's sections and the running values. */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_impl.h"

const struct capture_section *
doctor_section(const struct doctor *dr, const char *name)
{
	return capture_get(dr->set, name);
}

char *
doctor_running(struct doctor *dr, const char *name)
{
	char *v = NULL;

	if (dr->si.sys.get == NULL || dr->si.sys.get(dr->si.sys.arg, name, &v) != 0)
		return NULL;
	return v;
}
