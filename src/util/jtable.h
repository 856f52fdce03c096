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
	/* nested (strict reads and writes; jtable_from_json leaves them empty) */
	J_OBJ,		/* an embedded struct of elem bytes whose rows are sub: an object */
	J_POBJ,		/* a pointer to one malloc'd struct of elem bytes (sub's rows), NULL: null */
	J_ARR,		/* a pointer to elem-byte structs (sub's rows), their count a size_t at
			   count_off: an array of objects */
	J_STRV,		/* char ** and its count (a size_t at count_off): an array of strings */
	J_JSON,		/* json_t *, a reference kept as it is: any object (read), NULL: null */
	J_ENUM,		/* an enum (int) 0..nsub-1 written as names[v] (else null); read: one of
			   the names (JF_OPT absent: the last one) */
};

/* Row flags. */
/* jtable_read: may be absent, then "", NULL, 0, -1 for J_INT/J_LONG/J_TRI, NaN for J_DBL */
#define JF_OPT		0x1
#define JF_OMIT0	0x2	/* written only when not zero / not "" */
#define JF_TRUE		0x4	/* a J_BOOL JF_OPT row absent reads as true */
#define JF_NULLNAN	0x8	/* J_DBL: null when not finite, null reads as NaN */
#define JF_NULLNEG	0x10	/* J_DBL: null when negative too (not measured) */
#define JF_NULLSTR	0x20	/* J_PSTR: NULL written as null, null read as NULL */
#define JF_OMITNULL	0x40	/* J_PSTR, J_POBJ, J_JSON: written only when not NULL ("" is written) */

struct jfield {
	const char *group;	/* the member object holding it ("channels"), or NULL */
	const char *key;
	enum jkind kind;
	size_t	 off;
	size_t	 size;		/* J_STR: the array's size */
	unsigned flags;
	const struct jfield *sub;	/* J_OBJ, J_POBJ, J_ARR: the rows of the nested struct */
	size_t	 nsub;
	size_t	 elem;		/* J_POBJ, J_ARR: the nested struct's size */
	size_t	 count_off;	/* J_ARR, J_STRV: offsetof the size_t count */
	const char *const *names;	/* J_ENUM: the names of 0..nsub-1 */
};

#define JSTR(type, group, key, member) \
	{ group, key, J_STR, offsetof(type, member), sizeof(((type *)0)->member), 0, NULL, 0, 0, 0, \
	  NULL }
#define JNUM(type, group, key, kind, member) \
	{ group, key, kind, offsetof(type, member), 0, 0, NULL, 0, 0, 0, NULL }
/* The same with row flags. */
#define JSTRF(type, group, key, member, flags) \
	{ group, key, J_STR, offsetof(type, member), sizeof(((type *)0)->member), flags, NULL, 0, 0, \
	  0, NULL }
#define JNUMF(type, group, key, kind, member, flags) \
	{ group, key, kind, offsetof(type, member), 0, flags, NULL, 0, 0, 0, NULL }

/* Nested rows: sub is a struct jfield array (its rows counted here). */
#define JOBJ(type, key, member, sub) \
	{ NULL, key, J_OBJ, offsetof(type, member), 0, 0, sub, sizeof(sub) / sizeof(*(sub)), \
	  sizeof(((type *)0)->member), 0, NULL }
#define JPOBJF(type, key, member, sub, flags) \
	{ NULL, key, J_POBJ, offsetof(type, member), 0, flags, sub, sizeof(sub) / sizeof(*(sub)), \
	  sizeof(*((type *)0)->member), 0, NULL }
#define JARR(type, key, member, count, sub) \
	{ NULL, key, J_ARR, offsetof(type, member), 0, 0, sub, sizeof(sub) / sizeof(*(sub)), \
	  sizeof(*((type *)0)->member), offsetof(type, count), NULL }
#define JSTRV(type, key, member, count) \
	{ NULL, key, J_STRV, offsetof(type, member), 0, 0, NULL, 0, 0, offsetof(type, count), NULL }
#define JENUMF(type, key, member, names, flags) \
	{ NULL, key, J_ENUM, offsetof(type, member), 0, flags, NULL, sizeof(names) / sizeof(*(names)), \
	  0, 0, names }
#define JJSONF(type, key, member, flags) \
	{ NULL, key, J_JSON, offsetof(type, member), 0, flags, NULL, 0, 0, 0, NULL }

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
 * fraction (a document read with JSON_DECODE_INT_AS_REAL). A nested row's
 * complaint names its path: "WHERE: items[2].changes[0]: key 'line': missing".
 * On -1 nothing of rec is left allocated.
 */
int	 jtable_read(json_t *o, void *rec, const struct jfield *, size_t n, const char *where,
	    char **cause);

/* Frees the J_PSTR and nested members of rec (and sets them NULL, their counts 0). */
void	 jtable_free(void *rec, const struct jfield *, size_t n);

/* Member key of o as a string ("" if it is not one) or a count (0 if not a positive integer). */
void	 jtable_str(json_t *o, const char *key, char *buf, size_t len);
uint64_t jtable_u64(json_t *o, const char *key);

#endif
