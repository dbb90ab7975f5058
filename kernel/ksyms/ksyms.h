/* SPDX-License-Identifier: MIT */
/*
 * The kernel's own symbol table: the name of every function of .text, so that reports can say
 * "kmain+0x1c/0x1a0" instead of an address (printk's %pS). The build links the kernel twice and
 * puts the first link's code symbols into the second (kernel/ksyms/mktable.sh).
 */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/printk.h"

/*
 * The symbol that covers addr (start <= addr < start + size): fills *sym with its name, addr's
 * offset in it and its size, and returns true; false when no code symbol covers addr (data, a
 * gap between functions, outside .text). Prints nothing, takes no lock: safe in any report.
 */
bool ksym_lookup(uintptr_t addr, struct printk_symbol *sym);

/* The address of the code symbol called name, or 0 when there is none. */
uintptr_t ksym_address(const char *name);

/* The number of symbols in the table. */
unsigned int ksym_table_size(void);

/* Makes printk's %pS and %pB name addresses with ksym_lookup(). */
void ksyms_init(void);

#endif
