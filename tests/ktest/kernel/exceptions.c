/* SPDX-License-Identifier: MIT */
/* Self-tests of the exception handler: deliberate faults are caught, reported, and the test resumes. */
#include "tests/ktest/ktest.h"
#include "kernel/traps.h"

#define VEC_BP 3
#define VEC_UD 6
#define VEC_GP 13
#define VEC_PF 14

static void page_fault_is_reported_and_resumed(struct ktest *t)
{
	/* 16 TiB: canonical, and never mapped by this kernel. */
	const volatile void *unmapped = (const volatile void *)0x0000100000000000ULL;
	struct trap_record seen = { 0 };
	uint64_t val = 0;

	trap_expect(VEC_PF, &seen);
	int r = probe_read64(unmapped, &val);
	KT_EXPECT(t, trap_expect_done(), "no #PF was delivered");
	KT_EXPECT_EQ(t, r, -1);
	KT_EXPECT_EQ(t, seen.cr2, (uintptr_t)unmapped);
	KT_EXPECT(t, !(seen.error_code & 1), "error code %#llx should say 'not present'",
		  (unsigned long long)seen.error_code);
}

static void general_protection_is_reported_and_resumed(struct ktest *t)
{
	const volatile void *noncanonical = (const volatile void *)0x8000000000000000ULL;
	struct trap_record seen = { 0 };
	uint64_t val = 0;

	trap_expect(VEC_GP, &seen);
	KT_EXPECT_EQ(t, probe_read64(noncanonical, &val), -1);
	KT_EXPECT(t, trap_expect_done(), "no #GP was delivered");
	KT_EXPECT_EQ(t, seen.vector, VEC_GP);
}

static void invalid_opcode_is_reported_and_resumed(struct ktest *t)
{
	struct trap_record seen = { 0 };

	trap_expect(VEC_UD, &seen);
	KT_EXPECT_EQ(t, probe_ud2(), -1);
	KT_EXPECT(t, trap_expect_done(), "no #UD was delivered");
}

static void breakpoint_returns_after_int3(struct ktest *t)
{
	struct trap_record seen = { 0 };

	trap_expect(VEC_BP, &seen);
	__asm__ volatile("int3");
	KT_EXPECT(t, trap_expect_done(), "no #BP was delivered");
	KT_EXPECT_EQ(t, seen.vector, VEC_BP);
}

static void mapped_read_does_not_fault(struct ktest *t)
{
	static const uint64_t word = 0x1122334455667788ULL;
	struct trap_record seen = { 0 };
	uint64_t val = 0;

	trap_expect(VEC_PF, &seen);
	KT_EXPECT_EQ(t, probe_read64(&word, &val), 0);
	KT_EXPECT(t, !trap_expect_done(), "a mapped read faulted");
	KT_EXPECT_EQ(t, val, word);
}

static void write_fault_is_reported_and_resumed(struct ktest *t)
{
	volatile void *unmapped = (volatile void *)0x0000100000000000ULL; /* as above */
	static uint64_t word;
	struct trap_record seen = { 0 };

	trap_expect(VEC_PF, &seen);
	KT_EXPECT_EQ(t, probe_write64(unmapped, 1), -1);
	KT_EXPECT(t, trap_expect_done(), "no #PF was delivered");
	KT_EXPECT_EQ(t, seen.cr2, (uintptr_t)unmapped);
	KT_EXPECT_EQ(t, seen.error_code & 3, 2); /* not present, write */
	trap_expect(VEC_PF, &seen);
	KT_EXPECT_EQ(t, probe_write64(&word, 0x77), 0);
	KT_EXPECT(t, !trap_expect_done(), "a write to writable memory faulted");
	KT_EXPECT_EQ(t, word, 0x77);
}

KTEST_SUITE(exceptions,
	    KTEST_CASE(page_fault_is_reported_and_resumed),
	    KTEST_CASE(general_protection_is_reported_and_resumed),
	    KTEST_CASE(invalid_opcode_is_reported_and_resumed),
	    KTEST_CASE(breakpoint_returns_after_int3),
	    KTEST_CASE(mapped_read_does_not_fault),
	    KTEST_CASE(write_fault_is_reported_and_resumed));
