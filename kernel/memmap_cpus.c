/* SPDX-License-Identifier: MIT */
/*
 * The struct pages initialized by every CPU at boot (kernel/memmap_cpus.h).
 *
 *  1. before_memmap hook: the local APIC, then INIT to each CPU that will help.
 *  2. run_parallel, the memmap backed: 10 ms after INIT, start-up IPIs to all of them at once.
 *     Each takes an area (boot/ap_trampoline.asm: its stacks, GDT and per-CPU area), checks in,
 *     which gives it the part of its check-in number (1, 2, ...), runs it, then claims more parts
 *     from a counter until none is left, and parks.
 *  3. The boot CPU runs part 0, waits for the check-ins (at most AP_TIMEOUT_MS) and closes them,
 *     runs the parts of the CPUs that did not check in, claims more, then waits for every part (a
 *     part taken and never finished is a panic: its struct pages would be garbage), waits for every
 *     CPU that took an area to park, and sends each INIT: smp_init() starts them from scratch.
 *  4. After mm_init(): mm_setup() gives the areas back unless a CPU that took one never parked.
 *
 * Every part runs exactly once whatever the other CPUs do: parts are handed out by atomic
 * counters, and the boot CPU runs whatever nobody took. A CPU that does not come up only means
 * fewer parts run at once.
 */
#include "kernel/memmap_cpus.h"

#include "kernel/apic.h"
#include "kernel/cmdline.h"
#include "kernel/gdt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/platform.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/init.h"

#define AREA_SIZE       (16u << 10) /* one CPU's: its header, double-fault stack and stack */
#define DF_STACK_TOP    (8u << 10)  /* [4 KiB, 8 KiB) of the area: the double-fault stack */
#define STACK_BOTTOM    (8u << 10)  /* [8 KiB, 16 KiB): the stack, whose top the asm entry sets */
#define PARTS_PER_CPU   4           /* more parts than CPUs: a CPU that finishes early takes more */
#define INIT_DELAY_MS   10          /* the wait after INIT (Intel SDM vol. 3, "MP Initialization") */
#define SIPI_DELAY_US   200
#define AP_TIMEOUT_MS   1000        /* for the check-ins, and for the CPUs to park */
#define PART_TIMEOUT_MS 10000       /* for a part a CPU took */
#define CLOSED          0x80000000u /* or-ed into a counter: nothing more is handed out */
/*
 * By default a CPU helps for each full GiB of RAM: the struct pages of a GiB (8 MiB of them) take
 * about as long to write as a CPU takes to start, so smaller machines boot on the boot CPU alone.
 */
#define MEMMAP_BYTES_PER_CPU (1ull << 30)

/* An area's header: what a CPU loads before it runs C that may fault. */
struct ap_area {
	struct cpu_local local;
	struct cpu_tables tables;
};
_Static_assert(sizeof(struct ap_area) <= 4096, "the header fits below the double-fault stack");

CMDLINE_OPTION(memmap_init_cpus, "memmap_init_cpus", CMDLINE_VALUE); /* at most this many CPUs write struct pages */

/* boot/ap_trampoline.asm reads these: an area is taken with memmap_ap_next++, below nareas. */
extern const char memmap_ap_entry64[];
uint32_t memmap_ap_next;
uint32_t memmap_ap_nareas;
uint64_t memmap_ap_area_size = AREA_SIZE;
void __attribute__((noreturn)) memmap_ap_start(struct ap_area *a);

static unsigned int planned = 1;        /* CPUs to use, the boot CPU's included */
static phys_addr_t areas_phys;
static uint32_t ids[NR_CPUS_MAX];       /* the APIC ids sent INIT */
static unsigned int nr_ids;
static uint64_t init_sent;              /* the TSC when INIT went out */
static mm_parallel_fn *job;
static unsigned int nparts = 1;
static uint32_t checkins;               /* CPUs checked in; CLOSED once the boot CPU stopped waiting */
static unsigned int next_part, parts_done, cpus_ran = 1, parked;
static unsigned int nr_checked_in, nr_took_area;
static bool areas_in_use;               /* a CPU that took an area did not park */

