# SPDX-License-Identifier: MIT
# kernel/: console, exceptions, boot information, test runner, main.
# The self-test runner goes into every kernel but the release one; its suites are in tests/ktest/.
KERNEL_TEST_SRCS += kernel/ktest.c kernel/ktest_leak.c kernel/ktest_boot.c kernel/ktest_page.c
KERNEL_SRCS += $(filter-out $(KERNEL_TEST_SRCS),$(wildcard kernel/*.c))
KERNEL_ASM  += $(wildcard kernel/*.asm)
HOST_SRCS   += kernel/ktest.c kernel/ktest_leak.c kernel/cmdline.c kernel/backtrace.c $(wildcard kernel/multiboot2.c kernel/bootinfo_print.c kernel/acpi.c)
include kernel/console/build.mk
include kernel/ksyms/build.mk
