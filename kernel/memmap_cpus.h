/* SPDX-License-Identifier: MIT */
/*
 * Every CPU initializes struct pages at boot. mm_init() can split the writing of the struct pages
 * into parts that run on several CPUs at once (mm_init_params.run_parallel, mm/memmap.h), but the
 * kernel starts the other CPUs (kernel/smp.h) only after mm_init(), since their stacks and tables
 * come from mm/. So mm_setup() starts them once before, for this job only, in areas it reserved
 * from the firmware map, and stops them again; smp_init() then starts them as always.
 *
 * Call order, all on the boot CPU with interrupts off: memmap_cpus_plan(), memmap_cpus_set_areas()
 * (before mm_init()), memmap_cpus_send_init() (mm_init()'s before_memmap hook),
 * memmap_cpus_run() (mm_init()'s run_parallel), memmap_cpus_report() and
 * memmap_cpus_areas_unused() (after mm_init()).
 */
#ifndef KERNEL_MEMMAP_CPUS_H
#define KERNEL_MEMMAP_CPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "mm/arch.h"
#include "mm/memmap.h"

/*
 * How many CPUs will initialize the struct pages, the boot CPU's included, at most nr_cpus (what
 * smp_plan() chose): one for each full GiB of ram_bytes (at least 1), or N when cmdline has
 * memmap_init_cpus=N (1: the boot CPU alone); a value that is not a number of 1 or more is
 * ignored, saying so.
 */
unsigned int memmap_cpus_plan(const char *cmdline, unsigned int nr_cpus, uint64_t ram_bytes);

/* Bytes of RAM below 4 GiB the other CPUs need (an area each), page aligned; 0 when none start. */
size_t memmap_cpus_area_bytes(void);

/*
 * The areas' physical address (memmap_cpus_area_bytes() of RAM mm_setup() reserved as
 * releasable, in the boot direct map), or 0 when there was no room: the boot CPU then runs alone.
 */
void memmap_cpus_set_areas(phys_addr_t phys);

/*
 * In mm_init()'s before_memmap hook: sets up the TSC and local APIC (platform_init_early(), also
 * when no other CPU helps) and sends INIT to each CPU that will help, so that the 10 ms the
 * start-up sequence waits after INIT pass while mm_init() backs the memmap. Sends nothing without
 * areas, a local APIC or a trampoline page.
 */
void memmap_cpus_send_init(void);

/*
 * mm_init_params.run_parallel: runs every part of fn exactly once, on the CPUs that came up and on
 * the boot CPU, which runs any part nobody took; returns when all are done, every CPU it started
 * parked and sent INIT again. Panics when a part a CPU took does not finish within 10 s: its
 * struct pages cannot be trusted. Without CPUs to help, runs fn(0, 1).
 */
void memmap_cpus_run(mm_parallel_fn *fn);

/*
 * After mm_init(): prints "mm: struct pages initialized by N CPUs in P parts", the time
 * mm_init() took to build the memmap (mm_init_timing), and how many of the CPUs started for it
 * did not check in or did not park.
 */
void memmap_cpus_report(void);

/*
 * May the areas be given back? False when a CPU that took one never parked (it might still write
 * there: the areas then stay reserved for good); true otherwise, and when there were none.
 */
bool memmap_cpus_areas_unused(void);

#endif
