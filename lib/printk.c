/* SPDX-License-Identifier: MIT */
/*
 * vsnprintf and printk: the formatter every message of the kernel goes through.
 * No floating point. %p prints "0x" and 16 hex digits, so addresses line up in reports; %pS and
 * %pB name a code address through the symbolizer the environment registers, if any.
 */
#include "lib/printk.h"

#include <stdbool.h>
#include <stdint.h>

#include "lib/string.h"

struct out {
	char *buf;
	size_t size; /* capacity of buf, including the NUL */
	size_t len;  /* characters produced so far; may exceed size */
	char last;   /* the last character produced, stored or not */
};

struct spec {
	int width, precision; /* precision < 0: none given */
	bool left, zero, plus, space, alt, upper;
	int base;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
	o->last = c;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* Emits a string honouring width, precision and '-'. */
static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	size_t n = sp->precision >= 0 ? strnlen(s, (size_t)sp->precision) : strlen(s);
	int fill = sp->width > (int)n ? sp->width - (int)n : 0;

	if (!sp->left)
		pad(o, ' ', fill);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', fill);
}

/* Emits an integer: sign or prefix, zero padding, precision, width. */
static void put_num(struct out *o, unsigned long long v, bool negative, const struct spec *sp)
{
	const char *digits = sp->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	while (v) {
		tmp[n++] = digits[v % (unsigned)sp->base];
		v /= (unsigned)sp->base;
	}
	int ndigits = n > sp->precision ? n : sp->precision;
	if (n == 0 && sp->precision < 0)
		ndigits = 1; /* plain zero */

	const char *prefix = negative ? "-" : sp->plus ? "+" : sp->space ? " " : "";
	if (sp->alt && sp->base == 16 && n > 0)
		prefix = sp->upper ? "0X" : "0x";
	if (sp->alt && sp->base == 8 && ndigits <= n)
		ndigits = n + 1;
	int len = (int)strlen(prefix) + ndigits;
	int fill = sp->width > len ? sp->width - len : 0;
	bool zero_fill = sp->zero && !sp->left && sp->precision < 0;

	if (!sp->left && !zero_fill)
		pad(o, ' ', fill);
	while (*prefix)
		put(o, *prefix++);
	if (zero_fill)
		pad(o, '0', fill);
	pad(o, '0', ndigits - n);
	while (n > 0)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', fill);
}

static printk_symbolizer_fn *symbolizer;

printk_symbolizer_fn *printk_set_symbolizer(printk_symbolizer_fn *fn)
{
	return __atomic_exchange_n(&symbolizer, fn, __ATOMIC_ACQ_REL);
}

/*
 * %pS: "name+0xoff/0xsize" for the symbol that covers addr, or addr as %p prints it. %pB
 * (return_address) looks up addr - 1 instead, and prints the offset of addr: a call that is the
 * last instruction of a function (to a function that does not return) leaves a return address
 * just past its end, which belongs to the function that made the call, not to the next one.
 * Width, precision and '-' apply to the whole text.
 */
static void put_symbol(struct out *o, uintptr_t addr, bool return_address, const struct spec *sp)
{
	printk_symbolizer_fn *fn = __atomic_load_n(&symbolizer, __ATOMIC_ACQUIRE);
	uintptr_t lookup = return_address && addr ? addr - 1 : addr;
	struct printk_symbol sym;
	char text[PRINTK_SYMBOL_LEN];

	if (fn && fn(lookup, &sym) && sym.name)
		snprintf(text, sizeof(text), "%s+0x%lx/0x%lx", sym.name,
			 (unsigned long)(sym.offset + (addr - lookup)), (unsigned long)sym.size);
	else
		snprintf(text, sizeof(text), "%p", (void *)addr);
	put_str(o, text, sp);
}

/* Reads flags, width and precision; returns the position after them. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .precision = -1, .base = 10 };
	for (;; f++) {
		if (*f == '-') sp->left = true;
		else if (*f == '0') sp->zero = true;
		else if (*f == '+') sp->plus = true;
		else if (*f == ' ') sp->space = true;
		else if (*f == '#') sp->alt = true;
		else break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	return f;
}

/* Length modifiers: 0 int, 1 long, 2 long long, -1 short, -2 char, 3 size_t. */
static const char *parse_length(const char *f, int *lenmod)
{
	*lenmod = 0;
	if (f[0] == 'l' && f[1] == 'l') { *lenmod = 2; return f + 2; }
	if (f[0] == 'h' && f[1] == 'h') { *lenmod = -2; return f + 2; }
	if (*f == 'l') { *lenmod = 1; return f + 1; }
	if (*f == 'h') { *lenmod = -1; return f + 1; }
	if (*f == 'z') { *lenmod = 3; return f + 1; }
	return f;
}

