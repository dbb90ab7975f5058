/* SPDX-License-Identifier: MIT */
/* Setting up physical memory management at boot. */
#ifndef KERNEL_MM_SETUP_H
#define KERNEL_MM_SETUP_H

#include "kernel/bootinfo.h"
#include "mm/types.h"

/*
 * Builds the firmware map from bi, reserves the kernel image, the boot information and modules,
 * maps all RAM into the direct map, and starts the page allocator and the hugetlb pool (sized by
 * hugepagesz= and hugepages=, read through hugetlb_setup_cmdline()) for nr_cpus CPUs. With more
 * than one, also reserves a page for the other CPUs' start-up code (smp_trampoline_phys).
 * Panics with a message when memory cannot be set up.
 */
void mm_setup(const struct boot_info *bi, unsigned int nr_cpus);

/* The page below 1 MiB reserved for kernel/smp.c's start-up code; 0 when none was found. */
extern phys_addr_t smp_trampoline_phys;

#endif
