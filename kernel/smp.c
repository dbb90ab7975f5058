/* SPDX-License-Identifier: MIT */
/*
 * Starting the other CPUs and running work on them (kernel/smp.h).
 *
 * Start-up follows the INIT, start-up, start-up sequence of the Intel SDM vol. 3 ("MP
 * Initialization"): INIT, 10 ms, a start-up IPI, 200 us, a second one; one CPU at a time, each
 * given up to AP_TIMEOUT_MS to check in. A CPU that does not is sent INIT again, which parks it
 * for good, so a late start cannot run on the next CPU's stack.
 */
#include "kernel/smp.h"

#include "kernel/apic.h"
#include "kernel/cmdline.h"
#include "kernel/gdt.h"
#include "kernel/mm_setup.h"
#include "kernel/paging.h"
#include "kernel/panic.h"
#include "kernel/pic.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/tlb.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"

#define KERNEL_VMA     0xffffffff80000000UL
#define PTE_TABLE      0x3ULL             /* present, writable */
#define AP_TIMEOUT_MS  1000               /* emulated CPUs can be slow to start: be generous */
#define STACK_ORDER    3                  /* 32 KiB */
#define STACK_SIZE     (PAGE_SIZE << STACK_ORDER)
#define DF_STACK_ORDER 1                  /* 8 KiB for the double-fault report */

/* What boot/ap_trampoline.asm reads from the end of its page. */
struct ap_boot_params {
	uint32_t pml4; /* the temporary page table's physical address, below 4 GiB */
	uint32_t reserved;
	uint64_t entry;
	uint64_t kernel_cr3;
	uint64_t stack_top;
	uint64_t cpu_local;
};

/* Work posted to one CPU: it runs the call numbered posted once done has caught up to it. */
struct call {
	void (*fn)(void *);
	void *arg;
	unsigned long posted, done;
};

extern const char ap_trampoline[], ap_trampoline_end[], ap_trampoline_params[];
extern const char ap_entry64[];
extern char boot_pdpt_low[]; /* boot/page_tables.asm: the low 4 GiB, 2 MiB pages (physical) */

static const struct acpi_cpus *madt;
static unsigned int planned = 1, online = 1;
static struct cpu_local ap_local[NR_CPUS_MAX];
static struct cpu_local *cpu_area[NR_CPUS_MAX] = { &boot_cpu_local };
static bool alive[NR_CPUS_MAX];
static struct cpu_tables *ap_tables[NR_CPUS_MAX];
static void *ap_df_stack_top[NR_CPUS_MAX];
static struct call calls[NR_CPUS_MAX];
static uint64_t ap_pml4[512] __attribute__((aligned(4096)));

unsigned int smp_num_cpus(void)
{
	return __atomic_load_n(&online, __ATOMIC_ACQUIRE);
}

struct cpu_local *smp_cpu_local(unsigned int cpu)
{
	return cpu < smp_num_cpus() ? cpu_area[cpu] : NULL;
}

unsigned int smp_plan(const struct acpi_cpus *cpus, const char *cmdline)
{
	unsigned int listed = cpus->count + cpus->more, limit = cmdline_cpu_limit(cmdline, printk);

	madt = cpus;
	planned = listed < limit ? listed : limit;
	if (planned > NR_CPUS_MAX)
		planned = NR_CPUS_MAX;
	if (planned > cpus->count)
		planned = cpus->count;
	if (!planned)
		planned = 1;
	if (planned < listed)
		printk("smp: running %u of the %u CPUs listed (%s)\n", planned, listed,
		       limit < listed ? "nosmp or nr_cpus= on the command line" : "the most this kernel runs");
	return planned;
}

/* ---- the other CPUs' life: start-up, idle loop, work ---------------------------------------- */

/* The work posted to this CPU, run with interrupts on; false when there is none. */
static bool run_posted_work(struct call *c)
{
	if (__atomic_load_n(&c->posted, __ATOMIC_ACQUIRE) == c->done)
		return false;
	local_irq_enable();
	c->fn(c->arg);
	__atomic_store_n(&c->done, c->done + 1, __ATOMIC_RELEASE);
	return true;
}

/* Waits for work. sti's one-instruction delay makes "sti; hlt" atomic: no wake-up is lost. */
static void __attribute__((noreturn)) idle_loop(void)
{
	struct call *c = &calls[this_cpu_id()];

	for (;;) {
		local_irq_disable();
		if (!run_posted_work(c))
			__asm__ volatile("sti; hlt" ::: "memory");
	}
}

