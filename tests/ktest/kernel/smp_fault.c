/* SPDX-License-Identifier: MIT */
/*
 * The test kernel's start-up faults (kernel/smp.h): smp_fault=late:A,never:B makes the CPU with
 * APIC id A check in only after the boot CPU gave up on it, and the one with id B never; any
 * number of items, in any order; both when the CPUs start for the struct pages and when
 * smp_init() starts them (kernel/smp.h). test-qemu-smp-fault boots with it and checks that neither is
 * counted and that the SMP suites pass on the CPUs that are. A release kernel has no such option.
 */
#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"
#include "kernel/smp.h"
#include "lib/string.h"

CMDLINE_OPTION(smp_fault, "smp_fault", CMDLINE_VALUE);

/* Is the item s[0..len) "kind:apic"? */
static bool item_names(const char *s, size_t len, const char *kind, uint32_t apic)
{
	size_t klen = strlen(kind);
	uint64_t id = 0;

	if (len <= klen + 1 || memcmp(s, kind, klen) || s[klen] != ':')
		return false;
	for (size_t i = klen + 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || id > 0xffffffffu)
			return false;
		id = id * 10 + (uint64_t)(s[i] - '0');
	}
	return id == apic;
}

enum smp_fault smp_fault_at_start(uint32_t apic)
{
	size_t len, n;
	const char *v = cmdline_value(boot_info.cmdline, "smp_fault", &len);

	for (size_t at = 0; v && at < len; at += n + 1) {
		for (n = 0; at + n < len && v[at + n] != ','; n++)
			;
		if (item_names(v + at, n, "late", apic))
			return SMP_FAULT_LATE;
		if (item_names(v + at, n, "never", apic))
			return SMP_FAULT_NEVER;
	}
	return SMP_FAULT_NONE;
}
