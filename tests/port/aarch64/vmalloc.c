/* SPDX-License-Identifier: MIT */
/*
 * vmalloc's side of mm/arch.h on the port kernel: PORT_VMALLOC_SIZE of address space mapped with
 * 4 KiB entries, its level-2 table and every level-3 table made at boot (static, 512 KiB), so
 * that a map never needs a table. One CPU: a TLB flush is this CPU's (TLBI VAE1 by page).
 *
 * The migration marker is an invalid entry with a software value: an access faults, and
 * port_sync_exception() asks vmalloc_fault() (mm/vmalloc.h) whether to retry it.
 */
#include "tests/port/aarch64/port.h"

#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/vmalloc.h"
#include "tests/port/aarch64/pgtable.h"

#define TABLES (PORT_VMALLOC_SIZE / MiB2)
#define VMALLOC_MARKER (1ULL << 55) /* bit 0 clear: invalid; the rest is ours */

uintptr_t mm_vmalloc_start = PORT_VMALLOC_BASE;
uintptr_t mm_vmalloc_end = PORT_VMALLOC_BASE + PORT_VMALLOC_SIZE;

static uint64_t level2[ENTRIES] __attribute__((aligned(4096)));
static uint64_t level3[TABLES][ENTRIES] __attribute__((aligned(4096)));

uint64_t vmalloc_tables(void)
{
	for (unsigned int i = 0; i < TABLES; i++)
		level2[i] = (uintptr_t)level3[i] | DESC_TABLE;
	return (uintptr_t)level2 | DESC_TABLE;
}

/* The level-3 entry of va, which must be in the range. */
static uint64_t *pte_of(uintptr_t va)
{
	uintptr_t off = va - PORT_VMALLOC_BASE;

	if (va < mm_vmalloc_start || va >= mm_vmalloc_end || va % PAGE_SIZE)
		panic("vmalloc: %#lx is not a page of the range [%#lx, %#lx)", (unsigned long)va,
		      (unsigned long)mm_vmalloc_start, (unsigned long)mm_vmalloc_end);
	return &level3[off / MiB2][off % MiB2 / PAGE_SIZE];
}

/* An entry set where none was valid: no TLB holds it; the barriers make the walker see it. */
static void set_new(uint64_t *pte, uint64_t value)
{
	__atomic_store_n(pte, value, __ATOMIC_RELAXED);
	__asm__ volatile("dsb ishst\n\tisb" : : : "memory");
}

/* A valid entry replaced: then this CPU's TLB entry for va goes. */
static void replace(uint64_t *pte, uintptr_t va, uint64_t value)
{
	__atomic_store_n(pte, value, __ATOMIC_RELAXED);
	__asm__ volatile("dsb ishst\n\ttlbi vae1, %0\n\tdsb ish\n\tisb" : : "r"(va >> 12) : "memory");
}

int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys)
{
	set_new(pte_of(va), phys | DATA_ATTRS | DESC_PAGE);
	return 0;
}

void arch_vmalloc_unmap(uintptr_t start, uintptr_t end)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t *pte = pte_of(va);

		if (*pte)
			replace(pte, va, 0);
	}
}

void arch_vmalloc_set_marker(uintptr_t va)
{
	replace(pte_of(va), va, VMALLOC_MARKER);
}

void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys)
{
	set_new(pte_of(va), phys | DATA_ATTRS | DESC_PAGE);
}

#define ESR_EC_DATA_ABORT_SAME_EL 0x25

/* A data abort on a migration marker waits for the move and is retried; anything else fails. */
void port_sync_exception(void)
{
	if (read_esr() >> 26 == ESR_EC_DATA_ABORT_SAME_EL && vmalloc_fault(read_far()))
		return;
	port_exception(4);
}
