/* SPDX-License-Identifier: MIT */
/*
 * The boot CPU's interrupt controllers and clocks (kernel/platform.c), set up once memory is, and
 * before kernel/smp.c starts the other CPUs.
 */
#ifndef KERNEL_PLATFORM_H
#define KERNEL_PLATFORM_H

#include <stdbool.h>

/*
 * On the boot CPU, after mm_setup(), interrupts off: masks the 8259s, measures the TSC, sets up
 * the local APIC (kernel/apic.h) unless platform_init_early() has, then the TLB shootdown's vector
 * and the tick. Returns false, the
 * APIC having said why, when there is no local APIC: then there is neither a tick nor another CPU.
 */
bool platform_init(void);

/*
 * The first half of platform_init(): the 8259s masked, the TSC measured, the local APIC set up;
 * once only (platform_init() then goes on from there). Needs page tables for the xAPIC's page:
 * from mm_init()'s before_memmap hook on. Returns what apic_init() did.
 */
bool platform_init_early(void);

#endif
