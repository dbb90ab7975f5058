/* SPDX-License-Identifier: MIT */
/* The registered compound-page destructors: see mm/compound_dtor.h. */
#include "mm/compound_dtor.h"

#include "mm/arch.h"

static struct {
	compound_page_dtor *fn;
	const char *name;
} dtors[MAX_COMPOUND_DTORS];
static unsigned int nr_dtors;

int register_compound_dtor(compound_page_dtor *dtor, const char *name)
{
	if (compound_dtor_name(dtor))
		return 0;
	if (!dtor || nr_dtors == MAX_COMPOUND_DTORS) {
		printk("register_compound_dtor: %s refused (%s)\n", name ? name : "?",
		       dtor ? "no room left" : "NULL");
		return -EINVAL;
	}
	dtors[nr_dtors].fn = dtor;
	dtors[nr_dtors++].name = name;
	return 0;
}

const char *compound_dtor_name(compound_page_dtor *dtor)
{
	for (unsigned int i = 0; i < nr_dtors; i++)
		if (dtor && dtors[i].fn == dtor)
			return dtors[i].name;
	return NULL;
}

compound_page_dtor *default_compound_dtor(void)
{
	return nr_dtors ? dtors[0].fn : NULL;
}
