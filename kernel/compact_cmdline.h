/* SPDX-License-Identifier: MIT */
/* The compact_memory option of the kernel command line (kernel/cmdline.h). */
#ifndef KERNEL_COMPACT_CMDLINE_H
#define KERNEL_COMPACT_CMDLINE_H

/*
 * With the bare word compact_memory on cmdline (which may be NULL): runs compact_memory()
 * (mm/compaction.h) once, then prints the pages it moved and the event counters (mm/vmstat.h),
 * as Linux's echo 1 > /proc/sys/vm/compact_memory and /proc/vmstat would. Boot, with interrupts
 * on, after the other CPUs are up and before the self-tests and benchmarks.
 */
void compact_memory_at_boot(const char *cmdline);

#endif
