/* SPDX-License-Identifier: MIT */
/* The one call from the kernel into its self-tests, which live in tests/ (tests/README.md). */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

/*
 * kmain()'s last step, after the boot report (tests/ktest/kernel/ktest_boot.c): runs the suites
 * the command line selects with ktest= (all by default; none with ktest=off, and then halts),
 * prints the summary and ends the run with the verdict. A release kernel is built without it and
 * without the suites: kernel/main.c's weak stand-in says so and ends the run as passed.
 */
void run_selftests(const char *cmdline) __attribute__((noreturn));

#endif
