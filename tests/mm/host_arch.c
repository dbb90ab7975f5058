/*
 * mm/arch.h on the host: simulated physical memory (a sparse memfd mapped as the direct map), a
 * memmap region backed piece by piece from that memory, panic() and console_write(). Also the
 * harness entry points of tests/mm/host_mm.h.
 */
#define _GNU_SOURCE
#include "tests/mm/host_mm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/fw_map_parse.h"
#include "mm/init.h"
#include "mm/page.h"

uintptr_t mm_direct_map_offset;
uintptr_t mm_vmemmap_base;

static int phys_fd = -1;
static void *phys_mem, *memmap_area;
static size_t phys_size, memmap_size;

bool host_console_quiet;

void console_write(const char *s, size_t len)
{
	if (!host_console_quiet)
		fwrite(s, 1, len, stdout);
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

static int init(struct fw_map *map, bool quiet, uint64_t (*cycles)(void))
{
	static const struct mm_reservation kernel_image[] = {
		{ HOST_KERNEL_BASE, HOST_KERNEL_SIZE, "kernel image (simulated)" },
	};
	struct mm_init_params params = {
		.map = map, .reserve = kernel_image, .nreserve = 1, .quiet = quiet, .cycles = cycles,
	};

	fw_map_sanitize(map);
	if (fw_map_usable_end(map) && phys_setup(fw_map_usable_end(map))) {
		fprintf(stderr, "host_mm_init: cannot map %#llx bytes of simulated memory: %s\n",
			(unsigned long long)fw_map_usable_end(map), strerror(errno));
		return -ENOMEM;
	}
	return mm_init(&params);
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

int host_load_map_file(const char *path, struct fw_map *map)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;
	int r;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	text = malloc(1 << 20);
	len = text ? fread(text, 1, 1 << 20, f) : 0;
	fclose(f);
	fw_map_init(map);
	r = text ? fw_map_parse_text(map, text, len) : -ENOMEM;
	free(text);
	return r;
}

void host_default_map(struct fw_map *map)
{
	fw_map_init(map);
	fw_map_add_e820(map, 0x0, 0x9fc00, FW_USABLE);
	fw_map_add_e820(map, 0x9fc00, 0x400, FW_RESERVED);
	fw_map_add_e820(map, 0xf0000, 0x10000, FW_RESERVED);
	fw_map_add_e820(map, 0x100000, 0x7fe0000 - 0x100000, FW_USABLE);
	fw_map_add_e820(map, 0x7fe0000, 0x20000, FW_RESERVED);
	fw_map_add_e820(map, 0xfffc0000, 0x40000, FW_RESERVED);
	fw_map_add_e820(map, 0x100000000ULL, 512ULL << 20, FW_USABLE);
}
