/* SPDX-License-Identifier: MIT */
/* Each CPU's GDT and TSS (kernel/gdt.h). */
#include "kernel/gdt.h"

#include "lib/string.h"

#define DF_STACK_SIZE 8192

#define SEG_CODE64 0x00af9a000000ffffULL /* present, DPL 0, code, long mode */
#define SEG_DATA   0x00cf92000000ffffULL /* present, DPL 0, data, writable */
#define TSS_AVAIL  0x89ULL               /* present, DPL 0, available 64-bit TSS */

static struct cpu_tables boot_tables;
static uint8_t boot_df_stack[DF_STACK_SIZE] __attribute__((aligned(16)));

/* The 16-byte system descriptor of a TSS at base: limit, base bits spread over both halves. */
static void set_tss_descriptor(uint64_t *slot, const struct tss *tss)
{
	uint64_t base = (uintptr_t)tss, limit = sizeof(*tss) - 1;

	slot[0] = (limit & 0xffff) | (base & 0xffffff) << 16 | TSS_AVAIL << 40 |
		  ((limit >> 16) & 0xf) << 48 | ((base >> 24) & 0xff) << 56;
	slot[1] = base >> 32;
}

void gdt_install(struct cpu_tables *t, void *df_stack_top)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr = { sizeof(t->gdt) - 1, (uintptr_t)t->gdt };

	memset(t, 0, sizeof(*t));
	t->gdt[KERNEL_CS / 8] = SEG_CODE64;
	t->gdt[KERNEL_DS / 8] = SEG_DATA;
	t->tss.ist[IST_DOUBLE_FAULT - 1] = (uintptr_t)df_stack_top;
	t->tss.iomap_base = sizeof(t->tss); /* no I/O permission bitmap */
	set_tss_descriptor(&t->gdt[KERNEL_TSS / 8], &t->tss);

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "ltr %w3"
			 : : "m"(gdtr), "i"((uint64_t)KERNEL_CS), "r"(KERNEL_DS), "r"(KERNEL_TSS)
			 : "rax", "memory");
}

void gdt_install_boot_cpu(void)
{
	gdt_install(&boot_tables, boot_df_stack + sizeof(boot_df_stack));
}
