/* SPDX-License-Identifier: MIT */
/* The time-stamp counter as a clock: its rate measured against the PIT, and busy-wait delays. */
#ifndef KERNEL_TSC_H
#define KERNEL_TSC_H

#include <stdint.h>

/*
 * Measures the TSC's rate over 10 ms of the PIT's channel 2, and prints it. When the PIT does not
 * count (no such device), says so and assumes 1 GHz: delays are then only roughly right.
 */
void tsc_calibrate(void);

/* TSC ticks per millisecond (after tsc_calibrate()). */
extern uint64_t tsc_per_ms;

/* Busy-waits at least us microseconds (ms milliseconds). */
void udelay(uint64_t us);
void mdelay(uint64_t ms);

/* The TSC value us microseconds from now, for timeouts: `while (rdtsc() < deadline)`. */
uint64_t tsc_deadline_us(uint64_t us);

#endif
