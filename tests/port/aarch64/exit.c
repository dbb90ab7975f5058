/* SPDX-License-Identifier: MIT */
/*
 * How a run ends. Semihosting's SYS_EXIT (QEMU with -semihosting) gives QEMU the status; PSCI's
 * SYSTEM_OFF only powers off, so the verdict line is what a test step reads either way. A fault
 * anywhere (an exception vector) fails the run after printing the syndrome registers.
 */
#include "tests/port/aarch64/port.h"

#include "lib/printk.h"

#define SEMIHOSTING_SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define PSCI_SYSTEM_OFF 0x84000008UL

static enum fdt_psci psci = FDT_PSCI_HVC; /* the virt board's, when the tree does not say */
static bool semihosting_tried;

void port_set_psci(enum fdt_psci method)
{
	if (method != FDT_PSCI_NONE)
		psci = method;
}

static void semihosting_exit(int status)
{
	static uint64_t block[2];
	register uint64_t op __asm__("x0") = SEMIHOSTING_SYS_EXIT;
	register uint64_t arg __asm__("x1") = (uintptr_t)block;

	block[0] = ADP_STOPPED_APPLICATION_EXIT;
	block[1] = (uint64_t)status;
	__asm__ volatile("hlt #0xf000" : "+r"(op) : "r"(arg) : "memory");
}

static void __attribute__((noreturn)) psci_system_off(void)
{
	register uint64_t fn __asm__("x0") = PSCI_SYSTEM_OFF;

	if (psci == FDT_PSCI_SMC)
		__asm__ volatile("smc #0" : "+r"(fn) : : "memory");
	else
		__asm__ volatile("hvc #0" : "+r"(fn) : : "memory");
	for (;;)
		__asm__ volatile("wfi");
}

static void __attribute__((noreturn)) leave(bool passed)
{
	/* Without -semihosting the HLT is an undefined instruction: its exception lands back here. */
	if (!semihosting_tried) {
		semihosting_tried = true;
		semihosting_exit(passed ? 0 : 1);
	}
	psci_system_off();
}

void port_exit(bool passed)
{
	printk("port: verdict: %s\n", passed ? "PASS" : "FAIL");
	leave(passed);
}

void port_exception(unsigned long kind)
{
	static const char *const kinds[4] = { "synchronous", "IRQ", "FIQ", "SError" };

	if (semihosting_tried) /* the HLT of semihosting_exit(), without -semihosting */
		psci_system_off();
	printk("port: unexpected %s exception (vector %lu): ESR_EL1 %#lx ELR_EL1 %#lx FAR_EL1 %#lx\n",
	       kinds[kind % 4], kind, read_esr(), read_elr(), read_far());
	port_exit(false);
}
