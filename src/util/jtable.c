/* A struct's JSON form as one table of fields (jtable.h): write, read, read strictly. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jtable.h"
#include "util/util.h"

/* src into dst of len bytes, cut and terminated. */
static void
jcopy(char *dst, const char *src, size_t len)
{
	if (len > 0)
		snprintf(dst, len, "%s", src);
}

void
jtable_str(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	jcopy(buf, json_is_string(v) ? json_string_value(v) : "", len);
}

uint64_t
jtable_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static long
getint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

static int
gettri(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

static json_t *
jint(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* The pointer of a pointer row (J_PSTR, J_POBJ, J_ARR, J_STRV, J_JSON) at p. */
static void *
ptr_at(const char *p)
{
	return *(void *const *)(const void *)p;
}

/* The count of a J_ARR or J_STRV row of rec. */
static size_t *
count_of(const void *rec, const struct jfield *f)
{
	return (size_t *)(void *)((char *)(uintptr_t)rec + f->count_off);
}

static const char *read_enum(json_t *, char *, const struct jfield *);

/* Row f of rec is zero or "" (JF_OMIT0 leaves it out). */
static bool
is_zero(const void *rec, const struct jfield *f)
{
	const char *p = (const char *)rec + f->off;

	switch (f->kind) {
	case J_STR:
		return p[0] == '\0';
	case J_INT:
	case J_TRI:
	case J_IDX:
	case J_ENUM:
		return *(const int *)(const void *)p == 0;
	case J_LONG:
		return *(const long *)(const void *)p == 0;
	case J_U64:
		return *(const uint64_t *)(const void *)p == 0;
	case J_BOOL:
		return !*(const bool *)(const void *)p;
	case J_DBL:
		return *(const double *)(const void *)p == 0;
	case J_PSTR:
		return ptr_at(p) == NULL || *(const char *)ptr_at(p) == '\0';
	case J_POBJ:
	case J_JSON:
		return ptr_at(p) == NULL;
	case J_ARR:
	case J_STRV:
		return *count_of(rec, f) == 0;
	case J_OBJ:
		return false;
	}
	return false;
}

/* A nested row's value: an object, an array of objects or of strings, a kept reference. */
static json_t *
nested_value(const void *rec, const struct jfield *f)
{
	const char *p = (const char *)rec + f->off;
	char *const *v;
	json_t *o;
	size_t i;

	switch (f->kind) {
	case J_OBJ:
	case J_POBJ:
		if (f->kind == J_POBJ && ptr_at(p) == NULL)
			return json_null();
		o = json_object();
		jtable_to_json(o, f->kind == J_OBJ ? (const void *)p : ptr_at(p), f->sub, f->nsub);
		return o;
	case J_ARR:
		return jtable_records_to_json(ptr_at(p), *count_of(rec, f), f->elem, f->sub, f->nsub);
	case J_STRV:
		o = json_array();
		v = ptr_at(p);
		for (i = 0; i < *count_of(rec, f); i++)
			json_array_append_new(o, json_string(v[i] != NULL ? v[i] : ""));
		return o;
	case J_JSON:
		return ptr_at(p) == NULL ? json_null() : json_incref(ptr_at(p));
	default:
		return json_null();
	}
}

static json_t *
field_value(const void *rec, const struct jfield *f)
{
	const char *p = (const char *)rec + f->off;
	double d;

	switch (f->kind) {
	case J_STR:
		return json_string(p);
	case J_INT:
		return jint(*(const int *)(const void *)p);
	case J_LONG:
		return jint(*(const long *)(const void *)p);
	case J_TRI:
		return *(const int *)(const void *)p < 0 ? json_null() :
		    json_boolean(*(const int *)(const void *)p);
	case J_U64:
		return json_integer((json_int_t)*(const uint64_t *)(const void *)p);
	case J_IDX:
		return json_integer(*(const int *)(const void *)p);
	case J_BOOL:
		return json_boolean(*(const bool *)(const void *)p);
	case J_DBL:
		d = *(const double *)(const void *)p;
		if (((f->flags & (JF_NULLNAN | JF_NULLNEG)) && !isfinite(d)) ||
		    ((f->flags & JF_NULLNEG) && d < 0))
			return json_null();
		return json_real(d);
	case J_PSTR:
		if (*(char *const *)(const void *)p == NULL && (f->flags & JF_NULLSTR))
			return json_null();
		return json_string(*(char *const *)(const void *)p != NULL ?
		    *(char *const *)(const void *)p : "");
	case J_ENUM:
		return *(const int *)(const void *)p >= 0 && (size_t)*(const int *)(const void *)p <
		    f->nsub ? json_string(f->names[*(const int *)(const void *)p]) : json_null();
	default:
		return nested_value(rec, f);
	}
}

void
jtable_to_json(json_t *o, const void *rec, const struct jfield *f, size_t n)
{
	const char *p;
	json_t *dst;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (const char *)rec + f[i].off;
		if (((f[i].flags & JF_OMIT0) && is_zero(rec, &f[i])) ||
		    ((f[i].flags & JF_OMITNULL) && (f[i].kind == J_PSTR || f[i].kind == J_POBJ ||
		    f[i].kind == J_JSON) && ptr_at(p) == NULL))
			continue;
		dst = o;
		if (f[i].group != NULL && (dst = json_object_get(o, f[i].group)) == NULL) {
			dst = json_object();
			json_object_set_new(o, f[i].group, dst);
		}
		json_object_set_new(dst, f[i].key, field_value(rec, &f[i]));
	}
}

json_t *
jtable_records_to_json(const void *recs, size_t n, size_t size, const struct jfield *f, size_t nf)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; i < n; i++) {
		o = json_object();
		jtable_to_json(o, (const char *)recs + i * size, f, nf);
		json_array_append_new(a, o);
	}
	return a;
}

