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

/* Row f of rec is zero or "" (JF_OMIT0 leaves it out). */
static bool
is_zero(const char *p, const struct jfield *f)
{
	switch (f->kind) {
	case J_STR:
		return p[0] == '\0';
	case J_INT:
	case J_TRI:
	case J_IDX:
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
		return *(char *const *)(const void *)p == NULL || **(char *const *)(const void *)p == '\0';
	}
	return false;
}

static json_t *
field_value(const char *p, const struct jfield *f)
{
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
	}
	return json_null();
}

void
jtable_to_json(json_t *o, const void *rec, const struct jfield *f, size_t n)
{
	const char *p;
	json_t *dst;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (const char *)rec + f[i].off;
		if ((f[i].flags & JF_OMIT0) && is_zero(p, &f[i]))
			continue;
		dst = o;
		if (f[i].group != NULL && (dst = json_object_get(o, f[i].group)) == NULL) {
			dst = json_object();
			json_object_set_new(o, f[i].group, dst);
		}
		json_object_set_new(dst, f[i].key, field_value(p, &f[i]));
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
	}
	return "has an unknown kind";
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
	}
}

int
jtable_read(json_t *o, void *rec, const struct jfield *f, size_t n, const char *where,
    char **cause)
{
	const char *bad;
	json_t *src, *v;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i].kind == J_PSTR)
			*(char **)(void *)((char *)rec + f[i].off) = NULL;
	}
	if (!json_is_object(o)) {
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
		bad = v == NULL ? "missing" : read_value(v, (char *)rec + f[i].off, &f[i]);
		if (bad != NULL) {
			util_cause(cause, "%s: key '%s%s%s': %s", where, f[i].group != NULL ?
			    f[i].group : "", f[i].group != NULL ? "." : "", f[i].key, bad);
			jtable_free(rec, f, n);
			return -1;
		}
	}
	return 0;
}

void
jtable_free(void *rec, const struct jfield *f, size_t n)
{
	char **p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i].kind != J_PSTR)
			continue;
		p = (char **)(void *)((char *)rec + f[i].off);
		free(*p);
		*p = NULL;
	}
}
