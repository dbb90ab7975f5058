/* SPDX-License-Identifier: MIT */
/*
 * kmain(): the kernel after the switch to long mode. Brings up the console and the exception
 * handler, reads the boot information, lists the command line options it does not know, finds the
 * CPUs, sets up memory (with the other CPUs' help: kernel/memmap_cpus.h), starts the other CPUs and interrupts, then runs the benchmarks or the
 * self-tests the command line asks for, and reports the verdict. It knows neither by name: benchmarks register with KBENCH(), the self-test runner
 * replaces a weak stand-in, and a release kernel (make kernel) is built without either.
 */
#include "kernel/acpi.h"
#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"
#include "kernel/compact_cmdline.h"
#include "kernel/console.h"
#include "kernel/console/screen.h"
#include "kernel/gdt.h"
#include "kernel/kbench.h"
#include "kernel/ksyms/ksyms.h"
#include "kernel/mm_setup.h"
#include "kernel/numa.h"
#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/platform.h"
#include "kernel/panic.h"
#include "kernel/selftest.h"
#include "kernel/serial.h"
#include "kernel/smp.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/show_mem.h"

/* The boot page tables map the low 4 GiB at the direct map; the information structure is there. */
#define BOOT_DIRECT_MAP_END (1ULL << 32)
#define MBI_MAX_SIZE (1u << 20)

struct boot_info boot_info;

/* The linker provides these for a section whose name is a C identifier (see linker.ld). */
extern const struct kbench *const __start_kbench[];
extern const struct kbench *const __stop_kbench[];

/* A release kernel knows ktest= too: it says it has no self-tests (run_selftests() below). */
CMDLINE_OPTION(bench, "bench", CMDLINE_BARE); /* run the benchmarks linked in, if any */
CMDLINE_OPTION(selftests, "ktest", CMDLINE_VALUE); /* which self-test suites run, or "off" */

/* Parses the information structure, or stops with a message naming what is wrong. */
static void read_boot_info(uint32_t magic, uint64_t mbi_phys)
{
	const char *err = NULL;

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("boot: magic %#x is not the multiboot2 magic %#x: not started by a multiboot2 loader",
		      magic, MB2_BOOTLOADER_MAGIC);
	if (mbi_phys == 0 || mbi_phys >= (1ULL << 32) - MBI_MAX_SIZE)
		panic("boot: multiboot2 information at %#llx is outside the low 4 GiB",
		      (unsigned long long)mbi_phys);
	if (mb2_parse(phys_to_virt(mbi_phys), MBI_MAX_SIZE, &boot_info, &err) < 0)
		panic("boot: malformed multiboot2 information at %#llx: %s",
		      (unsigned long long)mbi_phys, err);
	boot_info.mbi_phys = mbi_phys;
}

/* The boot page tables map the low 4 GiB at the direct map; acpi_find_cpus() stays below it. */
static const void *acpi_map_direct(void *ctx, uint64_t phys, uint32_t len)
{
	(void)ctx;
	(void)len;
	return phys_to_virt(phys);
}

/* Lists the CPUs the MADT names, or reports why not and keeps the boot CPU alone. */
static const struct acpi_cpus *find_cpus(void)
{
	static struct acpi_cpus cpus;
	static char line[12 * ACPI_MAX_CPUS]; /* up to 1024 ids of up to 10 digits */
	const char *err = NULL;
	uint32_t r[4];

	cpuid(1, 0, r);
	if (!boot_info.acpi_rsdp)
		printk("acpi: the boot loader passed no RSDP (multiboot2 tag 14 or 15)\n");
	if (acpi_find_cpus(boot_info.acpi_rsdp, boot_info.acpi_rsdp_len, acpi_map_direct, NULL,
			   r[1] >> 24, &cpus, &err) < 0 && boot_info.acpi_rsdp)
		printk("%s\n", err);
	acpi_format_cpus(line, sizeof(line), &cpus);
	printk("%s\n", line);
	return &cpus;
}

/*
 * The screen console, as soon as the framebuffer is in the direct map: at once when the boot page
 * tables reach it (the low 4 GiB, where VGA text and most framebuffers are), so that everything
 * from the boot report on reaches a screen that may be a machine's only output; else (memory_up)
 * once memory is set up and it can be mapped.
 */
static void start_screen_console(bool memory_up)
{
	struct boot_framebuffer *fb = &boot_info.fb;

	if (fb->addr + (uint64_t)fb->pitch * fb->height <= BOOT_DIRECT_MAP_END) {
		screen_console_init(&boot_info); /* the second call does nothing */
		return;
	}
	if (!memory_up)
		return;
	if (direct_map_range(fb->addr, (uint64_t)fb->pitch * fb->height)) {
		printk("screen: no page tables to map the framebuffer at %#llx: serial only\n",
		       (unsigned long long)fb->addr);
		fb->addr = 0;
	}
	screen_console_init(&boot_info);
}

/*
 * Runs every benchmark linked in (registered with KBENCH(); the page-allocator one in
 * tests/bench/) and ends the run. A release kernel has none: it says so and goes on.
 */
static void run_benchmarks(void)
{
	const struct kbench *const *b = __start_kbench, *const *end = __stop_kbench;

	if (b == end) {
		printk("bench: no benchmark is built into this kernel (a release build)\n");
		return;
	}
	for (; b < end; b++) {
		printk("bench: %s\n", (*b)->name);
		(*b)->run();
	}
	machine_exit(true);
}

/* A release kernel's stand-in for the self-test runner (tests/ktest/kernel/ktest_boot.c), which replaces it. */
__attribute__((weak)) void run_selftests(const char *cmdline)
{
	(void)cmdline;
	printk("ktest: self-tests are not built into this kernel (a release build); halting\n");
	machine_exit(true);
}

void kmain(uint32_t magic, uint64_t mbi_phys)
{
	percpu_install(&boot_cpu_local); /* first: code below may ask which CPU it runs on */
	ksyms_init();                    /* reports name functions from here on */
	serial_init();
	consoles_register();
	gdt_install_boot_cpu();
	idt_init();
	paging_drop_identity_map();
	printk("\nminimal x86-64 kernel: physical memory allocator\n");
	read_boot_info(magic, mbi_phys);
	start_screen_console(false);
	bootinfo_print(&boot_info);
	cmdline_warn_unknown(boot_info.cmdline, printk);
	/* The ACPI tables are in the low 4 GiB, which the boot page tables map. */
	const struct acpi_cpus *cpus = find_cpus();
	numa_discover(&boot_info, cpus);
	unsigned int nr_cpus = smp_plan(cpus, boot_info.cmdline);
	mm_setup(&boot_info, nr_cpus);
	start_screen_console(true);
	platform_init();
	smp_init();
	show_mem();
	compact_memory_at_boot(boot_info.cmdline);
	if (cmdline_has(boot_info.cmdline, "bench"))
		run_benchmarks();
	run_selftests(boot_info.cmdline);
}
