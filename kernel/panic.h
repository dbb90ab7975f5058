/* SPDX-License-Identifier: MIT */
/* Stopping the kernel, and telling QEMU the verdict. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <stdbool.h>

/*
 * Prints "PANIC: message" and the backtrace of the call (kernel/backtrace.h), then ends the run
 * as a failure (QEMU exit, or halt on hardware).
 */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* The same without the backtrace, for a caller that printed a better one (an exception report). */
void panic_without_backtrace(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/*
 * Ends the run. Under QEMU (a hypervisor is present) writes the verdict to isa-debug-exit
 * (port 0xf4: 0x10 pass, 0x11 fail, so QEMU exits with 33 or 35); on real hardware, or if the
 * device is absent, halts.
 */
void machine_exit(bool passed) __attribute__((noreturn));

#endif
