/* SPDX-License-Identifier: MIT */
/* Inline wrappers for the x86 instructions the kernel uses: port I/O, CPUID, MSRs, control registers. */
#ifndef KERNEL_X86_H
#define KERNEL_X86_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

/*
 * This CPU's initial APIC id, without its local APIC: CPUID leaf 0xb's 32 bits where the CPU has
 * that leaf (x2APIC ids above 255 need them), else leaf 1's 8.
 */
static inline uint32_t cpu_initial_apic_id(void)
{
	uint32_t r[4];

	cpuid(0, 0, r);
	if (r[0] >= 0xb) {
		cpuid(0xb, 0, r);
		if (r[1])
			return r[3];
	}
	cpuid(1, 0, r);
	return r[1] >> 24;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory"); }

static inline void invlpg(uintptr_t va) { __asm__ volatile("invlpg (%0)" : : "r"(va) : "memory"); }

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void __attribute__((noreturn)) halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

#endif
