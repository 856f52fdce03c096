/*
 * JSON output with every real as the shortest text that reads back to the
 * same double (87.8, not jansson's 87.799999999999997). Every --json uses it.
 */
#ifndef NTUNE_UTIL_JSON_H
#define NTUNE_UTIL_JSON_H

#include <jansson.h>
#include <stdio.h>

/* json_dumps(doc, flags) with shortest reals (any JSON_REAL_PRECISION is replaced); malloc'd, NULL on error. */
char	*util_json_dumps(const json_t *doc, size_t flags);
/* The same text written to fp: 0, or -1 on an error. */
int	 util_json_print(const json_t *doc, FILE *fp, size_t flags);

#endif
