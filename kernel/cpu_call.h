/* SPDX-License-Identifier: MIT */
/*
 * mm/'s cross-CPU call, arch_run_on_cpus() (mm/arch.h): fn runs on each running CPU in the
 * handler of an inter-processor interrupt (APIC_VECTOR_MM_CALL), so that it may touch that CPU's
 * per-CPU page lists, which are protected by masking interrupts alone (ARCH_CPU_CALLS_BY_IPI in
 * kernel/mm_env.h).
 */
#ifndef KERNEL_CPU_CALL_H
#define KERNEL_CPU_CALL_H

/*
 * Registers the call's interrupt handler and the number of CPUs mm/ was told of (mm_setup());
 * platform_init() calls it before the CPUs start.
 */
void cpu_call_init(void);

/* mm_setup(): the CPUs mm/ keeps per-CPU data for (mm_init_params.nr_cpus). */
void cpu_call_set_mm_cpus(unsigned int nr_cpus);

/* How many calls CPU cpu's handler has run (self-tests: the call went through the interrupt). */
unsigned long cpu_calls_received(unsigned int cpu);

#endif
