/* SPDX-License-Identifier: MIT */
/*
 * mm/arch.h on the host: simulated physical memory (a sparse memfd mapped as the direct map), a
 * memmap region backed piece by piece from that memory, panic() and a console for printk; the
 * vmalloc range, where vmalloc's pages are the same memory mapped again page by page, and a SIGSEGV
 * handler that lets a thread touching a page under migration wait for the move (vmalloc_fault()).
 * Also the harness entry points of tests/mm/host_mm.h.
 */
#define _GNU_SOURCE
#include "tests/mm/host_mm.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <time.h>
#include <unistd.h>

#include "lib/printk.h"
#include "mm/arch.h"
#include "kernel/boot_memmap.h"
#include "tests/mm/map_text.h"
#include "mm/init.h"
#include "mm/memmap.h"
#include "mm/page.h"
#include "mm/vmalloc.h"

uintptr_t mm_direct_map_offset;
uintptr_t mm_vmemmap_base;
uintptr_t mm_vmalloc_start, mm_vmalloc_end;

static int phys_fd = -1;
static void *phys_mem, *memmap_area;
static size_t phys_size, memmap_size;

bool host_console_quiet;
bool host_mm_picture;

__thread unsigned int host_mm_cpu;
__thread unsigned long host_mm_irqs_off;
__thread unsigned int host_mm_irq_depth;
__thread unsigned int host_mm_irq_mirror;
unsigned int host_mm_nr_cpus = HOST_MM_CPUS;
bool host_mm_page_owner;
void (*host_mm_race_window)(const char *where);

void host_mm_set_cpu(unsigned int cpu)
{
	host_mm_cpu = cpu;
}

/*
 * The harness's threads are CPUs only by name (host_mm_set_cpu()), and the per-CPU lists are
 * behind a real lock here (no ARCH_CPU_CALLS_BY_IPI): every CPU's part runs on the caller's
 * thread, with "interrupts off" as in the interrupt a kernel would send.
 */
void arch_run_on_cpus(void (*fn)(unsigned int cpu, void *arg), void *arg)
{
	unsigned long was = arch_irq_save();

	for (unsigned int cpu = 0; cpu < host_mm_nr_cpus; cpu++)
		fn(cpu, arg);
	arch_irq_restore(was);
}

void host_mm_irq_mirror_broken(void)
{
	fprintf(stderr, "tests/mm/mm_env.h: \"interrupts\" off with their mirror 0 on CPU %u: whatever turned "
		"them off did not set it (arch_irq_save() does)\n", host_mm_cpu);
	abort();
}

#ifdef ARCH_HAS_CPU_DATA_LOCK
/*
 * The other side of the locks of one CPU's data (tests/mm/mm_env.h says why it is correct).
 * membarrier() is registered once, before main(); without it no lock gets an owner and every
 * thread takes the real lock, as the ThreadSanitizer build always does.
 */
bool host_mm_cpu_data_biased;

static long membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* HOST_MM_NO_MEMBARRIER=1 in the environment plays a host without it (the fallback's test). */
__attribute__((constructor)) static void register_membarrier(void)
{
	const char *off = getenv("HOST_MM_NO_MEMBARRIER");

	if (off && *off && strcmp(off, "0")) {
		fprintf(stderr, "host mm: HOST_MM_NO_MEMBARRIER: every CPU takes its own lists' real lock\n");
		return;
	}
	host_mm_cpu_data_biased = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
	if (!host_mm_cpu_data_biased)
		fprintf(stderr, "host mm: membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed (%s): "
				"every CPU takes its own lists' real lock\n", strerror(errno));
}

/* Spins, then yields the host CPU, until the owner of lock is out. */
static void wait_for_owner_out(arch_spinlock_t *lock)
{
	for (unsigned int spins = 0; __atomic_load_n(&lock->inside, __ATOMIC_ACQUIRE) != CPU_DATA_OUT;)
		if (++spins < 64)
			__builtin_ia32_pause();
		else
			sched_yield();
}

void host_cpu_data_lock_other(arch_spinlock_t *lock)
{
	(arch_spin_lock)(lock);
	if (!lock->owner)
		return;
	/* After the exchange: each running thread's barrier point is now after it (mm_env.h). */
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		panic("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after its registration: %s",
		      strerror(errno));
	wait_for_owner_out(lock);
}

void host_cpu_data_unlock_other(arch_spinlock_t *lock)
{
	(arch_spin_unlock)(lock);
}

void host_cpu_data_lock_slow(arch_spinlock_t *lock)
{
	__atomic_store_n(&lock->inside, CPU_DATA_OUT, __ATOMIC_RELEASE);
	(arch_spin_lock)(lock);
	__atomic_store_n(&lock->inside, CPU_DATA_IN_LOCKED, __ATOMIC_RELAXED);
}

void host_cpu_data_lock_reentered(arch_spinlock_t *lock)
{
	panic("CPU %u's data lock %p taken again by its owner (two threads playing CPU %u at once?)",
	      (unsigned int)lock->owner - 1, (void *)lock, (unsigned int)lock->owner - 1);
}
#endif

static void stdout_write(const char *s, size_t len)
{
	if (!host_console_quiet)
		fwrite(s, 1, len, stdout);
}

/* printk goes to stdout from the start, before main(), as the kernel's goes to its serial port. */
__attribute__((constructor)) static void register_stdout_console(void)
{
	static struct console stdout_console = { .name = "stdout", .write = stdout_write };

	register_console(&stdout_console);
}

void panic(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	lib_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "PANIC: %s\n", msg);
	abort();
}

