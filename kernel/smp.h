/* SPDX-License-Identifier: MIT */
/*
 * Several CPUs. The boot CPU (number 0) starts the others (application processors, numbered
 * 1, 2, ... in the order they came up) after the memory manager is up (kernel/memmap_cpus.h
 * starts them once before, for the struct pages only, and stops them again); they then idle with
 * interrupts on and run work the boot CPU posts to them. Cross-CPU calls are made by the boot
 * CPU's own thread (the boot code and the self-tests), never from interrupt context nor from a
 * work function.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/acpi.h"
#include "kernel/boot_memmap.h"
#include "kernel/percpu.h"

/*
 * How many CPUs the kernel will run: those the MADT lists, at most NR_CPUS_MAX, at most nr_cpus=
 * and only one with nosmp (kernel/cmdline.h). Says so when it is fewer than listed. Call before
 * mm_setup(), which tells mm/ this number; smp_init() then starts that many at most.
 */
unsigned int smp_plan(const struct acpi_cpus *cpus, const char *cmdline);

/*
 * For mm_setup(), when more than one CPU is planned: picks the page below 1 MiB the other CPUs
 * start in (free RAM in the firmware map raw, clear of the n reservations of r but the first)
 * and appends it to r as "SMP trampoline". Returns the new number of reservations: n + 1, or n
 * when there is no such page (smp_init() then says so and starts no other CPU). r has room.
 */
unsigned int smp_reserve_trampoline(const struct boot_memmap *raw, struct mm_reservation *r,
				    unsigned int n);

/*
 * For kernel/memmap_cpus.c, once the local APIC is up (platform_init_early()) and before
 * smp_init(): copies the start-up code into the trampoline page (smp_reserve_trampoline()) with
 * entry as its 64-bit entry, which receives the kernel's CR3 in RCX and arg in RSI, on no stack
 * of its own (boot/ap_trampoline.asm). False when there is no trampoline page. smp_init() later
 * installs its own entry.
 */
bool smp_install_early_trampoline(uintptr_t entry, uintptr_t arg);

/* The start-up IPI's vector: the trampoline page's number (below 1 MiB). */
uint8_t smp_trampoline_vector(void);

/*
 * The APIC ids of the CPUs smp_init() may start, in the order it tries them
 * (acpi_cpus_to_start(), silently): at most max written to ids; returns how many. Zero before
 * smp_plan() or without a local APIC.
 */
unsigned int smp_cpus_to_start(uint32_t *ids, unsigned int max);

/*
 * On the boot CPU, after platform_init() (kernel/platform.h): allocates the per-CPU arrays for
 * the CPUs smp_plan() chose (short of memory, says so and runs the boot CPU alone), starts those
 * acpi_cpus_to_start() allows, from the trampoline page, prints "smp: Brought up K node(s), N
 * CPUs" (naming any CPU that did not come up), and enables interrupts. Without a local APIC it
 * says the boot CPU runs alone, and leaves interrupts off.
 */
void smp_init(void);

/*
 * Self-test hook: allocates and maps what a CPU needs before it starts (its stacks and GDT page)
 * for a slot no CPU uses. True when it all fit, and then it stays with that slot; false when
 * memory ran out, with nothing kept.
 */
bool smp_prepare_test_slot(void);

/* The number of CPUs online: numbered 0 to smp_num_cpus() - 1. */
unsigned int smp_num_cpus(void);

/* CPU cpu's per-CPU area (kernel/percpu.h), NULL when it is not online. */
struct cpu_local *smp_cpu_local(unsigned int cpu);

/*
 * Runs fn(arg) on every online CPU but the caller's, each in its idle loop with interrupts on
 * (so fn may take its time, and the tick interrupts it), on that CPU's 32 KiB stack. With wait, returns when every one has
 * returned; without, returns once each has been asked (arg must then outlive the calls; a later
 * call waits for the earlier one on each CPU). Boot CPU only.
 */
void smp_call_function(void (*fn)(void *), void *arg, bool wait);

/*
 * Runs fn(arg) on every online CPU at once, the caller's included (the caller's part in the
 * caller's context: interrupts on during the self-tests), and returns when all have returned.
 * Boot CPU only.
 */
void on_each_cpu(void (*fn)(void *), void *arg);

/*
 * Test kernels only: how the CPU with APIC id apic misbehaves when it is started. SMP_FAULT_LATE
 * checks in only once the boot CPU has given up on it; SMP_FAULT_NEVER never checks in. The same
 * when it is started to initialize struct pages (kernel/memmap_cpus.h): late, it comes once every
 * part is taken; never, it neither checks in nor parks. The
 * kernel's own definition (weak) says SMP_FAULT_NONE for every CPU; the test kernel's
 * (tests/ktest/kernel/smp_fault.c) reads the command line's smp_fault=. Called on any CPU.
 */
enum smp_fault { SMP_FAULT_NONE, SMP_FAULT_LATE, SMP_FAULT_NEVER };
enum smp_fault smp_fault_at_start(uint32_t apic);

/* After a panic: asks every other CPU to halt for good (best effort, does not wait). */
void smp_stop_others(void);

#endif
