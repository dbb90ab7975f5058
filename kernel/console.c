/* SPDX-License-Identifier: MIT */
/*
 * The kernel's consoles: the serial port and the screen (which keeps early output until it can
 * show it), registered with printk in that order. Several CPUs print at once, so each console
 * writes one printk at a time, under a lock taken with interrupts off. A CPU that faults while it
 * holds the lock (a report from inside a write) goes on without it, and so does everything after
 * a panic, when another CPU may have stopped holding it.
 */
#include "kernel/console.h"

#include <stdbool.h>

#include "kernel/console/screen.h"
#include "kernel/percpu.h"
#include "kernel/serial.h"
#include "kernel/spinlock.h"
#include "lib/printk.h"

#define NO_OWNER (~0u)

static spinlock_t console_lock;
static unsigned int owner = NO_OWNER; /* the CPU holding console_lock */
static bool panicking;

static void write_locked(void (*write)(const char *, size_t), const char *s, size_t len)
{
	unsigned long flags = local_irq_save();
	unsigned int me = this_cpu_id();
	bool take = !__atomic_load_n(&panicking, __ATOMIC_RELAXED) &&
		    __atomic_load_n(&owner, __ATOMIC_RELAXED) != me;

	if (take) {
		spin_lock(&console_lock);
		__atomic_store_n(&owner, me, __ATOMIC_RELAXED);
	}
	write(s, len);
	if (take) {
		__atomic_store_n(&owner, NO_OWNER, __ATOMIC_RELAXED);
		spin_unlock(&console_lock);
	}
	local_irq_restore(flags);
}

static void serial_locked(const char *s, size_t len) { write_locked(serial_write, s, len); }
static void screen_locked(const char *s, size_t len) { write_locked(screen_console_write, s, len); }

static struct console serial_console = { .name = "serial", .write = serial_locked };
static struct console screen_console = { .name = "screen", .write = screen_locked };

void consoles_register(void)
{
	register_console(&serial_console);
	register_console(&screen_console);
}

void console_panic(void)
{
	__atomic_store_n(&panicking, true, __ATOMIC_RELAXED);
}
