/*
 * The labels of the profiles of a bench (results.c): file names in a results
 * directory.
 */
#ifndef NTUNE_BENCH_LABEL_H
#define NTUNE_BENCH_LABEL_H

#include <stddef.h>

#define BENCH_LABEL_MAX	64

/* A label usable as a file name: [A-Za-z0-9._-], not starting with '.'. */
int	bench_label_valid(const char *);
/* A label from a profile path: basename without .conf, sanitized, made unique against used[]. */
void	bench_label_from_path(const char *path, char *out, size_t len, char used[][BENCH_LABEL_MAX], size_t nused);

#endif
