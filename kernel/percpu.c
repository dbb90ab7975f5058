/* SPDX-License-Identifier: MIT */
/* Per-CPU data (kernel/percpu.h): the boot CPU's area, and pointing GS at an area. */
#include "kernel/percpu.h"

#include "kernel/x86.h"

#define MSR_GS_BASE 0xc0000101u

struct cpu_local boot_cpu_local;

void percpu_install(struct cpu_local *area)
{
	area->self = area;
	wrmsr(MSR_GS_BASE, (uintptr_t)area);
}
