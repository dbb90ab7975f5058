/* SPDX-License-Identifier: MIT */
/*
 * What the slab self-tests (slab_helpers.h), the stress core (tests/stress/) and the slab
 * benchmark (tests/bench/) share: the kmalloc size classes as the tests expect them (mm/slab.h
 * promises them; the tests keep their own list so that a class mm/ drops or adds is noticed), and
 * whether new caches start with debugging on. Freestanding.
 */
#ifndef TESTS_KTEST_SLAB_SHARED_H
#define TESTS_KTEST_SLAB_SHARED_H

#include "mm/slab.h"

/* Every kmalloc size class, smallest first. */
static const size_t slab_test_classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192 };
#define SLAB_TEST_NCLASSES (sizeof(slab_test_classes) / sizeof(slab_test_classes[0]))

/* Is debugging on for caches created now? (A probe cache says; MM_DEBUG builds start with it.) */
static inline bool slab_test_debug_default(void)
{
	struct kmem_cache *probe = kmem_cache_create("slabtest-probe", 32, 0, 0);
	bool on = probe && slab_debug_enabled(probe);

	if (probe)
		kmem_cache_destroy(probe);
	return on;
}

#endif
