/* SPDX-License-Identifier: MIT */
/* The hugetlb options of the kernel command line: hugepagesz= and hugepages= (kernel/cmdline.h). */
#ifndef KERNEL_HUGETLB_CMDLINE_H
#define KERNEL_HUGETLB_CMDLINE_H

#include "kernel/cmdline.h"

/*
 * Hands the hugetlb options to mm/ in their order: hugepages=N asks for N pages of the size of the
 * last valid hugepagesz= before it (2M when none), through hugetlb_request(). hugepagesz= takes a
 * size in bytes with an optional K, M or G suffix (2M, 2048K, 1G) that must be a huge page size.
 * A warning line is written for each option ignored or changed: an invalid hugepagesz= (and each
 * hugepages= after it, up to the next valid hugepagesz=), a hugepages= that is not a number, and
 * a count the pool clamped (it says the count asked for and the count used). Returns the number
 * of warnings. cmdline may be NULL.
 */
int cmdline_setup_hugetlb(const char *cmdline, cmdline_warn_fn *warn);

/* Boot: cmdline_setup_hugetlb() with printk. Returns 0, or -EINVAL when it warned. */
int hugetlb_setup_cmdline(const char *cmdline);

#endif
