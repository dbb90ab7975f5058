/* SPDX-License-Identifier: MIT */
/*
 * TLB flushes after a change to the kernel's page tables. Every CPU runs on the same kernel page
 * tables, but each caches translations in its own TLB: a mapping made narrower (read-only,
 * unmapped, a page-table page about to be freed) must be flushed on every CPU before the change
 * may be relied on. flush_tlb_kernel_range() flushes locally and shoots the range down on the
 * other CPUs with an interprocessor interrupt (APIC_VECTOR_TLB), waiting until each has flushed.
 */
#ifndef KERNEL_TLB_H
#define KERNEL_TLB_H

#include <stdint.h>

/*
 * More pages than this in a range flush the whole TLB (a CR3 reload: the kernel maps nothing
 * global) instead of one invlpg per page.
 */
#define TLB_FLUSH_ALL_PAGES 32

/* Registers the shootdown's interrupt handler; platform_init() calls it before the CPUs start. */
void tlb_init(void);

/*
 * Flushes this CPU's translations of [start, end) (page granularity) and every paging-structure
 * cache entry (invlpg flushes those whatever the address).
 */
void flush_tlb_local_range(uintptr_t start, uintptr_t end);

/*
 * Flushes [start, end) on every online CPU and returns once each one has. Any CPU may call it,
 * with interrupts ON: two CPUs shooting down at once are served one after the other, and the
 * one waiting must be able to take the other's interrupt (with interrupts off it panics rather
 * than deadlock). Not from an interrupt handler.
 */
void flush_tlb_kernel_range(uintptr_t start, uintptr_t end);

/* How many shootdowns CPU cpu has received (handled in its interrupt handler) since boot. */
unsigned long tlb_shootdowns_received(unsigned int cpu);

#endif