/* The pointer rows of rec NULL, their counts 0 (nested structs too): what jtable_free may free. */
static void
jinit(void *rec, const struct jfield *f, size_t n)
{
	char *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (char *)rec + f[i].off;
		switch (f[i].kind) {
		case J_ARR:
		case J_STRV:
			*count_of(rec, &f[i]) = 0;
			/* FALLTHROUGH */
		case J_PSTR:
		case J_POBJ:
		case J_JSON:
			*(void **)(void *)p = NULL;
			break;
		case J_OBJ:
			jinit(p, f[i].sub, f[i].nsub);
			break;
		default:
			break;
		}
	}
}

void
jtable_from_json(json_t *o, void *rec, const struct jfield *f, size_t n)
{
	json_t *src, *v;
	char *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (char *)rec + f[i].off;
		src = f[i].group != NULL ? json_object_get(o, f[i].group) : o;
		switch (f[i].kind) {
		case J_STR:
			jtable_str(src, f[i].key, p, f[i].size);
			break;
		case J_INT:
		case J_IDX:
			*(int *)(void *)p = (int)getint(src, f[i].key);
			break;
		case J_LONG:
			*(long *)(void *)p = getint(src, f[i].key);
			break;
		case J_TRI:
			*(int *)(void *)p = gettri(src, f[i].key);
			break;
		case J_U64:
			*(uint64_t *)(void *)p = jtable_u64(src, f[i].key);
			break;
		case J_BOOL:
			*(bool *)(void *)p = json_is_true(json_object_get(src, f[i].key));
			break;
		case J_DBL:
			v = json_object_get(src, f[i].key);
			*(double *)(void *)p = json_is_number(v) ? json_number_value(v) : 0;
			break;
		case J_PSTR:
			v = json_object_get(src, f[i].key);
			*(char **)(void *)p = xstrdup(json_is_string(v) ? json_string_value(v) : "");
			break;
		case J_OBJ:
			jtable_from_json(json_object_get(src, f[i].key), p, f[i].sub, f[i].nsub);
			break;
		case J_ENUM:
			if (read_enum(json_object_get(src, f[i].key), p, &f[i]) != NULL)
				*(int *)(void *)p = -1;
			break;
		default:
			jinit(rec, &f[i], 1);
			break;
		}
	}
}

/* v as a whole number (an integer, or a real without fraction): 0, or -1. */
static int
whole(json_t *v, double lo, double hi, double *out)
{
	double d;

	if (json_is_integer(v))
		d = (double)json_integer_value(v);
	else if (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v))
		d = json_real_value(v);
	else
		return -1;
	if (d < lo || d > hi)
		return -1;
	*out = d;
	return 0;
}

/* A J_ENUM row: the index of v among f->names, or what is wrong with v. */
static const char *
read_enum(json_t *v, char *p, const struct jfield *f)
{
	size_t i;

	for (i = 0; json_is_string(v) && i < f->nsub; i++) {
		if (strcmp(json_string_value(v), f->names[i]) == 0) {
			*(int *)(void *)p = (int)i;
			return NULL;
		}
	}
	return "is not one of the names it takes";
}