/* boot/ap_trampoline.asm's ap_entry64 calls this on the CPU's own stack and the kernel's tables. */
void __attribute__((noreturn)) ap_start(struct cpu_local *me);
void ap_start(struct cpu_local *me)
{
	gdt_install(ap_tables[me->cpu], ap_df_stack_top[me->cpu]);
	idt_load();
	percpu_install(me);
	apic_init_cpu();
	timer_start_cpu();
	__atomic_store_n(&alive[me->cpu], true, __ATOMIC_RELEASE);
	idle_loop();
}

/* A posted call only needs to wake the CPU up: its idle loop runs the work. */
static void call_ipi(unsigned int vector)
{
	(void)vector;
	apic_eoi();
}

static void stop_ipi(unsigned int vector)
{
	(void)vector;
	halt_forever();
}

/* ---- starting a CPU -------------------------------------------------------------------------- */

/* Memory of 2^order pages, in the direct map; NULL when there is none. */
static void *pages(unsigned int order)
{
	struct page *p = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);

	return p ? page_address(p) : NULL;
}

/*
 * CPU cpu's stack: STACK_SIZE bytes mapped in KSTACK_AREA above STACK_SIZE unmapped bytes, so
 * that running off its end faults (a double fault, reported on its own stack). Returns its top.
 */
static void *map_stack(unsigned int cpu)
{
	struct page *p = alloc_pages(GFP_KERNEL, STACK_ORDER);
	uintptr_t base = KSTACK_AREA + (uintptr_t)cpu * 2 * STACK_SIZE + STACK_SIZE;

	if (!p || map_range(base, PFN_PHYS(page_to_pfn(p)), STACK_SIZE))
		return NULL;
	return (void *)(base + STACK_SIZE);
}

/* Everything CPU cpu needs before it starts; false when memory ran out. */
static bool prepare(unsigned int cpu, uint32_t apic, struct ap_boot_params *params)
{
	void *stack = map_stack(cpu), *df = pages(DF_STACK_ORDER);

	ap_tables[cpu] = pages(0);
	if (!stack || !df || !ap_tables[cpu])
		return false;
	ap_df_stack_top[cpu] = (char *)df + (PAGE_SIZE << DF_STACK_ORDER);
	ap_local[cpu] = (struct cpu_local){
		.cpu = cpu, .apic_id = apic,
		.stack_lo = (uintptr_t)stack - STACK_SIZE, .stack_hi = (uintptr_t)stack,
	};
	*params = (struct ap_boot_params){
		.pml4 = (uint32_t)((uintptr_t)ap_pml4 - KERNEL_VMA),
		.entry = (uintptr_t)ap_entry64,
		.kernel_cr3 = read_cr3(),
		.stack_top = (uintptr_t)stack,
		.cpu_local = (uintptr_t)&ap_local[cpu],
	};
	return true;
}

