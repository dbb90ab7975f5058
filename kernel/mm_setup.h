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
 * than one, also reserves the page smp_reserve_trampoline() picks for their start-up code.
 * Panics with a message when memory cannot be set up.
 */
void mm_setup(const struct boot_info *bi, unsigned int nr_cpus);

/*
 * With mm_picture on the command line, prints the memory picture's lines again (mm/mm_picture.h):
 * the free blocks and pageblock types of now, e.g. after the self-tests. Nothing without it.
 */
void mm_show_picture_now(const char *cmdline);

#endif
