/* SPDX-License-Identifier: MIT */
/*
 * Each CPU's GDT and TSS. The GDT holds the kernel's code and data segments (the selectors the
 * boot code already uses) and a TSS descriptor; the TSS gives the double fault its own stack
 * (IST 1), so that a kernel stack overflow into a guard page is reported instead of resetting the
 * machine.
 */
#ifndef KERNEL_GDT_H
#define KERNEL_GDT_H

#include <stdint.h>

#define KERNEL_CS  0x08
#define KERNEL_DS  0x10
#define KERNEL_TSS 0x18

#define IST_DOUBLE_FAULT 1 /* the IDT gate's IST field for #DF (kernel/traps.c) */

/* The 64-bit task state segment (Intel SDM vol. 3, "Task Management in 64-bit Mode"). */
struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3, iomap_base;
} __attribute__((packed));

/* One CPU's tables: null, code, data, and the two-slot TSS descriptor. */
struct cpu_tables {
	uint64_t gdt[5];
	struct tss tss;
};

/*
 * Fills t (the TSS's double-fault stack ending at df_stack_top) and makes it this CPU's: loads
 * the GDT, reloads CS, DS, ES and SS, and loads the task register. FS and GS are left alone, so
 * the per-CPU GS base (kernel/percpu.h) survives.
 */
void gdt_install(struct cpu_tables *t, void *df_stack_top);

/* The boot CPU's tables and double-fault stack. */
void gdt_install_boot_cpu(void);

#endif
