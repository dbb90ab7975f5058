/* SPDX-License-Identifier: MIT */
/*
 * CPU exceptions and interrupts: the IDT, which every CPU shares, and a handler that turns every
 * exception into a readable report on the console (CPU, vector name, error code, RIP named by the
 * kernel's symbol table, CR2 for page faults, registers, the backtrace) instead of a triple
 * fault, and hands every interrupt vector to the handler registered for it. Unexpected exceptions end the run (kernel/panic.c); self-tests may expect one
 * (traps.h).
 */
#include "kernel/traps.h"

#include "kernel/backtrace.h"
#include "kernel/gdt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/x86.h"
#include "kernel/spinlock.h"
#include "lib/printk.h"
#include "mm/vmalloc.h"

#define NR_EXCEPTIONS 32
#define NR_VECTORS 256
#define GATE_INTERRUPT 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define VEC_DOUBLE_FAULT 8
#define VEC_PAGE_FAULT 14
#define PF_PRESENT 0x1 /* error code: a protection violation, not a missing page */

struct idt_gate {
	uint16_t offset_low, selector;
	uint8_t ist, type_attr;
	uint16_t offset_mid;
	uint32_t offset_high, zero;
} __attribute__((packed));

static struct idt_gate idt[NR_VECTORS];
extern const uint64_t trap_stubs[NR_VECTORS];
static irq_handler_fn *irq_handlers[NR_VECTORS];

extern const char probe_read64_insn[], probe_read64_fixup[];
extern const char probe_write64_insn[], probe_write64_fixup[];
extern const char probe_ud2_insn[], probe_ud2_fixup[];

static const char *const exception_names[NR_EXCEPTIONS] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS", "#NP segment not present",
	"#SS stack fault", "#GP general protection", "#PF page fault", "reserved 15",
	"#MF x87 floating point", "#AC alignment check", "#MC machine check",
	"#XM SIMD floating point", "#VE virtualization", "#CP control protection",
	"reserved 22", "reserved 23", "reserved 24", "reserved 25", "reserved 26", "reserved 27",
	"#HV hypervisor injection", "#VC VMM communication", "#SX security", "reserved 31",
};

static struct {
	bool armed, happened;
	unsigned int vector;
	struct trap_record *seen;
} expectation;

void idt_init(void)
{
	for (int v = 0; v < NR_VECTORS; v++) {
		uint64_t a = trap_stubs[v];
		idt[v] = (struct idt_gate){
			.offset_low = (uint16_t)a, .selector = KERNEL_CS, .type_attr = GATE_INTERRUPT,
			.offset_mid = (uint16_t)(a >> 16), .offset_high = (uint32_t)(a >> 32),
		};
	}
	/* A double fault gets a stack of its own: the kernel stack may be what overflowed. */
	idt[VEC_DOUBLE_FAULT].ist = IST_DOUBLE_FAULT;
	idt_load();
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = { sizeof(idt) - 1, (uint64_t)idt };
	__asm__ volatile("lidt %0" : : "m"(idtr));
}

void irq_register(unsigned int vector, irq_handler_fn *fn)
{
	if (vector < NR_EXCEPTIONS || vector >= NR_VECTORS)
		panic("irq_register: vector %u is not an interrupt vector (32-255)", vector);
	__atomic_store_n(&irq_handlers[vector], fn, __ATOMIC_RELEASE);
}

void trap_expect(unsigned int vector, struct trap_record *seen)
{
	expectation.vector = vector;
	expectation.seen = seen;
	expectation.happened = false;
	expectation.armed = true;
}

bool trap_expect_done(void)
{
	expectation.armed = false;
	return expectation.happened;
}

/* Describes the page-fault error code bits. */
static void print_pf_error(uint64_t e, const char *prefix)
{
	printk("%s  cause: %s, %s access, %s mode%s%s\n", prefix,
	       e & 1 ? "protection violation" : "page not present", e & 2 ? "write" : "read",
	       e & 4 ? "user" : "kernel", e & 8 ? ", reserved bit set" : "",
	       e & 16 ? ", instruction fetch" : "");
}

