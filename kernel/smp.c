/* SPDX-License-Identifier: MIT */
/*
 * Starting the other CPUs and running work on them (kernel/smp.h).
 *
 * Start-up follows the INIT, start-up, start-up sequence of the Intel SDM vol. 3 ("MP
 * Initialization"): INIT, 10 ms, a start-up IPI, 200 us, a second one; one CPU at a time, each
 * given up to AP_TIMEOUT_MS to check in. A CPU that does not is sent INIT again, which parks it
 * for good, so a late start cannot run on the next CPU's stack.
 *
 * Each attempt has its own slot (its stacks, tables and per-CPU area, never reused), and the CPU
 * checks in through one word, the gate, that names the slot being started: the CPU moves it from
 * "open for my slot" to "my slot is ready", the boot CPU from "open" to "shut" at the deadline.
 * One compare-and-swap each, so exactly one wins: a CPU that checks in after its deadline finds
 * the gate shut (or open for another slot), is never counted, and parks itself.
 */
#include "kernel/smp.h"

#include "kernel/apic.h"
#include "kernel/boot_memmap.h"
#include "kernel/cmdline.h"
#include "kernel/gdt.h"
#include "kernel/numa.h"
#include "kernel/paging.h"
#include "kernel/panic.h"
#include "kernel/pc_layout.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"

#define AP_TIMEOUT_MS  1000               /* emulated CPUs can be slow to start: be generous */
#define STACK_ORDER    3                  /* 32 KiB */
#define STACK_SIZE     (PAGE_SIZE << STACK_ORDER)
#define DF_STACK_ORDER 1                  /* 8 KiB for the double-fault report */
#define GATE_SHUT      0xffffffffu        /* the gate's value when no CPU may check in */
#define GATE_READY     0x80000000u        /* or-ed with a slot: that slot's CPU checked in */

/* What boot/ap_trampoline.asm reads from the end of its page. */
struct ap_boot_params {
	uint32_t pml4; /* the temporary page table's physical address, below 4 GiB */
	uint32_t reserved;
	uint64_t entry;
	uint64_t kernel_cr3;
	uint64_t stack_top;
	uint64_t cpu_local;
};

/*
 * One start-up attempt: the per-CPU area (first, so an area's address is its slot's) and what the
 * CPU loads before it has one. Never reused nor freed: a CPU that checks in late still points at it.
 */