uint64_t host_map_cycles;

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* The clock, the process and where the stack is (address randomization): differs per run. */
unsigned long arch_random_seed(void)
{
	struct timespec now;
	int local;

	clock_gettime(CLOCK_REALTIME, &now);
	return (unsigned long)now.tv_nsec ^ (unsigned long)now.tv_sec << 30 ^ (unsigned long)getpid() << 48 ^
	       (uintptr_t)&local;
}

int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size)
{
	uintptr_t base = (uintptr_t)memmap_area;
	uint64_t t0 = rdtsc();
	void *p;

	if (virt < base || virt + size > base + memmap_size || phys + size > phys_size)
		panic("arch_map_memmap: [%#lx+%#zx] -> %#llx is outside the simulated memory",
		      (unsigned long)virt, size, (unsigned long long)phys);
	p = mmap((void *)virt, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, phys_fd,
		 (off_t)phys);
	host_map_cycles += rdtsc() - t0;
	return p == MAP_FAILED ? -ENOMEM : 0;
}

int host_phys_fd(void) { return phys_fd; }

void host_mm_release(void)
{
	if (phys_mem)
		munmap(phys_mem, phys_size);
	if (memmap_area)
		munmap(memmap_area, memmap_size);
	if (phys_fd >= 0)
		close(phys_fd);
	phys_mem = memmap_area = NULL;
	phys_fd = -1;
}

/* Replaces the memmap region with a fresh reservation, keeping the simulated memory. */
static int memmap_area_reset(void)
{
	munmap(memmap_area, memmap_size);
	memmap_area = mmap(NULL, memmap_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (memmap_area == MAP_FAILED) {
		memmap_area = NULL;
		return -ENOMEM;
	}
	mm_vmemmap_base = (uintptr_t)memmap_area;
	return 0;
}

/* Creates simulated memory [0, size) and a memmap region for it. */
static int phys_setup(phys_addr_t size)
{
	if (phys_mem && memmap_area && phys_size == ALIGN_UP(size, 2UL << 20))
		return memmap_area_reset();
	host_mm_release();
	phys_size = ALIGN_UP(size, 2UL << 20);
	memmap_size = ALIGN_UP(PFN_UP(phys_size), 128) * sizeof(struct page);
	phys_fd = memfd_create("simulated-physical-memory", MFD_CLOEXEC);
	if (phys_fd < 0 || ftruncate(phys_fd, (off_t)phys_size))
		return -ENOMEM;
	phys_mem = mmap(NULL, phys_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, phys_fd, 0);
	memmap_area = mmap(NULL, memmap_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (phys_mem == MAP_FAILED || memmap_area == MAP_FAILED) {
		phys_mem = phys_mem == MAP_FAILED ? NULL : phys_mem;
		memmap_area = memmap_area == MAP_FAILED ? NULL : memmap_area;
		return -ENOMEM;
	}
	mm_direct_map_offset = (uintptr_t)phys_mem;
	mm_vmemmap_base = (uintptr_t)memmap_area;
	return 0;
}

/* ---- the vmalloc range ---------------------------------------------------------------------- */

/*
 * 4 GiB of address space, reserved PROT_NONE: room for a 1 GiB machine's memory in small areas,
 * each with its guard page. Every page vmalloc maps is a mapping of its own (a VMA) in the host
 * kernel, which allows vm.max_map_count of them (65530 by default): about 256 MiB of vmalloc'd
 * pages in small areas at once here, whatever the range.
 */
#define HOST_VMALLOC_SIZE (4UL << 30)

bool host_vmalloc_unmapped;

static int vmalloc_prot_none(uintptr_t start, size_t size)
{
	void *p = mmap((void *)start, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);

	return p == MAP_FAILED ? -ENOMEM : 0;
}

int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys)
{
	void *p;

	if (va < mm_vmalloc_start || va >= mm_vmalloc_end || phys >= phys_size)
		panic("arch_vmalloc_map_page: %#lx -> %#llx is outside the range or the memory",
		      (unsigned long)va, (unsigned long long)phys);
	if (host_vmalloc_unmapped)
		return 0;
	p = mmap((void *)va, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, phys_fd, (off_t)phys);
	if (p == MAP_FAILED) {
		vmalloc_prot_none(va, PAGE_SIZE); /* keep the reservation whole */
		return -ENOMEM;
	}
	return 0;
}

/* The host kernel flushes every CPU's TLB before mmap() returns: the shootdown is done. */
void arch_vmalloc_unmap(uintptr_t start, uintptr_t end)
{
	if (end > start && !host_vmalloc_unmapped && vmalloc_prot_none(start, end - start))
		panic("arch_vmalloc_unmap: [%#lx, %#lx): %s", (unsigned long)start, (unsigned long)end, strerror(errno));
}

/* The marker is the reservation itself: PROT_NONE, so a touch is a SIGSEGV. */
void arch_vmalloc_set_marker(uintptr_t va)
{
	arch_vmalloc_unmap(va, va + PAGE_SIZE);
}

void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys)
{
	if (arch_vmalloc_map_page(va, phys)) /* one mapping replaces another: the count cannot grow */
		panic("arch_vmalloc_clear_marker: %#lx: %s", (unsigned long)va, strerror(errno));
}