/* Prints the report; every line starts with prefix ("" or "    # " inside a self-test). */
static void report(const struct trap_frame *f, uint64_t cr2, const char *prefix)
{
	printk("%s%s: %s (vector %llu) error code %#llx on CPU %u\n", prefix,
	       *prefix ? "trap" : "EXCEPTION", exception_names[f->vector],
	       (unsigned long long)f->vector, (unsigned long long)f->error_code, this_cpu_id());
	printk("%s  RIP %04llx:%pS (%p)  RFLAGS %#llx  RSP %p\n", prefix, (unsigned long long)f->cs,
	       (void *)f->rip, (void *)f->rip, (unsigned long long)f->rflags, (void *)f->rsp);
	if (f->vector == 14) {
		printk("%s  CR2 %p (the faulting address)\n", prefix, (void *)cr2);
		print_pf_error(f->error_code, prefix);
	}
	printk("%s  RAX %p RBX %p RCX %p RDX %p\n", prefix, (void *)f->rax, (void *)f->rbx,
	       (void *)f->rcx, (void *)f->rdx);
	printk("%s  RSI %p RDI %p RBP %p R8  %p\n", prefix, (void *)f->rsi, (void *)f->rdi,
	       (void *)f->rbp, (void *)f->r8);
	printk("%s  R9  %p R10 %p R11 %p R12 %p\n", prefix, (void *)f->r9, (void *)f->r10,
	       (void *)f->r11, (void *)f->r12);
	printk("%s  R13 %p R14 %p R15 %p\n", prefix, (void *)f->r13, (void *)f->r14, (void *)f->r15);
	backtrace_print(*prefix ? "    #   " : "  ", f->rbp);
}

/* Moves RIP from a probe instruction to its recovery point. */
static void resume_probe(struct trap_frame *f)
{
	if (f->rip == (uint64_t)probe_read64_insn)
		f->rip = (uint64_t)probe_read64_fixup;
	else if (f->rip == (uint64_t)probe_write64_insn)
		f->rip = (uint64_t)probe_write64_fixup;
	else if (f->rip == (uint64_t)probe_ud2_insn)
		f->rip = (uint64_t)probe_ud2_fixup;
}

/* An interrupt: its registered handler, which acknowledges it; an unknown vector is a bug. */
static void interrupt(struct trap_frame *f)
{
	irq_handler_fn *fn = __atomic_load_n(&irq_handlers[f->vector], __ATOMIC_ACQUIRE);

	if (!fn)
		panic("unexpected interrupt vector %llu on CPU %u (RIP %pS)",
		      (unsigned long long)f->vector, this_cpu_id(), (void *)f->rip);
	this_cpu_local()->irq_depth++; /* in_interrupt(): mm/'s lock check asks */
	fn((unsigned int)f->vector);
	this_cpu_local()->irq_depth--;
}

/*
 * A fault on a vmalloc page that a migration is moving (mm/vmalloc.h): waits for the move, with
 * interrupts on as the interrupted code had them (the move's TLB shootdown needs this CPU's
 * interrupt), and says to retry the access. The interrupted code had interrupts off: it must not
 * wait (it might hold up that shootdown), so the fault is reported as any other.
 */
static bool vmalloc_marker_fault(const struct trap_frame *f, uint64_t cr2)
{
	bool retry;

	if (f->vector != VEC_PAGE_FAULT || (f->error_code & PF_PRESENT) || !is_vmalloc_addr((void *)cr2))
		return false;
	if (!(f->rflags & X86_EFLAGS_IF)) {
		printk("vmalloc: %p touched with interrupts off: a vmalloc page may be moving, and this CPU "
		       "cannot wait for it (mm/vmalloc.h)\n", (void *)cr2);
		return false;
	}
	local_irq_enable(); /* the mirror 0 too; trap_handler() puts it back as the interrupted code had it */
	retry = vmalloc_fault(cr2);
	local_irq_disable();
	return retry;
}

/* An exception: a vmalloc page on the move, a fault a self-test expects, or the end of the run. */
static void exception(struct trap_frame *f)
{
	uint64_t cr2;

	cr2 = read_cr2();
	if (vmalloc_marker_fault(f, cr2))
		return;
	if (expectation.armed && f->vector == expectation.vector) {
		expectation.armed = false;
		expectation.happened = true;
		*expectation.seen = (struct trap_record){
			.vector = f->vector, .error_code = f->error_code, .rip = f->rip, .cr2 = cr2,
		};
		expectation.seen->trace_len = backtrace_from(f->rbp, expectation.seen->trace,
							     TRAP_RECORD_FRAMES, NULL);
		report(f, cr2, "    # ");
		resume_probe(f);
		return;
	}
	report(f, cr2, "");
	panic_without_backtrace("unexpected CPU exception %llu", (unsigned long long)f->vector);
}

/*
 * Every vector comes through an interrupt gate, which turned interrupts off: the mirror
 * (irq_mirror(), kernel/spinlock.h) says so while the handler runs, and is put back as it was on
 * the way out, where iretq gives the interrupted code its own flag back. That code may have been
 * between an mm/ fast path's test of the mirror and its cli (the mirror 0 then): the handler's
 * own allocations see it set and take the saving way.
 */
void trap_handler(struct trap_frame *f)
{
	unsigned int mirror = irq_mirror();

	irq_mirror_set(1);
	if (f->vector >= NR_EXCEPTIONS)
		interrupt(f);
	else
		exception(f);
	irq_mirror_set(mirror);
}