struct ap_slot {
	struct cpu_local local;
	struct cpu_tables *tables;
	void *df_stack_top;
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

_Static_assert(ACPI_MAX_CPUS >= NR_CPUS_MAX, "the MADT's ids must cover every CPU the kernel may run");

static const struct acpi_cpus *madt;
static unsigned int planned = 1, online = 1;
/*
 * Sized at boot (alloc_cpu_arrays()) for the planned CPUs and the MADT's ids; until then, and
 * when that memory is missing, the boot CPU's alone. cpu_area[] points at the areas of those online.
 */
static struct cpu_local *boot_area[1] = { &boot_cpu_local };
static struct cpu_local **cpu_area = boot_area;
static struct call boot_call[1];
static struct call *calls = boot_call;
static struct ap_slot *slots;                  /* by slot: one per MADT id, then the test slot */
static unsigned int nr_slots;
static phys_addr_t trampoline_phys;            /* the start-up code's page below 1 MiB; 0: none */
static uint32_t gate = GATE_SHUT;
static unsigned int late_checkins;             /* CPUs that found the gate shut, and parked */
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
	if (planned < listed && limit < listed)
		printk("smp: running %u of the %u CPUs listed (nosmp or nr_cpus= on the command line)\n",
		       planned, listed);
	else if (planned < listed)
		printk("smp: running %u of the %u CPUs listed (the most this kernel runs: %u)\n", planned,
		       listed, NR_CPUS_MAX);
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

/* A CPU that may not run: interrupts off for good (its timer is not started yet). */
static void __attribute__((noreturn)) park(void)
{
	local_irq_disable();
	halt_forever();
}

/* Test kernels replace this (tests/ktest/kernel/smp_fault.c); a real CPU has no fault. */
__attribute__((weak)) enum smp_fault smp_fault_at_start(uint32_t apic)
{
	(void)apic;
	return SMP_FAULT_NONE;
}

/* Checks the CPU of slot in: true when the gate was open for it, false when it is too late. */
static bool check_in(uint32_t slot)
{
	uint32_t open = slot;

	return __atomic_compare_exchange_n(&gate, &open, slot | GATE_READY, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

/* The fault SMP_FAULT_LATE: wait until the boot CPU has given up on this slot. */
static void wait_gate_closed(uint32_t slot)
{
	while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) == slot)
		cpu_relax();
}

/* boot/ap_trampoline.asm's ap_entry64 calls this on the CPU's own stack and the kernel's tables. */
void __attribute__((noreturn)) ap_start(struct cpu_local *me);
void ap_start(struct cpu_local *me)
{
	struct ap_slot *mine = (struct ap_slot *)me; /* the area is its slot's first member */
	uint32_t slot = (uint32_t)(mine - slots);
	enum smp_fault fault = smp_fault_at_start(me->apic_id);

	gdt_install(mine->tables, mine->df_stack_top);
	idt_load();
	percpu_install(me);
	apic_init_cpu();
	if (fault == SMP_FAULT_NEVER)
		park();
	if (fault == SMP_FAULT_LATE)
		wait_gate_closed(slot);
	if (!check_in(slot)) {
		__atomic_fetch_add(&late_checkins, 1, __ATOMIC_RELEASE);
		park();
	}
	timer_start_cpu();
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

/* Gives back memory of 2^order pages from pages() (nothing for NULL). */
static void free_pages_at(void *addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page(addr), order);
}

/*
 * Maps the STACK_SIZE bytes at stack (from pages()) as slot slot's stack, in KSTACK_AREA above
 * STACK_SIZE unmapped bytes, so that running off its end faults (a double fault, reported on its
 * own stack). Returns its top there; NULL when there were no page tables.
 */
static void *map_stack(unsigned int slot, void *stack)
{
	uintptr_t base = KSTACK_AREA + (uintptr_t)slot * 2 * STACK_SIZE + STACK_SIZE;

	if (map_range(base, virt_to_phys(stack), STACK_SIZE))
		return NULL;
	return (void *)(base + STACK_SIZE);
}

/* Everything slot slot needs before CPU number cpu starts in it; false, keeping nothing, when memory ran out. */
static bool prepare(unsigned int cpu, unsigned int slot, uint32_t apic, struct ap_boot_params *params)
{
	void *stack = pages(STACK_ORDER), *df = pages(DF_STACK_ORDER), *tables = pages(0), *top = NULL;

	if (stack && df && tables)
		top = map_stack(slot, stack);
	if (!top) {
		free_pages_at(stack, STACK_ORDER);
		free_pages_at(df, DF_STACK_ORDER);
		free_pages_at(tables, 0);
		return false;
	}
	slots[slot].tables = tables;
	slots[slot].df_stack_top = (char *)df + (PAGE_SIZE << DF_STACK_ORDER);
	slots[slot].local = (struct cpu_local){
		.cpu = cpu, .apic_id = apic,
		.stack_lo = (uintptr_t)top - STACK_SIZE, .stack_hi = (uintptr_t)top,
		.mm_pcp = mm_arch_cpu_pcp(cpu),
	};
	*params = (struct ap_boot_params){
		.pml4 = (uint32_t)((uintptr_t)ap_pml4 - KERNEL_VMA),
		.entry = (uintptr_t)ap_entry64,
		.kernel_cr3 = read_cr3(),
		.stack_top = (uintptr_t)top,
		.cpu_local = (uintptr_t)&slots[slot].local,
	};
	return true;
}

bool smp_prepare_test_slot(void)
{
	struct ap_boot_params params;

	/* The last slot, which no CPU starts in. */
	return slots && prepare(0, nr_slots - 1, 0, &params);
}

/*
 * True once the CPU of slot has checked in, waiting at most us microseconds; false after shutting
 * the gate, from which on the CPU cannot check in any more.
 */
static bool wait_checked_in(uint32_t slot, uint64_t us)
{
	uint64_t deadline = tsc_deadline_us(us);
	uint32_t open = slot;

	do {
		if (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) == (slot | GATE_READY))
			return true;
		cpu_relax();
	} while (rdtsc() < deadline);
	return !__atomic_compare_exchange_n(&gate, &open, GATE_SHUT, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
}

/* True once late_checkins has passed seen, waiting at most us microseconds. */
static bool wait_late_checkin(unsigned int seen, uint64_t us)
{
	uint64_t deadline = tsc_deadline_us(us);

	while (__atomic_load_n(&late_checkins, __ATOMIC_ACQUIRE) == seen && rdtsc() < deadline)
		cpu_relax();
	return __atomic_load_n(&late_checkins, __ATOMIC_ACQUIRE) != seen;
}

/* Sends INIT, then the start-up IPIs while the CPU of slot has not checked in. */
static void send_start_up(uint32_t apic, uint32_t slot)
{
	apic_send_init(apic);
	mdelay(10);
	for (int i = 0; i < 2 && __atomic_load_n(&gate, __ATOMIC_ACQUIRE) == slot; i++) {
		apic_send_startup(apic, (uint8_t)(trampoline_phys >> PAGE_SHIFT));
		udelay(200);
	}
}

/*
 * Starts the CPU with APIC id apic in slot slot as CPU number cpu; false, saying why, when it did
 * not check in by its deadline: it is then sent INIT and never counted.
 */
static bool start_cpu(unsigned int cpu, unsigned int slot, uint32_t apic)
{
	phys_addr_t page = trampoline_phys;
	struct ap_boot_params *params = phys_to_virt(page + (ap_trampoline_params - ap_trampoline));
	unsigned int late_before = __atomic_load_n(&late_checkins, __ATOMIC_ACQUIRE);

	if (!prepare(cpu, slot, apic, params)) {
		printk("smp: no memory for the stacks of the CPU with APIC id %u\n", apic);
		return false;
	}
	__atomic_store_n(&gate, slot, __ATOMIC_RELEASE);
	send_start_up(apic, slot);
	if (wait_checked_in(slot, AP_TIMEOUT_MS * 1000)) {
		__atomic_store_n(&gate, GATE_SHUT, __ATOMIC_RELEASE);
		return true;
	}
	/* A test kernel's late CPU checks in now: wait for it, so its report is certain. */
	if (smp_fault_at_start(apic) == SMP_FAULT_LATE)
		wait_late_checkin(late_before, AP_TIMEOUT_MS * 1000);
	apic_send_init(apic);
	printk("smp: the CPU with APIC id %u did not come up within %u ms; going on without it\n",
	       apic, AP_TIMEOUT_MS);
	if (__atomic_load_n(&late_checkins, __ATOMIC_ACQUIRE) != late_before)
		printk("smp: ignored the late check-in of the CPU with APIC id %u; it is parked\n", apic);
	return false;
}

unsigned int smp_reserve_trampoline(const struct boot_memmap *raw, struct mm_reservation *r,
				    unsigned int n)
{
	/* r[0] is the first 1 MiB: a precaution, not something in the way. */
	trampoline_phys = boot_memmap_find_low_page(raw, r + 1, n - 1, PC_LOW_RESERVE);
	if (!trampoline_phys)
		return n;
	r[n] = (struct mm_reservation){ trampoline_phys, PAGE_SIZE, "SMP trampoline" };
	return n + 1;
}

/* The trampoline in its page, and a temporary page table: the low 4 GiB as is, and the kernel. */
static void install_trampoline(void)
{
	const uint64_t *pml4 = kernel_pml4();

	memcpy(phys_to_virt(trampoline_phys), ap_trampoline, (size_t)(ap_trampoline_end - ap_trampoline));
	ap_pml4[0] = (uintptr_t)boot_pdpt_low | PTE_TABLE;
	ap_pml4[511] = pml4[511];
}

bool smp_install_early_trampoline(uintptr_t entry, uintptr_t arg)
{
	struct ap_boot_params *params;

	if (!trampoline_phys)
		return false;
	install_trampoline();
	params = phys_to_virt(trampoline_phys + (ap_trampoline_params - ap_trampoline));
	*params = (struct ap_boot_params){
		.pml4 = (uint32_t)((uintptr_t)ap_pml4 - KERNEL_VMA),
		.entry = entry,
		.kernel_cr3 = read_cr3(),
		.stack_top = arg,
	};
	return true;
}

uint8_t smp_trampoline_vector(void)
{
	return (uint8_t)(trampoline_phys >> PAGE_SHIFT);
}

/* Says nothing: the list's reasons are printed once, when smp_init() starts the CPUs. */
static int say_nothing(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

unsigned int smp_cpus_to_start(uint32_t *ids, unsigned int max)
{
	if (!madt || !apic_enabled())
		return 0;
	return acpi_cpus_to_start(madt, apic_id(), apic_is_x2apic(), ids, max, say_nothing);
}

/*
 * The per-CPU arrays, sized for what this machine has: an area pointer and a call for each planned
 * CPU, a slot for each MADT id and one for the self-test. False, saying so, when memory is short:
 * the boot CPU then runs alone.
 */
static bool alloc_cpu_arrays(void)
{
	unsigned int ids = madt ? madt->count : 0;
	struct cpu_local **area = kmalloc(planned * sizeof(*area), GFP_KERNEL | __GFP_ZERO);
	struct call *call = kmalloc(planned * sizeof(*call), GFP_KERNEL | __GFP_ZERO);
	struct ap_slot *slot = kmalloc((ids + 1) * sizeof(*slot), GFP_KERNEL | __GFP_ZERO);

	if (!area || !call || !slot) {
		printk("smp: no memory for the per-CPU areas of %u CPUs: the boot CPU runs alone\n", planned);
		kfree(area);
		kfree(call);
		kfree(slot);
		planned = 1;
		return false;
	}
	area[0] = &boot_cpu_local;
	cpu_area = area;
	calls = call;
	slots = slot;
	nr_slots = ids + 1;
	return true;
}

/* Starts the planned CPUs, from the MADT's startable ones in order; returns how many failed. */
static unsigned int start_others(uint32_t boot_apic, char *failed, size_t len)
{
	uint32_t *ids = kmalloc((nr_slots - 1) * sizeof(*ids), GFP_KERNEL);
	unsigned int n, nfailed = 0;
	size_t used = 0;

	if (!ids) {
		printk("smp: no memory to list the CPUs to start: the boot CPU runs alone\n");
		return 0;
	}
	n = acpi_cpus_to_start(madt, boot_apic, apic_is_x2apic(), ids, nr_slots - 1, printk);
	for (unsigned int slot = 0; slot < n && online < planned; slot++) {
		/* Its node, before it can allocate: a CPU that does not come up leaves its number to the next. */
		if (num_online_nodes() > 1)
			set_cpu_numa_node(online, numa_node_of_apic(ids[slot]));
		if (start_cpu(online, slot, ids[slot])) {
			cpu_area[online] = &slots[slot].local;
			__atomic_store_n(&online, online + 1, __ATOMIC_RELEASE);
		} else {
			used = snprintf_append(failed, len, used, " %u", ids[slot]);
			nfailed++;
		}
	}
	kfree(ids);
	return nfailed;
}

void smp_init(void)
{
	char failed[128] = "";
	unsigned int nfailed = 0;

	alloc_cpu_arrays();
	if (!apic_enabled()) {
		printk("smp: Brought up %u node%s, 1 CPU (no local APIC: no tick, no other CPU)\n", num_online_nodes(),
		       num_online_nodes() == 1 ? "" : "s");
		return;
	}
	boot_cpu_local.apic_id = apic_id();
	if (num_online_nodes() > 1) /* mm/ runs with the nodes it took: one, or the SRAT's */
		set_cpu_numa_node(0, numa_node_of_apic(boot_cpu_local.apic_id));
	irq_register(APIC_VECTOR_CALL, call_ipi);
	irq_register(APIC_VECTOR_STOP, stop_ipi);
	if (planned > 1 && !trampoline_phys)
		printk("smp: no free page below 1 MiB for the start-up code: the other CPUs stay off\n");
	else if (planned > 1) {
		printk("smp: start-up code in the page at %#llx\n", (unsigned long long)trampoline_phys);
		install_trampoline();
		nfailed = start_others(boot_cpu_local.apic_id, failed, sizeof(failed));
	}
	printk("smp: Brought up %u node%s, %u CPU%s", num_online_nodes(), num_online_nodes() == 1 ? "" : "s", online,
	       online == 1 ? "" : "s");
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