static struct sigaction segv_before;

/*
 * A thread that touched a page under migration waits in vmalloc_fault() and returns to retry.
 * Any other fault goes to the handler there was before (AddressSanitizer's report, or the
 * default: the process dies): put back, it gets the same fault again when the access is retried.
 */
static void segv_handler(int sig, siginfo_t *si, void *ctx)
{
	int saved = errno;

	(void)sig;
	(void)ctx;
	if (!vmalloc_fault((uintptr_t)si->si_addr))
		sigaction(SIGSEGV, &segv_before, NULL);
	errno = saved;
}

/* Reserves the range (once) or empties it (a new allocator), and installs the handler (once). */
static int vmalloc_range_reset(void)
{
	static bool handler_set;
	void *p;

	if (!mm_vmalloc_start) {
		p = mmap(NULL, HOST_VMALLOC_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return -ENOMEM;
		mm_vmalloc_start = (uintptr_t)p;
		mm_vmalloc_end = mm_vmalloc_start + HOST_VMALLOC_SIZE;
	} else if (vmalloc_prot_none(mm_vmalloc_start, HOST_VMALLOC_SIZE)) {
		return -ENOMEM;
	}
	if (!handler_set) {
		struct sigaction sa = { .sa_sigaction = segv_handler, .sa_flags = SA_SIGINFO };

		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGSEGV, &sa, &segv_before))
			return -errno;
		handler_set = true;
	}
	return 0;
}

/* What the simulated PC has in use before mm/ runs, as the kernel reserves it. */
static const struct mm_reservation in_use[] = {
	{ 0, PC_LOW_RESERVE, "first 1 MiB" },
	{ HOST_KERNEL_BASE, HOST_KERNEL_SIZE, "kernel image (simulated)" },
};

bool host_mm_memory_after_boot;

/* The simulated RAM the map does not describe, for mm_add_memory(): above the map's usable end. */
static struct mm_reservation host_offline(const struct fw_map *map)
{
	return (struct mm_reservation){ ALIGN_UP(fw_map_usable_end(map), 2UL << 20), HOST_OFFLINE_BYTES,
					"offline RAM (simulated)" };
}

unsigned int host_mm_memmap_threads = 1;

static mm_parallel_fn *parallel_fn;
static unsigned int parallel_parts;

static void *part_thread(void *arg)
{
	parallel_fn((unsigned int)(uintptr_t)arg, parallel_parts);
	return NULL;
}

/*
 * mm_init_params.run_parallel: fn's parts, one a thread, host_mm_memmap_threads of them (the
 * calling thread does part 0, and any part whose thread could not be started).
 */
