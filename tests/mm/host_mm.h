/* SPDX-License-Identifier: MIT */
/*
 * The host harness of mm/: simulated physical memory, and mm_init() over a map, so that tests,
 * the map replay, the fuzzer and the benchmark run the kernel's own initialisation path.
 *
 * Physical memory is a sparse memfd as large as the highest usable address, mapped once as the
 * direct map. The memmap region is a PROT_NONE reservation; arch_map_memmap() maps pieces of the
 * memfd into it, so the struct pages really live in the frames memblock allocated for them and
 * any access to an unbacked part of the memmap faults. Nothing is touched but what mm/ writes.
 */
#ifndef TESTS_MM_HOST_MM_H
#define TESTS_MM_HOST_MM_H

#include "mm/fw_map.h"

/* Where the simulated kernel image is reserved, like the real kernel's load address (2 MiB). */
#define HOST_KERNEL_BASE (2UL << 20)
#define HOST_KERNEL_SIZE (4UL << 20)

/*
 * Sets up simulated memory for map (sanitized here) and runs mm_init() with the kernel-like
 * reservations. Any previous simulated memory is released first. quiet suppresses the report.
 * Returns mm_init()'s result, or -ENOMEM when the simulated memory cannot be mapped.
 */
int host_mm_init(struct fw_map *map, bool quiet);

/*
 * Makes the calling thread play CPU cpu (below the nr_cpus given to mm_init()) from now on; a
 * thread starts as CPU 0. See tests/mm/mm_env.h.
 */
void host_mm_set_cpu(unsigned int cpu);

/* The nr_cpus the harness gives mm_init() (HOST_MM_CPUS unless a test changes it first). */
#define HOST_MM_CPUS 4
extern unsigned int host_mm_nr_cpus;

/*
 * Threads that initialize the struct pages in mm_init() (mm_init_params.run_parallel), 1 to
 * HOST_MM_MAX_MEMMAP_THREADS; 1 (the default): the calling thread alone, without the hook.
 */
#define HOST_MM_MAX_MEMMAP_THREADS 64
extern unsigned int host_mm_memmap_threads;
/* When true, mm_init() prints the "mm: picture" lines (mm/mm_picture.h): replay --picture. */
extern bool host_mm_picture;
/* Whether mm_init() keeps page_owner records (mm/page_owner.h): the host test binary's do. */
extern bool host_mm_page_owner;

/*
 * When true, host_mm_init() gives mm_init() memory for after boot (mm/memory_add.h): a releasable
 * "initrd" of HOST_RELEASABLE_BYTES at HOST_RELEASABLE_BASE (the map must have RAM there), and
 * HOST_OFFLINE_BYTES of simulated RAM above the map's usable end (2 MiB aligned) as offline RAM.
 * The host test binary's is on.
 */
extern bool host_mm_memory_after_boot;
#define HOST_RELEASABLE_BASE (HOST_KERNEL_BASE + HOST_KERNEL_SIZE)
#define HOST_RELEASABLE_BYTES (1UL << 20)
#define HOST_OFFLINE_BYTES (16UL << 20)

/* The NUMA layout host_mm_init() gives mm_init() (mm/node.h); NULL (the default): one node. */
struct mm_numa_layout;
extern const struct mm_numa_layout *host_mm_numa;

/* When true, console output (printk) is dropped: quiet replays, the fuzzer, the benchmark. */
extern bool host_console_quiet;

/*
 * host_mm_init() passing cycles to mm_init() (mm_init_timing). If the simulated memory has the
 * size this map needs, it is kept: its pages are already populated, as a real machine's are.
 */
int host_mm_init_timed(struct fw_map *map, uint64_t (*cycles)(void));

/* TSC cycles spent in the host's arch_map_memmap() (mmap of the memmap pieces) since set to 0. */
extern uint64_t host_map_cycles;

/* Releases the simulated memory (the allocator is unusable afterwards). */
void host_mm_release(void);

/*
 * vmalloc's pages are mapped at their vmalloc addresses by one mmap() each, and the host kernel
 * allows vm.max_map_count mappings (65530 by default: about 256 MiB of small areas). A tool that
 * holds more and never touches them through those addresses (a benchmark of where pages go)
 * sets this before it starts: the mapping hooks then map nothing. vmalloc_to_page(), migration
 * (which copies through the direct map) and the counts work as before.
 */
extern bool host_vmalloc_unmapped;

/*
 * The kernel's own path on a raw firmware map (kernel/boot_memmap.h): sizes the simulated memory
 * from the map, refusing (with a message) a map whose memmap the host cannot hold; builds map with
 * boot_memmap_build(), its storage in simulated RAM and reserved; runs mm_init(). Returns 0, or
 * -errno (reported).
 */
struct boot_memmap;
int host_mm_boot(const struct boot_memmap *raw, bool quiet, struct fw_map *map);

/* When not 0, host_mm_boot() refuses (-E2BIG) a map with more usable RAM than this (the fuzzer). */
extern uint64_t host_mm_max_ram;

/* host_mm_boot() on a map in the text forms of tests/mm/map_text.h. */
int host_mm_boot_text(const char *text, bool quiet, struct fw_map *map);

/* The default map of the host test binary: QEMU pc 128 MiB plus 512 MiB above 4 GiB. */
void host_default_map(struct fw_map *map);

/*
 * The file behind the simulated physical memory (offset: physical address), for a test that maps
 * some of it at a virtual address of its own.
 */
int host_phys_fd(void);

/* Gives map storage on the host's heap for cap entries (what it had before is freed). */
void host_fw_map_init(struct fw_map *map, unsigned int cap);

/* Seconds on the host's monotonic clock, for the host tools' timings (bench, stress, model). */
double host_seconds(void);

#endif
