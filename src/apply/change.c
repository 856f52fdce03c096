/* A change as the journal's entry record, history and `apply --json` show it (apply.h). */
#include <stdlib.h>

#include "apply/apply.h"

const char *
apply_action_name(enum apply_action a)
{
	static const char *const names[] = { "set", "same", "condition", "boot", "trial" };

	return names[a];
}

json_t *
apply_change_json(const struct apply_change *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(c->name));
	json_object_set_new(o, "old", c->old != NULL ? json_string(c->old) : json_null());
	json_object_set_new(o, "new", json_string(c->want));
	json_object_set_new(o, "action", json_string(apply_action_name(c->action)));
	json_object_set_new(o, "netns", json_boolean(c->in_netns));
	return o;
}

void
apply_changes_free(struct apply_change *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].old);
		free(v[i].want);
	}
	free(v);
}