static void run_on_threads(mm_parallel_fn *fn)
{
	pthread_t tid[HOST_MM_MAX_MEMMAP_THREADS];
	bool started[HOST_MM_MAX_MEMMAP_THREADS] = { false };
	unsigned int n = MIN(MAX(host_mm_memmap_threads, 1u), HOST_MM_MAX_MEMMAP_THREADS);

	parallel_fn = fn;
	parallel_parts = n;
	for (unsigned int i = 1; i < n; i++)
		started[i] = !pthread_create(&tid[i], NULL, part_thread, (void *)(uintptr_t)i);
	fn(0, n);
	for (unsigned int i = 1; i < n; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			fn(i, n);
	}
}

const struct mm_numa_layout *host_mm_numa;

/* mm_init() on map (already sanitized) with what is in use and extra reserved, if any. */
static int run_mm_init(struct fw_map *map, const struct mm_reservation *extra, bool quiet,
		       uint64_t (*cycles)(void))
{
	struct mm_reservation reserve[ARRAY_SIZE(in_use) + 1] = { in_use[0], in_use[1] };
	struct mm_init_params params = {
		.map = map, .reserve = reserve, .nreserve = ARRAY_SIZE(in_use), .quiet = quiet, .cycles = cycles,
		.zone_dma_end = PC_ZONE_DMA_END, .zone_dma32_end = PC_ZONE_DMA32_END, .nr_cpus = host_mm_nr_cpus,
		.picture = host_mm_picture,
		.numa = host_mm_numa,
		.page_owner = host_mm_page_owner,
		.run_parallel = host_mm_memmap_threads > 1 ? run_on_threads : NULL,
	};

	static const struct mm_reservation initrd = { HOST_RELEASABLE_BASE, HOST_RELEASABLE_BYTES, "initrd (simulated)" };
	struct mm_reservation offline = host_offline(map);

	if (extra)
		reserve[params.nreserve++] = *extra;
	if (host_mm_memory_after_boot) {
		params.releasable = &initrd;
		params.nreleasable = 1;
		params.offline = &offline;
		params.noffline = 1;
	}
	if (vmalloc_range_reset()) {
		fprintf(stderr, "host_mm: cannot reserve the vmalloc range: %s\n", strerror(errno));
		return -ENOMEM;
	}
	return mm_init(&params);
}

static int init(struct fw_map *map, bool quiet, uint64_t (*cycles)(void))
{
	phys_addr_t end;

	fw_map_sanitize(map);
	end = fw_map_usable_end(map);
	if (end && host_mm_memory_after_boot)
		end = host_offline(map).base + HOST_OFFLINE_BYTES;
	if (end && phys_setup(end)) {
		fprintf(stderr, "host_mm_init: cannot map %#llx bytes of simulated memory: %s\n",
			(unsigned long long)fw_map_usable_end(map), strerror(errno));
		return -ENOMEM;
	}
	return run_mm_init(map, NULL, quiet, cycles);
}

int host_mm_init(struct fw_map *map, bool quiet)
{
	host_mm_release();
	return init(map, quiet, NULL);
}

int host_mm_init_timed(struct fw_map *map, uint64_t (*cycles)(void))
{
	return init(map, true, cycles);
}

/* ---- the kernel's path from a raw map ------------------------------------------------------ */

/* The host's available memory in bytes (MemAvailable), or 0 if unknown. */
static uint64_t host_available_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kib << 10;
}

/*
 * What the raw map's sanitized form looks like, from a copy on the host's heap: the end of its
 * usable RAM, and an estimate of the host memory a boot on it takes (memmap, map of backed
 * chunks, firmware map storage, checker bitmaps). Returns -errno when the map cannot be sized.
 */
static int size_raw_map(const struct boot_memmap *raw, phys_addr_t *usable_end, uint64_t *usable,
			uint64_t *need)
{
	size_t bytes = FW_MAP_STORAGE_BYTES(raw->count);
	void *storage = malloc(bytes);
	struct fw_map map;
	uint64_t pages = 0, ranges = 0;
	bool quiet = host_console_quiet;
	int err = storage ? boot_memmap_fill(raw, &map, storage, bytes) : -ENOMEM;

	if (!err) {
		host_console_quiet = true; /* the real path prints the sanitizer's warnings */
		fw_map_sanitize(&map);
		host_console_quiet = quiet;
		for (unsigned int i = 0; i < map.nr; i++)
			if (map.entry[i].type == FW_USABLE) {
				pages += map.entry[i].size >> PAGE_SHIFT;
				ranges++;
			}
		*usable_end = fw_map_usable_end(&map);
		*usable = pages << PAGE_SHIFT;
		*need = (pages / MEMMAP_CHUNK_PAGES + 2 * ranges) * PAGE_SIZE +
			PFN_DOWN(*usable_end) / MEMMAP_CHUNK_PAGES + bytes + pages / 4;
	}
	free(storage);
	return err;
}

