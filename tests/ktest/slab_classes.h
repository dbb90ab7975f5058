/* SPDX-License-Identifier: MIT */
/*
 * The kmalloc size classes as the tests expect them (mm/slab.h promises them; the tests keep
 * their own list so that a class mm/ drops or adds is noticed). Freestanding: the slab
 * self-tests (slab_helpers.h) and the stress core (tests/stress/) share it.
 */
#ifndef TESTS_KTEST_SLAB_CLASSES_H
#define TESTS_KTEST_SLAB_CLASSES_H

#include <stddef.h>

/* Every kmalloc size class, smallest first. */
static const size_t slab_test_classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192 };
#define SLAB_TEST_NCLASSES (sizeof(slab_test_classes) / sizeof(slab_test_classes[0]))

#endif
