/* SPDX-License-Identifier: MIT */
/*
 * The "host kernel" of the port test: everything mm/arch.h declares, as a kernel lifting mm/
 * would provide it. Physical memory is a memfd mapped once as the direct map; the memmap region
 * is reserved address space, and arch_map_memmap() maps pieces of that same memory into it.
 * Logging goes through the C library's vsnprintf; panic() aborts.
 */
#define _GNU_SOURCE
#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mm/arch.h"

uintptr_t mm_direct_map_offset;
uintptr_t mm_vmemmap_base;

/* No vmalloc range: vmalloc() fails (said why), and mm/ never calls the four hooks. */
uintptr_t mm_vmalloc_start, mm_vmalloc_end;
int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys) { panic("no vmalloc range: map %#lx -> %#llx", (unsigned long)va, (unsigned long long)phys); }
void arch_vmalloc_unmap(uintptr_t start, uintptr_t end) { panic("no vmalloc range: unmap %#lx-%#lx", (unsigned long)start, (unsigned long)end); }
void arch_vmalloc_set_marker(uintptr_t va) { panic("no vmalloc range: marker at %#lx", (unsigned long)va); }
void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys) { arch_vmalloc_map_page(va, phys); }

static int phys_fd = -1;
static size_t phys_bytes, memmap_region_bytes;
struct env_map_stats env_map_stats;

int printk(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs(buf, stdout);
	return len;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("PANIC: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The clock and where the stack is: differs from one run to the next. */
unsigned long arch_random_seed(void)
{
	struct timespec now;
	int local;

	clock_gettime(CLOCK_REALTIME, &now);
	return (unsigned long)now.tv_nsec ^ (unsigned long)now.tv_sec << 30 ^ (uintptr_t)&local;
}

/* Maps the memfd's [phys, phys + size) at virt, which must lie in the memmap region. */
int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size)
{
	env_map_stats.calls++;
	env_map_stats.bytes += size;
	if (size > env_map_stats.largest)
		env_map_stats.largest = size;
	if (virt % PAGE_SIZE || phys % PAGE_SIZE || size % PAGE_SIZE || virt < mm_vmemmap_base ||
	    virt + size > mm_vmemmap_base + memmap_region_bytes || phys + size > phys_bytes) {
		env_map_stats.bad++;
		return -ENOMEM;
	}
	void *p = mmap((void *)virt, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, phys_fd, (off_t)phys);
	return p == MAP_FAILED ? -ENOMEM : 0;
}

int env_init(phys_addr_t phys_size, size_t memmap_bytes)
{
	void *direct, *memmap;

	phys_fd = memfd_create("port-physical-memory", MFD_CLOEXEC);
	if (phys_fd < 0 || ftruncate(phys_fd, (off_t)phys_size))
		return -1;
	direct = mmap(NULL, phys_size, PROT_READ | PROT_WRITE, MAP_SHARED, phys_fd, 0);
	/* The memmap region: address space only, until arch_map_memmap() backs parts of it. */
	memmap = mmap(NULL, memmap_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (direct == MAP_FAILED || memmap == MAP_FAILED)
		return -1;
	phys_bytes = phys_size;
	memmap_region_bytes = memmap_bytes;
	mm_direct_map_offset = (uintptr_t)direct;
	mm_vmemmap_base = (uintptr_t)memmap;
	return 0;
}