unsigned int memmap_cpus_plan(const char *cmdline, unsigned int nr_cpus, uint64_t ram_bytes)
{
	size_t len;
	unsigned long n = ram_bytes / MEMMAP_BYTES_PER_CPU, asked;
	const char *v = cmdline_value(cmdline, "memmap_init_cpus", &len);

	if (v && cmdline_parse_ulong(v, len, &asked) && asked)
		n = asked;
	else if (v)
		printk("mm: ignoring memmap_init_cpus=%.*s: not a number of CPUs (1 or more)\n", (int)len, v);
	if (!n)
		n = 1;
	if (!nr_cpus)
		nr_cpus = 1;
	planned = n < nr_cpus ? (unsigned int)n : nr_cpus;
	return planned;
}

size_t memmap_cpus_area_bytes(void)
{
	return (size_t)(planned - 1) * AREA_SIZE;
}

void memmap_cpus_set_areas(phys_addr_t phys)
{
	areas_phys = phys;
	if (!phys)
		planned = 1;
}

void memmap_cpus_send_init(void)
{
	/* Always, so that the boot's timing lines are in TSC-measured units whatever the CPUs. */
	if (!platform_init_early() || planned < 2)
		return;
	nr_ids = smp_cpus_to_start(ids, planned - 1);
	if (nr_ids && !smp_install_early_trampoline((uintptr_t)memmap_ap_entry64,
						    (uintptr_t)phys_to_virt(areas_phys)))
		nr_ids = 0;
	memmap_ap_nareas = nr_ids;
	for (unsigned int i = 0; i < nr_ids; i++)
		apic_send_init(ids[i]);
	init_sent = rdtsc();
}

/* ---- on every CPU ------------------------------------------------------------------------- */

static void run_part(unsigned int part)
{
	job(part, nparts);
	__atomic_fetch_add(&parts_done, 1, __ATOMIC_RELEASE);
}

/* Runs parts taken from the counter until none is left; true when it ran one. */
static bool claim_parts(void)
{
	bool ran = false;
	unsigned int part;

	while ((part = __atomic_fetch_add(&next_part, 1, __ATOMIC_ACQ_REL)) < nparts) {
		run_part(part);
		ran = true;
	}
	return ran;
}

/* ---- on the other CPUs -------------------------------------------------------------------- */


/*
 * Counts this CPU parked and halts for good, without touching its stack after the count: from
 * then on the boot CPU may give its area back.
 */
static void __attribute__((noreturn)) park_counted(void)
{
	__asm__ volatile("lock incl %0\n1: cli\n\thlt\n\tjmp 1b" : "+m"(parked) : : "memory");
	__builtin_unreachable();
}

/* Its tables and per-CPU area, in area a (number n), so that a fault is reported, not a reset. */
static void install_area(struct ap_area *a, unsigned int n)
{
	gdt_install(&a->tables, (char *)a + DF_STACK_TOP);
	idt_load();
	a->local = (struct cpu_local){
		.cpu = n + 1, .apic_id = cpu_initial_apic_id(),
		.stack_lo = (uintptr_t)a + STACK_BOTTOM, .stack_hi = (uintptr_t)a + AREA_SIZE,
	};
	percpu_install(&a->local);
}

/* boot/ap_trampoline.asm's memmap_ap_entry64 calls this on the stack of area a, interrupts off. */
void memmap_ap_start(struct ap_area *a)
{
	unsigned int n = (unsigned int)(((uintptr_t)a - (uintptr_t)phys_to_virt(areas_phys)) / AREA_SIZE);
	enum smp_fault fault;
	uint32_t me;
	bool ran = false;

	install_area(a, n);
	fault = smp_fault_at_start(a->local.apic_id);
	if (fault == SMP_FAULT_NEVER)
		halt_forever(); /* never checks in nor parks: its area stays reserved */
	if (fault == SMP_FAULT_LATE) /* comes once the check-ins are closed and every part is taken */
		while (!(__atomic_load_n(&checkins, __ATOMIC_ACQUIRE) & CLOSED) ||
		       __atomic_load_n(&next_part, __ATOMIC_ACQUIRE) < nparts)
			cpu_relax();
	me = __atomic_fetch_add(&checkins, 1, __ATOMIC_ACQ_REL);
	if (!(me & CLOSED)) {
		run_part(me + 1);
		ran = true;
	}
	if (claim_parts() || ran)
		__atomic_fetch_add(&cpus_ran, 1, __ATOMIC_RELEASE);
	park_counted();
}

/* ---- on the boot CPU ---------------------------------------------------------------------- */

