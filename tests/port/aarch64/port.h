/* SPDX-License-Identifier: MIT */
/* The AArch64 port kernel's own pieces: its UART, its page tables, and how a run ends. */
#ifndef TESTS_PORT_AARCH64_PORT_H
#define TESTS_PORT_AARCH64_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "tests/port/aarch64/fdt.h"

/* The virt board's PL011, used until the device tree names one. */
#define PL011_VIRT_BASE 0x09000000UL

/* Sends printk's output to the PL011 at base (registers the console on the first call). */
void pl011_console_init(uint64_t base);

/*
 * RAM at or above this is not used: the identity map covers [1 GiB, 256 GiB) (a 39-bit address
 * space, one level-1 entry per GiB) and the memmap region starts here.
 */
#define PORT_RAM_LIMIT (256ULL << 30)

/*
 * Builds the page tables: the GiBs of the RAM ranges identity mapped as normal write-back memory,
 * the UART's GiB as device memory, the memmap region empty, vmalloc's range with its tables;
 * then turns the MMU and the caches on.
 * Returns 0, or -1 (said why) when a RAM range lies outside [1 GiB, PORT_RAM_LIMIT), or the UART
 * shares a GiB with RAM or lies above PORT_RAM_LIMIT.
 */
int mmu_init(const struct fdt_range *ram, unsigned int nram, uint64_t uart_base);

/*
 * vmalloc's range (mm/arch.h), right after the memmap region's 2 GiB: every page table of it is
 * made at boot, so mapping a page never fails.
 */
#define PORT_VMALLOC_BASE (PORT_RAM_LIMIT + (2ULL << 30))
#define PORT_VMALLOC_SIZE (256ULL << 20)

/* The level-1 entry of vmalloc's range, its tables made (empty); for mmu_init(). */
uint64_t vmalloc_tables(void);

/* A synchronous exception at EL1 (vectors.S): returns when it was a vmalloc migration marker's. */
void port_sync_exception(void);

/* How the run ends: PSCI's method from the device tree (SYSTEM_OFF's fallback). */
void port_set_psci(enum fdt_psci method);

/*
 * Prints "port: verdict: PASS" or "... FAIL", then exits QEMU with status 0 or 1 through
 * semihosting; without semihosting, powers off through PSCI (the step then reads the line).
 */
void port_exit(bool passed) __attribute__((noreturn));

/* What the boot found and kept from the allocator: the aarch64_boot suite checks it. */
#define PORT_MAX_RESERVED (FDT_MAX_RANGES + 2)
struct port_boot {
	struct fdt_info fdt;
	uint64_t dtb;                                   /* the device tree's physical address */
	struct fdt_range reserved[PORT_MAX_RESERVED];   /* the tree's, the tree itself, the image */
	unsigned int nreserved;
	uint64_t ram_bytes;                             /* of the /memory ranges used */
};
extern struct port_boot port_boot;

/* The exception syndrome, return address and fault address registers of EL1. */
#define PORT_READ_SYSREG(name)                                   \
	static inline unsigned long read_##name(void)            \
	{                                                        \
		unsigned long v;                                 \
		__asm__ volatile("mrs %0, " #name "_el1" : "=r"(v)); \
		return v;                                        \
	}
PORT_READ_SYSREG(esr)
PORT_READ_SYSREG(elr)
PORT_READ_SYSREG(far)

/* Called by every exception vector (vectors.S): prints the syndrome and fails the run. */
void port_exception(unsigned long kind) __attribute__((noreturn));

#endif
