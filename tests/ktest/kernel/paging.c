/* SPDX-License-Identifier: MIT */
/* Self-test: after boot, low virtual addresses are unmapped, so a NULL dereference faults. */
#include "tests/ktest/ktest.h"
#include "kernel/traps.h"

static void null_pointer_read_faults(struct ktest *t)
{
	struct trap_record seen = { 0 };
	uint64_t val = 0;

	trap_expect(14, &seen);
	KT_EXPECT_EQ(t, probe_read64((const volatile void *)0, &val), -1);
	KT_EXPECT(t, trap_expect_done(), "reading address 0 did not fault: the identity map is still there");
	KT_EXPECT_EQ(t, seen.cr2, 0);
}

KTEST_SUITE(paging, KTEST_CASE(null_pointer_read_faults));
