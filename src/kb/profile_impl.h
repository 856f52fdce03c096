/* What profile.c and tuned.c (tuned.conf(5) units and includes) share. */
#ifndef KB_PROFILE_IMPL_H
#define KB_PROFILE_IMPL_H

#include <stdarg.h>
#include <stdbool.h>

#include "kb/kb.h"

/* A note about line of file (NULL: the profile's own path); profile_data.c. */
void	 kb_profile_note(struct kb_profile *, const char *file, int line, enum kb_severity,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void	 kb_profile_vnote(struct kb_profile *, const char *file, int line, enum kb_severity,
	    const char *fmt, va_list);
/* Reads one file, every line (notes for the unreadable ones), following no include. */
typedef struct kb_profile *(*kb_profile_read_one)(const char *name, const char *text, size_t len,
	    char **cause);

/* A "[section]" line (trimmed), as TuneD's configparser sees one. */
bool	 kb_tuned_header(const char *c);
/* The sections of text and their unit options; NULL when it has no [section]. */
struct kb_tuned *kb_tuned_scan(const char *text, size_t len);
void	 kb_tuned_free(struct kb_tuned *);
/* A line of a tuned profile (trimmed): 1 when taken here, 0 when it is a setting to read. */
int	 kb_tuned_line(struct kb_profile *, int lineno, const char *c);
/* A tuned profile that started with a UTF-8 byte-order mark: TuneD refuses it (said). */
void	 kb_tuned_bom(struct kb_profile *);
/* An indented line of a tuned profile: 1 when it continues the option before it (taken). */
int	 kb_tuned_continuation(struct kb_profile *, int lineno, const char *c);
/*
 * Follows the includes with rd (NULL: says they are not read), each file read by one
 * (profile.c's reader, passed so that tuned.c does not call back into it), and merges the units.
 */
void	 kb_tuned_resolve(struct kb_profile *, const struct kb_profile_reader *rd,
	    kb_profile_read_one one);

#endif