/* Stores v (present) into row f of rec: NULL, or what is wrong with v. */
static const char *
read_value(json_t *v, char *p, const struct jfield *f)
{
	double d;

	switch (f->kind) {
	case J_STR:
		if (!json_is_string(v))
			return "is not a string";
		jcopy(p, json_string_value(v), f->size);
		return NULL;
	case J_INT:
	case J_LONG:
		if (json_is_null(v))
			d = -1;
		else if (whole(v, 0, f->kind == J_INT ? INT32_MAX : 9e18, &d) == -1)
			return "is not a whole number (or null)";
		if (f->kind == J_INT)
			*(int *)(void *)p = (int)d;
		else
			*(long *)(void *)p = (long)d;
		return NULL;
	case J_IDX:
		if (whole(v, INT32_MIN, INT32_MAX, &d) == -1)
			return "is not a whole number";
		*(int *)(void *)p = (int)d;
		return NULL;
	case J_U64:
		if (whole(v, 0, 1.8e19, &d) == -1)
			return "is not a count (a whole number >= 0)";
		*(uint64_t *)(void *)p = json_is_integer(v) ? (uint64_t)json_integer_value(v) :
		    (uint64_t)d;
		return NULL;
	case J_TRI:
	case J_BOOL:
		if (!json_is_boolean(v) && !(f->kind == J_TRI && json_is_null(v)))
			return f->kind == J_TRI ? "is not true, false or null" : "is not true or false";
		if (f->kind == J_BOOL)
			*(bool *)(void *)p = json_is_true(v);
		else
			*(int *)(void *)p = json_is_null(v) ? -1 : json_is_true(v);
		return NULL;
	case J_DBL:
		if (json_is_null(v) && (f->flags & (JF_NULLNAN | JF_NULLNEG))) {
			*(double *)(void *)p = NAN;
			return NULL;
		}
		if (!json_is_number(v))
			return f->flags & (JF_NULLNAN | JF_NULLNEG) ? "is not a number (or null)" :
			    "is not a number";
		*(double *)(void *)p = json_number_value(v);
		return NULL;
	case J_PSTR:
		if (json_is_null(v) && (f->flags & JF_NULLSTR)) {
			*(char **)(void *)p = NULL;
			return NULL;
		}
		if (!json_is_string(v))
			return f->flags & JF_NULLSTR ? "is not a string (or null)" : "is not a string";
		*(char **)(void *)p = xstrdup(json_string_value(v));
		return NULL;
	case J_ENUM:
		return read_enum(v, p, f);
	default:
		return "has an unknown kind";
	}
}

/* The value of an absent JF_OPT row: "", unknown (-1 or NaN), false (true with JF_TRUE), else 0. */
static void
read_absent(char *p, const struct jfield *f)
{
	switch (f->kind) {
	case J_STR:
		p[0] = '\0';
		break;
	case J_INT:
	case J_TRI:
		*(int *)(void *)p = -1;
		break;
	case J_IDX:
		*(int *)(void *)p = 0;
		break;
	case J_LONG:
		*(long *)(void *)p = -1;
		break;
	case J_U64:
		*(uint64_t *)(void *)p = 0;
		break;
	case J_BOOL:
		*(bool *)(void *)p = (f->flags & JF_TRUE) != 0;
		break;
	case J_DBL:
		*(double *)(void *)p = NAN;
		break;
	case J_PSTR:
		*(char **)(void *)p = NULL;
		break;
	case J_OBJ:
		memset(p, 0, f->elem);
		break;
	case J_ENUM:
		*(int *)(void *)p = f->nsub > 0 ? (int)f->nsub - 1 : 0;
		break;
	default:
		break;	/* jinit left them empty */
	}
}

static int	read_rows(json_t *, void *, const struct jfield *, size_t, const char *,
		    const char *, char **);

/* "WHERE: key 'PREFIXGROUP.KEY': bad" */
static int
bad_key(const char *where, const char *prefix, const struct jfield *f, const char *bad,
    char **cause)
{
	util_cause(cause, "%s: key '%s%s%s%s': %s", where, prefix, f->group != NULL ? f->group : "",
	    f->group != NULL ? "." : "", f->key, bad);
	return -1;
}

/* An array of f->elem-byte records (J_ARR) into *out, *n; each named PREFIXKEY[I]. */
static int
read_records(json_t *v, const struct jfield *f, const char *where, const char *prefix,
    void **out, size_t *n, char **cause)
{
	char *recs, *at;
	size_t i, k = json_array_size(v);
	int rc = 0;

	recs = xcalloc(k > 0 ? k : 1, f->elem);
	for (i = 0; i < k && rc == 0; i++) {
		xasprintf(&at, "%s%s[%zu].", prefix, f->key, i);
		rc = read_rows(json_array_get(v, i), recs + i * f->elem, f->sub, f->nsub, where, at,
		    cause);
		free(at);
	}
	if (rc == -1) {
		while (--i > 0)
			jtable_free(recs + (i - 1) * f->elem, f->sub, f->nsub);
		free(recs);
		return -1;
	}
	*out = recs;
	*n = k;
	return 0;
}

