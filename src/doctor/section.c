/* What every file of src/doctor reads: a capture's sections and the running values. */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_impl.h"

const struct doctor_section *
doctor_section(const struct doctor *dr, const char *name)
{
	size_t i;

	for (i = 0; i < dr->nsec; i++) {
		if (strcmp(dr->sec[i].name, name) == 0)
			return &dr->sec[i];
	}
	return NULL;
}

char *
doctor_running(struct doctor *dr, const char *name)
{
	char *v = NULL;

	if (dr->si.sys.get == NULL || dr->si.sys.get(dr->si.sys.arg, name, &v) != 0)
		return NULL;
	return v;
}
