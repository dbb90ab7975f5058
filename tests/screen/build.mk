# SPDX-License-Identifier: MIT
# The screen tests: the kernel's report must be on screen, in VGA text under BIOS and in the
# framebuffer under UEFI (given by GRUB or by the direct loader). tests/screen/ppm_text reads a
# screen dump back into text with the console font.
PPM_TEXT := $(B)/host/ppm_text
$(PPM_TEXT): tests/screen/ppm_text.c kernel/console/psf.c $(CONSOLE_FONT_C)
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD $(HOST_MM_ENV) $^ -o $@

SCREEN_TEST = tests/screen/test.sh --accel $(ACCEL) --timeout $(TIMEOUT) --ppm-text $(PPM_TEXT)

.PHONY: test-screen-bios test-screen-uefi test-screen-uefi-loader
test-screen-bios: $(B)/usb-grub.img $(PPM_TEXT)
	$(SCREEN_TEST) --firmware bios --image $< --name bios --expect vga
test-screen-uefi: $(B)/usb-grub.img $(PPM_TEXT)
	$(SCREEN_TEST) --firmware uefi --image $< --name uefi-grub --expect fb
test-screen-uefi-loader: $(B)/usb-loader.img $(PPM_TEXT)
	$(SCREEN_TEST) --firmware uefi --image $< --name uefi-loader --expect fb
TEST_STEPS += test-screen-bios test-screen-uefi test-screen-uefi-loader