/* An array of strings (J_STRV) into *out, *n. */
static int
read_strings(json_t *v, const struct jfield *f, const char *where, const char *prefix,
    char ***out, size_t *n, char **cause)
{
	char **s, key[256];
	size_t i, k = json_array_size(v);

	for (i = 0; i < k; i++) {
		if (!json_is_string(json_array_get(v, i))) {
			snprintf(key, sizeof key, "%s[%zu]", f->key, i);
			util_cause(cause, "%s: key '%s%s': is not a string", where, prefix, key);
			return -1;
		}
	}
	s = xcalloc(k > 0 ? k : 1, sizeof *s);
	for (i = 0; i < k; i++)
		s[i] = xstrdup(json_string_value(json_array_get(v, i)));
	*out = s;
	*n = k;
	return 0;
}

/* A nested row (present): -1 with its complaint in *cause. */
static int
read_nested(json_t *v, void *rec, const struct jfield *f, const char *where, const char *prefix,
    char **cause)
{
	char *p = (char *)rec + f->off, *at;
	void *one;
	int rc;

	if (f->kind == J_ARR || f->kind == J_STRV) {
		if (!json_is_array(v))
			return bad_key(where, prefix, f, "is not an array", cause);
		return f->kind == J_ARR ? read_records(v, f, where, prefix, (void **)(void *)p,
		    count_of(rec, f), cause) : read_strings(v, f, where, prefix, (char ***)(void *)p,
		    count_of(rec, f), cause);
	}
	if (json_is_null(v) && f->kind != J_OBJ)
		return 0;	/* J_POBJ, J_JSON: NULL */
	if (!json_is_object(v))
		return bad_key(where, prefix, f, f->kind == J_OBJ ? "is not an object" :
		    "is not an object (or null)", cause);
	if (f->kind == J_JSON) {
		*(json_t **)(void *)p = json_incref(v);
		return 0;
	}
	xasprintf(&at, "%s%s.", prefix, f->key);
	one = f->kind == J_OBJ ? p : xcalloc(1, f->elem);
	rc = read_rows(v, one, f->sub, f->nsub, where, at, cause);
	free(at);
	if (f->kind == J_POBJ) {
		if (rc == 0)
			*(void **)(void *)p = one;
		else
			free(one);
	}
	return rc;
}

/* jtable_read with PREFIX before each key it names (a nested record's path). */
static int
read_rows(json_t *o, void *rec, const struct jfield *f, size_t n, const char *where,
    const char *prefix, char **cause)
{
	const char *bad;
	json_t *src, *v;
	size_t i;

	jinit(rec, f, n);
	if (!json_is_object(o)) {
		if (*prefix != '\0')
			util_cause(cause, "%s: key '%.*s': is not an object", where,
			    (int)strlen(prefix) - 1, prefix);
		else
			util_cause(cause, "%s: not a JSON object", where);
		return -1;
	}
	for (i = 0; i < n; i++) {
		src = f[i].group != NULL ? json_object_get(o, f[i].group) : o;
		v = json_object_get(src, f[i].key);
		if (v == NULL && (f[i].flags & JF_OPT)) {
			read_absent((char *)rec + f[i].off, &f[i]);
			continue;
		}
		if (v == NULL)
			bad = "missing";
		else if (f[i].kind >= J_OBJ && f[i].kind <= J_JSON) {
			if (read_nested(v, rec, &f[i], where, prefix, cause) == 0)
				continue;
			jtable_free(rec, f, n);
			return -1;
		} else
			bad = read_value(v, (char *)rec + f[i].off, &f[i]);
		if (bad != NULL) {
			bad_key(where, prefix, &f[i], bad, cause);
			jtable_free(rec, f, n);
			return -1;
		}
	}
	return 0;
}

int
jtable_read(json_t *o, void *rec, const struct jfield *f, size_t n, const char *where,
    char **cause)
{
	return read_rows(o, rec, f, n, where, "", cause);
}

void
jtable_free(void *rec, const struct jfield *f, size_t n)
{
	char *p, *v;
	size_t i, k;

	for (i = 0; i < n; i++) {
		p = (char *)rec + f[i].off;
		if (f[i].kind == J_OBJ)
			jtable_free(p, f[i].sub, f[i].nsub);
		if (f[i].kind < J_PSTR || f[i].kind == J_OBJ || f[i].kind == J_ENUM)
			continue;	/* no pointer */
		v = ptr_at(p);
		switch (f[i].kind) {
		case J_POBJ:
			if (v != NULL)
				jtable_free(v, f[i].sub, f[i].nsub);
			break;
		case J_ARR:
		case J_STRV:
			for (k = 0; k < *count_of(rec, &f[i]); k++) {
				if (f[i].kind == J_ARR)
					jtable_free(v + k * f[i].elem, f[i].sub, f[i].nsub);
				else
					free(((char **)(void *)v)[k]);
			}
			*count_of(rec, &f[i]) = 0;
			break;
		case J_JSON:
			json_decref((json_t *)(void *)v);
			*(void **)(void *)p = NULL;
			continue;
		case J_PSTR:
			break;
		default:
			continue;
		}
		free(v);
		*(void **)(void *)p = NULL;
	}
}