static long long arg_signed(va_list *ap, int lenmod)
{
	switch (lenmod) {
	case 2: return va_arg(*ap, long long);
	case 1: return va_arg(*ap, long);
	case 3: return (long long)va_arg(*ap, size_t);
	case -1: return (short)va_arg(*ap, int);
	case -2: return (signed char)va_arg(*ap, int);
	default: return va_arg(*ap, int);
	}
}

static unsigned long long arg_unsigned(va_list *ap, int lenmod)
{
	switch (lenmod) {
	case 2: return va_arg(*ap, unsigned long long);
	case 1: return va_arg(*ap, unsigned long);
	case 3: return va_arg(*ap, size_t);
	case -1: return (unsigned short)va_arg(*ap, unsigned int);
	case -2: return (unsigned char)va_arg(*ap, unsigned int);
	default: return va_arg(*ap, unsigned int);
	}
}

/* Formats one conversion at f (after '%'); returns the position after it. */
static const char *convert(struct out *o, const char *f, va_list *ap)
{
	struct spec sp;
	int lenmod;

	f = parse_spec(f, &sp, ap);
	f = parse_length(f, &lenmod);
	switch (*f) {
	case 'd':
	case 'i': {
		long long v = arg_signed(ap, lenmod);
		put_num(o, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0, &sp);
		break;
	}
	case 'u': case 'x': case 'X': case 'o':
		sp.base = *f == 'u' ? 10 : *f == 'o' ? 8 : 16;
		sp.upper = *f == 'X';
		sp.plus = sp.space = false;
		put_num(o, arg_unsigned(ap, lenmod), false, &sp);
		break;
	case 'p':
		if (f[1] == 'S' || f[1] == 'B') {
			put_symbol(o, (uintptr_t)va_arg(*ap, void *), f[1] == 'B', &sp);
			return f + 2;
		}
		sp = (struct spec){ .width = 16, .precision = -1, .zero = true, .base = 16 };
		put(o, '0');
		put(o, 'x');
		put_num(o, (uintptr_t)va_arg(*ap, void *), false, &sp);
		break;
	case 'c': {
		char c[2] = { (char)va_arg(*ap, int), 0 };
		sp.precision = 1;
		if (c[0] == 0) { /* a NUL character still counts as output */
			pad(o, ' ', sp.left ? 0 : sp.width - 1);
			put(o, 0);
			pad(o, ' ', sp.left ? sp.width - 1 : 0);
		} else {
			put_str(o, c, &sp);
		}
		break;
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		put_str(o, s ? s : "(null)", &sp);
		break;
	}
	case '%':
		put(o, '%');
		break;
	case '\0':
		return f; /* a lone '%' at the end: print nothing more */
	default: /* unknown conversion: show it as written so the mistake is visible */
		put(o, '%');
		put(o, *f);
		break;
	}
	return f + 1;
}

/* Formats fmt into o and NUL-terminates what was stored (when o->size is not 0). */
static void format(struct out *o, const char *fmt, va_list ap)
{
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%')
			put(o, *fmt++);
		else
			fmt = convert(o, fmt + 1, &args);
	}
	va_end(args);
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, 0 };

	format(&o, fmt, ap);
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

size_t snprintf_append(char *buf, size_t size, size_t used, const char *fmt, ...)
{
	va_list ap;
	size_t at = used < size ? used : size;

	va_start(ap, fmt);
	int n = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	return used + (size_t)(n > 0 ? n : 0);
}

static char parse_message[160];

int parse_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(parse_message, sizeof(parse_message), fmt, ap);
	va_end(ap);
	return -1;
}

const char *parse_fail_message(void)
{
	return parse_message;
}

int printk_format(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, 0 };
	const char *mark;
	size_t keep, mark_len;

	if (size == 0)
		return 0;
	format(&o, fmt, ap);
	if (o.len < size)
		return (int)o.len;
	/* Cut: the mark replaces the end of what fits, keeping a final newline. */
	mark = o.last == '\n' ? PRINTK_CUT_MARK "\n" : PRINTK_CUT_MARK;
	mark_len = strlen(mark);
	keep = size - 1;
	if (mark_len > keep) {
		mark += mark_len - keep;
		mark_len = keep;
	}
	memcpy(buf + keep - mark_len, mark, mark_len);
	return (int)keep;
}

static struct console *consoles;

void register_console(struct console *c)
{
	struct console **p = &consoles;

	for (; *p; p = &(*p)->next)
		if (*p == c)
			return;
	c->next = NULL;
	*p = c;
}

void unregister_console(struct console *c)
{
	for (struct console **p = &consoles; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			return;
		}
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	int len = printk_format(buf, sizeof(buf), fmt, ap);

	for (struct console *c = consoles; c; c = c->next)
		c->write(buf, (size_t)len);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