/* The start-up IPIs, 10 ms after INIT: to all at once (the asm entry gives each its area). */
static void start_all(void)
{
	uint64_t ready = init_sent + INIT_DELAY_MS * tsc_per_ms;

	while (rdtsc() < ready)
		cpu_relax();
	for (unsigned int round = 0; round < 2; round++) {
		if (round && __atomic_load_n(&checkins, __ATOMIC_ACQUIRE) >= nr_ids)
			break;
		for (unsigned int i = 0; i < nr_ids; i++)
			apic_send_startup(ids[i], smp_trampoline_vector());
		udelay(SIPI_DELAY_US);
	}
}

/* Waits at most AP_TIMEOUT_MS for every CPU to check in, then closes; returns how many did. */
static unsigned int close_checkins(void)
{
	uint64_t deadline = tsc_deadline_us(AP_TIMEOUT_MS * 1000ULL);

	while (__atomic_load_n(&checkins, __ATOMIC_ACQUIRE) < nr_ids && rdtsc() < deadline)
		cpu_relax();
	return __atomic_fetch_or(&checkins, CLOSED, __ATOMIC_ACQ_REL);
}

/* Every part has been taken: waits for the last to finish, or panics. */
static void wait_parts_done(void)
{
	uint64_t deadline = tsc_deadline_us(PART_TIMEOUT_MS * 1000ULL);

	while (__atomic_load_n(&parts_done, __ATOMIC_ACQUIRE) < nparts)
		if (rdtsc() > deadline)
			panic("mm: %u of the %u parts of the struct pages taken by other CPUs did not finish "
			      "within %u ms: the memmap cannot be trusted", nparts - parts_done, nparts,
			      PART_TIMEOUT_MS);
}

/* No more areas taken; waits for those that took one to park, then sends each CPU INIT. */
static void stop_all(void)
{
	uint64_t deadline = tsc_deadline_us(AP_TIMEOUT_MS * 1000ULL);
	uint32_t took = __atomic_exchange_n(&memmap_ap_next, CLOSED, __ATOMIC_ACQ_REL);

	nr_took_area = took < nr_ids ? took : nr_ids;
	while (__atomic_load_n(&parked, __ATOMIC_ACQUIRE) < nr_took_area && rdtsc() < deadline)
		cpu_relax();
	areas_in_use = __atomic_load_n(&parked, __ATOMIC_ACQUIRE) < nr_took_area;
	for (unsigned int i = 0; i < nr_ids; i++)
		apic_send_init(ids[i]);
}

void memmap_cpus_run(mm_parallel_fn *fn)
{
	job = fn;
	if (!nr_ids) {
		fn(0, 1);
		return;
	}
	nparts = PARTS_PER_CPU * (nr_ids + 1);
	next_part = nr_ids + 1; /* parts 1 to nr_ids go to the CPUs in the order they check in */
	start_all();
	run_part(0);
	nr_checked_in = close_checkins();
	for (unsigned int part = nr_checked_in + 1; part <= nr_ids; part++)
		run_part(part);
	claim_parts();
	wait_parts_done();
	stop_all();
}

void memmap_cpus_report(void)
{
	unsigned int cpus = __atomic_load_n(&cpus_ran, __ATOMIC_ACQUIRE);

	printk("mm: struct pages initialized by %u CPU%s in %u part%s\n", cpus, cpus == 1 ? "" : "s", nparts,
	       nparts == 1 ? "" : "s");
	printk("mm: memmap built in %llu us (%lu struct pages, %llu TSC ticks: backing, mapping, writing)\n",
	       (unsigned long long)(mm_init_timing.memmap_cycles * 1000 / tsc_per_ms), mm_init_timing.memmap_pages,
	       (unsigned long long)mm_init_timing.memmap_cycles);
	if (nr_checked_in < nr_ids)
		printk("mm: %u of the %u CPUs started for the struct pages did not check in within %u ms\n",
		       nr_ids - nr_checked_in, nr_ids, AP_TIMEOUT_MS);
	if (areas_in_use)
		printk("mm: %u CPU%s started for the struct pages did not park within %u ms: the %zu KiB of "
		       "stacks stay reserved\n", nr_took_area - parked, nr_took_area - parked == 1 ? "" : "s",
		       AP_TIMEOUT_MS, memmap_cpus_area_bytes() >> 10);
}

bool memmap_cpus_areas_unused(void)
{
	return !areas_in_use;
}
