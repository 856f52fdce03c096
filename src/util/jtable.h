/*
 * A struct's JSON form as one table of fields: each row is a member's key,
 * kind and place in the struct (offsetof), and both directions walk the same
 * table, so a field is one row: renaming a key changes the writer and the
 * reader together, and renaming a member breaks the build.
 */
#ifndef NTUNE_UTIL_JTABLE_H
#define NTUNE_UTIL_JTABLE_H

#include <stddef.h>

#include <jansson.h>

enum jkind {
	J_STR,		/* char array of size bytes */
	J_INT,		/* int, null when negative (unknown) */
	J_LONG,		/* long, null when negative */
	J_TRI,		/* int (os_tristate): true, false, or null when unknown (-1) */
	J_U64,		/* uint64_t counter */
	J_IDX,		/* int, always a number */
	J_BOOL,		/* bool */
	J_DBL,		/* double, written as a real */
	J_PSTR,		/* char *, malloc'd by the reads (jtable_free), NULL written as "" */
};

/* Row flags. */
/* jtable_read: may be absent, then "", NULL, 0, -1 for J_INT/J_LONG/J_TRI, NaN for J_DBL */
#define JF_OPT		0x1
#define JF_OMIT0	0x2	/* written only when not zero / not "" */
#define JF_TRUE		0x4	/* a J_BOOL JF_OPT row absent reads as true */
#define JF_NULLNAN	0x8	/* J_DBL: null when not finite, null reads as NaN */
#define JF_NULLNEG	0x10	/* J_DBL: null when negative too (not measured) */
#define JF_NULLSTR	0x20	/* J_PSTR: NULL written as null, null read as NULL */

struct jfield {
	const char *group;	/* the member object holding it ("channels"), or NULL */
	const char *key;
	enum jkind kind;
	size_t	 off;
	size_t	 size;		/* J_STR: the array's size */
	unsigned flags;
};

#define JSTR(type, group, key, member) \
	{ group, key, J_STR, offsetof(type, member), sizeof(((type *)0)->member), 0 }
#define JNUM(type, group, key, kind, member) \
	{ group, key, kind, offsetof(type, member), 0, 0 }
/* The same with row flags. */
#define JSTRF(type, group, key, member, flags) \
	{ group, key, J_STR, offsetof(type, member), sizeof(((type *)0)->member), flags }
#define JNUMF(type, group, key, kind, member, flags) \
	{ group, key, kind, offsetof(type, member), 0, flags }

/* Adds the fields of rec to o, in table order (the key order of the document). */
void	 jtable_to_json(json_t *o, const void *rec, const struct jfield *, size_t n);
/* n records of size bytes at recs as an array of objects. */
json_t	*jtable_records_to_json(const void *recs, size_t n, size_t size, const struct jfield *,
	    size_t nf);
/* Reads the fields of rec from o, leniently: a missing or mistyped member reads as unknown. */
void	 jtable_from_json(json_t *o, void *rec, const struct jfield *, size_t n);
/*
 * Reads them strictly: a member absent (unless JF_OPT) or of the wrong type is
 * -1 and "WHERE: key 'K': missing" or "... is not a number" in *cause (K is
 * "group.key" for a grouped row). An integer kind also takes a real with no
 * fraction (a document read with JSON_DECODE_INT_AS_REAL). On -1 no J_PSTR
 * member is left allocated.
 */
int	 jtable_read(json_t *o, void *rec, const struct jfield *, size_t n, const char *where,
	    char **cause);

/* Frees the J_PSTR members of rec (and sets them NULL). */
void	 jtable_free(void *rec, const struct jfield *, size_t n);

/* Member key of o as a string ("" if it is not one) or a count (0 if not a positive integer). */
void	 jtable_str(json_t *o, const char *key, char *buf, size_t len);
uint64_t jtable_u64(json_t *o, const char *key);

#endif
