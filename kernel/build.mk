# SPDX-License-Identifier: MIT
# kernel/: console, exceptions, boot information, main. The self-test runner and its suites are in
# tests/ktest/ (tests/ktest/build.mk: every kernel but the release one, and the host binary).
KERNEL_SRCS += $(filter-out $(KERNEL_TEST_SRCS),$(wildcard kernel/*.c))
KERNEL_ASM  += $(wildcard kernel/*.asm)
HOST_SRCS   += kernel/cmdline.c kernel/compact_cmdline.c kernel/hugetlb_cmdline.c kernel/backtrace.c $(wildcard kernel/multiboot2.c kernel/bootinfo_print.c kernel/acpi.c kernel/numa_acpi.c)
include kernel/console/build.mk
include kernel/ksyms/build.mk
