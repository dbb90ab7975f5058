/* SPDX-License-Identifier: MIT */
/* panic() and machine_exit(): the two ways a run ends. */
#include "kernel/panic.h"

#include <stdarg.h>

#include "kernel/backtrace.h"
#include "kernel/console.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/x86.h"
#include "lib/printk.h"

#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_PASS 0x10
#define DEBUG_EXIT_FAIL 0x11

/* CPUID leaf 1 ECX bit 31: set by hypervisors, clear on bare metal. */
static bool under_hypervisor(void)
{
	uint32_t r[4];
	cpuid(1, 0, r);
	return r[2] & (1u << 31);
}

void machine_exit(bool passed)
{
	if (under_hypervisor())
		outl(DEBUG_EXIT_PORT, passed ? DEBUG_EXIT_PASS : DEBUG_EXIT_FAIL);
	printk("ktest: halting (%s)\n", passed ? "all tests passed" : "FAILED");
	halt_forever();
}

/* Stops the other CPUs, prints "PANIC: message" and, from frame fp, the backtrace (fp 0: none). */
__attribute__((noreturn)) static void vpanic(uintptr_t fp, const char *fmt, va_list ap)
{
	char msg[256];

	local_irq_disable(); /* the mirror too: what panic runs may mask them and allocate */
	smp_stop_others();
	console_panic();
	vsnprintf(msg, sizeof(msg), fmt, ap);
	printk("PANIC: %s\n", msg);
	if (fp)
		backtrace_print("  ", fp);
	machine_exit(false);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic((uintptr_t)__builtin_frame_address(0), fmt, ap);
}

void panic_without_backtrace(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic(0, fmt, ap);
}
