/* SPDX-License-Identifier: MIT */
/* Formatted output: vsnprintf for strings, printk for the console. */
#ifndef LIB_PRINTK_H
#define LIB_PRINTK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 *
 * Two more, as in Linux, for code addresses (a pointer argument):
 *   %pS  "function+0xoff/0xsize": the symbol that covers the address, the address's offset in
 *        it and the symbol's size, e.g. "kmain+0x1c/0x1a0". Without a symbolizer (below), or when
 *        no symbol covers the address, the address as %p prints it: "0xffffffff8020d21c".
 *   %pB  the same for a return address (a backtrace's frames): names the function that made the
 *        call even when the call was its last instruction (see put_symbol() in printk.c).
 * Width, precision and '-' apply to the whole text; other flags are ignored. Compilers check
 * them as %p followed by the letter.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Appends to the text of used bytes in buf (size bytes), like snprintf at buf + used, and returns
 * used plus the length of the formatted text. Once used reaches size nothing more is written
 * (buf stays NUL-terminated), so a line is built by `used = snprintf_append(buf, size, used, ...)`
 * and the result compared with size says whether it was cut.
 */
size_t snprintf_append(char *buf, size_t size, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * For parsers that stop at their first problem (kernel/multiboot2.c, kernel/acpi.c): formats the
 * message into one static buffer and returns -1, so a parser can `return parse_fail(...)`.
 * parse_fail_message() returns that buffer; it holds the message until parse_fail() is next
 * called, by any parser.
 */
int parse_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *parse_fail_message(void);

/* printk formats each call in a buffer of this many bytes: it writes at most PRINTK_BUF_SIZE - 1. */
#define PRINTK_BUF_SIZE 512

/* What ends output that printk had to cut short (followed by "\n" when the output ended in one). */
#define PRINTK_CUT_MARK "..."

/*
 * Formats and writes to every console; returns the number of bytes written. Output longer than
 * PRINTK_BUF_SIZE - 1 bytes is cut to that length and ends in "...\n" ("..." when the full output
 * had no final newline): a cut line says so, and the next printk still starts a line of its own.
 */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintk(const char *fmt, va_list ap);

/*
 * The text printk writes, formatted into buf of size bytes: like vsnprintf, except that output
 * that does not fit is cut the way printk cuts it (above), the mark taking the last bytes that
 * fit. Returns the length stored (less than size; 0 when size is 0), buf NUL-terminated.
 */
int printk_format(char *buf, size_t size, const char *fmt, va_list ap);

/* A symbol, as a symbolizer describes it for %pS. */
struct printk_symbol {
	const char *name;
	uintptr_t offset; /* of the address looked up, from the symbol's start */
	uintptr_t size;   /* the symbol's size in bytes */
};

/* At most this many bytes of %pS text (the rest of a longer name is cut). */
#define PRINTK_SYMBOL_LEN 128

/*
 * Finds the symbol that covers addr (start <= addr < start + size): fills *sym and returns true,
 * or returns false. Called from any context, printk's included, so it must not print or lock.
 */
typedef bool printk_symbolizer_fn(uintptr_t addr, struct printk_symbol *sym);

/*
 * Makes %pS and %pB name addresses with fn from now on (NULL: print them as hex, the start-up
 * state). lib/ knows no symbol table: the kernel registers its own (kernel/ksyms/ksyms.h).
 * Returns the symbolizer it replaces.
 */
printk_symbolizer_fn *printk_set_symbolizer(printk_symbolizer_fn *fn);

/*
 * A console: somewhere printk's output goes (the kernel's serial port and screen, the host's
 * stdout). lib/ knows none of them: each registers itself, and printk writes every byte to every
 * registered console in the order they registered. Output before the first registration is lost.
 */
struct console {
	const char *name;
	void (*write)(const char *s, size_t len);
	struct console *next; /* printk's list */
};

/* Adds c (which must stay valid) to the consoles printk writes to; a second call does nothing. */
void register_console(struct console *c);

/* Takes c off printk's list (nothing happens when it is not on it). */
void unregister_console(struct console *c);

#endif
