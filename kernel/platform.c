/* SPDX-License-Identifier: MIT */
/*
 * platform_init() (kernel/platform.h): what a PC needs before interrupts are turned on. The 8259s
 * are masked first (their vectors would overlap nothing, but a stray IRQ must not arrive); the TSC
 * is measured against the PIT before the APIC timer is measured against the TSC.
 */
#include "kernel/platform.h"

#include "kernel/apic.h"
#include "kernel/pic.h"
#include "kernel/timer.h"
#include "kernel/cpu_call.h"
#include "kernel/tlb.h"
#include "kernel/tsc.h"

static bool early_done, apic_up;

bool platform_init_early(void)
{
	if (!early_done) {
		pic_disable();
		tsc_calibrate();
		apic_up = apic_init();
		early_done = true;
	}
	return apic_up;
}

bool platform_init(void)
{
	if (!platform_init_early())
		return false;
	tlb_init();
	cpu_call_init();
	timer_init();
	return true;
}
