/* SPDX-License-Identifier: MIT */
/*
 * The EFI loader's message output: the UEFI text console, and COM1 written through its I/O ports
 * (which keeps working after ExitBootServices, when the console protocol is gone).
 */
#include <efi.h>
#include <efilib.h>
#include "boot/efi/say.h"

#define COM1 0x3f8
#define MSG_CHARS 512
#define MESSAGING_DEVICE_PATH_TYPE 3
#define UART_SUBTYPE 14

static int use_conout = 1;
static int use_com1;

static inline void outb(UINT16 port, UINT8 v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline UINT8 inb(UINT16 port)
{
	UINT8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* True when a 16550 answers at COM1: its scratch register keeps what is written to it. */
static int com1_present(void)
{
	outb(COM1 + 7, 0xa5);
	if (inb(COM1 + 7) != 0xa5)
		return 0;
	outb(COM1 + 7, 0x5a);
	return inb(COM1 + 7) == 0x5a;
}

/* True when the ConOut variable names a device path with a UART node: the firmware mirrors its
 * console to a serial port, so writing COM1 ourselves would print every line twice. */
static int firmware_console_on_serial(void)
{
	UINTN size = 0;
	UINT8 *p = LibGetVariableAndSize(L"ConOut", &gEfiGlobalVariableGuid, &size);
	int found = 0;

	for (UINTN off = 0; p && off + 4 <= size;) {
		UINT16 len = (UINT16)(p[off + 2] | p[off + 3] << 8);
		if (p[off] == MESSAGING_DEVICE_PATH_TYPE && p[off + 1] == UART_SUBTYPE)
			found = 1;
		if (len < 4)
			break;
		off += len;
	}
	if (p)
		FreePool(p);
	return found;
}

static void com1_init(void)
{
	outb(COM1 + 1, 0x00);   /* no interrupts */
	outb(COM1 + 3, 0x80);   /* divisor latch on */
	outb(COM1 + 0, 0x01);   /* divisor 1: 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);   /* 8N1, latch off */
	outb(COM1 + 2, 0xc7);   /* FIFOs on and cleared */
}

static void com1_putc(char c)
{
	for (int spin = 0; spin < 100000 && !(inb(COM1 + 5) & 0x20); spin++)
		;
	outb(COM1, (UINT8)c);
}

void say_init(void)
{
	use_com1 = com1_present() && !firmware_console_on_serial();
	if (use_com1)
		com1_init();
}

void say_serial_only(void)
{
	use_conout = 0;
	use_com1 = com1_present();
}

/* Writes s to the enabled outputs, with "\r\n" line ends (VSPrint may have made some already);
 * other than ASCII shows as '?' on COM1. */
static void emit(const CHAR16 *s)
{
	CHAR16 line[2 * MSG_CHARS + 1];
	UINTN n = 0;

	for (CHAR16 prev = 0; *s; prev = *s++) {
		int cr = *s == L'\n' && prev != L'\r';
		if (cr)
			line[n++] = L'\r';
		line[n++] = *s;
		if (use_com1) {
			if (cr)
				com1_putc('\r');
			com1_putc(*s < 0x80 ? (char)*s : '?');
		}
	}
	line[n] = 0;
	if (use_conout)
		ST->ConOut->OutputString(ST->ConOut, line);
}

void say(const CHAR16 *fmt, ...)
{
	CHAR16 msg[MSG_CHARS];
	va_list ap;

	va_start(ap, fmt);
	VSPrint(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit(msg);
}
