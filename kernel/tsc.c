/* SPDX-License-Identifier: MIT */
/*
 * TSC calibration and delays (kernel/tsc.h). The PIT (8254) counts at 1193182 Hz whatever the
 * CPU; its channel 2 is gated by bit 0 of port 0x61 and shows its output in bit 5, so a one-shot
 * count of 11932 marks 10 ms without any interrupt.
 */
#include "kernel/tsc.h"

#include "kernel/spinlock.h"
#include "kernel/x86.h"
#include "lib/printk.h"

#define PIT_HZ        1193182u
#define PIT_CH2       0x42
#define PIT_CMD       0x43
#define PORT_B        0x61
#define PORT_B_GATE2  0x01
#define PORT_B_SPKR   0x02
#define PORT_B_OUT2   0x20
#define CALIBRATE_MS  10
#define FALLBACK_PER_MS 1000000u /* 1 GHz */

uint64_t tsc_per_ms = FALLBACK_PER_MS;

/* TSC ticks over one CALIBRATE_MS one-shot of channel 2; 0 when its output never rises. */
static uint64_t measure(void)
{
	uint16_t count = PIT_HZ * CALIBRATE_MS / 1000;
	uint8_t b = inb(PORT_B);
	uint64_t start, spins = 0;

	outb(PORT_B, (b & ~PORT_B_SPKR) & ~PORT_B_GATE2); /* gate low, speaker off */
	outb(PIT_CMD, 0xb0);                              /* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	outb(PORT_B, (b & ~PORT_B_SPKR) | PORT_B_GATE2);  /* gate high: counting starts */
	start = rdtsc();
	while (!(inb(PORT_B) & PORT_B_OUT2))
		if (++spins > 100000000u)
			return 0;
	return rdtsc() - start;
}

void tsc_calibrate(void)
{
	unsigned long flags = local_irq_save();
	uint64_t best = 0;

	/* The shortest of three: a pause (an interrupt, a descheduled virtual CPU) only lengthens. */
	for (int i = 0; i < 3; i++) {
		uint64_t t = measure();
		if (t && (!best || t < best))
			best = t;
	}
	local_irq_restore(flags);
	if (!best) {
		printk("tsc: the PIT's channel 2 does not count; assuming 1 GHz\n");
		return;
	}
	tsc_per_ms = best / CALIBRATE_MS;
	printk("tsc: %llu.%03llu MHz (measured against the PIT)\n",
	       (unsigned long long)(tsc_per_ms / 1000), (unsigned long long)(tsc_per_ms % 1000));
}

uint64_t tsc_deadline_us(uint64_t us)
{
	return rdtsc() + us * tsc_per_ms / 1000;
}

void udelay(uint64_t us)
{
	uint64_t end = tsc_deadline_us(us);

	while (rdtsc() < end)
		cpu_relax();
}

void mdelay(uint64_t ms)
{
	udelay(ms * 1000);
}
