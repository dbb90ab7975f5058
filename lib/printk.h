/* Formatted output: vsnprintf for strings, printk for the console. */
#ifndef LIB_PRINTK_H
#define LIB_PRINTK_H

#include <stdarg.h>
#include <stddef.h>

#ifdef HOST_BUILD
/* On the host, keep the C library's functions and test ours under their own names. */
#define vsnprintf lib_vsnprintf
#define snprintf lib_snprintf
#endif

/*
 * Formats like C's printf for the conversions a kernel uses:
 * %d %i %u %x %X %o %c %s %p %%, length modifiers h hh l ll z, flags '-' '0' ' ' '+' '#',
 * a width and a precision (also '*'). Writes at most size bytes including the NUL
 * (none when size is 0) and returns the length the full output would have had.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Formats and writes to every console; returns the number of bytes written. */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintk(const char *fmt, va_list ap);

/* Provided by the environment (kernel: serial and screen; host: stdout). */
void console_write(const char *s, size_t len);

#endif
