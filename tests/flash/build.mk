# SPDX-License-Identifier: MIT
# make flash DEV=/dev/sdX writes build/usb.img to a USB stick (boot/flash.sh does every check);
# test-flash runs that script against fake device trees. make flash never builds the image: it
# writes what make usb built, and refuses when a CMDLINE= given now is not the one the image
# carries (boot/flash.sh compares it with build/usb.img.cmdline).
.PHONY: flash test-flash
flash:
	@FLASH_CMDLINE_GIVEN=$(if $(CMDLINE_GIVEN),1) boot/flash.sh $(B)/usb.img "$(DEV)"

test-flash:
	@WORK=$(B)/flash-test tests/flash/test.sh
TEST_STEPS += test-flash
