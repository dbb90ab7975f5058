/* SPDX-License-Identifier: MIT */
/* The local APIC (kernel/apic.h). */
#include "kernel/apic.h"

#include "kernel/paging.h"
#include "kernel/spinlock.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "lib/printk.h"

#define MSR_APIC_BASE     0x1b
#define APIC_BASE_ENABLE  (1ull << 11)
#define APIC_BASE_X2APIC  (1ull << 10)
#define APIC_BASE_ADDR    0x000ffffffffff000ull
#define X2APIC_MSR(reg)   (0x800u + ((reg) >> 4))

#define CPUID1_EDX_APIC   (1u << 9)
#define CPUID1_ECX_X2APIC (1u << 21)

#define SVR_ENABLE        (1u << 8)
#define ICR_INIT          (5u << 8)
#define ICR_STARTUP       (6u << 8)
#define ICR_PENDING       (1u << 12) /* xAPIC only: the last IPI is not sent yet */
#define ICR_ASSERT        (1u << 14)

static bool x2apic, enabled;
static volatile uint32_t *xapic; /* the xAPIC page, uncached */

bool apic_is_x2apic(void) { return x2apic; }
bool apic_enabled(void) { return enabled; }

uint32_t apic_read(uint32_t reg)
{
	return x2apic ? (uint32_t)rdmsr(X2APIC_MSR(reg)) : xapic[reg / 4];
}

void apic_write(uint32_t reg, uint32_t value)
{
	if (x2apic)
		wrmsr(X2APIC_MSR(reg), value);
	else
		xapic[reg / 4] = value;
}

uint32_t apic_id(void)
{
	return x2apic ? apic_read(APIC_ID) : apic_read(APIC_ID) >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/*
 * Writes the interrupt command register: one 64-bit MSR in x2APIC mode; in xAPIC mode the
 * destination half first (writing the low half sends), then waits until the IPI has left.
 * Refuses, saying so, a destination the mode cannot name alone: in xAPIC mode the field has 8
 * bits, so 256 would reach CPU 0, and 255 is every CPU (in x2APIC mode 0xffffffff is).
 */
static bool send_icr(uint32_t dest, uint32_t low)
{
	unsigned long flags;

	if (dest > (x2apic ? 0xfffffffeu : 0xfeu)) {
		printk("apic: refusing an IPI to APIC id %u: %s mode names ids 0 to %u alone\n", dest,
		       x2apic ? "x2APIC" : "xAPIC", x2apic ? 0xfffffffeu : 0xfeu);
		return false;
	}
	flags = local_irq_save();

	if (x2apic) {
		/*
		 * A write to an x2APIC MSR does not wait for earlier stores to be visible: fence
		 * first, so the target sees the work posted before the IPI that announces it.
		 */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(X2APIC_MSR(APIC_ICR), (uint64_t)dest << 32 | low);
	} else {
		xapic[(APIC_ICR + 0x10) / 4] = dest << 24;
		xapic[APIC_ICR / 4] = low;
		while (xapic[APIC_ICR / 4] & ICR_PENDING)
			cpu_relax();
	}
	local_irq_restore(flags);
	return true;
}

bool apic_send_ipi(uint32_t dest, uint8_t vector)
{
	return send_icr(dest, ICR_ASSERT | vector);
}

bool apic_send_init(uint32_t dest)
{
	return send_icr(dest, ICR_ASSERT | ICR_INIT);
}

bool apic_send_startup(uint32_t dest, uint8_t page)
{
	return send_icr(dest, ICR_ASSERT | ICR_STARTUP | page);
}

/* A spurious interrupt is not acknowledged (the SDM says so: it never set an in-service bit). */
static void spurious(unsigned int vector)
{
	(void)vector;
}

void apic_init_cpu(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE;

	/* x2APIC is entered from the enabled xAPIC state: two writes, as the SDM requires. */
	wrmsr(MSR_APIC_BASE, base);
	if (x2apic)
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_X2APIC);
	apic_write(APIC_TPR, 0);                 /* accept every priority */
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_SVR, SVR_ENABLE | APIC_VECTOR_SPURIOUS);
}

bool apic_init(void)
{
	uint32_t r[4];
	uint64_t base = rdmsr(MSR_APIC_BASE);

	cpuid(1, 0, r);
	if (!(r[3] & CPUID1_EDX_APIC)) {
		printk("apic: this CPU has no local APIC (CPUID 1 EDX bit 9)\n");
		return false;
	}
	x2apic = r[2] & CPUID1_ECX_X2APIC;
	if (!x2apic && (base & APIC_BASE_X2APIC)) {
		printk("apic: the firmware left x2APIC on, but CPUID does not list it\n");
		return false;
	}
	if (!x2apic) {
		xapic = map_mmio(base & APIC_BASE_ADDR, 4096);
		if (!xapic) {
			printk("apic: no page tables to map the xAPIC at %#llx\n",
			       (unsigned long long)(base & APIC_BASE_ADDR));
			return false;
		}
	}
	irq_register(APIC_VECTOR_SPURIOUS, spurious);
	apic_init_cpu();
	enabled = true;
	printk("apic: %s mode, boot CPU's APIC id %u\n", x2apic ? "x2APIC" : "xAPIC", apic_id());
	return true;
}