/* True once CPU cpu has checked in, waiting at most us microseconds. */
static bool wait_alive(unsigned int cpu, uint64_t us)
{
	uint64_t deadline = tsc_deadline_us(us);

	do {
		if (__atomic_load_n(&alive[cpu], __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	} while (rdtsc() < deadline);
	return false;
}

/* Starts the CPU with APIC id apic as CPU number cpu; false, saying why, when it did not start. */
static bool start_cpu(unsigned int cpu, uint32_t apic)
{
	phys_addr_t page = smp_trampoline_phys;
	struct ap_boot_params *params = phys_to_virt(page + (ap_trampoline_params - ap_trampoline));

	if (!prepare(cpu, apic, params)) {
		printk("smp: no memory for the stacks of the CPU with APIC id %u\n", apic);
		return false;
	}
	apic_send_init(apic);
	mdelay(10);
	for (int i = 0; i < 2 && !__atomic_load_n(&alive[cpu], __ATOMIC_ACQUIRE); i++) {
		apic_send_startup(apic, (uint8_t)(page >> PAGE_SHIFT));
		udelay(200);
	}
	if (wait_alive(cpu, AP_TIMEOUT_MS * 1000))
		return true;
	apic_send_init(apic);
	printk("smp: the CPU with APIC id %u did not come up within %u ms; going on without it\n",
	       apic, AP_TIMEOUT_MS);
	return false;
}

/* The trampoline in its page, and a temporary page table: the low 4 GiB as is, and the kernel. */
static void install_trampoline(void)
{
	const uint64_t *pml4 = kernel_pml4();

	memcpy(phys_to_virt(smp_trampoline_phys), ap_trampoline, (size_t)(ap_trampoline_end - ap_trampoline));
	ap_pml4[0] = (uintptr_t)boot_pdpt_low | PTE_TABLE;
	ap_pml4[511] = pml4[511];
}

/* Starts the planned CPUs, in MADT order; returns how many did not come up. */
static unsigned int start_others(uint32_t boot_apic, char *failed, size_t len)
{
	unsigned int nfailed = 0;
	size_t n = 0;

	for (uint32_t i = 0; i < madt->count && online < planned; i++) {
		uint32_t apic = madt->apic_ids[i];
		if (apic == boot_apic)
			continue;
		if (start_cpu(online, apic)) {
			cpu_area[online] = &ap_local[online];
			__atomic_store_n(&online, online + 1, __ATOMIC_RELEASE);
		} else {
			n += (size_t)snprintf(failed + MIN(n, len), n < len ? len - n : 0, " %u", apic);
			nfailed++;
		}
	}
	return nfailed;
}

void smp_init(void)
{
	char failed[128] = "";
	unsigned int nfailed = 0;

	boot_cpu_local.apic_id = 0;
	pic_disable();
	tsc_calibrate();
	if (!apic_init()) {
		printk("smp: Brought up 1 node, 1 CPU (no local APIC: no tick, no other CPU)\n");
		return;
	}
	boot_cpu_local.apic_id = apic_id();
	irq_register(APIC_VECTOR_CALL, call_ipi);
	irq_register(APIC_VECTOR_STOP, stop_ipi);
	tlb_init();
	timer_init();
	if (planned > 1 && !smp_trampoline_phys)
		printk("smp: no free page below 1 MiB for the start-up code: the other CPUs stay off\n");
	else if (planned > 1) {
		printk("smp: start-up code in the page at %#llx\n", (unsigned long long)smp_trampoline_phys);
		install_trampoline();
		nfailed = start_others(boot_cpu_local.apic_id, failed, sizeof(failed));
	}
	printk("smp: Brought up 1 node, %u CPU%s", online, online == 1 ? "" : "s");
	if (nfailed)
		printk("; %u did not come up (APIC id%s%s)", nfailed, nfailed == 1 ? "" : "s", failed);
	printk("\n");
	local_irq_enable();
}

/* ---- cross-CPU calls ------------------------------------------------------------------------ */

static void require_boot_cpu(const char *what)
{
	if (this_cpu_id() != 0)
		panic("%s: called on CPU %u; only the boot CPU makes cross-CPU calls", what, this_cpu_id());
}

/* Waits until CPU cpu has finished every call posted to it. */
static void wait_done(unsigned int cpu)
{
	struct call *c = &calls[cpu];

	while (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) != c->posted)
		cpu_relax();
}

/* Posts fn(arg) to every other online CPU and wakes each up. */
static void post_to_others(void (*fn)(void *), void *arg)
{
	for (unsigned int cpu = 1; cpu < smp_num_cpus(); cpu++) {
		struct call *c = &calls[cpu];

		wait_done(cpu);
		c->fn = fn;
		c->arg = arg;
		__atomic_store_n(&c->posted, c->posted + 1, __ATOMIC_RELEASE);
		apic_send_ipi(cpu_area[cpu]->apic_id, APIC_VECTOR_CALL);
	}
}

static void wait_others(void)
{
	for (unsigned int cpu = 1; cpu < smp_num_cpus(); cpu++)
		wait_done(cpu);
}

void smp_call_function(void (*fn)(void *), void *arg, bool wait)
{
	require_boot_cpu("smp_call_function");
	post_to_others(fn, arg);
	if (wait)
		wait_others();
}

void on_each_cpu(void (*fn)(void *), void *arg)
{
	require_boot_cpu("on_each_cpu");
	post_to_others(fn, arg);
	fn(arg);
	wait_others();
}

void smp_stop_others(void)
{
	unsigned int n = smp_num_cpus();

	for (unsigned int cpu = 0; cpu < n; cpu++)
		if (cpu != this_cpu_id())
			apic_send_ipi(cpu_area[cpu]->apic_id, APIC_VECTOR_STOP);
}