uint64_t host_mm_max_ram;

int host_mm_boot(const struct boot_memmap *raw, bool quiet, struct fw_map *map)
{
	struct mm_reservation storage;
	phys_addr_t usable_end = 0;
	uint64_t usable = 0, need = 0, avail = host_available_bytes();
	int err;

	host_mm_release();
	if (raw->count <= FW_MAP_MAX_ENTRIES) {
		if ((err = size_raw_map(raw, &usable_end, &usable, &need)))
			return err;
		if (!usable_end) {
			printk("mm: the firmware memory map has no usable RAM\n");
			return -ENOMEM;
		}
		if (host_mm_max_ram && usable > host_mm_max_ram) {
			printk("host_mm: %llu MiB of RAM is more than the %llu MiB allowed here\n",
			       (unsigned long long)(usable >> 20), (unsigned long long)(host_mm_max_ram >> 20));
			return -E2BIG;
		}
		if (avail && need > avail / 4 * 3) {
			printk("host_mm: this map needs about %llu MiB of host memory (memmap and checks for "
			       "%llu MiB of RAM up to %#llx); the host has %llu MiB available: refusing it\n",
			       (unsigned long long)(need >> 20), (unsigned long long)(usable >> 20),
			       (unsigned long long)usable_end, (unsigned long long)(avail >> 20));
			return -ENOMEM;
		}
		if (phys_setup(usable_end)) {
			printk("host_mm: cannot map %#llx bytes of simulated memory: %s\n",
			       (unsigned long long)usable_end, strerror(errno));
			return -ENOMEM;
		}
	}
	err = boot_memmap_build(raw, in_use, ARRAY_SIZE(in_use), UINT64_MAX, map, &storage);
	if (err)
		return err;
	return run_mm_init(map, &storage, quiet, NULL);
}

int host_mm_boot_text(const char *text, bool quiet, struct fw_map *map)
{
	struct map_text mt = { 0 };
	struct boot_memmap raw;
	int err = map_text_parse(&mt, text, strlen(text));

	if (err >= 0)
		err = map_text_raw(&mt, &raw) ? host_mm_boot(&raw, quiet, map) : -EINVAL;
	map_text_free(&mt);
	return err;
}

/* The storage host_fw_map_init() gave each map, so that giving it new storage frees the old. */
static struct {
	const struct fw_map *map;
	void *storage;
} heap_maps[16];

void host_fw_map_init(struct fw_map *map, unsigned int cap)
{
	size_t bytes = FW_MAP_STORAGE_BYTES(cap), i, slot = ARRAY_SIZE(heap_maps);
	void *storage = malloc(bytes);

	for (i = 0; i < ARRAY_SIZE(heap_maps); i++) {
		if (heap_maps[i].map == map) {
			free(heap_maps[i].storage);
			slot = i;
			break;
		}
		if (!heap_maps[i].map && slot == ARRAY_SIZE(heap_maps))
			slot = i;
	}
	if (!storage || slot == ARRAY_SIZE(heap_maps) || fw_map_init(map, storage, bytes))
		panic("host_fw_map_init: no memory or no slot for a map of %u entries", cap);
	heap_maps[slot].map = map;
	heap_maps[slot].storage = storage;
}

void host_default_map(struct fw_map *map)
{
	host_fw_map_init(map, 8);
	fw_map_add_range(map, 0x0, 0x9fc00, FW_USABLE);
	fw_map_add_range(map, 0x9fc00, 0x400, FW_RESERVED);
	fw_map_add_range(map, 0xf0000, 0x10000, FW_RESERVED);
	fw_map_add_range(map, 0x100000, 0x7fe0000 - 0x100000, FW_USABLE);
	fw_map_add_range(map, 0x7fe0000, 0x20000, FW_RESERVED);
	fw_map_add_range(map, 0xfffc0000, 0x40000, FW_RESERVED);
	fw_map_add_range(map, 0x100000000ULL, 512ULL << 20, FW_USABLE);
}

double host_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
