/* SPDX-License-Identifier: MIT */
/*
 * The destructors a compound page may carry: a closed set, registered at boot (mm_init()
 * registers free_compound_page, the default, and free_huge_page), so that a compound page's
 * destructor field, however damaged, is only ever called when it names one of them. Below
 * everything that uses it: the metadata (mm/compound.c) checks against it, reports
 * (mm/dump_page.c) name destructors with it, and put_page() dispatches through it.
 */
#ifndef MM_COMPOUND_DTOR_H
#define MM_COMPOUND_DTOR_H

#include "mm/page.h"

#define MAX_COMPOUND_DTORS 4

/**
 * register_compound_dtor() - Add a destructor to the set a compound page may carry.
 * @dtor: the destructor; the first one registered is the default destructor.
 * @name: what reports call it.
 *
 * Registering one again does nothing.
 *
 * Return: 0, or -EINVAL (reported) for NULL or when the set is full.
 */
int register_compound_dtor(compound_page_dtor *dtor, const char *name);

/**
 * compound_dtor_name() - The name of a registered destructor.
 * @dtor: any pointer.
 *
 * Return: the name, or NULL for anything else (NULL included).
 */
const char *compound_dtor_name(compound_page_dtor *dtor);

/**
 * default_compound_dtor() - The default destructor (the first registered).
 *
 * Return: it, or NULL before any registration.
 */
compound_page_dtor *default_compound_dtor(void);

#endif
