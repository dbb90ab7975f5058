/*
 * kmain(): the kernel after the switch to long mode. Brings up the console and the exception
 * handler, reads the boot information, lists the command line options it does not know, sets up
 * memory, runs the self-tests the command line asks for, and reports the verdict.
 */
#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"
#include "kernel/console/screen.h"
#include "kernel/ktest.h"
#include "kernel/mm_setup.h"
#include "kernel/paging.h"
#include "kernel/panic.h"
#include "kernel/serial.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "tests/bench/page_alloc_bench.h"
#include "lib/string.h"
#include "mm/arch.h"

/* The boot page tables map the low 4 GiB at the direct map; the information structure is there. */
#define MBI_MAX_SIZE (1u << 20)

struct boot_info boot_info;

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

/* The screen console, once the framebuffer (possibly above 4 GiB) is in the direct map. */
static void start_screen_console(void)
{
	struct boot_framebuffer *fb = &boot_info.fb;

	if (fb->addr && direct_map_range(fb->addr, (uint64_t)fb->pitch * fb->height)) {
		printk("screen: no page tables to map the framebuffer at %#llx: serial only\n",
		       (unsigned long long)fb->addr);
		fb->addr = 0;
	}
	screen_console_init(&boot_info);
}

/*
 * Runs the self-tests the command line selects ("ktest=a,b*"; all by default) and ends the run.
 * A filter that selects no suite, or one too long to read whole, fails the run.
 */
static void run_selftests(const char *cmdline)
{
	char filter[256];
	size_t len;
	int ran = 0, skipped = 0;

	if (cmdline_value(cmdline, "ktest", &len) && len >= sizeof(filter)) {
		printk("ktest: the ktest= value has %zu characters, more than the %zu this kernel reads\n",
		       len, sizeof(filter) - 1);
		machine_exit(false);
	}
	cmdline_get(cmdline, "ktest", filter, sizeof(filter));
	if (!strcmp(filter, "off")) {
		printk("ktest: self-tests off (ktest=off); halting\n");
		halt_forever();
	}
	int failed = ktest_run(filter, &ran, &skipped);
	if (failed < 0)
		machine_exit(false);
	printk("ktest: summary: %d passed, %d failed, %d skipped\n", ran - failed - skipped, failed,
	       skipped);
	machine_exit(failed == 0);
}

void kmain(uint32_t magic, uint64_t mbi_phys)
{
	serial_init();
	idt_init();
	paging_drop_identity_map();
	printk("\nminimal x86-64 kernel: physical memory allocator\n");
	read_boot_info(magic, mbi_phys);
	bootinfo_print(&boot_info);
	cmdline_warn_unknown(boot_info.cmdline, printk);
	mm_setup(&boot_info);
	start_screen_console();
	if (cmdline_has(boot_info.cmdline, "bench")) {
		page_alloc_bench();
		machine_exit(true);
	}
	run_selftests(boot_info.cmdline);
}
