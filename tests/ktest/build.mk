# SPDX-License-Identifier: MIT
# tests/ktest/: self-test suites that run in the kernel (over serial, at boot) and in the host
# test binary (under AddressSanitizer and UBSan), and the runner that runs them (ktest.c, its leak
# check ktest_leak.c). A .c file dropped here is built into both (not into the release kernel: see
# KERNEL_TEST_SRCS in the top Makefile).
KTEST_SUITE_SRCS := $(wildcard tests/ktest/*.c)
KERNEL_TEST_SRCS += $(KTEST_SUITE_SRCS)
HOST_SRCS   += $(KTEST_SUITE_SRCS)

# tests/ktest/kernel/: suites that need the CPU itself (exceptions, the page tables), so they run
# in the kernel only (the test kernel: not the release one either); with them the runner's boot
# entry (ktest_boot.c: run_selftests(), kernel/selftest.h) and its verdict page (ktest_page.c).
KERNEL_TEST_SRCS += $(wildcard tests/ktest/kernel/*.c)
