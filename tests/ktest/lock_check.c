/* SPDX-License-Identifier: MIT */
/*
 * The lock order check of MM_DEBUG builds (mm/lock_check.h) on locks of the test's own classes:
 * a consistent order is never reported; two locks taken in both orders, three taken in a circle,
 * two of one class held at once, a class taken in an interrupt handler and with interrupts on are
 * each reported exactly once; lock_held() knows what this CPU holds. Each lock_set_class() below
 * is a class of its own.
 */
#include "tests/ktest/ktest.h"
#include "mm/debug.h"
#include "mm/lock_check.h"

#if MM_DEBUG

#ifdef HOST_BUILD
#include "tests/mm/host_mm.h"
#else
#include "kernel/traps.h"
#define LOCK_TEST_VECTOR 0xe5 /* an interrupt vector nothing else uses */
#endif

/* Takes first, then second, both with interrupts off; releases them in the opposite order. */
static void take_both(mm_spinlock_t *first, mm_spinlock_t *second)
{
	unsigned long irq = arch_irq_save();

	arch_spin_lock(first);
	arch_spin_lock(second);
	arch_spin_unlock(second);
	arch_spin_unlock(first);
	arch_irq_restore(irq);
}

static void consistent_order_is_not_reported(struct ktest *t)
{
	static mm_spinlock_t outer, inner;
	unsigned long before = lock_check_report_count();

	lock_set_class(&outer, "test_outer");
	lock_set_class(&inner, "test_inner");
	for (int i = 0; i < 3; i++)
		take_both(&outer, &inner);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 0);
}

static void both_orders_are_reported_once(struct ktest *t)
{
	static mm_spinlock_t a, b;
	unsigned long before = lock_check_report_count();

	lock_set_class(&a, "test_a");
	lock_set_class(&b, "test_b");
	take_both(&a, &b);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 0);
	take_both(&b, &a); /* the inversion: one report */
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
	take_both(&a, &b);
	take_both(&b, &a);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
}

static void three_classes_in_a_circle_are_reported_once(struct ktest *t)
{
	static mm_spinlock_t x, y, z;
	unsigned long before = lock_check_report_count();

	lock_set_class(&x, "test_x");
	lock_set_class(&y, "test_y");
	lock_set_class(&z, "test_z");
	take_both(&x, &y);
	take_both(&y, &z);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 0);
	take_both(&z, &x); /* x before y before z before x: one report */
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
	take_both(&x, &y);
	take_both(&y, &z);
	take_both(&z, &x);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
}

static void same_class_twice_is_reported_once(struct ktest *t)
{
	static mm_spinlock_t pair[2];
	unsigned long before = lock_check_report_count();

	for (int i = 0; i < 2; i++)
		lock_set_class(&pair[i], "test_pair");
	take_both(&pair[0], &pair[1]);
	take_both(&pair[1], &pair[0]);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
}

static mm_spinlock_t irq_lock, irq_safe_lock;

/* Takes irq_lock and irq_safe_lock as an interrupt handler (interrupts off there). */
static void take_in_handler(void)
{
	arch_spin_lock(&irq_lock);
	arch_spin_unlock(&irq_lock);
	arch_spin_lock(&irq_safe_lock);
	arch_spin_unlock(&irq_safe_lock);
}

#ifdef HOST_BUILD
/* The host has no interrupts: the harness's count of emulated handlers says it is one. */
static void run_as_interrupt(void)
{
	unsigned long irq = arch_irq_save();

	host_mm_irq_depth++;
	take_in_handler();
	host_mm_irq_depth--;
	arch_irq_restore(irq);
}
#else
static void lock_test_interrupt(unsigned int vector)
{
	(void)vector;
	take_in_handler();
}

/* A real interrupt: a software one to a vector of the test's own. */
static void run_as_interrupt(void)
{
	irq_register(LOCK_TEST_VECTOR, lock_test_interrupt);
	__asm__ volatile("int %0" : : "i"(LOCK_TEST_VECTOR) : "memory");
}
#endif

static void interrupt_and_interrupts_on_is_reported_once(struct ktest *t)
{
	unsigned long before = lock_check_report_count(), irq;

	lock_set_class(&irq_lock, "test_irq");
	lock_set_class(&irq_safe_lock, "test_irq_safe");
	run_as_interrupt();
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 0);
	irq = arch_irq_save(); /* both taken with interrupts off: as mm/ does, nothing to report */
	arch_spin_lock(&irq_safe_lock);
	arch_spin_unlock(&irq_safe_lock);
	arch_irq_restore(irq);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 0);
	arch_spin_lock(&irq_lock); /* with interrupts on: one report */
	arch_spin_unlock(&irq_lock);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
	run_as_interrupt();
	arch_spin_lock(&irq_lock);
	arch_spin_unlock(&irq_lock);
	KT_EXPECT_EQ(t, lock_check_report_count() - before, 1);
}

static void lock_held_knows_this_cpus_locks(struct ktest *t)
{
	static mm_spinlock_t lock;
	unsigned long irq = arch_irq_save();
	bool before, during, after;

	lock_set_class(&lock, "test_held");
	before = lock_held(&lock);
	arch_spin_lock(&lock);
	during = lock_held(&lock);
	arch_spin_unlock(&lock);
	after = lock_held(&lock);
	arch_irq_restore(irq);
	KT_EXPECT(t, !before && during && !after, "held before %d, during %d, after %d", before, during, after);
}

KTEST_SUITE(lock_check, KTEST_CASE(consistent_order_is_not_reported),
	    KTEST_MISUSE_CASE(both_orders_are_reported_once),
	    KTEST_MISUSE_CASE(three_classes_in_a_circle_are_reported_once),
	    KTEST_MISUSE_CASE(same_class_twice_is_reported_once),
	    KTEST_MISUSE_CASE(interrupt_and_interrupts_on_is_reported_once),
	    KTEST_CASE(lock_held_knows_this_cpus_locks));

#endif
