/* SPDX-License-Identifier: MIT */
/* The screen console: chooses VGA text or the framebuffer console and forwards output to it. */
#include <stdbool.h>
#include "kernel/cmdline.h"
#include "kernel/console/fb_console.h"
#include "kernel/console/psf.h"
#include "kernel/console/screen.h"
#include "kernel/console/screen_lines.h"
#include "kernel/console/vga_text.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/arch.h"

#define VGA_TEXT_PHYS 0xb8000
CMDLINE_OPTION(screen, "screen", CMDLINE_VALUE); /* screen=off: the serial port only */

/*
 * What was printed before the screen was chosen, for it to show. kmain() starts the screen as soon
 * as it has read the boot information when the boot page tables reach the framebuffer, so this
 * holds a few lines; only a framebuffer above 4 GiB waits for memory to be set up, and then the
 * start of a long report (a UEFI memory map) may be on the serial port only. The buffer is small
 * on purpose: the kernel's size counts at 5 MiB, where GRUB barely has room to load it.
 */
#define EARLY_MAX 4096

enum screen_kind { SCREEN_EARLY, SCREEN_NONE, SCREEN_VGA_TEXT, SCREEN_FRAMEBUFFER };

static enum screen_kind kind = SCREEN_EARLY;
static struct vga_text vga;
static struct fb_console fbc;
static struct psf_font font;
static struct screen_lines lines;   /* wraps at 80 columns, keeps expected reports off */
static char early[EARLY_MAX];      /* the last EARLY_MAX bytes written before init */
static size_t early_len;
static size_t early_dropped;       /* bytes before those, on serial only */

/* Keeps the newest EARLY_MAX bytes written before screen_console_init(). */
static void keep_early(const char *s, size_t len)
{
	if (len > EARLY_MAX) {
		early_dropped += len - EARLY_MAX;
		s += len - EARLY_MAX;
		len = EARLY_MAX;
	}
	if (early_len + len > EARLY_MAX) {
		size_t drop = early_len + len - EARLY_MAX;
		memmove(early, early + drop, early_len - drop);
		early_len -= drop;
		early_dropped += drop;
	}
	memcpy(early + early_len, s, len);
	early_len += len;
}

/* Shows on screen what was written before it was chosen. */
static void replay_early(void)
{
	if (early_dropped)
		printk("screen: the first %zu bytes of output are on the serial port only\n", early_dropped);
	screen_console_write(early, early_len);
}

/* Writes on the chosen screen as it is, past the line filter. */
static void raw_write(const char *s, size_t len)
{
	if (kind == SCREEN_VGA_TEXT)
		vga_text_write(&vga, s, len);
	else if (kind == SCREEN_FRAMEBUFFER)
		fb_console_write(&fbc, s, len);
}

/* A direct RGB framebuffer with the embedded font; returns why not when it cannot be used. */
static const char *use_framebuffer(const struct boot_framebuffer *fb)
{
	const char *err;

	if (psf_load(console_font_psf, console_font_psf_size, &font, &err) < 0)
		return err;
	if (fb_console_init(&fbc, fb, phys_to_virt(fb->addr), &font, &err) < 0)
		return err;
	kind = SCREEN_FRAMEBUFFER;
	return NULL;
}

static void use_vga_text(uint64_t phys, unsigned cols, unsigned rows)
{
	vga_text_init(&vga, phys_to_virt(phys), cols, rows);
	kind = SCREEN_VGA_TEXT;
}

/* Picks the screen; returns a reason when there is none. */
static const char *choose(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;

	char opt[8];

	if (cmdline_get(bi->cmdline, "screen", opt, sizeof(opt)) && !strcmp(opt, "off"))
		return "screen=off on the command line";
	if (fb->addr && fb->type == 1)
		return use_framebuffer(fb);
	if (fb->addr && fb->type == 2 && fb->width && fb->height) {
		use_vga_text(fb->addr, fb->width, fb->height);
		return NULL;
	}
	if (fb->addr)
		return "the boot loader's framebuffer uses indexed colours";
	if (bi->efi_system_table)
		return "UEFI passed no framebuffer (no GOP, or the loader did not pass it)";
	use_vga_text(VGA_TEXT_PHYS, 80, 25);
	return NULL;
}

static void describe(const struct boot_info *bi, const char *why)
{
	if (kind == SCREEN_FRAMEBUFFER)
		printk("screen: framebuffer %ux%ux%u at %#llx, font %ux%u, %ux%u characters\n",
		       fbc.fb.width, fbc.fb.height, fbc.fb.bpp, (unsigned long long)bi->fb.addr,
		       font.width, font.height, fbc.cols, fbc.rows);
	else if (kind == SCREEN_VGA_TEXT)
		printk("screen: VGA text %ux%u at %#llx\n", vga.cols, vga.rows,
		       (unsigned long long)virt_to_phys((const void *)vga.cells));
	else
		printk("screen: none (%s); output on the serial port only\n", why);
}

void screen_console_init(const struct boot_info *bi)
{
	if (kind != SCREEN_EARLY)
		return;
	const char *why = choose(bi);
	if (why) {
		kind = SCREEN_NONE;
	} else {
		screen_lines_init(&lines, raw_write);
		replay_early();
	}
	describe(bi, why);
}

void screen_console_write(const char *s, size_t len)
{
	switch (kind) {
	case SCREEN_EARLY:
		keep_early(s, len);
		break;
	case SCREEN_VGA_TEXT:
	case SCREEN_FRAMEBUFFER:
		screen_lines_write(&lines, s, len);
		break;
	case SCREEN_NONE:
		break;
	}
}

static bool showing(void)
{
	return kind == SCREEN_VGA_TEXT || kind == SCREEN_FRAMEBUFFER;
}

void screen_console_quiet(bool quiet)
{
	static unsigned long before;
	char note[80];
	int n;

	if (!showing())
		return;
	screen_lines_quiet(&lines, quiet);
	if (quiet) {
		before = lines.dropped_reports;
		return;
	}
	if (lines.dropped_reports == before)
		return;
	n = snprintf(note, sizeof(note), "    # %lu expected report%s: on the serial port only\n",
		     lines.dropped_reports - before, lines.dropped_reports - before == 1 ? "" : "s");
	screen_lines_write(&lines, note, (size_t)n);
}

unsigned long screen_console_expected_reports(void)
{
	return lines.dropped_reports;
}

void screen_console_page(const char *text, size_t len)
{
	unsigned long reports = lines.dropped_reports;

	if (kind == SCREEN_VGA_TEXT)
		vga_text_init(&vga, vga.cells, vga.cols, vga.rows);
	else if (kind == SCREEN_FRAMEBUFFER)
		fb_console_clear(&fbc);
	else
		return;
	screen_lines_init(&lines, raw_write);
	lines.dropped_reports = reports;
	screen_lines_write(&lines, text, len);
}
