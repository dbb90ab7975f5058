# SPDX-License-Identifier: MIT
# kernel/console/: the screen console (VGA text and framebuffer) and its PSF font. The font comes
# from Debian's console-setup fonts at build time, unpacked and turned into a C array.
CONSOLE_FONT ?= /usr/share/consolefonts/Lat15-Terminus16.psf.gz
CONSOLE_FONT_C := $(B)/gen/console_font.c

CONSOLE_SRCS := kernel/console/psf.c kernel/console/vga_text.c kernel/console/fb_console.c \
                kernel/console/screen_lines.c $(CONSOLE_FONT_C)
KERNEL_SRCS += $(CONSOLE_SRCS) kernel/console/screen.c
HOST_SRCS   += $(CONSOLE_SRCS) # for the self-test suite tests/ktest/screen_console.c

$(CONSOLE_FONT_C): kernel/console/build.mk | deps
	@mkdir -p $(dir $@)
	@echo "  FONT    $(CONSOLE_FONT)"
	$(Q){ echo '/* Generated from $(CONSOLE_FONT) by kernel/console/build.mk. */'; \
	  echo '#include "kernel/console/psf.h"'; \
	  echo 'const uint8_t console_font_psf[] = {'; \
	  gunzip -c $(CONSOLE_FONT) | od -An -v -tu1 | sed 's/  */,/g; s/^,//; s/$$/,/'; \
	  echo '};'; \
	  echo 'const size_t console_font_psf_size = sizeof(console_font_psf);'; } > $@.tmp && mv $@.tmp $@
